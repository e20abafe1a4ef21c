"""The deal, once (issue 24): for random nights of every game at both its table sizes, with hands dealt
again, edits and undos, the deals the engine lists for the night's hands (engine/deal.py ``deals``) are
those stored with the hands, and the table read back knows the next one; a hand entered for another deal
lands only where the same people play it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.core.hands import add_hands, edit_hand, record_hand, undo_last
from scorekeeper.core.table import hand_rows, load_table
from scorekeeper.engine import GAMES, InvalidHand, deal
from scorekeeper.engine.samples import random_hands
from tests.support import start_night

TABLES = [(name, size) for name, game in GAMES.items() for size in game.table_sizes]
RULES = {"schafkopf": {"all_pass": "redeal"}, "konter_a_matt": {"stake_per_game": 3}, "matt": {"stake_per_point": 1}}


def _pool(name: str, rng: random.Random) -> list[dict]:
    """Hands to try, without the dealer the night knows (a Rundpass dealt again among Schafkopf's)."""
    hands = random_hands(name, rng, 40, GAMES[name].parse_rules(RULES.get(name)))
    pool = [{k: v for k, v in h.items() if k != "dealer"} for h in hands]
    return pool + ([{"contract": "rundpass"}] * 10 if name == "schafkopf" else [])


def _listed_and_stored(db, night) -> tuple[list[int], list[int]]:
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    rows = hand_rows(db=db, night_id=night.id)
    listed = deal.deals(game, rules, night.seat_count, night.first_dealer, [r.data for r in rows])
    table = load_table(db=db, night_id=night.id)
    assert table.next_deal == listed[-1]  # the read model's next deal is the engine's
    assert [table.deal(r.number) for r in rows] == listed[:-1]
    return [d.dealer for d in listed[:-1]], [r.dealer for r in rows]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TABLES), st.integers(1, 5), st.lists(st.sampled_from("rrrreu"), max_size=14), st.randoms())
def test_the_deals_the_engine_lists_are_those_stored_with_the_hands(db, players, table, first, steps, rng):
    name, size = table
    night = start_night(db, players, game=name, seats=size, rules=RULES.get(name), first_dealer=(first - 1) % size + 1)
    pool = _pool(name, rng)
    for step in steps:
        count = len(hand_rows(db=db, night_id=night.id))
        try:
            if step == "r":
                record_hand(db=db, night_id=night.id, hand=rng.choice(pool), expected_hands=count)
            elif step == "e" and count:
                edit_hand(db=db, night_id=night.id, number=rng.randint(1, count), hand=rng.choice(pool))
            elif step == "u" and count:
                undo_last(db=db, night_id=night.id)
        except (InvalidHand, Conflict):
            db.rollback()  # a hand that does not fit there: refused, nothing changed
        listed, stored = _listed_and_stored(db, night)
        assert listed == stored


@pytest.mark.parametrize(("name", "size"), TABLES)
def test_hands_added_at_once_are_dealt_as_the_engine_lists(db, players, name, size):
    night = start_night(db, players, game=name, seats=size, rules=RULES.get(name), first_dealer=size)
    rng = random.Random(24)
    for hand in _pool(name, rng)[:12]:
        try:
            add_hands(db=db, night_id=night.id, hands=[hand])
        except InvalidHand:
            db.rollback()
    listed, stored = _listed_and_stored(db, night)
    assert listed == stored


def test_a_hand_entered_for_another_dealer_lands_only_where_the_same_people_play(db, players):
    """At a table of five the dealer sits out: a hand entered while Anna dealt (kept offline) is refused as
    hand 2, which Bernd deals, and nothing is stored; entered for Bernd's deal, it lands."""
    night = start_night(db, players, game="matzlfangen", seats=5)
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True})
    with pytest.raises(InvalidInput) as refused:
        record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True}, dealt_by=1)
    db.rollback()
    assert refused.value.field == "dealt_by"
    assert (refused.value.params["dealer"], refused.value.params["now"], refused.value.params["hand"]) == (
        "Anna",
        "Bernd",
        2,
    )
    assert len(hand_rows(db=db, night_id=night.id)) == 1
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True}, dealt_by=2)
    assert [r.dealer for r in hand_rows(db=db, night_id=night.id)] == [1, 2]


def test_a_deal_read_before_the_night_changed_is_worked_out_again_under_the_lock(db, players):
    """The page read the night after a Rundpass dealt again (Anna deals the next hand too); then the Rundpass
    was corrected to a Sauspiel: the next hand is Bernd's deal, not the one the page read."""
    night = start_night(db, players, game="schafkopf", seats=4, rules=RULES["schafkopf"])
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    table = load_table(db=db, night_id=night.id, newest=1)
    seen = (table.night.version, table.next_deal)
    assert seen[1].dealer == 1
    sauspiel = {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": "gras", "points": 70}
    edit_hand(db=db, night_id=night.id, number=1, hand=sauspiel)
    record_hand(db=db, night_id=night.id, hand=sauspiel, seen=seen)
    assert [r.dealer for r in hand_rows(db=db, night_id=night.id)] == [1, 2]
