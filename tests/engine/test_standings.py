"""A tournament's standings and their tie-breaks (RULES.md "Tournaments", docs/tournaments.md)."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.engine.tournament import Entry, standings


def order(table):
    return [s.player for s in table]


def test_standings_rank_more_points_first():
    table = standings([Entry(1, (5, -2)), Entry(2, (4, 6)), Entry(3, (-1, -3))], seed=1)
    assert order(table) == [2, 1, 3]
    assert [s.total for s in table] == [10, 3, -4]
    assert [s.decided_by for s in table] == ["points"] * 3


def test_standings_count_a_round_not_played_as_zero():
    table = standings([Entry(1, (None, 7, None)), Entry(2, (3, 3, None)), Entry(3, (None, None, None))], seed=1)
    assert [(s.player, s.total) for s in table] == [(1, 7), (2, 6), (3, 0)]


def test_standings_break_equal_points_by_more_solos_won():
    table = standings([Entry(1, (4,), solos_won=1, solos_lost=0), Entry(2, (4,), solos_won=2, solos_lost=3)], seed=1)
    assert order(table) == [2, 1]
    assert [s.decided_by for s in table] == ["solos_won", "solos_won"]


def test_standings_break_equal_points_and_solos_won_by_fewer_solos_lost():
    table = standings([Entry(1, (4,), solos_won=2, solos_lost=2), Entry(2, (4,), solos_won=2, solos_lost=1)], seed=1)
    assert order(table) == [2, 1]
    assert [s.decided_by for s in table] == ["solos_lost", "solos_lost"]


def test_standings_break_a_full_tie_by_lot_reproducible_from_the_seed():
    entries = [Entry(p, (2, -1), solos_won=1, solos_lost=1) for p in range(1, 9)]
    first = standings(entries, seed="Preisschafkopf 2026")
    assert first == standings(entries, seed="Preisschafkopf 2026")
    assert {s.decided_by for s in first} == {"lot"}
    assert len({tuple(order(standings(entries, seed=s))) for s in range(10)}) > 1


def test_standings_lot_does_not_depend_on_the_order_of_the_entries():
    entries = [Entry(p, (0,)) for p in (3, 11, 7, 42)]
    expected = order(standings(entries, seed=99))
    for permutation in itertools.permutations(entries):
        assert order(standings(list(permutation), seed=99)) == expected


def test_standings_lot_between_two_does_not_depend_on_who_else_plays():
    two = order(standings([Entry(5, (1,)), Entry(6, (1,))], seed=3))
    more = order(standings([Entry(5, (1,)), Entry(6, (1,)), Entry(7, (1,)), Entry(8, (1,))], seed=3))
    assert [p for p in more if p in (5, 6)] == two


def test_standings_tie_breaks_apply_in_their_order():
    entries = [
        Entry(1, (10,), solos_won=0, solos_lost=0),
        Entry(2, (8,), solos_won=3, solos_lost=5),
        Entry(3, (12,), solos_won=0, solos_lost=9),
        Entry(4, (8,), solos_won=3, solos_lost=4),
        Entry(5, (8,), solos_won=4, solos_lost=9),
        Entry(6, (-5,)),
    ]
    table = standings(entries, seed=1)
    assert order(table) == [3, 1, 5, 4, 2, 6]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]
    assert [s.decided_by for s in table] == ["points", "points", "solos_won", "solos_lost", "solos_lost", "points"]


def test_standings_ranks_are_strict_from_one_to_n():
    entries = [Entry(p, (p % 3,), solos_won=p % 2) for p in range(1, 31)]
    assert [s.rank for s in standings(entries, seed=0)] == list(range(1, 31))


def test_standings_keep_each_entrys_figures():
    (only,) = standings([Entry(9, (3, None, -1), solos_won=2, solos_lost=1)], seed=0)
    assert (only.player, only.points, only.total, only.solos_won, only.solos_lost) == (9, (3, None, -1), 2, 2, 1)
    assert (only.rank, only.decided_by) == (1, None)


def test_standings_of_nobody_are_empty():
    assert standings([], seed=0) == []


def test_standings_refuse_a_participant_listed_twice():
    with pytest.raises(ValueError, match="listed twice"):
        standings([Entry(1, (1,)), Entry(1, (2,))], seed=0)


def test_standings_refuse_a_negative_number_of_solos():
    with pytest.raises(ValueError, match="cannot be negative"):
        standings([Entry(1, (1,), solos_won=-1)], seed=0)
