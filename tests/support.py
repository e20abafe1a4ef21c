"""What the tests share that is no fixture: helpers and constants, imported as ``from tests.support import ...``.

The fixtures are in the conftest.py files; they import from here too. No test imports a conftest.py.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import Connection, make_url, text
from sqlmodel import SQLModel
from werkzeug.security import generate_password_hash

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import User
from scorekeeper.core.nights import close_night, create_night
from scorekeeper.web.access import client_for

#: The repository's root folder (where manage.py is).
ROOT = Path(__file__).resolve().parents[1]

# --- apps --------------------------------------------------------------------------------


def share_url_rules() -> None:
    """Each app parses every route's rule into regular expressions and compiles two URL-building
    functions for it (Werkzeug's ``Rule.compile``: the rule's parts, then Python source through
    ``ast`` and ``compile``); the tests start thousands of apps with the same routes, and this was
    half of the 0.3 s an app took to start, then still a tenth of a web test's time. What a rule
    compiles to depends only on its text, its defaults and its map's converters and settings, so the
    tests' process compiles each once and hands the result to every later app's rule that is the same
    (called once, from tests/conftest.py). The converters are shared with it: they keep no state."""
    from werkzeug.routing.rules import Rule

    compile_rule = Rule.compile
    if getattr(compile_rule, "shared", False):  # done already
        return
    compiled: dict[tuple, tuple] = {}

    def shared(rule: Rule) -> None:
        try:
            key = (
                rule.rule,
                rule.subdomain,
                rule.host,
                rule.merge_slashes,
                rule.map.host_matching,
                tuple(sorted(rule.map.converters.items())),
                tuple(sorted((rule.defaults or {}).items())),
            )
            hash(key)
        except TypeError:  # a default that cannot be a key: compiled as Werkzeug does
            return compile_rule(rule)
        if key not in compiled:
            compile_rule(rule)
            compiled[key] = (
                rule._parts,
                rule._trace,
                rule._converters,
                frozenset(rule.arguments),
                rule._build.__func__,
                rule._build_unknown.__func__,
            )
            return
        parts, trace, converters, arguments, build, build_unknown = compiled[key]
        rule._parts, rule._trace, rule._converters = list(parts), list(trace), dict(converters)
        rule.arguments = set(arguments)
        rule._build = build.__get__(rule, None)
        rule._build_unknown = build_unknown.__get__(rule, None)

    shared.shared = True
    Rule.compile = shared


class SharedTemplateCode(BytecodeCache):
    """Jinja's compiled templates kept in memory for every app of the tests' process: each app has
    an environment of its own and would compile every template it renders again (Jinja's parser and
    compiler are most of a page test's time). Jinja checks a template's source against what was
    compiled (its checksum), so a changed template is compiled anew."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


#: the one :class:`SharedTemplateCode` of the process (the ``app`` fixture gives it to each app)
TEMPLATE_CODE = SharedTemplateCode()


# --- databases ---------------------------------------------------------------------------

#: The databases the ``app`` fixture runs every test on: SQLite; PostgreSQL too when CI gives one.
BACKENDS = ["sqlite"]
if os.environ.get("SCOREKEEPER_TEST_POSTGRES_URL"):
    BACKENDS.append("postgresql")

# Migrating a new database runs the whole Alembic chain (half a second on SQLite, more on
# PostgreSQL): longer than most tests. So each test run (each pytest-xdist worker) migrates once per
# backend, and the ``app`` fixture hands every test an app told not to migrate (``MIGRATE_ON_START``)
# on a database at the newest schema with nothing in it: on SQLite a copy of a migrated template
# file; on PostgreSQL the worker's migrated database with its rows deleted and its ids starting
# at 1 again (CREATE DATABASE ... TEMPLATE takes longer than the migrations). What must start from
# an empty or an old schema (the migrations, servers starting at once on a new database, backup and
# restore) makes its own database, as before (:func:`fresh_postgres`).


def migrate_sqlite_template(path: Path) -> Path:
    """A new SQLite database at ``path``, migrated to the newest schema and closed: a template to copy."""
    engine = database.make_engine(f"sqlite:///{path}")
    database.upgrade(engine)
    engine.dispose()  # the last connection closed writes the WAL back: the file alone is the database
    if Path(f"{path}-wal").exists():
        raise RuntimeError(f"{path}-wal is left behind: a copy of {path} alone would miss what it holds")
    return path


def sqlite_copy(template: Path, path: Path) -> str:
    """The URL of a new SQLite database at ``path``, a copy of ``template`` (a millisecond).

    A database already at ``path`` is overwritten through SQLite's backup API, not on disk: a
    connection some test left open on it (an app of its own on the same URL) reads the new
    content, where a file replaced under it would fail with "disk I/O error"."""
    if not path.exists():
        shutil.copyfile(template, path)
    else:
        with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(path)) as target:
            source.backup(target)
    return f"sqlite:///{path}"


