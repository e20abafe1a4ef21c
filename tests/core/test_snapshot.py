"""The tests' ``snapshot`` (tests/support.py), what "a refusal changes nothing" compares: it must see
every change another connection commits, on each backend (on PostgreSQL it reads every table in one
round trip, on SQLite one table at a time)."""

from __future__ import annotations

from sqlalchemy import inspect

from scorekeeper.core import db as database
from scorekeeper.core.models import LoginFailure, Player
from tests.support import COUNTED_TABLES, snapshot


def _commit(app, change) -> None:
    """``change(session)`` committed by a connection of its own, as a request's would be."""
    with database.session(app.extensions["sk_engine"], write=True) as other:
        change(other)
        other.commit()


def test_the_snapshot_sees_a_row_added_a_value_changed_and_a_row_deleted(app, db):
    empty = snapshot(db)
    assert snapshot(db) == empty  # reading twice changes nothing

    _commit(app, lambda s: s.add(Player(name="Anna")))
    added = snapshot(db)
    assert added != empty
    assert any("Anna" in row for row in added["player"])

    def rename(s):
        s.get(Player, 1).name = "Anne"

    _commit(app, rename)
    renamed = snapshot(db)
    assert renamed != added
    assert any("Anne" in row for row in renamed["player"])

    _commit(app, lambda s: s.delete(s.get(Player, 1)))
    assert snapshot(db)["player"] == []


def test_the_snapshot_leaves_out_the_counted_failures_only(app, db):
    before = snapshot(db)
    in_the_database = set(inspect(db.get_bind()).get_table_names()) - {"alembic_version"}
    assert set(before) | COUNTED_TABLES == in_the_database
    _commit(app, lambda s: s.add(LoginFailure(key="name:anna")))
    assert snapshot(db) == before
