"""The tournament's page as the organiser sees it on a phone (Chromium, 390 x 844): a change's message where the page
opens, and the next-step card's words at its top edge."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gerda", "Hans", "Ida", "Josef", "Karin", "Ludwig"]


def _tournament(app, drawn: bool) -> int:
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(db=db, name="Cup", game="schafkopf", rules={"preset": "turnier"}, deals=8, seed="s")
        for name in NAMES:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=name).id)
        if drawn:
            tm.draw_round(db=db, tournament_id=t.id)
        return t.id


def test_the_points_entered_are_said_on_the_screen_the_page_opens_at(page, live):
    """The message "Die Punkte von Tisch 2 sind eingetragen." was said at the page's top, and the page opened at the
    round: on a phone the message was above the screen, never seen."""
    base, app = live
    tid = _tournament(app, drawn=True)
    page.goto(f"{base}/tournaments/{tid}")
    page.locator("#round-1 a[href*='/tables/2/paper']").click()
    page.wait_for_load_state()
    for field, value in {"p1": "5", "p2": "-4", "p3": "-1", "p4": "0"}.items():
        page.fill(f"#{field}", value)
    with page.expect_navigation():
        page.locator("form.paper-form button[type=submit]").click()
    assert page.url.endswith("#round-1")
    said = page.locator(".flash", has_text="Die Punkte von Tisch 2 sind eingetragen.")
    box = said.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # on the screen


#: How far below the card's top edge its first words begin, and the card's own border and padding there.
WORDS_TOP = """card => { const words = card.querySelector("p, h2");
  const style = getComputedStyle(card);
  return [words.getBoundingClientRect().top - card.getBoundingClientRect().top,
          parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop)]; }"""


def test_the_next_step_cards_words_begin_at_its_padding_as_every_cards_do(page, live):
    """The words "12 Teilnehmer" sat in the draw's form, the card's first child: the rule that takes a card's first
    child's margin away did not reach it, and a band stood above the words."""
    base, app = live
    tid = _tournament(app, drawn=False)
    page.goto(f"{base}/tournaments/{tid}")
    card = page.locator(".next-step")
    assert "12 Teilnehmer" in card.inner_text()
    top, edge = card.evaluate(WORDS_TOP)
    assert top == pytest.approx(edge, abs=1)
    top, edge = page.locator("#entrants").evaluate(WORDS_TOP)  # a card beginning with its heading: the same
    assert top == pytest.approx(edge, abs=1)


#: The tops of a paper form's player's three inputs, and the top of the form's box of refusals' first words.
ROW_TOPS = """n => ["p", "w", "l"].map(k => document.getElementById(k + n).getBoundingClientRect().top)"""
BOX_WORDS = """box => [box.querySelector("p").getBoundingClientRect().top - box.getBoundingClientRect().top,
  parseFloat(getComputedStyle(box).borderTopWidth) + parseFloat(getComputedStyle(box).paddingTop)]"""


def test_a_paper_lists_refusals_leave_each_players_fields_on_one_line(page, live):
    """Several refusals at once (the core's): a player's message in a column a third of the phone wide took a line a
    word and pushed that player's other fields down, out of line; the box of the list's own refusals had a band
    above its words."""
    base, app = live
    tid = _tournament(app, drawn=True)
    page.goto(f"{base}/tournaments/{tid}")
    page.locator("#round-1 a[href*='/tables/2/paper']").click()
    page.wait_for_load_state()
    for field, value in {"p1": "5", "p2": "-4", "p3": "200000", "p4": "0", "w2": "9", "w3": "5", "l3": "4"}.items():
        page.fill(f"#{field}", value)
    with page.expect_navigation():
        page.locator("form.paper-form button[type=submit]").click()
    assert page.locator(".errors li").count() >= 3  # the players' (points, solos), said at once
    for n in (2, 3):
        tops = page.evaluate(ROW_TOPS, n)
        assert max(tops) - min(tops) < 1, (n, tops)
    top, edge = page.locator(".form-errors").evaluate(BOX_WORDS)
    assert top == pytest.approx(edge, abs=1)
