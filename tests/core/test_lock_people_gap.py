"""The people a change to a tournament locks are read before their locks (``tournaments.setup.lock_people``): a
replacement committed in that gap seated a new person the change did not hold, so it held them later, out of
the order of locks (``lock_night``'s players, after the tournament's and the night's rows), and a merge of that
person at that instant waited for the change while the change waited for it (PostgreSQL: a deadlock, a 500).
Now they are read again under the tournament's lock, and where the set grew, all are locked again in order."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from scorekeeper.core.tournaments import setup
from tests.support_tournament import make_tournament


def _postgres(app):
    engine = app.extensions["sk_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite's write session holds the whole database")
    return engine


def _held(engine, player_id: int) -> bool:
    """Whether another transaction holds player ``player_id``'s row (a merge could not lock it now)."""
    with engine.connect() as other:
        try:
            other.execute(text("SELECT id FROM player WHERE id = :id FOR UPDATE NOWAIT"), {"id": player_id})
        except OperationalError:
            return True
        finally:
            other.rollback()
    return False


@pytest.mark.parametrize("when", ["between rounds", "a drawn round not started"])
def test_a_person_who_took_a_place_while_the_people_were_read_is_held_too(app, db, monkeypatch, when):
    engine = _postgres(app)
    t = make_tournament(db, 8, rounds=2)
    if when != "between rounds":
        tm.draw_round(db=db, tournament_id=t.id)
    newcomer = create_player(db=db, name="Neu").id
    real, replaced = setup.people_of, []

    def read_then_replaced(*args):  # the gap: another organiser's replacement commits right after the read
        found = real(*args)
        if not replaced:
            replaced.append(True)
            with database.session(engine, write=True) as other:
                tm.replace_entrant(db=other, tournament_id=t.id, number=2, player_id=newcomer)
        return found

    monkeypatch.setattr(setup, "people_of", read_then_replaced)
    with database.session(engine, write=True) as change:
        assert setup.open_tournament(change, t.id).id == t.id
        assert replaced
        assert _held(engine, newcomer)  # held before the tournament's row, in the one order
        change.rollback()
    assert not _held(engine, newcomer)


def test_the_people_are_read_once_more_only_under_the_tournaments_lock(app, db, monkeypatch):
    """Nothing changed meanwhile: one pass, the people and the tournament locked once."""
    engine = _postgres(app)
    t = make_tournament(db, 8)
    reads = []
    real = setup.people_of
    monkeypatch.setattr(setup, "people_of", lambda *args: reads.append(args) or real(*args))
    with database.session(engine, write=True) as change:
        setup.open_tournament(change, t.id)
        assert len(reads) == 2
        assert all(_held(engine, p) for p in real(change, t.id, ()))
