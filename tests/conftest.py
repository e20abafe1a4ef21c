"""Fixtures: an app with a fresh database per test (SQLite; PostgreSQL too when CI gives one).

The fresh database is migrated once per test run (per pytest-xdist worker), then copied or emptied
for each test: tests/support.py (databases).

Helpers and constants the tests share are in tests/support.py, not here: no test imports a conftest.py.
"""

from __future__ import annotations

import os

import pytest

from scorekeeper import create_app
from scorekeeper.core import db as database
from scorekeeper.core.players import create_player
from tests.support import (
    BACKENDS,
    TEMPLATE_CODE,
    cheap_password_hashing,
    close_or_keep,
    drop_postgres_databases,
    empty_postgres,
    make_user,
    migrate_postgres,
    migrate_sqlite_template,
    share_url_rules,
    shared_engine,
    signed_in,
    sqlite_copy,
    start_night,
)

share_url_rules()
cheap_password_hashing()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite database migrated once per test run (per pytest-xdist worker): the tests get copies."""
    return migrate_sqlite_template(tmp_path_factory.mktemp("template") / "template.db")


@pytest.fixture(scope="session")
def postgres_migrated():
    """A PostgreSQL database migrated once per test run (per pytest-xdist worker): emptied for each test."""
    return migrate_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])


@pytest.fixture(scope="session", autouse=True)
def postgres_databases_dropped():
    """At the end of the run, the PostgreSQL databases it made are dropped (none made: nothing asked)."""
    yield
    server = os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL")
    if server:
        drop_postgres_databases(server)


@pytest.fixture(scope="session")
def static_cache(tmp_path_factory):
    """One folder per test run (per pytest-xdist worker) for the static files' fingerprinted copies:
    written by the first app, found by the others (their names carry their content)."""
    return tmp_path_factory.mktemp("static")


@pytest.fixture(scope="session")
def sqlite_app_path(tmp_path_factory):
    """Where the ``app`` fixture's SQLite database is, the same file for every test of a worker
    (made new for each from the template): its engine is kept for the run (tests/support.py)."""
    return tmp_path_factory.mktemp("app") / "app.db"


@pytest.fixture(params=BACKENDS)
def app(request, tmp_path, monkeypatch, static_cache):
    """The app on a new, migrated database, with CSRF off (tests/web/test_access.py turns it on).

    The database is migrated once per run (asked for here, so that a run on SQLite alone never
    connects to PostgreSQL), and the app is told not to migrate it again (tests/support.py, databases).
    Every test's app has the database at the same URL, made new, and the engine the process keeps
    for it (``shared_engine``): what SQLAlchemy compiled for one test serves the next."""
    if request.param == "sqlite":
        path = request.getfixturevalue("sqlite_app_path")
        url = sqlite_copy(request.getfixturevalue("sqlite_template"), path)
    else:
        url = empty_postgres(request.getfixturevalue("postgres_migrated"))
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    with shared_engine():
        app = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": url,
                "SECRET_KEY": "test",
                "WTF_CSRF_ENABLED": False,
                "POLL_SECONDS": 1,
                "MIGRATE_ON_START": False,  # at the newest schema already
                "STATIC_CACHE": str(static_cache),
            }
        )
    app.jinja_env.bytecode_cache = TEMPLATE_CODE  # templates compiled once per run, not once per test
    yield app
    close_or_keep(app)


@pytest.fixture
def admin(app):
    return make_user(app, "Admin", "admin")


@pytest.fixture
def client(app, admin):
    """A client of the club's admin, who may do everything (tests of access use ``as_role``)."""
    return signed_in(app, admin)


@pytest.fixture
def anon(app):
    """A client of nobody: not signed in, no token."""
    return app.test_client()


@pytest.fixture
def as_role(app):
    """``as_role("viewer")``: a client signed in as a new account of that role."""

    def make(role: str):
        return signed_in(app, make_user(app, f"{role}-{make.count}", role))

    make.count = 0
    return make


@pytest.fixture
def db(app):
    """A database session outside any request, for setting up and checking.

    Like every session it reads one snapshot until it commits or rolls back: to see what a
    request committed since, ``db.rollback()`` (and ``db.expire_all()`` for objects it holds).
    """
    session = database.session(app.extensions["sk_engine"])
    yield session
    session.close()


@pytest.fixture
def players(db):
    """Five players on the roster: Anna, Bernd, Clara, Dieter, Eva (ids in that order)."""
    return [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva")]


@pytest.fixture
def night(db, players):
    """A Matzlfangen night at a table of four, Anna deals first, 10 cents a unit."""
    return start_night(db, players)


@pytest.fixture
def other_db(tmp_path, sqlite_template):
    """A second, empty SQLite database migrated like the app's: where an export is imported."""
    engine = database.make_engine(sqlite_copy(sqlite_template, tmp_path / "other.db"))
    session = database.session(engine)
    yield session
    session.close()
    engine.dispose()
