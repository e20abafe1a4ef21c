"""Database engine, sessions and migrations (Alembic, applied on start)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for any SQLAlchemy URL; SQLite gets WAL, a busy timeout and foreign keys."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=15000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    return cfg


def migration_engine(url: str) -> Engine:
    """An engine for migrations only. On SQLite it runs each migration in one real transaction
    (the driver would commit every schema change on its own and leave a failed upgrade half
    done), with foreign keys off while batch migrations rebuild tables; env.py checks them."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _manual_transactions(dbapi_connection, _record) -> None:
            dbapi_connection.isolation_level = None
            dbapi_connection.execute("PRAGMA foreign_keys=OFF")
            dbapi_connection.execute("PRAGMA busy_timeout=15000")

        @event.listens_for(engine, "begin")
        def _begin(connection) -> None:
            connection.exec_driver_sql("BEGIN")

    return engine


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (a no-op when it is there)."""
    migrator = migration_engine(engine.url.render_as_string(hide_password=False))
    try:
        command.upgrade(alembic_config(migrator), "head")
    finally:
        migrator.dispose()


def session(engine: Engine) -> Session:
    """A new ORM session; objects stay usable after commit."""
    return Session(engine, expire_on_commit=False)
