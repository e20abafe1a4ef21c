"""Keyword-only functions the views and the API call; the only place that writes.

Every change to an evening's hands is validated by settling the whole evening
with the engine (edits can make later hands invalid), happens in one
transaction, bumps the evening's ``version`` and leaves an audit entry.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from .engine import GAMES, InvalidHand, Settlement, get_game, ledger, settle_session
from .engine.rules import rules_to_json
from .models import AuditEntry, ContractResult, Evening, HandRecord, NightResult, Player, RosterChange, Seat, utcnow

#: Table sizes each game may be played at (five: the dealer sits out each hand).
TABLE_SIZES = {"matzlfangen": (4, 5), "schafkopf": (4, 5), "konter_a_matt": (4,), "matt": (2,)}
NAME_MAX = 40
STAKE_MAX_CENTS = 100_000


class InvalidInput(ValueError):
    """Input refused before it reaches the engine (names, seats, stakes); names the field.

    ``template`` is the English message with ``{name}`` placeholders (a msgid of
    the translations), ``params`` fill it; ``message`` is the English text.
    """

    def __init__(self, field: str, template: str, **params: Any) -> None:
        self.field = field
        self.template = template
        self.params = params
        self.message = template.format(**params)
        super().__init__(f"{field}: {self.message}")


class NotFound(LookupError):
    """No such player, evening or hand."""


class Conflict(Exception):
    """The evening changed under the request (another phone was quicker), or is closed."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        self.message = template.format(**params)
        super().__init__(self.message)


# --- players -----------------------------------------------------------------


#: Characters no name or place may hold: controls, line breaks, and direction overrides that
#: would scramble the text around them. (Joiners inside emoji are fine.)
_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ID_MAX = 2**31 - 1  # ids beyond what every database's integer holds are simply unknown


def has_control(text: str) -> bool:
    """Whether a text holds control characters, line breaks or direction overrides."""
    return any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI_OVERRIDES for c in text)


def clean_name(name: Any) -> str:
    """Trimmed, NFC-normalised, 1-40 characters, no control characters.

    :raises InvalidInput: otherwise.
    """
    if not isinstance(name, str):
        raise InvalidInput("name", "the name must be a text")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise InvalidInput("name", "the name must not be empty")
    if len(name) > NAME_MAX:
        raise InvalidInput("name", "the name may have at most {n} characters", n=NAME_MAX)
    if has_control(name):
        raise InvalidInput("name", "the name must not contain control characters")
    return name


def _name_taken(db: Session, name: str, except_id: int | None = None) -> bool:
    """Whether another player has this name, ignoring case in every alphabet (Ölfa = ölfa).

    Compared in Python: SQLite's lower() knows only ASCII, and a club's roster is small.
    """
    key = name_key(name)
    return any(name_key(p.name) == key and p.id != except_id for p in db.exec(select(Player)))


def name_key(name: str) -> str:
    """What makes two names the same person's: equal ignoring case, in every alphabet."""
    return name.casefold()


def create_player(*, db: Session, name: Any) -> Player:
    """Add a player to the roster; names are unique (ignoring case)."""
    name = clean_name(name)
    if _name_taken(db, name):
        raise InvalidInput("name", "there is already a player called {name}", name=name)
    player = Player(name=name)
    db.add(player)
    try:
        db.commit()
    except IntegrityError:
        db.rollback()
        raise InvalidInput("name", "there is already a player called {name}", name=name) from None
    return player


def get_player(*, db: Session, player_id: int) -> Player:
    """:raises NotFound: for an unknown player."""
    player = db.get(Player, player_id) if type(player_id) is int and 0 < player_id <= ID_MAX else None
    if player is None:
        raise NotFound(f"no player {player_id}")
    return player


def rename_player(*, db: Session, player_id: int, name: Any) -> Player:
    """Give a player a new name (history follows: it is the same record); audited."""
    player = get_player(db=db, player_id=player_id)
    name = clean_name(name)
    if _name_taken(db, name, except_id=player_id):
        raise InvalidInput("name", "there is already a player called {name}", name=name)
    if name != player.name:
        db.add(RosterChange(action="rename", player_id=player.id, detail={"before": player.name, "after": name}))
    player.name = name
    db.add(player)
    db.commit()
    return player


