"""Every list of names on a phone (the roster, a player's tournaments, the tournaments, the nights, a tournament's
entrants, tables and pairs kept apart, the accounts and an account's tokens): a name of one long word, 40 letters
without a space, stays in its row and never runs over what stands beside it, at 360 and 390 px, in both languages;
nor does the page get wider than the phone."""

from __future__ import annotations

import pytest

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import create_night
from scorekeeper.core.players import create_player
from tests.browser.conftest import _sign_in
from tests.support import make_user

pytestmark = pytest.mark.browser

PHONES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}

#: 40 letters, no space, no hyphen: the longest name a player, an account or a tournament may have.
LONG = "Hubertusobermeierhinterseerschwarzenberg"

#: Each list's rows whose text runs out of the row or over another text of the same row: the row, and what.
RUNS_OVER = r"""
() => {
  const out = [];
  const pieces = li => {
    const found = [], walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.textContent.trim() || !node.parentElement.checkVisibility()) continue;
      const range = document.createRange(); range.selectNodeContents(node);
      found.push({ text: node.textContent.trim(), rects: [...range.getClientRects()] });
    }
    return found;
  };
  const meets = (a, b) =>
    a.right > b.left + 0.5 && b.right > a.left + 0.5 && a.bottom > b.top + 0.5 && b.bottom > a.top + 0.5;
  for (const li of document.querySelectorAll(".list li")) {
    if (!li.checkVisibility()) continue;
    const row = li.getBoundingClientRect(), found = pieces(li);
    for (const p of found)
      for (const r of p.rects)
        if (r.width && (r.left < row.left - 0.5 || r.right > row.right + 0.5))
          out.push(`"${p.text}" runs out of its row (${r.left}-${r.right} of ${row.left}-${row.right})`);
    for (const p of found)  // a short name beside a long one is never squeezed to a letter a line ("A/n/n/a")
      if (!/\s/.test(p.text) && p.text.length <= 12 && p.rects.filter(r => r.width).length > 1)
        out.push(`"${p.text}" is broken`);
    for (let i = 0; i < found.length; i++)
      for (let j = i + 1; j < found.length; j++)
        if (found[i].rects.some(a => found[j].rects.some(b => a.width && b.width && meets(a, b))))
          out.push(`"${found[i].text}" runs over "${found[j].text}"`);
  }
  return out;
}
"""


@pytest.fixture
def long_names(live):
    """A player, a tournament (its first round drawn, two of its entrants kept apart), a night's place, an account
    and its token, each named with one word of 40 letters: the pages that list them, by address."""
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        people = [create_player(db=db, name=n).id for n in (LONG, "Anna", "Bernd", "Clara")]
        t = tm.create_tournament(
            db=db, name=LONG, game="schafkopf", rules={"preset": "turnier"}, deals=1, seed="s", place=LONG
        )
        for player in people:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player)
        tm.keep_apart(db=db, tournament_id=t.id, first=1, second=2)
        tm.draw_round(db=db, tournament_id=t.id)  # its table's seats, a list in the list of tables
        tournament = t.id
        night = create_night(
            db=db, game="matzlfangen", rules=None, player_ids=people, first_dealer=1, stake_cents=10, place=LONG
        )
        record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": 4, "points": 70})
    user = make_user(app, LONG, "scorer")
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_token(db=db, user=accounts.find_user(db=db, name=LONG), label=LONG)
    return [
        "/players/",
        f"/players/{people[0]}",
        "/tournaments/",
        f"/tournaments/{tournament}",
        "/nights/",
        "/users",
        f"/users/{user.id}",
    ]


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
@pytest.mark.parametrize("size", list(PHONES))
def test_a_name_of_one_long_word_stays_in_its_row_of_every_list(browser, live, long_names, size, locale):
    """Only a player's tournaments were mended (their date and rank go under the name); elsewhere a name's
    box kept the word whole (``overflow-wrap: break-word`` leaves a flex item as wide as its longest word, and a
    link drawn as ``inline-flex`` does the same inside itself), and the word ran on under the button or the
    words beside it, or out of the row. Nor is the page wider than the phone: a heading, the alert that a pair was
    not kept apart, the player's "All nights of" link made it 394 to 667 px wide."""
    base, _app = live
    context = browser.new_context(viewport=PHONES[size], locale=locale)
    page = context.new_page()
    page.set_default_timeout(10_000)
    _sign_in(page, live)
    seen = {}
    for path in long_names:
        page.goto(f"{base}{path}")
        assert page.locator(".list li").count(), path  # a list there, with rows
        seen[path] = page.evaluate(RUNS_OVER)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > PHONES[size]["width"]:
            seen[path].append(f"the page is {wide} px wide")
    context.close()
    problems = {path: found for path, found in seen.items() if found}
    assert not problems, "\n".join(f"{path}: {found}" for path, found in problems.items())


def test_a_cards_first_heading_sits_at_the_cards_padding(page, live):
    """A card's heading at its top starts at the card's padding: its own margin left an empty band above it (the
    tournament's list of participants, the pairs kept apart)."""
    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(
            db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s"
        )
        for i in range(4):
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
        tournament = t.id
    page.goto(f"{base}/tournaments/{tournament}")
    for card in ("#entrants", "#apart"):
        box = page.locator(card).bounding_box()
        heading = page.locator(f"{card} > h2").bounding_box()
        assert heading["y"] - box["y"] <= 13, (card, box, heading)  # its border and padding: 1 + 12 px
