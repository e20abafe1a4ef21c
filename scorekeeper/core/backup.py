"""Backups of the SQLite database, taken and restored while the app may be running.

Both directions use SQLite's online backup API (:meth:`sqlite3.Connection.backup`):

- :func:`backup` copies the live database into a new file. The copy is one
  consistent snapshot (what was committed when the copy began; a transaction
  still open elsewhere is not in it), checked with ``PRAGMA integrity_check``
  before it gets its name, and self-contained (no ``-wal`` file).
- :func:`restore` first checks that a file is a sound database of this app
  (:func:`check_backup`), then copies it over the live database in one write
  transaction: a reader sees either the old database or the restored one.
  Bringing an older backup to the newest schema is the caller's business
  (``scorekeeper.create_app()`` migrates on start).

PostgreSQL has its own tools (``pg_dump``, ``pg_restore``); both functions refuse
it with :class:`NotSQLite`. No Flask here: everything takes a database URL and paths.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from scorekeeper.core.db import MIGRATIONS

__all__ = [
    "BackupError",
    "BackupInfo",
    "NotSQLite",
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


class NotSQLite(BackupError):
    """The database is not SQLite (PostgreSQL has its own backup tools)."""


@dataclass(frozen=True)
class BackupInfo:
    """What a checked backup file holds."""

    path: Path
    size: int  # bytes
    revision: str  # the schema version (Alembic revision)
    nights: int


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


def restore(*, url: str, source: Path) -> BackupInfo:
    """Replace the live SQLite database of ``url`` by the backup ``source``, in one transaction.

    The file is checked first (:func:`check_backup`); a refused file changes
    nothing. The caller then brings the schema up to date (``create_app()``).

    :raises NotSQLite: on PostgreSQL.
    :raises BackupError: for a file that is not a sound database of this app, or a failed copy.
    """
    live = restore_target(url)
    info = check_backup(source)
    if _same_file(source, live):
        raise BackupError(f"{source} is the database itself: there is nothing to restore")
    try:
        live.parent.mkdir(parents=True, exist_ok=True)
        with (
            contextlib.closing(_connect(source, read_only=True)) as backup_db,
            contextlib.closing(sqlite3.connect(live, timeout=BUSY_TIMEOUT_SECONDS)) as live_db,
        ):
            backup_db.backup(live_db)  # one step: one write transaction on the live database
    except (sqlite3.Error, OSError) as exc:
        raise BackupError(f"the restore into {live} failed, the database is as it was: {exc}") from None
    return info
