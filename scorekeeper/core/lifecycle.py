"""A night's life, in one place: the states of a night, of a tournament's table and of a tournament,
and the one answer to "may this account do this action to this night now?".

::

    club night         open ──close──► closed ──reopen (admin, a reason)──► open
                       (close: a scorer, an admin, or a phone that joined with the night's code)

    tournament table   playing ──last counted deal / paper points / the organiser closes──► finished
                       finished ──reopen (admin, a reason; not a paper table)──► playing, or all dealt
                       finished from paper ──the organiser clears its points (core/tournaments/paper.py
                                             clear_paper; no later round drawn)──► playing
                       all dealt (reopened with its D deals: edit and undo, no new deal) ──the organiser──► finished
                       any ──the tournament closes──► frozen (nothing changes, its date and place neither;
                                                              reopen the tournament first)

    tournament         open ──every round over, closed──► closed
                       closed ──reopen (admin, a reason, kept on the tournament)──► open (its tables thaw)
                       (the next round is drawn only when every table of the round is finished)

Who: an account's role (``viewer``, ``scorer``, ``admin``), :data:`GUEST` (a phone that joined the
night with its code, and nothing more), or :data:`SYSTEM` (the club's own command line, an
import: every role's right, never a state's). The use cases (core/nights.py, core/hands.py,
core/tournaments/) ask :func:`check` under the night's lock; the pages and the API ask
:func:`refusal` / :func:`allowed` before they offer an action or open its form. Nothing else
decides. docs/architecture.md draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from scorekeeper.core.errors import Conflict, N_plural
from scorekeeper.core.models import CLOSED, OPEN, HandRecord, Night, Tournament, TournamentTable
from scorekeeper.core.stored import deals_played

__all__ = [
    "ACTIONS",
    "GUEST",
    "SYSTEM",
    "Life",
    "allowed",
    "check",
    "check_deals",
    "check_form",
    "life_of",
    "refusal",
    "tournament_refusal",
]

# --- the actions ---------------------------------------------------------------------------

RECORD = "record"
EDIT = "edit"
UNDO = "undo"
CLOSE = "close"
REOPEN = "reopen"
PAPER = "paper"
DELETE = "delete"
CHANGE = "change"  # its date and place (an admin's correction, audited)
ACTIONS = (RECORD, EDIT, UNDO, CLOSE, REOPEN, PAPER, DELETE, CHANGE)

# --- who asks ------------------------------------------------------------------------------

GUEST = "guest"  # a phone that joined this night with its code
VIEWER, SCORER, ADMIN = "viewer", "scorer", "admin"
SYSTEM = None  # the command line, an import, a demo: no role to check

# --- the states ----------------------------------------------------------------------------

#: a club night
NIGHT_OPEN = "open"
NIGHT_CLOSED = "closed"
#: a tournament's table
PLAYING = "playing"  # open, fewer counted deals than the tournament's D
ALL_DEALT = "all dealt"  # open (reopened by an admin) with its D counted deals: correct, never add
FINISHED = "finished"  # closed: by its last counted deal, by paper points, or by the organiser
FROZEN = "frozen"  # its tournament is closed
STATES = (NIGHT_OPEN, NIGHT_CLOSED, PLAYING, ALL_DEALT, FINISHED, FROZEN)

#: Who may do each action, at a club night and at a tournament's table (the state aside).
WHO: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    RECORD: (frozenset({GUEST, SCORER, ADMIN}), frozenset({GUEST, SCORER, ADMIN})),
    EDIT: (frozenset({GUEST, SCORER, ADMIN}), frozenset({GUEST, SCORER, ADMIN})),
    UNDO: (frozenset({GUEST, SCORER, ADMIN}), frozenset({GUEST, SCORER, ADMIN})),
    # a table phone never finishes its table: its last deal does, or the organiser
    CLOSE: (frozenset({GUEST, SCORER, ADMIN}), frozenset({SCORER, ADMIN})),
    REOPEN: (frozenset({ADMIN}), frozenset({ADMIN})),
    PAPER: (frozenset(), frozenset({SCORER, ADMIN})),
    DELETE: (frozenset({ADMIN}), frozenset()),
    CHANGE: (frozenset({ADMIN}), frozenset({ADMIN})),
}


@dataclass(frozen=True)
class Life:
    """What a night's life is decided by: read once under the night's lock (:func:`life_of`)."""

    status: str  # the night's OPEN or CLOSED
    hands: int  # hands recorded (a redeal included)
    tournament: bool = False  # a table of a tournament
    tournament_open: bool = True
    deals: int | None = None  # the counted deals the table plays (the tournament's D)
    deals_played: int = 0  # counted deals recorded (a hand dealt again does not count)
    paper: bool = False  # its points typed from a paper list

    @property
    def state(self) -> str:
        if not self.tournament:
            return NIGHT_OPEN if self.status == OPEN else NIGHT_CLOSED
        if not self.tournament_open:
            return FROZEN
        if self.status != OPEN:
            return FINISHED
        return ALL_DEALT if self.deals is not None and self.deals_played >= self.deals else PLAYING

    @property
    def finished(self) -> bool:
        """Whether the night takes no more deals (a finished table counts for its round)."""
        return self.state in (NIGHT_CLOSED, FINISHED, FROZEN)

    @property
    def next_deal(self) -> int:
        """The counted deal the next hand is (a table's "Spiel 5 von 32"; a club night's next hand)."""
        return (self.deals_played if self.tournament else self.hands) + 1


def life_of(*, db: Session, night: Night) -> Life:
    """The night's life as stored now (a club night: its status and count of hands; a tournament's
    table: also its tournament's status, its counted deals and whether its points are from paper)."""
    if night.tournament_id is None:
        count = db.exec(
            select(HandRecord.number).where(HandRecord.night_id == night.id).order_by(HandRecord.number.desc())
        ).first()
        return Life(status=night.status, hands=count or 0)
    hands = list(db.exec(select(HandRecord.data).where(HandRecord.night_id == night.id).order_by(HandRecord.number)))
    t_status = db.exec(select(Tournament.status).where(Tournament.id == night.tournament_id)).first()
    paper = db.exec(select(TournamentTable.paper).where(TournamentTable.night_id == night.id)).first()
    return Life(
        status=night.status,
        hands=len(hands),
        tournament=True,
        tournament_open=t_status != CLOSED,
        deals=night.deals,
        deals_played=deals_played(night=night, hands=hands),
        paper=paper is not None,
    )


