"""The migrations build exactly the schema the models describe, and an old database upgrades."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from scorekeeper import models  # noqa: F401  (registers the tables)
from scorekeeper.db import alembic_config, make_engine


def test_the_migrations_build_exactly_the_schema_of_the_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    command.upgrade(alembic_config(engine), "head")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


def test_a_database_of_the_first_schema_keeps_its_nights_through_the_upgrade(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    command.upgrade(alembic_config(engine), "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            " status, version, created_at) VALUES ('matt', '{}', 5, 'EUR', '2026-01-01', 'Post', 2, 1, 'open', 0,"
            " '2026-01-01 20:00:00')"
        )
    command.upgrade(alembic_config(engine), "head")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT place, stake_cents, pot_start, closed_at, uid FROM evening").all()
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [("Post", 5, 0, None)]
    assert len(rows[0][4]) == 32
    engine.dispose()
