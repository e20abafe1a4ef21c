"""A tournament's pure logic: the table plan, the draw of each round, and the standings.

Pure Python and the standard library only (docs/tournaments.md explains the method and
its decisions). Players are participant ids (start numbers). Everything random is drawn
from a seed and reproducible: the same inputs give the same draw and the same lot on any
machine and any Python from 3.11 on, because the only randomness used is
``random.Random(text).random()``, the one sequence Python promises never to change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    ``together``: the pairs to keep apart that the draw could not keep apart this round
    (smaller id first, in order); empty when every such pair sits at different tables.
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    repeats: int
    together: tuple[tuple[int, int], ...] = ()


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


def apart_pairs(keep_apart: Iterable[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    """Pairs to keep apart as the draw reads them: each pair once, the smaller id first, in order.

    >>> apart_pairs([(7, 3), [3, 7], (1, 2)])
    ((1, 2), (3, 7))
    >>> apart_pairs([(4, 4)])
    Traceback (most recent call last):
    ...
    ValueError: a pair to keep apart needs two different players, not (4, 4)
    """
    pairs = set()
    for pair in keep_apart:
        a, b = pair
        if a == b:
            raise ValueError(f"a pair to keep apart needs two different players, not ({a}, {b})")
        pairs.add((a, b) if a < b else (b, a))
    return tuple(sorted(pairs))


def draw_round(
    players: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    seed: int | str,
    round_no: int,
    byes_so_far: Mapping[int, int] | None = None,
    *,
    rounds: int | None = None,
    keep_apart: Iterable[Sequence[int]] = (),
) -> Draw:
    """Draw round ``round_no`` of ``rounds`` for ``players`` (the ids still playing; their order does not matter).

    ``history`` holds the tables of the earlier rounds (a list of tables per round). The draw
    plans this round and the later ones up to round ``rounds`` together (``None``: this round
    is the last) with the fewest repeated table-mates over all of them, and returns this round;
    the next call plans the rest again from what was really played, so a change of players is
    simply planned around. Pairs in ``keep_apart`` are seated apart before anything else
    (:class:`Draw` says which it could not). Byes (6, 7 or 11 players) go to those with the
    fewest byes in ``byes_so_far``, then by lot.

    >>> first = draw_round(range(1, 9), [], seed="club", round_no=1, rounds=2)
    >>> second = draw_round(range(1, 9), [first.tables], seed="club", round_no=2, rounds=2)
    >>> [len(table) for table in second.tables], second.repeats
    ([4, 4], 4)
    >>> draw_round(range(1, 9), [first.tables], seed="club", round_no=2, rounds=2) == second
    True
    """
    ids = sorted(players)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    sizes, bye_count = table_plan(len(ids))
    playing = set(ids)
    apart = [pair for pair in apart_pairs(keep_apart) if pair[0] in playing and pair[1] in playing]
    last = round_no if rounds is None else max(rounds, round_no)
    horizon = max(1, min(last - round_no + 1, LOOKAHEAD_CELLS // len(ids) ** 2))
    earlier = dict(byes_so_far or {})
    byes: list[list[int]] = []
    for number in range(round_no, round_no + horizon):
        out = _byes(ids, bye_count, earlier, seed, number)
        byes.append(out)
        for p in out:
            earlier[p] = earlier.get(p, 0) + 1
    lot = _Lot(f"plan:{seed}:{round_no}")
    seated = _plan(ids, sizes, history, byes, apart, lot)[0]
    tables = []
    for table in seated:
        table = list(table)
        lot.shuffle(table)
        tables.append(tuple(table))
    tables.sort(key=len)  # stable: tables of four first, then the tables of five
    result = tuple(tables)
    at = {p: t for t, table in enumerate(result) for p in table}
    together = tuple(pair for pair in apart if pair[0] in at and at[pair[0]] == at.get(pair[1]))
    return Draw(result, tuple(byes[0]), count_repeats(result, history), together)


def _byes(ids: list[int], count: int, earlier: Mapping[int, int], seed: int | str, round_no: int) -> list[int]:
    """Who sits out round ``round_no``: the fewest byes so far first, then by lot."""
    if not count:
        return []
    order = list(ids)
    _Lot(f"draw:{seed}:{round_no}").shuffle(order)
    order.sort(key=lambda p: earlier.get(p, 0))  # stable: the lot decides among equals
    return sorted(order[:count])


#: The draw plans at most this many rounds × players² ahead (bounds memory and time for huge fields:
#: 200 players plan 50 rounds ahead, 1000 players 2).
LOOKAHEAD_CELLS = 2_000_000
#: Restarts of a round's local search (each from a new greedy draw) when the best so far still has repeats.
RESTARTS = 4
#: A round's local search's budget per restart, in swap evaluations (bounds the time of any draw).
EVALUATIONS = 150_000
#: ... when it is a start for planning several rounds together.
QUICK_EVALUATIONS = 4_000
#: The steps of one restart lie between these, whatever the number of players.
MIN_STEPS, MAX_STEPS = 100, 1000
#: The chance of a step accepting the best swap it found although it makes things worse.
NOISE = 0.15
#: The search over the planned rounds together: its budget in swap evaluations, all starts together
#: (a step counts ``STEP_COST`` more for its own work: the budget bounds the time of any draw).
PLAN_EVALUATIONS, STEP_COST = 500_000, 25
#: ... the most starts it makes (the affine plane where it fits, then rounds drawn one by one).
PLAN_STARTS = 4
#: ... and it stops a start after this many steps without a better plan (40 per player in small fields).
PATIENCE = 1000


def _marginals(levels: int, slots: int) -> list[int]:
    """``add[k]``: what a pair's meeting costs when they met ``k`` times already; ``add[levels + 1 + k]``:
    the same for a pair to keep apart.

    ``levels`` is the most times a pair can meet, ``slots`` the pairs seated in all planned rounds.
    Each kind of cost outweighs all the kinds below it in a whole plan together: a pair kept
    apart seated together, then a repeat, then a pair meeting for the third time, the fourth, …
    """
    step = slots + 1
    higher = [0, 0] + [step ** (k - 1) for k in range(2, levels + 1)]  # a third meeting and later
    repeat = slots * higher[levels] + 1
    add = [0] + [repeat + higher[k] for k in range(1, levels + 1)]
    apart = slots * add[levels] + 1
    return add + [apart + a for a in add]


def _plan(
    ids: list[int],
    sizes: tuple[int, ...],
    history: Sequence[Sequence[Sequence[int]]],
    byes: list[list[int]],
    apart: list[tuple[int, int]],
    lot: _Lot,
) -> list[list[list[int]]]:
    """The planned rounds (one per entry of ``byes``), each a list of tables of ids in the order of ``sizes``."""
    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    levels = len(history) + len(byes)
    slots = len(byes) * sum(s * (s - 1) // 2 for s in sizes)  # the pairs seated in all planned rounds
    add = _marginals(levels, slots)
    base = [[0] * n for _ in range(n)]  # how often each pair met before; + levels + 1 for a pair to keep apart
    local_history = []
    for round_tables in history:
        local_round = []
        for table in round_tables:
            local = [index[p] for p in table if p in index]
            local_round.append(local)
            for x, i in enumerate(local):
                for j in local[x + 1 :]:
                    base[i][j] += 1
                    base[j][i] += 1
        local_history.append(local_round)
    apart_local = [(index[a], index[b]) for a, b in apart]
    for i, j in apart_local:
        base[i][j] += levels + 1
        base[j][i] += levels + 1
    seated = []
    for out in byes:
        away = {index[p] for p in out}
        seated.append([i for i in range(n) if i not in away])
    floor = _least(base, add, slots)
    design = _design_start(sizes, local_history, len(byes), apart_local, lot)
    done = [] if design is None else design
    best: list[list[int]] = []
    best_cost = -1
    budget = PLAN_EVALUATIONS
    for attempt in range(PLAN_STARTS):
        # one round alone: the thorough search of a round; several: quick ones, the plan's search does the rest
        restarts, steps = (RESTARTS, EVALUATIONS) if len(byes) == 1 and not attempt else (1, QUICK_EVALUATIONS)
        start = _sequential(done, seated, sizes, base, add, lot, restarts, steps)
        where, cost, used = _improve(start, seated, len(sizes), base, add, lot, budget, floor)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = where, cost
        budget -= used
        if best_cost <= floor or budget <= 0:
            break
        done = []
    plan = []
    for where in best:
        tables: list[list[int]] = [[] for _ in sizes]
        for i, t in enumerate(where):
            if t >= 0:
                tables[t].append(ids[i])
        plan.append(tables)
    return plan


def _least(base: list[list[int]], add: list[int], slots: int) -> int:
    """A lower bound of a plan's cost: its ``slots`` meetings given to the pairs that cost least.

    It ignores the tables (with 8 players, three rounds cost more than it says); where a plan
    reaches it, no plan is better and the search stops.
    """
    levels = len(add) // 2 - 1
    count = [0] * len(add)  # pairs by how often they met before (+ levels + 1: to keep apart)
    for i, row in enumerate(base):
        for j in range(i):
            count[row[j]] += 1
    least = 0
    reach = [0] * len(add)  # reach[x]: the pairs that can be given a meeting costing add[x]
    for region in (range(levels + 1), range(levels + 1, len(add))):
        below = 0
        for x in region:
            below += count[x]
            reach[x] = below
    for x in sorted(range(len(add)), key=add.__getitem__):
        take = min(slots, reach[x])
        least += take * add[x]
        slots -= take
        if not slots:
            break
    return least


def _sequential(
    done: list[list[int]],
    seated: list[list[int]],
    sizes: tuple[int, ...],
    base: list[list[int]],
    add: list[int],
    lot: _Lot,
    restarts: int,
    evaluations: int,
) -> list[list[int]]:
    """The planned rounds after ``done`` drawn one at a time, each with the fewest repeats given those before it.

    A round is ``where``: each player's table (index into ``sizes``), -1 for a bye.
    """
    n = len(base)
    met = [row[:] for row in base]
    plan = []
    for k, seats in enumerate(seated):
        if k < len(done):
            where = done[k]
        else:
            cost = [[add[met[i][j]] for j in seats] for i in seats]
            local = _arrange(cost, sizes, lot, restarts, evaluations)
            where = [-1] * n
            for x, i in enumerate(seats):
                where[i] = local[x]
        _meet(met, _members(where, len(sizes)), add)
        plan.append(where)
    return plan


def _members(where: list[int], tables: int) -> list[list[int]]:
    """The players at each table of a round (``where``: each player's table, -1 for a bye)."""
    members: list[list[int]] = [[] for _ in range(tables)]
    for i, t in enumerate(where):
        if t >= 0:
            members[t].append(i)
    return members


def _meet(met: list[list[int]], members: list[list[int]], add: list[int]) -> int:
    """Count the meetings of a round's tables in ``met``; what they cost."""
    cost = 0
    for table in members:
        for x, i in enumerate(table):
            row = met[i]
            for j in table[x + 1 :]:
                cost += add[row[j]]
                row[j] += 1
                met[j][i] += 1
    return cost


def _arrange(cost: list[list[int]], sizes: tuple[int, ...], lot: _Lot, restarts: int, evaluations: int) -> list[int]:
    """Seat players ``0..len(cost) - 1`` at tables of ``sizes`` with the least cost: greedy, then local search.

    ``cost[i][j]``: what seating ``i`` and ``j`` together costs. Returns each player's table.
    """
    n = len(cost)
    steps = max(MIN_STEPS, min(MAX_STEPS, evaluations // n))
    best_where: list[int] = []
    best_cost = -1
    for _ in range(restarts):
        where, total = _search(cost, sizes, lot, steps)
        if best_cost < 0 or total < best_cost:
            best_where, best_cost = where, total
        if best_cost == 0:
            break
    return best_where


def _improve(
    start: list[list[int]],
    seated: list[list[int]],
    tables: int,
    base: list[list[int]],
    add: list[int],
    lot: _Lot,
    budget: int,
    floor: int,
) -> tuple[list[list[int]], int, int]:
    """A plan of several rounds improved by swapping two players at different tables of one round.

    Each step takes a random round and in it a random player who meets a table-mate again (or
    one to keep apart), and makes the swap with any player of another table of that round that
    lowers the plan's cost most; ties by lot, a swap that makes things worse only by a small
    chance (``NOISE``). It stops at the cost ``floor`` (no plan costs less), after ``budget`` swap
    evaluations, or after ``PATIENCE`` steps without a better plan. Returns the best plan seen, its
    cost (0: no repeats at all) and the evaluations it used.
    """
    n, rounds = len(base), len(start)
    where = [list(w) for w in start]
    met = [row[:] for row in base]
    members_of = [_members(w, tables) for w in where]
    total = sum(_meet(met, members, add) for members in members_of)
    if total <= floor or rounds == 1:
        return where, total, 0
    # conflict[k][i][t]: what seating i at table t of round k costs, given every other meeting of the plan
    known = [[j for j, times in enumerate(row) if times and j != i] for i, row in enumerate(met)]
    conflict = []
    for w in where:
        conf_k = [[0] * tables for _ in range(n)]
        for i in range(n):
            own = w[i]
            if own < 0:
                continue
            row, conf = met[i], conf_k[i]
            for j in known[i]:
                t = w[j]
                if t >= 0:
                    conf[t] += add[row[j] - (t == own)]
        conflict.append(conf_k)
    best, best_total = [list(w) for w in where], total
    since = used = 0
    patience = min(PATIENCE, 40 * n)  # a small field's search space is small
    while used < budget and total > floor and since < patience:
        since += 1
        k = lot.below(rounds)
        w, conf_k, seats = where[k], conflict[k], seated[k]
        troubled = [i for i in seats if conf_k[i][w[i]]]
        if not troubled:
            continue
        a = troubled[lot.below(len(troubled))]
        ta = w[a]
        conf_a, met_a = conf_k[a], met[a]
        used += len(seats) + STEP_COST
        best_delta, choices = _best_swaps(a, seats, w, conf_k, [add[times] for times in met_a])
        if best_delta is None or (best_delta > 0 and lot.random() >= NOISE):
            continue
        b = choices[lot.below(len(choices))]
        tb = w[b]
        met_b = met[b]
        for p in seats:  # round k: table ta loses a and gains b, table tb the other way round
            if p in (a, b):
                continue
            tp = w[p]
            change = add[met_b[p] - (tp == tb)] - add[met_a[p] - (tp == ta)]
            if change:
                conf = conf_k[p]
                conf[ta] += change
                conf[tb] -= change
        ab = add[met_a[b]]
        conf_a[ta] += ab
        conf_a[tb] -= ab
        conf_k[b][tb] += ab
        conf_k[b][ta] -= ab
        table_a, table_b = members_of[k][ta], members_of[k][tb]
        changes = [(a, x, -1) for x in table_a if x != a]
        changes += [(b, x, 1) for x in table_a if x != a]
        changes += [(b, y, -1) for y in table_b if y != b]
        changes += [(a, y, 1) for y in table_b if y != b]
        for p, q, d in changes:  # the other rounds: the pair now meets once more or once less
            old = met[p][q]
            for j in range(rounds):
                if j == k:
                    continue
                wj = where[j]
                tp, tq = wj[p], wj[q]
                if tp < 0 or tq < 0:
                    continue
                together = tp == tq
                change = add[old + d - together] - add[old - together]
                if change:
                    conflict[j][p][tq] += change
                    conflict[j][q][tp] += change
            met[p][q] = met[q][p] = old + d
        table_a.remove(a)
        table_a.append(b)
        table_b.remove(b)
        table_b.append(a)
        w[a], w[b] = tb, ta
        total += best_delta
        if total < best_total:
            best, best_total, since = [list(x) for x in where], total, 0
    return best, best_total, used


def _gf4(a: int, b: int) -> int:
    """Multiplication in the field of four elements (0, 1, ω = 2, ω² = 3; addition is XOR)."""
    if not a or not b:
        return 0
    log = {1: 0, 2: 1, 3: 2}
    return (1, 2, 3)[(log[a] + log[b]) % 3]


#: The affine plane of order 4: 16 points (4x + y), 5 classes of 4 parallel lines of 4 points.
#: Each class is a round for 16 players; any two rounds of it share no pair: 5 rounds without a repeat.
AFFINE_16: tuple[tuple[frozenset[int], ...], ...] = (
    tuple(frozenset(4 * c + y for y in range(4)) for c in range(4)),
    *(tuple(frozenset(4 * x + (_gf4(s, x) ^ c) for x in range(4)) for c in range(4)) for s in range(4)),
)


def _cyclic(m: int, columns: int, base: str) -> tuple[tuple[frozenset[int], ...], ...]:
    """The rounds ``base + k`` (k in Z_m) of a base round over the points ``Z_m x columns`` and fixed points.

    ``base`` lists the base round's tables, ``;`` between tables, ``,`` between points: ``i.a`` is the
    point ``(i, a)`` (numbered ``a * m + i``), ``*k`` the k-th fixed point (numbered ``m * columns + k``),
    which every translate leaves where it is.
    """

    def point(text: str, k: int) -> int:
        if text.startswith("*"):
            return m * columns + int(text[1:])
        i, a = (int(x) for x in text.split("."))
        return a * m + (i + k) % m

    tables = [table.split(",") for table in base.split(";")]
    return tuple(tuple(frozenset(point(x, k) for x in table) for table in tables) for k in range(m))


#: Schedules without a repeated table-mate for fields of tables of four: players -> rounds (classes of
#: tables, points 0..n-1). 16: the affine plane (5 rounds); 20: 5 rounds, 24: 7, 28: 9 (every pair meets
#: once), each the translates of one base round by Z_m (found by a search over base rounds whose
#: pairs lie in different orbits, so that no two translates share a pair; checked by the tests).
DESIGNS: dict[int, tuple[tuple[frozenset[int], ...], ...]] = {
    16: AFFINE_16,
    20: _cyclic(5, 4, "0.0,2.2,3.0,3.3;0.1,0.2,3.1,4.0;0.3,3.2,2.1,1.2;1.0,1.1,2.3,4.2;1.3,4.1,2.0,4.3"),
    24: _cyclic(7, 3, "*0,6.0,6.1,2.2;*1,4.0,6.2,1.1;*2,5.0,3.1,5.2;0.0,2.1,1.0,3.0;0.1,5.1,4.1,4.2;0.2,2.0,3.2,1.2"),
    28: _cyclic(
        9,
        3,
        "*0,1.0,4.2,3.1;0.0,1.1,5.1,8.2;0.1,7.1,3.0,6.1;0.2,2.0,4.0,7.0;1.2,2.1,2.2,7.2;3.2,8.0,8.1,5.2;"
        "4.1,6.2,6.0,5.0",
    ),
}


def _design_start(
    sizes: tuple[int, ...], history: list[list[list[int]]], rounds: int, apart: list[tuple[int, int]], lot: _Lot
) -> list[list[int]] | None:
    """The rounds of a known schedule without repeats (``DESIGNS``) for a field of tables of four, its points
    given to the players by lot so that the rounds played so far are rounds of it, where they can be
    (None where they cannot, or no schedule is known). The rounds not played yet come first the ones
    that seat pairs to keep apart at different tables; rounds beyond the schedule's are drawn after it."""
    n = 4 * len(sizes)
    design = DESIGNS.get(n)
    if design is None or set(sizes) != {4} or len(history) >= len(design):
        return None
    if any(sorted(len(t) for t in r) != list(sizes) for r in history):
        return None  # somebody did not play a round (a withdrawal, a late entry): not the schedule's rounds
    line_of = [{p: t for t, line in enumerate(lines) for p in line} for lines in design]
    found = _embed(history, design, line_of, lot)
    if found is None:
        return None
    point, used = found
    order = [c for c in range(len(design)) if c not in used]
    lot.shuffle(order)
    order.sort(key=lambda c: sum(1 for i, j in apart if line_of[c][point[i]] == line_of[c][point[j]]))
    return [[line_of[c][point[i]] for i in range(n)] for c in order[:rounds]]


#: The most players placed (tries) while looking for the schedule's points of the rounds played.
EMBED_TRIES = 20_000


def _embed(
    history: list[list[list[int]]],
    design: tuple[tuple[frozenset[int], ...], ...],
    line_of: list[dict[int, int]],
    lot: _Lot,
) -> tuple[list[int], set[int]] | None:
    """Each player's point of ``design`` such that every round of ``history`` is one of its rounds (a
    different one each), and the rounds used; None when there is none (or none found in ``EMBED_TRIES``).

    Backtracking, one player after another (each next the one with table-mates already placed in the
    most rounds): two table-mates placed fix their round's class (the one line through their points),
    a table's line is then its own, and every later table-mate must lie on it.
    """
    n = sum(len(t) for t in design[0])
    point = list(range(n))
    lot.shuffle(point)
    if not history:
        return point, set()
    table_of = [{p: t for t, table in enumerate(r) for p in table} for r in history]
    mates = [[[q for q in r[table_of[k][p]] if q != p] for k, r in enumerate(history)] for p in range(n)]
    line_through: dict[tuple[int, int], tuple[int, int]] = {}
    for c, lines in enumerate(design):
        for t, line in enumerate(lines):
            for x in line:
                for y in line:
                    if x != y:
                        line_through[x, y] = (c, t)
    order = [history[0][0][0]]
    placed_set = {order[0]}
    while len(order) < n:
        best = max(
            (p for p in range(n) if p not in placed_set),
            key=lambda p: (sum(any(q in placed_set for q in m) for m in mates[p]), -p),
        )
        order.append(best)
        placed_set.add(best)
    candidates = list(range(n))
    lot.shuffle(candidates)
    at = [-1] * n  # the point of each player placed
    holder = [-1] * n  # the player at each point
    cls = [-1] * len(history)  # the class of each round played
    lines = [dict() for _ in history]  # each round's table -> its line
    tables = [dict() for _ in history]  # each round's line -> its table
    tries = [0]

    def place(k: int) -> bool:
        if k == n:
            return True
        p = order[k]
        for x in candidates:
            if holder[x] >= 0:
                continue
            tries[0] += 1
            if tries[0] > EMBED_TRIES:
                return False
            undo = []
            ok = True
            for r in range(len(history)):
                t = table_of[r][p]
                c = cls[r]
                if c < 0:
                    q = next((q for q in mates[p][r] if at[q] >= 0), -1)
                    if q < 0:
                        continue
                    c, _ = line_through.get((x, at[q]), (-1, -1))
                    if c < 0 or c in cls:
                        ok = False
                        break
                    cls[r] = c
                    undo.append((r, None))
                line = line_of[c][x]
                have = lines[r].get(t)
                if have is None:
                    if line in tables[r] or any(at[q] >= 0 and line_of[c][at[q]] != line for q in mates[p][r]):
                        ok = False
                        break
                    lines[r][t] = line
                    tables[r][line] = t
                    undo.append((r, t))
                elif have != line:
                    ok = False
                    break
            if ok:
                at[p], holder[x] = x, p
                if place(k + 1):
                    return True
                at[p], holder[x] = -1, -1
            for r, t in reversed(undo):
                if t is None:
                    cls[r] = -1
                else:
                    del tables[r][lines[r].pop(t)]
            if tries[0] > EMBED_TRIES:
                return False
        return False

    if not place(0) or -1 in cls:
        return None
    return at, set(cls)


def _best_swaps(
    a: int, players: Iterable[int], where: list[int], conflict: list[list[int]], cost_a: list[int]
) -> tuple[int | None, list[int]]:
    """The swaps of ``a`` with a player at another table that change the cost least: that change and
    the players (None and none when everybody sits at ``a``'s table).

    ``conflict[p][t]``: what seating ``p`` at table ``t`` costs; ``cost_a[b]``: what ``a`` and ``b``
    at one table cost.
    """
    ta = where[a]
    conf_a = conflict[a]
    here = conf_a[ta]
    best_delta, choices = None, []
    for b in players:
        tb = where[b]
        if tb == ta:
            continue
        conf_b = conflict[b]
        delta = conf_a[tb] + conf_b[ta] - here - conf_b[tb] - 2 * cost_a[b]
        if best_delta is None or delta < best_delta:
            best_delta, choices = delta, [b]
        elif delta == best_delta:
            choices.append(b)
    return best_delta, choices


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
        cost_a = cost[a]
        best_delta, choices = _best_swaps(a, range(n), where, conflict, cost_a)
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


def separated_by(upper: Standing, lower: Standing) -> DecidedBy:
    """The first rule that puts ``upper`` before ``lower`` (two places of one standings list).

    >>> table = standings([Entry(1, (4,), solos_won=1), Entry(2, (4,), solos_won=1, solos_lost=2)], seed=0)
    >>> separated_by(table[0], table[1])
    'solos_lost'
    """
    if upper.total != lower.total:
        return "points"
    if upper.solos_won != lower.solos_won:
        return "solos_won"
    if upper.solos_lost != lower.solos_lost:
        return "solos_lost"
    return "lot"


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
    result = [
        Standing(
            player=entry.player,
            points=tuple(entry.points),
            solos_won=entry.solos_won,
            solos_lost=entry.solos_lost,
            total=entry.total,
            rank=i + 1,
            decided_by=None,
        )
        for i, entry in enumerate(ordered)
    ]
    for i, standing in enumerate(result):
        steps = [separated_by(result[i - 1], standing)] if i else []
        if i + 1 < len(result):
            steps.append(separated_by(standing, result[i + 1]))
        if steps:
            result[i] = dataclasses.replace(standing, decided_by=max(steps, key=_CRITERIA.index))
    return result
