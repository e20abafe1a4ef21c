"""Nights: starting one, its join code, closing and reopening it (audited).

Every change to a night happens in one transaction, bumps its ``version`` (the phones poll it)
and leaves an audit entry; the night's history rows are rewritten with it.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import delete, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from scorekeeper.core import history, lifecycle
from scorekeeper.core.errors import Conflict, InvalidInput, N_plural, NotFound
from scorekeeper.core.models import (
    CLOSED,
    CLUB_NIGHT,
    OPEN,
    POT_GONE,
    AuditEntry,
    ContractResult,
    DeletedNight,
    HandRecord,
    Night,
    NightResult,
    Player,
    Seat,
    new_uid,
    utcnow,
)
from scorekeeper.core.table import get_night, hand_rows, read_table
from scorekeeper.core.text import has_control, is_id, is_idempotency_key
from scorekeeper.engine import get_game
from scorekeeper.engine.rules import rules_to_json

__all__ = [
    "add_imported_night",
    "add_night",
    "bump",
    "change_night",
    "check_date",
    "close_night",
    "create_night",
    "delete_night",
    "deleted_nights",
    "get_night",
    "lock_night",
    "new_join_code",
    "pot_moved",
    "pot_waiting",
    "pots_from_nowhere",
    "pots_gone",
    "reopen_night",
    "start_night",
]

STAKE_MAX_CENTS = 100_000
PLACE_MAX = 80
REASON_MAX = 200
FIRST_DAY = date(1900, 1, 1)  # no club played before; a year after today is as far as a typo goes


def last_day(today: date | None = None) -> date:
    """The last date a night may have: a year after today (a night planned ahead)."""
    today = today or date.today()
    return today.replace(year=today.year + 1) if (today.month, today.day) != (2, 29) else date(today.year + 1, 3, 1)


def check_date(played_on: Any, today: date | None = None) -> date:
    """A night's date: from 1900-01-01 to a year after today.

    >>> check_date(date(2026, 3, 14), date(2026, 11, 22))
    datetime.date(2026, 3, 14)

    :raises InvalidInput: for anything else (a date far off breaks every season's arithmetic).
    """
    last = last_day(today)
    if not isinstance(played_on, date) or not FIRST_DAY <= played_on <= last:
        raise InvalidInput(
            "played_on", "the date must be from {first} to {last}", first=FIRST_DAY.isoformat(), last=last.isoformat()
        )
    return played_on


def create_night(*, db: Session, **night: Any) -> Night:
    """Start a night: the complete rule set is stored with it and never changes under it. Takes
    :func:`add_night`'s keywords.

    :raises InvalidHand: for a bad game or rule set (from the engine).
    :raises InvalidInput: for bad players, seats, stake, currency or place.
    """
    night = add_night(db=db, **night)
    db.commit()
    return night


def start_night(*, db: Session, key: Any, by: int | None, **night: Any) -> tuple[Night, bool]:
    """Start a night once per one-time ``key`` (a start form's, the API's ``Idempotency-Key``) of the
    account ``by``: the same key again leads to the night it started (a form sent twice on slow Wi-Fi).
    Returns the night and whether it is new. No key: :func:`create_night`.

    The key names the night's uid (a hash of account and key), so a second post finds it, also one
    sent at the same moment (the uid is unique). A night deleted since is not brought back: a new one
    starts with a uid of its own (the deleted night's export keeps its uid, to be imported again).

    :raises InvalidInput: for a key that is no idempotency key, and as :func:`create_night`.
    """
    if key is None:
        return create_night(db=db, **night), True
    if not is_idempotency_key(key):
        raise InvalidInput("idempotency_key", "the idempotency key must be 1 to 64 printable ASCII characters")
    uid = hashlib.sha256(f"{by}:{key}".encode()).hexdigest()[:32]
    earlier = db.exec(select(Night).where(Night.uid == uid)).first()
    if earlier is not None:
        return earlier, False
    if db.exec(select(DeletedNight.id).where(DeletedNight.uid == uid)).first() is not None:
        uid = new_uid()
    try:
        return create_night(db=db, uid=uid, **night), True
    except IntegrityError:  # the same key's night, started by a post at the same moment
        db.rollback()
        earlier = db.exec(select(Night).where(Night.uid == uid)).first()
        if earlier is None:
            raise
        return earlier, False


def add_night(
    *,
    db: Session,
    game: Any,
    rules: Any,
    stake_cents: Any,
    player_ids: Any,
    first_dealer: Any,
    played_on: date | None = None,
    place: str = "",
    currency: str = "EUR",
    tournament_id: int | None = None,
    deals: int | None = None,
    uid: str | None = None,
) -> Night:
    """A new night (:func:`create_night`), not committed: ``game``, ``rules``, ``stake_cents``, the
    ``player_ids`` in seat order, the ``first_dealer``, date, place and currency; a tournament's
    table names its tournament and the deals it plays (:mod:`scorekeeper.core.tournaments`).
    ``uid``: the night's (:func:`start_night`), else a new one."""
    g = get_game(game)
    complete = rules_to_json(g.parse_rules(rules))
    if type(stake_cents) is not int or not 0 <= stake_cents <= STAKE_MAX_CENTS:
        raise InvalidInput("stake_cents", "the stake must be a whole number of cents from 0 to {n}", n=STAKE_MAX_CENTS)
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isascii() or not currency.isalpha():
        raise InvalidInput("currency", "the currency must be a three-letter code such as EUR")
    place = _clean_place(place)
    if not isinstance(player_ids, list) or not all(type(p) is int for p in player_ids):
        raise InvalidInput("players", "the players must be a list of player ids in seat order")
    sizes = g.table_sizes
    if len(player_ids) not in sizes:
        if len(sizes) == 1:
            raise InvalidInput(
                "players", "{game} is played by {a} players, not {n}", game=g.name, a=sizes[0], n=len(player_ids)
            )
        raise InvalidInput(
            "players",
            "{game} is played by {a} or {b} players, not {n}",
            game=g.name,
            a=sizes[0],
            b=sizes[1],
            n=len(player_ids),
        )
    if len(set(player_ids)) != len(player_ids):
        raise InvalidInput("players", "a player cannot sit at two seats")
    out_of_range = [p for p in player_ids if not is_id(p)]
    if out_of_range:
        raise InvalidInput("players", "there is no player {id}", id=out_of_range[0])
    known = select(Player.id).where(Player.id.in_(player_ids))
    if tournament_id is None:  # a tournament's guest is no player of the club: never at a club night
        known = known.where(Player.guest == False)  # noqa: E712
    found = set(db.exec(known))
    missing = [p for p in player_ids if p not in found]
    if missing:
        raise InvalidInput("players", "there is no player {id}", id=missing[0])
    if type(first_dealer) is not int or not 1 <= first_dealer <= len(player_ids):
        raise InvalidInput("first_dealer", "the first dealer must be a seat from 1 to {n}", n=len(player_ids))
    pot_start, pots = (
        (0, [])
        if tournament_id is not None
        else _carried_pot(db, g.name, g.parse_rules(complete), stake_cents, currency)
    )
    night = Night(
        game=g.name,
        pot_start=pot_start,
        rules=complete,
        stake_cents=stake_cents,
        currency=currency.upper(),
        played_on=date.today() if played_on is None else check_date(played_on),
        place=place,
        seat_count=len(player_ids),
        first_dealer=first_dealer,
        join_code=new_join_code(db),
        tournament_id=tournament_id,
        deals=deals,
        uid=uid or new_uid(),
    )
    db.add(night)
    for source, units in pots:  # the pots it takes are taken: they wait no longer
        source.pot_to, source.pot_given = night.uid, units
        db.add(source)
    db.flush()
    for position, player_id in enumerate(player_ids, start=1):
        db.add(Seat(night_id=night.id, position=position, player_id=player_id))
    history.refresh(db=db, night=night, hands=[])
    return night


#: Join codes: no 0/O, 1/I/L, so that a code read aloud at the table is typed right.
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


JOIN_LENGTH = 6


def new_join_code(db: Session) -> str:
    """A join code no night has (an open night's code lets another phone record its hands)."""
    while True:
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))
        if db.exec(select(Night.id).where(Night.join_code == code)).first() is None:
            return code


