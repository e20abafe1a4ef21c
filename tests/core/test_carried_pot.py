"""Rule: the pot carried to the club's next night (docs/rules.md, "The pot carried to the next night").

A club night whose rules carry its pot leaves it waiting once the night is closed; the club's next
Schafkopf night that plays a pot takes every pot waiting of its kind (money in its currency, or units at
a stake of 0), and where each went is recorded (``Night.pot_to``, ``Night.pot_given``): no pot is lost
to a night still open, a night without a pot in between, two tables on one evening or a deleted night.
"""

from __future__ import annotations

import threading

import pytest
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core.errors import Conflict
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import POT_GONE, Night
from scorekeeper.core.nights import add_night, close_night, delete_night, pot_moved, reopen_night
from scorekeeper.core.table import get_night, load_table
from tests.support import start_night

CARRY = {"pot_at_close": "carry"}
RUNDPASS = {"contract": "rundpass"}  # every player pays 2 units into the pot: it holds 8
SOLO = {"contract": "solo", "declarer": 1, "suit": "herz", "points": 70}


def carry_night(db, players, stake_cents=10, rundpasses=0, close=True, rules=CARRY):
    night = start_night(db, players, game="schafkopf", rules=rules, stake_cents=stake_cents)
    for _ in range(rundpasses):
        record_hand(db=db, night_id=night.id, hand=RUNDPASS)
    if close:
        close_night(db=db, night_id=night.id)
    return night


def pot_of(db, night) -> int:
    return load_table(db=db, night_id=night.id).settlement.pot or 0


def test_a_night_still_open_when_the_next_started_leaves_its_pot_to_the_night_after(db, players):
    """Last week's night was never closed: the night started meanwhile takes nothing of it; closed, its pot
    waits, and the next night takes it (before, it was lost, its page still saying it was carried)."""
    last_week = carry_night(db, players, rundpasses=1, close=False)
    tonight = carry_night(db, players, close=False)
    assert tonight.pot_start == 0
    close_night(db=db, night_id=last_week.id)
    close_night(db=db, night_id=tonight.id)
    next_week = carry_night(db, players, close=False)
    assert next_week.pot_start == 8
    assert get_night(db=db, night_id=last_week.id).pot_to == next_week.uid
    assert get_night(db=db, night_id=tonight.id).pot_to == next_week.uid  # its empty pot, taken too


@pytest.mark.parametrize("all_pass", ["ramsch", "none"])
def test_a_night_without_a_pot_in_between_leaves_the_pot_waiting(db, players, all_pass):
    """docs/rules.md: the next Schafkopf night that plays a pot takes it (before, a Ramsch night in
    between swallowed it)."""
    first = carry_night(db, players, rundpasses=1)
    between = carry_night(db, players, rules={"all_pass": all_pass})
    assert between.pot_start == 0 and get_night(db=db, night_id=first.id).pot_to is None
    third = carry_night(db, players, close=False)
    assert third.pot_start == 8


def test_two_tables_on_one_evening_both_give_their_pots_to_the_next_night(db, players):
    """Two tables started one after the other: the first takes last week's pot; the pots of both go on
    (before, the pot of the table that closed first vanished)."""
    last_week = carry_night(db, players, rundpasses=1)
    table_1 = carry_night(db, players, close=False)
    table_2 = carry_night(db, players, rundpasses=2, close=False)
    assert (table_1.pot_start, table_2.pot_start) == (8, 0)
    close_night(db=db, night_id=table_2.id)
    close_night(db=db, night_id=table_1.id)
    next_week = carry_night(db, players, close=False)
    assert next_week.pot_start == 8 + 16
    assert {get_night(db=db, night_id=n.id).pot_given for n in (table_1, table_2)} == {8, 16}
    assert get_night(db=db, night_id=last_week.id).pot_to == table_1.uid


def test_a_night_deleted_gives_the_pots_it_took_back_to_the_next_night(db, players):
    """A night started with the wrong seats took last week's pot; the right one started with none; the
    wrong one deleted, the pot waits again and the next night takes it (before, it was lost)."""
    last_week = carry_night(db, players, rundpasses=1)
    wrong = carry_night(db, players, close=False)
    right = carry_night(db, players, close=False)
    assert (wrong.pot_start, right.pot_start) == (8, 0)
    delete_night(db=db, night_id=wrong.id, reason="wrong seats", export={})
    assert get_night(db=db, night_id=last_week.id).pot_to is None
    close_night(db=db, night_id=right.id)
    assert carry_night(db, players, close=False).pot_start == 8


def test_a_night_deleted_and_imported_again_takes_its_pots_again(db, players):
    """A deleted night's export brings it back (docs/backup.md): its pots, given back at the deletion, are its
    again, and the next night does not take them too (the money would have been counted twice)."""
    last_week = carry_night(db, players, rundpasses=1)
    tonight = carry_night(db, players, close=False)
    export = night_json(db=db, night_id=tonight.id)
    delete_night(db=db, night_id=tonight.id, reason="by mistake", export=export)
    assert get_night(db=db, night_id=last_week.id).pot_to is None  # waiting again
    again, created = import_night(db=db, data=export)
    assert created and get_night(db=db, night_id=again).pot_start == 8
    assert (get_night(db=db, night_id=last_week.id).pot_to, get_night(db=db, night_id=last_week.id).pot_given) == (
        tonight.uid,
        8,
    )
    close_night(db=db, night_id=again)
    assert carry_night(db, players, close=False).pot_start == 8  # tonight's own pot, not last week's once more


