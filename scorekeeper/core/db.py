"""Database engine, sessions and migrations (Alembic, applied on start)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event, make_url
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 7_262_537  # PostgreSQL's advisory lock of a migration (any number no other tool uses)
BUSY_TIMEOUT_MS = 15_000

#: Each process's pool of connections (SQLite files and PostgreSQL alike). A request holds at most
#: one connection at a time (``web/context.py``), so a server answering at most
#: ``POOL_SIZE + POOL_OVERFLOW`` requests at once never waits for one: ``manage.py run`` answers that
#: many (``cli._run``), gunicorn's ``--threads 4`` fewer. A request that still finds the pool empty
#: waits up to ``POOL_TIMEOUT`` seconds, then fails. See docs/production.md (connections).
POOL_SIZE = 5
POOL_OVERFLOW = 10
POOL_TIMEOUT = 30

#: The execution option that says how a SQLite transaction begins: ``"IMMEDIATE"`` or
#: (the default) deferred. See :func:`writer`.
SQLITE_BEGIN = "sqlite_begin"
_BEGIN = {"": "BEGIN", "DEFERRED": "BEGIN DEFERRED", "IMMEDIATE": "BEGIN IMMEDIATE"}


def _wal(dbapi_connection: sqlite3.Connection) -> None:
    """Switch the database to WAL (a no-op once it is). Switching a new database needs it for
    itself, and SQLite answers "locked" without waiting when another process starting at the
    same moment holds it: then try again, as long as the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            dbapi_connection.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _private_files(database: str | None) -> None:
    """The database file and its ``-wal`` and ``-shm`` readable by their owner only (0600): they
    hold password hashes, token digests and open nights' join codes. Done on every connection, so
    a file made by another process (or before this rule) is made private too."""
    if not database or database == ":memory:":
        return
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            os.chmod(database + suffix, 0o600)


def make_engine(url: str) -> Engine:
    """An engine for any SQLAlchemy URL; SQLite gets WAL, a busy timeout and foreign keys.

    On SQLite the driver's own transaction handling is off (it would begin a transaction only
    at its first write, after the reads the write depends on): every transaction begins with
    an explicit ``BEGIN`` when the connection is first used, ``BEGIN IMMEDIATE`` on the
    connections of :func:`writer` (write sessions, see :func:`session`).
    """
    pool = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW, "pool_timeout": POOL_TIMEOUT}
    if url.startswith("sqlite"):
        if make_url(url).database in (None, "", ":memory:"):
            pool = {}  # one connection per thread (SQLAlchemy's own choice): no pool to size
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}, **pool
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            dbapi_connection.isolation_level = None  # no implicit BEGIN or COMMIT by the driver
            _wal(dbapi_connection)
            _private_files(engine.url.database)
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")  # outside any transaction, where it takes effect
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection) -> None:
            connection.exec_driver_sql(_BEGIN[connection.get_execution_options().get(SQLITE_BEGIN, "")])

        return engine
    return create_engine(url, pool_pre_ping=True, **pool)


def writer(engine: Engine) -> Engine:
    """The engine as write sessions use it: the same pool, but on SQLite every transaction begins
    ``BEGIN IMMEDIATE``, taking the write lock first (waiting up to the busy timeout for it).

    A transaction that read first and wrote later (a deferred ``BEGIN``) would fail at once with
    "database is locked" when another connection wrote in between: its snapshot is too old to
    write from. On PostgreSQL nothing changes; the repository locks the night's row instead.
    """
    return engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})


def alembic_config(engine: Engine, currency: str | None = None) -> Config:
    """The migrations' config: the engine they run on, and the club's currency (``SCOREKEEPER_CURRENCY``, as the
    app is configured; None: not known), which a migration that needs it reads (0018: the tournaments of before
    get it), else takes the default."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["engine"] = engine
    if currency is not None:
        cfg.attributes["currency"] = currency
    return cfg


def migration_engine(url: str) -> Engine:
    """An engine for migrations only. On SQLite it runs the whole chain of migrations in one real
    transaction (the driver would commit every schema change on its own and leave a failed upgrade
    half done; env.py keeps alembic from committing each migration), with foreign keys off while
    batch migrations rebuild tables; env.py checks them.
    Server processes starting at once (gunicorn's workers) take turns, and the later ones find the
    schema at its newest and do nothing: on SQLite the transaction begins ``BEGIN IMMEDIATE``,
    on PostgreSQL it takes an advisory lock first."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _manual_transactions(dbapi_connection, _record) -> None:
            dbapi_connection.isolation_level = None
            dbapi_connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            _wal(dbapi_connection)  # before the app's engine connects: it would switch it under a migration
            dbapi_connection.execute("PRAGMA foreign_keys=OFF")

        @event.listens_for(engine, "begin")
        def _begin(connection) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    elif engine.dialect.name == "postgresql":

        @event.listens_for(engine, "begin")
        def _one_at_a_time(connection) -> None:
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")  # held to the commit

    return engine


#: What a migration meets when another process has just made the same change.
_RACED = ("already exists", "duplicate column")


def upgrade_to(url: str, revision: str = "head", *, currency: str | None = None) -> None:
    """Run the migrations of the database at ``url`` up to ``revision`` on an engine of their own
    (:func:`migration_engine`), disposed at the end: no connection is left to the garbage collector.
    ``currency``: the club's (:func:`alembic_config`)."""
    migrator = migration_engine(url)
    try:
        command.upgrade(alembic_config(migrator, currency), revision)
    finally:
        migrator.dispose()


def upgrade(engine: Engine, attempts: int = 3, *, currency: str | None = None) -> None:
    """Bring the schema to the newest migration (a no-op when it is there); ``currency``: the club's, as the app
    is configured (``SCOREKEEPER_CURRENCY``), for the migrations that need it (:func:`alembic_config`).

    Processes starting at once take turns (:func:`migration_engine`); should one still find a table
    of a migration that another has just committed ("already exists", "duplicate column", seen
    under load on a new SQLite file), its migration was rolled back whole, and it tries again: then
    it finds the schema at its newest and does nothing.
    """
    for attempt in range(1, attempts + 1):
        try:
            upgrade_to(engine.url.render_as_string(hide_password=False), currency=currency)
            return
        except DBAPIError as exc:
            if not any(m in str(exc.orig) for m in _RACED) or attempt == attempts:
                raise
            time.sleep(0.2 * attempt)


def session(engine: Engine, write: bool = False) -> Session:
    """A new ORM session; objects stay usable after commit.

    ``write``: the session is for a change (a POST, a command that writes). On SQLite each of its
    transactions (also the next one after a commit) begins ``BEGIN IMMEDIATE`` (:func:`writer`),
    so a read-then-write never fails for a write that came in between; a read session begins
    a plain deferred ``BEGIN`` and reads one consistent snapshot until its commit or rollback.
    """
    return Session(writer(engine) if write else engine, expire_on_commit=False)