def _waiting_pots(db: Session, game: str) -> list[Night]:
    """The pots of ``game`` waiting for the club's next night that plays a pot: those of the club nights
    closed at least once (closed now, or reopened since: one reopened gives its pot as it stands) whose
    rules carry their pot and which no night took yet, oldest first. Their rows are locked to the end of
    the transaction, so that of two nights started at the same moment one takes them, the other none
    (on SQLite the write session's ``BEGIN IMMEDIATE`` holds the whole database)."""
    closed_once = or_(
        col(Night.closed_at).is_not(None),
        select(AuditEntry.id).where(AuditEntry.night_id == Night.id, AuditEntry.action == "close").exists(),
    )
    nights = db.exec(
        select(Night)
        .where(col(Night.game) == game, CLUB_NIGHT, col(Night.pot_to).is_(None), closed_once)
        .order_by(Night.created_at, Night.id)
        .with_for_update()
    ).all()
    g = get_game(game)
    return [n for n in nights if g.carries_pot(g.parse_rules(n.rules))]


def closed_once(*, db: Session, night: Night) -> bool:
    """Whether ``night`` was ever closed (closed now, or reopened since): from its close on its pot waits."""
    return night.closed_at is not None or (
        db.exec(select(AuditEntry.id).where(AuditEntry.night_id == night.id, AuditEntry.action == "close")).first()
        is not None
    )


