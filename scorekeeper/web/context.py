"""What a request shares: its database sessions, whether it is for the API, and one way to say
"not found"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, current_app, g, request
from sqlmodel import Session

from scorekeeper.core import db as database
from scorekeeper.core.errors import NotFound

T = TypeVar("T")


def get_db() -> Session:
    """The database session of this request (closed at its end).

    A POST, PUT or DELETE gets a write session: on SQLite its transactions begin ``BEGIN IMMEDIATE``,
    so its reads and its write are one transaction that no other write can come between.

    A request holds at most one pooled connection at a time: the read of :func:`read_db`, if one is
    under way, ends (commits: it only read) before the write session is handed out.
    """
    if "db" not in g:
        write = request.method not in SAFE_METHODS
        g.db = database.session(current_app.extensions["sk_engine"], write=write)
    reader = g.get("read_db")
    if reader is not None and reader.in_transaction():
        reader.commit()  # its objects stay loaded (sessions don't expire them on commit)
    return g.db


def read_db() -> Session:
    """A read session of this request, also in a POST: who is asking, and slow work before the write
    (a password check takes a tenth of a second, which must not hold SQLite's write lock).

    In a GET it is :func:`get_db`'s session. While the write session has a transaction under way it
    is that one: a request never holds two connections at once (sixteen sign-ins each waiting for a
    second connection while holding a first would empty the pool for everybody).
    """
    if request.method in SAFE_METHODS:
        return get_db()
    writer = g.get("db")
    if writer is not None and writer.in_transaction():
        return writer
    if "read_db" not in g:
        g.read_db = database.session(current_app.extensions["sk_engine"])
    return g.read_db


def close_db(exc: BaseException | None) -> None:
    reader = g.pop("read_db", None)
    if reader is not None:
        reader.close()
    session = g.pop("db", None)
    if session is not None:
        if exc is not None:
            session.rollback()
        session.close()


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # requests that change nothing


def is_api() -> bool:
    """Whether the request is for the JSON API (tokens, JSON errors) rather than a page."""
    return request.path.startswith("/api/")


def found(load: Callable[..., T], message: str, /, **kwargs: Any) -> T:
    """``load(db=..., **kwargs)`` with this request's session, or a 404 page saying ``message``
    when the core finds no such thing (the one not-found handler of the pages)."""
    try:
        return load(db=get_db(), **kwargs)
    except NotFound:
        abort(404, message)
