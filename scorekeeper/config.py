"""Configuration defaults; environment variables override them."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def instance_path() -> Path:
    """Where the database and the secret key live: ``SCOREKEEPER_INSTANCE`` or ``./instance``."""
    return Path(os.environ.get("SCOREKEEPER_INSTANCE", Path(__file__).resolve().parent.parent / "instance"))


def database_url(instance: Path) -> str:
    """``SCOREKEEPER_DATABASE_URL`` (any SQLAlchemy URL), else SQLite in the instance folder."""
    return os.environ.get("SCOREKEEPER_DATABASE_URL") or f"sqlite:///{instance / 'scorekeeper.db'}"


def secret_key(instance: Path) -> str:
    """``SECRET_KEY`` from the environment, else one generated into ``instance/secret_key`` on first start."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()
