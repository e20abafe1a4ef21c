"""Who may do what: every route declares the access it needs, and one check before each request enforces it.

A route without a declaration is refused (and logged): a new route can't slip through
open. ``tests/web/test_access.py`` enumerates the app's routes and tries each one
without the access it declares.

Who is asking:
- pages: the signed-in account (Flask-Login, session cookie), or a *guest* who joined
  one open night with its code (kept in the session, for that night only, until it closes or
  the guest signs out: then the night gets a new code); the guest who closed the night reads it
  on (its settlement, PDF and exports) while it stays closed as they left it; an account's session that
  is ended (disabled, a new password or role, signed out elsewhere) ends the guest rights joined in it too
  (:func:`session_ended`);
- the JSON API: only ``Authorization: Bearer <token>``. The API takes no cookies, so a
  page elsewhere can't make a browser write through it (it has no CSRF token).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, abort, current_app, flash, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_user
from flask_wtf.csrf import generate_csrf
from sqlmodel import col, select

from scorekeeper.core import accounts, lifecycle
from scorekeeper.core.models import Night, TournamentTable, User
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.text import is_id
from scorekeeper.web import refusals
from scorekeeper.web.context import SAFE_METHODS, get_db, is_api, read_db
from scorekeeper.web.extensions import login_manager
from scorekeeper.web.messages import message

PUBLIC = "public"  # anyone: sign in, join with a code, static files
VIEWER = "viewer"  # any account: the history
SCORER = "scorer"  # start nights, add players
ADMIN = "admin"  # reopen nights, roster care, accounts
NIGHT_READ = "night_read"  # any account, or a guest of this night
NIGHT_WRITE = "night_write"  # a scorer, or a guest of this night (while it is open)

LEVELS = (PUBLIC, VIEWER, SCORER, ADMIN, NIGHT_READ, NIGHT_WRITE)
PUBLIC_ENDPOINTS = frozenset({"static"})


def access(level: str, write: str | None = None) -> Callable:
    """Declare what a view needs: one of :data:`LEVELS` (``write``: what a POST, PUT or DELETE needs, if more)."""
    if level not in LEVELS or (write or level) not in LEVELS:
        raise ValueError(level)

    def mark(view: Callable) -> Callable:
        view.access = level
        view.write_access = write or level
        return view

    return mark


def level_of(app: Flask, endpoint: str, method: str = "GET") -> str | None:
    """The access a request of ``method`` to ``endpoint`` needs (None: the route declares none)."""
    if endpoint in PUBLIC_ENDPOINTS:
        return PUBLIC
    view = app.view_functions.get(endpoint)
    return getattr(view, "access" if method in SAFE_METHODS else "write_access", None)


@dataclass(frozen=True)
class Identity:
    """Who is asking: an account (with its role), a guest of some nights, or nobody."""

    user: User | None = None
    guest_nights: frozenset[int] = frozenset()
    read_nights: frozenset[int] = frozenset()  # closed nights the guest closed: read, never written
    # nights the guest joined that are no more (deleted, or a tournament's round drawn again): their pages are
    # not found, as a member's are, not the sign-in's; the guest stays the same guest (account_key) for the
    # hands its phone keeps for them, to be discarded there (templates/errors/error.html)
    gone_nights: frozenset[int] = frozenset()
    # of those, the tournament's tables (their round drawn again: the guest joins its new table, with the new code)
    gone_tables: frozenset[int] = frozenset()
    role: str | None = None  # the user's, kept apart from the record (which a failed request lets go)
    name: str = ""
    user_id: int | None = None

    @classmethod
    def of(
        cls,
        user: User | None,
        guest_nights: frozenset[int] = frozenset(),
        read_nights: frozenset[int] = frozenset(),
        gone_nights: frozenset[int] = frozenset(),
        gone_tables: frozenset[int] = frozenset(),
    ) -> Identity:
        if user is None:
            return cls(
                guest_nights=guest_nights, read_nights=read_nights, gone_nights=gone_nights, gone_tables=gone_tables
            )
        return cls(
            user=user,
            guest_nights=guest_nights,
            read_nights=read_nights,
            gone_nights=gone_nights,
            gone_tables=gone_tables,
            role=user.role,
            name=user.name,
            user_id=user.id,
        )

    def at_least(self, role: str) -> bool:
        return accounts.at_least(role=self.role, needed=role)

    def may(self, level: str, night_id: int | None = None) -> bool:
        if level == PUBLIC:
            return True
        if level in (VIEWER, SCORER, ADMIN):
            return self.at_least(level)
        if level == NIGHT_READ:
            return self.at_least(VIEWER) or night_id in self.guest_nights or night_id in self.read_nights
        if level == NIGHT_WRITE:
            return self.at_least(SCORER) or night_id in self.guest_nights
        return False


def _bearer_user() -> User | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return accounts.user_for_token(db=get_db(), token=token.strip())


GUESTS = "joined"  # the session key: {night id: join code, or the mark of the closed night the guest closed}
TABLES = "tables"  # the session key: the ids of those nights that are a tournament's tables (said when one is gone)


def _guest_nights() -> tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]:
    """The nights this browser is a guest of (their code), those it closed and reads on (their mark), those
    it joined that are no more (ids are never used again: core/models.py NEVER_REUSED), and of those the
    tournament's tables (their round drawn again: nothing of them is left in the database to say so)."""
    joined = session.get(GUESTS)
    if not isinstance(joined, dict) or not joined or session_ended():
        return frozenset(), frozenset(), frozenset(), frozenset()
    valid, read, gone = set(), set(), set()
    db = read_db()
    for key, code in joined.items():
        night_id = parse_int(str(key))
        night = db.get(Night, night_id) if night_id is not None and is_id(night_id) else None
        if night is not None and accounts.code_valid(night=night, code=code):
            valid.add(night.id)
        elif night is not None and accounts.reads_closed(night=night, mark=code):
            read.add(night.id)
        elif night is None and night_id is not None and is_id(night_id):
            gone.add(night_id)
    tables = session.get(TABLES)
    gone_tables = gone & set(tables) if isinstance(tables, list) else set()
    return frozenset(valid), frozenset(read), frozenset(gone), frozenset(gone_tables)


