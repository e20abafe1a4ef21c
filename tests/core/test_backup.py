"""Backups of the SQLite database while the app runs, and restoring them (SQLite only: PostgreSQL has pg_dump)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import stat
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, delete
from sqlmodel import select

from scorekeeper import create_app
from scorekeeper.core import backup
from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.backup import BackupError, NotSQLite, RestoreFailed
from scorekeeper.core.exchange.club_file import club_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import AuditEntry, Night, NightResult, Player
from scorekeeper.core.players import create_player, rename_player, retire_player
from scorekeeper.engine import GAMES
from scorekeeper.engine.rules import rules_to_json
from tests.support import DURCH, RUFEN_HIRSCH, start_night
from tests.support_tournament import make_tournament

HEAD = ScriptDirectory.from_config(database.alembic_config(None)).get_current_head()  # the newest migration


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app on SQLite in its instance folder, as ``python manage.py`` finds it (not the PostgreSQL-too fixture)."""
    instance = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(instance)})
    yield app
    app.extensions["sk_engine"].dispose()


@pytest.fixture
def url(app) -> str:
    return app.config["DATABASE_URL"]


@pytest.fixture
def live(app) -> Path:
    """The live database file."""
    path = Path(app.instance_path) / "scorekeeper.db"
    assert app.config["DATABASE_URL"] == f"sqlite:///{path}"
    return path


@pytest.fixture
def club(db, players):
    """A night of three hands and a renamed player."""
    night = start_night(db, players)
    for _ in range(3):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    rename_player(db=db, player_id=players[4].id, name="Eva-Maria")
    return night


def export_of(path: Path) -> dict:
    """The club in a database file, read without changing the file (no WAL switch as the app's engine makes)."""
    engine = create_engine(f"sqlite:///{path}")
    try:
        with database.session(engine) as session:
            return club_json(session)
    finally:
        engine.dispose()


def query(path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as connection:
        return connection.execute(sql).fetchall()


def current(app) -> dict:
    """The club as the running app sees it now (a new session)."""
    with database.session(app.extensions["sk_engine"]) as session:
        return club_json(session)


# --- backup ----------------------------------------------------------------------


def _old_database(old: Path, revision: str) -> Path:
    """A database of an older schema (``revision``) holding one Matt night of one Durchgang."""
    database.upgrade_to(f"sqlite:///{old}", revision)
    rules = json.dumps(rules_to_json(GAMES["matt"].parse_rules({})))
    later = revision >= "0002"  # 0002 added the pot to start with and the night's uid
    columns = ", pot_start, uid" if later else ""
    values = ", 0, '0123456789abcdef0123456789abcdef'" if later else ""
    engine = create_engine(f"sqlite:///{old}")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            f" status, version, created_at{columns}) VALUES ('matt', ?, 5, 'EUR', '2025-11-07', 'Post', 2, 1,"
            f" 'open', 1, '2025-11-07 20:00:00'{values})",
            (rules,),
        )
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Anna', '2025-11-07 20:00:00')")
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Bernd', '2025-11-07 20:00:00')")
        conn.exec_driver_sql("INSERT INTO seat (evening_id, position, player_id) VALUES (1, 1, 1), (1, 2, 2)")
        conn.exec_driver_sql(
            "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at) VALUES"
            ' (1, 1, 1, \'{"mated_by": 1, "move": 3, "card": "A"}\', \'2025-11-07 20:10:00\','
            " '2025-11-07 20:10:00')"
        )
    engine.dispose()
    return old


def test_a_backup_is_a_checked_self_contained_copy_of_the_database(url, db, club, tmp_path):
    target = tmp_path / "backups" / "copy.db"

    info = backup.backup(url=url, target=target)

    assert (info.path, info.size, info.nights, info.revision) == (target, target.stat().st_size, 1, HEAD)
    assert info.size > 0
    assert sorted(target.parent.iterdir()) == [target]  # no -wal file, no half-written file left over
    assert query(target, "PRAGMA integrity_check") == [("ok",)]
    assert query(target, "PRAGMA journal_mode") == [("delete",)]
    assert export_of(target) == club_json(db)


