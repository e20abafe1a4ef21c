"""Matzlfangen: the engine checked against RULES.md ("The JSON contract", "Matzlfangen")
and docs/rules-decisions.md.

Every expected number is derived by hand in a comment from the rules:
point contracts are worth 1 unit, 2 when the losing side has fewer than 30 card
points ("kein Wasser"), 3 when it took no trick; Durch and Trumpf-Durch 6; each
raise +1; a claimed Matzl of the winners +1; a Matzl caught by the losers: 0.
Rufen: every winner +value, every loser -value. Solo contracts: each defender
pays the value to the declarer (declarer +3 x value), or the declarer pays each.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import GAMES, InvalidHand, settle_json, settle_session
from tests.support import check_steps

GAME = "matzlfangen"

#: RULES.md, "Matzlfangen", options and their defaults.
DEFAULT_RULES = {
    "preset": "seed",
    "win_threshold": 66,
    "no_water_below": 30,
    "no_trick_value": 3,
    "no_water_value": 2,
    "durch_value": 6,
    "max_raises": 10,
    "matzl_bonus": 1,
    "matzl_annuls_loss": True,
}

#: RULES.md: the raises, from the first to the tenth.
RAISE_NAMES = ["Schuß", "Re", "Sub", "Dut", "Hirsch", "Gams", "Jager", "Gweih", "Auffi", "Drauffi"]


# --- helpers -----------------------------------------------------------------------------------------------------


def settle(hands: list[Any], **rules: Any) -> dict[str, Any]:
    """Settle a Matzlfangen session through the JSON contract and check every hand's steps and zero sum."""
    payload: dict[str, Any] = {"game": GAME, "hands": hands}
    if rules:
        payload["rules"] = rules
    out = settle_json(payload)
    assert out["game"] == GAME
    for result in out["hands"]:
        check_steps(result)
        assert sum(result["deltas"].values()) == 0, "every Matzlfangen hand sums to zero"
    return out


def one(hand: dict[str, Any], **rules: Any) -> dict[str, Any]:
    """The result of a session of one hand."""
    return settle([hand], **rules)["hands"][0]


def seats(*amounts: int) -> dict[str, int]:
    """Deltas keyed by seat number as a string: seats(6, -6, 6, -6)."""
    return {str(seat): amount for seat, amount in enumerate(amounts, start=1)}


def units(result: dict[str, Any]) -> list[int]:
    """The units of all steps, the value step last."""
    return [step["units"] for step in result["steps"]]


def keys(result: dict[str, Any]) -> list[str]:
    return [step["key"] for step in result["steps"]]


def error(hands: Any, rules: Any = None, **payload: Any) -> tuple[int | None, str, str]:
    """(hand, field, message) of the InvalidHand the input raises."""
    body: dict[str, Any] = {"game": GAME, "hands": hands, **payload}
    if rules is not None:
        body["rules"] = rules
    with pytest.raises(InvalidHand) as info:
        settle_json(body)
    err = info.value
    assert err.to_json() == {"hand": err.hand, "field": err.field, "message": err.message}
    return err.hand, err.field, err.message


def rufen(**fields: Any) -> dict[str, Any]:
    """A simple Rufen: seat 1 declares with seat 3 as partner; 70 points unless overridden."""
    return {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70, **fields}


def solo(contract: str, declarer: int = 2, **fields: Any) -> dict[str, Any]:
    return {"contract": contract, "declarer": declarer, **fields}


def without(hand: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in hand.items() if k not in names}


# --- the worked example ------------------------------------------------------------------------------------------


def test_worked_example_rufen_won_simply_after_raises_up_to_hirsch_is_worth_6():
    # RULES.md: "Rufen won simply after raises up to the fifth level (Hirsch) is worth 6 units:
    # each winner +6, each loser -6". 70 >= 66 and the defenders' 60 >= 30: 1 unit; + 5 raises = 6.
    out = settle([rufen(declarer=1, partner=4, points=70, raises=5)])
    result = out["hands"][0]
    assert result["winner"] == "declarers"
    assert result["value"] == 6
    assert result["deltas"] == seats(6, -6, -6, 6)
    assert out["totals"] == seats(6, -6, -6, 6)
    assert units(result) == [1, 5, 6]
    assert result["steps"][0]["what"] == "rufen won with 70 of 130 (66 needed)"
    assert "Hirsch" in result["steps"][1]["what"]
    assert result["steps"][-1]["what"] == "value"


def test_worked_example_with_partner_opposite_pays_each_loser_to_one_winner():
    # Same hand, partner seat 3: seats 1 and 3 get +6, seats 2 and 4 pay 6.
    result = one(rufen(raises=5))
    assert result["value"] == 6
    assert result["deltas"] == seats(6, -6, 6, -6)


# --- point contracts: winning and levels -------------------------------------------------------------------------


def test_declaring_side_wins_with_exactly_66_points_for_one_unit():
    # 66 >= 66: declarers win; defenders have 130 - 66 = 64 (not under 30): 1 unit.
    result = one(rufen(points=66))
    assert result["winner"] == "declarers"
    assert result["value"] == 1
    assert units(result) == [1, 1]
    assert result["deltas"] == seats(1, -1, 1, -1)


def test_declaring_side_with_65_points_loses_and_rufen_losers_each_pay_the_value():
    # 65 < 66: the defenders win; the declarers have 65 (not under 30): 1 unit. Seats 1 and 3 pay 1 each.
    result = one(rufen(points=65))
    assert result["winner"] == "defenders"
    assert result["value"] == 1
    assert result["deltas"] == seats(-1, 1, -1, 1)
    assert result["steps"][0]["what"] == "rufen lost with 65 of 130 (66 needed)"


