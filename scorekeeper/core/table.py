"""A night's table: the night with its people, its hands and their settlement (a read model).

The pages, the summary, the exports and the API show a :class:`Table`; nothing here writes (the
writers' storage toolkit is core/stored.py). A table knows the deal of each hand and of the next
one (:class:`~scorekeeper.engine.deal.Deal`), worked out once when the night is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from sqlalchemy import Text, type_coerce
from sqlmodel import Session, select

from scorekeeper.core.errors import NotFound
from scorekeeper.core.models import AuditEntry, HandRecord, Night, Player, Seat, scores_units
from scorekeeper.core.stored import Running, check_ceiling, decoded, last_hand, running_sums, stored_state
from scorekeeper.core.text import is_id
from scorekeeper.engine import GAMES, HandResult, Settlement, deal, ledger, settle_session, stored_deltas
from scorekeeper.engine.deal import Deal


class HandRow(NamedTuple):
    """A hand as the table reads it (what :func:`hand_rows` selects): ``result`` is the engine's
    stored result of it (``HandResult.to_json``, as an object or its JSON text: decoded when a page
    reads it), None where it has none (not settled yet); ``deltas`` its ``deltas`` where read apart."""

    number: int
    dealer: int
    data: dict[str, Any]
    result: Any = None
    deltas: dict[str, int] | None = None


def _seat_deltas(hand: Any) -> tuple[int, ...]:
    deltas = getattr(hand, "deltas", None)
    return stored_deltas({"deltas": decoded(hand.result)["deltas"] if deltas is None else deltas})


#: ``build_table``'s ``state`` when the caller did not read the last hand's stored state.
UNKNOWN: Any = object()


class _Lazy(Sequence):
    """A sequence of ``size`` items whose subclass gives item ``i`` (``_item``) only when asked."""

    __slots__ = ("_size",)

    def __init__(self, size: int) -> None:
        self._size = size

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        return self._item(index)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(self._size))

    def _item(self, index: int) -> Any:
        raise NotImplementedError


class Tail(_Lazy):
    """The newest hands of a night of ``size`` hands, as a sequence of all of them: only the
    ``items`` at its end were read (the table page shows the newest 20 of a night's 1,000)."""

    __slots__ = ("_items", "_start")

    def __init__(self, size: int, items: Sequence[Any]) -> None:
        super().__init__(size)
        self._items = list(items)
        self._start = size - len(self._items)

    def _item(self, index: int) -> Any:
        if index < self._start:
            raise LookupError(f"hand {index + 1} was not read (only the newest {len(self._items)})")
        return self._items[index - self._start]

    @property
    def read(self) -> list[Any]:
        """The items that were read (the newest)."""
        return self._items


class Stored(_Lazy):
    """A sequence made item by item on first access (a page shows 20 of a night's 1,000 hands:
    only those are decoded)."""

    __slots__ = ("_made", "_make")

    def __init__(self, size: int, make: Callable[[int], Any]) -> None:
        super().__init__(size)
        self._make = make
        self._made: dict[int, Any] = {}

    def _item(self, index: int) -> Any:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = self._make(index)
        return made


@dataclass(frozen=True)
class Table:
    """An night with its people, hands and settlement, as the pages and the API show it.

    ``hands``, ``positions`` and ``rows`` cover every hand, or, for a table read with ``newest``
    (:func:`read_table`), are :class:`Tail` sequences of which only the newest items were read.
    """

    night: Night
    players: dict[int, Player]  # by table position
    hands: Sequence[Any]  # rows or records with number, dealer, data
    settlement: Settlement
    positions: Sequence[tuple[int, ...]]  # per hand: the table position of each engine seat
    rows: Sequence[list[int]]  # per hand: units per table position
    balance: list[int]  # units per table position
    state: Any = UNKNOWN  # the stored state after the last hand (``Game.state_to_json``), if known
    running: Running | None = None  # the sums after the last hand, if known

    @property
    def size(self) -> int:
        return self.night.seat_count

    @property
    def at_tournament(self) -> bool:
        """Whether the night is a tournament's table: its pages say "table" (Tisch), never "night", and it
        plays for points, never money (docs/tournaments.md)."""
        return self.night.tournament_id is not None

    @property
    def for_money(self) -> bool:
        """Whether the night's units are paid in money (core/models.py ``takes_money``, the one answer): not at
        a tournament's table (points), nor where the game's money option is 0 (Konter a Matt, Matt without
        a stake: ``Game.uses_stake``), nor at a stake of 0 per unit (played for the units alone)."""
        return self.night.for_money

    @property
    def hands_in_points(self) -> bool:
        """Whether a hand's figures are points, not the balance's units (Matt: the balance is units of the final
        difference, ``Game.money_from_balance``): a hand's row names them so beside its money."""
        return GAMES[self.night.game].money_from_balance

    @property
    def shows_score(self) -> bool:
        """Whether the balance is shown as each player's score: a tournament's table's points, or the units of
        a night whose hands pay them (``Game.uses_stake``), with money or without (a stake of 0); not where the
        game's money option is 0 (Konter a Matt, Matt without a stake: their strokes or matches instead)."""
        return self.at_tournament or scores_units(self.night.game, self.night.rules)

    def deal(self, number: int) -> Deal:
        """The deal of hand ``number`` (1-based): a recorded hand's as stored, the next hand's as worked
        out when the night was read (:attr:`next_deal`).

        :raises LookupError: for a hand not read (an older hand of a table read with ``newest``).
        """
        if number == len(self.hands) + 1:
            return self.next_deal
        if not 1 <= number <= len(self.hands):
            raise LookupError(f"no hand {number}")
        return Deal.at(number, self.hands[number - 1].dealer, self.size, GAMES[self.night.game].seats)

    def dealer_for(self, number: int) -> int:
        """The table position that deals hand ``number`` (:meth:`deal`)."""
        return self.deal(number).dealer

    @property
    def next_dealer(self) -> int:
        return self.next_deal.dealer

    def dealt_again(self, number: int) -> bool:
        """Whether hand ``number`` was dealt again by its dealer (a redeal: it counts as no deal)."""
        return deal.keeps_dealer(GAMES[self.night.game], self.settlement.rules, self.settlement.hands[number - 1])

    @property
    def deal_stays(self) -> tuple[str, ...]:
        """The contracts whose hand the same dealer deals again at this night (engine/deal.py ``deal_stays``)."""
        return deal.deal_stays(GAMES[self.night.game], self.settlement.rules)

    @cached_property
    def next_deal(self) -> Deal:
        """The deal of the hand after the last, worked out once (when first asked) from the last hand's
        dealer and the last hand as the settlement parsed it (engine/deal.py ``next_deal``)."""
        game = GAMES[self.night.game]
        count = len(self.hands)
        if not count:
            return deal.first_deal(game, self.size, self.night.first_dealer)
        last = Deal.at(count, self.hands[count - 1].dealer, self.size, game.seats)
        return deal.next_deal(game, self.settlement.rules, last, self.settlement.hands[count - 1])

    def with_hand(self, number: int, hand: dict[str, Any]) -> Table:
        """This table with hand ``number`` (as entered: completed here by its deal) replaced (or added
        as the next one), settled, not saved.

        A next hand is settled alone from the stored state after the last one, where it is known;
        otherwise (and for a replaced hand) the night is settled from its start.

        :raises InvalidHand: when the engine refuses the hand or a later hand because of it, or when it or a later
            hand would pass the night's ceiling (``stored.check_ceiling``, as saving it would).
        """
        dealt = self.deal(number)
        data = dealt.complete(GAMES[self.night.game], hand)
        row = HandRow(number, dealt.dealer, data)
        if number == len(self.hands) + 1 and self.state is not UNKNOWN and self.running is not None:
            game = GAMES[self.night.game]
            rules = self.settlement.rules
            start = game.state_from_json(self.state) if self.hands else self.settlement_start()
            _, (result,), (after,) = game.settle_from(rules, [data], start, number - 1)
            running = self.running.after(result.deltas, dealt.positions)
            check_ceiling(
                game=game,
                rules=rules,
                stake_cents=self.night.stake_cents,
                sums=[running],
                states=[game.state_to_json(after)],
                first=number - 1,
            )
            read = [*_read(self.hands), row._replace(result=result.to_json())]
            return build_table(
                night=self.night,
                players=self.players,
                hands=Tail(number, read),
                state=game.state_to_json(after),
                running=running,
            )
        hands = [h for h in self.hands if h.number != number]
        hands.insert(number - 1, row)
        settlement = settle(night=self.night, hands=[h.data for h in hands])
        # the ceiling as the edit's save checks it (core/hands.py edit_hand): from the changed hand on
        game = GAMES[self.night.game]
        sums = running_sums(
            game=self.night.game,
            seat_count=self.size,
            start=Running.start(game.seats, self.size),
            results=settlement.results,
            dealers=[h.dealer for h in hands],
        )
        check_ceiling(
            game=game,
            rules=settlement.rules,
            stake_cents=self.night.stake_cents,
            sums=sums[number - 1 :],
            states=[{"pot": r.extra.get("pot_after")} for r in settlement.results[number - 1 :]],
            first=number - 1,
        )
        return build_table(night=self.night, players=self.players, hands=hands, settlement=settlement)

    def settlement_start(self) -> Any:
        """The state the night starts from (its rules, the pot carried into it)."""
        game = GAMES[self.night.game]
        return game.initial_state(self.settlement.rules, self.night.pot_start or None)

    def money(self, position: int) -> int:
        """The money of a position's balance, in cents (the pot's share at the close is the settlement's:
        core/summary.py ``money_lines``)."""
        return ledger.cents(self.balance[position - 1], self.night.stake_cents)

    def hand_money(self, number: int) -> list[int]:
        """What hand ``number`` (1-based) pays each table position, in cents (index 0 = position 1): its units
        at the stake, or where the game's money is the engine's balance (Matt: its deltas are points), that
        balance's share of the hand (``Game.hand_money``); the hands add up to :meth:`money`."""
        game = GAMES[self.night.game]
        units = game.hand_money(self.settlement.rules, self.settlement.results[number - 1].deltas)
        row = ledger.position_row(units, self.positions[number - 1], self.size)
        return [ledger.cents(u, self.night.stake_cents) for u in row]


def seats(*, db: Session, night_id: int) -> dict[int, Player]:
    """Who sits where: the player at each table position."""
    rows = db.exec(
        select(Seat.position, Player).join(Player, Player.id == Seat.player_id).where(Seat.night_id == night_id)
    )
    return {position: player for position, player in rows}


def hand_rows(*, db: Session, night_id: int, after: int = 0) -> list[Any]:
    """The night's hands (those numbered above ``after``) as light rows (``number``, ``dealer``,
    ``data``, ``result``, ``deltas``), in order: reading 300 of them as rows is several times
    quicker than as ORM objects, and pages only read. The results come as JSON text (a page decodes
    the 20 it shows) and their deltas apart."""
    query = (
        select(
            HandRecord.number,
            HandRecord.dealer,
            HandRecord.data,
            type_coerce(HandRecord.result, Text).label("result"),
            HandRecord.result["deltas"].label("deltas"),
        )
        .where(HandRecord.night_id == night_id, HandRecord.number > after)
        .order_by(HandRecord.number)
    )
    # a JSON null (``result=None`` written explicitly) reads as no result, as a SQL NULL does
    return [HandRow(n, d, data, None if r == "null" else r, deltas) for n, d, data, r, deltas in db.exec(query)]


def hand_data(*, db: Session, night_id: int) -> list[Any]:
    """The night's engine hands, in order (nothing else of them)."""
    return list(db.exec(select(HandRecord.data).where(HandRecord.night_id == night_id).order_by(HandRecord.number)))


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


def is_stored(hands: Sequence[Any], state: Any) -> bool:
    """Whether a table of these hands can be built from their stored results (no settling)."""
    if not hands:
        return True
    return state is not UNKNOWN and all(getattr(h, "result", None) is not None for h in _read(hands))


def _read(hands: Sequence[Any]) -> Sequence[Any]:
    """The hands that were read: all, or the newest of a :class:`Tail`."""
    return hands.read if isinstance(hands, Tail) else hands


def _like(hands: Sequence[Any], items: list[Any]) -> Sequence[Any]:
    """``items`` (one per hand read) as a sequence over all of ``hands``."""
    return Tail(len(hands), items) if isinstance(hands, Tail) else items


def stored_settlement(*, night: Night, hands: Sequence[Any], state: Any, running: Running | None = None) -> Settlement:
    """The night's settlement from its hands' stored results and the state after the last one,
    without settling: the results and the validated hands are decoded when first read. The totals
    are ``running``'s where given, else the sums of the hands' deltas."""
    g = GAMES[night.game]
    rules = g.parse_rules(night.rules)
    if running is not None:
        totals = list(running.totals)
    else:
        totals = [0] * g.seats
        for h in hands:
            for seat, d in enumerate(_seat_deltas(h)):
                totals[seat] += d
    pot = night.pot_start or None
    end = g.state_from_json(state) if hands else g.initial_state(rules, pot)
    balance, pot_end, extra = g.finish(rules, end, tuple(totals))
    hand_cls = g.hand_cls
    parsed = Stored(len(hands), lambda i: hand_cls.from_json(hands[i].data, i, rules))
    results = Stored(len(hands), lambda i: HandResult.from_json(decoded(hands[i].result)))
    return Settlement(g.name, rules, parsed, results, tuple(totals), balance, pot_end, extra, pot or 0)


def build_table(
    *,
    night: Night,
    players: dict[int, Player],
    hands: Sequence[Any],
    settlement: Settlement | None = None,
    state: Any = UNKNOWN,
    running: Running | None = None,
) -> Table:
    """The table from its parts: ``settlement`` when the caller has just settled these hands; else
    from the hands' stored results when they all have one and ``state`` is the stored state after
    the last (:func:`stored_state`); else the engine settles the hands. ``hands`` may be a
    :class:`Tail` (then ``state`` and ``running`` must be the stored ones after its last hand)."""
    game = GAMES[night.game]
    size = night.seat_count
    read = _read(hands)
    positions = _like(hands, [deal.seat_positions(size, game.seats, h.dealer) for h in read])
    if settlement is None and is_stored(hands, state):
        settlement = stored_settlement(night=night, hands=hands, state=state, running=running)
        rows = [
            ledger.position_row(_seat_deltas(h), hand_positions, size)
            for h, hand_positions in zip(read, _read(positions), strict=True)
        ]
        rows = _like(hands, rows)
    else:
        if isinstance(hands, Tail):
            raise ValueError("a night's newest hands alone can't be settled: read them all")
        settlement = settlement or settle(night=night, hands=[h.data for h in hands])
        rows = ledger.position_units(settlement, positions, size)
        state = UNKNOWN
    # the balance: the running sums where they are stored (one row that adds up to it), else the rows'
    sums = [list(running.units)] if running is not None else rows
    balance = ledger.balance_units(settlement, sums, size, game.money_from_balance)
    return Table(night, players, hands, settlement, positions, rows, balance, state, running)


def load_table(*, db: Session, night_id: int, newest: int | None = None) -> Table:
    """The night from its stored hands (and their stored results; settled where they have none);
    with ``newest``, only that many of its newest hands are read (see :func:`read_table`)."""
    night = get_night(db=db, night_id=night_id)
    return read_table(db=db, night=night, newest=newest)


def read_table(*, db: Session, night: Night, hands: list[Any] | None = None, newest: int | None = None) -> Table:
    """The table of a night read (``hands``: its rows when the caller has just read them).

    With ``newest``, where every hand's result and the sums after the last are stored, only the
    newest hands are read: the table's ``hands`` is then a :class:`Tail` (a page of the newest
    hands, the balances and the game's state cost the same at hand 10 and hand 1,000).
    """
    players = seats(db=db, night_id=night.id)
    if hands is None and newest is not None:
        last = last_hand(db=db, night_id=night.id)
        if last is None:
            g = GAMES[night.game]
            return build_table(
                night=night, players=players, hands=[], state=None, running=Running.start(g.seats, night.seat_count)
            )
        if last.settled and last.running is not None:
            rows = hand_rows(db=db, night_id=night.id, after=max(0, last.number - newest))
            if rows and rows[0].number == last.number - len(rows) + 1 and all(r.result is not None for r in rows):
                return build_table(
                    night=night, players=players, hands=Tail(last.number, rows), state=last.state, running=last.running
                )
    hands = hand_rows(db=db, night_id=night.id) if hands is None else hands
    state = UNKNOWN
    if hands and hands[-1].result is not None:
        state = stored_state(db=db, night_id=night.id, number=len(hands))
    return build_table(night=night, players=players, hands=hands, state=state)


def audit_trail(*, db: Session, night_id: int, hand_numbers: list[int] | None = None) -> list[AuditEntry]:
    """The night's changes, oldest first (only those of the given hand numbers if given)."""
    query = select(AuditEntry).where(AuditEntry.night_id == night_id)
    if hand_numbers is not None:
        query = query.where(AuditEntry.hand_number.in_(hand_numbers))
    return list(db.exec(query.order_by(AuditEntry.id)))