def spent_nights() -> frozenset[int]:
    """The nights this browser joined as a guest that are still there but that its code (or the mark of the night it
    closed) opens no more: closed by another phone since, reopened (a new code), given a new code as a guest at it
    signed out; the night it closed, reopened or corrected since. The guest is told why on their pages, as a
    member is, never sent to the sign-in page (:func:`_spent_answer`); a member asks nothing of them."""
    if "spent_nights" not in g:
        joined = session.get(GUESTS)
        spent = set()
        if isinstance(joined, dict) and not session_ended() and not is_api():
            db = read_db()
            for key, code in joined.items():
                night_id = parse_int(str(key))
                night = db.get(Night, night_id) if night_id is not None and is_id(night_id) else None
                if night is None or accounts.code_valid(night=night, code=code):
                    continue
                if not accounts.reads_closed(night=night, mark=code):
                    spent.add(night.id)
        g.spent_nights = frozenset(spent)
    return g.spent_nights


def identity() -> Identity:
    """Who is asking in this request (worked out once)."""
    if "identity" not in g:
        if is_api():
            g.identity = Identity.of(_bearer_user())
        else:
            user = current_user._get_current_object() if current_user.is_authenticated else None
            g.identity = Identity.of(user, *_guest_nights())
    return g.identity


GUEST_ID = "guest"  # the session key: this browser's guest, a random id kept until it signs out


def account_key() -> str:
    """Whose this browser's pages are, as the service worker and the outbox tell them apart (a hand kept
    offline is sent only for the account that saved it): ``user:<id>``; a guest, ``guest:<id>`` (a random id
    of this browser's guest session, the same when the guest joins again after the night's code changed);
    ``-``: nobody (signed out, or the session ended elsewhere)."""
    who = identity()
    if who.user_id is not None:
        return f"user:{who.user_id}"
    if who.guest_nights or who.read_nights or who.gone_nights:
        if not isinstance(session.get(GUEST_ID), str):
            session[GUEST_ID] = secrets.token_urlsafe(12)
        return f"guest:{session[GUEST_ID]}"
    return "-"