@contextmanager
def shared_engine() -> Iterator[None]:
    """While it lasts, the app started gets the engine the tests' process keeps for its database URL
    (one per backend and worker: the ``app`` fixture gives every test the same URL, its database made
    new), not an engine of its own.

    SQLAlchemy compiles each kind of statement once per engine (its compiled cache is keyed by the
    engine's dialect): with a new engine per test every query was compiled again in every test, a
    fifth of a web test's time. At the end of each test :func:`close_or_keep` keeps the engine's pooled
    connections for the next one, or closes them when the test left one out (the app's
    ``sk_engine_close``: ``dispose`` closes its connections and keeps what it compiled)."""
    real = database.make_engine

    def kept(url: str):
        if url not in _ENGINES:
            _ENGINES[url] = real(url)
        return _ENGINES[url]

    database.make_engine = kept
    try:
        yield
    finally:
        database.make_engine = real


def close_or_keep(app) -> None:
    """At a test's end: the app's shared engine keeps its pooled connections for the next test when
    the test gave every one back (on PostgreSQL a new connection costs the server a new process that
    reads its catalogue again, tens of milliseconds per test); else they are closed now. Either way
    the app's finalizer never runs later (a collected app must not close a later test's connections)."""
    engine = app.extensions["sk_engine"]
    if engine.pool.checkedout() == 0:
        app.extensions["sk_engine_close"].detach()
    else:
        app.extensions["sk_engine_close"]()


#: url -> the engine the tests' apps on that database share (:func:`shared_engine`)
_ENGINES: dict[str, Any] = {}


#: This test run's mark, the same in each of its pytest-xdist workers: the PostgreSQL databases a run
#: makes carry it, so that two runs at once against one server (two checkouts, a run beside CI's) never
#: drop each other's tables. Each run drops its own at its end (:func:`drop_postgres_databases`).
RUN = (os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex)[:8]
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")


def fresh_postgres(url: str) -> str:
    """An empty database beside ``url``'s, this worker's own (``<name>_<run>_gw0``, made the first time),
    its public schema dropped so that migrations run from scratch: two workers, or two runs, never drop
    each other's schema."""
    url = _database_beside(url, f"{RUN}_{WORKER}")
    _drop_schema(url)
    return url


def migrate_postgres(url: str) -> str:
    """The URL of this worker's database for the ``app`` fixture beside ``url``'s (``<name>_<run>_gw0_app``,
    ``<name>_<run>_main_app`` without xdist), its schema made anew and migrated (once per run)."""
    app_url = _database_beside(url, f"{RUN}_{WORKER}_app")
    _drop_schema(app_url)
    engine = database.make_engine(app_url)
    database.upgrade(engine)
    engine.dispose()
    return app_url