def _who_refusal(life: Life, action: str, who: str | None) -> Conflict | None:
    if who is SYSTEM:
        return None
    club, table = WHO[action]
    if who in (table if life.tournament else club):
        return None
    if action == CLOSE and life.tournament and who == GUEST:
        return Conflict("only the organiser finishes a tournament's table before its last deal")
    if action in (REOPEN, DELETE):
        if life.tournament:  # a tournament's table is never deleted on its own: only reopened
            return Conflict("only an admin may reopen a table")
        return Conflict("only an admin may reopen or delete a night")
    if action == PAPER:
        return Conflict("only the organiser enters a table's points")
    if life.tournament:
        return Conflict("your account may not change this table")
    return Conflict("your account may not change this night")


def _finished(life: Life) -> Conflict:
    """Why a finished table takes nothing more."""
    if life.paper:
        return Conflict("this table's points come from its paper list: nothing can be recorded at it")
    if life.deals is not None and life.deals_played >= life.deals:
        return Conflict(
            *N_plural(
                "this table has played its {n} deal: its points are final",
                "this table has played its {n} deals: its points are final",
            ),
            n=life.deals,
        )
    return Conflict("the organiser has finished this table: nothing can be recorded, changed or undone")


def _state_refusal(life: Life, action: str) -> Conflict | None:
    state = life.state
    if state == FROZEN:
        if action == REOPEN:
            return Conflict("the tournament is closed: an admin reopens the tournament first")
        return Conflict("the tournament is closed: its tables are final")
    if action in (RECORD, EDIT, UNDO):
        if state == NIGHT_CLOSED:
            return Conflict("this night is closed: no hand can be recorded, changed or undone")
        if state == FINISHED:
            return _finished(life)
        if action == RECORD and state == ALL_DEALT:
            return Conflict(
                *N_plural(
                    "this table has played its {n} deal: no more can be recorded",
                    "this table has played its {n} deals: no more can be recorded",
                ),
                n=life.deals,
            )
        if action == UNDO and life.hands == 0:
            return Conflict("there is no hand to undo")
        return None
    if action == CLOSE:
        if not life.finished:
            return None
        if life.tournament:
            return Conflict("this table is closed already")
        return Conflict("this night is closed already")
    if action == REOPEN:
        if not life.finished:
            if life.tournament:
                return Conflict("this table is open already")
            return Conflict("this night is open already")
        if life.paper:
            return Conflict("this table's points come from its paper list: correct or clear them there")
        return None
    if action == PAPER:
        if not life.tournament:
            return Conflict("only a tournament's table has points from paper")
        if life.hands:
            return Conflict("this table has deals recorded: its points come from them")
        return None
    if action == DELETE and life.tournament:
        return Conflict("a tournament's table is not deleted on its own: it goes with its round (draw the round again)")
    return None