def way_back(leaving: int | None = None) -> tuple[str, str]:
    """Where a page's way out leads the asker, and what it says (an error page's button, the table page's when its
    night is gone): a member to the nights; a guest back to the table of a night it is still at (an open one
    first, else the one it closed and reads on), other than ``leaving`` (the night the page is about to lose), or,
    with none left (its night deleted, its tournament's round drawn again), to joining one with its code: never
    the sign-in page, which a guest at the pub table has no use for; nobody to the nights (that is the sign-in)."""
    who = identity()
    if who.user is None and (who.guest_nights or who.read_nights or who.gone_nights or spent_nights()):
        others = (who.guest_nights - {leaving}) or (who.read_nights - {leaving})
        if others:
            return url_for("nights.show", night_id=max(others)), _("Back to the table")
        if who.gone_tables or (leaving is not None and leaving in _tables()):  # its round drawn again
            return url_for("signin.join_night", table=1), _("Join your new table with its code")
        return url_for("signin.join_night"), _("Join a night with its code")
    return url_for("nights.index"), _("Back to the nights")


def guest_links() -> list[tuple[int, str]]:
    """The menu's links of a guest: each night it is at, a tournament's table named by its round and number
    ("Round 2 · Table 3", as the table's page names it), a club night "Night"."""
    ids = sorted(identity().guest_nights)
    if not ids:
        return []
    tables = {
        night_id: (round_number, number)
        for night_id, round_number, number in get_db().exec(
            select(TournamentTable.night_id, TournamentTable.round, TournamentTable.number).where(
                col(TournamentTable.night_id).in_(ids)
            )
        )
    }
    return [
        (i, f"{_('Round %(n)s', n=tables[i][0])} · {_('Table %(n)s', n=tables[i][1])}" if i in tables else _("Night"))
        for i in ids
    ]


def _tables() -> list[int]:
    tables = session.get(TABLES)
    return [i for i in tables if isinstance(i, int)] if isinstance(tables, list) else []


def session_ended() -> bool:
    """Whether this browser's session names an account whose sessions were ended since (disabled, a new password
    or role, signed out elsewhere: ``accounts.user_for_session`` no longer answers it). Nothing of it opens
    anything then, the nights it joined as a guest neither (a phone lost with a password, an account disabled,
    keeps no guest's rights); joining with a code or signing in starts afresh."""
    return session.get("_user_id") is not None and not current_user.is_authenticated


def join(night: Night) -> None:
    """Make this browser a guest of the night (its current code); a tournament's table is remembered as one,
    so that the guest is told its round was drawn again when it is gone."""
    if session_ended():
        session.clear()  # the nights joined in the ended session stay ended
    joined = dict(session.get(GUESTS) or {})
    joined[str(night.id)] = night.join_code
    session[GUESTS] = joined
    if night.tournament_id is not None and night.id not in _tables():
        session[TABLES] = [i for i in _tables() if str(i) in joined] + [night.id]
    session.permanent = True


def closed_by_guest(night: Night) -> None:
    """The guest closed the night (its code is spent): it keeps reading it, while it stays as closed
    (docs/rules.md, a guest who closes the night)."""
    joined = dict(session.get(GUESTS) or {})
    joined[str(night.id)] = accounts.closed_mark(night)
    session[GUESTS] = joined


def leave_nights() -> None:
    """Signing out ends the guest sessions of this browser everywhere: each club night it joined gets
    a new code (a copy of the cookie holds the old one; a tournament's table keeps the code printed on
    its card), see :func:`accounts.end_guest`."""
    joined = session.get(GUESTS)
    if not isinstance(joined, dict) or session_ended():  # an ended session's codes are no longer its to change
        return
    for night_id, code in joined.items():
        accounts.end_guest(db=get_db(), night_id=night_id, code=code)


#: What a guest whose tournament table is gone is told (its page, a hand it sends, the table page's notice).
REDRAWN = _l(
    "The round of this table was drawn again: this table is gone. Join your new table with the code on its new card."
)