def empty_postgres(url: str) -> str:
    """The migrated database at ``url`` with every row deleted and every id counting from 1 again, as a
    new one: ``url``. A connection a test left open is ended first (its locks would block the deletes)."""
    if url not in _EMPTYING:  # one connection per run for it (a new one per test costs more than the deletes)
        tables = [table.name for table in reversed(SQLModel.metadata.sorted_tables)]  # who refers before whom
        engine = database.make_engine(url)
        with engine.connect() as conn:
            sequences = conn.execute(text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")).all()
        # a connection some test left in a transaction (its locks would block the deletes); the idle
        # ones are the shared engine's pool, kept for the next test (:func:`close_or_keep`)
        others = "datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"
        statements = [f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {others}"]
        statements += [f'DELETE FROM "{name}"' for name in tables]
        statements += [f"SELECT setval('\"{name}\"', 1, false)" for (name,) in sequences]
        _EMPTYING[url] = (engine, "; ".join(statements))
    engine, statements = _EMPTYING[url]
    with engine.begin() as conn:
        conn.exec_driver_sql(statements)
    return url


#: url -> (an engine kept for the run, the statements that empty its database)
_EMPTYING: dict[str, tuple[Any, str]] = {}


def drop_postgres_databases(server: str) -> None:
    """Drop the databases this worker made beside ``server``'s (at the end of the run)."""
    for url in list(_MADE.values()):
        if url in _EMPTYING:
            _EMPTYING.pop(url)[0].dispose()
        with _server(server) as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    _MADE.clear()


def _drop_schema(url: str) -> None:
    engine = database.make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


_MADE: dict[str, str] = {}


def _database_beside(url: str, suffix: str) -> str:
    """The URL of the database ``<name>_<suffix>`` beside ``url``'s (created when missing)."""
    key = f"{url} {suffix}"
    if key in _MADE:
        return _MADE[key]
    base = make_url(url)
    name = f"{base.database}_{suffix}"
    with _server(url) as server:
        if server.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first() is None:
            server.execute(text(f'CREATE DATABASE "{name}"'))
    _MADE[key] = base.set(database=name).render_as_string(hide_password=False)
    return _MADE[key]


@contextmanager
def _server(url: str) -> Iterator[Connection]:
    """A connection to ``url``'s database outside any transaction: for CREATE and DROP DATABASE."""
    engine = database.make_engine(url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


COUNTED_TABLES = {"login_failure"}  # failed sign-ins and joins are counted on purpose, even when refused


def snapshot(db) -> dict[str, list[str]]:
    """Every row of every table but the counted failures: what "a refusal changes nothing" compares."""
    db.rollback()  # a fresh read: see what the requests committed
    connection = db.connection()
    # the driver's own rows, each table's SELECT written once: the fuzz tests take a snapshot after
    # every request, and SQLAlchemy's statement and row handling were most of its time
    if connection.dialect.name == "postgresql":
        # every SELECT in one round trip, a result each (psycopg's nextset): 1.3 ms against 5.9 for
        # one round trip per table on this machine
        rows = {}
        with connection.connection.dbapi_connection.cursor() as cursor:  # closed also when a read fails
            cursor.execute(_SNAPSHOT_ALL)
            for name, _ in _SNAPSHOT_SQL:
                rows[name] = sorted(map(repr, cursor.fetchall()))
                cursor.nextset()
    else:
        rows = {name: sorted(map(repr, connection.exec_driver_sql(sql).all())) for name, sql in _SNAPSHOT_SQL}
    db.rollback()
    return rows


#: (table, "SELECT * FROM table") for every table :func:`snapshot` reads
_SNAPSHOT_SQL = [
    (table.name, f'SELECT * FROM "{table.name}"')
    for table in SQLModel.metadata.sorted_tables
    if table.name not in COUNTED_TABLES
]
_SNAPSHOT_ALL = "; ".join(sql for _, sql in _SNAPSHOT_SQL)


# --- accounts ----------------------------------------------------------------------------

PASSWORD = "richtig-geheim"

#: The tests' password hashes: scrypt, as the app's, at a 32nd of its work (N = 2**10 against
#: werkzeug's 2**15): a sign-in through the form, a new account or a new password costs 3 ms, not 100.
#: The stored hash names its cost, so checking one costs what making it did.
HASH_METHOD = "scrypt:1024:8:1"


def cheap_password_hashing() -> None:
    """Make the app's password hashes in this process with :data:`HASH_METHOD` (called once, from
    tests/conftest.py): the suite signed in, made accounts and changed passwords a few hundred times,
    at a tenth of a second each, a twentieth of the web tests' time. The tests of slow checks (a
    password checked holds no lock; at most a few checks at once) slow the check down themselves or run
    the server in a process of its own (tests/tools), where the app's own cost applies. A password
    asked for an unknown name is still checked at the app's cost (``accounts._DUMMY_HASH``: a few tests)."""
    if getattr(accounts.generate_password_hash, "cheap", False):  # done already
        return

    def cheap(password: str, method: str = HASH_METHOD, salt_length: int = 16) -> str:
        return generate_password_hash(password, method, salt_length)

    cheap.cheap = True
    accounts.generate_password_hash = cheap


_HASH = generate_password_hash(PASSWORD, HASH_METHOD)  # once


def make_user(app, name: str, role: str) -> User:
    """An account with the password :data:`PASSWORD` (stored directly: no slow hashing per test)."""
    with database.session(app.extensions["sk_engine"]) as db:
        user = User(name=name, role=role, password_hash=_HASH)
        db.add(user)
        db.commit()
        return user


signed_in = client_for  # a client signed in as a user (pages: cookie; API: a Bearer token); None: nobody


def session_cookie(app, user: User, base_url: str) -> dict[str, Any]:
    """The session cookie of ``user`` signed in, as a browser context takes it (Playwright's
    ``add_cookies``): what the sign-in form's answer sets, made without the form."""
    client = client_for(app, user)
    name = app.config["SESSION_COOKIE_NAME"]
    return {"name": name, "value": client.get_cookie(name).value, "url": base_url, "httpOnly": True, "sameSite": "Lax"}


# --- nights and hands --------------------------------------------------------------------


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


#: Schafkopf: Clara's Sauspiel with Dieter, won with 70 (2 units each, and the pot's content if it holds any).
SAUSPIEL_CLARA = {"contract": "sauspiel", "declarer": 3, "suit": "gras", "partner": 4, "points": 70}


def closed_split_night(db, players):
    """A closed Schafkopf night whose pot was shared out at the close: 8 units (0.80 EUR), 0.20 EUR each."""
    night = start_night(db, players, game="schafkopf", seats=4, stake_cents=10)  # pot_at_close: split
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})  # -2 each, the pot 8
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL_CLARA)  # Clara + Dieter +2 and 4 each from the pot
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})  # -2 each, the pot 8 again
    close_night(db=db, night_id=night.id)
    return night