def test_losing_defenders_under_30_points_have_no_water_and_the_hand_is_worth_2():
    # 101 points: defenders have 130 - 101 = 29 < 30, kein Wasser: 2 units (steps 1 + 1).
    result = one(rufen(points=101))
    assert result["winner"] == "declarers"
    assert result["value"] == 2
    assert units(result) == [1, 1, 2]
    assert keys(result)[1] == "no_water"
    assert result["deltas"] == seats(2, -2, 2, -2)


def test_kein_wasser_is_strictly_fewer_than_30_so_losers_with_exactly_30_have_water():
    # decisions: "Kein Wasser" is strictly fewer than no_water_below. 100 points: defenders 30: 1 unit.
    result = one(rufen(points=100))
    assert result["value"] == 1
    assert units(result) == [1, 1]


def test_losing_declarers_under_30_points_have_no_water_and_pay_each_defender_2():
    # Treiben, declarer seat 2 with 29 < 66: lost; declarers have 29 < 30: 2 units.
    # The declarer pays each of the three defenders 2: seat 2 -6, others +2.
    result = one(solo("treiben", 2, points=29))
    assert result["winner"] == "defenders"
    assert result["value"] == 2
    assert result["deltas"] == seats(2, -6, 2, 2)


def test_losing_declarers_with_exactly_30_points_have_water():
    # Treiben lost with 30: not under 30: 1 unit; declarer seat 2 pays 1 to each: -3.
    result = one(solo("treiben", 2, points=30))
    assert result["winner"] == "defenders"
    assert result["value"] == 1
    assert result["deltas"] == seats(1, -3, 1, 1)


def test_losing_defenders_with_no_trick_make_the_hand_worth_3():
    # Treiben, declarer 3, all 130 points and schwarz: level 3 (steps 1 + 2); each defender pays 3, declarer +9.
    result = one(solo("treiben", 3, points=130, schwarz=True))
    assert result["winner"] == "declarers"
    assert result["value"] == 3
    assert units(result) == [1, 2, 3]
    assert keys(result)[1] == "no_trick"
    assert result["deltas"] == seats(-3, -3, 9, -3)


def test_losing_declarers_with_no_trick_pay_3_each():
    # Rufen 1 with partner 2, 0 points and schwarz: defenders 3 and 4 win 3 units each.
    result = one(rufen(partner=2, points=0, schwarz=True))
    assert result["winner"] == "defenders"
    assert result["value"] == 3
    assert units(result) == [1, 2, 3]
    assert result["deltas"] == seats(-3, -3, 3, 3)


def test_losing_side_with_zero_points_that_took_a_trick_is_only_kein_wasser():
    # 130 points without schwarz: the defenders took a trick of blank cards: 0 < 30 gives 2, not 3.
    result = one(rufen(points=130))
    assert result["value"] == 2
    assert units(result) == [1, 1, 2]


def test_schwarz_defaults_to_false():
    # Same hand with and without "schwarz": false: 2 units both times (kein Wasser only).
    assert one(rufen(points=130))["value"] == one(rufen(points=130, schwarz=False))["value"] == 2


# --- raises --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("raises", range(11))
def test_each_raise_adds_one_unit_and_is_named_by_its_level(raises):
    # Rufen won simply (1 unit) + 1 per raise. Raise levels: Schuß, Re, Sub, Dut, Hirsch, Gams, Jager, ...
    result = one(rufen(raises=raises))
    assert result["value"] == 1 + raises
    assert result["deltas"] == seats(1 + raises, -1 - raises, 1 + raises, -1 - raises)
    if raises:
        assert units(result) == [1, raises, 1 + raises]
        assert RAISE_NAMES[raises - 1] in result["steps"][1]["what"]
    else:
        assert units(result) == [1, 1]


def test_raises_default_to_zero():
    assert one(rufen())["value"] == one(rufen(raises=0))["value"] == 1


def test_raises_add_to_the_no_trick_level():
    # Neidspiel, declarer 4, schwarz: 3 + 2 raises = 5. Each defender pays 5, declarer +15.
    result = one(solo("neidspiel", 4, points=130, schwarz=True, raises=2))
    assert result["value"] == 5
    assert units(result) == [1, 2, 2, 5]
    assert result["deltas"] == seats(-5, -5, -5, 15)


def test_raises_add_to_a_lost_kein_wasser_hand():
    # Rufen 1+3 lost with 20: kein Wasser 2 + 1 raise = 3 for the defenders.
    result = one(rufen(points=20, raises=1))
    assert result["winner"] == "defenders"
    assert result["value"] == 3
    assert units(result) == [1, 1, 1, 3]
    assert result["deltas"] == seats(-3, 3, -3, 3)


# --- solo payments -------------------------------------------------------------------------------------------------


def test_treiben_won_each_defender_pays_the_declarer():
    # Treiben, declarer 2, 80 points (defenders 50): 1 unit from each defender: declarer +3.
    result = one(solo("treiben", 2, points=80))
    assert result["winner"] == "declarers"
    assert result["deltas"] == seats(-1, 3, -1, -1)


def test_neidspiel_lost_the_declarer_pays_each_defender():
    # Neidspiel, declarer 4, 50 points: lost, 1 unit to each defender: declarer -3.
    result = one(solo("neidspiel", 4, points=50))
    assert result["winner"] == "defenders"
    assert result["deltas"] == seats(1, 1, 1, -3)


def test_rufen_lost_the_declarer_and_partner_each_pay_one_defender():
    # Rufen 1+3 with 40: lost, 1 unit: seats 1, 3 -1; seats 2, 4 +1.
    assert one(rufen(points=40))["deltas"] == seats(-1, 1, -1, 1)