def pot_waiting(*, db: Session, night: Night) -> int | None:
    """The units of ``night``'s pot when it waits for the club's next night that plays a pot
    (:func:`_waiting_pots`' rule: a club night closed once whose rules carry its pot and which no night took),
    as it stands now; ``None`` when it does not wait."""
    g = get_game(night.game)
    if night.tournament_id is not None or night.pot_to is not None or not closed_once(db=db, night=night):
        return None
    if not g.carries_pot(g.parse_rules(night.rules)):
        return None
    return read_table(db=db, night=night, newest=1).settlement.pot or 0


def _carried_pot(
    db: Session, game: str, rules: Any, stake_cents: int, currency: str
) -> tuple[int, list[tuple[Night, int]]]:
    """The units a new club night's pot starts with (Schafkopf), and the nights whose pots it takes with
    the units each gives: every pot waiting (:func:`_waiting_pots`) of its kind, when its rules play a pot.

    A pot is money paid in at its night's stake: a night with a stake takes the pots of money in its
    currency, as the same money in whole, even units (80 cents carried at 10 cents a unit are 8 units,
    at 20 cents 4); a night at a stake of 0 takes the pots of units alone. A pot of the other kind waits
    for a night of its kind. A pot of 0 is taken too: corrected later, both nights name it (:func:`pot_moved`).

    :raises InvalidInput: for a stake at which the pots' money is no whole, even number of units: the night
        is started at the pots' stake, or at one that fits.
    """
    g = get_game(game)
    if not g.takes_pot(rules):
        return 0, []
    currency = currency.upper()
    pots = [
        (n, read_table(db=db, night=n, newest=1).settlement.pot or 0)  # from the stored state after its last hand
        for n in _waiting_pots(db, game)
        if (n.stake_cents == 0) == (stake_cents == 0) and (stake_cents == 0 or n.currency == currency)
    ]
    if stake_cents == 0:
        return sum(units for _, units in pots), pots
    cents = sum(units * n.stake_cents for n, units in pots)
    if cents % stake_cents == 0 and cents // stake_cents % 2 == 0:
        return cents // stake_cents, pots
    stakes = {n.stake_cents for n, _ in pots}
    if len(stakes) == 1:
        units = sum(units for _night, units in pots)
        raise InvalidInput(
            "stake_cents",
            "the pot carried in holds {cents} cents ({units} units at {stake}): choose {stake} cents, or a stake "
            "that makes {cents} cents an even number of units",
            units=units,
            stake=stakes.pop(),
            cents=cents,
        )
    raise InvalidInput(
        "stake_cents",
        "the pots carried in hold {cents} cents: choose a stake that makes {cents} cents an even number of units",
        cents=cents,
    )


def _pot_taker(db: Session, night: Night) -> Night | None:
    """The night that took ``night``'s carried pot (``Night.pot_to``), when it is here."""
    if not night.pot_to:
        return None
    return db.exec(select(Night).where(Night.uid == night.pot_to)).first()


