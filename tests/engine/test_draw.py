"""A tournament's table plan and table draw (RULES.md "Tournaments", docs/tournaments.md)."""

from __future__ import annotations

import itertools
import random

import pytest

from scorekeeper.engine.tournament import Draw, count_repeats, draw_round, table_plan

# --------------------------------------------------------------------------- helpers (the brute-force reference)


def fits(n):
    """Whether ``n`` players fit tables of four and five exactly (checked by trying every count of fives)."""
    return any((n - 5 * fives) % 4 == 0 for fives in range(n // 5 + 1))


def fewest_fives(n):
    return min(fives for fives in range(n // 5 + 1) if (n - 5 * fives) % 4 == 0)


def met_pairs(history):
    return {
        frozenset(pair)
        for round_tables in history
        for table in round_tables
        for pair in itertools.combinations(table, 2)
    }


def repeats_of(tables, history):
    """Repeated pairs counted here independently of the engine: each pair once."""
    met = met_pairs(history)
    return sum(1 for table in tables for pair in itertools.combinations(table, 2) if frozenset(pair) in met)


def seatings(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered, seats unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in seatings(others, left_sizes):
                yield [(first, *mates), *tail]


def optimum(players, history):
    """The fewest repeats any seating reaches, by trying them all."""
    sizes, byes = table_plan(len(players))
    assert byes == 0
    met = met_pairs(history)
    best = None
    for tables in seatings(sorted(players), sizes):
        value = sum(1 for table in tables for pair in itertools.combinations(table, 2) if frozenset(pair) in met)
        if best is None or value < best:
            best = value
            if best == 0:
                break
    return best


def rounds_drawn(n, rounds, seed="club"):
    """Draw ``rounds`` rounds of ``n`` players one after the other; the list of draws."""
    history, byes, draws = [], {}, []
    for round_no in range(1, rounds + 1):
        draw = draw_round(range(1, n + 1), history, seed, round_no, byes)
        draws.append(draw)
        history.append(draw.tables)
        for p in draw.byes:
            byes[p] = byes.get(p, 0) + 1
    return draws


def random_history(n, rounds, seed):
    """``rounds`` rounds drawn at random (ignoring who met), as tables of the plan's sizes."""
    rng = random.Random(seed)
    sizes, _ = table_plan(n)
    history = []
    for _ in range(rounds):
        ids = list(range(1, n + 1))
        rng.shuffle(ids)
        tables, start = [], 0
        for size in sizes:
            tables.append(ids[start : start + size])
            start += size
        history.append(tables)
    return history


# --------------------------------------------------------------------------- the table plan

ALL_N = range(4, 204)


@pytest.mark.parametrize("n", ALL_N)
def test_table_plan_seats_four_or_five_at_every_table_never_three(n):
    sizes, byes = table_plan(n)
    assert sizes and set(sizes) <= {4, 5}
    assert sum(sizes) + byes == n


@pytest.mark.parametrize("n", [n for n in ALL_N if fits(n)])
def test_table_plan_has_only_as_many_tables_of_five_as_needed(n):
    sizes, byes = table_plan(n)
    assert byes == 0
    assert sizes.count(5) == fewest_fives(n)


def test_table_plan_has_byes_only_for_6_7_and_11_players():
    with_byes = {n: table_plan(n)[1] for n in ALL_N if table_plan(n)[1]}
    assert with_byes == {6: 1, 7: 2, 11: 1}
    assert [n for n in ALL_N if not fits(n)] == [6, 7, 11]


@pytest.mark.parametrize(("n", "plan"), [(6, ((5,), 1)), (7, ((5,), 2)), (11, ((5, 5), 1))])
def test_table_plan_sits_out_the_fewest_players_when_no_tables_fit(n, plan):
    sizes, byes = table_plan(n)
    assert (sizes, byes) == plan
    assert not any(fits(n - fewer) for fewer in range(byes))
    assert sizes.count(5) == fewest_fives(n - byes)


def test_table_plan_lists_tables_of_four_before_tables_of_five():
    for n in ALL_N:
        sizes, _ = table_plan(n)
        assert list(sizes) == sorted(sizes)


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 3])
def test_table_plan_refuses_fewer_than_four_players(n):
    with pytest.raises(ValueError, match="needs at least 4 players"):
        table_plan(n)


# --------------------------------------------------------------------------- the draw: everybody seated once


@pytest.mark.parametrize("n", [*range(4, 26), 40, 57, 203])
def test_draw_seats_every_player_exactly_once_per_round_or_gives_a_bye(n):
    for draw in rounds_drawn(n, 3):
        seated = [p for table in draw.tables for p in table]
        assert sorted(seated + list(draw.byes)) == list(range(1, n + 1))
        sizes, byes = table_plan(n)
        assert tuple(len(t) for t in draw.tables) == sizes
        assert len(draw.byes) == byes


def test_draw_seats_players_in_a_random_order_at_each_table():
    draw = rounds_drawn(40, 1)[0]
    assert any(list(table) != sorted(table) for table in draw.tables)


def test_draw_refuses_a_player_listed_twice():
    with pytest.raises(ValueError, match="listed twice"):
        draw_round([1, 2, 3, 4, 4], [], seed=1, round_no=1)


def test_draw_refuses_fewer_than_four_players():
    with pytest.raises(ValueError, match="needs at least 4 players"):
        draw_round([1, 2, 3], [], seed=1, round_no=1)


# --------------------------------------------------------------------------- reproducible


def test_draw_is_reproducible_from_the_seed():
    history = [draw.tables for draw in rounds_drawn(40, 2, seed="Preisschafkopf 2026")]
    first = draw_round(range(1, 41), history, "Preisschafkopf 2026", 3)
    again = draw_round(range(1, 41), history, "Preisschafkopf 2026", 3)
    assert first == again
    assert rounds_drawn(40, 3, seed=7) == rounds_drawn(40, 3, seed=7)


def test_draw_does_not_depend_on_the_order_of_the_players():
    players = list(range(1, 41))
    shuffled = list(reversed(players))
    assert draw_round(players, [], "x", 1) == draw_round(shuffled, [], "x", 1)


def test_draw_known_value_stays_the_same_on_every_machine_and_python():
    """Pins one draw: a change in the method or in the seeding shows here (update it only on purpose)."""
    draw = draw_round(range(1, 10), [], seed="club", round_no=1)
    assert draw == KNOWN_DRAW


KNOWN_DRAW = Draw(tables=((4, 6, 8, 3), (2, 1, 9, 7, 5)), byes=(), repeats=0)


def test_draw_with_another_seed_or_round_is_another_draw():
    base = draw_round(range(1, 41), [], seed=1, round_no=1)
    assert draw_round(range(1, 41), [], seed=2, round_no=1).tables != base.tables
    assert draw_round(range(1, 41), [], seed="1", round_no=2).tables != base.tables


# --------------------------------------------------------------------------- repeats


def test_repeats_count_each_pair_once_however_often_they_met():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 3, 4], [5, 6, 7, 8]]]
    # 1-2, 3-4, 5-6 and 7-8 met twice before: four pairs, each counted once
    assert count_repeats([[1, 2, 5, 6], [3, 4, 7, 8]], history) == 4
    assert count_repeats([[1, 2, 5, 6], [3, 4, 7, 8]], history[:1]) == 4
    assert count_repeats([[1, 5, 3, 7], [2, 6, 4, 8]], history) == 4
    assert count_repeats([[1, 5, 2, 6], [3, 7, 4, 8]], []) == 0


