"""A night's table: the night with its people, its hands and their settlement (a read model).

The pages, the summary, the exports and the API show a :class:`Table`; nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlmodel import Session, select

from scorekeeper.core.errors import NotFound
from scorekeeper.core.models import AuditEntry, HandRecord, Night, Player, Seat
from scorekeeper.core.text import is_id
from scorekeeper.engine import GAMES, Settlement, ledger, settle_session


class HandRow(NamedTuple):
    """A hand as the table reads it (what ``_hands`` selects)."""

    number: int
    dealer: int
    data: dict[str, Any]


@dataclass(frozen=True)
class Table:
    """An night with its people, hands and settlement, as the pages and the API show it."""

    night: Night
    players: dict[int, Player]  # by table position
    hands: list[Any]  # rows or records with number, dealer, data
    settlement: Settlement
    positions: list[tuple[int, ...]]  # per hand: the table position of each engine seat
    rows: list[list[int]]  # per hand: units per table position
    balance: list[int]  # units per table position

    @property
    def size(self) -> int:
        return self.night.seat_count

    def dealer_for(self, number: int) -> int:
        """The table position that deals hand ``number`` (1-based; the deal moves on by itself)."""
        return ledger.dealer_of(self.night.first_dealer, self.size, number - 1)

    def forehand_for(self, number: int) -> int:
        """The table position after that dealer."""
        return ledger.forehand_of(self.dealer_for(number), self.size)

    def positions_for(self, number: int) -> tuple[int, ...]:
        """Who plays hand ``number``: the table position of each engine seat."""
        return ledger.seat_positions(self.size, GAMES[self.night.game].seats, self.dealer_for(number))

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
        return build_table(night=self.night, players=self.players, hands=hands)

    def money(self, position: int) -> int:
        return ledger.cents(self.balance[position - 1], self.night.stake_cents)


def seats(*, db: Session, night_id: int) -> dict[int, Player]:
    """Who sits where: the player at each table position."""
    rows = db.exec(
        select(Seat.position, Player).join(Player, Player.id == Seat.player_id).where(Seat.night_id == night_id)
    )
    return {position: player for position, player in rows}


def hand_rows(*, db: Session, night_id: int) -> list[Any]:
    """The night's hands as light rows (``number``, ``dealer``, ``data``), in order: reading 300
    of them as rows is several times quicker than as ORM objects, and pages only read."""
    query = (
        select(HandRecord.number, HandRecord.dealer, HandRecord.data)
        .where(HandRecord.night_id == night_id)
        .order_by(HandRecord.number)
    )
    return list(db.exec(query))


def hand_record(*, db: Session, night_id: int, number: int) -> HandRecord | None:
    """The stored hand ``number`` of a night, if there is one."""
    return db.exec(select(HandRecord).where(HandRecord.night_id == night_id, HandRecord.number == number)).first()


def settle(*, night: Night, hands: list[dict[str, Any]]) -> Settlement:
    """The night's hands settled by the engine under the night's rules (and its carried pot).

    :raises InvalidHand: for the first hand the engine refuses.
    """
    return settle_session(night.game, night.rules, hands, night.pot_start or None)


def get_night(*, db: Session, night_id: int) -> Night:
    """:raises NotFound: for an unknown night."""
    night = db.get(Night, night_id) if is_id(night_id) else None
    if night is None:
        raise NotFound(f"no night {night_id}")
    return night


def build_table(
    *, night: Night, players: dict[int, Player], hands: list[Any], settlement: Settlement | None = None
) -> Table:
    """The table from its parts (``settlement`` when the caller has just settled these hands)."""
    settlement = settlement or settle(night=night, hands=[h.data for h in hands])
    seats = GAMES[night.game].seats
    positions = [ledger.seat_positions(night.seat_count, seats, h.dealer) for h in hands]
    rows = ledger.position_units(settlement, positions, night.seat_count)
    balance = ledger.balance_units(settlement, rows, night.seat_count, GAMES[night.game].money_from_balance)
    return Table(night, players, hands, settlement, positions, rows, balance)


def load_table(*, db: Session, night_id: int) -> Table:
    """The night settled from its stored hands."""
    night = get_night(db=db, night_id=night_id)
    return build_table(night=night, players=seats(db=db, night_id=night_id), hands=hand_rows(db=db, night_id=night_id))


def audit_trail(*, db: Session, night_id: int, hand_numbers: list[int] | None = None) -> list[AuditEntry]:
    """The night's changes, oldest first (only those of the given hand numbers if given)."""
    query = select(AuditEntry).where(AuditEntry.night_id == night_id)
    if hand_numbers is not None:
        query = query.where(AuditEntry.hand_number.in_(hand_numbers))
    return list(db.exec(query.order_by(AuditEntry.id)))
