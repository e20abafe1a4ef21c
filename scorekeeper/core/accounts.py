"""Accounts, roles, API tokens, join codes and the sign-in rate limit.

No Flask here: everything takes a database session. The web layer (``web/access.py``)
decides per route which role it needs; this module keeps the records.

Roles are ordered: a viewer reads the history, a scorer also starts nights and records
hands, an admin also reopens closed nights, cares for the roster and manages accounts.

Hashing and checking a password is slow on purpose (scrypt, about a tenth of a second). It never
runs inside a transaction: the functions that do it end the session's transaction first (see
:func:`_idle`), so that it holds neither SQLite's write lock nor a pooled connection, and write
in a short transaction after it.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.core.db import SQLITE_BEGIN
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.models import ApiToken, LoginFailure, Night, User, utcnow
from scorekeeper.core.nights import JOIN_ALPHABET, JOIN_LENGTH, lock_night, new_join_code
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.text import ID_MAX, clean_name, has_control, is_id, name_key

ROLES = ("viewer", "scorer", "admin")  # each may do what the ones before it may
PASSWORD_MIN = 8
PASSWORD_MAX = 200

#: The rate limit: attempts per key within the window before further tries are refused
#: (``pair``: one name from one address; ``addr``: any names from one address; ``join``: codes from one address).
WINDOW = timedelta(minutes=15)
LIMITS = {"pair": 5, "addr": 30, "join": 10}
#: One name from all addresses together: from this many failures in the window on, the name takes
#: one attempt every NAME_PACE (from anywhere). A pace, not a pause: strangers can't lock an account out.
NAME_CEILING = 20
NAME_PACE = timedelta(seconds=10)

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


#: PostgreSQL's advisory lock of the accounts' names (players.NAMES_LOCK is the roster's, db.MIGRATION_LOCK another)
ACCOUNT_NAMES_LOCK = 7_262_539


def _lock_names(db: Session) -> None:
    """Take the accounts' names for this transaction (to its commit or rollback), as the roster's
    (``players._lock_names``): of two accounts made at the same moment under names that look alike,
    the second waits for the first's commit and then finds its name. The first lock of its
    transaction (docs/architecture.md, "The order of locks"). SQLite's write sessions hold the whole
    database from their ``BEGIN IMMEDIATE`` already."""
    if db.get_bind().dialect.name == "postgresql":
        db.exec(text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=ACCOUNT_NAMES_LOCK))


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


def _idle(db: Session) -> None:
    """End the session's transaction, if it has one (what it did is committed: the use cases commit
    anyway), before a slow step: a password hash or check then holds no lock and no pooled connection."""
    if db.in_transaction():
        db.commit()


def hash_password(password: str) -> str:
    """The stored form of a password (slow on purpose): never call it inside a transaction."""
    return generate_password_hash(password)


def create_user(*, db: Session, name: Any, password: Any, role: Any, first: bool = False) -> User:
    """A new account (names are unique regardless of case). The password is hashed before the
    write, which is one short transaction.

    ``first``: the club's first admin (the setup address): refused while the club has an active admin.

    :raises InvalidInput: for a bad name, role or password, or a name taken.
    :raises Conflict: with ``first``, when the club has an admin already.
    """
    name = clean_name(name)
    role = check_role(role)
    password = check_password(password)
    _idle(db)
    if _user_by_name(db, name) is not None:  # (quick: before the slow hash; checked again in the write)
        db.rollback()
        raise InvalidInput("name", "there is an account called {name} already", name=name)
    _idle(db)
    password_hash = hash_password(password)
    _lock_names(db)  # to the commit: the name found free below stays free
    if first and _active_admins(db, lock=True) > 0:
        db.rollback()
        raise Conflict("the club has an admin already: sign in instead")
    if _user_by_name(db, name) is not None:
        db.rollback()
        raise InvalidInput("name", "there is an account called {name} already", name=name)
    user = User(name=name, role=role, password_hash=password_hash)
    db.add(user)
    try:
        db.commit()
    except IntegrityError:  # the same name written meanwhile by a writer that did not lock the names
        db.rollback()
        raise InvalidInput("name", "there is an account called {name} already", name=name) from None
    return user


def authenticate(*, db: Session, name: Any, password: Any) -> User | None:
    """The active account with this name and password, else None (the same time either way).

    The account is read first and the session's transaction ended: the slow check holds no lock
    and no connection (the user returned is loaded, usable without the session)."""
    user = find_user(db=db, name=name)
    _idle(db)
    if user is None or not isinstance(password, str):
        check_password_hash(_DUMMY_HASH, "x")  # as slow as a real check: no telling which names exist
        return None
    if not check_password_hash(user.password_hash, unicodedata.normalize("NFC", password)) or not user.active:
        return None
    return user


#: What an unknown name's password is checked against, so that the answer takes as long as for a
#: known one. Made once by ``generate_password_hash("not a password")`` and written here: made at
#: import, it cost every process a tenth of a second to start (each command, each server worker).
#: tests/core/test_accounts_hash.py checks it is made as the stored passwords are.
_DUMMY_HASH = (
    "scrypt:32768:8:1$OBALhsy8yexWCdYZ$35fba59dbbacffee660a380951138010089d73b80bacfb67f0b3470f3a3ad576"
    "aa2ef1989b91c10a6c3b4df282754e63c71e192df701a8eafde8a6aecb20747e"
)


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
    """Change an account's role, whether it may sign in, or its password. Any change ends its sessions (the
    same role and flag saved again change nothing, and end none: the pub's phone stays signed in);
    a new password or disabling the account also revokes its API tokens (they may have leaked with it).
    A new password is hashed before the write, which is one short transaction.

    :raises Conflict: when the change would leave the club without an active admin.
    """
    if role is not None:
        role = check_role(role)
    password_hash = None
    if password is not None:
        password = check_password(password)
        _idle(db)
        password_hash = hash_password(password)
    user = get_user(db=db, user_id=user_id)
    admins = _active_admins(db, lock=True)  # counted before the change (a later count would flush it first)
    db.refresh(user)  # as the lock found it
    was_admin = user.role == "admin" and user.active
    before = (user.role, user.active)
    if role is not None:
        user.role = role
    if active is not None:
        user.active = bool(active)
    if password_hash is not None:
        user.password_hash = password_hash
    if was_admin and not (user.role == "admin" and user.active) and admins <= 1:  # this account the only one
        db.rollback()
        raise Conflict("{name} is the only admin: make another account admin first", name=user.name)
    if password_hash is None and (user.role, user.active) == before:
        db.commit()  # nothing changed: nothing written, the lock let go
        return user
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
    row = db.connection().execute(_USER_BY_ID, {"user_id": number}).first()
    if row is None or not row.active or not secrets.compare_digest(row.stamp, stamp):
        return None
    # a record of its own, in no session: every request asks who is asking, the table phones'
    # polls several times a second (a Core query, no ORM load); nothing writes through it
    return User(**row._mapping)


#: Who a session's cookie names: the one query of every signed-in request.
_USER_BY_ID = select(*(c for c in User.__table__.c)).where(User.__table__.c.id == bindparam("user_id"))


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
    return db.exec(
        select(User)
        .join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.digest == _digest(token), col(ApiToken.revoked_at).is_(None), col(User.active).is_(True))
    ).first()


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
    """Whether a guest's stored code still opens this night (it is open and the code is its current
    one; a tournament's table that closed itself after its last deal stays open to its phone for
    reading: its code is kept, ``nights.close_locked``)."""
    return (
        (night.is_open or night.tournament_id is not None)
        and isinstance(code, str)
        and night.join_code is not None
        and secrets.compare_digest(night.join_code, code)
    )


def closed_mark(night: Night) -> str:
    """What a guest who closed the night keeps of it in place of the spent code: the closed night as
    it is now (its uid and version). It opens the night for reading while the night stays so: reopened or
    corrected since, it opens nothing (:func:`reads_closed`)."""
    return f"closed:{night.uid}:{night.version}"


def reads_closed(*, night: Night, mark: Any) -> bool:
    """Whether a guest's stored ``mark`` (:func:`closed_mark`) lets it read this closed night."""
    return not night.is_open and isinstance(mark, str) and secrets.compare_digest(closed_mark(night), mark)


