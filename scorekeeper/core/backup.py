"""Backups of the SQLite database, taken and restored while the app may be running.

Both directions use SQLite's online backup API (:meth:`sqlite3.Connection.backup`):

- :func:`backup` copies the live database into a new file. The copy is one
  consistent snapshot (what was committed when the copy began; a transaction
  still open elsewhere is not in it), checked with ``PRAGMA integrity_check``
  before it gets its name, and self-contained (no ``-wal`` file).
- :func:`restore` never lets a file it has not checked near the live database.
  It copies the backup to a temporary file next to the database, migrates that
  copy to the newest schema, fills in the club's history, and checks it: the
  schema must be exactly the one the models describe (tables, columns, indexes,
  constraints; no triggers or views of its own), ``PRAGMA integrity_check`` and
  ``PRAGMA foreign_key_check`` must pass. Only then does it keep a safety copy
  of the live database (``backups/before-restore-YYYYmmdd-HHMMSS.db``) and copy
  the checked file over the live database in one write transaction: a reader
  (the running app too) sees either the old database or the restored one, and a
  failure leaves SQLite's journal to roll the change back. The live database is
  checked once more afterwards; if that or anything else fails after the swap
  began, the safety copy is put back.

The swap is SQLite's own transaction, not a rename of the file: a rename
(``os.replace``) would leave the running app's open connections on the old,
unlinked file, showing the old data and losing what they write next.

PostgreSQL has its own tools (``pg_dump``, ``pg_restore``); both functions refuse
it with :class:`NotSQLite`. No Flask here: everything takes a database URL and paths.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlmodel import SQLModel

from scorekeeper.core import db as database
from scorekeeper.core import (
    history,
    models,  # registers the tables the schema is compared with; names the versioned ones
)
from scorekeeper.core.db import MIGRATIONS, _private_files

__all__ = [
    "BackupError",
    "BackupInfo",
    "NotSQLite",
    "RestoreFailed",
    "RestoreInfo",
    "backup",
    "check_backup",
    "default_target",
    "restore",
    "restore_target",
    "sqlite_path",
]

#: Tables every database of this app has, at every schema version.
REQUIRED_TABLES = ("evening", "alembic_version")
BUSY_TIMEOUT_SECONDS = 15  # as the app's own connections (db.make_engine)


class BackupError(Exception):
    """A backup or restore that cannot be done; the message is one line for the user."""


class RestoreFailed(BackupError):
    """A restore that failed after it began to change the database; the message says whether
    the database is as it was (the safety copy put back) and where that copy is."""


class NotSQLite(BackupError):
    """The database is not SQLite (PostgreSQL has its own backup tools)."""


@dataclass(frozen=True)
class BackupInfo:
    """What a checked backup file holds."""

    path: Path
    size: int  # bytes
    revision: str  # the schema version (Alembic revision)
    nights: int


@dataclass(frozen=True)
class RestoreInfo(BackupInfo):
    """What a restore did: the backup it restored (``path`` … ``nights``, as the file was before
    its migration), the database it replaced, and where that database is kept."""

    live: Path
    safety: Path | None  # the database as it was before the restore; None when there was none
    safety_checked: bool  # False: the database replaced was damaged, its files are kept byte for byte


def sqlite_path(*, url: str, tool: str) -> Path:
    """The file of a SQLite database URL.

    :param tool: what to use instead on PostgreSQL (named in the refusal).
    :raises NotSQLite: for any other database, or an in-memory one.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BackupError(f"the database URL {url!r} is not a valid SQLAlchemy URL") from None
    backend = parsed.get_backend_name()
    if backend != "sqlite":
        name = "PostgreSQL" if backend == "postgresql" else backend
        raise NotSQLite(f"the database is {name}, not SQLite: use {tool} (see docs/backup.md)")
    if not parsed.database or parsed.database == ":memory:" or parsed.database.startswith("file:"):
        raise NotSQLite("the database is not a SQLite file (in memory or a URI): there is no file to copy")
    return Path(parsed.database)


def default_target(*, directory: Path, now: datetime | None = None) -> Path:
    """``directory/scorekeeper-YYYYmmdd-HHMMSS.db`` (local time)."""
    return directory / f"scorekeeper-{(now or datetime.now()):%Y%m%d-%H%M%S}.db"