# --- Durch and Trumpf-Durch ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", ["durch", "trumpf_durch"])
def test_durch_won_is_worth_6_from_each_defender(contract):
    # durch_value 6; the declarer (seat 2) took every trick: each defender pays 6, declarer +18.
    result = one(solo(contract, 2, won=True))
    assert result["winner"] == "declarers"
    assert result["value"] == 6
    assert units(result) == [6, 6]
    assert result["deltas"] == seats(-6, 18, -6, -6)


@pytest.mark.parametrize("contract", ["durch", "trumpf_durch"])
def test_durch_lost_is_worth_6_to_each_defender(contract):
    # Lost: the declarer (seat 2) pays each defender 6: -18.
    result = one(solo(contract, 2, won=False))
    assert result["winner"] == "defenders"
    assert result["value"] == 6
    assert result["deltas"] == seats(6, -18, 6, 6)


def test_raises_add_to_durch():
    # Durch 6 + 3 raises = 9; declarer 1 won: +27, others -9.
    result = one(solo("durch", 1, won=True, raises=3))
    assert result["value"] == 9
    assert units(result) == [6, 3, 9]
    assert result["deltas"] == seats(27, -9, -9, -9)


# --- the Matzl -----------------------------------------------------------------------------------------------------


def test_matzl_caught_by_winning_declarers_and_claimed_adds_one_unit():
    # Seed: "Det blir då två grundinsatser vid enkel vinst utan kontra": simple win 1 + Matzl 1 = 2.
    result = one(rufen(matzl="declarers", matzl_claimed=True))
    assert result["value"] == 2
    assert units(result) == [1, 1, 2]
    assert result["deltas"] == seats(2, -2, 2, -2)


def test_matzl_claimed_defaults_to_true():
    # Without matzl_claimed the winners' Matzl is paid: 1 + 1 = 2.
    assert one(rufen(matzl="declarers"))["value"] == 2


def test_matzl_caught_by_the_winners_but_not_claimed_adds_nothing():
    # "the winners' Matzl bonus is paid only if claimed": 1 unit, the Matzl step adds 0.
    result = one(rufen(matzl="declarers", matzl_claimed=False))
    assert result["value"] == 1
    assert units(result) == [1, 0, 1]
    assert result["deltas"] == seats(1, -1, 1, -1)


def test_matzl_caught_by_winning_defenders_and_claimed_adds_one_unit_for_them():
    # Rufen 1+3 lost with 50 (declarers 50, not kein Wasser): defenders win 1 + Matzl 1 = 2.
    result = one(rufen(points=50, matzl="defenders"))
    assert result["winner"] == "defenders"
    assert result["value"] == 2
    assert result["deltas"] == seats(-2, 2, -2, 2)


def test_rufen_lost_with_matzl_caught_by_declarers_pays_nothing():
    # The declarers caught the Matzl and lost (20 points): 1 + kein Wasser 1 + 3 raises = 5, annulled to 0:
    # the annulment step takes -5 away. Nobody pays.
    result = one(rufen(points=20, raises=3, matzl="declarers"))
    assert result["winner"] == "defenders"
    assert result["value"] == 0
    assert units(result) == [1, 1, 3, -5, 0]
    assert result["deltas"] == seats(0, 0, 0, 0)


def test_rufen_won_with_matzl_caught_by_defenders_pays_nothing():
    # Declarers win with 110 (defenders 20, kein Wasser) + 4 raises = 6; the losing defenders caught the Matzl: 0.
    result = one(rufen(points=110, raises=4, matzl="defenders"))
    assert result["winner"] == "declarers"
    assert result["value"] == 0
    assert units(result) == [1, 1, 4, -6, 0]
    assert result["deltas"] == seats(0, 0, 0, 0)


def test_treiben_lost_with_matzl_caught_by_the_declarer_pays_nothing():
    # Treiben lost with 60: 1 unit, annulled: nobody pays.
    result = one(solo("treiben", 2, points=60, matzl="declarers"))
    assert result["value"] == 0
    assert result["deltas"] == seats(0, 0, 0, 0)


def test_matzl_of_the_losers_annuls_the_hand_even_when_not_claimed():
    # The claim concerns the winners' bonus only; the losers' Matzl annuls the hand: 0.
    result = one(rufen(points=40, matzl="declarers", matzl_claimed=False))
    assert result["value"] == 0
    assert result["deltas"] == seats(0, 0, 0, 0)


def test_matzl_bonus_adds_to_no_trick_and_every_raise():
    # Schwarz 3 + 10 raises + Matzl 1 = 14.
    result = one(rufen(points=130, schwarz=True, raises=10, matzl="declarers"))
    assert result["value"] == 14
    assert units(result) == [1, 2, 10, 1, 14]
    assert result["deltas"] == seats(14, -14, 14, -14)


def test_matzl_is_allowed_in_trumpf_durch_and_adds_one_unit_to_the_winner():
    # decisions: "The Matzl is allowed in trumpf_durch". Declarer 2 won: 6 + 1 = 7 from each defender: +21.
    result = one(solo("trumpf_durch", 2, won=True, matzl="declarers"))
    assert result["value"] == 7
    assert units(result) == [6, 1, 7]
    assert result["deltas"] == seats(-7, 21, -7, -7)


def test_trumpf_durch_lost_with_matzl_caught_by_the_declarer_pays_nothing():
    # The declarer caught the Matzl but lost a trick: 6 annulled to 0.
    result = one(solo("trumpf_durch", 2, won=False, matzl="declarers"))
    assert result["value"] == 0
    assert units(result) == [6, -6, 0]
    assert result["deltas"] == seats(0, 0, 0, 0)