def retire_player(*, db: Session, player_id: int, retired: bool = True) -> Player:
    """Take a player off the seat pickers (or bring them back); their history stays. Audited."""
    player = get_player(db=db, player_id=player_id)
    if player.retired != retired:
        player.retired = retired
        db.add(player)
        db.add(
            RosterChange(action="retire" if retired else "unretire", player_id=player.id, detail={"name": player.name})
        )
        db.commit()
    return player


def merge_players(*, db: Session, keep_id: int, merge_id: int) -> Player:
    """Make two records of the same person one: every seat and result of ``merge_id`` goes to
    ``keep_id``, which keeps its name; the other record is deleted. Audited, in one transaction.

    :raises InvalidInput: for the same record twice, or two records that sat at the same night
        (they can't be one person).
    """
    keep = get_player(db=db, player_id=keep_id)
    merged = get_player(db=db, player_id=merge_id)
    if keep.id == merged.id:
        raise InvalidInput("other", "choose another player: a record cannot be merged with itself")
    nights_of = select(Seat.evening_id).where(Seat.player_id == keep.id)
    shared = db.exec(select(Seat.evening_id).where(Seat.player_id == merged.id, Seat.evening_id.in_(nights_of))).first()
    if shared is not None:
        raise InvalidInput(
            "other",
            "{name} and {other} sat at the same night (night {night}): they are two people",
            name=keep.name,
            other=merged.name,
            night=shared,
        )
    moved = len(db.exec(select(Seat.evening_id).where(Seat.player_id == merged.id)).all())
    for model in (Seat, NightResult, ContractResult, RosterChange):  # the duplicate's roster changes too
        db.exec(update(model).where(model.player_id == merged.id).values(player_id=keep.id))
    detail = {"kept": keep.name, "merged": merged.name, "merged_id": merged.id, "nights": moved}
    db.add(RosterChange(action="merge", player_id=keep.id, detail=detail))
    if merged.retired is False and keep.retired:
        keep.retired = False  # the merged record was still playing
        db.add(keep)
    db.delete(merged)
    db.commit()
    return keep


def roster_changes(*, db: Session, player_id: int | None = None) -> list[RosterChange]:
    """The roster's changes, oldest first (only one player's if given)."""
    query = select(RosterChange)
    if player_id is not None:
        query = query.where(RosterChange.player_id == player_id)
    return list(db.exec(query.order_by(RosterChange.id)))


def list_players(*, db: Session, active: bool = False) -> list[Player]:
    """The roster, by name (only the players not retired if ``active``)."""
    query = select(Player).where(Player.retired == False) if active else select(Player)  # noqa: E712
    return sorted(db.exec(query), key=lambda p: name_key(p.name))


# --- evenings ----------------------------------------------------------------


def create_evening(
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
) -> Evening:
    """Start a night: the complete rule set is stored with it and never changes under it.

    :raises InvalidHand: for a bad game or rule set (from the engine).
    :raises InvalidInput: for bad players, seats, stake, currency or place.
    """
    g = get_game(game)
    complete = rules_to_json(g.parse_rules(rules))
    if type(stake_cents) is not int or not 0 <= stake_cents <= STAKE_MAX_CENTS:
        raise InvalidInput("stake_cents", "the stake must be a whole number of cents from 0 to {n}", n=STAKE_MAX_CENTS)
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isascii() or not currency.isalpha():
        raise InvalidInput("currency", "the currency must be a three-letter code such as EUR")
    if not isinstance(place, str) or len(place.strip()) > 80:
        raise InvalidInput("place", "the place may have at most 80 characters")
    if has_control(place):
        raise InvalidInput("place", "the place must not contain control characters")
    if not isinstance(player_ids, list) or not all(type(p) is int for p in player_ids):
        raise InvalidInput("players", "the players must be a list of player ids in seat order")
    sizes = TABLE_SIZES[g.name]
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
    out_of_range = [p for p in player_ids if not 0 < p <= ID_MAX]
    if out_of_range:
        raise InvalidInput("players", "there is no player {id}", id=out_of_range[0])
    found = set(db.exec(select(Player.id).where(Player.id.in_(player_ids))))
    missing = [p for p in player_ids if p not in found]
    if missing:
        raise InvalidInput("players", "there is no player {id}", id=missing[0])
    if type(first_dealer) is not int or not 1 <= first_dealer <= len(player_ids):
        raise InvalidInput("first_dealer", "the first dealer must be a seat from 1 to {n}", n=len(player_ids))
    evening = Evening(
        game=g.name,
        pot_start=_carried_pot(db, complete) if g.name == "schafkopf" else 0,
        rules=complete,
        stake_cents=stake_cents,
        currency=currency.upper(),
        played_on=played_on or date.today(),
        place=place.strip(),
        seat_count=len(player_ids),
        first_dealer=first_dealer,
        join_code=new_join_code(db),
    )
    db.add(evening)
    db.flush()
    for position, player_id in enumerate(player_ids, start=1):
        db.add(Seat(evening_id=evening.id, position=position, player_id=player_id))
    refresh_results(db, evening, [])
    db.commit()
    return evening