def _connect(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A connection to an existing file (never creates one); read-only if asked."""
    mode = "ro" if read_only else "rw"
    return sqlite3.connect(
        f"file:{quote(str(path.resolve()))}?mode={mode}",
        uri=True,
        timeout=BUSY_TIMEOUT_SECONDS,
        isolation_level=None,
    )


def _integrity(connection: sqlite3.Connection) -> str | None:
    """``None`` when ``PRAGMA integrity_check`` says ok, else its first complaint."""
    rows = connection.execute("PRAGMA integrity_check").fetchall()
    return None if rows == [("ok",)] else str(rows[0][0] if rows else "no answer")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def backup(*, url: str, target: Path) -> BackupInfo:
    """Copy the live SQLite database of ``url`` to ``target`` (replacing a file there).

    The copy is written next to ``target`` under a temporary name, checked, and
    then renamed, so ``target`` is never a half-written file.

    :raises NotSQLite: on PostgreSQL.
    :raises BackupError: when there is no database, or the copy fails or is not sound.
    """
    source = sqlite_path(url=url, tool="pg_dump -Fc")
    if not source.is_file():
        raise BackupError(f"there is no database at {source}: nothing to back up")
    if _same_file(source, target):
        raise BackupError(f"{target} is the database itself: choose another file for the backup")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
        os.close(fd)
    except OSError as exc:
        raise BackupError(f"cannot write the backup {target}: {exc}") from None
    partial = Path(name)
    try:
        with (
            # A normal connection (it only reads): a read-only one would leave the -wal and -shm files behind.
            contextlib.closing(_connect(source, read_only=False)) as live,
            contextlib.closing(_connect(partial, read_only=False)) as copy,
        ):
            live.backup(copy)  # all pages in one step: one read transaction, one snapshot
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        try:
            info = check_backup(partial)
        except BackupError as exc:
            raise BackupError(f"the copy of {source} did not pass its check, no backup was written: {exc}") from None
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {source} failed: {exc}") from None
    except OSError as exc:
        raise BackupError(f"cannot write the backup {target}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return BackupInfo(target, target.stat().st_size, info.revision, info.nights)


def _known_revisions() -> set[str]:
    return {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}


def check_backup(path: Path) -> BackupInfo:
    """Check that ``path`` is a sound SQLite database of this app, without changing it.

    Sound: ``PRAGMA integrity_check`` is ok; of this app: it has the tables
    ``night`` and ``alembic_version``, and its schema version is one this
    Scorekeeper knows (an older one is upgraded after a restore; a newer one
    cannot be).

    :raises BackupError: saying what is wrong.
    """
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    try:
        with contextlib.closing(_connect(path, read_only=True)) as connection:
            problem = _integrity(connection)
            if problem is not None:
                raise BackupError(f"{path} is a damaged SQLite database (integrity check: {problem})")
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = [table for table in REQUIRED_TABLES if table not in tables]
            if missing:
                raise BackupError(
                    f"{path} is a SQLite database but not one of Scorekeeper (no table {', '.join(missing)})"
                )
            revisions = [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
            nights = connection.execute("SELECT count(*) FROM evening").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
            raise BackupError(f"{path} is not a SQLite database ({exc})") from None
        raise BackupError(f"{path} is a damaged SQLite database ({exc})") from None
    if len(revisions) != 1:
        raise BackupError(f"{path} has no single schema version (alembic_version holds {len(revisions)} rows)")
    if revisions[0] not in _known_revisions():
        raise BackupError(
            f"{path} has the schema version {revisions[0]!r}, which this Scorekeeper does not know"
            " (a backup of a newer version?)"
        )
    return BackupInfo(path, path.stat().st_size, revisions[0], nights)


def restore_target(url: str) -> Path:
    """The file a restore replaces.

    :raises NotSQLite: on PostgreSQL (pointing to its tools).
    """
    return sqlite_path(url=url, tool="pg_restore (or psql for a plain SQL dump)")


def restore(*, url: str, source: Path, backups: Path | None = None, currency: str | None = None) -> RestoreInfo:
    """Replace the live SQLite database of ``url`` by the backup ``source``.

    1. ``source`` is checked (:func:`check_backup`), copied to a temporary file
       next to the live database, migrated to the newest schema, its history
       filled in, and checked whole (:func:`_problem`). A refused file changes
       nothing: the live database, its ``-wal`` and ``-shm`` are not touched and
       no file is left behind.
    2. The live database is kept in ``backups`` (default: the folder ``backups``
       next to it) as ``before-restore-YYYYmmdd-HHMMSS.db``, made by :func:`backup`;
       a damaged database, which has no sound copy, is kept byte for byte.
    3. Every night's and tournament's ``version`` in the copy is moved past any served
       before, and every ``AUTOINCREMENT`` counter past the highest id the live database gave
       out (:func:`_past_live`: a version never names two states, an id never two rows), the
       copy is copied over the live database in one write transaction
       (the backup API), and the live database is checked again. If anything fails
       from the start of that copy on, the safety copy is put back.

    :param backups: the folder of the safety copy.
    :param currency: the club's (``SCOREKEEPER_CURRENCY``), for the migrations that need it (``db.upgrade``).
    :raises NotSQLite: on PostgreSQL.
    :raises BackupError: for a file that is not a sound database of this app (nothing changed).
    :raises RestoreFailed: for a restore that failed once it began to change the database (the
        message says whether the database is as it was, and where its copy is).
    """
    live = restore_target(url)
    info = check_backup(source)
    if _same_file(source, live):
        raise BackupError(f"{source} is the database itself: there is nothing to restore")
    try:
        live.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=live.parent, prefix=f".{live.name}.restore-", suffix=".db")  # 0600
        os.close(fd)
    except OSError as exc:
        raise BackupError(f"cannot write next to the database {live}: {exc}") from None
    copy = Path(name)
    try:
        _prepare(source=source, copy=copy, page_size=_page_size(live), currency=currency)
        safety, checked = (None, True)
        if live.exists():
            safety, checked = _keep(url=url, live=live, directory=backups or live.parent / "backups")
        _past_live(copy=copy, live=live)  # also with no live database: its phones may still poll
        _swap(copy=copy, live=live, safety=safety)
    finally:
        _remove(copy)
    return RestoreInfo(info.path, info.size, info.revision, info.nights, live, safety, checked)


def _head() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def _first_line(exc: BaseException) -> str:
    """An error in one line: the driver's message of a SQLAlchemy error (without the SQL), else the
    message, named by its type where it would not say what it is (``KeyError: 'player'``)."""
    orig = getattr(exc, "orig", None)
    if orig is not None:
        exc = orig
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else ""
    if isinstance(exc, (sqlite3.Error, OSError, BackupError, RuntimeError)) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _remove(path: Path) -> None:
    """A database file and what SQLite keeps beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _page_size(path: Path) -> int | None:
    """The page size in a database file's header (bytes 16-17), read without opening it."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        return None
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size


def _describe(difference: tuple) -> str:
    """One of alembic's ``compare_metadata`` differences (the database against the models) in words."""
    kind = difference[0]
    if kind in ("add_column", "remove_column"):
        column = f"{difference[2]}.{difference[3].name}"
        return f"no column {column}" if kind == "add_column" else f"a column {column} Scorekeeper does not have"
    if kind.startswith("modify_"):  # (kind, schema, table, column, existing, database's, models')
        return f"the column {difference[2]}.{difference[3]} with another {kind.removeprefix('modify_')}"
    element = difference[1]
    what = kind.split("_", 1)[1].replace("fk", "foreign key")
    name = getattr(element, "name", None) or f"on {getattr(getattr(element, 'table', None), 'name', '?')}"
    article = "an" if what[0] in "aeiou" else "a"
    return f"no {what} {name}" if kind.startswith("add_") else f"{article} {what} {name} Scorekeeper does not have"


def _schema_differences(connection: Connection) -> list[str]:
    """How the schema of a database differs from the models, in words: missing tables and columns first."""
    differences: list[tuple] = []
    for difference in compare_metadata(MigrationContext.configure(connection), SQLModel.metadata):
        differences += difference if isinstance(difference, list) else [difference]  # modify_* come in lists
    tables = sorted(d[1].name for d in differences if d[0] == "add_table")
    columns = sorted(f"{d[2]}.{d[3].name}" for d in differences if d[0] == "add_column")
    words = [f"no table {', '.join(tables)}"] if tables else []
    words += [f"no column {', '.join(columns)}"] if columns else []
    others = [_describe(d) for d in differences if d[0] not in ("add_table", "add_column")]
    others += [
        f"a {kind} {name} Scorekeeper does not make"  # a trigger would run inside the app's own writes
        for kind, name in connection.exec_driver_sql(
            "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name"
        )
    ]
    if len(others) > 3:
        others = [*others[:3], f"{len(others) - 3} more differences"]
    return words + others


def _problem(engine: Engine, *, name: Path) -> str | None:
    """Why the database of ``engine`` is not one this Scorekeeper runs on, in one line; ``None`` when it is.

    Its schema must be exactly the models' at the newest schema version, and it must pass
    ``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check``. ``name`` is the file the message names.
    """
    with engine.connect() as connection:
        differences = _schema_differences(connection)
        if differences:
            return f"{name} does not have the schema of Scorekeeper: it has {'; '.join(differences)}"
        revisions = [row[0] for row in connection.exec_driver_sql("SELECT version_num FROM alembic_version")]
        if revisions != [_head()]:
            return f"{name} is not at the newest schema version after its migration ({', '.join(revisions)})"
        rows = connection.exec_driver_sql("PRAGMA integrity_check").all()
        if [tuple(row) for row in rows] != [("ok",)]:
            return f"{name} is a damaged SQLite database (integrity check: {rows[0][0] if rows else 'no answer'})"
        return _broken_references(connection.connection.dbapi_connection, name=name)


def _broken_references(connection: sqlite3.Connection, *, name: Path) -> str | None:
    """``PRAGMA foreign_key_check`` in one line; ``None`` when every reference finds its row."""
    broken = connection.execute("PRAGMA foreign_key_check").fetchall()
    if not broken:
        return None
    table, row, parent, _ = broken[0]
    return (
        f"{name} has {len(broken)} rows that point at rows it does not have"
        f" (the first: {table} row {row}, pointing at {parent})"
    )


def _columns(connection: sqlite3.Connection) -> dict[str, set[str]]:
    tables = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {table: {row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')} for table in tables}


@functools.cache
def _schema_at(revision: str) -> dict[str, set[str]]:
    """The tables and columns the migrations build up to ``revision`` (in a scratch database)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-schema-") as folder:
        database.upgrade_to(f"sqlite:///{Path(folder) / 'schema.db'}", revision)
        with contextlib.closing(sqlite3.connect(Path(folder) / "schema.db")) as connection:
            return _columns(connection)


def _missing(connection: sqlite3.Connection, *, revision: str, name: Path) -> str | None:
    """The tables and columns of its schema version that a database lacks, in one line; ``None``
    when it has them all. (Before its migration: a migration would stumble over them.)"""
    have = _columns(connection)
    want = _schema_at(revision)
    tables = sorted(set(want) - set(have))
    columns = sorted(f"{t}.{c}" for t in set(want) & set(have) for c in want[t] - have[t])
    words = [f"no table {', '.join(tables)}"] if tables else []
    words += [f"no column {', '.join(columns)}"] if columns else []
    if not words:
        return None
    version = "" if revision == _head() else f" (schema version {revision})"
    return f"{name} does not have the schema of Scorekeeper{version}: it has {'; '.join(words)}"


def _prepare(*, source: Path, copy: Path, page_size: int | None, currency: str | None = None) -> None:
    """Make ``copy`` the checked, migrated copy of ``source`` with the history filled in.

    :param page_size: the live database's (the copy gets it: the backup API cannot copy
        into a WAL database of another page size).
    :raises BackupError: naming ``source`` and what is wrong with it.
    """
    try:
        with (
            contextlib.closing(_connect(source, read_only=True)) as original,
            contextlib.closing(_connect(copy, read_only=False)) as target,
        ):
            original.backup(target)
            [revision] = [row[0] for row in target.execute("SELECT version_num FROM alembic_version")]
            problem = _missing(target, revision=revision, name=source) or _broken_references(target, name=source)
            if problem is not None:
                raise BackupError(problem)
        engine = database.make_engine(f"sqlite:///{copy}")
        try:
            try:
                database.upgrade(engine, currency=currency)
            except Exception as exc:  # an untrusted file: whatever the migration meets, the file is refused
                raise BackupError(f"{source} cannot be brought to the newest schema: {_first_line(exc)}") from None
            problem = _problem(engine, name=source)
            if problem is not None:
                raise BackupError(problem)
            try:
                with database.session(engine, write=True) as session:
                    history.refresh_missing(session)  # as the app's start does: nights of a backup before 0003
            except Exception as exc:  # a night the engine cannot settle: the app would not start on it
                raise BackupError(f"the nights in {source} cannot be settled: {_first_line(exc)}") from None
        finally:
            engine.dispose()  # the last connection: the copy's -wal is checkpointed and removed
        with contextlib.closing(_connect(copy, read_only=False)) as connection:
            connection.execute("PRAGMA journal_mode=DELETE")
            if page_size and connection.execute("PRAGMA page_size").fetchone()[0] != page_size:
                connection.execute(f"PRAGMA page_size={int(page_size)}")
                connection.execute("VACUUM")
    except BackupError:
        raise
    except Exception as exc:  # an untrusted file: whatever goes wrong with it, it is refused
        raise BackupError(f"cannot prepare {source} for the restore: {_first_line(exc)}") from None


def _free_name(directory: Path, now: datetime | None = None) -> Path:
    """``directory/before-restore-YYYYmmdd-HHMMSS.db``, with ``-2``, ``-3`` … when that is taken."""
    stem = f"before-restore-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    target, n = directory / f"{stem}.db", 1
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", "-wal")):
        n += 1
        target = directory / f"{stem}-{n}.db"
    return target


def _keep(*, url: str, live: Path, directory: Path) -> tuple[Path, bool]:
    """Keep the live database in ``directory``: a checked backup, or, when the database is
    damaged or not one of this app (no sound copy of it can be made), its file and ``-wal``
    byte for byte.

    :returns: the safety copy and whether it is a checked backup.
    :raises BackupError: when no copy can be written (nothing was restored).
    """
    target = _free_name(directory)
    try:
        return backup(url=url, target=target).path, True
    except BackupError as exc:
        failed = exc
    try:  # a sound database of this app has a sound copy: then it was the writing that failed
        with contextlib.closing(_connect(live, read_only=False)) as connection:
            sound = _integrity(connection) is None and connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'evening'"
            ).fetchone() == (1,)
    except sqlite3.DatabaseError:
        sound = False
    if sound:
        raise BackupError(f"cannot keep a copy of the database before the restore: {failed}")
    try:
        for suffix in ("", "-wal"):
            if Path(f"{live}{suffix}").exists():
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
                with (
                    open(f"{live}{suffix}", "rb") as original,
                    os.fdopen(os.open(f"{target}{suffix}", flags, 0o600), "wb") as kept,
                ):
                    shutil.copyfileobj(original, kept)
    except OSError as exc:
        _remove(target)
        raise BackupError(f"cannot keep a copy of the damaged database {live}: {exc}") from None
    return target, False


#: What counts its changes in a ``version`` the phones, the standings board and the kept PDFs key on, and
#: where the highest it served is: its own rows, and for nights those deleted too (their last version).
_VERSIONED = {
    models.Night.__tablename__: (models.Night.__tablename__, models.DeletedNight.__tablename__),
    models.Tournament.__tablename__: (models.Tournament.__tablename__,),
}

#: The tables whose ids are never given out twice: SQLite's ``AUTOINCREMENT`` (models.NEVER_REUSED,
#: migration 0012), which keeps the highest id a table gave out in ``sqlite_sequence``.
_NEVER_REUSED = tuple(
    table.name for table in SQLModel.metadata.sorted_tables if table.dialect_options["sqlite"].get("autoincrement")
)


@dataclass(frozen=True)
class _Served:
    """The highest the live database served, which a restored copy must move past.

    ``versions``: per table of :data:`_VERSIONED`, its highest ``version`` (of nights: of the
    deleted ones too). ``ids``: per table of :data:`_NEVER_REUSED`, the highest id it gave out:
    its ``sqlite_sequence`` entry (which counts the rows deleted since, a deleted night's too) or
    its highest id, whichever is larger. What the live database cannot tell (too damaged to read,
    or gone) is 0.
    """

    versions: dict[str, int]
    ids: dict[str, int]


def _served(live: Path) -> _Served:
    """What the live database served, read without changing it; each number on its own, so that
    a damaged page costs only the numbers it holds."""

    def highest(sql: str, *parameters: str) -> int:
        with (
            contextlib.suppress(sqlite3.DatabaseError, TypeError, ValueError),
            contextlib.closing(_connect(live, read_only=True)) as connection,
        ):
            return int(connection.execute(sql, parameters).fetchone()[0] or 0)
        return 0

    return _Served(
        versions={
            table: max(highest(f"SELECT max(version) FROM {source}") for source in sources)
            for table, sources in _VERSIONED.items()
        },
        ids={
            table: max(
                highest("SELECT max(seq) FROM sqlite_sequence WHERE name = ?", table),
                highest(f"SELECT max(id) FROM {table}"),
            )
            for table in _NEVER_REUSED
        },
    )


def _past_live(*, copy: Path, live: Path) -> None:
    """Move every version and every id counter in ``copy`` past any the live database served, just
    before the swap: :func:`_move_past` with what :func:`_served` reads from ``live``."""
    _move_past(copy=copy, served=_served(live), now=int(time.time()))


def _move_past(*, copy: Path, served: _Served, now: int) -> None:
    """Move every version and every id counter in ``copy`` past those ``served`` (one transaction).

    A version must never name two states: a phone polling with the tag of version 2 of a night must
    not be told "unchanged" when the restored night's version 2 is another hand, nor a PDF kept for
    it be shown (web/live.py, web/printing.py). Every version of a table in the copy grows by one
    step, which takes its lowest just past the bound: the larger of the live database's highest (of
    its nights with the last versions of those deleted, kept with the deletion; of its tournaments)
    and the seconds since 1970. The live database's versions only grow, and its highest is above
    those served before an earlier restore. The clock is far above any number of changes a night
    has: it is the bound where the live database is too damaged to read (or gone). One step for all
    keeps their order, and as it is measured from the copy's lowest, restores one after another add
    to the versions instead of doubling them.

    An id must never name two rows either: a phone's app posting a hand to the night it started,
    a cached roster's player ids, a tournament's id were given out by the live database after the
    backup, and the copy's ``sqlite_sequence`` would give them out again to other nights, players,
    tournaments. Each table's entry is raised to the highest id the live database gave out (never
    lowered), so the next id is past every one served, also that of a row deleted since. The live
    database's counters only grow, and are above those of an earlier restore. Ids have no clock:
    where the live database cannot be read, the copy's own counters stay (docs/backup.md).
    """
    try:
        with contextlib.closing(_connect(copy, read_only=False)) as connection:
            connection.execute("BEGIN IMMEDIATE")
            for table, floor in served.versions.items():
                lowest = int(connection.execute(f"SELECT min(version) FROM {table}").fetchone()[0] or 0)
                step = max(1, max(floor, now) + 1 - lowest)
                connection.execute(f"UPDATE {table} SET version = version + ?", (step,))
            for table, given in served.ids.items():
                if connection.execute("SELECT 1 FROM sqlite_sequence WHERE name = ?", (table,)).fetchone():
                    connection.execute(
                        "UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?", (given, table, given)
                    )
                elif given:  # no row of it ever in the copy: SQLite makes the entry with the first
                    connection.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, given))
            connection.execute("COMMIT")
    except sqlite3.Error as exc:
        raise BackupError(f"cannot prepare the copy for the restore: {_first_line(exc)}") from None


def _copy_into(source: Path, live: Path) -> None:
    """Copy the database ``source`` over ``live`` with the backup API: one write transaction on
    ``live``, through its WAL (readers see the old or the new database; SQLite rolls back a copy
    that fails)."""
    with (
        contextlib.closing(_connect(source, read_only=False)) as original,
        contextlib.closing(sqlite3.connect(live, timeout=BUSY_TIMEOUT_SECONDS)) as target,
    ):
        original.backup(target)  # all pages in one step
    _private_files(str(live))


def _check_live(live: Path) -> None:
    """The live database after the swap, checked as the copy was.

    :raises BackupError: when it is not sound.
    """
    engine = database.make_engine(f"sqlite:///{live}")
    try:
        problem = _problem(engine, name=live)
    finally:
        engine.dispose()
    if problem is not None:
        raise BackupError(problem)


def _swap(*, copy: Path, live: Path, safety: Path | None) -> None:
    """Copy the checked ``copy`` over ``live`` and check it; on any failure put ``safety`` back.

    :raises RestoreFailed: saying whether the database is as it was, and where its copy is.
    """
    try:
        _copy_into(copy, live)
        _check_live(live)
    except Exception as exc:  # whatever it was, the database before the restore goes back
        reason = _first_line(exc)
        if safety is None:  # there was no database: none is left behind
            _remove(live)
            raise RestoreFailed(f"the restore into {live} failed, there is no database: {reason}") from None
        try:
            _copy_into(safety, live)
        except Exception as again:
            raise RestoreFailed(
                f"the restore into {live} failed ({reason}), and putting back the database as it was"
                f" failed too ({_first_line(again)}): it is kept in {safety}"
            ) from None
        raise RestoreFailed(
            f"the restore into {live} failed, the database is as it was (a copy of it is kept in {safety}): {reason}"
        ) from None
