"""Rule: a night never holds a pot from nowhere (docs/backup.md, "The pot carried in"; docs/rules.md).

An imported night's pot to start with comes from the pots it took (``pot_from``), each a pot here that
waits (a night deleted gave it back) or went to it already: a deleted night imported after another night
took its pot again, or a file that names no pot at all, is refused naming the pot, and nothing is written.
``manage.py verify`` names a night holding a pot no night gave it (a pot paid out twice shows so).
"""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import func, select

from scorekeeper.cli import main
from scorekeeper.core import history
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night, delete_night, pots_from_nowhere
from scorekeeper.core.summary import night_money
from scorekeeper.core.table import get_night, hand_rows, load_table
from tests.support import as_file, start_night

CARRY = {"pot_at_close": "carry"}
RUNDPASS = {"contract": "rundpass"}  # every player pays 2 units into the pot: it holds 8
SAUSPIEL_WON = {"contract": "sauspiel", "declarer": 2, "partner": 3, "suit": "eichel", "points": 80}


def _night(db, players, day, *hands, close=True):
    night = start_night(db, players, game="schafkopf", rules=CARRY, played_on=day)
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)
    if close:
        close_night(db=db, night_id=night.id)
    return night


def _club_cents(db) -> int:
    """What the club's nights paid their players and carried out less what they carried in, summed: 0 where no
    pot came from nowhere."""
    total = 0
    for night in db.exec(select(Night)):
        table = load_table(db=db, night_id=night.id)
        total += sum(night_money(table)[1].values())
        total += ((table.settlement.pot or 0) - night.pot_start) * night.stake_cents  # carried out less carried in
    return total


def _deleted_then_taken(db, players):
    """Night A carries 8 units; B takes them (a Sauspiel won pays them out) and is exported, then deleted (the
    pot waits again); C takes the pot and pays it out. Returns A, C and B's file."""
    a = _night(db, players, date(2026, 11, 1), RUNDPASS)
    b = _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    assert b.pot_start == 8
    exported = as_file(night_json(db=db, night_id=b.id))
    delete_night(db=db, night_id=b.id, reason="started twice by mistake", export=exported)
    c = _night(db, players, date(2026, 11, 3), SAUSPIEL_WON)
    assert c.pot_start == 8
    return a, c, exported


def test_a_deleted_night_imported_after_another_night_took_its_pot_is_refused(db, players):
    a, c, exported = _deleted_then_taken(db, players)
    assert _club_cents(db) == 0
    nights = db.exec(select(func.count()).select_from(Night)).one()

    with pytest.raises(InvalidExport) as refused:
        import_night(db=db, data=exported)

    assert refused.value.path == "evening.pot_from[0].uid"
    assert f"the pot of the night of 2026-11-01 (8 units) went to the night of 2026-11-03 (night {c.id})" in str(
        refused.value
    )
    assert "pay it out a second time" in str(refused.value)
    db.rollback()
    assert db.exec(select(func.count()).select_from(Night)).one() == nights  # nothing written
    assert get_night(db=db, night_id=a.id).pot_to == c.uid
    assert _club_cents(db) == 0  # the pot paid out once
    assert pots_from_nowhere(db=db) == []


def test_a_night_file_with_a_pot_from_nowhere_is_refused(db, other_db, players):
    """A file that says its night started with a pot of a million units, naming no pot it took (a billion, as the
    attacker's, is past the ceiling: tests/web/test_pot_ceiling.py)."""
    night = _night(db, players, date(2026, 11, 1), RUNDPASS, SAUSPIEL_WON)
    data = as_file(night_json(db=db, night_id=night.id))
    data["evening"]["uid"] = "6e01dac5506f41659e0dba815886967c"
    data["evening"]["pot_start"] = 1_000_000
    assert data["evening"]["pot_from"] == []

    for where in (db, other_db):
        with pytest.raises(InvalidExport) as refused:
            import_night(db=where, data=data)
        assert refused.value.path == "evening.pot_start"
        assert "starts with a pot of 1000000 units that no night here gave it: a pot from nowhere" in str(refused.value)
        where.rollback()
        assert where.exec(select(Night).where(Night.uid == data["evening"]["uid"])).first() is None


def test_a_night_file_naming_a_pot_that_is_not_here_is_refused(db, other_db, players):
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    taker = _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(night_json(db=db, night_id=taker.id))

    with pytest.raises(InvalidExport) as refused:
        import_night(db=other_db, data=data)

    assert refused.value.path == "evening.pot_from[0].uid"
    assert "names a night that is not here: the pot of 8 units this night took would come from nowhere" in str(
        refused.value
    )