def test_trumpf_durch_lost_with_matzl_caught_by_the_defenders_adds_one_unit_for_them():
    # Declarer 2 lost; the defenders caught the Matzl: 6 + 1 = 7 to each defender: declarer -21.
    result = one(solo("trumpf_durch", 2, won=False, matzl="defenders"))
    assert result["winner"] == "defenders"
    assert result["value"] == 7
    assert result["deltas"] == seats(7, -21, 7, 7)


def test_matzl_null_is_the_same_as_no_matzl():
    assert one(rufen(matzl=None))["value"] == one(rufen())["value"] == 1


# --- options with non-default values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "points", "winner"),
    [(61, 61, "declarers"), (61, 60, "defenders"), (80, 80, "declarers"), (80, 79, "defenders")],
)
def test_win_threshold_option_moves_the_points_the_declaring_side_needs(threshold, points, winner):
    # Declarers win with points >= win_threshold; every case here is 1 unit (both sides have >= 30).
    result = one(rufen(points=points), win_threshold=threshold)
    assert result["winner"] == winner
    assert result["value"] == 1
    sign = 1 if winner == "declarers" else -1
    assert result["deltas"] == seats(sign, -sign, sign, -sign)
    verb = "won" if winner == "declarers" else "lost"
    assert result["steps"][0]["what"] == f"rufen {verb} with {points} of 130 ({threshold} needed)"


@pytest.mark.parametrize(("points", "value"), [(91, 2), (90, 1)])
def test_no_water_below_option_moves_the_kein_wasser_limit(points, value):
    # no_water_below 40: defenders with 130 - 91 = 39 < 40 have no water (2); with 40 they have water (1).
    result = one(rufen(points=points), no_water_below=40)
    assert result["value"] == value


def test_no_water_below_zero_means_no_side_is_ever_without_water():
    # 130 points without schwarz: defenders 0, and 0 < 0 is false: 1 unit.
    result = one(rufen(points=130), no_water_below=0)
    assert result["value"] == 1
    assert units(result) == [1, 1]


def test_no_trick_value_option_sets_the_value_of_a_no_trick_hand():
    # no_trick_value 4: schwarz is worth 4 (step 1 + 3).
    result = one(rufen(points=130, schwarz=True), no_trick_value=4)
    assert result["value"] == 4
    assert units(result) == [1, 3, 4]
    assert result["deltas"] == seats(4, -4, 4, -4)


def test_no_water_value_option_sets_the_value_of_a_kein_wasser_hand():
    # no_water_value 3: defenders with 10 points have no water: 3 (step 1 + 2).
    result = one(rufen(points=120), no_water_value=3)
    assert result["value"] == 3
    assert units(result) == [1, 2, 3]


def test_no_water_value_does_not_change_a_no_trick_hand():
    # Schwarz takes the no-trick level (3) only, whatever no_water_value is.
    assert one(rufen(points=130, schwarz=True), no_water_value=5)["value"] == 3


@pytest.mark.parametrize("contract", ["durch", "trumpf_durch"])
def test_durch_value_option_sets_the_value_of_durch_and_trumpf_durch(contract):
    # durch_value 10: declarer 3 won: each defender pays 10, declarer +30.
    result = one(solo(contract, 3, won=True), durch_value=10)
    assert result["value"] == 10
    assert result["deltas"] == seats(-10, -10, 30, -10)


def test_max_raises_option_allows_raises_up_to_the_limit():
    # max_raises 5: 5 raises are fine: 1 + 5 = 6.
    assert one(rufen(raises=5), max_raises=5)["value"] == 6


def test_max_raises_option_refuses_raises_beyond_the_limit():
    assert error([rufen(raises=6)], {"max_raises": 5}) == (0, "raises", "raises must be between 0 and 5")


def test_max_raises_zero_forbids_raising():
    assert one(rufen(raises=0), max_raises=0)["value"] == 1
    assert error([rufen(raises=1)], {"max_raises": 0}) == (0, "raises", "raises must be between 0 and 0")


def test_matzl_bonus_option_sets_what_a_claimed_matzl_adds():
    # matzl_bonus 2: simple win 1 + 2 = 3.
    result = one(rufen(matzl="declarers"), matzl_bonus=2)
    assert result["value"] == 3
    assert units(result) == [1, 2, 3]


def test_matzl_bonus_zero_makes_a_claimed_matzl_worth_nothing():
    assert one(rufen(matzl="declarers"), matzl_bonus=0)["value"] == 1


def test_matzl_annuls_loss_false_makes_the_losers_matzl_change_nothing():
    # decisions: with matzl_annuls_loss false a Matzl caught by the losers changes nothing (no bonus, normal payment).
    # Rufen lost with 20: 1 + kein Wasser 1 + 3 raises = 5; the Matzl step adds 0. Defenders +5.
    result = one(rufen(points=20, raises=3, matzl="declarers"), matzl_annuls_loss=False)
    assert result["winner"] == "defenders"
    assert result["value"] == 5
    assert units(result) == [1, 1, 3, 0, 5]
    assert result["deltas"] == seats(-5, 5, -5, 5)


def test_matzl_annuls_loss_false_keeps_the_winners_bonus():
    assert one(rufen(matzl="declarers"), matzl_annuls_loss=False)["value"] == 2


def test_every_option_with_a_non_default_value_is_kept_in_the_output_rules():
    rules = {
        "win_threshold": 61,
        "no_water_below": 40,
        "no_trick_value": 4,
        "no_water_value": 3,
        "durch_value": 10,
        "max_raises": 5,
        "matzl_bonus": 2,
        "matzl_annuls_loss": False,
    }
    # Rufen with 95: won (>= 61), defenders 35 < 40: no_water_value 3, + 5 raises + Matzl 2 = 10.
    out = settle([rufen(points=95, raises=5, matzl="declarers")], **rules)
    assert out["rules"] == {"preset": "seed", **rules}
    assert out["hands"][0]["value"] == 10
    assert units(out["hands"][0]) == [1, 2, 5, 2, 10]