#: Join codes: no 0/O, 1/I/L, so that a code read aloud at the table is typed right.
JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_LENGTH = 6


def new_join_code(db: Session) -> str:
    """A join code no night has (an open night's code lets another phone record its hands)."""
    while True:
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_LENGTH))
        if db.exec(select(Evening.id).where(Evening.join_code == code)).first() is None:
            return code


def _carried_pot(db: Session, rules: dict[str, Any]) -> int:
    """The units a new Schafkopf night's pot starts with: what the club's last closed Schafkopf
    night left under ``pot_at_close: carry``, unless a later Schafkopf night has taken it already."""
    if rules.get("all_pass") != "pot":
        return 0
    last = db.exec(
        select(Evening)
        .where(Evening.game == "schafkopf", Evening.status == "closed", Evening.closed_at.is_not(None))
        .order_by(Evening.closed_at.desc(), Evening.id.desc())
    ).first()
    if last is None or last.rules.get("pot_at_close") != "carry" or last.rules.get("all_pass") != "pot":
        return 0
    # taken when a Schafkopf night started after it closed already began with a pot (times, not ids:
    # an imported older night gets a new id)
    taken = db.exec(
        select(Evening.id).where(
            Evening.game == "schafkopf", Evening.created_at > last.closed_at, Evening.pot_start > 0
        )
    ).first()
    if taken is not None:
        return 0
    return _settle(last, [h.data for h in _hands(db, last.id)]).pot or 0


def get_evening(*, db: Session, evening_id: int) -> Evening:
    evening = db.get(Evening, evening_id) if 0 < evening_id <= ID_MAX else None
    if evening is None:
        raise NotFound(f"no evening {evening_id}")
    return evening


def _lock_evening(db: Session, evening_id: int) -> Evening:
    """The evening for a change to it, its row locked to the end of the transaction
    (``SELECT ... FOR UPDATE``; read afresh even if the session holds it already).

    Two changes of the same night (two phones recording at once) take their turns here
    instead of both numbering the same next hand. SQLite has no row locks: there a write
    session's ``BEGIN IMMEDIATE`` (:func:`scorekeeper.db.session`) holds the whole database.

    :raises NotFound: for an unknown evening.
    """
    evening = (
        db.get(Evening, evening_id, with_for_update=True, populate_existing=True) if 0 < evening_id <= ID_MAX else None
    )
    if evening is None:
        raise NotFound(f"no evening {evening_id}")
    return evening


# --- the table: an evening settled --------------------------------------------


class HandRow(NamedTuple):
    """A hand as the table reads it (what ``_hands`` selects)."""

    number: int
    dealer: int
    data: dict[str, Any]


