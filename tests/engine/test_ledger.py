"""The ledger: dealer rotation, seats to people, money, and the fewest payments that settle a night."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import ledger


def partitions(items):
    """Every way to split ``items`` into groups (the brute-force reference)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def reference_minimum(balances):
    """Brute force: people not at zero minus the most zero-sum groups of any partition."""
    people = [b for b in balances if b]
    if not people:
        return 0
    most = max(sum(1 for g in part if sum(g) == 0) for part in partitions(people))
    return len(people) - most


def settled(balances, payments):
    left = list(balances)
    for payer, payee, cents in payments:
        assert cents > 0
        left[payer] += cents
        left[payee] -= cents
    return left


balances_strategy = st.lists(st.integers(-50_000, 50_000), min_size=1, max_size=7).map(lambda xs: [*xs, -sum(xs)])


@settings(max_examples=300, deadline=None)
@given(balances_strategy)
def test_minimal_transfers_never_need_more_payments_than_the_brute_force_reference(balances):
    payments = ledger.minimal_transfers(balances)
    assert len(payments) <= reference_minimum(balances)
    assert settled(balances, payments) == [0] * len(balances)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=7).map(lambda xs: [*xs, -sum(xs)]))
def test_minimal_transfers_find_zero_sum_groups_among_small_balances(balances):
    # small values make many zero-sum groups, the hard case for a greedy settlement
    payments = ledger.minimal_transfers(balances)
    assert len(payments) == reference_minimum(balances)
    assert settled(balances, payments) == [0] * len(balances)


def test_two_separate_debts_are_paid_directly_not_through_a_third_person():
    # Anna owes Bernd 1,00; Clara owes Dieter 2,50: two payments, not three
    assert ledger.minimal_transfers([-100, 100, -250, 250]) == [(2, 3, 250), (0, 1, 100)]


def test_the_largest_debtor_pays_the_largest_creditor_first():
    # Anna −7,00, Bernd −1,00, Clara +5,00, Dieter +3,00: no zero-sum pair, so 3 payments
    payments = ledger.minimal_transfers([-700, -100, 500, 300])
    assert payments[0] == (0, 2, 500)
    assert len(payments) == 3
    assert settled([-700, -100, 500, 300], payments) == [0, 0, 0, 0]


def test_a_settled_night_needs_no_payment():
    assert ledger.minimal_transfers([0, 0, 0, 0]) == []


def test_balances_that_do_not_add_up_to_zero_are_refused():
    with pytest.raises(ValueError, match="add up to zero"):
        ledger.minimal_transfers([100, -50])


@pytest.mark.parametrize(("first", "size", "expected"), [(1, 4, [1, 2, 3, 4, 1]), (3, 5, [3, 4, 5, 1, 2])])
def test_the_deal_moves_on_clockwise(first, size, expected):
    assert [ledger.dealer_of(first, size, i) for i in range(5)] == expected


def test_at_a_table_of_five_the_dealer_sits_out_and_the_others_keep_their_order():
    for dealer in range(1, 6):
        positions = ledger.seat_positions(5, 4, dealer)
        assert dealer not in positions
        assert list(positions) == sorted(positions)
        assert len(positions) == 4


def test_money_is_units_times_the_stake_in_whole_cents():
    assert ledger.cents(-7, 10) == -70
    assert ledger.format_money(-70) == "-0,70 EUR"
    assert ledger.format_money(123456, "CHF", ".") == "1234.56 CHF"
    assert all(isinstance(ledger.cents(u, s), int) for u, s in itertools.product(range(-3, 4), (0, 5, 50)))