# --- rule sets -----------------------------------------------------------------------------------------------------


def test_default_rule_set_is_the_one_of_rules_md():
    out = settle([])
    assert out["rules"] == DEFAULT_RULES


def test_game_options_are_exactly_the_options_of_rules_md():
    game = GAMES[GAME]
    assert game.seats == 4
    assert {f.name: f.default for f in game.options()} == {k: v for k, v in DEFAULT_RULES.items() if k != "preset"}


def test_partial_rules_take_the_defaults_for_missing_keys():
    out = settle([], win_threshold=70)
    assert out["rules"] == {**DEFAULT_RULES, "win_threshold": 70}


def test_seed_preset_is_the_defaults_and_other_keys_override_it():
    assert settle([], preset="seed")["rules"] == DEFAULT_RULES
    assert settle([], preset="seed", durch_value=8)["rules"] == {**DEFAULT_RULES, "durch_value": 8}


def test_settling_the_output_rules_again_gives_the_same_rule_set():
    first = settle([], no_water_below=25, matzl_annuls_loss=False)
    again = settle([], **first["rules"])
    assert again["rules"] == first["rules"]


# --- the session: totals, balance, declarer and dealer --------------------------------------------------------------


def test_totals_add_up_the_deltas_of_every_hand_and_balance_equals_totals():
    hands = [
        rufen(raises=5),  # (6, -6, 6, -6)
        solo("treiben", 2, points=29),  # lost, kein Wasser 2: (2, -6, 2, 2)
        solo("durch", 4, won=True),  # 6 from each: (-6, -6, -6, 18)
    ]
    out = settle(hands)
    # seat 1: 6 + 2 - 6 = 2; seat 2: -6 - 6 - 6 = -18; seat 3: 6 + 2 - 6 = 2; seat 4: -6 + 2 + 18 = 14.
    assert out["totals"] == seats(2, -18, 2, 14)
    assert out["balance"] == out["totals"]
    assert [h["value"] for h in out["hands"]] == [6, 2, 6]


def test_empty_session_has_zero_totals():
    out = settle([])
    assert out["hands"] == []
    assert out["totals"] == seats(0, 0, 0, 0)


def test_settle_session_is_the_same_settlement_as_settle_json():
    settlement = settle_session(GAME, {"win_threshold": 61}, [rufen(points=61)])
    # 61 >= 61: won, defenders 69: 1 unit.
    assert settlement.results[0].value == 1
    assert settlement.results[0].winner == "declarers"
    assert settlement.totals == (1, -1, 1, -1)
    assert settlement.balance == (1, -1, 1, -1)
    assert settlement.rules.win_threshold == 61


@pytest.mark.parametrize(("dealer", "declarer"), [(4, 1), (1, 2), (2, 3), (3, 4)])
def test_declarer_may_be_left_out_in_rufen_when_the_dealer_is_given(dealer, declarer):
    # decisions: forehand (the seat after the dealer) declares. The partner is the seat opposite forehand here.
    partner = (declarer + 1) % 4 + 1
    result = one({"contract": "rufen", "dealer": dealer, "partner": partner, "points": 70})
    expected = {str(seat): (1 if seat in (declarer, partner) else -1) for seat in range(1, 5)}
    assert result["deltas"] == expected


def test_rufen_accepts_a_declarer_that_is_forehand_of_the_given_dealer():
    # Dealer 3: forehand is seat 4. Seats 4 and 2 win 1.
    result = one({"contract": "rufen", "dealer": 3, "declarer": 4, "partner": 2, "points": 70})
    assert result["deltas"] == seats(-1, 1, -1, 1)


def test_dealer_does_not_bind_the_declarer_of_a_solo_contract():
    # Only rufen is declared by forehand; a Treiben may be bid by anyone, the dealer too.
    result = one(solo("treiben", 1, dealer=1, points=80))
    assert result["deltas"] == seats(3, -1, -1, -1)


def test_trump_is_for_statistics_only():
    assert one(rufen(trump="herz", raises=2)) == one(rufen(raises=2))


# --- validation ----------------------------------------------------------------------------------------------------

