"""Accounts, roles, API tokens, join codes and the sign-in rate limit.

No Flask here: everything takes a database session. The web layer (``web/auth.py``)
decides per route which role it needs; this module keeps the records.

Roles are ordered: a viewer reads the history, a scorer also starts nights and records
hands, an admin also reopens closed nights, cares for the roster and manages accounts.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func
from sqlmodel import Session, select
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.models import ApiToken, LoginFailure, Night, User, utcnow
from scorekeeper.core.nights import JOIN_ALPHABET, JOIN_LENGTH
from scorekeeper.core.text import ID_MAX, clean_name, has_control, is_id, name_key, parse_int

ROLES = ("viewer", "scorer", "admin")  # each may do what the ones before it may
PASSWORD_MIN = 8
PASSWORD_MAX = 200

#: The rate limit: failed attempts per key within the window before further tries are refused.
WINDOW = timedelta(minutes=15)
LIMITS = {"name": 5, "addr": 30, "join": 10}

TOKEN_PREFIX = "skt_"


def at_least(*, role: str | None, needed: str) -> bool:
    """Whether ``role`` may do what ``needed`` may."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)


# --- accounts ------------------------------------------------------------------


def check_role(role: Any) -> str:
    if role not in ROLES:
        raise InvalidInput("role", "the role must be one of viewer, scorer, admin")
    return role


def check_password(password: Any) -> str:
    """A password: 8 to 200 characters, no control characters (it is kept only as a hash)."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise InvalidInput(
            "password", "the password must have {min} to {max} characters", min=PASSWORD_MIN, max=PASSWORD_MAX
        )
    if has_control(password):
        raise InvalidInput("password", "the password must not contain control characters")
    return unicodedata.normalize("NFC", password)


def _user_by_name(db: Session, name: str) -> User | None:
    key = name_key(name)
    return next((u for u in db.exec(select(User)).all() if name_key(u.name) == key), None)


def find_user(*, db: Session, name: Any) -> User | None:
    """The account of this name (case does not matter), or None."""
    if not isinstance(name, str) or has_control(name) or len(name) > 200:
        return None
    return _user_by_name(db, unicodedata.normalize("NFC", name).strip())


def get_user(*, db: Session, user_id: int) -> User:
    user = db.get(User, user_id) if 0 < user_id <= ID_MAX else None
    if user is None:
        raise NotFound(f"no user {user_id}")
    return user


def list_users(db: Session) -> list[User]:
    return sorted(db.exec(select(User)).all(), key=lambda u: name_key(u.name))


def create_user(*, db: Session, name: Any, password: Any, role: Any) -> User:
    """A new account (names are unique regardless of case)."""
    name = clean_name(name)
    role = check_role(role)
    password = check_password(password)
    if _user_by_name(db, name) is not None:
        raise InvalidInput("name", "there is an account called {name} already", name=name)
    user = User(name=name, role=role, password_hash=generate_password_hash(password))
    db.add(user)
    db.commit()
    return user


def authenticate(*, db: Session, name: Any, password: Any) -> User | None:
    """The active account with this name and password, else None (the same time either way)."""
    user = find_user(db=db, name=name)
    if user is None or not isinstance(password, str):
        check_password_hash(_DUMMY_HASH, "x")  # as slow as a real check: no telling which names exist
        return None
    if not check_password_hash(user.password_hash, unicodedata.normalize("NFC", password)) or not user.active:
        return None
    return user


_DUMMY_HASH = generate_password_hash("not a password")


def has_admin(db: Session) -> bool:
    """Whether the club has an admin who can sign in (else the first one is set up)."""
    return _active_admins(db) > 0


def setup_token_matches(*, expected: str, given: str) -> bool:
    return secrets.compare_digest(expected.encode(), given.encode())


def _active_admins(db: Session, lock: bool = False) -> int:
    """How many admins can sign in (``lock``: their rows locked to the end of the transaction on
    PostgreSQL, so that two admins demoting each other at once can't both pass the check)."""
    if lock:
        return len(db.exec(select(User.id).where(User.role == "admin", User.active).with_for_update()).all())
    return db.exec(select(func.count()).select_from(User).where(User.role == "admin", User.active)).one()


def attempt_key(name: Any) -> str:
    """The rate limit's key of a sign-in name as typed, whether an account has it or not
    (a pause only for names that exist would tell which ones do)."""
    text = "".join(c for c in name if c.isprintable()) if isinstance(name, str) else ""  # no NUL for PostgreSQL
    return name_key(unicodedata.normalize("NFC", text).strip())[:100]


def end_sessions(*, db: Session, user_id: int) -> None:
    """End every session of the account (signing out: a copied cookie stops working too)."""
    user = get_user(db=db, user_id=user_id)
    user.stamp = secrets.token_hex(16)
    db.add(user)
    db.commit()


def update_user(
    *, db: Session, user_id: int, role: Any = None, active: bool | None = None, password: Any = None
) -> User:
    """Change an account's role, whether it may sign in, or its password. Any change ends its sessions;
    a new password or disabling the account also revokes its API tokens (they may have leaked with it).

    :raises Conflict: when the change would leave the club without an active admin.
    """
    user = get_user(db=db, user_id=user_id)
    _active_admins(db, lock=True)
    db.refresh(user)  # as the lock found it
    was_admin = user.role == "admin" and user.active
    if role is not None:
        user.role = check_role(role)
    if active is not None:
        user.active = bool(active)
    if password is not None:
        user.password_hash = generate_password_hash(check_password(password))
    if was_admin and not (user.role == "admin" and user.active) and _active_admins(db) <= 1:
        db.rollback()
        raise Conflict("{name} is the only admin: make another account admin first", name=user.name)
    user.stamp = secrets.token_hex(16)
    db.add(user)
    if password is not None or active is False:
        now = utcnow()
        for token in db.exec(select(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))):
            token.revoked_at = now
            db.add(token)
    db.commit()
    return user