def test_a_backup_taken_while_a_write_transaction_is_open_holds_only_what_was_committed(app, url, db, club, tmp_path):
    committed = club_json(db)
    writer = database.session(app.extensions["sk_engine"])  # another phone, in the middle of a change
    writer.add(Player(name="Zenzi"))
    writer.exec(delete(AuditEntry))
    writer.flush()  # written into the database's transaction, not committed
    try:
        info = backup.backup(url=url, target=tmp_path / "during.db")
    finally:
        writer.commit()
        writer.close()

    assert export_of(info.path) == committed
    assert query(info.path, "PRAGMA integrity_check") == [("ok",)]
    assert query(info.path, "SELECT count(*) FROM auditentry") == [(3,)]
    after = backup.backup(url=url, target=tmp_path / "after.db")  # the committed change is in the next backup
    assert query(after.path, "SELECT count(*) FROM auditentry") == [(0,)]
    assert "Zenzi" in [p["name"] for p in export_of(after.path)["players"]]


def test_backups_taken_while_hands_are_recorded_each_hold_one_moment(app, url, db, players, tmp_path):
    night = start_night(db, players)
    started, stop, errors = threading.Event(), threading.Event(), []

    def record_hands():  # the app at the table: each hand is one transaction (hand, audit entry, version, history)
        try:
            with database.session(app.extensions["sk_engine"]) as session:
                for _ in range(400):
                    record_hand(db=session, night_id=night.id, hand=DURCH)
                    started.set()
                    if stop.is_set():
                        break
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            started.set()

    writer = threading.Thread(target=record_hands)
    writer.start()
    try:
        started.wait(30)
        copies = [backup.backup(url=url, target=tmp_path / f"copy-{i}.db").path for i in range(5)]
    finally:
        stop.set()
        writer.join(60)
    assert errors == []
    for copy in copies:
        [(hands, audits, version)] = query(
            copy,
            "SELECT (SELECT count(*) FROM handrecord), (SELECT count(*) FROM auditentry), version FROM evening",
        )
        assert hands == audits == version
        assert query(copy, "SELECT DISTINCT hands FROM night_result") == ([(hands,)] if hands else [])
        assert query(copy, "PRAGMA integrity_check") == [("ok",)]


def test_a_backup_replaces_a_file_of_the_same_name_and_refuses_the_database_itself(url, live, db, club, tmp_path):
    target = tmp_path / "latest.db"
    target.write_text("last week's backup")
    assert backup.backup(url=url, target=target).nights == 1
    assert query(target, "SELECT count(*) FROM evening") == [(1,)]
    with pytest.raises(BackupError, match="is the database itself"):
        backup.backup(url=url, target=live)


def test_there_is_no_backup_of_a_database_that_does_not_exist(tmp_path):
    with pytest.raises(BackupError, match=r"there is no database at .*: nothing to back up"):
        backup.backup(url=f"sqlite:///{tmp_path / 'missing.db'}", target=tmp_path / "copy.db")
    assert sorted(tmp_path.iterdir()) == []  # neither a database nor a copy was made


def test_a_backup_that_cannot_be_written_is_refused_with_the_reason(url, club, tmp_path):
    (tmp_path / "notes.txt").write_text("not a folder")
    with pytest.raises(BackupError, match=r"^cannot write the backup .*notes\.txt/copy\.db: "):
        backup.backup(url=url, target=tmp_path / "notes.txt" / "copy.db")


def test_the_default_backup_name_says_when_it_was_taken(tmp_path):
    from datetime import datetime

    assert (
        backup.default_target(directory=tmp_path, now=datetime(2026, 3, 14, 23, 5, 9))
        == tmp_path / "scorekeeper-20260314-230509.db"
    )


# --- restore ---------------------------------------------------------------------