TYPE_CASES = [
    # bool for int, decimals, texts, null: wrong types are errors, never coerced.
    (rufen(raises=True), "raises", "raises must be a whole number, not true or false"),
    (rufen(raises=2.0), "raises", "raises must be a whole number, not a decimal number"),
    (rufen(raises=1.5), "raises", "raises must be a whole number, not a decimal number"),
    (rufen(raises="2"), "raises", "raises must be a whole number, not a text"),
    (rufen(raises=None), "raises", "raises must be a whole number, not null"),
    (rufen(points=True), "points", "points must be a whole number, not true or false"),
    (rufen(points=70.0), "points", "points must be a whole number, not a decimal number"),
    (rufen(points=70.5), "points", "points must be a whole number, not a decimal number"),
    (rufen(points="70"), "points", "points must be a whole number, not a text"),
    (rufen(points=[70]), "points", "points must be a whole number, not a list"),
    (rufen(declarer=True), "declarer", "declarer must be a seat number, not true or false"),
    (rufen(declarer=1.0), "declarer", "declarer must be a seat number, not a decimal number"),
    (rufen(declarer="1"), "declarer", "declarer must be a seat number, not a text"),
    (rufen(declarer=None), "declarer", "declarer must be a seat number, not null"),
    (rufen(partner=False), "partner", "partner must be a seat number, not true or false"),
    (rufen(partner=3.0), "partner", "partner must be a seat number, not a decimal number"),
    (rufen(dealer=True), "dealer", "dealer must be a seat number, not true or false"),
    (rufen(dealer=4.0), "dealer", "dealer must be a seat number, not a decimal number"),
    (rufen(dealer="4"), "dealer", "dealer must be a seat number, not a text"),
    (solo("treiben", declarer=2.0, points=70), "declarer", "declarer must be a seat number, not a decimal number"),
    (rufen(schwarz=0), "schwarz", "schwarz must be true or false, not a whole number"),
    (rufen(schwarz=1), "schwarz", "schwarz must be true or false, not a whole number"),
    (rufen(schwarz="true"), "schwarz", "schwarz must be true or false, not a text"),
    (rufen(schwarz=None), "schwarz", "schwarz must be true or false, not null"),
    (solo("durch", won=1), "won", "won must be true or false, not a whole number"),
    (solo("durch", won=1.0), "won", "won must be true or false, not a decimal number"),
    (solo("trumpf_durch", won="yes"), "won", "won must be true or false, not a text"),
    (
        rufen(matzl="declarers", matzl_claimed=1),
        "matzl_claimed",
        "matzl_claimed must be true or false, not a whole number",
    ),
    (rufen(matzl="declarers", matzl_claimed="no"), "matzl_claimed", "matzl_claimed must be true or false, not a text"),
    (rufen(matzl=1), "matzl", "matzl must be one of null, declarers, defenders, not 1"),
    (rufen(trump=1), "trump", "trump must be one of eichel, gras, herz, schellen, not 1"),
    (rufen(contract=1), "contract", "contract must be one of rufen, treiben, neidspiel, durch, trumpf_durch, not 1"),
]

RANGE_CASES = [
    (rufen(raises=-1), "raises", "raises must be between 0 and 10"),
    (rufen(raises=11), "raises", "raises must be between 0 and 10"),
    (rufen(points=-1), "points", "points must be between 0 and 130"),
    (rufen(points=131), "points", "points must be between 0 and 130"),
    (solo("treiben", points=131), "points", "points must be between 0 and 130"),
    (solo("neidspiel", points=-5), "points", "points must be between 0 and 130"),
    (rufen(declarer=0), "declarer", "declarer must be a seat from 1 to 4, not 0"),
    (rufen(declarer=5), "declarer", "declarer must be a seat from 1 to 4, not 5"),
    (solo("durch", declarer=5, won=True), "declarer", "declarer must be a seat from 1 to 4, not 5"),
    (rufen(partner=0), "partner", "partner must be a seat from 1 to 4, not 0"),
    (rufen(partner=5), "partner", "partner must be a seat from 1 to 4, not 5"),
    (rufen(dealer=0), "dealer", "dealer must be a seat from 1 to 4, not 0"),
    (solo("treiben", dealer=5, points=70), "dealer", "dealer must be a seat from 1 to 4, not 5"),
    (
        rufen(contract="solo"),
        "contract",
        "contract must be one of rufen, treiben, neidspiel, durch, trumpf_durch, not 'solo'",
    ),
    (
        rufen(contract="Rufen"),
        "contract",
        "contract must be one of rufen, treiben, neidspiel, durch, trumpf_durch, not 'Rufen'",
    ),
    (rufen(matzl="both"), "matzl", "matzl must be one of null, declarers, defenders, not 'both'"),
    (rufen(matzl="declarer"), "matzl", "matzl must be one of null, declarers, defenders, not 'declarer'"),
    (rufen(trump="rot"), "trump", "trump must be one of eichel, gras, herz, schellen, not 'rot'"),
]

MISSING_CASES = [
    (without(rufen(), "contract"), "contract", "contract is required"),
    (without(rufen(), "declarer"), "declarer", "declarer is required"),
    (without(rufen(), "partner"), "partner", "partner is required"),
    (without(rufen(), "points"), "points", "points is required"),
    (solo("treiben"), "points", "points is required"),
    (solo("neidspiel"), "points", "points is required"),
    (without(solo("treiben", points=70), "declarer"), "declarer", "declarer is required"),
    # only rufen is declared by forehand: a solo needs its declarer even with the dealer given.
    ({"contract": "treiben", "dealer": 1, "points": 70}, "declarer", "declarer is required"),
    (solo("durch"), "won", "won is required"),
    (solo("trumpf_durch"), "won", "won is required"),
    # with the dealer given the declarer is forehand, but the partner is still required.
    ({"contract": "rufen", "dealer": 4, "points": 70}, "partner", "partner is required"),
]