def test_a_night_file_taking_more_than_the_pot_waiting_is_refused(db, players):
    """A waiting pot of 8 units named as one of a million: the file's night would pay out what nobody paid in."""
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    b = _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(night_json(db=db, night_id=b.id))
    delete_night(db=db, night_id=b.id, reason="by mistake", export=data)
    data["evening"]["pot_start"] = data["evening"]["pot_from"][0]["units"] = 1_000_000

    with pytest.raises(InvalidExport) as refused:
        import_night(db=db, data=data)

    assert refused.value.path == "evening.pot_from[0].units"
    assert "the pot of the night of 2026-11-01 waits with 8 units, not 1000000" in str(refused.value)


def test_a_night_file_written_before_pots_were_followed_with_a_pot_is_refused_alone(db, other_db, players):
    """A single night's file without ``pot_from`` cannot say whose pot it took: its pot comes from nowhere here."""
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    taker = _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(night_json(db=db, night_id=taker.id))
    del data["evening"]["pot_to"], data["evening"]["pot_given"], data["evening"]["pot_from"]

    with pytest.raises(InvalidExport) as refused:
        import_night(db=other_db, data=data)

    assert refused.value.path == "evening.pot_start"


def test_a_club_file_naming_a_pot_its_night_never_gave_is_refused(db, other_db, players):
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(club_json(db=db))
    data["nights"][1]["evening"]["pot_start"] = 1_000_000

    with pytest.raises(InvalidExport) as refused:
        import_club(db=other_db, data=data)

    assert refused.value.path == "nights[1].evening.pot_start"
    assert "starts with a pot of 1000000 units, but the pots it took give it 8 units" in str(refused.value)
    assert other_db.exec(select(func.count()).select_from(Night)).one() == 0


@pytest.mark.parametrize("giver_first", [True, False])  # the giver written before the taker, or after it
def test_a_club_file_naming_a_pot_given_by_a_night_never_closed_is_refused(db, other_db, players, giver_first):
    """The file's own night (not one here) said to have given its pot while it was never closed: the in-file
    branch checked only that its pot_to and pot_given named the taker, so an open night's pot paid out."""
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(club_json(db=db))
    giver = data["nights"][0]
    giver["evening"]["status"], giver["evening"]["closed_at"] = "open", None
    giver["audit"] = [a for a in giver["audit"] if a["action"] != "close"]
    if not giver_first:
        data["nights"].reverse()

    with pytest.raises(InvalidExport) as refused:
        import_club(db=other_db, data=data)

    assert refused.value.path == f"nights[{1 if giver_first else 0}].evening.pot_from[0].uid"
    assert "(8 units) never waited for a night: its night was never closed" in str(refused.value)
    assert other_db.exec(select(func.count()).select_from(Night)).one() == 0


def test_the_clubs_own_file_with_pots_carried_imports_into_a_new_database(db, other_db, players):
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    _night(db, players, date(2026, 11, 2), SAUSPIEL_WON, RUNDPASS)
    _night(db, players, date(2026, 11, 3), close=False)  # takes 8, open

    done = import_club(db=other_db, data=as_file(club_json(db=db)))

    assert done.nights_created == 3
    assert pots_from_nowhere(db=other_db) == []
    assert sorted(n.pot_start for n in other_db.exec(select(Night))) == [0, 8, 8]


def test_verify_names_a_night_holding_a_pot_no_night_gave_it(app, db, players, monkeypatch, capsys):
    """The state the import left before (a pot paid out twice): C took A's pot, and B holds it too."""
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    _night(db, players, date(2026, 11, 3), close=False)  # took the pot
    twice = start_night(db, players, game="schafkopf", rules={"pot_at_close": "split"}, played_on=date(2026, 11, 2))
    twice.pot_start = 8  # as the import wrote it, its history rows with it
    history.refresh(db=db, night=twice, hands=hand_rows(db=db, night_id=twice.id))
    db.commit()

    assert main(["verify"]) == 1

    err = capsys.readouterr().err
    assert (
        f"night {twice.id} of 2026-11-02: starts with a pot of 8 units that no night here gave it: a pot from nowhere"
        in err
    )
    assert "1 night(s) hold a pot no night gave them" in err
    assert "differ" not in err  # its results are a fresh settle's: only where its pot came from is wrong


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"currency": "USD"}, "the pots it took are of another kind: not money in USD"),
        ({"stake_cents": 0}, "the pots it took are of another kind: money, not units at a stake of 0"),
    ],
)
def test_a_night_file_taking_a_pot_of_another_kind_is_refused_saying_so(db, players, change, said):
    """It said "no whole number of units at its stake", which is not why: the pot waits for a night of its kind."""
    _night(db, players, date(2026, 11, 1), RUNDPASS)
    b = _night(db, players, date(2026, 11, 2), SAUSPIEL_WON)
    data = as_file(night_json(db=db, night_id=b.id))
    delete_night(db=db, night_id=b.id, reason="started twice by mistake", export=data)
    data["evening"] |= change

    with pytest.raises(InvalidExport) as refused:
        import_night(db=db, data=data)

    assert refused.value.path == "evening.pot_start" and said in str(refused.value), refused.value