@dataclass(frozen=True)
class Table:
    """An evening with its people, hands and settlement, as the pages and the API show it."""

    evening: Evening
    players: dict[int, Player]  # by table position
    hands: list[Any]  # rows or records with number, dealer, data
    settlement: Settlement
    positions: list[tuple[int, ...]]  # per hand: the table position of each engine seat
    rows: list[list[int]]  # per hand: units per table position
    balance: list[int]  # units per table position

    @property
    def size(self) -> int:
        return self.evening.seat_count

    def dealer_for(self, number: int) -> int:
        """The table position that deals hand ``number`` (1-based; the deal moves on by itself)."""
        return ledger.dealer_of(self.evening.first_dealer, self.size, number - 1)

    def forehand_for(self, number: int) -> int:
        """The table position after that dealer."""
        return ledger.forehand_of(self.dealer_for(number), self.size)

    def positions_for(self, number: int) -> tuple[int, ...]:
        """Who plays hand ``number``: the table position of each engine seat."""
        return ledger.seat_positions(self.size, GAMES[self.evening.game].seats, self.dealer_for(number))

    @property
    def next_dealer(self) -> int:
        return self.dealer_for(len(self.hands) + 1)

    def next_positions(self) -> tuple[int, ...]:
        """Who plays the next hand: table position of each engine seat."""
        return self.positions_for(len(self.hands) + 1)

    def with_hand(self, number: int, data: dict[str, Any]) -> Table:
        """This table with hand ``number`` replaced (or added as the next one), settled, not saved.

        :raises InvalidHand: when the engine refuses the hand or a later hand because of it.
        """
        hands = [h for h in self.hands if h.number != number]
        hands.insert(number - 1, HandRow(number, self.dealer_for(number), data))
        return build_table(self.evening, self.players, hands)

    def money(self, position: int) -> int:
        return ledger.cents(self.balance[position - 1], self.evening.stake_cents)


def _seats(db: Session, evening_id: int) -> dict[int, Player]:
    rows = db.exec(
        select(Seat.position, Player).join(Player, Player.id == Seat.player_id).where(Seat.evening_id == evening_id)
    )
    return {position: player for position, player in rows}


def _hands(db: Session, evening_id: int) -> list[Any]:
    """The night's hands as light rows (``number``, ``dealer``, ``data``), in order: reading 300
    of them as rows is several times quicker than as ORM objects, and pages only read."""
    query = (
        select(HandRecord.number, HandRecord.dealer, HandRecord.data)
        .where(HandRecord.evening_id == evening_id)
        .order_by(HandRecord.number)
    )
    return list(db.exec(query))


def _hand_record(db: Session, evening_id: int, number: int) -> HandRecord | None:
    return db.exec(select(HandRecord).where(HandRecord.evening_id == evening_id, HandRecord.number == number)).first()


def _settle(evening: Evening, hands: list[dict[str, Any]]) -> Settlement:
    return settle_session(evening.game, evening.rules, hands, evening.pot_start or None)


def build_table(
    evening: Evening, players: dict[int, Player], hands: list[Any], settlement: Settlement | None = None
) -> Table:
    """The table from its parts (``settlement`` when the caller has just settled these hands)."""
    settlement = settlement or _settle(evening, [h.data for h in hands])
    seats = GAMES[evening.game].seats
    positions = [ledger.seat_positions(evening.seat_count, seats, h.dealer) for h in hands]
    rows = ledger.position_units(settlement, positions, evening.seat_count)
    balance = ledger.balance_units(settlement, rows, evening.seat_count)
    return Table(evening, players, hands, settlement, positions, rows, balance)


def load_table(*, db: Session, evening_id: int) -> Table:
    """The evening settled from its stored hands."""
    evening = get_evening(db=db, evening_id=evening_id)
    return build_table(evening, _seats(db, evening_id), _hands(db, evening_id))


def refresh_results(db: Session, evening: Evening, hands: list[Any], settlement: Settlement | None = None) -> Table:
    """The table after a change to its hands, with the night's history rows rewritten (not committed).

    Every change to a night's hands goes through here, so the club's history never lags behind.
    """
    from . import history  # builds on this module

    db.flush()
    table = build_table(evening, _seats(db, evening.id), hands, settlement)
    history.refresh_night(db, table)
    return table


# --- recording, editing, undoing ---------------------------------------------


def engine_hand(evening: Evening, hand: Any, dealer: int) -> Any:
    """The hand as the engine gets it: in Matzlfangen at a table of four the dealer is added.

    (Forehand then declares a rufen; at a table of five the dealer sits out and
    is no engine seat, so the form gives the declarer itself.)
    """
    if evening.game == "matzlfangen" and evening.seat_count == 4 and isinstance(hand, dict) and "dealer" not in hand:
        return {**hand, "dealer": dealer}
    return hand


