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


def secure_cookies() -> bool | str:
    """``SCOREKEEPER_SECURE_COOKIES``: ``1`` always Secure, ``0`` never, ``auto`` (default) when over HTTPS."""
    value = os.environ.get("SCOREKEEPER_SECURE_COOKIES", "auto").strip().lower()
    return {"1": True, "true": True, "0": False, "false": False}.get(value, "auto")


def secret_key(instance: Path) -> str:
    """``SECRET_KEY`` from the environment, else one generated into ``instance/secret_key`` on first start."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        _write_private(path, secrets.token_hex(32))
    return path.read_text().strip()


SETUP_TOKEN = "setup_token"


def ensure_setup_token(instance: Path | str) -> str:
    """The one-time token of the first admin's setup address, made into ``instance/setup_token`` once."""
    path = Path(instance) / SETUP_TOKEN
    if not path.exists():
        _write_private(path, secrets.token_urlsafe(24))
    return path.read_text().strip()


def read_setup_token(instance: Path | str) -> str | None:
    path = Path(instance) / SETUP_TOKEN
    return path.read_text().strip() if path.exists() else None


def remove_setup_token(instance: Path | str) -> None:
    (Path(instance) / SETUP_TOKEN).unlink(missing_ok=True)


def _write_private(path: Path, text: str) -> None:
    """Put a secret in place, readable by the owner only and whole from the start: written to a
    private temporary file, then linked to its name (if another process was first, its secret stays)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)