#: Durch won: valid whoever deals, any number of times; 6 from each defender.
DURCH = {"contract": "durch", "declarer": 1, "won": True}
#: Rufen won with 70, raised to the fifth level (Hirsch): 1 + 5 = 6 units.
RUFEN_HIRSCH = {"contract": "rufen", "partner": 4, "points": 70, "raises": 5}

# --- a small browser: read a form's fields as a browser would post them, fill it in, post it ---------


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


def open_form(client, path: str) -> dict[str, str]:
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    return form_values(page.get_data(as_text=True))


def fill(data: dict[str, str], fields: dict[str, Any]) -> dict[str, str]:
    """The form with ``fields`` changed: a value is typed or tapped, None clears it."""
    data = dict(data)
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = str(value)
    return data


def submit(client, night_id: int, fields: dict[str, Any], action="save", lang="en", number=None, form=None):
    """Open the hand form (new, or edit of hand ``number``), fill it in and press preview or save."""
    path = f"/nights/{night_id}/hands/new" if number is None else f"/nights/{night_id}/hands/{number}/edit"
    data = fill(form if form is not None else open_form(client, f"{path}?lang={lang}"), fields)
    data["action"] = action
    return client.post(f"{path}?lang={lang}", data=data)


#: Money in euros as the pages write it ("0,10 EUR", "Geld (EUR)"): the word, not three letters of a join code
#: such as VEURSS (an open night's page shows its code: "EUR" not in page failed a CI run on one)
EURO = re.compile(r"\bEUR\b")