def user_for_session(*, db: Session, value: str) -> User | None:
    user_id, _, stamp = str(value).partition(".")
    number = parse_int(user_id)
    if number is None or not is_id(number) or not stamp:
        return None
    user = db.get(User, number)
    if user is None or not user.active or not secrets.compare_digest(user.stamp, stamp):
        return None
    return user


# --- API tokens ----------------------------------------------------------------


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(*, db: Session, user: User, label: Any = "") -> tuple[ApiToken, str]:
    """A new API token for ``user``: the record and the token itself (shown once, stored as a digest)."""
    if not isinstance(label, str) or len(label) > 80 or has_control(label):
        raise InvalidInput("label", "the label may have at most 80 characters and no control characters")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    record = ApiToken(user_id=user.id, digest=_digest(token), label=label.strip())
    db.add(record)
    db.commit()
    return record, token


def user_for_token(*, db: Session, token: str) -> User | None:
    """The active account of a valid, unrevoked token, else None."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    record = db.exec(select(ApiToken).where(ApiToken.digest == _digest(token))).first()
    if record is None or record.revoked_at is not None:
        return None
    user = db.get(User, record.user_id)
    return user if user is not None and user.active else None


def tokens(*, db: Session, user_id: int | None = None) -> list[ApiToken]:
    query = select(ApiToken).order_by(ApiToken.id)
    if user_id is not None:
        query = query.where(ApiToken.user_id == user_id)
    return list(db.exec(query).all())


def revoke_token(*, db: Session, token_id: int, user_id: int | None = None) -> ApiToken:
    """Revoke a token (for good); with ``user_id``, only a token of that account."""
    record = db.get(ApiToken, token_id) if 0 < token_id <= ID_MAX else None
    if record is None or (user_id is not None and record.user_id != user_id):
        raise NotFound(f"no token {token_id}")
    if record.revoked_at is None:
        record.revoked_at = utcnow()
        db.add(record)
        db.commit()
    return record


# --- join codes ----------------------------------------------------------------


def normalize_code(code: Any) -> str | None:
    """A code as typed (any case, spaces or dashes) in its stored form, or None when it can't be one."""
    if not isinstance(code, str) or len(code) > 40:
        return None
    code = "".join(c for c in code.upper() if c not in " -")
    if len(code) != JOIN_LENGTH or any(c not in JOIN_ALPHABET for c in code):
        return None
    return code


def night_for_code(*, db: Session, code: Any) -> Night | None:
    """The open night this code joins, else None (a closed night's code has expired)."""
    code = normalize_code(code)
    if code is None:
        return None
    night = db.exec(select(Night).where(Night.join_code == code)).first()
    return night if night is not None and night.is_open else None


def code_valid(*, night: Night, code: Any) -> bool:
    """Whether a guest's stored code still opens this night (it is open and the code is its current one)."""
    return (
        night.is_open
        and isinstance(code, str)
        and night.join_code is not None
        and secrets.compare_digest(night.join_code, code)
    )


# --- the rate limit --------------------------------------------------------------


def _keys(kind: str, value: str) -> str:
    return f"{kind}:{value}"[:120]


def limited(db: Session, **keys: str) -> bool:
    """Whether any of the keys (``name=``, ``addr=``, ``join=``) had too many failures in the window."""
    since = utcnow() - WINDOW
    for kind, value in keys.items():
        count = db.exec(
            select(func.count())
            .select_from(LoginFailure)
            .where(LoginFailure.key == _keys(kind, value), LoginFailure.at > since)
        ).one()
        if count >= LIMITS[kind]:
            return True
    return False


def record_failure(db: Session, **keys: str) -> None:
    """Count a failed attempt against each key; failures older than the window are dropped."""
    db.exec(delete(LoginFailure).where(LoginFailure.at <= utcnow() - WINDOW))
    for kind, value in keys.items():
        db.add(LoginFailure(key=_keys(kind, value)))
    db.commit()


def clear_failures(db: Session, **keys: str) -> None:
    """A successful sign-in forgets the account's failures (not the address's)."""
    db.exec(delete(LoginFailure).where(LoginFailure.key.in_([_keys(k, v) for k, v in keys.items()])))
    db.commit()