def _check_open(evening: Evening) -> None:
    if evening.status != "open":
        raise Conflict("this night is closed: no hand can be recorded, changed or undone")


def _touch(db: Session, evening: Evening, action: str, number: int, before: Any, after: Any) -> None:
    evening.version += 1
    db.add(evening)
    db.add(AuditEntry(evening_id=evening.id, hand_number=number, action=action, before=before, after=after))


def record_hand(
    *,
    db: Session,
    evening_id: int,
    hand: Any,
    idempotency_key: str | None = None,
    expected_hands: int | None = None,
) -> tuple[HandRecord, bool, Table | None]:
    """Record the next hand. Returns the hand, whether it was new, and the table after it (when new).

    A repeat of an ``idempotency_key`` returns the hand first recorded with it.
    ``expected_hands`` is how many hands the form saw: if another phone recorded
    one since, the hand is refused with :class:`Conflict`.

    :raises InvalidHand: when the engine refuses the hand (nothing is saved).
    """
    evening = _lock_evening(db, evening_id)
    if idempotency_key is not None:
        if (
            not isinstance(idempotency_key, str)
            or not 1 <= len(idempotency_key) <= 64
            or not (idempotency_key.isascii() and idempotency_key.isprintable())
        ):
            raise InvalidInput("idempotency_key", "the idempotency key must be 1 to 64 printable ASCII characters")
        earlier = db.exec(
            select(HandRecord).where(HandRecord.evening_id == evening_id, HandRecord.idempotency_key == idempotency_key)
        ).first()
        if earlier is not None:
            return earlier, False, None
    _check_open(evening)
    hands = _hands(db, evening_id)
    if expected_hands is not None and expected_hands != len(hands):
        raise Conflict(
            "another phone recorded a hand meanwhile: this form was made when the night had {seen} hands, "
            "now it has {now}. Check the table and enter the hand again if it is missing.",
            seen=expected_hands,
            now=len(hands),
        )
    dealer = ledger.dealer_of(evening.first_dealer, evening.seat_count, len(hands))
    data = engine_hand(evening, hand, dealer)
    settlement = _settle(evening, [*(h.data for h in hands), data])  # validates; the hand is a JSON object
    stored = dict(data)
    record = HandRecord(
        evening_id=evening_id, number=len(hands) + 1, dealer=dealer, data=stored, idempotency_key=idempotency_key
    )
    db.add(record)
    _touch(db, evening, "record", record.number, None, stored)
    try:
        table = refresh_results(db, evening, [*hands, HandRow(record.number, dealer, stored)], settlement)
        db.commit()
    except IntegrityError:
        db.rollback()
        if idempotency_key is not None:
            earlier = db.exec(
                select(HandRecord).where(
                    HandRecord.evening_id == evening_id, HandRecord.idempotency_key == idempotency_key
                )
            ).first()
            if earlier is not None:
                return earlier, False, None
        raise Conflict("another phone recorded a hand at the same moment: check the table and try again") from None
    return record, True, table


def add_hands(*, db: Session, evening_id: int, hands: list[Any]) -> int:
    """Append many hands at once (demo nights, imports): validated together, one transaction.

    Returns how many hands the night has now.

    :raises InvalidHand: naming the first bad hand (by its index in the whole night); nothing is saved.
    """
    evening = _lock_evening(db, evening_id)
    _check_open(evening)
    existing = _hands(db, evening_id)
    rows = []
    for i, hand in enumerate(hands, start=len(existing)):
        dealer = ledger.dealer_of(evening.first_dealer, evening.seat_count, i)
        rows.append(HandRow(i + 1, dealer, dict(engine_hand(evening, hand, dealer))))
    settlement = _settle(evening, [h.data for h in (*existing, *rows)])
    now = utcnow()
    if rows:  # one multi-row INSERT: a night of 200 hands is one statement, not 200 ORM objects
        db.exec(
            insert(HandRecord),
            params=[
                {"evening_id": evening_id, "number": r.number, "dealer": r.dealer, "data": r.data}
                | {"created_at": now, "updated_at": now}
                for r in rows
            ],
        )
    evening.version += 1
    db.add(evening)
    db.add(
        AuditEntry(evening_id=evening_id, hand_number=None, action="import", before=None, after={"hands": len(rows)})
    )
    refresh_results(db, evening, [*existing, *rows], settlement)
    db.commit()
    return len(existing) + len(rows)


