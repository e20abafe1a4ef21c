"""What the other phones at a table poll: the table page's live part, answered 304 while the night
has not changed.

The live part depends on the night (its ``version`` moves with every change), the page's language,
whether the reader may change the night (the Edit and Undo links), and whether every hand is asked
for. The ETag says all four, so a poll that has seen this version costs one small query and no
rendering. (A change of the rules or the players bumps the version too: every change to a night
goes through a use case that does.) A player renamed or merged changes the names it shows but none of
its hands, so not its version (undo, edit and the API's If-Match compare that): the tag carries the
roster's stamp beside it (core/players.py ``ROSTER_STAMP``). The same goes for the nights whose carried
pots it took (``Night.pot_to``): corrected since, a pot is named on this night's page too (core/nights.py
``pot_moved``), so the tag carries the sum of their versions (which only grow); a correction there is no
change of this night's hands and does not move its version. And the night that took this night's pot: its
date is named in the note, which ends with its deletion (the tag carries its version, -1 when it is gone).
"""

from __future__ import annotations

from flask import Response, request
from flask_babel import get_locale
from sqlalchemy import bindparam, func
from sqlalchemy.orm import aliased
from sqlmodel import select

from scorekeeper.core.models import Night
from scorekeeper.core.players import ROSTER_STAMP
from scorekeeper.web.access import NIGHT_WRITE, identity
from scorekeeper.web.context import get_db

#: The one query of a poll, as a Core statement run on the session's connection (no ORM round: a
#: poll that finds nothing changed costs about a millisecond of server time, docs/performance.md).
_SOURCE = aliased(Night)  # a night whose carried pot this night took
_POT_STAMP = (
    select(func.coalesce(func.sum(_SOURCE.version), 0))
    .where(_SOURCE.pot_to == Night.uid)
    .correlate(Night)
    .scalar_subquery()
)
_TAKER = aliased(Night)  # the night that took this night's carried pot: its date is named, its deletion ends the note
_TAKER_STAMP = (
    select(func.coalesce(func.max(_TAKER.version), -1))
    .where(_TAKER.uid == Night.pot_to)
    .correlate(Night)
    .scalar_subquery()
)
_VERSION = select(Night.version, ROSTER_STAMP, _POT_STAMP, _TAKER_STAMP).where(Night.id == bindparam("night_id"))


def live_etag(night_id: int) -> str | None:
    """The live part's tag as it stands now (None: no such night)."""
    row = get_db().connection().execute(_VERSION, {"night_id": night_id}).first()
    if row is None:
        return None
    version, roster, pots, taker = row
    writes = "w" if identity().may(NIGHT_WRITE, night_id) else "r"
    every = "a" if request.args.get("all") else "n"
    return f"{night_id}-{version}.{roster}.{pots}.{taker}-{get_locale() or 'de'}-{writes}{every}"


def as_header(tag: str | None) -> str:
    """The tag as the ``ETag`` header gives it (what the page hands its script for the first poll)."""
    return f'W/"{tag}"' if tag is not None else ""


def not_modified(tag: str | None) -> Response | None:
    """A 304 when the phone asking has the live part of ``tag`` already."""
    if tag is not None and request.if_none_match.contains_weak(tag):
        answer = Response(status=304)
        tagged(answer, tag)
        return answer
    return None


def tagged(answer: Response, tag: str | None) -> Response:
    """The answer with its tag, to be checked with the server every time (never used unasked)."""
    if tag is not None:
        answer.set_etag(tag, weak=True)
    answer.headers["Cache-Control"] = "no-cache"
    return answer