def test_backup_change_restore_gives_the_old_club_back_while_the_app_runs(
    app, url, db, club, players, tmp_path, client
):
    before = club_json(db)
    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    record_hand(db=db, night_id=club.id, hand=DURCH)
    create_player(db=db, name="Zenzi")
    retire_player(db=db, player_id=players[0].id)
    start_night(db, players[1:], game="konter_a_matt")
    assert current(app) != before
    assert len(client.get(f"/api/v1/sessions/{club.id}").get_json()["hands"]) == 4

    info = backup.restore(url=url, source=saved.path)

    assert info.nights == 1
    assert current(app) == before
    assert len(client.get(f"/api/v1/sessions/{club.id}").get_json()["hands"]) == 3  # the running app sees it at once
    assert export_of(saved.path) == before  # the backup is as it was


def test_an_older_backup_is_brought_to_the_newest_schema_with_its_history_after_the_restore(app, url, tmp_path):
    old = _old_database(tmp_path / "old.db", "0002")
    assert backup.check_backup(old).revision == "0002"

    backup.restore(url=url, source=old)
    upgraded = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": app.instance_path})  # as restore
    upgraded.extensions["sk_engine"].dispose()

    live = Path(app.instance_path) / "scorekeeper.db"
    assert query(live, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    with database.session(app.extensions["sk_engine"]) as session:
        assert [p.retired for p in session.exec(select(Player))] == [False, False]
        assert [(r.player_id, r.hands) for r in session.exec(select(NightResult))] == [(1, 1), (2, 1)]
        assert session.exec(select(Night.place)).all() == ["Post"]


def test_an_older_backups_tournaments_get_the_clubs_currency_as_the_restore_migrates_them(app, url, tmp_path):
    """Migration 0018: a backup of before a tournament kept its currency, restored by ``manage.py restore``
    (which hands in SCOREKEEPER_CURRENCY), has its tournaments in the club's currency."""
    old = _old_database(tmp_path / "old.db", "0017")
    engine = create_engine(f"sqlite:///{old}")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO tournament (uid, name, played_on, place, game, rules, rounds, deals, entry_fee_cents,"
            " prizes, seed, keep_apart, status, version, created_at) VALUES ('a', 'Preisjass', '2025-11-07', '',"
            " 'schafkopf', '{}', 2, 32, 1500, '[5000]', 's', '[]', 'open', 0, '2025-11-07 19:00:00')"
        )
    engine.dispose()

    backup.restore(url=url, source=old, currency="CHF")

    assert query(Path(app.instance_path) / "scorekeeper.db", "SELECT currency FROM tournament") == [("CHF",)]


def _not_a_database(path: Path) -> None:
    path.write_text("Anna;Bernd;Clara;Dieter\n" * 100)


def _empty_file(path: Path) -> None:
    path.write_bytes(b"")


def _another_apps_database(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE todo (id INTEGER PRIMARY KEY, text TEXT)")
        connection.execute("INSERT INTO todo (text) VALUES ('buy cards')")
        connection.commit()


def _no_schema_version(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE evening (id INTEGER PRIMARY KEY)")
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32))")
        connection.commit()


def _newer_schema(good: Path):
    def make(path: Path) -> None:
        shutil.copy(good, path)
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("UPDATE alembic_version SET version_num = '0099'")
            connection.commit()

    return make


def _damaged(good: Path):
    def make(path: Path) -> None:
        data = bytearray(good.read_bytes())
        page = 4096
        for start in range(2 * page, len(data) - page, page):  # every page after the schema: garbage
            data[start + 8 : start + page - 8] = b"\xa5" * (page - 16)
        path.write_bytes(bytes(data))

    return make


BAD_BACKUPS = {
    "a text file": (lambda good: _not_a_database, "is not a SQLite database"),
    "an empty file": (lambda good: _empty_file, "not one of Scorekeeper (no table evening, alembic_version)"),
    "a database of another app": (lambda good: _another_apps_database, "not one of Scorekeeper (no table evening"),
    "a database without its schema version": (lambda good: _no_schema_version, "has no single schema version"),
    "a backup of a newer Scorekeeper": (_newer_schema, "'0099', which this Scorekeeper does not know"),
    "a damaged backup": (_damaged, "damaged"),
}


@pytest.mark.parametrize("make, message", BAD_BACKUPS.values(), ids=list(BAD_BACKUPS))
def test_a_file_that_is_no_sound_backup_of_this_app_is_refused_and_nothing_changes(
    app, url, db, club, tmp_path, make, message
):
    good = backup.backup(url=url, target=tmp_path / "good.db").path
    bad = tmp_path / "bad.db"
    make(good)(bad)
    content = bad.read_bytes()
    before = current(app)

    with pytest.raises(BackupError, match=re.escape(message)):
        backup.restore(url=url, source=bad)

    assert current(app) == before
    assert bad.read_bytes() == content


@pytest.mark.parametrize("name", ["missing.db", "."])
def test_a_missing_file_or_a_folder_is_refused(url, tmp_path, name):
    with pytest.raises(BackupError, match="is not a file"):
        backup.restore(url=url, source=tmp_path / name)


def test_the_database_itself_is_not_restored_over_itself(url, live, club):
    with pytest.raises(BackupError, match="is the database itself"):
        backup.restore(url=url, source=live)


# --- restore: the whole schema checked, a safety copy, one swap ----------------------


def files_of(live: Path) -> dict[str, bytes]:
    """The live database's file and its -wal, byte for byte (what a refused restore must not touch)."""
    return {suffix: Path(f"{live}{suffix}").read_bytes() for suffix in ("", "-wal") if Path(f"{live}{suffix}").exists()}


def _edited(good: Path, *statements: str):
    """A backup changed by SQL (foreign keys off, as an attacker's tool would have them)."""

    def make(path: Path) -> None:
        shutil.copy(good, path)
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("PRAGMA foreign_keys=OFF")
            for statement in statements:
                connection.execute(statement)
            connection.commit()

    return make


def _only_the_night_table(good: Path):
    """The attack: the table evening and alembic_version at the newest version, nothing else."""
    with closing(sqlite3.connect(good)) as connection:
        others = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT IN ('evening', 'alembic_version') AND name NOT LIKE 'sqlite_%'"
            )
        ]
    return _edited(good, *(f"DROP TABLE {name}" for name in others))


