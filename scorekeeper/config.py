"""The settings: every ``SCOREKEEPER_*`` environment variable is read here and only here.

:class:`Settings` is read once (``Settings.from_env()``); the application factory and the
command line take what they need from it. Secrets (the session key, the first admin's setup
token) are generated into the instance folder, private, on first use.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The instance folder of a checkout: the database and the secret key (git-ignored).
DEFAULT_INSTANCE = Path(__file__).resolve().parent.parent / "instance"


#: The garbage collector's thresholds for a running app (generation 0, 1, 2). Python's own (700, 10,
#: 10) start a young collection every 700 new objects, and with them every few requests a full one
#: through every object of the process: a request that meets one takes several times as long. With
#: the app's own objects frozen after start (``gc.freeze()``), collections come about once in 70
#: times as many allocations and never walk the app itself.
GC_THRESHOLD = (50_000, 20, 100)


def parse_gc_threshold(text: str) -> tuple[int, int, int] | None:
    """``"50000,20,100"`` → the three thresholds; ``"default"`` → None (leave the interpreter's);
    empty or unreadable → :data:`GC_THRESHOLD`.

    >>> parse_gc_threshold("10000, 10, 10"), parse_gc_threshold("default"), parse_gc_threshold("x")
    ((10000, 10, 10), None, (50000, 20, 100))
    """
    text = text.strip().lower()
    if text == "default":
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 3 and all(p.isascii() and p.isdigit() for p in parts) and int(parts[0]) > 0:
        return (int(parts[0]), int(parts[1]), int(parts[2]))
    return GC_THRESHOLD


def parse_public_url(text: str) -> str | None:
    """``SCOREKEEPER_PUBLIC_URL``: the address the phones reach the club's server by, as printed on
    table cards and join panels; None when empty or not an ``http(s)://host`` address.

    >>> parse_public_url("https://karten.example.org/"), parse_public_url(""), parse_public_url("karten.example.org")
    ('https://karten.example.org', None, None)
    """
    text = text.strip().rstrip("/")
    scheme, _, rest = text.partition("://")
    if scheme.lower() not in ("http", "https") or not rest or " " in rest or "?" in rest or "#" in rest:
        return None
    return text


def parse_currency(text: str) -> str:
    """``SCOREKEEPER_CURRENCY``: the club's currency, three letters, in capitals as a night stores it.
    Anything else stops the start: every new night would be refused for its currency.

    >>> parse_currency(" chf ")
    'CHF'

    :raises ValueError: for anything but three letters.
    """
    code = text.strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise ValueError(f"the club's currency (SCOREKEEPER_CURRENCY) is a three-letter code such as EUR, not {text!r}")
    return code


@dataclass(frozen=True)
class Settings:
    """What the environment says, with the defaults a club needs no variable for."""

    instance: Path  # SCOREKEEPER_INSTANCE: the database and the secrets
    database_url: str | None  # SCOREKEEPER_DATABASE_URL: any SQLAlchemy URL (None: SQLite in the instance)
    secret_key: str | None  # SECRET_KEY (None: generated into the instance)
    secure_cookies: bool | str  # SCOREKEEPER_SECURE_COOKIES: 1, 0 or auto (Secure when over HTTPS)
    proxy_fix: bool  # SCOREKEEPER_PROXY_FIX=1: behind one reverse proxy
    club_name: str  # SCOREKEEPER_CLUB_NAME: on the printed summary
    season_start: str  # SCOREKEEPER_SEASON_START: MM-DD, the day the club's seasons begin
    currency: str  # SCOREKEEPER_CURRENCY: the history adds up money in this currency
    min_declared: int  # SCOREKEEPER_MIN_DECLARED: hands declared before a win rate is ranked
    admin_password: str | None  # SCOREKEEPER_ADMIN_PASSWORD: create-admin without asking
    # SCOREKEEPER_PUBLIC_URL: where the phones reach the server (on table cards and join panels); None:
    # worked out from the request and the address the server listens on (web/addresses.py)
    public_url: str | None = None
    # SCOREKEEPER_GC_THRESHOLD: the garbage collector's thresholds once the app is built ("default":
    # the interpreter's own, and nothing frozen); docs/production.md
    gc_threshold: tuple[int, int, int] | None = GC_THRESHOLD

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        cookies = env.get("SCOREKEEPER_SECURE_COOKIES", "auto").strip().lower()
        min_declared = env.get("SCOREKEEPER_MIN_DECLARED", "20").strip()
        return cls(
            instance=Path(env.get("SCOREKEEPER_INSTANCE") or DEFAULT_INSTANCE),
            database_url=env.get("SCOREKEEPER_DATABASE_URL") or None,
            secret_key=env.get("SECRET_KEY") or None,
            secure_cookies={"1": True, "true": True, "0": False, "false": False}.get(cookies, "auto"),
            proxy_fix=env.get("SCOREKEEPER_PROXY_FIX") == "1",
            club_name=env.get("SCOREKEEPER_CLUB_NAME", "Kartenrunde"),
            season_start=env.get("SCOREKEEPER_SEASON_START", "01-01"),
            currency=(env.get("SCOREKEEPER_CURRENCY") or "EUR").strip().upper(),  # as a night stores it
            min_declared=int(min_declared) if min_declared.isascii() and min_declared.isdigit() else 20,
            admin_password=env.get("SCOREKEEPER_ADMIN_PASSWORD") or None,
            public_url=parse_public_url(env.get("SCOREKEEPER_PUBLIC_URL", "")),
            gc_threshold=parse_gc_threshold(env.get("SCOREKEEPER_GC_THRESHOLD", "")),
        )

    def database(self, instance: Path | None = None) -> str:
        """The database URL: the one set, else SQLite in the instance folder."""
        return self.database_url or f"sqlite:///{(instance or self.instance) / 'scorekeeper.db'}"

    def key(self, instance: Path | None = None) -> str:
        """The session key: the one set, else one generated into ``instance/secret_key`` on first start."""
        if self.secret_key:
            return self.secret_key
        folder = instance or self.instance
        path = folder / "secret_key"
        if not path.exists():
            private_folder(folder)
            _write_private(path, secrets.token_hex(32))
        return path.read_text().strip()


def private_folder(folder: Path) -> Path:
    """The instance folder, made if missing, readable by its owner only (0700), on every start: it
    holds the database (password hashes, token digests, open nights' join codes) and the secrets."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


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
