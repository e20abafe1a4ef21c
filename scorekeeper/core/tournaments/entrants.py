"""A tournament's participants: entered, withdrawn and taken back, replaced, and kept apart in the draw.
A change to them before a round starts draws that round again (:mod:`.rounds`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from scorekeeper.core.errors import N_, Conflict, InvalidInput, N_plural, NotFound
from scorekeeper.core.models import (
    Entrant,
    Player,
    Seat,
    Tournament,
    TournamentTable,
    utcnow,
)
from scorekeeper.core.nights import bump, lock_night
from scorekeeper.core.players import LooksLikeSeveral, match_names, player_named
from scorekeeper.core.text import clean_name, is_id, name_key
from scorekeeper.core.tournaments.rounds import draw, undraw
from scorekeeper.core.tournaments.setup import bump_tournament, last_round, open_tournament, round_done, round_started

ENTRANTS_MAX = 1000
#: The most pairs of participants a tournament keeps apart.
APART_MAX = 200
#: A replacement refused: the page asked about another person than who has the place now (:func:`replace_entrant`).
REPLACED_MEANWHILE = N_("start number {n} was replaced meanwhile: nothing was changed, see who has the place now")


def _new_entrant_player(db: Session, t: Tournament, player_id: Any, guest: Any) -> Player:
    """The player of the roster or the new guest who enters (or takes a place); not entered yet."""
    if (player_id is None) == (guest is None or guest == ""):
        raise InvalidInput("player", "choose a player of the roster or type a guest's name")
    if player_id is not None:  # a member, or a guest of an earlier tournament entered again
        player = db.get(Player, player_id, populate_existing=True) if is_id(player_id) else None
        if player is None:  # none, or merged away meanwhile
            raise InvalidInput("player", "there is no player {id}", id=player_id)
    else:
        name = clean_name(guest)
        player = _person_named(db, name)  # a guest who comes back is the same guest (their name, as it looks)
        if player is not None and not player.guest:
            raise InvalidInput(
                "guest", "there is already a player called {name}: choose them from the roster", name=name
            )
        if player is None:
            player = Player(name=name, guest=True)
            db.add(player)
            db.flush()
    for e in db.exec(select(Entrant).where(Entrant.tournament_id == t.id)):
        if e.player_id == player.id or any(f["player_id"] == player.id for f in e.former or ()):
            raise InvalidInput("player", "{name} is entered already", name=player.name)
    return player


def _person_named(db: Session, name: str) -> Player | None:
    """The player (a member or a guest) a name typed for a guest means: the one of exactly that name, else
    the one whose name looks like it (core/text.py ``name_key``); None: nobody. The roster's names are
    locked to the commit (:func:`scorekeeper.core.players.player_named`).

    :raises InvalidInput: where it is none of them exactly and looks like two or more (names stored before
        today's rule may look alike): which one is meant is not guessed, the refusal names them with their
        ids (the entrant form's list marks them so)."""
    if player_named(db, name) is None:  # takes the names' lock; nobody looks like it
        return None
    key = name_key(name)
    alike = [p for p in db.exec(select(Player).order_by(Player.id)) if name_key(p.name) == key]
    try:
        (player,) = match_names(alike, [name])
    except LooksLikeSeveral as err:
        raise InvalidInput(
            "guest",
            "several look like {name}: {choices}; choose the one meant from the list",
            name=name,
            choices=", ".join(f"{p.name} (id {p.id})" for p in err.players),
        ) from None
    return player


def add_entrant(*, db: Session, tournament_id: Any, player_id: Any = None, guest: Any = None) -> Entrant:
    """Enter a player of the roster (``player_id``), a guest of an earlier tournament again (``player_id``),
    or a new guest (``guest``: a name; a start number, never on the roster or in the club's history). The
    next start number is theirs; a player entered after a round was drawn plays from the next round on.

    :raises Conflict: once every round is drawn (they would play none).
    """
    t = open_tournament(db, tournament_id, (player_id,))
    if last_round(db, t) >= t.rounds:
        raise Conflict(
            *N_plural(
                "the only round is drawn: a participant entered now would play none",
                "all {n} rounds are drawn: a participant entered now would play none",
            ),
            n=t.rounds,
        )
    player = _new_entrant_player(db, t, player_id, guest)
    count = db.exec(select(func.count()).where(Entrant.tournament_id == t.id)).one()
    if count >= ENTRANTS_MAX:
        raise InvalidInput(
            "player",
            *N_plural("a tournament has at most {n} participant", "a tournament has at most {n} participants"),
            n=ENTRANTS_MAX,
        )
    number = (db.exec(select(func.max(Entrant.number)).where(Entrant.tournament_id == t.id)).one() or 0) + 1
    entrant = Entrant(tournament_id=t.id, number=number, player_id=player.id)
    db.add(entrant)
    bump_tournament(db, t)
    db.commit()
    return entrant


def withdraw_entrant(*, db: Session, tournament_id: Any, number: Any) -> Entrant:
    """Withdraw a participant between rounds: not drawn again; their points so far stay. During a
    drawn round that has not started, the round is drawn again without them."""
    t = open_tournament(db, tournament_id)
    entrant = _entrant(db, t, number)
    if entrant.withdrawn_after is not None:
        raise Conflict("this participant has withdrawn already")
    last = last_round(db, t)
    redraw = False
    if last and not round_done(db, t, last):
        if round_started(db, t, last):
            raise Conflict("round {n} is being played: withdraw the participant when it is over", n=last)
        redraw = True
        entrant.withdrawn_after = last - 1
    else:
        entrant.withdrawn_after = last
    db.add(entrant)
    bump_tournament(db, t)
    if redraw:  # drawn again without them, its count of draws kept (only "draw again" counts one more)
        attempt = undraw(db, t, last)
        db.flush()
        draw(db, t, last, attempt)
    db.commit()
    return entrant


def _numbers(db: Session, t: Tournament, first: Any, second: Any) -> tuple[int, int]:
    """Two participants' start numbers, smaller first. :raises InvalidInput: for an unknown or the same one."""
    numbers = set(db.exec(select(Entrant.number).where(Entrant.tournament_id == t.id)))
    for name, value in (("first", first), ("second", second)):
        if type(value) is not int or value not in numbers:
            raise InvalidInput(name, "there is no participant {n}", n=value)
    if first == second:
        raise InvalidInput("second", "choose two different participants")
    return (first, second) if first < second else (second, first)


def keep_apart(*, db: Session, tournament_id: Any, first: Any, second: Any) -> Tournament:
    """Seat two participants (start numbers) at different tables in every round drawn from now on (the
    draw honours it before it avoids repeated table-mates, and says when it cannot). A drawn round that
    has not started and seats them together is drawn again."""
    t = open_tournament(db, tournament_id)
    a, b = _numbers(db, t, first, second)
    if [a, b] in t.keep_apart:
        raise InvalidInput("second", "{a} and {b} are kept apart already", a=a, b=b)
    if len(t.keep_apart) >= APART_MAX:
        raise InvalidInput(
            "second",
            *N_plural("a tournament keeps at most {n} pair apart", "a tournament keeps at most {n} pairs apart"),
            n=APART_MAX,
        )
    t.keep_apart = sorted([*t.keep_apart, [a, b]])
    last = last_round(db, t)
    if last and not round_started(db, t, last) and _together(db, t, last, a, b):
        attempt = undraw(db, t, last)
        db.flush()
        draw(db, t, last, attempt)
    bump_tournament(db, t)
    db.commit()
    return t


def allow_together(*, db: Session, tournament_id: Any, first: Any, second: Any) -> Tournament:
    """No longer keep two participants apart (from the next draw on)."""
    t = open_tournament(db, tournament_id)
    a, b = _numbers(db, t, first, second)
    if [a, b] not in t.keep_apart:
        raise InvalidInput("second", "{a} and {b} are not kept apart", a=a, b=b)
    t.keep_apart = [pair for pair in t.keep_apart if pair != [a, b]]
    bump_tournament(db, t)
    db.commit()
    return t


def _together(db: Session, t: Tournament, number: int, a: int, b: int) -> bool:
    """Whether participants ``a`` and ``b`` sit at one table of round ``number``."""
    rows = db.exec(
        select(TournamentTable.night_id, Entrant.number)
        .join(Seat, Seat.night_id == TournamentTable.night_id)
        .join(Entrant, (Entrant.player_id == Seat.player_id) & (Entrant.tournament_id == t.id))
        .where(TournamentTable.tournament_id == t.id, TournamentTable.round == number, Entrant.number.in_([a, b]))
    ).all()
    return len(rows) == 2 and rows[0][0] == rows[1][0]


def _entrant(db: Session, t: Tournament, number: Any) -> Entrant:
    """A participant, read afresh after the tournament's lock (``t`` locked): a page read them before it
    waited for the lock, and another organiser's withdrawal or replacement may have come in between."""
    query = select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == number)
    entrant = db.exec(query.execution_options(populate_existing=True)).first() if is_id(number) else None
    if entrant is None:
        raise NotFound(f"no participant {number}")
    return entrant


def take_back_withdrawal(*, db: Session, tournament_id: Any, number: Any) -> Entrant:
    """Take a withdrawal back until a round without them starts: before the next round is drawn,
    or while it has not started (it is then drawn again with them, as a withdrawal draws it again
    without them)."""
    t = open_tournament(db, tournament_id)
    entrant = _entrant(db, t, number)
    if entrant.withdrawn_after is None:
        raise Conflict("this participant has not withdrawn")
    last = last_round(db, t)
    redraw = entrant.withdrawn_after == last - 1 and not round_started(db, t, last)
    if entrant.withdrawn_after < last and not redraw:
        raise Conflict(
            "round {n} has started without them: the withdrawal can no longer be taken back",
            n=entrant.withdrawn_after + 1,
        )
    entrant.withdrawn_after = None
    db.add(entrant)
    bump_tournament(db, t)
    if redraw:
        attempt = undraw(db, t, last)
        db.flush()
        draw(db, t, last, attempt)
    db.commit()
    return entrant


def replace_entrant(
    *, db: Session, tournament_id: Any, number: Any, player_id: Any = None, guest: Any = None, was: Any = None
) -> Entrant:
    """Another person takes a participant's place: the start number and the points so far stay, the
    earlier tables stay the earlier person's (``Entrant.former`` keeps who and when). Between rounds,
    or in a drawn round that has not started (the new person takes the seat); refused while a round
    is being played, once every round is played (the new person would play none and take the place, the
    points and the prize of who played), and for a participant who has withdrawn. ``was`` (optional): the
    player whose place is taken, as the page asking showed them: refused where another organiser replaced
    them meanwhile (nothing is made, no guest either)."""
    t = open_tournament(db, tournament_id, (player_id,))
    entrant = _entrant(db, t, number)
    if was is not None and entrant.player_id != was:
        raise Conflict(REPLACED_MEANWHILE, n=entrant.number)
    if entrant.withdrawn_after is not None:
        raise Conflict("this participant has withdrawn: take the withdrawal back first")
    last = last_round(db, t)
    running = bool(last) and not round_done(db, t, last)
    if running and round_started(db, t, last):
        raise Conflict("round {n} is being played: replace the participant when it is over", n=last)
    if last >= t.rounds and not running:  # the replacement would play none and stand in the place of who played
        raise Conflict("all rounds are played: a participant replaced now would play none")
    player = _new_entrant_player(db, t, player_id, guest)
    before = db.get(Player, entrant.player_id)
    former = [
        *(entrant.former or ()),
        {
            "player_id": before.id,
            "name": before.name,
            "after_round": last - 1 if running else last,
            "at": utcnow().isoformat(timespec="seconds"),
        },
    ]
    entrant.former = former
    entrant.player_id = player.id
    db.add(entrant)
    if running:  # the drawn round's seat is the new person's
        nights = select(TournamentTable.night_id).where(
            TournamentTable.tournament_id == t.id, TournamentTable.round == last
        )
        for seat in db.exec(select(Seat).where(Seat.night_id.in_(nights), Seat.player_id == before.id)):
            seat.player_id = player.id
            db.add(seat)
            bump(db=db, night=lock_night(db=db, night_id=seat.night_id))  # its phone names the new person at once
    bump_tournament(db, t)
    db.commit()
    return entrant
