"""A night's life, answered by one place (core/lifecycle.py): a table of cases, state × action × who,
and the states as the stored nights give them."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core import lifecycle
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.hands import record_hand
from scorekeeper.core.lifecycle import (
    ALL_DEALT,
    CHANGE,
    CLOSE,
    DELETE,
    EDIT,
    FINISHED,
    FROZEN,
    GUEST,
    NIGHT_CLOSED,
    NIGHT_OPEN,
    PAPER,
    PLAYING,
    RECORD,
    REOPEN,
    SYSTEM,
    UNDO,
    Life,
)
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import create_player
from tests.support import ROOT, start_night

#: A night in each state (D = 3 deals at a tournament's table).
LIVES = {
    NIGHT_OPEN: Life(status="open", hands=2),
    NIGHT_CLOSED: Life(status="closed", hands=2),
    PLAYING: Life(status="open", hands=2, tournament=True, deals=3, deals_played=2),
    ALL_DEALT: Life(status="open", hands=4, tournament=True, deals=3, deals_played=3),
    FINISHED: Life(status="closed", hands=3, tournament=True, deals=3, deals_played=3),
    FROZEN: Life(status="closed", hands=3, tournament=True, tournament_open=False, deals=3, deals_played=3),
}
EVERYBODY = (GUEST, "viewer", "scorer", "admin")
ALL = frozenset(EVERYBODY)
HANDS = frozenset({GUEST, "scorer", "admin"})  # record, edit, undo
ORGANISER = frozenset({"scorer", "admin"})
ADMIN = frozenset({"admin"})
NOBODY: frozenset[str] = frozenset()

#: state -> action -> who may (everyone else is refused, with a reason).
CASES = {
    NIGHT_OPEN: {RECORD: HANDS, EDIT: HANDS, UNDO: HANDS, CLOSE: HANDS, REOPEN: NOBODY, PAPER: NOBODY, DELETE: ADMIN}
    | {CHANGE: ADMIN},
    NIGHT_CLOSED: {RECORD: NOBODY, EDIT: NOBODY, UNDO: NOBODY, CLOSE: NOBODY, REOPEN: ADMIN, PAPER: NOBODY}
    | {DELETE: ADMIN, CHANGE: ADMIN},
    # a table phone records, corrects, undoes; it never finishes its table, the organiser may
    PLAYING: {RECORD: HANDS, EDIT: HANDS, UNDO: HANDS, CLOSE: ORGANISER, REOPEN: NOBODY, PAPER: NOBODY}
    | {DELETE: NOBODY, CHANGE: ADMIN},
    # reopened with its D deals: corrected, never a deal more
    ALL_DEALT: {RECORD: NOBODY, EDIT: HANDS, UNDO: HANDS, CLOSE: ORGANISER, REOPEN: NOBODY, PAPER: NOBODY}
    | {DELETE: NOBODY, CHANGE: ADMIN},
    FINISHED: {RECORD: NOBODY, EDIT: NOBODY, UNDO: NOBODY, CLOSE: NOBODY, REOPEN: ADMIN, PAPER: NOBODY}
    | {DELETE: NOBODY, CHANGE: ADMIN},
    # a closed tournament freezes its tables (their date and place too): reopening one needs the
    # tournament reopened first
    FROZEN: {RECORD: NOBODY, EDIT: NOBODY, UNDO: NOBODY, CLOSE: NOBODY, REOPEN: NOBODY, PAPER: NOBODY}
    | {DELETE: NOBODY, CHANGE: NOBODY},
}


def test_the_cases_name_every_state_and_action():
    assert set(CASES) == set(lifecycle.STATES)
    assert all(set(actions) == set(lifecycle.ACTIONS) for actions in CASES.values())
    assert all(life.state == state for state, life in LIVES.items())


@pytest.mark.parametrize(
    ("state", "action", "who"),
    [(s, a, w) for s in CASES for a in lifecycle.ACTIONS for w in EVERYBODY],
)
def test_who_may_do_what_to_a_night_in_each_state(state, action, who):
    life = LIVES[state]
    answer = lifecycle.refusal(life, action, who)
    if who in CASES[state][action]:
        assert answer is None
        assert action in lifecycle.allowed(life, who)
    else:
        assert isinstance(answer, Conflict) and answer.message  # refused, with a reason
        assert action not in lifecycle.allowed(life, who)
        with pytest.raises(Conflict):
            lifecycle.check(life, action, who)


@pytest.mark.parametrize("state", list(CASES))
def test_the_command_line_has_every_role_but_no_state_is_overruled(state):
    """SYSTEM (the club's command line, an import) may do whatever the state allows to anybody."""
    for action in lifecycle.ACTIONS:
        anybody = any(lifecycle.refusal(LIVES[state], action, w) is None for w in EVERYBODY)
        state_allows = lifecycle.refusal(LIVES[state], action, SYSTEM) is None
        assert state_allows == anybody, (state, action)


def test_paper_points_only_at_a_table_without_deals():
    empty = Life(status="open", hands=0, tournament=True, deals=3)
    assert lifecycle.refusal(empty, PAPER, "scorer") is None
    assert lifecycle.refusal(empty, PAPER, GUEST) is not None  # the organiser's, never a table phone's
    paper = Life(status="closed", hands=0, tournament=True, deals=3, paper=True)
    assert lifecycle.refusal(paper, PAPER, "scorer") is None  # corrected
    assert lifecycle.refusal(paper, REOPEN, "admin").template.startswith("this table's points come from")


def test_the_refusals_say_why():
    assert "reopens the tournament first" in lifecycle.refusal(LIVES[FROZEN], REOPEN, "admin").message
    assert "3 deals" in lifecycle.refusal(LIVES[ALL_DEALT], RECORD, "admin").message
    assert "organiser" in lifecycle.refusal(LIVES[PLAYING], CLOSE, GUEST).message
    assert lifecycle.refusal(Life(status="open", hands=0), UNDO, "scorer").message == "there is no hand to undo"


def test_never_more_counted_deals_than_the_tournaments_number():
    lifecycle.check_deals(LIVES[PLAYING], 3)
    with pytest.raises(Conflict, match="plays 3 deals: this would make it 4"):
        lifecycle.check_deals(LIVES[PLAYING], 4)
    lifecycle.check_deals(LIVES[NIGHT_OPEN], 400)  # a club night has no number of deals


def test_a_form_of_another_night_is_refused():
    class Night:
        uid = "a" * 32
        tournament_id = None

    class Table(Night):
        tournament_id = 1

    lifecycle.check_form(Night(), "a" * 32)
    lifecycle.check_form(Night(), None)  # a form of before the uid was posted, or the API
    with pytest.raises(Conflict, match="another night"):
        lifecycle.check_form(Night(), "b" * 32)
    with pytest.raises(Conflict, match="another table that had the same number"):  # a tournament's table
        lifecycle.check_form(Table(), "b" * 32)


@pytest.mark.parametrize("state", [PLAYING, ALL_DEALT, FINISHED, FROZEN])
def test_a_tournament_tables_refusals_speak_of_the_table_never_of_a_night(state):
    """A tournament's table is a table (its pages say so: core/table.py ``Table.at_tournament``), in every
    refusal of its life too, to everybody who asks."""
    said = {
        r.message
        for a in lifecycle.ACTIONS
        for w in (*EVERYBODY, SYSTEM)
        if (r := lifecycle.refusal(LIVES[state], a, w))
    }
    assert said
    assert [m for m in said if re.search(r"\bnights?\b", m)] == []


@pytest.mark.parametrize(
    ("state", "action", "who", "said"),
    [
        (NIGHT_CLOSED, CLOSE, "admin", "this night is closed already"),
        (FINISHED, CLOSE, "admin", "this table is closed already"),
        (NIGHT_OPEN, REOPEN, "admin", "this night is open already"),
        (PLAYING, REOPEN, "admin", "this table is open already"),
        (NIGHT_CLOSED, REOPEN, "scorer", "only an admin may reopen or delete a night"),
        (FINISHED, REOPEN, "scorer", "only an admin may reopen a table"),
        (NIGHT_OPEN, RECORD, "viewer", "your account may not change this night"),
        (PLAYING, RECORD, "viewer", "your account may not change this table"),
        (PLAYING, DELETE, "admin", "a tournament's table is not deleted on its own: it goes with its round"),
    ],
)
def test_a_refusal_names_a_club_night_a_night_and_a_tournaments_table_a_table(state, action, who, said):
    answer = lifecycle.refusal(LIVES[state], action, who).message
    assert answer.startswith(said), answer


def test_the_states_as_the_stored_nights_give_them(db):
    players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter")]
    club = start_night(db, players)
    assert lifecycle.life_of(db=db, night=club).state == NIGHT_OPEN
    close_night(db=db, night_id=club.id)
    assert lifecycle.life_of(db=db, night=club).state == NIGHT_CLOSED
    t = tm.create_tournament(db=db, name="T", game="schafkopf", rules={"preset": "turnier"}, deals=2, rounds=1)
    for p in players:
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    sauspiel = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
    record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"})
    life = lifecycle.life_of(db=db, night=table)
    assert (life.state, life.hands, life.deals_played, life.next_deal) == (PLAYING, 1, 0, 1)
    record_hand(db=db, night_id=table.id, hand=sauspiel)
    record_hand(db=db, night_id=table.id, hand=sauspiel)  # its last deal finishes it
    assert lifecycle.life_of(db=db, night=table).state == FINISHED
    tm.close_tournament(db=db, tournament_id=t.id)
    assert lifecycle.life_of(db=db, night=table).state == FROZEN


def test_every_refusal_of_a_nights_life_has_a_german_translation_with_the_same_placeholders():
    from babel.messages.pofile import read_po

    source = (ROOT / "scorekeeper" / "core" / "lifecycle.py").read_text(encoding="utf-8")
    templates = set(re.findall(r'Conflict\(\s*"((?:[^"\\]|\\.)*)"', source))
    assert len(templates) >= 15
    with (ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    assert [t for t in templates if t not in catalog] == []
    for t in templates:
        # a counted refusal (Conflict(singular, plural, n=...)): each of its German forms
        forms = catalog[t].string if isinstance(catalog[t].string, tuple) else (catalog[t].string,)
        assert all(forms), t
        for form in forms:
            assert sorted(re.findall(r"\{(\w+)\}", form)) == sorted(re.findall(r"\{(\w+)\}", t)), t