@dataclass(frozen=True)
class PotMoved:
    """A carried pot that changed after the next night took it: the night it came from was reopened and
    corrected since. Neither night's figures change; the difference is settled by hand (docs/rules.md,
    "The pot carried to the next night"). In cents; in units where the pot is of units alone (the night
    it came from played at a stake of 0, and so does the night that took it: ``_carried_pot``)."""

    gave: bool  # True: said of the night the pot came from (the other took it); False: of the night that took it
    other_id: int  # the other night of the two
    other_played_on: date
    took: int  # what the later night took in
    now: int  # what the earlier night carries out now
    in_units: bool = False

    @property
    def difference(self) -> int:
        return abs(self.now - self.took)


def pot_moved(*, db: Session, night: Night) -> tuple[PotMoved, ...]:
    """The carried pots of ``night`` that changed after the next night took them: the pots it carried in
    (their nights corrected since), then the pot it carried out (``night`` corrected since); none where they
    did not, or ``night`` neither took a pot nor carried one to a later night."""
    pairs = []
    if night.tournament_id is None:  # a tournament's table takes no pot and gives none
        sources = db.exec(select(Night).where(Night.pot_to == night.uid).order_by(Night.created_at, Night.id))
        pairs += [(source, night, False) for source in sources]
        if not night.is_open and (taker := _pot_taker(db, night)) is not None:
            pairs.append((night, taker, True))
    moved = []
    for earlier, later, gave in pairs:  # the earlier night's pot, now and as it gave it
        units = read_table(db=db, night=earlier, newest=1).settlement.pot or 0
        in_units = earlier.stake_cents == 0  # a pot of units alone (only a night at a stake of 0 takes it)
        now, took = units, earlier.pot_given or 0
        if not in_units:
            now, took = now * earlier.stake_cents, took * earlier.stake_cents
        if now != took:
            other = later if gave else earlier
            moved.append(PotMoved(gave, other.id, other.played_on, took, now, in_units))
    return tuple(moved)


def pot_gap(night: Night, sources: list[Any]) -> str | None:
    """What is wrong with where ``night``'s pot to start with came from, in English; ``None`` where the nights
    whose pots it took (their ``pot_to`` names it, ``sources``: their stake, currency and ``pot_given``) gave
    it what it starts with: as money at its stake (8 units at 10 cents are 4 at 20), as units at a stake of 0
    (``_carried_pot``'s rule). A tournament's table takes no pot."""
    start = night.pot_start or 0
    kinds = True  # the pots it took are of its kind: money in its currency, or units at a stake of 0
    if night.tournament_id is not None:  # it takes none: it starts with none, and no night's pot names it
        if start:
            return f"starts with a pot of {start} units, but a tournament's table takes no pot"
        gave = 0
    elif night.stake_cents == 0:
        kinds = all(s.stake_cents == 0 for s in sources)
        gave = sum(s.pot_given or 0 for s in sources) if kinds else -1
    else:
        kinds = all(s.stake_cents > 0 and s.currency == night.currency for s in sources)
        cents = sum((s.pot_given or 0) * s.stake_cents for s in sources)
        gave = cents // night.stake_cents if kinds and cents % night.stake_cents == 0 else -1
    if gave == start and (night.tournament_id is None or not sources):
        return None
    if not sources:
        return (
            f"starts with a pot of {start} units that no night here gave it: a pot from nowhere "
            "(a night's pot another night took, or a pot no night carried)"
        )
    if not kinds:
        return (
            f"starts with a pot of {start} units, but the pots it took are of another kind: "
            + ("money, not units at a stake of 0" if night.stake_cents == 0 else f"not money in {night.currency}")
            + " (a pot waits for a night of its kind)"
        )
    return (
        f"starts with a pot of {start} units, but the pots it took give it "
        + (f"{gave} units" if gave >= 0 else "no whole number of units at its stake")
        + ": the difference comes from nowhere"
    )


def _pot_sources(db: Session, uids: list[str]) -> dict[str, list[Any]]:
    """The nights whose pots the nights of ``uids`` took, by the uid of the night that took them."""
    rows = db.exec(
        select(Night.pot_to, Night.stake_cents, Night.currency, Night.pot_given).where(col(Night.pot_to).in_(uids))
    ).all()
    by: dict[str, list[Any]] = {}
    for row in rows:
        by.setdefault(row.pot_to, []).append(row)
    return by


