"""What the command groups share: the app and a database session, JSON files, counted words."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scorekeeper import config, create_app
from scorekeeper.core import db as database

#: A command's handler: the parsed arguments in, the exit status out.
Command = Callable[[argparse.Namespace], int]


@contextmanager
def app_db(write: bool = False):
    """The app (migrating the database on the way) and a database session; both closed after.

    ``write``: the command changes the database (its transactions begin ``BEGIN IMMEDIATE`` on SQLite)."""
    app = create_app()
    try:
        with database.session(app.extensions["sk_engine"], write=write) as db:
            yield app, db
    finally:
        app.extensions["sk_engine"].dispose()


def write_json(path: str, data: Any) -> bool:
    """Write ``data`` as indented UTF-8 JSON; False (and a message) when the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=2)
    except OSError as exc:
        print(f"cannot write {path}: {exc}", file=sys.stderr)
        return False
    return True


def read_json(path: str) -> tuple[bool, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            return True, json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return False, None


def many(count: int, thing: str) -> str:
    """``1 night``, ``2 nights``."""
    return f"{count:,} {thing}{'' if count == 1 else 's'}"


def database_settings() -> tuple[str, Path]:
    """The database URL and the instance folder the app uses (without starting it: no migration)."""
    settings = config.Settings.from_env()
    return settings.database(), settings.instance
