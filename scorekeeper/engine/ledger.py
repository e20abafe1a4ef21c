"""From seats to people and from units to money: pure functions over a settled session.

A table has ``table_size`` positions (1..N clockwise). The engine speaks in
``seats`` (4, or 2 for Matt); at a table of five the dealer sits out, and the
other four positions, in clockwise order from position 1, are seats 1-4 (the deal: ``deal.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .deal import dealer_of, forehand_of, seat_of, seat_positions
from .errors import InvalidHand
from .results import Settlement

__all__ = [  # the deal's arithmetic is deal.py's, named here too for the callers of old
    "CEILING",
    "balance_units",
    "cents",
    "check_ceiling",
    "check_money_ceiling",
    "dealer_of",
    "forehand_of",
    "format_money",
    "minimal_transfers",
    "position_row",
    "position_units",
    "seat_of",
    "seat_positions",
]


#: The most a night holds, in units and in cents alike: its pot, each one's balance and their money. A pot to
#: start with is at most this many units (``schafkopf.initial_state``); a hand past it is refused
#: (:func:`check_ceiling`). Twice it fits the database's integer columns (PostgreSQL's ``integer``: 2**31 - 1),
#: the night's money with a share of its pot.
CEILING = 10**9


def check_ceiling(balances: Sequence[int], pot: int | None, stake_cents: int, index: int | None = None) -> None:
    """Refuse a hand after which the pot or a balance (units, each position's or each seat's) passes the
    :data:`CEILING`, in units or in cents at ``stake_cents`` a unit (each lost Sauspiel doubles the pot: 52 of
    them at a pot stake of 1000 make 10**19 units, which no database column holds). ``index``: the hand's.

    >>> check_ceiling([5, -5], 8, 10)
    >>> try:
    ...     check_ceiling([0, 0], 2 * 10**8, 10)
    ... except InvalidHand as err:
    ...     print(err.params)
    {'units': 200000000, 'limit': 100000000}
    """
    limit = CEILING // max(stake_cents, 1)
    if pot is not None and abs(pot) > limit:
        raise InvalidHand(
            index,
            "pot",
            "this hand would make the pot {units} units, more than a night may hold ({limit} units at this stake): "
            "nothing was saved",
            units=pot,
            limit=limit,
        )
    worst = max((abs(b) for b in balances), default=0)
    if worst > limit:
        raise InvalidHand(
            index,
            "",
            "this hand would make a player's balance {units} units, more than a night may hold ({limit} units at "
            "this stake): nothing was saved",
            units=worst,
            limit=limit,
        )


def check_money_ceiling(money: Sequence[int], stake_cents: int, index: int | None = None) -> None:
    """Refuse a hand after which a player's money in units passes the :data:`CEILING` (in units or in cents at
    ``stake_cents`` a unit), where the money is not the units the hands add up (:func:`check_ceiling` checks those)
    but the engine's balance made of them: Matt's ``stake_per_point`` times the points' difference
    (``Game.money_from_balance``; ``money``: that balance, per seat, in units). ``index``: the hand's.

    >>> check_money_ceiling([77_000, -77_000], 10)
    >>> try:
    ...     check_money_ceiling([77_000, -77_000], 100_000)
    ... except InvalidHand as err:
    ...     print(err.params)
    {'units': 77000, 'limit': 10000}
    """
    limit = CEILING // max(stake_cents, 1)
    worst = max((abs(m) for m in money), default=0)
    if worst > limit:
        raise InvalidHand(
            index,
            "",
            "this Durchgang would make a player's money {units} units (the points' difference times the stake per "
            "point), more than a night may hold ({limit} units at this stake): nothing was saved",
            units=worst,
            limit=limit,
        )


def position_units(settlement: Settlement, positions: Sequence[Sequence[int]], table_size: int) -> list[list[int]]:
    """Per hand, the units of every table position (index 0 = position 1); sitting out is 0."""
    return [
        position_row(result.deltas, hand_positions, table_size)
        for result, hand_positions in zip(settlement.results, positions, strict=True)
    ]


def position_row(deltas: Sequence[int], positions: Sequence[int], table_size: int) -> list[int]:
    """One hand's ``deltas`` (per engine seat, played by table ``positions``) as a row per table
    position (index 0 = position 1); sitting out is 0."""
    row = [0] * table_size
    for seat, delta in enumerate(deltas):
        row[positions[seat] - 1] += delta
    return row


def balance_units(
    settlement: Settlement, rows: Sequence[Sequence[int]], table_size: int, money_from_balance: bool = False
) -> list[int]:
    """Each position's balance in units: the sum of its deltas, or the engine's balance where the
    game's money comes from that (``Game.money_from_balance``; Matt: the deltas are points, not
    payments, and the engine's ``balance``, seats = positions, two players, is what money is made of)."""
    if money_from_balance:
        return list(settlement.balance)
    return [sum(row[p] for row in rows) for p in range(table_size)]


