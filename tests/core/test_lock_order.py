"""Writers that meet at the same moment take their locks in one order (docs/architecture.md, "The order of
locks"), and the one that loses the race is refused cleanly. PostgreSQL's READ COMMITTED shows the races;
SQLite's ``BEGIN IMMEDIATE`` serialises its writers and answers the same."""

from __future__ import annotations

from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, NotFound
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import HandRecord, Night
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