#: What a guest whose night has a new code is told on the join page (docs/rules.md, guests). Only a club night's
#: guest is: a tournament's table keeps its code, printed on its card, when it is closed (its phone reads it on:
#: ``accounts.code_valid``), reopened or left (``nights.reopen_night``, ``accounts.end_guest``); its round drawn
#: again, its guest is told :data:`REDRAWN` (tests/web/test_guest_night_closed_poll.py holds it).
NEW_CODE = _l(
    "This night was reopened or got a new code since you joined it: ask at the table for the new code (a member's"
    " phone shows it on the night's table page) and join again with it."
)


def _spent_answer(who: Identity, night_id: int | None):
    """A guest's request to a night it joined whose code is spent (:func:`spent_nights`), or a write to the
    night it closed and reads on: why it may not, as a member is told, never the sign-in page. A night with a new
    code (reopened): its pages lead to joining it again, saying so; a closed one: the closing's reason, with the
    way back to its table if the guest reads it, else to joining (:func:`way_back`). None: neither."""
    writes_hand = request.blueprint == "hands"  # the night it reads on takes no hand: said as to a member
    if night_id is None or (night_id not in spent_nights() and not (writes_hand and night_id in who.read_nights)):
        return None
    night = read_db().get(Night, night_id)
    if night is None:
        return None
    if night.is_open:
        if request.method in SAFE_METHODS and request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate":
            flash(str(NEW_CODE), "error")
            # (the night named: the join page lists the hands the phone keeps for it, sent once joined again)
            return redirect(url_for("signin.join_night", night=night_id))
        # a page's script (the table's polling, the outbox) is told why, by its code: the join page it was led to
        # took the flashed reason away from the page the guest opens next
        raise refusals.Refused(str(NEW_CODE), refusals.NEW_CODE)
    refused = lifecycle.refusal(lifecycle.life_of(db=read_db(), night=night), lifecycle.RECORD)
    if refused is None:
        return None
    if night_id not in spent_nights():  # the night it closed itself and reads on: a write to it, refused as closed
        raise refusals.Refused(message(refused, sentence=True), refusals.CLOSED)
    # closed by another phone: the code is spent, and the hands the phone keeps for the night can no longer be
    # recorded at it; the error page lists them to be read, and discarded (templates/errors/error.html #night-ended)
    g.spent_night = night
    raise refusals.Refused(message(refused, sentence=True), refusals.CLOSED, refusals.SPENT)


def night_gone(night_id: int, message: str) -> str:
    """What a page says of a night found no more while it answered: a guest's tournament table whose round was
    drawn again at that moment is told so (:data:`REDRAWN`), as on its next page, and its way out leads to joining
    its new table (who asks is worked out again: the night was there when the request began); else ``message``."""
    if night_id not in _tables():
        return message
    g.pop("identity", None)
    return str(REDRAWN)


def _enforce():
    """Before every request: refuse what the asker may not do."""
    if request.endpoint is None:
        return None  # no route: the 404 or 405 follows
    level = level_of(current_app, request.endpoint, request.method)
    if level is None:
        current_app.logger.error("route %s declares no access: refused", request.endpoint)
        abort(403, _("This page is not open to anybody."))
    if level == PUBLIC:
        return None
    who = identity()
    night_id = (request.view_args or {}).get("night_id")
    if who.may(level, night_id):
        return None
    if night_id in who.gone_tables and not is_api():  # its round drawn again: never the sign-in
        abort(404, str(REDRAWN))
    if night_id in who.gone_nights and request.method in SAFE_METHODS and not is_api():
        return None  # a night the guest joined, gone: not found (the route's 404), as for a member
    if who.user is None and not is_api() and (answer := _spent_answer(who, night_id)) is not None:
        return answer
    if is_api():
        if who.user is None:
            return (
                {"error": {"field": "", "message": "a valid API token is needed: Authorization: Bearer <token>"}},
                401,
                {"WWW-Authenticate": "Bearer"},
            )
        return {"error": {"field": "", "message": f"the role {who.role} may not do this"}}, 403
    if who.user is None and request.method in SAFE_METHODS:
        if request.endpoint == "nights.index" and (
            who.guest_nights or who.read_nights or who.gone_nights or spent_nights()
        ):
            return redirect(way_back()[0])  # a guest's home (the app's name, "the nights"): its table, or joining one
        return redirect(url_for("signin.login", next=request.full_path.rstrip("?")))
    if who.user is None:
        abort(401, _("Sign in first (or join the night with its code)."))
    abort(403, _("Your account may not do this. Ask an admin of the club."))


