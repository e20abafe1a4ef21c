"""The migrations build exactly the schema the models describe, and an old database upgrades."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from scorekeeper.core import models  # noqa: F401  (registers the tables)
from scorekeeper.core.db import make_engine, upgrade_to


def test_the_migrations_build_exactly_the_schema_of_the_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


def test_a_database_of_the_first_schema_keeps_its_nights_through_the_upgrade(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_to(str(engine.url), "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            " status, version, created_at) VALUES ('matt', '{}', 5, 'EUR', '2026-01-01', 'Post', 2, 1, 'open', 0,"
            " '2026-01-01 20:00:00')"
        )
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Anna', '2026-01-01 20:00:00')")
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Bernd', '2026-01-01 20:00:00')")
        conn.exec_driver_sql("INSERT INTO seat (evening_id, position, player_id) VALUES (1, 1, 1), (1, 2, 2)")
        conn.exec_driver_sql(
            "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at) VALUES"
            ' (1, 1, 1, \'{"mated_by": 1, "move": 3, "card": "A"}\', \'2026-01-01 20:10:00\','
            " '2026-01-01 20:10:00')"
        )
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT place, stake_cents, pot_start, closed_at, uid FROM evening").all()
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [("Post", 5, 0, None)]
    assert len(rows[0][4]) == 32
    with engine.connect() as conn:  # the night open at the upgrade got its join code (0004)
        code = conn.exec_driver_sql("SELECT join_code FROM evening").scalar()
    assert len(code) == 6 and set(code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    with engine.connect() as conn:  # the seats and hands that point at the night are still there
        assert conn.exec_driver_sql("SELECT count(*) FROM seat").scalar() == 2
        assert conn.exec_driver_sql("SELECT data FROM handrecord").scalar() is not None
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_a_migration_that_fails_on_sqlite_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    import pytest
    from alembic.operations import BatchOperations

    engine = make_engine(f"sqlite:///{tmp_path / 'fail.db'}")
    upgrade_to(str(engine.url), "0001")
    real_create_index = BatchOperations.create_index

    def fail_after_adding_columns(self, *args, **kwargs):  # the last step of 0002 fails
        raise RuntimeError("disk full")

    monkeypatch.setattr(BatchOperations, "create_index", fail_after_adding_columns)
    with pytest.raises(RuntimeError, match="disk full"):
        upgrade_to(str(engine.url), "head")
    monkeypatch.setattr(BatchOperations, "create_index", real_create_index)
    with engine.connect() as conn:
        columns = [row[1] for row in conn.exec_driver_sql("PRAGMA table_info(evening)")]
        version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    assert "closed_at" not in columns and version == "0001"  # nothing of 0002 stayed behind
    upgrade_to(str(engine.url), "head")  # and the upgrade still works afterwards
    engine.dispose()


def test_an_upgrade_of_sqlite_runs_the_whole_chain_in_one_transaction_read_revision_included(tmp_path, monkeypatch):
    """Processes starting at once on a new database take turns: each must read the schema's revision
    inside its turn, and hold the turn to the end of the chain. Were each migration committed on its
    own, a process could run 0003 on a table a faster one had already taken further (seen in CI as
    ``CircularDependencyError ('retired', 'guest')``)."""
    from sqlalchemy import event

    from scorekeeper.core import db as database

    statements: list[str] = []
    real = database.migration_engine

    def watched(url):
        engine = real(url)
        event.listen(engine, "commit", lambda _conn: statements.append("COMMIT"))
        event.listen(
            engine, "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql.split()[0].upper())
        )
        return engine

    monkeypatch.setattr(database, "migration_engine", watched)
    upgrade_to(f"sqlite:///{tmp_path / 'new.db'}", "head")
    assert statements[0] == "BEGIN"  # BEGIN IMMEDIATE, before alembic reads the revision
    assert statements.count("COMMIT") == 1 and statements[-1] == "COMMIT"
