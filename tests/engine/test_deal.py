"""The deal, once, in the engine (issue 24): who deals hand n, who is forehand, who sits out, which table
position plays which engine seat, for every game at both its table sizes, a redeal keeping the dealer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import GAMES, deal, ledger
from scorekeeper.engine.deal import Deal, deals, first_deal, next_deal
from scorekeeper.engine.samples import random_hands

TABLES = [(name, size) for name, game in GAMES.items() for size in game.table_sizes]
REDEAL = {"schafkopf": {"all_pass": "redeal"}}  # the one game whose rules deal a hand again


def night_hands(name: str, rng: random.Random, n: int) -> tuple[object, list]:
    """Random hands of a game, with hands dealt again where its rules do so."""
    game = GAMES[name]
    rules = game.parse_rules(REDEAL.get(name))
    hands = random_hands(name, rng, n, rules)
    for i in range(0, n, 3):
        if name == "schafkopf" and rng.random() < 0.5:
            hands[i] = {"contract": "rundpass"}
    return rules, hands


@pytest.mark.parametrize(("name", "size"), TABLES)
def test_the_first_deal_is_the_first_dealers_and_forehand_sits_after_them(name, size):
    game = GAMES[name]
    for first in range(1, size + 1):
        d = first_deal(game, size, first)
        assert (d.number, d.dealer, d.forehand) == (1, first, first % size + 1)
        assert d.table_size == size
        assert d.sits_out == (first if size > game.seats else None)
        assert len(d.positions) == game.seats
        assert d.seat_of(d.forehand) == d.forehand_seat


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TABLES), st.integers(1, 5), st.integers(0, 40), st.randoms(use_true_random=False))
def test_each_deal_moves_on_to_forehand_but_a_redeal_keeps_the_dealer(table, first, n, rng):
    name, size = table
    first = (first - 1) % size + 1
    game = GAMES[name]
    rules, hands = night_hands(name, rng, n)
    listed = deals(game, rules, size, first, hands)
    assert len(listed) == n + 1
    assert listed[0] == first_deal(game, size, first)
    for k, hand in enumerate(hands):
        before, after = listed[k], listed[k + 1]
        assert after.number == before.number + 1
        stays = name == "schafkopf" and hand.get("contract") == "rundpass"
        assert after.dealer == (before.dealer if stays else before.forehand)
        assert after == Deal.at(after.number, after.dealer, size, game.seats)
        assert after == next_deal(game, rules, before, game.parse_hand(hand, None, rules))  # parsed or JSON


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(1, 5))
def test_positions_and_seats_are_one_mapping_one_based_without_the_one_who_sits_out(table, dealer):
    name, size = table
    seats = GAMES[name].seats
    dealer = (dealer - 1) % size + 1
    d = Deal.at(7, dealer, size, seats)
    assert sorted(d.positions) == [p for p in range(1, size + 1) if p != d.sits_out]
    for seat in range(1, seats + 1):
        assert d.seat_of(d.position_of(seat)) == seat
    if d.sits_out is not None:
        assert d.seat_of(d.sits_out) is None and d.dealer_seat is None
    else:
        assert d.position_of(d.dealer_seat) == dealer
    assert d.positions == ledger.seat_positions(size, seats, dealer)  # the ledger's names are the deal's


def test_a_hand_the_engine_refuses_moves_the_deal_on():
    game = GAMES["schafkopf"]
    rules = game.parse_rules(REDEAL["schafkopf"])
    d = first_deal(game, 4, 2)
    assert next_deal(game, rules, d, {"contract": "no such contract"}).dealer == 3


def test_only_a_rundpass_under_redeal_rules_keeps_the_deal():
    schafkopf = GAMES["schafkopf"]
    assert deal.deal_stays(schafkopf, schafkopf.parse_rules(REDEAL["schafkopf"])) == ("rundpass",)
    for name, game in GAMES.items():
        assert deal.deal_stays(game, game.parse_rules(None)) == (), name


def test_a_hand_entered_for_another_dealer_is_played_as_dealt_only_by_the_same_people():
    four = Deal.at(3, 2, 4, 4)
    assert four.played_as(Deal.at(3, 3, 4, 4), forehand_declares=False)  # everybody plays at a table of four
    assert not four.played_as(Deal.at(3, 3, 4, 4), forehand_declares=True)  # ... but another one declares
    five = Deal.at(3, 2, 5, 4)
    assert not five.played_as(Deal.at(3, 3, 5, 4), forehand_declares=False)  # another one sits out
    assert five.played_as(five, forehand_declares=True)


def test_the_deal_completes_a_hand_with_its_seats():
    game = GAMES["matzlfangen"]
    five = Deal.at(1, 1, 5, 4)  # position 1 sits out; forehand, position 2, is seat 1
    assert five.complete(game, {"contract": "rufen"}) == {"contract": "rufen", "declarer": 1}
    four = Deal.at(1, 3, 4, 4)
    assert four.complete(game, {"contract": "rufen"}) == {"contract": "rufen", "dealer": 3}