def safe_next(target: Any) -> str | None:
    """A ``next`` address to return to after signing in: only a path on this site."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(ord(c) < 32 for c in target) or len(target) > 500:
        return None
    return target


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` when the request came over HTTPS (``SESSION_COOKIE_SECURE = "auto"``).

    A club laptop at the pub often serves plain HTTP on the local network, where a
    ``Secure`` cookie would never come back; behind a TLS proxy every cookie is ``Secure``.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        setting = app.config["SESSION_COOKIE_SECURE"]
        if setting == "auto":
            return request.is_secure
        return bool(setting)

    def should_set_cookie(self, app: Flask, session) -> bool:
        """The cookie goes out when the session changed, and with a page the browser opens (its
        60 days count again from there), not with every answer to a page's script (the table's
        polling, a preview, the outbox) whose session did not change. A poll that left before
        another account signed in on another tab of the phone and answered after it used to put the
        cookie from before back: the phone was the other account again, without a word.
        A script's request that came without a session starts none: the outbox of a phone whose session
        ended, trying its hand form in the background, followed the redirect to the sign-in page and got
        a session there (its form's token), whose cookie replaced the one of the sign-in page the member
        was filling in ("the form was too old" at the first try).
        (A browser that does not say how it fetches, no ``Sec-Fetch-Mode``, is treated as opening a page.)"""
        navigation = request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"
        if session.modified:
            return navigation or app.config["SESSION_COOKIE_NAME"] in request.cookies
        return navigation and super().should_set_cookie(app, session)


@login_manager.user_loader
def _load_user(value: str) -> User | None:
    """Who the session cookie names, read in the request's read session: a POST takes its write
    session (on SQLite the write lock) only when it writes, not while it works out who is asking."""
    return accounts.user_for_session(db=read_db(), value=value)


def client_for(app: Flask, user: User | None):
    """A test client of ``user`` (tests and benchmarks): signed in for pages, with a Bearer token for the API."""
    from scorekeeper.core import db as database

    client = app.test_client()
    if user is not None:
        with client.session_transaction() as cookie:
            cookie["_user_id"] = user.get_id()
            cookie["_fresh"] = True
            cookie.permanent = True  # as sign_in makes it
        with database.session(app.extensions["sk_engine"], write=True) as db:
            _, token = accounts.create_token(db=db, user=user, label="test client")
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    app.session_interface = SessionInterface()
    app.before_request(_enforce)

    def can(level: str, night_id: int | None = None) -> bool:
        return identity().may(level, night_id)

    from scorekeeper.web.accounts.forms import ROLE_NAMES

    app.jinja_env.globals.update(
        can=can,
        identity=identity,
        account_key=account_key,
        way_back=way_back,
        guest_links=guest_links,
        role_label=lambda role: ROLE_NAMES.get(role, role),
    )


def sign_in(user) -> None:
    """Start a new session for ``user`` (the nights a guest joined stay joined)."""
    guests, tables = (None, None) if session_ended() else (session.get(GUESTS), session.get(TABLES))
    session.clear()  # a new session on sign-in: nothing of the one before carries over
    if guests:
        session[GUESTS] = guests
    if guests and tables:
        session[TABLES] = tables
    login_user(user)
    session.permanent = True
    # the new session's form token, in its first cookie: an answer that changes the session sends
    # the cookie again (SessionInterface.should_set_cookie), and a poll that left before the first
    # form made a token could otherwise answer after it with a cookie without one (the first
    # preview of a fresh session was refused)
    g.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)  # the old session's, if made
    generate_csrf()
