"""Issue 26.5 on a phone: what a tap target is (``SMALL_TARGETS``, used over every page of the app by
test_every_page.py at 390 x 844), and the settlement's statistics, which scroll sideways at 360 px, scroll in a
region a keyboard reaches (axe finds nothing serious there). A link inside a sentence is text, not a tap target
(WCAG 2.5.8's inline exception)."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import create_night
from tests.browser.test_accessibility import describe, violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MIN = 44

#: The controls a finger taps, as the page shows them (a radio or a switch by its label).
SMALL_TARGETS = """(min) => {
  const seen = [];
  const els = document.querySelectorAll(
    'a[href], button, select, textarea, summary, input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
    + ' .segmented label, label.switch');
  for (const el of els) {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (el.matches('a') && style.display === 'inline') {
      const block = el.parentElement.closest('p, li, td, dd, span, h1, h2, h3, small');
      const text = block ? block.textContent.replace(el.textContent, '').trim() : '';
      if (text.length > 1) continue;  // a link inside a sentence or a line of text
    }
    if (box.height < min - 0.5) seen.push((el.id ? '#' + el.id : el.tagName.toLowerCase())
      + ' "' + el.textContent.trim().slice(0, 30) + '" ' + Math.round(box.height) + 'px');
  }
  return seen;
}"""


def _nights(live, roster) -> dict[str, int]:
    _, app = live
    hands = {
        "matzlfangen": (4, [{"contract": "rufen", "partner": 4, "points": 70}]),
        "schafkopf": (4, [{"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70}]),
        "konter_a_matt": (4, [{"trump_team": "A", "points_a": 30}]),
        "matt": (2, [{"mated_by": 1, "move": 7, "card": "A"}]),
    }
    out = {}
    with database.session(app.extensions["sk_engine"]) as db:
        for game, (seats, played) in hands.items():
            night = create_night(
                db=db, game=game, rules=None, stake_cents=10, player_ids=roster[:seats], first_dealer=1
            )
            for hand in played:
                record_hand(db=db, night_id=night.id, hand=hand)
            out[game] = night.id
        t = tm.create_tournament(db=db, name="Frühjahr", game="schafkopf", rules={"preset": "turnier"}, deals=4)
        for player in roster[:4]:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player)
        tm.draw_round(db=db, tournament_id=t.id)
        out["tournament"] = t.id
    return out


def test_the_settlement_at_360_px_has_no_serious_violation(browser, sign_in, live, roster):
    """The settlement of each game at 360 px, where its statistics scroll sideways."""
    base, _ = live
    nights = _nights(live, roster)
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale="de-DE")
    try:
        page = context.new_page()
        sign_in(page)
        failures = []
        for game in ("matzlfangen", "schafkopf", "konter_a_matt", "matt"):
            path = f"/nights/{nights[game]}/summary"
            page.goto(f"{base}{path}")
            found = violations(page)
            if found:
                failures.append(describe(found, f"{path} ({game}) at 360 px"))
        assert not failures, "\n\n".join(failures)
    finally:
        context.close()