def end_guest(*, db: Session, night_id: Any, code: Any) -> bool:
    """A guest of the night (joined with ``code``) signs out: the night gets a new code, so that this
    guest session ends everywhere, also in a copy of its cookie. The night's other guests join again
    with the new code (the table page shows it). A code that no longer opens the night changes nothing,
    and neither does leaving a tournament's table: its code is printed on the table's card, for the
    next phone at that table (as ``nights.reopen_night`` keeps it); the session of this browser ends.

    Whether the code was changed.
    """
    number = parse_int(str(night_id))
    if number is None or not is_id(number) or not isinstance(code, str):
        return False
    try:
        night = lock_night(db=db, night_id=number)
    except NotFound:
        db.rollback()
        return False
    if night.tournament_id is not None or not code_valid(night=night, code=code):
        db.rollback()
        return False
    night.join_code = new_join_code(db)  # not in the audit trail: the code is no part of the night's record
    db.add(night)
    db.commit()
    return True


# --- the rate limit --------------------------------------------------------------
#
# An attempt (a password checked, a join code tried) is counted BEFORE it is checked: a short write
# transaction counts the key's rows in the window and, below the limit, inserts the attempt's rows
# (a reservation), else refuses. Parallel attempts take turns at it (SQLite: the write session's
# BEGIN IMMEDIATE; PostgreSQL: an advisory lock per key, held to the commit), so no more attempts
# than the limit are ever checked, however many arrive at once. A failure leaves its rows (they
# are the failures counted); a success takes them back.
#
# Sign-ins are counted per name and address together (``pair``), so a stranger's wrong passwords
# pause only the stranger's address for that name, and per address (``addr``, any names). The name
# from all addresses together is slowed down past NAME_CEILING failures, never paused.
#
# A reservation is no failure: its rows carry the key marked PENDING until the check is settled (a
# failure then takes the plain key, a success deletes them). An attempt that finds a key at its limit
# only by attempts still being checked waits for them (a check is a tenth of a second) and counts
# again: twelve phones at one table signing in with the right password at the same moment are all
# signed in, never told of wrong attempts nobody made. Checks still never outnumber the limit.

