"""The night's chart on a phone, in Chromium at 390x844 and 360x640: its legend and its axis are as readable
as the page's small text. The chart is an SVG drawn on the server and shrunk to the card's width: drawn 480
units wide at 15 units a letter, its text came out at 11 px on a 360 px phone (the page's small text: 15.6 px)."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night
from tests.support import SAUSPIEL_CLARA, start_night

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}

#: Each text of the page's charts: its size as shown (its font size in the chart's units times the scale the
#: SVG is drawn at), whether it lies inside the chart, and the page's small text's size (``.hint``).
SIZES = """
() => {
  const hint = document.querySelector(".hint");
  const texts = [];
  for (const svg of document.querySelectorAll(".chart-box svg")) {
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      texts.push({
        text: t.textContent,
        px: parseFloat(getComputedStyle(t).fontSize) * scale,
        inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
          && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5,
      });
    }
  }
  return { small: hint ? parseFloat(getComputedStyle(hint).fontSize) : 0, texts };
}
"""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_charts_legend_and_axis_are_as_big_as_the_pages_small_text(browser, live, roster, sign_in, size, lang):
    from sqlmodel import select

    from scorekeeper.core.models import Player

    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        players = list(db.exec(select(Player).order_by(Player.id)))
        night = start_night(db, players, game="schafkopf", seats=4, stake_cents=10)
        for hand in ({"contract": "rundpass"}, SAUSPIEL_CLARA, {"contract": "rundpass"}):
            record_hand(db=db, night_id=night.id, hand=hand)
        close_night(db=db, night_id=night.id)
        night_id, anna = night.id, players[0].id
    context = browser.new_context(viewport=PHONES[size], locale="de-DE")
    try:
        page = context.new_page()
        sign_in(page)
        for path in (f"/nights/{night_id}/summary?lang={lang}", f"/players/{anna}?lang={lang}"):
            page.goto(base + path)
            sizes = page.evaluate(SIZES)
            names = {t["text"] for t in sizes["texts"]}
            assert "Anna" in names and "0" in names, path  # the legend and the axis
            assert sizes["small"] > 15, path  # the page's small text: .92rem of 17 px
            small = [(t["text"], round(t["px"], 1)) for t in sizes["texts"] if t["px"] < sizes["small"]]
            assert small == [], (path, sizes["small"])
            assert [t["text"] for t in sizes["texts"] if not t["inside"]] == [], path
    finally:
        context.close()
