"""A night's life as the pages and the API ask it (the answers are core/lifecycle.py's, nothing here decides):
who is asking, as the night's life knows them, and what they may do to a night now."""

from __future__ import annotations

from flask import flash, redirect, request, url_for

from scorekeeper.core import lifecycle
from scorekeeper.core.errors import Conflict
from scorekeeper.core.models import Night
from scorekeeper.web.access import SCORER, identity
from scorekeeper.web.context import get_db
from scorekeeper.web.messages import message


def who(night_id: int | None) -> str | None:
    """Who asks about ``night_id``: an account's role; a phone that joined the night with its code
    (and may do no more as an account) is the night's guest."""
    me = identity()
    if not me.at_least(SCORER) and night_id is not None and night_id in me.guest_nights:
        return lifecycle.GUEST
    return me.role


def life(night: Night) -> lifecycle.Life:
    return lifecycle.life_of(db=get_db(), night=night)


def allowed(night: Night, night_life: lifecycle.Life | None = None) -> frozenset[str]:
    """The actions the asker may do to the night now: what its pages offer."""
    return lifecycle.allowed(night_life or life(night), who(night.id))


def refusal(night: Night, action: str) -> Conflict | None:
    """Why the asker may not do ``action`` to the night now (None: they may)."""
    return lifecycle.refusal(life(night), action, who(night.id))


def back_to_table(night_id: int, refused: Conflict):
    """A page the night no longer allows does not open: back to the table page, which says why."""
    flash(message(refused), "error")
    return redirect(url_for("nights.show", night_id=night_id))


def not_now(night: Night, action: str):
    """The page of ``action`` (its form, its confirmation) does not open while the night does not
    allow it: back to the table with the reason (None: it opens). A post is answered by the use case."""
    if request.method != "GET":
        return None
    refused = refusal(night, action)
    return None if refused is None else back_to_table(night.id, refused)
