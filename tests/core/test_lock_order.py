"""Writers that meet at the same moment take their locks in one order (docs/architecture.md, "The order of
locks"), and the one that loses the race is refused cleanly. PostgreSQL's READ COMMITTED shows the races;
SQLite's ``BEGIN IMMEDIATE`` serialises its writers and answers the same."""

from __future__ import annotations

import threading

from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.hands import record_hand
from scorekeeper.core.history import verify_nights
from scorekeeper.core.models import HandRecord, Night, Player, Seat
from scorekeeper.core.players import create_player, make_member, merge_players
from tests.core.test_roster_defects import Held, Other
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
    gate, drawing = threading.Event(), threading.Event()
    real = tm.plan.draw_round

    def held_draw(*args, **kwargs):  # the draw has read its participants and holds the tournament
        drawing.set()
        gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(tm.plan, "draw_round", held_draw)
    draw = Other(engine, tm.draw_round, tournament_id=t.id)
    assert drawing.wait(10)
    merge = Other(engine, merge_players, keep_id=kept.id, merge_id=merged_id)
    merge.thread.join(0.5)
    gate.set()
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