UNKNOWN_AND_NOT_APPLYING_CASES = [
    (rufen(foo=1), "foo", "unknown field 'foo'"),
    (rufen(point=70), "point", "unknown field 'point'"),
    (solo("durch", won=True, winner="declarers"), "winner", "unknown field 'winner'"),
    # a field that does not apply to the contract is an error whatever its value
    (solo("treiben", points=70, partner=3), "partner", "partner does not apply to treiben"),
    (solo("treiben", points=70, partner=None), "partner", "partner does not apply to treiben"),
    (solo("neidspiel", points=70, partner=3), "partner", "partner does not apply to neidspiel"),
    (solo("durch", won=True, partner=3), "partner", "partner does not apply to durch"),
    (solo("trumpf_durch", won=True, partner=3), "partner", "partner does not apply to trumpf_durch"),
    (rufen(won=True), "won", "won does not apply to rufen"),
    (rufen(won=False), "won", "won does not apply to rufen"),
    (solo("treiben", points=70, won=True), "won", "won does not apply to treiben"),
    (solo("neidspiel", points=70, won=True), "won", "won does not apply to neidspiel"),
    (solo("durch", won=True, points=130), "points", "points does not apply to durch"),
    (solo("trumpf_durch", won=True, points=130), "points", "points does not apply to trumpf_durch"),
    (solo("durch", won=True, schwarz=False), "schwarz", "schwarz does not apply to durch"),
    (solo("trumpf_durch", won=True, schwarz=True), "schwarz", "schwarz does not apply to trumpf_durch"),
    # no trumps in durch, so no Matzl
    (solo("durch", won=True, matzl="declarers"), "matzl", "matzl does not apply to durch"),
    (solo("durch", won=True, matzl=None), "matzl", "matzl does not apply to durch"),
    (solo("durch", won=True, matzl_claimed=True), "matzl_claimed", "matzl_claimed does not apply to durch"),
    # matzl_claimed applies only when a side caught the Matzl
    (rufen(matzl_claimed=True), "matzl_claimed", "matzl_claimed applies only when a side caught the Matzl"),
    (
        rufen(matzl=None, matzl_claimed=False),
        "matzl_claimed",
        "matzl_claimed applies only when a side caught the Matzl",
    ),
    (
        solo("trumpf_durch", won=True, matzl_claimed=True),
        "matzl_claimed",
        "matzl_claimed applies only when a side caught the Matzl",
    ),
]

CONSISTENCY_CASES = [
    # schwarz must agree with the points: a side with no trick has 0 points
    (rufen(points=70, schwarz=True), "schwarz", "the defenders took no trick, so they cannot have 60 points"),
    (rufen(points=129, schwarz=True), "schwarz", "the defenders took no trick, so they cannot have 1 points"),
    (rufen(points=10, schwarz=True), "schwarz", "the declarers took no trick, so they cannot have 10 points"),
    (solo("treiben", points=65, schwarz=True), "schwarz", "the declarers took no trick, so they cannot have 65 points"),
    (
        solo("neidspiel", points=66, schwarz=True),
        "schwarz",
        "the defenders took no trick, so they cannot have 64 points",
    ),
    # the Matzl cannot be caught by a side that took no trick
    (
        rufen(points=130, schwarz=True, matzl="defenders"),
        "matzl",
        "the defenders took no trick, so they cannot have caught the Matzl",
    ),
    (
        rufen(points=0, schwarz=True, matzl="declarers"),
        "matzl",
        "the declarers took no trick, so they cannot have caught the Matzl",
    ),
    (
        solo("trumpf_durch", won=True, matzl="defenders"),
        "matzl",
        "the defenders took no trick, so they cannot have caught the Matzl",
    ),
    # in rufen forehand declares: a declarer other than the seat after the dealer is an error
    (rufen(dealer=4, declarer=2), "declarer", "in rufen forehand declares: with seat 4 dealing that is seat 1"),
    (rufen(dealer=1, declarer=1), "declarer", "in rufen forehand declares: with seat 1 dealing that is seat 2"),
    (rufen(dealer=2, declarer=1), "declarer", "in rufen forehand declares: with seat 2 dealing that is seat 3"),
    # the partner is not the declarer
    (rufen(partner=1), "partner", "the partner must be another seat than the declarer"),
    (
        {"contract": "rufen", "dealer": 4, "partner": 1, "points": 70},
        "partner",
        "the partner must be another seat than the declarer",
    ),
]


@pytest.mark.parametrize(("hand", "field", "message"), TYPE_CASES)
def test_wrong_types_are_errors_naming_hand_field_and_reason(hand, field, message):
    assert error([hand]) == (0, field, message)


@pytest.mark.parametrize(("hand", "field", "message"), RANGE_CASES)
def test_values_out_of_range_are_errors(hand, field, message):
    assert error([hand]) == (0, field, message)


@pytest.mark.parametrize(("hand", "field", "message"), MISSING_CASES)
def test_missing_required_fields_are_errors(hand, field, message):
    assert error([hand]) == (0, field, message)


@pytest.mark.parametrize(("hand", "field", "message"), UNKNOWN_AND_NOT_APPLYING_CASES)
def test_unknown_fields_and_fields_that_do_not_apply_to_the_contract_are_errors(hand, field, message):
    assert error([hand]) == (0, field, message)


@pytest.mark.parametrize(("hand", "field", "message"), CONSISTENCY_CASES)
def test_inconsistent_hands_are_errors(hand, field, message):
    assert error([hand]) == (0, field, message)


def test_schwarz_check_follows_the_win_threshold_option():
    # win_threshold 61: 61 wins, so schwarz means the defenders (69 points) took no trick: an error.
    assert error([rufen(points=61, schwarz=True)], {"win_threshold": 61}) == (
        0,
        "schwarz",
        "the defenders took no trick, so they cannot have 69 points",
    )


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (5, "a hand must be an object, not a whole number"),
        ([], "a hand must be an object, not a list"),
        ("rufen", "a hand must be an object, not a text"),
        (None, "a hand must be an object, not null"),
        (True, "a hand must be an object, not true or false"),
    ],
)
def test_a_hand_that_is_not_an_object_is_an_error(hand, message):
    assert error([hand]) == (0, "", message)


def test_hand_index_is_0_based_and_one_bad_hand_rejects_the_whole_input():
    # decisions: "Hand index is 0-based". The third hand (index 2) is bad; nothing is settled.
    hands = [rufen(), solo("durch", won=True), rufen(points=131), rufen()]
    assert error(hands) == (2, "points", "points must be between 0 and 130")


def test_the_first_bad_hand_is_reported():
    hands = [rufen(), rufen(raises=11), rufen(points=131)]
    assert error(hands) == (1, "raises", "raises must be between 0 and 10")