def test_a_night_whose_pot_a_later_night_took_is_not_deleted(db, players):
    first = carry_night(db, players, rundpasses=1)
    second = carry_night(db, players, close=False)
    reopen_night(db=db, night_id=first.id, reason="typo")
    with pytest.raises(Conflict, match="this night's pot went to the night of"):
        delete_night(db=db, night_id=first.id, reason="x", export={})
    db.rollback()
    assert get_night(db=db, night_id=second.id).pot_start == 8


def test_an_empty_pot_corrected_after_the_next_night_took_it_is_named_on_both(db, players):
    """The night closed with an empty pot, the next took it (0), then a forgotten Rundpass was entered:
    both nights name the 0.80 EUR to settle by hand (before, neither did and the money vanished)."""
    first = start_night(db, players, game="schafkopf", rules=CARRY, stake_cents=10)
    record_hand(db=db, night_id=first.id, hand=SOLO)
    close_night(db=db, night_id=first.id)
    second = carry_night(db, players, close=False)
    assert second.pot_start == 0 and get_night(db=db, night_id=first.id).pot_given == 0
    reopen_night(db=db, night_id=first.id, reason="forgotten Rundpass")
    record_hand(db=db, night_id=first.id, hand=RUNDPASS)
    close_night(db=db, night_id=first.id)
    [gave] = pot_moved(db=db, night=get_night(db=db, night_id=first.id))
    [took] = pot_moved(db=db, night=get_night(db=db, night_id=second.id))
    assert (gave.gave, gave.other_id, gave.took, gave.now, gave.difference) == (True, second.id, 0, 80, 80)
    assert (took.gave, took.other_id, took.took, took.now) == (False, first.id, 0, 80)


def test_a_pot_waits_for_a_night_of_its_kind(db, players):
    """A pot of units (a stake of 0) goes to a night at a stake of 0; a pot of money to a night with a stake
    in its currency. A night of the other kind starts without it, and it waits (before, units were lost
    silently at a night with a stake, and a night at 0 was refused while money waited)."""
    units = carry_night(db, players, stake_cents=0, rundpasses=1)
    money = carry_night(db, players, stake_cents=10, rundpasses=1)
    euros = start_night(db, players, game="schafkopf", rules=CARRY, stake_cents=10)  # takes the money
    assert euros.pot_start == 8
    close_night(db=db, night_id=euros.id)
    free = carry_night(db, players, stake_cents=0, close=False)
    assert free.pot_start == 8 and get_night(db=db, night_id=units.id).pot_to == free.uid
    assert get_night(db=db, night_id=money.id).pot_to == euros.uid
    chf = add_night(
        db=db,
        game="schafkopf",
        rules=CARRY,
        stake_cents=10,
        currency="CHF",
        player_ids=[p.id for p in players[:4]],
        first_dealer=1,
    )
    db.commit()
    assert chf.pot_start == 0 and get_night(db=db, night_id=euros.id).pot_to is None  # the euros wait


def test_pots_of_two_stakes_are_taken_as_their_money(db, players):
    """8 units at 10 cents and 8 at 20 are 2.40 EUR: 24 units at 10 cents, 12 at 20; at 30 cents 8."""
    carry_night(db, players, stake_cents=10, rundpasses=1, close=False)
    carry_night(db, players, stake_cents=20, rundpasses=1, close=False)
    for night in db.exec(select(Night)).all():
        close_night(db=db, night_id=night.id)
    assert carry_night(db, players, stake_cents=30, close=False).pot_start == 8


def test_two_nights_started_at_the_same_moment_take_the_pot_once(app, db, players):
    """On PostgreSQL the waiting pots' rows are locked while a night takes them (SQLite's BEGIN IMMEDIATE
    holds the whole database): the second night waits, then finds none (before: both took it)."""
    engine = app.extensions["sk_engine"]
    carry_night(db, players, rundpasses=1)
    ids = [p.id for p in players[:4]]
    first = database.session(engine, write=True)
    started, errors, taken = threading.Event(), [], []
    try:
        taken.append(
            add_night(db=first, game="schafkopf", rules=CARRY, stake_cents=10, player_ids=ids, first_dealer=1).pot_start
        )

        def second() -> None:
            try:
                with database.session(engine, write=True) as other:
                    started.set()
                    night = add_night(
                        db=other, game="schafkopf", rules=CARRY, stake_cents=10, player_ids=ids, first_dealer=1
                    )
                    other.commit()
                    taken.append(night.pot_start)
            except BaseException as exc:  # pragma: no cover - reported by the test
                errors.append(exc)

        thread = threading.Thread(target=second, daemon=True)
        thread.start()
        started.wait(5)
        thread.join(0.5)
        assert thread.is_alive()  # waiting for the pots the first night holds
        first.commit()
        thread.join(15)
    finally:
        first.close()
    assert errors == [] and taken == [8, 0]


def test_a_pot_gone_before_it_was_recorded_never_waits_again(db, players):
    """A night whose pot went before the club recorded where (migration 0016, an older file) is passed over."""
    old = carry_night(db, players, rundpasses=1)
    old = get_night(db=db, night_id=old.id)
    old.pot_to = POT_GONE
    db.add(old)
    db.commit()
    assert carry_night(db, players, close=False).pot_start == 0