def edit_hand(
    *, db: Session, evening_id: int, number: int, hand: Any, expected_version: int | None = None
) -> HandRecord:
    """Replace hand ``number``; everything after it is recomputed (and must stay valid)."""
    evening = _lock_evening(db, evening_id)
    _check_open(evening)
    if expected_version is not None and expected_version != evening.version:
        raise Conflict("the night changed while you were editing: check the hand and edit it again")
    hands = _hands(db, evening_id)
    record = _hand_record(db, evening_id, number) if 1 <= number <= len(hands) else None
    if record is None:
        raise NotFound(f"no hand {number}")
    data = engine_hand(evening, hand, record.dealer)
    rows = [HandRow(h.number, h.dealer, data) if h.number == number else h for h in hands]
    settlement = _settle(evening, [h.data for h in rows])
    before = record.data
    record.data = dict(data)
    record.updated_at = utcnow()
    db.add(record)
    _touch(db, evening, "edit", number, before, record.data)
    refresh_results(db, evening, rows, settlement)
    db.commit()
    return record


def undo_last(*, db: Session, evening_id: int, expected_hands: int | None = None) -> HandRecord:
    """Take back the last hand (kept in the audit trail)."""
    evening = _lock_evening(db, evening_id)
    _check_open(evening)
    hands = _hands(db, evening_id)
    if not hands:
        raise Conflict("there is no hand to undo")
    if expected_hands is not None and expected_hands != len(hands):
        raise Conflict("another phone changed the night meanwhile: check the table before you undo")
    last = _hand_record(db, evening_id, len(hands))
    db.delete(last)
    _touch(db, evening, "undo", last.number, last.data, None)
    refresh_results(db, evening, hands[:-1])
    db.commit()
    return last


REASON_MAX = 200


def close_evening(*, db: Session, evening_id: int) -> Evening:
    """Close a night: it is locked (no record, edit or undo) until it is reopened.

    Its join code expires: guests who joined with it can't come back, also not after a reopening.
    """
    evening = _lock_evening(db, evening_id)
    _check_open(evening)
    evening.status = "closed"
    evening.closed_at = utcnow()
    evening.join_code = None
    _touch(db, evening, "close", None, None, None)
    db.commit()
    return evening


def reopen_evening(*, db: Session, evening_id: int, reason: Any) -> Evening:
    """Open a closed night again; the reason is kept in the audit trail.

    :raises InvalidInput: without a reason (1-200 characters, no control characters).
    """
    evening = _lock_evening(db, evening_id)
    if evening.status != "closed":
        raise Conflict("this night is open already")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason", "give a reason for reopening the night")
    reason = unicodedata.normalize("NFC", reason).strip()
    if len(reason) > REASON_MAX or has_control(reason):
        raise InvalidInput(
            "reason", "the reason may have at most {n} characters and no control characters", n=REASON_MAX
        )
    evening.status = "open"
    evening.closed_at = None
    evening.join_code = new_join_code(db)  # a new one: the guests of before join again
    _touch(db, evening, "reopen", None, None, {"reason": reason})
    db.commit()
    return evening


def audit(*, db: Session, evening_id: int, hand_numbers: list[int] | None = None) -> list[AuditEntry]:
    """The evening's changes, oldest first (only those of the given hand numbers if given)."""
    query = select(AuditEntry).where(AuditEntry.evening_id == evening_id)
    if hand_numbers is not None:
        query = query.where(AuditEntry.hand_number.in_(hand_numbers))
    return list(db.exec(query.order_by(AuditEntry.id)))


__all__ = [
    "TABLE_SIZES",
    "Conflict",
    "InvalidHand",
    "InvalidInput",
    "NotFound",
    "Table",
    "add_hands",
    "audit",
    "build_table",
    "close_evening",
    "create_evening",
    "create_player",
    "edit_hand",
    "engine_hand",
    "get_evening",
    "get_player",
    "list_players",
    "load_table",
    "merge_players",
    "record_hand",
    "rename_player",
    "reopen_evening",
    "retire_player",
    "roster_changes",
    "undo_last",
]
