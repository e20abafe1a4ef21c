"""Writers that meet at the same moment take their locks in one order (docs/architecture.md, "The order of
locks"), and the one that loses the race is refused cleanly. PostgreSQL's READ COMMITTED shows the races;
SQLite's ``BEGIN IMMEDIATE`` serialises its writers and answers the same."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.hands import record_hand
from scorekeeper.core.history import verify_nights
from scorekeeper.core.models import Entrant, HandRecord, Night, Player, Seat
from scorekeeper.core.nights import lock_night
from scorekeeper.core.players import create_player, make_member, merge_players
from scorekeeper.engine import tournament as plan
from tests.core.races import Held, HeldAt, Other, waiting_for_a_lock
from tests.support import SAUSPIEL_CLARA
from tests.support_tournament import make_tournament


def _round_one(db):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[-1].tables[0].night.id
    return t, night_id


def test_a_hand_saved_while_its_round_is_drawn_again_stops_the_redraw(app, db):
    """The hand holds its table's night; the redraw waits for it, then finds the round started: the hand stays."""
    engine = app.extensions["sk_engine"]
    t, night_id = _round_one(db)
    hand = Held(engine, record_hand, night_id=night_id, hand=SAUSPIEL_CLARA)
    redraw = Other(engine, tm.redraw_round, tournament_id=t.id)
    redraw.thread.join(0.5)
    hand.release()
    redraw.join()
    assert hand.error is None
    assert isinstance(redraw.error, Conflict)  # it deleted the table with the hand just confirmed to the phone
    assert redraw.error.message == "round 1 has started: it cannot be drawn again"
    db.rollback()
    assert db.get(Night, night_id) is not None
    assert len(db.exec(select(HandRecord).where(HandRecord.night_id == night_id)).all()) == 1


def test_a_hand_saved_while_its_round_is_drawn_again_finds_its_table_gone(app, db):
    """The redraw holds the round's nights; the hand waits for its table, then finds it gone (no such night)."""
    engine = app.extensions["sk_engine"]
    t, night_id = _round_one(db)
    redraw = Held(engine, tm.redraw_round, tournament_id=t.id)
    hand = Other(engine, record_hand, night_id=night_id, hand=SAUSPIEL_CLARA)
    hand.thread.join(0.5)
    redraw.release()
    hand.join()
    assert redraw.error is None
    assert isinstance(hand.error, NotFound)
    db.rollback()
    assert db.get(Night, night_id) is None
    assert db.exec(select(HandRecord)).all() == []


# --- a roster merge at the same moment as a tournament's write: players' rows first, then the tournament's ---


def test_a_merge_while_a_round_is_drawn_waits_for_the_draw_never_a_deadlock(app, db, monkeypatch):
    """The draw holds its people before its tournament; the merge of a participant waits, then moves their seat."""
    engine = app.extensions["sk_engine"]
    t = make_tournament(db, n=8)
    kept = create_player(db=db, name="Bernhard")  # not entered: the participant Spieler 2 is the same person
    merged_id = db.exec(select(Player.id).where(Player.name == "Spieler 2")).one()
    # the draw has read its participants and holds the tournament
    drawing = HeldAt(monkeypatch, plan, "draw_round", before=True)
    draw = Other(engine, tm.draw_round, tournament_id=t.id)
    assert drawing.holding.wait(10)
    merge = Other(engine, merge_players, keep_id=kept.id, merge_id=merged_id)
    merge.thread.join(0.5)
    drawing.release()
    draw.join()
    merge.join()
    assert (draw.error, merge.error) == (None, None)  # one of them was a deadlock: a 500
    db.rollback()
    assert db.get(Player, merged_id) is None
    seated = db.exec(select(Seat.player_id).join(Night, Night.id == Seat.night_id).where(Night.tournament_id == t.id))
    assert kept.id in set(seated)
    assert verify_nights(db=db) == []


def test_a_player_entered_while_merged_away_is_no_such_player(app, db):
    engine = app.extensions["sk_engine"]
    t = make_tournament(db, n=4)
    bernd, bernhard = (create_player(db=db, name=n) for n in ("Bernd", "Bernhard"))
    merge = Held(engine, merge_players, keep_id=bernhard.id, merge_id=bernd.id)
    entry = Other(engine, tm.add_entrant, tournament_id=t.id, player_id=bernd.id)
    entry.thread.join(0.5)
    merge.release()
    entry.join()
    assert merge.error is None
    assert isinstance(entry.error, InvalidInput)  # it was an IntegrityError (tournament_entrant's key): a 500
    assert entry.error.message == f"there is no player {bernd.id}"


def test_a_guest_made_a_member_while_merged_away_is_no_such_player(app, db):
    engine = app.extensions["sk_engine"]
    first, second = make_tournament(db, n=4), make_tournament(db, n=0, name="Zweites")
    sepp, sepperl = (
        tm.add_entrant(db=db, tournament_id=t.id, guest=n).player_id for t, n in ((first, "Sepp"), (second, "Sepperl"))
    )
    merge = Held(engine, merge_players, keep_id=sepperl, merge_id=sepp)
    member = Other(engine, make_member, player_id=sepp)
    member.thread.join(0.5)
    merge.release()
    member.join()
    assert merge.error is None
    assert isinstance(member.error, NotFound)  # it was a StaleDataError: a 500


# --- a seat's person changed while a writer waits for the night: held before the night all the same -------


def test_a_person_seated_while_a_writer_waits_for_the_night_is_held_by_it(app, db):
    """A tournament's replacement seats its new person and holds the table's night; a hand at that table,
    at that moment, has held the seated players (the person replaced) and waits for the night. It got the
    night with the new person seated and not held: a merge of them then waited for its history rows while
    it waited for them (a deadlock). Now it starts over, the new person held before the night."""
    engine = app.extensions["sk_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite takes the whole database for a write")
    t, night_id = _round_one(db)
    seated = set(db.exec(select(Seat.player_id).where(Seat.night_id == night_id)))
    number = db.exec(select(Entrant.number).where(Entrant.tournament_id == t.id, Entrant.player_id.in_(seated))).first()
    replacement = Held(engine, tm.replace_entrant, tournament_id=t.id, number=number, guest="Ersatz")
    locked, gate = threading.Event(), threading.Event()

    def lock_and_hold(*, db, night_id):
        lock_night(db=db, night_id=night_id)
        locked.set()
        gate.wait(10)
        db.rollback()

    writer = Other(engine, lock_and_hold, night_id=night_id)
    waiting_for_a_lock(db)  # at the night's row: the replacement holds it
    replacement.release()
    assert replacement.error is None
    assert locked.wait(10)
    db.rollback()
    ersatz = db.exec(select(Player.id).where(Player.name == "Ersatz")).one()
    assert ersatz in set(db.exec(select(Seat.player_id).where(Seat.night_id == night_id)))
    with database.session(engine, write=True) as merge:
        merge.exec(text("SET LOCAL lock_timeout = '300ms'"))
        with pytest.raises(OperationalError):  # the writer holds them FOR KEY SHARE (it did not: the lock was free)
            merge.exec(text("SELECT id FROM player WHERE id = :id FOR UPDATE"), params={"id": ersatz})
        merge.rollback()
    gate.set()
    writer.join()
    assert writer.error is None