def refusal(life: Life, action: str, who: str | None = SYSTEM) -> Conflict | None:
    """Why ``who`` may not do ``action`` to the night now (None: they may). The state's reason comes
    first (a closed night is closed for everybody), then the role's. A tournament's table is named a
    table in them, never a night (as its pages say it: core/table.py ``Table.at_tournament``)."""
    if action not in ACTIONS:
        raise ValueError(action)
    return _state_refusal(life, action) or _who_refusal(life, action, who)


def check(life: Life, action: str, who: str | None = SYSTEM) -> None:
    """:raises Conflict: with the reason, unless ``who`` may do ``action`` to the night now."""
    refused = refusal(life, action, who)
    if refused is not None:
        raise refused


def allowed(life: Life, who: str | None) -> frozenset[str]:
    """The actions ``who`` may do to the night now (what a page offers)."""
    return frozenset(a for a in ACTIONS if refusal(life, a, who) is None)


def tournament_refusal(tournament: Tournament, action: str, who: str | None = SYSTEM) -> Conflict | None:
    """Why ``who`` may not do ``action`` (only :data:`REOPEN` here) to the tournament now, or None.

    Reopening a closed tournament is an admin's (with a reason, kept on the tournament); its tables
    then thaw (each finished table stays finished until an admin reopens it too).
    """
    if action != REOPEN:
        raise ValueError(f"not an action on a tournament: {action!r}")
    if who not in (ADMIN, SYSTEM):
        return Conflict("only an admin may reopen a tournament")
    if tournament.status != CLOSED:
        return Conflict("the tournament is open")
    return None


def check_deals(life: Life, deals_after: int) -> None:
    """A tournament's table never holds more counted deals than the tournament's D.

    :raises Conflict: when a change would make it ``deals_after``.
    """
    if life.deals is not None and deals_after > life.deals:
        raise Conflict(
            *N_plural(
                "a table of this tournament plays {n} deal: this would make it {after}",
                "a table of this tournament plays {n} deals: this would make it {after}",
            ),
            n=life.deals,
            after=deals_after,
        )


def check_form(night: Night, night_uid: Any) -> None:
    """A form (or a hand kept offline) carries the uid of the night it was made for: posted to
    another night with the same id (a deleted night's, in a restored database) it is refused.

    :raises Conflict: for another night's uid (an empty one: a form made before uids were posted).
    """
    if night_uid not in (None, "") and night_uid != night.uid:
        if night.tournament_id is not None:  # a tournament's table (its pages say "table")
            raise Conflict("this form was made for another table that had the same number: nothing was saved")
        raise Conflict("this form was made for another night that had the same number: nothing was saved")