def cents(units: int, stake_cents: int) -> int:
    """Money for ``units`` at ``stake_cents`` per unit: integers only.

    >>> cents(-7, 50)
    -350
    """
    return units * stake_cents


def format_money(amount_cents: int, currency: str = "EUR", decimal: str = ",") -> str:
    """``-3,50 EUR`` (or with ``.`` as the decimal mark); integer arithmetic only.

    >>> format_money(-350), format_money(5, "CHF", ".")
    ('-3,50 EUR', '0.05 CHF')
    """
    sign = "-" if amount_cents < 0 else ""
    whole, part = divmod(abs(amount_cents), 100)
    return f"{sign}{whole}{decimal}{part:02d} {currency}"


def minimal_transfers(balances: Sequence[int]) -> list[tuple[int, int, int]]:
    """The fewest payments that settle ``balances`` (cents per person, adding up to zero).

    Returns ``(payer, payee, cents)`` with indexes into ``balances``. The minimum
    is exact: people split into as many groups as possible that each add up to
    zero, and a group of k people settles in k - 1 payments, so the count is
    (people not at zero) - (groups). Within a group the largest debtor pays the
    largest creditor first. Exact search over subsets: fine for a table's ~10 people.

    :raises ValueError: when the balances do not add up to zero or there are too many people.

    >>> minimal_transfers([-500, 300, 200])
    [(0, 1, 300), (0, 2, 200)]
    >>> minimal_transfers([-100, 100, -250, 250])  # largest payment first
    [(2, 3, 250), (0, 1, 100)]
    """
    if sum(balances) != 0:
        raise ValueError(f"balances must add up to zero, not {sum(balances)}")
    people = [i for i, b in enumerate(balances) if b]
    n = len(people)
    if n > 16:
        raise ValueError("too many people for an exact search")
    full = (1 << n) - 1
    total = [0] * (1 << n)
    best = [0] * (1 << n)  # most zero-sum groups a set of people can be split into
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + balances[people[low.bit_length() - 1]]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    # Peel off zero-sum groups: a smallest zero-sum subset whose removal keeps the best count.
    groups = []
    mask = full
    while mask:
        sub = mask
        chosen = mask
        while sub:
            if total[sub] == 0 and best[mask ^ sub] == best[mask] - 1 and bin(sub).count("1") < bin(chosen).count("1"):
                chosen = sub
            sub = (sub - 1) & mask
        groups.append([people[i] for i in range(n) if chosen >> i & 1])
        mask ^= chosen
    payments = []
    for group in groups:
        left = {i: balances[i] for i in group}
        while any(left.values()):
            payer = min(left, key=lambda i: (left[i], i))  # the largest debt
            payee = max(left, key=lambda i: (left[i], -i))  # the largest credit
            amount = min(-left[payer], left[payee])
            payments.append((payer, payee, amount))
            left[payer] += amount
            left[payee] -= amount
    payments.sort(key=lambda p: (-p[2], p[0], p[1]))
    return payments
