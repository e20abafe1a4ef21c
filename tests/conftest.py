"""Fixtures: an app with a fresh database per test (SQLite; PostgreSQL too when CI gives one)."""

from __future__ import annotations

import os
from html.parser import HTMLParser

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel
from werkzeug.security import generate_password_hash

from scorekeeper import create_app
from scorekeeper.core import db as database
from scorekeeper.core.models import User
from scorekeeper.core.nights import create_night
from scorekeeper.core.players import create_player
from scorekeeper.web.access import client_for

BACKENDS = ["sqlite"]
if os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL"):
    BACKENDS.append("postgresql")


def _fresh_postgres(url: str) -> str:
    """Drop everything in the test database's public schema so that migrations run from scratch."""
    engine = database.make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture(params=BACKENDS)
def app(request, tmp_path, monkeypatch):
    """The app on a new, migrated database, with CSRF off (tests/web/test_csrf.py turns it on)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'test.db'}"
    else:
        url = _fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "POLL_SECONDS": 1}
    )
    yield app
    app.extensions["sk_engine"].dispose()


PASSWORD = "richtig-geheim"
_HASH = generate_password_hash(PASSWORD)  # once: hashing is slow on purpose


def make_user(app, name: str, role: str) -> User:
    """An account with the password :data:`PASSWORD` (stored directly: no slow hashing per test)."""
    with database.session(app.extensions["sk_engine"]) as db:
        user = User(name=name, role=role, password_hash=_HASH)
        db.add(user)
        db.commit()
        return user


signed_in = client_for  # a client signed in as a user (pages: cookie; API: a Bearer token); None: nobody


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


def start_night(db, players, game="matzlfangen", seats=4, rules=None, stake_cents=10, first_dealer=1, played_on=None):
    """An night of ``game`` with the first ``seats`` players."""
    return create_night(
        db=db,
        game=game,
        rules=rules,
        stake_cents=stake_cents,
        player_ids=[p.id for p in players[:seats]],
        first_dealer=first_dealer,
        played_on=played_on,
    )


@pytest.fixture
def night(db, players):
    """A Matzlfangen night at a table of four, Anna deals first, 10 cents a unit."""
    return start_night(db, players)


@pytest.fixture
def other_db(tmp_path):
    """A second, empty SQLite database migrated like the app's: where an export is imported."""
    engine = database.make_engine(f"sqlite:///{tmp_path / 'other.db'}")
    database.upgrade(engine)
    session = database.session(engine)
    yield session
    session.close()
    engine.dispose()


COUNTED_TABLES = {"login_failure"}  # failed sign-ins and joins are counted on purpose, even when refused


def snapshot(db) -> dict[str, list[str]]:
    """Every row of every table but the counted failures: what "a refusal changes nothing" compares."""
    db.rollback()  # a fresh read: see what the requests committed
    rows = {
        table.name: sorted(map(repr, db.connection().execute(table.select()).all()))
        for table in SQLModel.metadata.sorted_tables
        if table.name not in COUNTED_TABLES
    }
    db.rollback()
    return rows


class FormReader(HTMLParser):
    """The values a browser posts for the first ``<form method="post">`` of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.in_form = False
        self.done = False
        self.select: str | None = None
        self.select_first: str | None = None
        self.select_chosen: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not self.done and (a.get("method") or "").lower() == "post":
            self.in_form = True
        if not self.in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.values[name] = a["value"] if a.get("value") is not None else "on"
            elif kind not in ("submit", "button", "reset"):
                self.values[name] = a.get("value") or ""
        elif tag == "select" and name:
            self.select, self.select_first, self.select_chosen = name, None, None
        elif tag == "option" and self.select:
            value = a.get("value") or ""
            if self.select_first is None:
                self.select_first = value
            if "selected" in a:
                self.select_chosen = value

    def handle_endtag(self, tag):
        if tag == "select" and self.select:
            chosen = self.select_chosen if self.select_chosen is not None else self.select_first
            self.values[self.select] = chosen or ""
            self.select = None
        elif tag == "form" and self.in_form:
            self.in_form = False
            self.done = True


def form_values(page: str) -> dict[str, str]:
    reader = FormReader()
    reader.feed(page)
    return reader.values


def set_at(path, value):
    """A change to an exported file: set the value at ``path`` (keys and list indexes)."""

    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value

    return change


def drop_at(path):
    """A change to an exported file: delete the key (or item) at ``path``."""

    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        del data[last]

    return change
