"""``backup`` and ``restore`` of the SQLite database (PostgreSQL: pg_dump and pg_restore, docs/backup.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scorekeeper import config
from scorekeeper.cli.common import Command, database_settings, many
from scorekeeper.core import backup


def _backup(args: argparse.Namespace) -> int:
    url, instance = database_settings()
    target = Path(args.path) if args.path else backup.default_target(directory=instance / "backups")
    if target.is_dir():
        target = backup.default_target(directory=target)
    try:
        info = backup.backup(url=url, target=target)
    except backup.BackupError as exc:
        print(f"no backup written: {exc}", file=sys.stderr)
        return 1
    print(f"backup written: {info.path} ({info.size:,} bytes, {many(info.nights, 'night')}, integrity check ok)")
    return 0


def _confirm(question: str) -> bool:
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _restore(args: argparse.Namespace) -> int:
    url, instance = database_settings()
    source = Path(args.path)
    try:
        live = backup.restore_target(url)
        info = backup.check_backup(source)  # the quick check before the question; restore checks it whole
    except backup.BackupError as exc:
        print(f"nothing restored: {exc}", file=sys.stderr)
        return 1
    question = (
        f"Replace the database {live} by the backup {source} ({many(info.nights, 'night')})? "
        "Everything recorded since that backup is lost."
    )
    if not args.yes and not _confirm(question):
        print("restore cancelled: nothing changed", file=sys.stderr)
        return 1
    try:  # migrated, its history filled in and checked before it replaces the database
        currency = config.Settings.from_env().currency  # the club's: migration 0018's tournaments of before
        done = backup.restore(url=url, source=source, backups=instance / "backups", currency=currency)
    except backup.RestoreFailed as exc:
        print(f"restore failed: {exc}", file=sys.stderr)
        return 1
    except backup.BackupError as exc:
        print(f"nothing restored: {exc}", file=sys.stderr)
        return 1
    print(f"restored {source} into {live} ({many(done.nights, 'night')}); the database is at the newest schema")
    if done.safety is not None:
        damaged = "" if done.safety_checked else " (it was damaged: its files are kept as they were)"
        print(f"the database as it was before the restore is kept in {done.safety}{damaged}")
    return 0


def add_parsers(sub: Any) -> dict[str, Command]:
    """The backup commands' parsers; their handlers by name."""
    p = sub.add_parser("backup", help="copy the SQLite database, also while the app runs (PostgreSQL: pg_dump)")
    p.add_argument(
        "path", nargs="?", help="the file (or folder) to write; default instance/backups/scorekeeper-DATE-TIME.db"
    )
    p = sub.add_parser(
        "restore", help="replace the SQLite database by a backup and migrate it (PostgreSQL: pg_restore)"
    )
    p.add_argument("path", help="the backup file")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    return {"backup": _backup, "restore": _restore}
