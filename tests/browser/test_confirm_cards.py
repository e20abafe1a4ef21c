"""The pages that ask before they change something show their card alike (seams 7), in Chromium at 390 x 844: the
withdraw and replace pages' card begins its text as far below the card's edge as the card forms of
``forms.card_form`` (the night's delete page, the tournament's reopen page) begin their first field."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm

pytestmark = pytest.mark.browser

#: The gap from a card's top edge to the top of its first visible content, in CSS pixels.
GAP = """() => { const card = document.querySelector("main form.card");
  const first = [...card.children].find(el => el.getBoundingClientRect().height > 0);
  return first.getBoundingClientRect().top - card.getBoundingClientRect().top; }"""


@pytest.fixture
def tournament(live, roster) -> int:
    """A tournament of the five players, not drawn yet: its id."""
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(db=db, name="Cup", game="schafkopf", rules={}, rounds=2, deals=4, seed="s")
        for player_id in roster:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player_id)
        return t.id


def test_the_withdraw_and_replace_cards_begin_their_text_as_card_forms_do(page, live, matzlfangen_night, tournament):
    base, _ = live
    page.goto(f"{base}/nights/{matzlfangen_night}/delete")
    expected = page.evaluate(GAP)
    assert expected > 0
    for step in ("withdraw", "replace"):
        page.goto(f"{base}/tournaments/{tournament}/entrants/1/{step}")
        assert page.evaluate(GAP) == pytest.approx(expected, abs=1), step