def pot_from_nowhere(*, db: Session, night: Night) -> str | None:
    """Whether ``night``'s pot to start with came from the nights whose pots it took: ``None``, or what is wrong
    (English; an import refuses the night, ``manage.py verify`` names it). A pot paid out twice shows here: the
    second night to hold it holds it from nowhere (a night's ``pot_to`` names one night)."""
    return pot_gap(night, _pot_sources(db, [night.uid]).get(night.uid, []))


def pots_from_nowhere(*, db: Session) -> list[tuple[Night, str]]:
    """Every night whose pot to start with no night gave it (:func:`pot_from_nowhere`), oldest first."""
    nights = list(db.exec(select(Night).order_by(Night.created_at, Night.id)))
    rows = db.exec(
        select(Night.pot_to, Night.stake_cents, Night.currency, Night.pot_given).where(
            col(Night.pot_to).is_not(None), col(Night.pot_to) != ""
        )
    ).all()
    by: dict[str, list[Any]] = {}
    for row in rows:
        by.setdefault(row.pot_to, []).append(row)
    found = []
    for night in nights:
        if (gap := pot_gap(night, by.get(night.uid, []))) is not None:
            found.append((night, gap))
    return found


def pots_gone(*, db: Session) -> list[tuple[Night, int]]:
    """The closed club nights whose carried pot went to no night here though it holds units: gone before where a
    pot went was recorded (``POT_GONE``: migration 0016, a club's file of before), where the rule of then gave
    the next night another night's pot (a night without a pot closed after it, a night closed after it) or the
    night that took it is gone; each with the units its pot holds, oldest first. Their settlement says the pot
    was carried to the club's next night: no night took it, and it waits for none (``manage.py verify`` names
    them, for the club to settle by hand)."""
    found = []
    nights = db.exec(
        select(Night)
        .where(CLUB_NIGHT, Night.status == CLOSED, Night.pot_to == POT_GONE)
        .order_by(Night.created_at, Night.id)
    )
    for night in nights:
        g = get_game(night.game)
        if g.carries_pot(g.parse_rules(night.rules)):
            units = read_table(db=db, night=night, newest=1).settlement.pot or 0
            if units:
                found.append((night, units))
    return found


def lock_night(*, db: Session, night_id: int) -> Night:
    """The night for a change to it, its row locked to the end of the transaction
    (``SELECT ... FOR UPDATE``; read afresh even if the session holds it already), after its
    players' rows (:func:`_hold_seated`).

    Two changes of the same night (two phones recording at once) take their turns here
    instead of both numbering the same next hand. SQLite has no row locks: there a write
    session's ``BEGIN IMMEDIATE`` (:func:`scorekeeper.db.session`) holds the whole database.

    :raises NotFound: for an unknown night.
    """
    if not is_id(night_id):
        raise NotFound(f"no night {night_id}")
    if db.get_bind().dialect.name != "postgresql":
        night = db.get(Night, night_id, with_for_update=True, populate_existing=True)
    else:
        night = _lock_night_after_seated(db, night_id)
    if night is None:
        raise NotFound(f"no night {night_id}")
    return night


def _lock_night_after_seated(db: Session, night_id: int) -> Night | None:
    """PostgreSQL: the night's row locked after its players' (:func:`_hold_seated`), the players held
    being those seated once the night is locked.

    The seats are read before the night's lock, and a seat can change in between: a tournament's
    replacement seats its new person holding the night, and the writer waiting for the night then
    finds a person seated that it does not hold. Holding them then would take a player's lock after a
    night's (a merge of that person holds them and waits for the night's rows, or for the tournament's
    row a caller holds, while the writer waits for them: a deadlock). So the night is locked in a
    savepoint: where the seats hold someone not held, the savepoint is rolled back, which releases the
    locks taken in it (PostgreSQL releases row locks at a savepoint's rollback), and it starts over,
    players first. Each turn follows a change committed by another writer holding this night, so it
    ends (in practice at the second turn)."""
    while True:
        turn = db.begin_nested()
        held = _hold_seated(db, night_id)
        night = db.get(Night, night_id, with_for_update=True, populate_existing=True)
        if night is None or set(db.exec(select(Seat.player_id).where(Seat.night_id == night_id))) <= held:
            turn.commit()  # RELEASE SAVEPOINT: the locks stay to the end of the transaction
            return night
        turn.rollback()