def _first_schema_without_its_tables(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE evening (id INTEGER PRIMARY KEY)")
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        connection.execute("INSERT INTO alembic_version VALUES ('0001')")
        connection.commit()


INCOMPLETE_BACKUPS = {
    "only the night table, at the newest version": (
        _only_the_night_table,
        r"^\S*bad\.db does not have the schema of Scorekeeper: it has no table .*\bnight_result\b",
    ),
    "a table without one of its columns": (
        lambda good: _edited(good, "ALTER TABLE evening DROP COLUMN place"),
        r"bad\.db does not have the schema of Scorekeeper: it has no column evening\.place$",
    ),
    "a trigger of its own": (
        lambda good: _edited(good, "CREATE TRIGGER wipe AFTER INSERT ON handrecord BEGIN DELETE FROM auditentry; END"),
        r"it has a trigger wipe Scorekeeper does not make$",
    ),
    "rows that point at nothing": (
        lambda good: _edited(good, "INSERT INTO seat (evening_id, position, player_id) VALUES (99, 1, 1)"),
        r"bad\.db has 1 rows that point at rows it does not have \(the first: seat row \d+, pointing at evening\)",
    ),
    "an old version without the tables it migrates": (
        lambda good: _first_schema_without_its_tables,
        r"bad\.db does not have the schema of Scorekeeper \(schema version 0001\): it has no table .*\bplayer\b",
    ),
}


@pytest.mark.parametrize("make, message", INCOMPLETE_BACKUPS.values(), ids=list(INCOMPLETE_BACKUPS))
def test_a_file_without_the_whole_schema_is_refused_the_database_is_untouched_and_the_app_still_starts(
    app, url, live, db, club, tmp_path, make, message
):
    good = backup.backup(url=url, target=tmp_path / "good.db").path
    bad = tmp_path / "bad.db"
    make(good)(bad)
    assert backup.check_backup(bad)  # the quick check lets it through: only the whole check finds it
    content, before, files, folder = bad.read_bytes(), current(app), files_of(live), sorted(live.parent.iterdir())

    with pytest.raises(BackupError, match=message) as refused:
        backup.restore(url=url, source=bad)

    assert not isinstance(refused.value, RestoreFailed)
    assert "\n" not in str(refused.value)
    assert files_of(live) == files  # the database and its -wal, byte for byte
    assert sorted(live.parent.iterdir()) == folder  # no temporary file, no safety copy
    assert current(app) == before
    assert bad.read_bytes() == content
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": app.instance_path})
    try:
        with database.session(restarted.extensions["sk_engine"]) as session:
            assert club_json(session) == before
    finally:
        restarted.extensions["sk_engine"].dispose()


def test_a_backup_of_the_first_schema_is_migrated_and_its_history_filled_in_before_it_replaces_the_database(
    app, url, live, db, club, tmp_path
):
    old = _old_database(tmp_path / "first.db", "0001")
    content = old.read_bytes()

    info = backup.restore(url=url, source=old)

    assert (info.revision, info.nights) == ("0001", 1)  # the backup as it was found
    assert query(live, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    with database.session(app.extensions["sk_engine"]) as session:  # the running app, not restarted
        [night] = session.exec(select(Night)).all()
        assert (night.place, night.pot_start, len(night.uid)) == ("Post", 0, 32)
        assert [(r.player_id, r.hands) for r in session.exec(select(NightResult))] == [(1, 1), (2, 1)]
        assert [p.name for p in session.exec(select(Player))] == ["Anna", "Bernd"]
    assert old.read_bytes() == content  # the backup itself is not migrated
    assert [p.name for p in live.parent.iterdir() if ".restore-" in p.name] == []


def test_a_backup_with_another_page_size_is_restored(app, url, live, db, club, players, tmp_path):
    saved = backup.backup(url=url, target=tmp_path / "saved.db").path
    before = current(app)
    with closing(sqlite3.connect(saved, isolation_level=None)) as connection:
        connection.execute("PRAGMA page_size=1024")
        connection.execute("VACUUM")
    assert query(saved, "PRAGMA page_size") == [(1024,)] != query(live, "PRAGMA page_size")
    create_player(db=db, name="Zenzi")

    backup.restore(url=url, source=saved)

    assert current(app) == before


def test_the_database_a_restore_replaces_is_kept_as_a_checked_backup(app, url, live, db, club, players, tmp_path):
    saved = backup.backup(url=url, target=tmp_path / "saved.db").path
    create_player(db=db, name="Zenzi")
    before = current(app)

    first = backup.restore(url=url, source=saved)
    second = backup.restore(url=url, source=saved)  # within the same second, too: another name

    assert first.live == live
    assert first.safety.parent == live.parent / "backups"
    assert re.fullmatch(r"before-restore-\d{8}-\d{6}\.db", first.safety.name)
    assert first.safety_checked and second.safety_checked
    assert sorted((live.parent / "backups").iterdir()) == sorted([first.safety, second.safety])  # nothing else
    assert backup.check_backup(first.safety).nights == 1
    assert query(first.safety, "PRAGMA integrity_check") == [("ok",)]
    assert export_of(first.safety) == before  # Zenzi is in it
    for path in (first.safety, live, Path(f"{live}-wal")):
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    backup.restore(url=url, source=first.safety)  # and it undoes the restore
    assert current(app) == before


@pytest.mark.parametrize("when", ["before it copies", "after it copied"])
def test_a_failure_during_the_swap_puts_the_database_back_and_says_so(
    app, url, live, db, club, players, tmp_path, monkeypatch, when
):
    saved = backup.backup(url=url, target=tmp_path / "saved.db").path
    create_player(db=db, name="Zenzi")  # what the restore would undo
    before = current(app)
    real_copy_into, calls = backup._copy_into, []

    def fail_once(source: Path, target: Path) -> None:
        calls.append(source)
        if len(calls) == 1:
            if when == "after it copied":
                real_copy_into(source, target)  # the backup is in the live database when it fails
                assert "Zenzi" not in [p["name"] for p in current(app)["players"]]
            raise sqlite3.OperationalError("disk I/O error")
        real_copy_into(source, target)

    monkeypatch.setattr(backup, "_copy_into", fail_once)

    with pytest.raises(RestoreFailed) as failed:
        backup.restore(url=url, source=saved)

    [safety] = (live.parent / "backups").iterdir()
    assert str(failed.value) == (
        f"the restore into {live} failed, the database is as it was (a copy of it is kept in {safety}): disk I/O error"
    )
    assert calls[1] == safety  # put back from the safety copy
    assert current(app) == before  # the running app sees the old database
    assert [p.name for p in live.parent.iterdir() if ".restore-" in p.name] == []
    assert query(live, "PRAGMA integrity_check") == [("ok",)]
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": app.instance_path})
    try:
        with database.session(restarted.extensions["sk_engine"], write=True) as session:
            assert club_json(session) == before
            record_hand(db=session, night_id=club.id, hand=DURCH)  # and it works
    finally:
        restarted.extensions["sk_engine"].dispose()


def test_no_restore_without_a_safety_copy(app, url, live, db, club, players, tmp_path, monkeypatch):
    saved = backup.backup(url=url, target=tmp_path / "saved.db").path
    create_player(db=db, name="Zenzi")
    before, files = current(app), files_of(live)
    real_replace, calls = os.replace, []

    def fail_once(source, target):
        calls.append(target)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", fail_once)

    with pytest.raises(BackupError, match=r"^cannot keep a copy of the database before the restore: .*No space left"):
        backup.restore(url=url, source=saved)

    assert files_of(live) == files
    assert current(app) == before
    assert list((live.parent / "backups").iterdir()) == []  # no half-written copy
    assert [p.name for p in live.parent.iterdir() if ".restore-" in p.name] == []


def test_a_damaged_database_is_replaced_and_its_file_kept_byte_for_byte(app, url, live, db, club, tmp_path):
    saved = backup.backup(url=url, target=tmp_path / "saved.db").path
    before = current(app)
    db.close()
    app.extensions["sk_engine"].dispose()  # the app is stopped: its last connection folds the -wal into the file
    _damaged(live)(tmp_path / "damaged.db")
    shutil.copy(tmp_path / "damaged.db", live)
    damaged = live.read_bytes()

    info = backup.restore(url=url, source=saved)

    assert info.safety.read_bytes() == damaged and not info.safety_checked
    assert query(live, "PRAGMA integrity_check") == [("ok",)]
    assert export_of(live) == before


# --- PostgreSQL ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["postgresql://scorekeeper@localhost/scorekeeper", "postgresql+psycopg://u:secret@db.example/club"]
)
def test_postgresql_is_refused_pointing_to_its_own_tools(url, tmp_path):
    with pytest.raises(NotSQLite, match=r"the database is PostgreSQL, not SQLite: use pg_dump") as caught:
        backup.backup(url=url, target=tmp_path / "copy.db")
    assert "secret" not in str(caught.value)
    with pytest.raises(NotSQLite, match="use pg_restore"):
        backup.restore(url=url, source=tmp_path / "copy.db")
    assert sorted(tmp_path.iterdir()) == []


def test_an_in_memory_database_has_no_file_to_back_up(tmp_path):
    with pytest.raises(NotSQLite, match="not a SQLite file"):
        backup.backup(url="sqlite://", target=tmp_path / "copy.db")


def test_a_restore_moves_every_version_past_any_the_live_database_served(url, live, db, club, players, tmp_path):
    """A night's (a tournament's) version names one state: the phones' tags, the standings board's and the
    kept PDFs key on it. A restore would bring the restored ones back to numbers already served for other
    states; it moves every one past any served before, and keeps their order."""
    t = make_tournament(db, n=8)
    other = start_night(db, players)
    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    kept = dict(query(saved.path, "SELECT id, version FROM evening"))
    [(kept_t,)] = query(saved.path, "SELECT version FROM tournament")
    for _ in range(4):
        record_hand(db=db, night_id=other.id, hand=DURCH)
    tm.draw_round(db=db, tournament_id=t.id)
    [(served, served_t)] = query(
        live, "SELECT (SELECT max(version) FROM evening), (SELECT max(version) FROM tournament)"
    )
    before = int(time.time())

    backup.restore(url=url, source=saved.path, backups=tmp_path / "kept")

    now = dict(query(live, "SELECT id, version FROM evening"))
    assert now.keys() == kept.keys()
    [step] = {now[i] - kept[i] for i in now}  # one step for all: their order stays
    assert step > 0 and min(now.values()) > max(served, before)  # past the live database's, and the clock's
    [(moved_t,)] = query(live, "SELECT version FROM tournament")
    assert served_t > kept_t and moved_t > max(served_t, before)


def test_restores_one_after_another_add_to_the_versions_instead_of_doubling_them(
    url, live, db, club, players, tmp_path
):
    """Each restore moves the copy's lowest version just past the highest served (or the clock); a
    step of the whole bound added to every version would double them with each restore."""
    make_tournament(db, n=8)
    start_night(db, players)
    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    kept = dict(query(saved.path, "SELECT id, version FROM evening"))
    span = max(kept.values()) - min(kept.values())
    moved, moved_t = [0], [0]
    for _ in range(3):
        before = int(time.time())
        backup.restore(url=url, source=saved.path, backups=tmp_path / "kept")
        after = int(time.time())
        [(served,)] = query(live, "SELECT max(version) FROM evening")
        [(tournament,)] = query(live, "SELECT version FROM tournament")
        assert max(before, moved[-1]) < served - span <= max(after, moved[-1]) + 1  # the lowest just past
        assert max(before, moved_t[-1]) < tournament <= max(after, moved_t[-1]) + 1  # one: lowest and highest
        moved.append(served)
        moved_t.append(tournament)
    assert moved[-1] < 2 * moved[1] and moved_t[-1] < 2 * moved_t[1]


def test_a_night_deleted_after_a_restore_comes_back_past_every_version_it_served(
    url, live, db, players, tmp_path, monkeypatch
):
    """Review: a restore, a backup of the restored club, hands recorded (their versions served to the
    phones), the night deleted, the backup restored: the night must come back past every version it
    served (docs/backup.md: "also one deleted since"). The step measured from the copy's lowest version
    leaves a margin of only the seconds between the two restores, which the night's changes exceed here."""
    monkeypatch.setattr(backup.time, "time", lambda: 1_800_000_000.0)  # both restores within one second
    from scorekeeper.core.exchange.night_file import night_json
    from scorekeeper.core.nights import delete_night

    night = start_night(db, players)
    first = backup.backup(url=url, target=tmp_path / "first.db")
    backup.restore(url=url, source=first.path, backups=tmp_path / "kept")
    saved = backup.backup(url=url, target=tmp_path / "saved.db")  # the restored club, kept
    db.rollback()
    db.expire_all()
    for _ in range(3):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    [(served,)] = query(live, f"SELECT version FROM evening WHERE id = {night.id}")
    delete_night(db=db, night_id=night.id, reason="by mistake", export=night_json(db=db, night_id=night.id))
    backup.restore(url=url, source=saved.path, backups=tmp_path / "kept again")
    [(back,)] = query(live, f"SELECT version FROM evening WHERE id = {night.id}")
    assert back > served  # else the version names two states: a phone with that tag gets 304 for 0 hands


# --- ids ----------------------------------------------------------------------------


def test_after_a_restore_a_phone_apps_night_id_never_names_another_night(app, client, players, tmp_path):
    """The club backs up at 18:00. At 20:00 the scoring app on a phone starts a night through the
    API (Anna, Bernd, Clara, Dieter) and records hand 1. At 21:00 the admin restores the 18:00 backup
    (something else went wrong), which takes that night away. Another table starts a night afterwards
    (Eva, Clara, Bernd, Anna, through the pages or the API). The first phone's app still has its
    night's id and sends its next hand: the API took it, 201, as hand 1 of the other table's night,
    with other people in other seats. The ids are "never reused" (docs/architecture.md: SQLite
    never reuses a night's id, AUTOINCREMENT), but the restored file brought back its own
    ``sqlite_sequence``, so the next night got the id served before the restore (core/backup.py
    _past_live moved the versions past, not the ids). A form carries the night's uid and is
    refused; the API's POST of a hand has nothing to tell the nights apart by. (Attack, c5a1979.)"""
    url = app.config["DATABASE_URL"]
    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    first = client.post(
        "/api/v1/sessions",
        json={"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in players[:4]], "first_dealer": 1},
    ).get_json()
    assert client.post(f"/api/v1/sessions/{first['id']}/hands", json=RUFEN_HIRSCH).status_code == 201

    backup.restore(url=url, source=saved.path, backups=tmp_path / "kept")

    other = client.post(
        "/api/v1/sessions",
        json={
            "game": "matzlfangen",
            "stake_cents": 50,
            "players": [players[4].id, players[2].id, players[1].id, players[0].id],
            "first_dealer": 1,
        },
    ).get_json()
    late = client.post(f"/api/v1/sessions/{first['id']}/hands", json=RUFEN_HIRSCH)
    assert other["id"] != first["id"], (
        f"the new night got id {other['id']}, the id the phone's night had before the restore; "
        f"its late hand was answered {late.status_code} and recorded at the other table"
    )
    assert late.status_code == 404  # the phone's night is gone with the restore: its hand lands nowhere


def test_a_restore_gives_out_no_id_served_since_the_backup_again(url, live, db, club, players, tmp_path):
    """A player, a tournament, a hand and a night given their ids after the backup (the night deleted
    again, so that only the live database's ``sqlite_sequence`` remembers its id): after the restore,
    the next of each gets a new id. A cached roster's player id on ``POST /sessions`` would seat
    someone else, a tournament's id on the standings board would show another tournament."""
    from scorekeeper.core.exchange.night_file import night_json
    from scorekeeper.core.nights import delete_night

    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    cup = make_tournament(db, n=4)  # and its players Spieler 1 .. 4
    franz = create_player(db=db, name="Franz")  # the highest player id
    gone = start_night(db, players)
    hand, _, _ = record_hand(db=db, night_id=gone.id, hand=DURCH)
    served = {"player": franz.id, "tournament": cup.id, "evening": gone.id, "handrecord": hand.id}
    delete_night(db=db, night_id=gone.id, reason="by mistake", export=night_json(db=db, night_id=gone.id))
    assert query(live, f"SELECT count(*) FROM evening WHERE id = {gone.id}") == [(0,)]

    backup.restore(url=url, source=saved.path, backups=tmp_path / "kept")
    db.rollback()
    db.expire_all()

    night = start_night(db, players)
    given = {
        "player": create_player(db=db, name="Franz").id,
        "tournament": make_tournament(db, n=4, name="Pokal").id,
        "evening": night.id,
        "handrecord": record_hand(db=db, night_id=night.id, hand=DURCH)[0].id,
    }
    assert {table: given[table] > served[table] for table in served} == dict.fromkeys(served, True), (given, served)


def test_where_the_live_database_tells_nothing_the_backups_own_id_counters_stay(url, db, club, players, tmp_path):
    """The live database's counters raise the copy's, never lower them. With no live database (as with
    one too damaged to read: ids have no clock to fall back on, docs/backup.md) the backup's own
    counters stay, which remember the ids of the nights deleted before the backup."""
    from scorekeeper.core.exchange.night_file import night_json
    from scorekeeper.core.nights import delete_night

    gone = start_night(db, players)
    delete_night(db=db, night_id=gone.id, reason="by mistake", export=night_json(db=db, night_id=gone.id))
    saved = backup.backup(url=url, target=tmp_path / "saved.db")
    kept = dict(query(saved.path, "SELECT name, seq FROM sqlite_sequence"))
    assert kept["evening"] == gone.id
    elsewhere = tmp_path / "elsewhere" / "club.db"

    backup.restore(url=f"sqlite:///{elsewhere}", source=saved.path, backups=tmp_path / "kept")

    assert dict(query(elsewhere, "SELECT name, seq FROM sqlite_sequence")) == kept
