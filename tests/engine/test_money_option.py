"""A game's ``money_option`` (docs/rules.md, Konter a Matt's start-form decision): with that option
at 0 no hand ever pays a unit, so the night's stake per unit is never used."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import GAMES, settle_session
from scorekeeper.engine.samples import random_hands


@pytest.mark.parametrize("game", [g for g in GAMES if GAMES[g].money_option])
def test_with_the_money_option_at_0_no_unit_is_ever_paid(game):
    g = GAMES[game]
    rules = g.parse_rules({g.money_option: 0})
    hands = random_hands(game, random.Random(5), 60, rules)
    settlement = settle_session(game, {g.money_option: 0}, hands)
    assert set(settlement.balance) == {0}  # the balance money is made of (Matt: its hands' deltas are points)


@pytest.mark.parametrize("game", [g for g in GAMES if GAMES[g].money_option])
def test_with_the_money_option_above_0_units_are_paid(game):
    g = GAMES[game]
    rules = g.parse_rules({g.money_option: 1})
    hands = random_hands(game, random.Random(5), 60, rules)
    assert set(settle_session(game, {g.money_option: 1}, hands).balance) != {0}


def test_the_games_that_always_pay_their_units_name_no_money_option():
    assert {g for g in GAMES if GAMES[g].money_option is None} == {"matzlfangen", "schafkopf"}