#: The mark of a reservation's rows (its key follows; the longest key, 119 characters, still fits 120).
PENDING = "~"
#: A reservation older than this is counted as a failure (its request died between count and check).
PENDING_SECONDS = 30
#: How long an attempt waits for the checks under way that keep it at a limit; then "crowded".
PENDING_WAIT = 5.0

ADVISORY_LOCKS = 0x5C0E  # the high half of the PostgreSQL advisory lock keys of the rate limit


@dataclass(frozen=True)
class Attempt:
    """A counted attempt: its rows (taken back by a success), or why it is refused before a check
    (``"paused"``: a key is at its limit of failures; ``"slowed"``: the name's pace; ``"crowded"``: the
    attempts being checked at this moment kept it at a limit longer than :data:`PENDING_WAIT`)."""

    rows: tuple[int, ...] = ()
    pair: str | None = None  # the name-and-address key, whose failures a success forgets
    refused: str | None = None


def _cut(value: Any, length: int) -> str:
    """Printable characters only (no NUL for PostgreSQL), at most ``length`` of them."""
    return "".join(c for c in value if c.isprintable())[:length] if isinstance(value, str) else ""


def _name_prefix(name: Any) -> str:
    """The start of every pair key of a name: its length first, so that no name's prefix is another's."""
    key = attempt_key(name)[:64]
    return f"name:{len(key)}:{key}@"


def _lock_keys(db: Session, keys: list[str]) -> None:
    """PostgreSQL: the advisory locks of ``keys`` (always in the same order: no deadlock), held to the commit."""
    if db.get_bind().dialect.name != "postgresql":
        return
    for number in sorted({int.from_bytes(hashlib.sha256(k.encode()).digest()[:4], "big") >> 1 for k in keys}):
        lock = text("SELECT pg_advisory_xact_lock(CAST(:high AS integer), CAST(:low AS integer))")
        db.exec(lock.bindparams(high=ADVISORY_LOCKS, low=number))


def _count(db: Session, key: str, since: Any) -> int:
    return db.exec(
        select(func.count()).select_from(LoginFailure).where(LoginFailure.key == key, LoginFailure.at > since)
    ).one()


