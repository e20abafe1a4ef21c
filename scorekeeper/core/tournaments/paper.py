"""A tournament table's points on paper: entered for a table that played without a phone, checked (the one
place of their rules and words: :func:`paper_problems`), corrected, and cleared while its round has not
started."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from scorekeeper.core import lifecycle
from scorekeeper.core.errors import N_, Conflict, InvalidInput, N_plural, NotFound, Refusal
from scorekeeper.core.models import (
    OPEN,
    Night,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.core.nights import bump, close_locked, lock_night, touch
from scorekeeper.core.text import is_id
from scorekeeper.core.tournaments.setup import bump_tournament, last_round, open_tournament
from scorekeeper.core.tournaments.views import PAPER_CLEARED, get_tournament

#: A night's uid is at most this long (``Night.uid``): what a paper list says it was made for.
UID_MAX = 32
#: What a paper list may say a player scored in a round (far beyond any real round).
PAPER_MAX = 100_000
#: The solos a paper list cannot have (one declarer per deal), the one place of the rule and of its words
#: (:func:`enter_paper`): a player's won and lost together (their field ``solos.i``, 0-based by table
#: position), and the whole table's (``solos``). The paper form says each refused at once at its field.
PLAYER_SOLOS = N_("a player's solos won and lost together may not exceed {n}")
TABLE_SOLOS = N_("the solos of all players together may not exceed {n}, one per deal: these are {total}")
#: A paper form's refusals where it is stale (:func:`paper_form_refusal`): the table drawn again, another
#: person seated, its points (or anything else of it) changed since the form was made.
TABLE_REDRAWN = N_("table {n} was drawn again meanwhile: nothing was saved, its new players are on the form")
SEATS_CHANGED = N_("the players of table {n} changed meanwhile: nothing was saved, they are on the form now")
PAPER_CHANGED = N_(
    "the points of table {n} were changed meanwhile by someone else: nothing was saved, the form shows them now"
)


def enter_paper(
    *,
    db: Session,
    tournament_id: Any,
    round_number: Any,
    table: Any,
    points: Any,
    solos: Any = None,
    who: str | None = lifecycle.SYSTEM,
    night_uid: Any = None,
    player_ids: Any = None,
    night_version: Any = None,
) -> TournamentTable:
    """A table's final points per player typed from its paper list (by table position) instead of
    recorded deal by deal: refused unless they sum to zero, or when the table has deals recorded.
    ``solos``: each player's solos won and lost, ``[won, lost]`` or None where the list does not say
    (the standings then call them unknown). The table is then done.

    ``night_uid`` and ``player_ids`` (optional): the table's night and its players (by table position)
    the form was made for. The points go by position, so where the round was drawn again meanwhile (a
    new night, or no such table any more) or another person took a seat, they are refused: they were
    typed for other people. ``night_version`` (optional): the table's night's version the form was made at:
    where its points were entered, corrected or cleared since (another organiser's form), or anything else
    of the table changed, they are refused (:func:`paper_form_refusal`). Each of the three in a wrong shape
    (a uid that is no text, ids that are no list of whole numbers, a version that is no whole number) is
    refused naming it (``InvalidInput``), before anything is looked up: the one check of the paper form and
    the API alike (the form says its own hidden fields' refusal as stale)."""
    shape = _made_for_problems(night_uid, player_ids, night_version)
    if shape:  # every refusal at once: the shapes, and the points' and solos' of a table that can be read
        problems = shape + _table_problems(db, tournament_id, round_number, table, points, solos)
        problems[0].also = tuple(problems[1:])
        raise problems[0]
    try:
        t, row, night = _paper_table(db, tournament_id, round_number, table, who)
    except NotFound:  # a table of the night it names gone: its round was drawn again with fewer tables
        if night_uid is None or not is_id(tournament_id) or not is_id(round_number):
            raise
        if db.get(TournamentRound, (tournament_id, round_number)) is None:
            raise
        raise Conflict(
            "round {r} was drawn again meanwhile: table {n} is gone and nothing was saved", r=round_number, n=table
        ) from None
    refused = paper_form_refusal(
        row.number,
        night,
        _seat_players(db, night.id),
        night_uid=night_uid,
        player_ids=player_ids,
        night_version=night_version,
    )
    if refused is not None:
        raise refused
    if solos is None:
        solos = [None] * night.seat_count
    problems = paper_problems(points, solos, seats=night.seat_count, deals=t.deals)
    if problems:  # every field's at once (a form says each at its field), the first raised
        problems[0].also = tuple(problems[1:])
        raise problems[0]
    row.paper = list(points)
    row.solos = [None if pair is None else list(pair) for pair in solos]
    db.add(row)
    if night.is_open:
        close_locked(db=db, night=night, why="paper")
    else:
        bump(db=db, night=night)
    bump_tournament(db, t)
    db.commit()
    return row


def paper_problems(points: Any, solos: Any, *, seats: int, deals: int) -> list[InvalidInput]:
    """Everything wrong with a paper list's figures at a table of ``seats`` players playing ``deals`` deals, in
    the order found (none: they may be entered): the one place of their ranges and rules, which
    :func:`enter_paper` asks under its locks and the paper form's page asks of a post its fields could not all
    read (a word typed where a number belongs: only the form knows that), so that the page says every problem
    at once. Each names its field: a player's points ``points.i`` and solos ``solos.i`` (0-based by table
    position), the whole list's ``points`` (their number, their sum) and ``solos``."""
    return [*_points_refusals(points, seats), *_solos_refusals(solos, seats, deals)]


def _points_refusals(points: Any, seats: int) -> list[InvalidInput]:
    """What is wrong with a paper list's ``points``: each player's out of range (``points.i``), else their
    sum (``points``: a sum of figures out of range says nothing more)."""
    if not isinstance(points, list | tuple) or len(points) != seats:
        return [
            InvalidInput(
                "points",
                *N_plural("give the points of the one player", "give the points of each of the {n} players"),
                n=seats,
            )
        ]
    refused = [
        InvalidInput(f"points.{i}", "each player's points are a whole number from -{limit} to {limit}", limit=PAPER_MAX)
        for i, p in enumerate(points)
        if type(p) is not int or not -PAPER_MAX <= p <= PAPER_MAX
    ]
    if refused:
        return refused
    if sum(points) != 0:
        return [
            InvalidInput("points", "a table's points must add up to zero: these add up to {total}", total=sum(points))
        ]
    return []


def _solos_refusals(solos: Any, seats: int, deals: int) -> list[InvalidInput]:
    """What is wrong with a paper list's ``solos``: each player's refusal (``solos.i``, 0-based by table
    position: the one place of their rules, ``PLAYER_SOLOS``), then the whole table's (``solos``,
    ``TABLE_SOLOS``: one declarer per deal, counted over the players' solos that are whole numbers in range)."""
    if not isinstance(solos, list | tuple) or len(solos) != seats:
        return [
            InvalidInput(
                "solos",
                *N_plural("give the solos of the one player", "give the solos of each of the {n} players"),
                n=seats,
            )
        ]
    refused: list[InvalidInput] = []
    total = 0
    # a player declares only in the deals they play: at a table of five the dealer sits out, and each of the five
    # deals at least every fifth deal (which ones, the first dealer and the deals dealt again decide)
    played = deals - deals // 5 if seats == 5 else deals
    for i, pair in enumerate(solos):
        if pair is None:
            continue
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or any(type(c) is not int or not 0 <= c <= deals for c in pair)
        ):
            refused.append(
                InvalidInput(
                    f"solos.{i}",
                    *N_plural(
                        "solos won and lost are whole numbers from 0 to {n} deal",
                        "solos won and lost are whole numbers from 0 to {n} deals",
                    ),
                    n=deals,
                )
            )
            continue
        total += sum(pair)
        if sum(pair) > played:
            refused.append(InvalidInput(f"solos.{i}", PLAYER_SOLOS, n=played))
    if total > deals:  # a table has at most as many solos as deals
        refused.append(InvalidInput("solos", TABLE_SOLOS, n=deals, total=total))
    return refused


def paper_form_refusal(
    number: int, night: Night, seated: list[int], *, night_uid: Any, player_ids: Any, night_version: Any
) -> Refusal | None:
    """Why a paper form made for table ``number`` (its night's uid, its players by table position, the
    night's version: each None where the form does not say) is stale now that the table is ``night`` with
    ``seated`` (by table position), or None. One of them in a wrong shape is refused naming it
    (``InvalidInput``, :func:`_made_for_problems`: the first), never taken for stale. The core asks under the night's
    lock; the form's page asks it first, before it reads the form's fields (old points under new names are
    not worth a word)."""
    shape = _made_for_problems(night_uid, player_ids, night_version)
    if shape:
        return shape[0]
    if night_uid is not None and night_uid != night.uid:
        return Conflict(TABLE_REDRAWN, n=number)
    if player_ids is not None and list(player_ids) != list(seated):
        return Conflict(SEATS_CHANGED, n=number)
    if night_version is not None and night_version != night.version:
        return Conflict(PAPER_CHANGED, n=number)
    return None


def _made_for_problems(night_uid: Any, player_ids: Any, night_version: Any) -> list[InvalidInput]:
    """What a paper list says it was made for, in a wrong shape, each refused naming its field; none where each
    is None (not said) or of its shape: the one check of the form and the API (:func:`enter_paper`)."""
    problems = []
    if night_uid is not None and not (isinstance(night_uid, str) and 0 < len(night_uid) <= UID_MAX):
        problems.append(InvalidInput("night_uid", "night_uid must be the uid of the table's night (a text)"))
    if player_ids is not None and not (
        isinstance(player_ids, list | tuple) and player_ids and all(type(i) is int for i in player_ids)
    ):
        problems.append(
            InvalidInput("player_ids", "player_ids must be a list of player ids (whole numbers), one per seat")
        )
    if night_version is not None and not (type(night_version) is int and night_version >= 0):
        problems.append(
            InvalidInput("night_version", "night_version must be the table's night_version (a whole number)")
        )
    return problems


def _table_problems(
    db: Session, tournament_id: Any, round_number: Any, table: Any, points: Any, solos: Any
) -> list[InvalidInput]:
    """The points' and solos' refusals (:func:`paper_problems`) of a table read without its locks, said beside
    the list's other refusals; none where there is no such table."""
    if not (is_id(tournament_id) and is_id(round_number) and is_id(table)):
        return []
    t = db.get(Tournament, tournament_id)
    row = db.get(TournamentTable, (tournament_id, round_number, table))
    night = db.get(Night, row.night_id) if row is not None else None
    if t is None or night is None:
        return []
    seats = night.seat_count
    return paper_problems(points, [None] * seats if solos is None else solos, seats=seats, deals=t.deals)


def _seat_players(db: Session, night_id: int) -> list[int]:
    """The players of a night by table position."""
    return list(db.exec(select(Seat.player_id).where(Seat.night_id == night_id).order_by(Seat.position)))


def _paper_table(
    db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None
) -> tuple[Tournament, TournamentTable, Night]:
    """The open tournament, its table of that round and the table's night, locked, where ``who`` may
    enter (or clear) paper points there (:mod:`scorekeeper.core.lifecycle`)."""
    t = open_tournament(db, tournament_id)
    row = db.get(TournamentTable, (t.id, round_number, table)) if is_id(round_number) and is_id(table) else None
    if row is None:
        raise NotFound(f"no table {table} in round {round_number}")
    night = lock_night(db=db, night_id=row.night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.PAPER, who)
    return t, row, night


def _clear_refusal(db: Session, t: Tournament, row: TournamentTable) -> Conflict | None:
    if row.paper is None:
        return Conflict("this table has no points from paper to clear")
    if last_round(db, t) > row.round:
        return Conflict(
            "round {n} is drawn: the points of an earlier round's table are corrected, not cleared", n=row.round + 1
        )
    return None


def paper_refusal(
    *, db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None, clear: bool = False
) -> Conflict | None:
    """Why ``who`` may not enter (``clear``: clear) a table's paper points now, or None: what the form's page
    (the clearing's page) asks before it is shown, so that it is not filled in for nothing. Read as it is
    now, without locks: :func:`enter_paper` and :func:`clear_paper` ask again under theirs.

    :raises NotFound: for an unknown tournament or table."""
    t = get_tournament(db=db, tournament_id=tournament_id)
    row = db.get(TournamentTable, (t.id, round_number, table)) if is_id(round_number) and is_id(table) else None
    night = db.get(Night, row.night_id) if row is not None else None
    if row is None or night is None:
        raise NotFound(f"no table {table} in round {round_number}")
    if not t.is_open:
        return Conflict("this tournament is closed: nothing can be changed")
    refused = lifecycle.refusal(lifecycle.life_of(db=db, night=night), lifecycle.PAPER, who)
    if refused is None and clear:
        refused = _clear_refusal(db, t, row)
    return refused


def clear_paper(
    *, db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None = lifecycle.SYSTEM
) -> TournamentTable:
    """Take a table's paper points back (typed into the wrong table): the table is playing again, its
    phone records its deals with the code on its card, and the standings count nothing from it. The
    organiser's, as entering them is, until the next round is drawn (its players have moved on: their
    points are then corrected on the paper form). The audit trail keeps the points taken back.

    :raises Conflict: for a table without paper points, a round that is not the last drawn, or who
        may not enter paper points (:mod:`scorekeeper.core.lifecycle`).
    """
    t, row, night = _paper_table(db, tournament_id, round_number, table, who)
    refused = _clear_refusal(db, t, row)
    if refused is not None:
        raise refused
    cleared = {"why": PAPER_CLEARED, "paper": list(row.paper), "solos": row.solos}
    row.paper = None
    row.solos = [[0, 0] for _ in range(night.seat_count)]
    db.add(row)
    night.status = OPEN
    night.closed_at = None
    touch(db=db, night=night, action="reopen", number=None, before=None, after=cleared)
    bump_tournament(db, t)
    db.commit()
    return row