RULE_CASES = [
    ({"win_threshold": 0}, "rules.win_threshold", "win_threshold must be between 1 and 130"),
    ({"win_threshold": 131}, "rules.win_threshold", "win_threshold must be between 1 and 130"),
    ({"win_threshold": 66.0}, "rules.win_threshold", "win_threshold must be a whole number, not a decimal number"),
    ({"win_threshold": True}, "rules.win_threshold", "win_threshold must be a whole number, not true or false"),
    ({"win_threshold": "66"}, "rules.win_threshold", "win_threshold must be a whole number, not a text"),
    ({"win_threshold": None}, "rules.win_threshold", "win_threshold may not be null"),
    ({"no_water_below": -1}, "rules.no_water_below", "no_water_below must be between 0 and 130"),
    ({"no_water_below": 131}, "rules.no_water_below", "no_water_below must be between 0 and 130"),
    ({"no_trick_value": -1}, "rules.no_trick_value", "no_trick_value must be between 0 and 100"),
    ({"no_trick_value": 101}, "rules.no_trick_value", "no_trick_value must be between 0 and 100"),
    ({"no_water_value": 101}, "rules.no_water_value", "no_water_value must be between 0 and 100"),
    ({"no_water_value": 2.5}, "rules.no_water_value", "no_water_value must be a whole number, not a decimal number"),
    ({"durch_value": -1}, "rules.durch_value", "durch_value must be between 0 and 100"),
    ({"durch_value": False}, "rules.durch_value", "durch_value must be a whole number, not true or false"),
    ({"max_raises": 11}, "rules.max_raises", "max_raises must be between 0 and 10"),
    ({"max_raises": -1}, "rules.max_raises", "max_raises must be between 0 and 10"),
    ({"matzl_bonus": 101}, "rules.matzl_bonus", "matzl_bonus must be between 0 and 100"),
    ({"matzl_bonus": "1"}, "rules.matzl_bonus", "matzl_bonus must be a whole number, not a text"),
    (
        {"matzl_annuls_loss": 1},
        "rules.matzl_annuls_loss",
        "matzl_annuls_loss must be true or false, not a whole number",
    ),
    ({"matzl_annuls_loss": "false"}, "rules.matzl_annuls_loss", "matzl_annuls_loss must be true or false, not a text"),
    ({"matzl_annuls_loss": None}, "rules.matzl_annuls_loss", "matzl_annuls_loss may not be null"),
    ({"stake": 1}, "rules.stake", "unknown rule 'stake'"),
    ({"tariff_solo": 5}, "rules.tariff_solo", "unknown rule 'tariff_solo'"),
    ({"preset": "bavarian"}, "rules.preset", "preset must be one of seed, not 'bavarian'"),
    ({"preset": 1}, "rules.preset", "preset must be one of seed, not 1"),
]


@pytest.mark.parametrize(("rules", "field", "message"), RULE_CASES)
def test_invalid_rules_are_errors_of_the_session(rules, field, message):
    # decisions: errors in the session itself have "hand": null; field is rules.<key>.
    assert error([rufen()], rules) == (None, field, message)


def test_rules_that_are_not_an_object_are_an_error():
    assert error([rufen()], [66]) == (None, "rules", "rules must be an object, not a list")


def test_rules_null_take_the_defaults():
    out = settle_json({"game": GAME, "rules": None, "hands": [rufen()]})
    assert out["rules"] == DEFAULT_RULES


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ([], "", "the input must be an object, not a list"),
        ("matzlfangen", "", "the input must be an object, not a text"),
        ({"hands": []}, "game", "game is required"),
        (
            {"game": "matzl", "hands": []},
            "game",
            "game must be one of matzlfangen, schafkopf, konter_a_matt, matt, not 'matzl'",
        ),
        ({"game": GAME}, "hands", "hands is required (a list of hands)"),
        ({"game": GAME, "hands": None}, "hands", "hands is required (a list of hands)"),
        ({"game": GAME, "hands": {}}, "hands", "hands must be a list of hands"),
        ({"game": GAME, "hands": [], "players": 4}, "players", "unknown field 'players'"),
    ],
)
def test_invalid_sessions_are_errors_with_hand_null(payload, field, message):
    # decisions: errors in the session itself have "hand": null; "" for the whole input.
    with pytest.raises(InvalidHand) as info:
        settle_json(payload)
    assert (info.value.hand, info.value.field, info.value.message) == (None, field, message)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        # declarers have 5 points: they cannot hold the Matzl, a ten worth 10
        (
            {"contract": "treiben", "declarer": 2, "points": 5, "matzl": "declarers"},
            "the declarers caught the Matzl, a ten, so they have at least 10 points, not 5",
        ),
        # defenders have 130 − 125 = 5
        (
            {"contract": "rufen", "declarer": 1, "partner": 2, "points": 125, "matzl": "defenders"},
            "the defenders caught the Matzl, a ten, so they have at least 10 points, not 5",
        ),
    ],
)
def test_a_side_that_caught_the_matzl_has_at_least_the_tens_10_points(hand, message):
    with pytest.raises(InvalidHand) as caught:
        settle_json({"game": "matzlfangen", "hands": [hand]})
    assert (caught.value.hand, caught.value.field, caught.value.message) == (0, "matzl", message)


def test_a_side_with_exactly_10_points_may_have_caught_the_matzl():
    # declarers 10 points, lost (10 < 66), caught the Matzl: the losing side caught it, so the hand is worth 0
    result = settle_json(
        {"game": "matzlfangen", "hands": [{"contract": "treiben", "declarer": 2, "points": 10, "matzl": "declarers"}]}
    )
    assert result["hands"][0]["value"] == 0
    assert result["hands"][0]["deltas"] == {"1": 0, "2": 0, "3": 0, "4": 0}