def test_draw_reports_the_repeats_it_seats():
    history = random_history(16, 3, seed=5)
    draw = draw_round(range(1, 17), history, seed=5, round_no=4)
    assert draw.repeats == repeats_of(draw.tables, history)


@pytest.mark.parametrize(("n", "round_no"), [(8, 2), (8, 3), (9, 2), (10, 2), (12, 2), (12, 3), (13, 2)])
def test_draw_reaches_the_fewest_repeats_possible_after_its_own_rounds(n, round_no):
    draws = rounds_drawn(n, round_no)
    history = [draw.tables for draw in draws[:-1]]
    assert draws[-1].repeats == optimum(list(range(1, n + 1)), history)


@pytest.mark.parametrize(
    ("n", "earlier", "seed"),
    [(8, 2, 1), (8, 3, 2), (9, 2, 3), (9, 3, 4), (10, 2, 5), (10, 3, 6), (12, 2, 7), (12, 3, 8), (12, 4, 9)],
)
def test_draw_reaches_the_fewest_repeats_possible_after_any_rounds(n, earlier, seed):
    history = random_history(n, earlier, seed)
    draw = draw_round(range(1, n + 1), history, seed, earlier + 1)
    assert draw.repeats == optimum(list(range(1, n + 1)), history)


def test_draw_of_8_players_in_round_2_has_the_known_fewest_repeats_four():
    """8 players at two tables of four: each new table has two from each old table, 2 pairs each."""
    draws = rounds_drawn(8, 2)
    assert draws[1].repeats == 4


@pytest.mark.parametrize("n", [32, 100, 203])
def test_draw_has_no_repeats_in_round_2_where_the_numbers_allow(n):
    draws = rounds_drawn(n, 2)
    assert draws[1].repeats == 0


def test_draw_has_no_repeats_for_200_players_over_six_rounds():
    assert [draw.repeats for draw in rounds_drawn(200, 6)] == [0] * 6


def test_draw_of_round_1_is_random_without_history():
    assert draw_round(range(1, 13), [], seed=3, round_no=1).repeats == 0
    tables = {draw_round(range(1, 13), [], seed=s, round_no=1).tables for s in range(10)}
    assert len(tables) == 10


def test_draw_ignores_earlier_tables_of_players_who_left():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]
    still_playing = [1, 2, 5, 6, 9, 10, 13, 14]
    draw = draw_round(still_playing, history, seed=1, round_no=2)
    assert draw.repeats == 0
    assert sorted(p for table in draw.tables for p in table) == still_playing


# --------------------------------------------------------------------------- byes


@pytest.mark.parametrize(("n", "rounds"), [(11, 3), (11, 11), (7, 5), (6, 8)])
def test_byes_rotate_nobody_sits_out_twice_while_another_never_did(n, rounds):
    counts = dict.fromkeys(range(1, n + 1), 0)
    for draw in rounds_drawn(n, rounds):
        for p in draw.byes:
            counts[p] += 1
        assert max(counts.values()) - min(counts.values()) <= 1


def test_byes_go_to_those_with_the_fewest_byes_so_far():
    earlier = {p: 1 for p in range(1, 8)} | {3: 0, 6: 0}
    draw = draw_round(range(1, 8), [], seed=1, round_no=4, byes_so_far=earlier)
    assert draw.byes == (3, 6)


def test_byes_among_equals_are_drawn_by_lot():
    byes = {draw_round(range(1, 12), [], seed=s, round_no=1).byes for s in range(20)}
    assert len(byes) > 1