def _hold_seated(db: Session, night_id: int) -> set[int]:
    """PostgreSQL: hold the rows of the night's players ``FOR KEY SHARE`` (in id order) before its row:
    the app's one order of locks, players first (docs/architecture.md, "The order of locks"). A change
    of the night writes rows naming its players (a hand's history rows: ``night_result``,
    ``contract_result``), whose foreign keys take these locks anyway, but after the night's: a merge of
    one of them at that moment holds that player and waits for the night's history rows, and the two
    waited for each other (a deadlock). Now the merge waits for the change, or the change for the
    merge (and then seats the kept record). ``FOR KEY SHARE`` waits for nothing but a merge, a guest
    made a member or a deletion of that player: two phones, a rename, a tournament's change go on.
    The ids of the players held (a seat changed meanwhile: :func:`_lock_night_after_seated`)."""
    seated = select(Seat.player_id).where(Seat.night_id == night_id)
    query = select(Player.id).where(col(Player.id).in_(seated)).order_by(Player.id)
    return set(db.exec(query.with_for_update(read=True, key_share=True)).all())


def bump(*, db: Session, night: Night) -> None:
    """The night's version moves on (the phones poll it, its kept PDF goes by it); ``night`` locked by this
    transaction (:func:`lock_night`). Alone (no audit entry) for a change the night shows but does not own:
    a tournament's replacement seated or its paper entered (core/tournaments/), hands imported
    (core/hands.py). (A player renamed or merged moves the roster's stamp instead: core/players.py.)"""
    night.version += 1
    db.add(night)


def touch(
    *, db: Session, night: Night, action: str, number: int, before: Any, after: Any, key: str | None = None
) -> None:
    """A change of the night: its version moves on (phones poll it) and the audit trail keeps it; ``key``:
    an undone hand's idempotency key, kept so the hand sent again with it is not recorded again."""
    bump(db=db, night=night)
    db.add(
        AuditEntry(
            night_id=night.id, hand_number=number, action=action, before=before, after=after, idempotency_key=key
        )
    )


