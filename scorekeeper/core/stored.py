"""The writers' storage toolkit: what core/hands.py (and the imports) read and write with a hand
beside its data: its result, the state after it and the night's running sums (:class:`Running`),
the last hand as a new one needs it (:class:`Last`) and the deal after it, and the counted deals.
The pages read a night through the read model, core/table.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import Text, type_coerce
from sqlmodel import Session, select

from scorekeeper.core.models import HandRecord, Night
from scorekeeper.engine import GAMES, Game, deal, ledger
from scorekeeper.engine.deal import Deal
from scorekeeper.engine.errors import Refusal


class Running(NamedTuple):
    """The night's sums after a hand, stored with it (``HandRecord.running``): ``totals`` the
    engine's seats' sums of deltas (``Settlement.totals``), ``units`` each table position's."""

    totals: tuple[int, ...]
    units: tuple[int, ...]

    def after(self, deltas: Sequence[int], positions: Sequence[int]) -> Running:
        """These sums with one more hand's ``deltas`` (per engine seat, played by ``positions``)."""
        row = ledger.position_row(deltas, positions, len(self.units))
        units = tuple(u + d for u, d in zip(self.units, row, strict=True))
        return Running(tuple(t + d for t, d in zip(self.totals, deltas, strict=True)), units)

    def to_json(self) -> dict[str, list[int]]:
        return {"totals": list(self.totals), "units": list(self.units)}

    @classmethod
    def from_json(cls, value: Any) -> Running:
        value = decoded(value)
        return cls(tuple(value["totals"]), tuple(value["units"]))

    @classmethod
    def start(cls, seats: int, table_size: int) -> Running:
        return cls((0,) * seats, (0,) * table_size)


def check_ceiling(
    *, game: Game, rules: Any, stake_cents: int, sums: Sequence[Running], states: Sequence[Any], first: int
) -> None:
    """The one check of the night's ceiling (``engine.ledger.check_ceiling``) after each of these hands: its
    sums (``sums``, each position's and each seat's) and its pot (``states``, as stored: ``{"pot": …}`` in
    Schafkopf), the first of them the hand of index ``first``; where the game's money is its balance made of
    the sums (``game.money_from_balance``: Matt's ``stake_per_point`` times the points' difference, under
    ``rules``, validated), that money too (``engine.ledger.check_money_ceiling``). Every writer of hands asks it
    before it saves (record, many at once, edit, import), and the hand form's preview of a new or an edited hand.

    :raises InvalidHand: naming the hand that passes it; nothing is saved.
    """
    for i, (total, state) in enumerate(zip(sums, states, strict=True)):
        state = decoded(state)
        pot = state.get("pot") if isinstance(state, dict) else None
        ledger.check_ceiling([*total.units, *total.totals], pot, stake_cents, first + i)
        if game.money_from_balance:
            ledger.check_money_ceiling(game.hand_money(rules, total.totals), stake_cents, first + i)


def decoded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class Last(NamedTuple):
    """The last hand of a night as a new hand needs it: its number, and what is stored after it
    (``settled``: whether it has a result; ``state``; ``running``: None where not stored), its
    dealer and its hand (who deals next)."""

    number: int
    settled: bool
    state: Any
    running: Running | None
    dealer: int
    data: Any


def last_hand(*, db: Session, night_id: int) -> Last | None:
    """The night's last hand (None for a night without hands), in one small query."""
    row = db.exec(
        select(
            HandRecord.number,
            type_coerce(HandRecord.result, Text),
            HandRecord.state,
            HandRecord.running,
            HandRecord.dealer,
            HandRecord.data,
        )
        .where(HandRecord.night_id == night_id)
        .order_by(HandRecord.number.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    number, result, state, running, dealer, data = row
    settled = result not in (None, "null")  # a JSON null reads as no result, as a SQL NULL does
    return Last(number, settled, state, None if running is None else Running.from_json(running), dealer, data)


def next_deal_after(*, night: Night, rules: Any, last: Last | None) -> Deal:
    """The deal of the hand after ``last`` (the night's first deal for its first hand): worked out
    once, when a writer reads the night's last hand (``rules``: parsed)."""
    game = GAMES[night.game]
    if last is None:
        return deal.first_deal(game, night.seat_count, night.first_dealer)
    dealt = Deal.at(last.number, last.dealer, night.seat_count, game.seats)
    return deal.next_deal(game, rules, dealt, last.data)


def deals_played(*, night: Night, hands: Sequence[Any]) -> int:
    """How many of these hands (engine hands) count as deals: a hand dealt again does not."""
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    return sum(1 for data in hands if not deal.keeps_dealer(game, rules, data))


def stored_state(*, db: Session, night_id: int, number: int) -> Any:
    """The stored state after hand ``number`` (``Game.state_to_json``; None also where there is none)."""
    return db.exec(select(HandRecord.state).where(HandRecord.night_id == night_id, HandRecord.number == number)).first()


def running_sums(
    *, game: str, seat_count: int, start: Running, results: Sequence[Any], dealers: Sequence[int]
) -> list[Running]:
    """The sums after each of these hands (``results``: anything with ``deltas`` per engine seat),
    dealt by ``dealers``, from ``start`` (the sums before the first of them)."""
    seats = GAMES[game].seats
    sums = []
    for result, dealer in zip(results, dealers, strict=True):
        start = start.after(result.deltas, deal.seat_positions(seat_count, seats, dealer))
        sums.append(start)
    return sums


def stored_columns(
    *,
    game: str,
    rules: Any,
    pot_start: int | None,
    hands: list[Any],
    dealers: Sequence[int] | None = None,
    seat_count: int | None = None,
) -> list[tuple[Any, ...]] | None:
    """Each hand's ``result`` and ``state`` columns, settling the night from its start (and, given
    the ``dealers`` and the ``seat_count``, its ``running`` column); None when the engine refuses
    the night (its hands then keep no stored results)."""
    g = GAMES[game]
    try:
        parsed_rules = g.parse_rules(rules)
        state = g.initial_state(parsed_rules, pot_start or None)
        _, results, states = g.settle_from(parsed_rules, hands, state)
    except Refusal:
        return None
    columns = [(r.to_json(), g.state_to_json(s)) for r, s in zip(results, states, strict=True)]
    if dealers is None or seat_count is None:
        return columns
    start = Running.start(g.seats, seat_count)
    sums = running_sums(game=game, seat_count=seat_count, start=start, results=results, dealers=dealers)
    return [(*c, r.to_json()) for c, r in zip(columns, sums, strict=True)]


def hand_record(*, db: Session, night_id: int, number: int) -> HandRecord | None:
    """The stored hand ``number`` of a night, if there is one."""
    return db.exec(select(HandRecord).where(HandRecord.night_id == night_id, HandRecord.number == number)).first()
