"""A tournament's pure logic: the table plan, the draw of each round, and the standings.

Pure Python and the standard library only (docs/tournaments.md explains the method and
its decisions). Players are participant ids (start numbers). Everything random is drawn
from a seed and reproducible: the same inputs give the same draw and the same lot on any
machine and any Python from 3.11 on, because the only randomness used is
``random.Random(text).random()``, the one sequence Python promises never to change.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

#: The fewest players a tournament can seat: one table of four.
MIN_PLAYERS = 4


# --------------------------------------------------------------------------- the table plan


def table_plan(n: int) -> tuple[tuple[int, ...], int]:
    """The table sizes for ``n`` players (tables of four first, then the tables of five) and the byes.

    Tables of four; as many tables of five as needed when ``n`` is not a multiple of four;
    never a table of three or fewer. Where no mix of four and five fits (6, 7 and 11
    players) the fewest players sit out the round.

    >>> table_plan(8), table_plan(9), table_plan(15)
    (((4, 4), 0), ((4, 5), 0), ((5, 5, 5), 0))
    >>> table_plan(6), table_plan(7), table_plan(11)
    (((5,), 1), ((5,), 2), ((5, 5), 1))
    >>> table_plan(3)
    Traceback (most recent call last):
    ...
    ValueError: a tournament needs at least 4 players, not 3
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"the number of players must be an integer, not {n!r}")
    if n < MIN_PLAYERS:
        raise ValueError(f"a tournament needs at least {MIN_PLAYERS} players, not {n}")
    for byes in range(n):
        seated = n - byes
        fives = seated % 4  # the fewest tables of five: 4a + 5b = seated needs b ≡ seated (mod 4)
        if 5 * fives <= seated:
            return (4,) * ((seated - 5 * fives) // 4) + (5,) * fives, byes
    raise AssertionError("unreachable: four players always fit")  # pragma: no cover


# --------------------------------------------------------------------------- the lot


class _Lot:
    """Seeded chance built on ``Random.random()`` alone (its sequence is guaranteed across versions)."""

    __slots__ = ("random",)

    def __init__(self, text: str) -> None:
        self.random = random.Random(text).random

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``."""
        return min(int(self.random() * n), n - 1)

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# --------------------------------------------------------------------------- the draw


@dataclass(frozen=True, slots=True)
class Draw:
    """One round's draw.

    ``tables``: the tables of four first, then the tables of five (table 1 is the first);
    each table lists its players by seat, seat 1 (the first dealer) first.
    ``byes``: the players who sit out the round (only with 6, 7 or 11 players), in id order.
    ``repeats``: the pairs of players at the same table this round who already shared a table
    in an earlier round, each pair counted once however often they met before.
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    repeats: int


def count_repeats(tables: Sequence[Sequence[int]], history: Sequence[Sequence[Sequence[int]]]) -> int:
    """The pairs at the same table in ``tables`` who already shared a table in ``history`` (each pair once).

    >>> count_repeats([[1, 2, 3, 4], [5, 6, 7, 8]], [[[1, 2, 5, 6], [3, 4, 7, 8]]])
    4
    """
    met = _met(history)
    return sum(1 for table in tables for pair in _pairs(table) if pair in met)


def _pairs(table: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Each pair of a table once, the smaller id first."""
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            yield (a, b) if a < b else (b, a)


def _met(history: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How many earlier rounds each pair shared a table in."""
    met: dict[tuple[int, int], int] = {}
    for round_tables in history:
        for table in round_tables:
            for pair in _pairs(table):
                met[pair] = met.get(pair, 0) + 1
    return met


def draw_round(
    players: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    seed: int | str,
    round_no: int,
    byes_so_far: Mapping[int, int] | None = None,
) -> Draw:
    """Draw round ``round_no`` for ``players`` (the ids still playing; their order does not matter).

    ``history`` holds the tables of the earlier rounds (a list of tables per round). The draw
    seats the fewest players who have already shared a table together again (see
    :class:`Draw` for what ``repeats`` counts); round 1, with no history, is a plain random draw.
    Byes (6, 7 or 11 players) go to those with the fewest byes in ``byes_so_far``, then by lot.

    >>> first = draw_round(range(1, 9), [], seed="club", round_no=1)
    >>> second = draw_round(range(1, 9), [first.tables], seed="club", round_no=2)
    >>> [len(table) for table in second.tables], second.repeats
    ([4, 4], 4)
    >>> draw_round(range(1, 9), [first.tables], seed="club", round_no=2) == second
    True
    """
    ids = sorted(players)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    sizes, bye_count = table_plan(len(ids))
    lot = _Lot(f"draw:{seed}:{round_no}")
    byes: list[int] = []
    if bye_count:
        earlier = byes_so_far or {}
        order = list(ids)
        lot.shuffle(order)
        order.sort(key=lambda p: earlier.get(p, 0))  # stable: the lot decides among equals
        byes = sorted(order[:bye_count])
        sitting_out = set(byes)
        ids = [p for p in ids if p not in sitting_out]
    met = _met(history)
    seated = _arrange(ids, sizes, met, lot)
    tables = []
    for table in seated:
        table = list(table)
        lot.shuffle(table)
        tables.append(tuple(table))
    tables.sort(key=len)  # stable: tables of four first, then the tables of five
    result = tuple(tables)
    return Draw(result, tuple(byes), count_repeats(result, history))


#: Restarts of the local search (each from a new greedy draw) when the best so far still has repeats.
RESTARTS = 4
#: The local search's budget per restart, in swap evaluations (bounds the time of any draw).
EVALUATIONS = 150_000
#: The steps of one restart lie between these, whatever the number of players.
MIN_STEPS, MAX_STEPS = 300, 1000
#: The chance of a step accepting the best swap it found although it makes things worse.
NOISE = 0.15


def _arrange(ids: list[int], sizes: tuple[int, ...], met: dict[tuple[int, int], int], lot: _Lot) -> list[list[int]]:
    """Seat ``ids`` at tables of ``sizes`` with the fewest repeated pairs: greedy, then local search.

    The cost of a pair who met before is ``big + times met - 1``: first the fewest repeated
    pairs, then, among equals, the fewest pairs meeting for the third time or more.
    """
    n = len(ids)
    rounds = max(met.values(), default=0)
    big = 2 * n * rounds + 1  # more than all the "met again and again" extras of any draw together
    index = {p: i for i, p in enumerate(ids)}
    cost = [[0] * n for _ in range(n)]
    for (a, b), times in met.items():
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None:
            cost[i][j] = cost[j][i] = big + times - 1
    steps = max(MIN_STEPS, min(MAX_STEPS, EVALUATIONS // n))
    best_where: list[int] = []
    best_cost = -1
    for _ in range(RESTARTS):
        where, total = _search(cost, sizes, lot, steps)
        if best_cost < 0 or total < best_cost:
            best_where, best_cost = where, total
        if best_cost == 0:
            break
    tables: list[list[int]] = [[] for _ in sizes]
    for i, t in enumerate(best_where):
        tables[t].append(ids[i])
    return tables


def _greedy(cost: list[list[int]], sizes: tuple[int, ...], lot: _Lot) -> list[int]:
    """Fill the tables one after another, each time with the player who adds the least cost.

    Players are taken in a random order, and ties go to the earlier one: with no history this
    is a shuffle cut into tables (round 1's random draw).
    """
    left = list(range(len(cost)))
    lot.shuffle(left)
    where = [0] * len(cost)
    for t, size in enumerate(sizes):
        table = [left.pop(0)]
        while len(table) < size:
            best_k, best_add = 0, -1
            for k, p in enumerate(left):
                row = cost[p]
                add = sum(row[x] for x in table)
                if best_add < 0 or add < best_add:
                    best_k, best_add = k, add
                    if add == 0:
                        break
            table.append(left.pop(best_k))
        for p in table:
            where[p] = t
    return where


def _search(cost: list[list[int]], sizes: tuple[int, ...], lot: _Lot, steps: int) -> tuple[list[int], int]:
    """A greedy draw improved by swapping players of different tables; the best seating found and its cost.

    Each step takes a random player who has met a table-mate before and looks at swapping them
    with every player at another table: the best swap is made when it does not make things
    worse (ties by lot), and with a small chance (``NOISE``) even when it does, to leave a dead end.
    """
    n = len(cost)
    where = _greedy(cost, sizes, lot)
    tables_n = len(sizes)
    # conflict[p][t]: the cost p would have with the players at table t (p itself not counted)
    conflict = [[0] * tables_n for _ in range(n)]
    for p in range(n):
        row, conf = cost[p], conflict[p]
        for q in range(n):
            if row[q]:
                conf[where[q]] += row[q]
    total = sum(conflict[p][where[p]] for p in range(n)) // 2
    best, best_total = list(where), total
    for _ in range(steps):
        if total == 0:
            break
        troubled = [p for p in range(n) if conflict[p][where[p]]]
        a = troubled[lot.below(len(troubled))]
        ta = where[a]
        conf_a, cost_a = conflict[a], cost[a]
        here = conf_a[ta]
        best_delta, choices = None, []
        for b in range(n):
            tb = where[b]
            if tb == ta:
                continue
            conf_b = conflict[b]
            delta = conf_b[ta] + conf_a[tb] - here - conf_b[tb] - 2 * cost_a[b]
            if best_delta is None or delta < best_delta:
                best_delta, choices = delta, [b]
            elif delta == best_delta:
                choices.append(b)
        if best_delta is None or (best_delta > 0 and lot.random() >= NOISE):
            continue
        b = choices[lot.below(len(choices))]
        tb = where[b]
        cost_b = cost[b]
        for p in range(n):
            change = cost_b[p] - cost_a[p]
            if change:
                conf = conflict[p]
                conf[ta] += change
                conf[tb] -= change
        where[a], where[b] = tb, ta
        total += best_delta
        if total < best_total:
            best, best_total = list(where), total
    return best, best_total


# --------------------------------------------------------------------------- the standings


@dataclass(frozen=True, slots=True)
class Entry:
    """A participant's record: points per round (``None``: did not play that round, or not yet), solos."""

    player: int
    points: tuple[int | None, ...] = ()
    solos_won: int = 0
    solos_lost: int = 0

    @property
    def total(self) -> int:
        """The points of all rounds played (a round not played counts 0)."""
        return sum(p for p in self.points if p is not None)


#: Which rule placed a participant: see :class:`Standing`.
DecidedBy = Literal["points", "solos_won", "solos_lost", "lot"]
_CRITERIA: tuple[DecidedBy, ...] = ("points", "solos_won", "solos_lost", "lot")


@dataclass(frozen=True, slots=True)
class Standing:
    """A participant's place.

    ``rank`` runs 1..n without ties. ``decided_by`` names the last rule needed to put the
    participant between their neighbours in the standings: ``"points"`` when no neighbour has
    the same total, else the tie-break that separated them from a neighbour with equal points
    (``"solos_won"``, ``"solos_lost"`` or ``"lot"``); ``None`` for the only participant.
    """

    player: int
    points: tuple[int | None, ...]
    solos_won: int
    solos_lost: int
    total: int
    rank: int
    decided_by: DecidedBy | None


def lot_key(seed: int | str, player: int) -> bytes:
    """A participant's place in the seeded lot: the same for a seed and an id whoever else plays."""
    return hashlib.sha256(f"lot:{seed}:{player}".encode()).digest()


def standings(entries: Sequence[Entry], seed: int | str) -> list[Standing]:
    """The standings: total points (more first), then more solos won, then fewer solos lost, then by lot.

    The lot is reproducible from ``seed`` and does not depend on the order of ``entries``.

    >>> table = standings([Entry(1, (3, -1)), Entry(2, (2, None), solos_won=1), Entry(3, (-4, 1))], seed=7)
    >>> [(s.rank, s.player, s.total, s.decided_by) for s in table]
    [(1, 2, 2, 'solos_won'), (2, 1, 2, 'solos_won'), (3, 3, -3, 'points')]
    """
    seen: set[int] = set()
    for entry in entries:
        if entry.player in seen:
            raise ValueError(f"participant {entry.player} is listed twice")
        seen.add(entry.player)
        if entry.solos_won < 0 or entry.solos_lost < 0:
            raise ValueError(f"participant {entry.player}: the number of solos cannot be negative")

    def key(entry: Entry) -> tuple[int, int, int, bytes]:
        return (-entry.total, -entry.solos_won, entry.solos_lost, lot_key(seed, entry.player))

    ordered = sorted(entries, key=key)
    keys = [key(e) for e in ordered]

    def separated_by(i: int, j: int) -> int:
        """The index in _CRITERIA of the first rule that tells places i and j apart."""
        return next(k for k in range(len(_CRITERIA)) if keys[i][k] != keys[j][k])

    result = []
    for i, entry in enumerate(ordered):
        depths = [separated_by(i, j) for j in (i - 1, i + 1) if 0 <= j < len(ordered)]
        result.append(
            Standing(
                player=entry.player,
                points=tuple(entry.points),
                solos_won=entry.solos_won,
                solos_lost=entry.solos_lost,
                total=entry.total,
                rank=i + 1,
                decided_by=_CRITERIA[max(depths)] if depths else None,
            )
        )
    return result
