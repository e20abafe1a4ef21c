"""A tournament itself: made, its rules set, closed and reopened; and what every change to one does first
(:func:`open_tournament`: its people and its row locked, in the app's one order of locks) and last
(:func:`bump_tournament`: its version, which the standings board polls)."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import date
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from scorekeeper.core import lifecycle
from scorekeeper.core.errors import Conflict, InvalidInput, N_plural
from scorekeeper.core.models import (
    CLOSED,
    OPEN,
    Entrant,
    Night,
    Player,
    Tournament,
    TournamentRound,
    TournamentTable,
    utcnow,
)
from scorekeeper.core.nights import bump, check_date, lock_night
from scorekeeper.core.text import has_control, is_id
from scorekeeper.core.tournaments.views import get_tournament, started_rounds
from scorekeeper.engine import GAMES, get_game
from scorekeeper.engine.rules import rules_to_json

#: The games a tournament can be: those played at tables of four and of five.
TOURNAMENT_GAMES = tuple(name for name, g in GAMES.items() if {4, 5} <= set(g.table_sizes))
NAME_MAX = 80
ROUNDS_MAX = 20
DEALS_MAX = 200
FEE_MAX_CENTS = 100_000
PRIZES_MAX = 50
PRIZE_MAX_CENTS = 10_000_000


def check_text(value: Any, name: str, most: int, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(name, "must be text")
    value = unicodedata.normalize("NFC", value).strip()
    if required and not value:
        raise InvalidInput(name, "give the tournament a name")
    if len(value) > most or has_control(value):
        raise InvalidInput(
            name,
            *N_plural(
                "at most {n} character and no control characters", "at most {n} characters and no control characters"
            ),
            n=most,
        )
    return value


def _count(value: Any, name: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidInput(name, "must be a whole number from {lo} to {hi}", lo=lo, hi=hi)
    return value


def _prizes(value: Any) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or len(value) > PRIZES_MAX:
        raise InvalidInput(
            "prizes",
            *N_plural(
                "the prizes are a list of at most {n} amount in cents",
                "the prizes are a list of at most {n} amounts in cents",
            ),
            n=PRIZES_MAX,
        )
    for amount in value:
        if type(amount) is not int or not 0 <= amount <= PRIZE_MAX_CENTS:
            raise InvalidInput("prizes", "each prize must be a whole number of cents from 0 to {n}", n=PRIZE_MAX_CENTS)
    return list(value)


def _complete_rules(game: str, rules: Any) -> dict[str, Any]:
    g = get_game(game)
    if g.name not in TOURNAMENT_GAMES:
        raise InvalidInput(
            "game", "a tournament is played at tables of four and five: {games}", games=", ".join(TOURNAMENT_GAMES)
        )
    return rules_to_json(g.parse_rules(rules))


def create_tournament(
    *,
    db: Session,
    name: Any,
    game: Any,
    rules: Any,
    played_on: date | None = None,
    place: Any = "",
    rounds: Any = 2,
    deals: Any = 32,
    entry_fee_cents: Any = 0,
    prizes: Any = None,
    seed: str | None = None,
    currency: Any = "EUR",
) -> Tournament:
    """Create a tournament (no entrants, no round yet). ``rules``: the game's rule set, e.g.
    ``{"preset": "turnier"}``, completed and stored. ``currency``: the fee's and the prizes', the club's
    (``SCOREKEEPER_CURRENCY``: the pages and the API hand it in), kept as the tournament's whatever the club's
    becomes later.

    :raises InvalidInput: for a bad name, place, count, fee, prize or currency; :raises InvalidHand: for bad rules.
    """
    complete = _complete_rules(game, rules)
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isascii() or not currency.isalpha():
        raise InvalidInput("currency", "the currency must be a three-letter code such as EUR")
    t = Tournament(
        name=check_text(name, "name", NAME_MAX, required=True),
        place=check_text(place, "place", NAME_MAX, required=False),
        played_on=date.today() if played_on is None else check_date(played_on),
        game=get_game(game).name,
        rules=complete,
        rounds=_count(rounds, "rounds", 1, ROUNDS_MAX),
        deals=_count(deals, "deals", 1, DEALS_MAX),
        entry_fee_cents=_count(entry_fee_cents, "entry_fee_cents", 0, FEE_MAX_CENTS),
        prizes=_prizes(prizes),
        currency=currency.upper(),
        seed=seed if seed is not None else secrets.token_hex(8),
    )
    db.add(t)
    db.commit()
    return t


def bump_tournament(db: Session, t: Tournament) -> None:
    """Every change to a tournament bumps its version (the standings board polls it)."""
    t.version += 1
    db.add(t)


def people_of(db: Session, tournament_id: Any, people: tuple[Any, ...]) -> set[int]:
    """The ids of a tournament's people as they are now: ``people``, its participants and those they replaced
    (still seated at earlier tables)."""
    ids = {i for i in people if is_id(i)}
    if is_id(tournament_id):
        for player_id, former in db.exec(
            select(Entrant.player_id, Entrant.former).where(Entrant.tournament_id == tournament_id)
        ):
            ids.add(player_id)
            ids |= {f["player_id"] for f in former or () if is_id(f.get("player_id"))}
    return ids


def lock_people(db: Session, tournament_id: Any, people: tuple[Any, ...] = (), ids: set[int] | None = None) -> set[int]:
    """Hold the players' rows a change to the tournament may write or lock against a merge or a guest made a
    member, before the tournament's row: the app's one order of locks (docs/architecture.md, "The order of
    locks"). Its participants', the people they replaced (``Entrant.former``: still seated at the earlier
    rounds' tables, whose nights a paper correction locks, and ``lock_night`` holds a night's players), and
    ``people``, who enter or take a place (``ids``: them as read already, :func:`people_of`). ``FOR KEY
    SHARE``, in id order: two tournaments' changes never wait for each other here; a merge waits for them, or
    they for it (and then find the merged record gone: no such player). Returns the ids held."""
    ids = people_of(db, tournament_id, people) if ids is None else ids
    if ids:
        query = select(Player.id).where(Player.id.in_(sorted(ids))).order_by(Player.id)
        db.exec(query.with_for_update(read=True, key_share=True)).all()
    return ids


def open_tournament(db: Session, tournament_id: Any, people: tuple[Any, ...] = ()) -> Tournament:
    """The tournament for a change to it, its row locked to the end of the transaction, after its people's
    (:func:`lock_people`).

    The people are read before their locks, so a replacement committed in between (or a merge moving a
    participant to another record) would leave a person unheld, held later out of the order of locks
    (``lock_night``'s players, after the tournament's and the night's rows): a merge of them at that instant
    waited for the change while the change waited for it, a deadlock. So they are read again under the
    tournament's lock, where they no longer change (every change of the participants holds it: an entry, a
    replacement, a merge bumps the tournament); where the set grew, the locks are given back (a savepoint
    rolled back releases its row locks) and taken again, in order, with the new people. SQLite's ``BEGIN
    IMMEDIATE`` serialises the writers: one pass there.

    :raises NotFound: for an unknown one; :raises Conflict: for a closed one.
    """
    ids = people_of(db, tournament_id, people)
    while True:
        held = db.begin_nested()
        try:
            lock_people(db, tournament_id, people, ids)
            t = get_tournament(db=db, tournament_id=tournament_id, lock=True)
            now = people_of(db, tournament_id, people)
        except BaseException:
            held.rollback()
            raise
        if now <= ids:
            held.commit()  # the savepoint released, its locks kept to the transaction's end
            break
        held.rollback()
        ids |= now
    if not t.is_open:
        raise Conflict("this tournament is closed: nothing can be changed")
    return t


def set_rules(*, db: Session, tournament_id: Any, rules: Any) -> Tournament:
    """Change the rule set before round 1 starts (a table of round 1 drawn already plays it too);
    from then on it is fixed."""
    t = open_tournament(db, tournament_id)
    if round_started(db, t, 1):
        raise Conflict("round 1 has started: the rules are fixed for the whole tournament")
    t.rules = _complete_rules(t.game, rules)
    for night_id in db.exec(select(Night.id).where(Night.tournament_id == t.id).order_by(Night.id)).all():
        night = lock_night(db=db, night_id=night_id)
        night.rules = t.rules
        bump(db=db, night=night)  # a table's phone open on it reloads its form for the new rules
    bump_tournament(db, t)
    db.commit()
    return t


def last_round(db: Session, t: Tournament) -> int:
    return db.exec(select(func.max(TournamentRound.number)).where(TournamentRound.tournament_id == t.id)).one() or 0


def round_done(db: Session, t: Tournament, number: int) -> bool:
    return (
        db.exec(
            select(Night.id)
            .join(TournamentTable, TournamentTable.night_id == Night.id)
            .where(TournamentTable.tournament_id == t.id, TournamentTable.round == number, Night.status == OPEN)
            .limit(1)
        ).first()
        is None
    )


def round_started(db: Session, t: Tournament, number: int) -> bool:
    """Whether round ``number`` has started (:func:`started_rounds`).

    The round's table nights are locked first (the lock a hand takes, in id order: docs/architecture.md,
    "The order of locks"), so that the answer holds to the end of the transaction: a hand saved at the same
    moment either is counted here or waits, and then finds its table drawn again (gone)."""
    nights = select(TournamentTable.night_id).where(
        TournamentTable.tournament_id == t.id, TournamentTable.round == number
    )
    db.exec(select(Night.id).where(Night.id.in_(nights)).order_by(Night.id).with_for_update()).all()
    return number in started_rounds(db, t, number)


def close_tournament(*, db: Session, tournament_id: Any) -> Tournament:
    """Close the tournament when every round is over: it is locked, its standings final."""
    t = open_tournament(db, tournament_id)
    last = last_round(db, t)
    playing = db.exec(  # the first round with a table open: the last, or one reopened to correct it
        select(func.min(TournamentTable.round))
        .join(Night, TournamentTable.night_id == Night.id)
        .where(TournamentTable.tournament_id == t.id, Night.status == OPEN)
    ).one()
    if last < t.rounds:  # the rounds not drawn yet, and the last drawn while it is played
        raise Conflict(
            *N_plural(
                "the tournament is not over: {n} round is to be played",
                "the tournament is not over: {n} rounds are to be played",
            ),
            n=t.rounds - last + (playing == last),
        )
    if playing is not None:
        raise Conflict("round {n} is not over: every table must finish its deals first", n=playing)
    t.status = CLOSED
    t.closed_at = utcnow()
    bump_tournament(db, t)
    db.commit()
    return t


#: The most characters of a reason for reopening a tournament.
REASON_MAX = 200


def reopen_tournament(
    *, db: Session, tournament_id: Any, reason: Any, who: str | None = lifecycle.SYSTEM
) -> Tournament:
    """Open a closed tournament again (an admin, with a reason kept on the tournament and shown on
    its page): its standings are no longer final and its tables are no longer frozen, so that an
    admin can then reopen a table to correct it (:mod:`scorekeeper.core.lifecycle`).

    :raises InvalidInput: without a reason (1-200 characters, no control characters).
    :raises Conflict: for an open tournament, or ``who`` not an admin.
    """
    t = get_tournament(db=db, tournament_id=tournament_id, lock=True)
    refused = lifecycle.tournament_refusal(t, lifecycle.REOPEN, who)
    if refused is not None:
        raise refused
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason", "give a reason for reopening the tournament")
    reason = check_text(reason, "reason", REASON_MAX, required=True)
    t.status = OPEN
    t.closed_at = None
    t.reopened = [*(t.reopened or ()), {"at": utcnow().isoformat(timespec="seconds"), "reason": reason}]
    bump_tournament(db, t)
    db.commit()
    return t


def check_name(value: Any) -> str:
    """A tournament's name as it is stored (for forms that check before they create)."""
    return check_text(value, "name", NAME_MAX, required=True)