def _counts(db: Session, key: str, since: Any, now: Any) -> tuple[int, int]:
    """The key's failures in the window (a reservation older than :data:`PENDING_SECONDS` among them),
    and its attempts being checked now."""
    stale = now - timedelta(seconds=PENDING_SECONDS)
    marked = LoginFailure.key == PENDING + key
    failed, old, pending = db.exec(
        select(
            func.count().filter(LoginFailure.key == key),
            func.count().filter(marked, LoginFailure.at <= stale),
            func.count().filter(marked, LoginFailure.at > stale),
        ).where(col(LoginFailure.key).in_([key, PENDING + key]), LoginFailure.at > since)
    ).one()
    return failed + old, pending


def _reserve(db: Session, counted: dict[str, int], name_prefix: str | None = None) -> Attempt:
    """Count an attempt against each key of ``counted`` (key: its limit) before it is checked, in one
    short transaction: refused when a key is at its limit (or the name at its pace), else reserved.
    A key at its limit only by attempts being checked now is waited for (:data:`PENDING_WAIT`)."""
    bind = db.get_bind()
    if bind.dialect.name == "sqlite" and bind.get_execution_options().get(SQLITE_BEGIN) != "IMMEDIATE":
        raise ValueError("the rate limit counts in a write session (BEGIN IMMEDIATE): parallel attempts take turns")
    deadline = time.monotonic() + PENDING_WAIT
    while True:
        _idle(db)
        now = utcnow()
        since = now - WINDOW
        _lock_keys(db, [*counted, *([name_prefix] if name_prefix else [])])
        refused = None
        waiting = False
        for key, limit in counted.items():
            failed, pending = _counts(db, key, since, now)
            if failed >= limit:
                refused = "paused"
                break
            waiting = waiting or failed + pending >= limit
        if refused is None and name_prefix is not None:
            of_name = col(LoginFailure.key).startswith(name_prefix, autoescape=True)
            failures, latest = db.exec(
                select(func.count(), func.max(LoginFailure.at)).where(of_name, LoginFailure.at > since)
            ).one()
            if failures >= NAME_CEILING and latest is not None and latest > now - NAME_PACE:
                refused = "slowed"
        if refused is None and waiting:
            db.rollback()  # the lock is free for the checks under way to settle
            if time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            refused = "crowded"
        if refused:
            db.rollback()
            return Attempt(refused=refused)
        break
    rows = [LoginFailure(key=PENDING + key, at=now) for key in counted]
    db.add_all(rows)
    db.flush()
    ids = tuple(row.id for row in rows)
    db.commit()
    pair = next((key for key in counted if key.startswith("name:")), None)
    return Attempt(rows=ids, pair=pair)


def reserve_sign_in(*, db: Session, name: Any, addr: str) -> Attempt:
    """Count a password check of ``name`` (as typed) from ``addr`` before it is done (``db``: a write
    session). Known names or not, the same: a pause tells nothing about which names exist."""
    prefix = _name_prefix(name)
    address = _cut(addr, 45)
    return _reserve(db, {prefix + address: LIMITS["pair"], f"addr:{address}": LIMITS["addr"]}, name_prefix=prefix)


def reserve_join(*, db: Session, addr: str) -> Attempt:
    """Count a join code tried from ``addr`` before it is looked up (``db``: a write session)."""
    return _reserve(db, {f"join:{_cut(addr, 45)}": LIMITS["join"]})


def settle_attempt(*, db: Session, attempt: Attempt, success: bool) -> None:
    """After the check. A failure stays counted (and failures older than the window are dropped);
    a success takes its own rows back, and a sign-in's success forgets the failures of that name
    from that address (not the address's, nor the name's from elsewhere)."""
    if attempt.refused is not None:
        return
    _idle(db)
    if not success:
        for row in db.exec(select(LoginFailure).where(col(LoginFailure.id).in_(attempt.rows))).all():
            row.key = row.key.removeprefix(PENDING)  # a failure now, counted as such
        db.exec(delete(LoginFailure).where(LoginFailure.at <= utcnow() - WINDOW))
    else:
        db.exec(delete(LoginFailure).where(LoginFailure.id.in_(attempt.rows)))
        if attempt.pair is not None:
            db.exec(delete(LoginFailure).where(LoginFailure.key == attempt.pair))
    db.commit()