def close_night(*, db: Session, night_id: int, who: str | None = lifecycle.SYSTEM) -> Night:
    """Close a night: it is locked (no record, edit or undo) until it is reopened. ``who`` asks
    (:mod:`scorekeeper.core.lifecycle`: a tournament's table is closed by the organiser, never by its phone).

    Its join code expires: guests who joined with it can't come back, also not after a reopening.

    :raises Conflict: when the night's life does not allow it now, or not to ``who``.
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.CLOSE, who)
    close_locked(db=db, night=night, why=None if night.tournament_id is None else "organiser")
    db.commit()
    return night


def close_locked(*, db: Session, night: Night, why: str | None = None) -> None:
    """Close a night already locked by this transaction (not committed); ``why`` goes to the audit
    trail (a tournament's table closes itself after its last deal)."""
    night.status = CLOSED
    night.closed_at = utcnow()
    if night.tournament_id is None:  # a tournament table's phone keeps seeing its finished table
        night.join_code = None
        _pays_pot(db=db, night=night)
    touch(db=db, night=night, action="close", number=None, before=None, after=None if why is None else {"why": why})


def _pays_pot(*, db: Session, night: Night) -> None:
    """A club night's history rows rewritten as it is closed or reopened: the share of a pot split at the close
    is paid at the close (``summary.night_money``), so the rows gain it at the close and lose it at a
    reopening (docs/rules.md, "The club's history")."""
    history.refresh(db=db, night=night, hands=hand_rows(db=db, night_id=night.id))


def reopen_night(*, db: Session, night_id: int, reason: Any, who: str | None = lifecycle.SYSTEM) -> Night:
    """Open a closed night again; the reason is kept in the audit trail. A table of a closed
    tournament stays closed (:mod:`scorekeeper.core.lifecycle`).

    :raises InvalidInput: without a reason (1-200 characters, no control characters).
    :raises Conflict: when the night's life does not allow it now, or not to ``who``.
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.REOPEN, who)
    reason = _clean_reason(reason)
    night.status = OPEN
    night.closed_at = None
    if night.tournament_id is None or night.join_code is None:  # a table's code is on its printed card
        night.join_code = new_join_code(db)  # a new one: the guests of before join again
    if night.tournament_id is None:
        _pays_pot(db=db, night=night)
    touch(db=db, night=night, action="reopen", number=None, before=None, after={"reason": reason})
    db.commit()
    return night


def _clean_reason(reason: Any) -> str:
    """A reason for the audit trail: 1-200 characters, no control characters."""
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason", "give a reason for reopening the night")
    reason = unicodedata.normalize("NFC", reason).strip()
    if len(reason) > REASON_MAX or has_control(reason):
        raise InvalidInput(
            "reason",
            *N_plural(
                "the reason may have at most {n} character and no control characters",
                "the reason may have at most {n} characters and no control characters",
            ),
            n=REASON_MAX,
        )
    return reason


def _clean_place(place: Any) -> str:
    """A night's place: trimmed, at most 80 characters, no control characters."""
    if not isinstance(place, str) or len(place.strip()) > PLACE_MAX:
        raise InvalidInput("place", "the place may have at most 80 characters")
    if has_control(place):
        raise InvalidInput("place", "the place must not contain control characters")
    return place.strip()


def add_imported_night(
    *, db: Session, columns: dict[str, Any], player_ids: list[int], pot_from: tuple[tuple[str, int], ...] = ()
) -> Night:
    """Write a night read from an export file (checked and settled by the reader) with its seats,
    as it was; its hands follow through :func:`scorekeeper.core.hands.add_imported_hands` (not
    committed: an import of a whole club is one transaction). ``pot_from``: the pots it took (each
    night's uid and the units it gave): those waiting here are its again (a night deleted gave them back);
    one another night took meanwhile stays with that night."""
    night = Night(**columns)
    db.add(night)
    for uid, units in pot_from:
        db.exec(
            update(Night)
            .where(col(Night.uid) == uid, col(Night.pot_to).is_(None))
            .values(pot_to=night.uid, pot_given=units)
        )
    db.flush()
    db.add_all(Seat(night_id=night.id, position=i, player_id=p) for i, p in enumerate(player_ids, start=1))
    db.flush()
    return night


def change_night(
    *, db: Session, night_id: int, played_on: Any, place: Any, who: str | None = lifecycle.SYSTEM
) -> Night:
    """Correct a night's date and place (an admin's job); audited, and its history rows follow.

    :raises InvalidInput: for a date out of range or a bad place.
    :raises Conflict: when the night's life does not allow it (a table of a closed tournament).
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.CHANGE, who)
    day, where = check_date(played_on), _clean_place(place)
    before = {"played_on": night.played_on.isoformat(), "place": night.place}
    after = {"played_on": day.isoformat(), "place": where}
    if before != after:
        night.played_on, night.place = day, where
        touch(db=db, night=night, action="change", number=None, before=before, after=after)
        history.refresh(db=db, night=night, hands=hand_rows(db=db, night_id=night.id))
        db.commit()
    return night


def delete_night(
    *, db: Session, night_id: int, reason: Any, export: dict[str, Any], who: str | None = lifecycle.SYSTEM
) -> DeletedNight:
    """Delete a night started by mistake (an admin's job): its seats, hands, audit trail and history
    rows go with it. The deletion is kept with the reason and the night's whole export (``export``:
    :func:`scorekeeper.core.exchange.night_file.night_json`), so importing that brings the night back.

    :raises InvalidInput: without a reason (1-200 characters, no control characters).
    The pots it took, if any, wait again for the club's next night that plays a pot.

    :raises Conflict: for a night whose carried pot a later night took: that night would hold a pot from
        nowhere.
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.DELETE, who)
    reason = _clean_reason(reason)
    if (taker := _pot_taker(db, night)) is not None:
        raise Conflict(
            "this night's pot went to the night of {date}, which holds it: delete that night first",
            date=taker.played_on,
        )
    db.exec(update(Night).where(col(Night.pot_to) == night.uid).values(pot_to=None, pot_given=None))
    record = DeletedNight(
        uid=night.uid, game=night.game, played_on=night.played_on, reason=reason, export=export, version=night.version
    )
    for model in (ContractResult, NightResult, AuditEntry, HandRecord, Seat):
        db.exec(delete(model).where(model.night_id == night.id))
    db.delete(night)
    db.add(record)
    db.commit()
    return record


def deleted_nights(*, db: Session) -> list[DeletedNight]:
    """The nights deleted so far, newest first."""
    return list(db.exec(select(DeletedNight).order_by(DeletedNight.id.desc())))