def page_text(markup: str) -> str:
    """The words of a page, or of a part of one, as a browser shows them: each tag a space, entities
    read, every run of white space (a no-break space too) one space, trimmed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def answer_text(answer) -> str:
    """The words of a page the app answered (a test client's response), as a browser shows them."""
    return page_text(answer.get_data(as_text=True))


def field_errors(page: str, field: str) -> str:
    """The messages under the form's field ``field`` (its list of errors), as a browser shows them;
    "" when it has none."""
    match = re.search(rf'<ul class="errors" id="{re.escape(field)}-errors">(.*?)</ul>', page, re.S)
    return page_text(match.group(1)) if match else ""


# --- exported files ----------------------------------------------------------------------


def as_file(data: dict) -> dict:
    """The export as it comes back from a file."""
    return json.loads(json.dumps(data, ensure_ascii=False))


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


# --- the command line --------------------------------------------------------------------


def run_manage(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python manage.py ARGS`` in the repository root with ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=120,
    )


# --- the engines -------------------------------------------------------------------------


def check_steps(result: dict[str, Any]) -> None:
    """The steps contract: the last step is the value, the units before it add up to it, totals run along."""
    steps = result["steps"]
    assert steps, "a hand result carries its steps"
    last = steps[-1]
    assert last["key"] == "value"
    assert last["units"] == result["value"]
    assert last["total"] == result["value"]
    assert sum(step["units"] for step in steps[:-1]) == last["units"]
    running = 0
    for step in steps[:-1]:
        running += step["units"]
        assert step["total"] == running
        assert isinstance(step["what"], str) and step["what"]
        assert type(step["units"]) is int


# --- SQLite's write lock -------------------------------------------------------------------


def write_lock_free(path) -> bool:
    """Whether another connection takes SQLite's write lock at once."""
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def pdf_text(data: bytes, tmp_path) -> str:
    """The text of a PDF as pdftotext lays it out (skips where poppler-utils is missing)."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is missing (apt-get install poppler-utils); CI installs it")
    path = tmp_path / "s.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def wait_until(page, predicate: str, arg: Any = None, timeout: float = 10) -> None:
    """Wait until ``predicate`` (a JavaScript function, given ``arg``) is true in a browser page.

    Asked from here every 50 ms, not with ``page.wait_for_function``: that polls by evaluating a
    string in the page, which the page's CSP forbids (``script-src 'self'``), so it failed whenever
    the answer was not yes at once (an EvalError under load). A page that goes to another page
    meanwhile (the outbox reloads the table once its hands landed) is asked again once it is there; so is a page
    whose scripts have not run yet (the predicate's ``self.skOutbox`` undefined: a TypeError), until the time is up,
    when the last error is raised."""
    import time

    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout
    while True:
        failed = None
        try:
            if page.evaluate(predicate, arg):
                return
        except Error as error:
            if "context was destroyed" in error.message:
                page.wait_for_load_state()
            failed = error
        if time.monotonic() > deadline:
            if failed is not None:
                raise failed
            raise AssertionError(f"not true after {timeout} s on {page.url}: {predicate}")
        page.wait_for_timeout(50)


#: how many hands of night ``arg`` the phone's outbox store keeps, whoever's they are (IndexedDB)
_KEPT_FOR_THE_NIGHT = """night => new Promise(done => { const r = indexedDB.open("scorekeeper", 1);
  r.onsuccess = () => { const q = r.result.transaction("outbox").objectStore("outbox").getAll();
  q.onsuccess = () => { r.result.close(); done(q.result.filter(h => h.night === String(night)).length); }; }; })"""


def wait_sent(page, night: int, timeout: float = 20) -> None:
    """Wait until a browser page's outbox has sent every hand it kept for ``night`` and shows no outbox.

    The phone's store is asked, not only the outbox's ``hidden``: a page just loaded hides its outbox
    until its script has read the store, so a hidden outbox right after a page load (a sign-in, a
    table joined again) said nothing yet, and a test that read the server's hands then failed under
    load. A hand leaves the store once the server's answer says it is stored."""
    wait_until(page, f"night => ({_KEPT_FOR_THE_NIGHT})(night).then(n => n === 0)", night, timeout)
    page.wait_for_selector("#outbox[hidden]", state="attached", timeout=timeout * 1000)


def worker_ready(page) -> None:
    """Wait until the service worker controls a browser page (it registers on the first page, then claims it).

    A worker that became active while this page was on its way (the phone went on from its first
    page at once) claims the pages open before, not this one (Chromium): the page is loaded again."""
    wait_until(page, "() => navigator.serviceWorker.getRegistration().then(r => Boolean(r && r.active))", timeout=15)
    if not page.evaluate("() => Boolean(navigator.serviceWorker.controller)"):
        page.reload()
        wait_until(page, "() => Boolean(navigator.serviceWorker.controller)")


class _Answer:
    """An app's answer that closes once, however often it is asked to."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if hasattr(self.answer, "close"):
                self.answer.close()


def _closing_server(app: Any) -> Any:
    """werkzeug's threaded server for ``app``, whose answers are always closed, and which keeps the
    threads of the requests it answers (``server.answering``, for the test's end to wait for them).

    werkzeug's handler closes an answer only after reading what is left of the request. A browser that
    resets the connection meanwhile (a test's page closing while its scripts still load) makes that read
    raise first, so WhiteNoise's file stayed open until the collector found it. Its ResourceWarning then
    failed whichever test was running (the CI run of 9daab77). The handler here closes the answer in any
    case. waitress, which ``make run`` serves with, closes it itself. werkzeug's request threads are
    daemons, which socketserver does not keep."""
    import threading

    from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

    answers = threading.local()  # a request is one thread

    def remembering(environ: dict[str, Any], start_response: Any) -> _Answer:
        answers.now = _Answer(app(environ, start_response))
        return answers.now

    class Handler(WSGIRequestHandler):
        def run_wsgi(self) -> None:
            answers.now = None
            try:
                super().run_wsgi()
            finally:
                if answers.now is not None:
                    answers.now.close()

    class Server(ThreadedWSGIServer):
        def process_request(self, request: Any, client_address: Any) -> None:
            thread = threading.Thread(target=self.process_request_thread, args=(request, client_address), daemon=True)
            self.answering = [*(t for t in self.answering if t.is_alive()), thread]
            thread.start()

    server = Server("127.0.0.1", 0, remembering, handler=Handler)
    server.answering = []
    return server


@contextmanager
def served_app(folder: Path, template: Path, static_cache: Path, poll_seconds: int) -> Iterator[tuple[str, Any]]:
    """The app on a copy of the migrated ``template`` in ``folder``, served on 127.0.0.1 in a thread
    (the browser tests'): yields (base_url, app); stops the server and disposes the engine at the end."""
    import threading

    from scorekeeper import create_app

    previous = os.environ.get("SCOREKEEPER_INSTANCE")
    os.environ["SCOREKEEPER_INSTANCE"] = str(folder / "instance")
    try:
        app = create_app(
            {
                "DATABASE_URL": sqlite_copy(template, folder / "b.db"),
                "SECRET_KEY": "browser",
                "POLL_SECONDS": poll_seconds,
                "MIGRATE_ON_START": False,
                "STATIC_CACHE": str(static_cache),
            }
        )
    finally:
        if previous is None:
            os.environ.pop("SCOREKEEPER_INSTANCE", None)
        else:
            os.environ["SCOREKEEPER_INSTANCE"] = previous
    app.jinja_env.bytecode_cache = TEMPLATE_CODE
    server = _closing_server(app)
    # asked every 20 ms whether to stop, not every 500 (socketserver's default): a test's end waited
    # up to half a second for it, a tenth of the browser tests' time (docs/testing.md)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()  # its listening socket
        # the requests still being answered (a page closed while its polls were under way, a test's
        # slow answer) end before the engine goes: a connection checked out meanwhile went back to
        # the disposed pool, and its unclosed-database warning failed a later test on Python 3.13
        for request in server.answering:
            request.join(30)
        app.extensions["sk_engine"].dispose()
