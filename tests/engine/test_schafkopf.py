"""Schafkopf against RULES.md ("The JSON contract", "Schafkopf", "Tables of five") and docs/rules-decisions.md.

Every expected number is worked out by hand in a comment from the rules; none is
computed by the engine. Seats are 1..4; seat deltas are written in seat order.
Under the default rules (`all_pass` pot) every hand also carries a `pot` delta.
"""

from __future__ import annotations

import copy

import pytest

from scorekeeper.engine import GAMES, InvalidHand, settle_json, settle_session
from tests.support import check_steps

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

RAMSCH_RULES = {"all_pass": "ramsch"}


def settle(hands, rules=None):
    payload = {"game": "schafkopf", "hands": hands}
    if rules is not None:
        payload["rules"] = rules
    return settle_json(payload)


def one(hand, rules=None):
    """Settle a session of one hand and return that hand's result."""
    return settle([hand], rules)["hands"][0]


def deltas(s1, s2, s3, s4, pot=None):
    """The expected ``deltas``/``totals`` object: seats as strings, plus ``pot`` when the pot is reported."""
    out = {"1": s1, "2": s2, "3": s3, "4": s4}
    if pot is not None:
        out["pot"] = pot
    return out


def check_hand(result, *, value, winner, expected_deltas):
    assert result["value"] == value
    assert result["winner"] == winner
    assert result["deltas"] == expected_deltas
    # every hand sums to zero, the pot line included
    assert sum(result["deltas"].values()) == 0
    check_steps(result)


def step_units(result):
    return [step["units"] for step in result["steps"]]


def step_keys(result):
    return [step["key"] for step in result["steps"]]


def sauspiel(points, **more):
    hand = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 3, "points": points}
    hand.update(more)
    return hand


def solo(points, suit="gras", declarer=2, **more):
    hand = {"contract": "solo", "suit": suit, "declarer": declarer, "points": points}
    hand.update(more)
    return hand


def wenz(points, declarer=4, **more):
    hand = {"contract": "wenz", "declarer": declarer, "points": points}
    hand.update(more)
    return hand


def tout(contract="solo", declarer=1, won=True, **more):
    hand = {"contract": contract, "declarer": declarer, "tout": True, "won": won}
    if contract == "solo":
        hand["suit"] = "herz"
    hand.update(more)
    return hand


def ramsch(p1, p2, p3, p4, **more):
    hand = {"contract": "ramsch", "points": {"1": p1, "2": p2, "3": p3, "4": p4}}
    hand.update(more)
    return hand


def error_of(hands, rules=None):
    with pytest.raises(InvalidHand) as info:
        settle(hands, rules)
    err = info.value
    return err.hand, err.field, err.message


# ---------------------------------------------------------------------------
# the worked example
# ---------------------------------------------------------------------------


def test_worked_example_tout_won_with_four_runners_is_18_units_from_each_defender_and_54_for_the_declarer():
    # RULES.md: (5 + 4) × 2 = 18 units from each defender; the declarer +54.
    result = one(tout("solo", declarer=1, laufende=4))
    check_hand(result, value=18, winner="declarers", expected_deltas=deltas(54, -18, -18, -18, pot=0))
    # tout tariff 5, 4 runners +4, tout doubles +9, value 18
    assert step_units(result) == [5, 4, 9, 18]


# ---------------------------------------------------------------------------
# payment: sauspiel, wenz, solo
# ---------------------------------------------------------------------------


def test_sauspiel_won_pays_the_tariff_of_2_to_declarer_and_partner_from_one_defender_each():
    # declarer 1 and partner 3 win with 70: tariff_sauspiel 2; each winner +2, each loser −2
    result = one(sauspiel(70))
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2, pot=0))
    assert step_units(result) == [2, 2]


def test_sauspiel_lost_makes_declarer_and_partner_pay_the_tariff_each():
    # declarer 1 and partner 3 lose with 50: each −2, each defender +2
    result = one(sauspiel(50))
    check_hand(result, value=2, winner="defenders", expected_deltas=deltas(-2, 2, -2, 2, pot=0))


def test_sauspiel_partner_can_be_any_other_seat():
    # declarer 4, partner 2 win with 61: seats 2 and 4 +2, seats 1 and 3 −2
    result = one(sauspiel(61, declarer=4, partner=2, suit="schellen"))
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(-2, 2, -2, 2, pot=0))


@pytest.mark.parametrize("suit", ["eichel", "gras", "herz", "schellen"])
def test_solo_won_in_any_trump_suit_takes_the_solo_tariff_of_5_from_each_defender(suit):
    # declarer 2 wins with 70: 5 from each of seats 1, 3, 4 → +15
    result = one(solo(70, suit=suit))
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(-5, 15, -5, -5, pot=0))


def test_solo_lost_makes_the_declarer_pay_each_defender_the_value():
    # declarer 2 loses with 60: pays 5 to each → −15
    result = one(solo(60))
    check_hand(result, value=5, winner="defenders", expected_deltas=deltas(5, -15, 5, 5, pot=0))


def test_wenz_won_takes_the_solo_tariff_from_each_defender():
    # declarer 4 wins with 80: +15, others −5
    result = one(wenz(80))
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(-5, -5, -5, 15, pot=0))


def test_wenz_lost_makes_the_declarer_pay_each_defender():
    # declarer 4 loses with 40: −15, others +5
    result = one(wenz(40))
    check_hand(result, value=5, winner="defenders", expected_deltas=deltas(5, 5, 5, -15, pot=0))


def test_tariff_options_change_the_sauspiel_and_solo_payments():
    # tariff_sauspiel 3: sauspiel won = 3; tariff_solo 7: wenz won = 7 from each
    rules = {"tariff_sauspiel": 3, "tariff_solo": 7}
    s = one(sauspiel(70), rules)
    check_hand(s, value=3, winner="declarers", expected_deltas=deltas(3, -3, 3, -3, pot=0))
    w = one(wenz(70, declarer=1), rules)
    check_hand(w, value=7, winner="declarers", expected_deltas=deltas(21, -7, -7, -7, pot=0))


# ---------------------------------------------------------------------------
# threshold 61 and kontra
# ---------------------------------------------------------------------------


def test_declaring_side_wins_with_61_points():
    # 61 ≥ 61: won, value 2
    result = one(sauspiel(61))
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2, pot=0))


def test_declaring_side_loses_with_60_points_without_kontra():
    # 60 < 61: lost, value 2
    result = one(sauspiel(60))
    check_hand(result, value=2, winner="defenders", expected_deltas=deltas(-2, 2, -2, 2, pot=0))


def test_kontra_without_re_lets_declarers_win_with_60_when_threshold_shifts():
    # kontra_shifts_threshold true (default): 60 wins; 2 × 2 (kontra) = 4
    result = one(sauspiel(60, kontra=True))
    check_hand(result, value=4, winner="declarers", expected_deltas=deltas(4, -4, 4, -4, pot=0))
    assert step_units(result) == [2, 2, 4]


def test_kontra_without_re_with_threshold_shift_declarers_still_lose_with_59():
    # 59 < 60: lost; 2 × 2 = 4
    result = one(sauspiel(59, kontra=True))
    check_hand(result, value=4, winner="defenders", expected_deltas=deltas(-4, 4, -4, 4, pot=0))


def test_kontra_without_re_does_not_shift_the_threshold_when_the_option_is_false():
    # kontra_shifts_threshold false: 60 < 61 loses; 2 × 2 = 4
    result = one(sauspiel(60, kontra=True), {"kontra_shifts_threshold": False})
    check_hand(result, value=4, winner="defenders", expected_deltas=deltas(-4, 4, -4, 4, pot=0))


def test_re_makes_the_declaring_side_active_again_so_60_loses():
    # kontra and re: threshold back to 61; 60 loses; 2 × 2 × 2 = 8
    result = one(sauspiel(60, kontra=True, re=True))
    check_hand(result, value=8, winner="defenders", expected_deltas=deltas(-8, 8, -8, 8, pot=0))


def test_kontra_doubles_the_value():
    # solo won: 5 × 2 = 10 from each defender
    result = one(solo(70, kontra=True))
    check_hand(result, value=10, winner="declarers", expected_deltas=deltas(-10, 30, -10, -10, pot=0))
    assert step_units(result) == [5, 5, 10]
    assert step_keys(result) == ["points", "kontra", "value"]


def test_re_doubles_the_value_again():
    # solo won: 5 × 2 (kontra) × 2 (re) = 20 from each defender
    result = one(solo(70, kontra=True, re=True))
    check_hand(result, value=20, winner="declarers", expected_deltas=deltas(-20, 60, -20, -20, pot=0))
    assert step_units(result) == [5, 5, 10, 20]
    assert step_keys(result) == ["points", "kontra", "re", "value"]


def test_kontra_after_a_lost_game_doubles_what_the_declarer_pays():
    # wenz lost with 30 (not schneider: 30 > 29): 5 × 2 = 10 to each defender
    result = one(wenz(30, declarer=1, kontra=True))
    check_hand(result, value=10, winner="defenders", expected_deltas=deltas(-30, 10, 10, 10, pot=0))


# ---------------------------------------------------------------------------
# schneider and schwarz
# ---------------------------------------------------------------------------


def test_winning_declarers_win_schneider_with_91_points():
    # 91 ≥ 91: 2 + 1 (schneider) = 3
    result = one(sauspiel(91))
    check_hand(result, value=3, winner="declarers", expected_deltas=deltas(3, -3, 3, -3, pot=0))
    assert step_units(result) == [2, 1, 3]
    assert step_keys(result) == ["points", "schneider", "value"]


def test_winning_declarers_with_90_points_are_not_schneider():
    # 90 < 91: 2
    result = one(sauspiel(90))
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2, pot=0))


def test_losing_declarers_with_29_points_are_schneider_by_the_seed():
    # declarers_schneider_at 29: 29 ≤ 29 → 2 + 1 = 3 paid by each declarer
    result = one(sauspiel(29))
    check_hand(result, value=3, winner="defenders", expected_deltas=deltas(-3, 3, -3, 3, pot=0))


def test_losing_declarers_with_30_points_are_not_schneider_by_the_seed():
    # 30 > 29: 2
    result = one(sauspiel(30))
    check_hand(result, value=2, winner="defenders", expected_deltas=deltas(-2, 2, -2, 2, pot=0))


def test_losing_declarers_with_30_points_are_schneider_when_declarers_schneider_at_is_30():
    # declarers_schneider_at 30 (Bavarian): 30 ≤ 30 → 3
    result = one(sauspiel(30), {"declarers_schneider_at": 30})
    check_hand(result, value=3, winner="defenders", expected_deltas=deltas(-3, 3, -3, 3, pot=0))


def test_losing_declarers_with_31_points_are_not_schneider_when_declarers_schneider_at_is_30():
    result = one(sauspiel(31), {"declarers_schneider_at": 30})
    check_hand(result, value=2, winner="defenders", expected_deltas=deltas(-2, 2, -2, 2, pot=0))


def test_solo_won_schneider_adds_one_extra():
    # solo 5 + schneider 1 = 6 from each defender
    result = one(solo(100))
    check_hand(result, value=6, winner="declarers", expected_deltas=deltas(-6, 18, -6, -6, pot=0))


def test_schwarz_adds_an_extra_on_top_of_schneider_for_winning_declarers():
    # 120 points and the defenders took no trick: 2 + 1 (schneider) + 1 (schwarz) = 4
    result = one(sauspiel(120, schwarz=True))
    check_hand(result, value=4, winner="declarers", expected_deltas=deltas(4, -4, 4, -4, pot=0))
    assert step_keys(result) == ["points", "schneider", "schwarz", "value"]
    assert step_units(result) == [2, 1, 1, 4]


def test_declarers_with_120_points_but_not_schwarz_win_schneider_only():
    # the defenders took a trick worth 0 points: 2 + 1 = 3
    result = one(sauspiel(120))
    check_hand(result, value=3, winner="declarers", expected_deltas=deltas(3, -3, 3, -3, pot=0))


def test_defenders_can_win_schwarz_against_the_declarer():
    # solo lost with 0 points and no trick: 5 + 1 + 1 = 7 to each defender; declarer −21
    result = one(solo(0, schwarz=True))
    check_hand(result, value=7, winner="defenders", expected_deltas=deltas(7, -21, 7, 7, pot=0))


def test_schwarz_implies_schneider_in_a_wenz():
    # wenz won schwarz: 5 + 1 + 1 = 7 from each
    result = one(wenz(120, schwarz=True))
    check_hand(result, value=7, winner="declarers", expected_deltas=deltas(-7, -7, -7, 21, pot=0))


def test_schneider_limits_do_not_shift_after_kontra():
    # kontra without re shifts the win to 60, but schneider still needs 91: 90 → 2 × 2 = 4
    result = one(sauspiel(90, kontra=True))
    check_hand(result, value=4, winner="declarers", expected_deltas=deltas(4, -4, 4, -4, pot=0))
    # and 91 is schneider: (2 + 1) × 2 = 6
    result = one(sauspiel(91, kontra=True))
    check_hand(result, value=6, winner="declarers", expected_deltas=deltas(6, -6, 6, -6, pot=0))
    # a losing declaring side with 30 is not schneider: 2 × 2 = 4
    result = one(sauspiel(30, kontra=True))
    check_hand(result, value=4, winner="defenders", expected_deltas=deltas(-4, 4, -4, 4, pot=0))


def test_extra_option_changes_schneider_schwarz_and_runner_units():
    # extra 2: sauspiel 2 + schneider 2 + schwarz 2 + 3 runners × 2 = 12
    result = one(sauspiel(120, schwarz=True, laufende=3), {"extra": 2})
    check_hand(result, value=12, winner="declarers", expected_deltas=deltas(12, -12, 12, -12, pot=0))
    assert step_units(result) == [2, 2, 2, 6, 12]


# ---------------------------------------------------------------------------
# laufende (runners)
# ---------------------------------------------------------------------------


def test_runners_below_three_are_not_paid_in_a_sauspiel():
    # 2 < laufende_min 3: 2
    result = one(sauspiel(70, laufende=2))
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2, pot=0))


def test_three_runners_add_one_extra_each_in_a_sauspiel():
    # 2 + 3 = 5
    result = one(sauspiel(70, laufende=3))
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(5, -5, 5, -5, pot=0))
    assert step_keys(result) == ["points", "laufende", "value"]


def test_runners_are_paid_by_the_losing_declarers_too():
    # sauspiel lost with 4 runners (with or without, counted alike): 2 + 4 = 6
    result = one(sauspiel(40, laufende=4))
    check_hand(result, value=6, winner="defenders", expected_deltas=deltas(-6, 6, -6, 6, pot=0))


def test_fourteen_runners_are_the_most_in_a_solo():
    # 5 + 14 = 19 from each
    result = one(solo(120, schwarz=True, laufende=14))
    # 5 + 1 (schneider) + 1 (schwarz) + 14 = 21
    check_hand(result, value=21, winner="declarers", expected_deltas=deltas(-21, 63, -21, -21, pot=0))


def test_two_runners_are_paid_in_a_wenz():
    # laufende_min_wenz 2: 5 + 2 = 7
    result = one(wenz(70, laufende=2))
    check_hand(result, value=7, winner="declarers", expected_deltas=deltas(-7, -7, -7, 21, pot=0))


def test_one_runner_is_not_paid_in_a_wenz():
    result = one(wenz(70, laufende=1))
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(-5, -5, -5, 15, pot=0))


def test_two_runners_are_not_paid_in_a_solo():
    # solo minimum is laufende_min 3: 5
    result = one(solo(70, laufende=2))
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(-5, 15, -5, -5, pot=0))


def test_laufende_min_option_lowers_the_minimum_for_sauspiel_and_solo():
    # laufende_min 2: sauspiel with 2 runners 2 + 2 = 4
    result = one(sauspiel(70, laufende=2), {"laufende_min": 2})
    check_hand(result, value=4, winner="declarers", expected_deltas=deltas(4, -4, 4, -4, pot=0))


def test_laufende_min_option_does_not_touch_the_wenz_minimum():
    # laufende_min 4, wenz with 2 runners still paid by laufende_min_wenz 2: 5 + 2 = 7
    result = one(wenz(70, laufende=2), {"laufende_min": 4})
    check_hand(result, value=7, winner="declarers", expected_deltas=deltas(-7, -7, -7, 21, pot=0))


def test_laufende_min_wenz_option_raises_the_wenz_minimum():
    # laufende_min_wenz 3: 2 runners are not paid → 5; 3 runners → 8
    result = one(wenz(70, laufende=2), {"laufende_min_wenz": 3})
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(-5, -5, -5, 15, pot=0))
    result = one(wenz(70, laufende=3), {"laufende_min_wenz": 3})
    check_hand(result, value=8, winner="declarers", expected_deltas=deltas(-8, -8, -8, 24, pot=0))


def test_laufende_max_is_none_by_default_so_every_runner_is_paid():
    # 2 + 8 = 10
    result = one(sauspiel(70, laufende=8))
    check_hand(result, value=10, winner="declarers", expected_deltas=deltas(10, -10, 10, -10, pot=0))


def test_laufende_max_caps_the_runners_paid():
    # laufende_max 4: 6 runners, 4 paid: 5 + 4 = 9
    result = one(solo(70, laufende=6), {"laufende_max": 4})
    check_hand(result, value=9, winner="declarers", expected_deltas=deltas(-9, 27, -9, -9, pot=0))
    assert step_units(result) == [5, 4, 9]


def test_laufende_max_counts_the_real_runners_against_the_minimum():
    # laufende_max 2 < laufende_min 3: 3 real runners reach the minimum, then 2 are paid: 2 + 2 = 4
    result = one(sauspiel(70, laufende=3), {"laufende_max": 2})
    check_hand(result, value=4, winner="declarers", expected_deltas=deltas(4, -4, 4, -4, pot=0))
    # 2 real runners do not reach the minimum 3: nothing for runners → 2
    result = one(sauspiel(70, laufende=2), {"laufende_max": 2})
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2, pot=0))


# ---------------------------------------------------------------------------
# tout
# ---------------------------------------------------------------------------


def test_tout_lost_makes_the_declarer_pay_each_defender_double():
    # solo tout lost with 4 runners: (5 + 4) × 2 = 18 to each defender; declarer −54
    result = one(tout("solo", declarer=1, won=False, laufende=4))
    check_hand(result, value=18, winner="defenders", expected_deltas=deltas(-54, 18, 18, 18, pot=0))


def test_tout_without_runners_is_the_doubled_tariff():
    # (5 + 0) × 2 = 10
    result = one(tout("solo", declarer=3))
    check_hand(result, value=10, winner="declarers", expected_deltas=deltas(-10, -10, 30, -10, pot=0))
    assert step_keys(result) == ["tout", "tout_doubles", "value"]


def test_runners_in_a_tout_follow_the_minimum_of_the_game():
    # solo tout with 2 runners: 2 < 3 not paid → 5 × 2 = 10
    result = one(tout("solo", declarer=1, laufende=2))
    check_hand(result, value=10, winner="declarers", expected_deltas=deltas(30, -10, -10, -10, pot=0))


def test_wenz_tout_pays_two_runners():
    # wenz tout with 2 runners: (5 + 2) × 2 = 14
    result = one(tout("wenz", declarer=2, laufende=2))
    check_hand(result, value=14, winner="declarers", expected_deltas=deltas(-14, 42, -14, -14, pot=0))


def test_tout_is_doubled_again_by_kontra_re_and_knocks():
    # (5 + 3) × 2 = 16, × 2 kontra = 32, × 2 re = 64, × 2 one knock = 128
    result = one(tout("solo", declarer=1, laufende=3, kontra=True, re=True, klopfen=1))
    check_hand(result, value=128, winner="declarers", expected_deltas=deltas(384, -128, -128, -128, pot=0))
    assert step_units(result) == [5, 3, 8, 16, 32, 64, 128]
    assert step_keys(result) == ["tout", "laufende", "tout_doubles", "kontra", "re", "klopfen", "value"]


# ---------------------------------------------------------------------------
# klopfen
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knocks", "value"),
    [
        (0, 2),  # 2
        (1, 4),  # 2 × 2
        (2, 8),  # 2 × 2 × 2
        (3, 16),  # 2 × 2 × 2 × 2
        (4, 32),  # 2 × 2 × 2 × 2 × 2
    ],
)
def test_each_knock_doubles_the_sauspiel(knocks, value):
    result = one(sauspiel(70, klopfen=knocks))
    check_hand(result, value=value, winner="declarers", expected_deltas=deltas(value, -value, value, -value, pot=0))
    assert step_keys(result).count("klopfen") == knocks


def test_knocks_double_after_kontra_and_re():
    # solo won schneider: (5 + 1) × 2 kontra × 2 re × 2 × 2 (two knocks) = 96 from each defender
    result = one(solo(95, kontra=True, re=True, klopfen=2))
    check_hand(result, value=96, winner="declarers", expected_deltas=deltas(-96, 288, -96, -96, pot=0))
    assert step_units(result) == [5, 1, 6, 12, 24, 48, 96]


def test_steps_add_up_to_the_value_in_a_combined_hand():
    # sauspiel won schneider with 4 runners and kontra: 2 + 1 + 4 = 7, kontra +7 → 14
    result = one(sauspiel(95, laufende=4, kontra=True))
    check_hand(result, value=14, winner="declarers", expected_deltas=deltas(14, -14, 14, -14, pot=0))
    assert step_units(result) == [2, 1, 4, 7, 14]
    assert [step["total"] for step in result["steps"]] == [2, 3, 7, 14, 14]


# ---------------------------------------------------------------------------
# the pot (Stock)
# ---------------------------------------------------------------------------


def test_rundpass_makes_every_player_pay_pot_stake_into_the_pot():
    # pot_stake 2: each −2, pot +8
    result = one({"contract": "rundpass"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-2, -2, -2, -2, pot=8))
    assert result["pot_before"] == 0
    assert result["pot_after"] == 8


def test_rundpass_pays_the_pot_stake_option():
    # pot_stake 3: each −3, pot +12
    result = one({"contract": "rundpass"}, {"pot_stake": 3})
    check_hand(result, value=3, winner=None, expected_deltas=deltas(-3, -3, -3, -3, pot=12))


def test_rundpass_pays_again_when_the_pot_already_holds_something():
    # two rundpasses: pot 0 → 8 → 16
    out = settle([{"contract": "rundpass"}, {"contract": "rundpass"}])
    second = out["hands"][1]
    check_hand(second, value=2, winner=None, expected_deltas=deltas(-2, -2, -2, -2, pot=8))
    assert (second["pot_before"], second["pot_after"]) == (8, 16)
    assert out["totals"] == deltas(-4, -4, -4, -4, pot=16)


def test_sauspiel_won_while_the_pot_holds_something_gives_declarer_and_partner_half_each():
    # pot 8 after a rundpass; sauspiel 1+3 won: 2 each, plus 8 / 2 = 4 each from the pot → +6;
    # defenders −2; pot −8 → 0. Sum: 6 − 2 + 6 − 2 − 8 = 0
    out = settle([{"contract": "rundpass"}, sauspiel(70)])
    result = out["hands"][1]
    check_hand(result, value=2, winner="declarers", expected_deltas=deltas(6, -2, 6, -2, pot=-8))
    assert (result["pot_before"], result["pot_after"]) == (8, 0)
    # totals: seat 1: −2 + 6 = 4, seat 2: −2 − 2 = −4, seat 3: 4, seat 4: −4; pot 0
    assert out["totals"] == deltas(4, -4, 4, -4, pot=0)


def test_sauspiel_lost_while_the_pot_holds_something_makes_declarer_and_partner_each_pay_half_and_doubles_it():
    # pot 8; sauspiel 1+3 lost: −2 each and 8 / 2 = 4 each into the pot → −6; defenders +2; pot +8 → 16
    out = settle([{"contract": "rundpass"}, sauspiel(40)])
    result = out["hands"][1]
    check_hand(result, value=2, winner="defenders", expected_deltas=deltas(-6, 2, -6, 2, pot=8))
    assert (result["pot_before"], result["pot_after"]) == (8, 16)
    # totals: seat 1: −2 − 6 = −8, seat 2: −2 + 2 = 0, seat 3: −8, seat 4: 0; pot 16
    assert out["totals"] == deltas(-8, 0, -8, 0, pot=16)


def test_sauspiel_with_an_empty_pot_leaves_the_pot_at_zero():
    result = one(sauspiel(70))
    assert result["deltas"]["pot"] == 0
    assert (result["pot_before"], result["pot_after"]) == (0, 0)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # solo won by seat 2: 5 from each, the pot untouched
        (solo(70), deltas(-5, 15, -5, -5, pot=0)),
        # wenz lost by seat 4: 5 to each
        (wenz(40), deltas(5, 5, 5, -15, pot=0)),
        # solo tout won by seat 1: 10 from each
        (tout("solo", declarer=1), deltas(30, -10, -10, -10, pot=0)),
    ],
    ids=["solo", "wenz", "tout"],
)
def test_games_other_than_sauspiel_leave_the_pot_alone(hand, expected):
    out = settle([{"contract": "rundpass"}, hand])
    result = out["hands"][1]
    assert result["deltas"] == expected
    assert sum(result["deltas"].values()) == 0
    assert (result["pot_before"], result["pot_after"]) == (8, 8)
    assert out["totals"]["pot"] == 8


def test_pot_carries_through_a_night_and_every_hand_sums_to_zero_with_it():
    hands = [
        {"contract": "rundpass"},  # each −2, pot 0 → 8
        {"contract": "rundpass"},  # each −2, pot 8 → 16
        sauspiel(50, declarer=1, partner=2),  # lost: 1, 2 pay 2 + 8 → −10; 3, 4 +2; pot 16 → 32
        solo(70, declarer=3),  # 3 +15, others −5; pot stays 32
        sauspiel(61, declarer=4, partner=3),  # won: 3, 4 get 2 + 16 → +18; 1, 2 −2; pot 32 → 0
        sauspiel(70, declarer=2, partner=1),  # won, empty pot: 1, 2 +2; 3, 4 −2; pot 0
    ]
    out = settle(hands)
    expected = [
        deltas(-2, -2, -2, -2, pot=8),
        deltas(-2, -2, -2, -2, pot=8),
        deltas(-10, -10, 2, 2, pot=16),
        deltas(-5, -5, 15, -5, pot=0),
        deltas(-2, -2, 18, 18, pot=-32),
        deltas(2, 2, -2, -2, pot=0),
    ]
    assert [h["deltas"] for h in out["hands"]] == expected
    for result in out["hands"]:
        assert sum(result["deltas"].values()) == 0
        check_steps(result)
    assert [(h["pot_before"], h["pot_after"]) for h in out["hands"]] == [
        (0, 8),
        (8, 16),
        (16, 32),
        (32, 32),
        (32, 0),
        (0, 0),
    ]
    # seat 1: −2 −2 −10 −5 −2 +2 = −19; seat 2: −2 −2 −10 −5 −2 +2 = −19;
    # seat 3: −2 −2 +2 +15 +18 −2 = 29; seat 4: −2 −2 +2 −5 +18 −2 = 9; pot 0
    assert out["totals"] == deltas(-19, -19, 29, 9, pot=0)
    assert sum(out["totals"].values()) == 0


def test_pot_left_at_the_end_of_the_night_is_reported_in_totals_and_left_out_of_the_balance():
    # one rundpass: totals −2 each, pot 8; the balance leaves out the pot
    out = settle([{"contract": "rundpass"}])
    assert out["totals"] == deltas(-2, -2, -2, -2, pot=8)
    assert sum(out["totals"].values()) == 0
    assert out["balance"] == deltas(-2, -2, -2, -2)


def test_settle_session_reports_the_pot_beside_the_totals():
    s = settle_session("schafkopf", None, [{"contract": "rundpass"}, {"contract": "rundpass"}])
    assert s.totals == (-4, -4, -4, -4)
    assert s.pot == 16
    assert s.balance == (-4, -4, -4, -4)


@pytest.mark.parametrize("pot_at_close", ["split", "carry"])
def test_pot_at_close_option_is_kept_in_the_rule_set_and_leaves_the_pot_in_the_settlement(pot_at_close):
    out = settle([{"contract": "rundpass"}], {"pot_at_close": pot_at_close})
    assert out["rules"]["pot_at_close"] == pot_at_close
    # what happens to the pot at close is the ledger's job: the settlement shows the pot of 8
    assert out["totals"]["pot"] == 8


def test_pot_at_close_defaults_to_split():
    assert settle([])["rules"]["pot_at_close"] == "split"


def test_pot_is_not_reported_when_all_pass_is_not_pot():
    for rules, hand in (({"all_pass": "none"}, sauspiel(70)), (RAMSCH_RULES, sauspiel(70))):
        out = settle([hand], rules)
        result = out["hands"][0]
        assert result["deltas"] == deltas(2, -2, 2, -2)
        assert "pot" not in out["totals"]
        assert "pot_before" not in result
        assert "pot_after" not in result


@pytest.mark.parametrize(
    ("hand", "suit"),
    [
        (sauspiel(70), "eichel"),
        (solo(70, suit="gras"), "gras"),
        (solo(70, suit="herz"), "herz"),
        (wenz(70), None),
        ({**tout("solo"), "suit": "schellen"}, "schellen"),
        (tout("wenz"), None),
    ],
    ids=["sauspiel: the called ace", "gras solo: trumps", "herz solo", "wenz: no suit", "schellen tout", "wenz tout"],
)
def test_the_first_step_names_the_suit_so_a_page_can_name_the_contract(hand, suit):
    args = one(hand)["steps"][0]["args"]
    assert args["contract"] == hand["contract"]
    assert args.get("suit") == suit


# ---------------------------------------------------------------------------
# the pot's steps: what goes in, what comes out, what the pot holds after the hand
# ---------------------------------------------------------------------------


def pot_steps(result):
    """The hand's pot steps as (key, units, total, args)."""
    return [(s["key"], s["units"], s["total"], s["args"]) for s in result["steps"] if s["key"].startswith("pot_")]


def test_a_rundpass_shows_what_goes_into_the_pot_and_what_the_pot_holds():
    # each pays 2 (the value); the pot step adds nothing to the value: +8 into the pot, which then holds 8, then 16
    out = settle([{"contract": "rundpass"}, {"contract": "rundpass"}])
    first, second = out["hands"]
    assert step_keys(first) == ["rundpass_pot", "pot_in", "value"]
    assert step_units(first) == [2, 0, 2]
    assert pot_steps(first) == [("pot_in", 0, 2, {"each": 2, "paid": 8, "pot": 8})]
    assert pot_steps(second) == [("pot_in", 0, 2, {"each": 2, "paid": 8, "pot": 16})]
    for result in out["hands"]:
        check_steps(result)


def test_a_rundpass_pot_step_follows_the_pot_stake_and_a_pot_carried_from_a_former_night():
    # pot_stake 3, 10 carried: each pays 3, +12, the pot holds 22
    out = settle_json({"game": "schafkopf", "rules": {"pot_stake": 3}, "pot": 10, "hands": [{"contract": "rundpass"}]})
    assert pot_steps(out["hands"][0]) == [("pot_in", 0, 3, {"each": 3, "paid": 12, "pot": 22})]


def test_a_sauspiel_won_shows_declarer_and_partner_taking_half_the_pot_each():
    # pot 8; Sauspiel 1+3 won with 70: value 2; they take 4 each (−8), the pot holds 0.
    # The hand adds up: each winner 2 + 4 = +6, each loser −2, the pot −8.
    out = settle([{"contract": "rundpass"}, sauspiel(70)])
    result = out["hands"][1]
    assert step_keys(result) == ["points", "pot_out", "value"]
    assert step_units(result) == [2, 0, 2]
    assert pot_steps(result) == [("pot_out", 0, 2, {"seats": [1, 3], "each": 4, "taken": 8, "pot": 0})]
    assert result["deltas"] == deltas(2 + 4, -2, 2 + 4, -2, pot=-8)
    check_steps(result)


def test_a_sauspiel_lost_shows_declarer_and_partner_paying_half_the_pot_each_so_it_doubles():
    # pot 8; Sauspiel 2+4 lost with 40: value 2; they pay 4 each into the pot (+8), which then holds 16.
    # The hand adds up: each loser −2 − 4 = −6, each winner +2, the pot +8.
    out = settle([{"contract": "rundpass"}, sauspiel(40, declarer=4, partner=2)])
    result = out["hands"][1]
    assert step_keys(result) == ["points", "pot_doubled", "value"]
    assert pot_steps(result) == [("pot_doubled", 0, 2, {"seats": [4, 2], "each": 4, "paid": 8, "pot": 16})]
    assert result["deltas"] == deltas(2, -2 - 4, 2, -2 - 4, pot=8)
    check_steps(result)


def test_the_pot_step_comes_after_every_doubling_and_leaves_the_value_alone():
    # pot 8; Sauspiel won with kontra and a knock: 2 × 2 × 2 = 8; then the pot: +4 each for the winners
    out = settle([{"contract": "rundpass"}, sauspiel(70, kontra=True, klopfen=1)])
    result = out["hands"][1]
    assert step_keys(result) == ["points", "kontra", "klopfen", "pot_out", "value"]
    assert step_units(result) == [2, 2, 4, 0, 8]
    assert result["deltas"] == deltas(8 + 4, -8, 8 + 4, -8, pot=-8)


@pytest.mark.parametrize(
    ("rules", "hands"),
    [
        (None, [sauspiel(70)]),  # the pot is empty: nothing moves
        (None, [{"contract": "rundpass"}, solo(70)]),  # a Solo leaves the pot alone
        (None, [{"contract": "rundpass"}, wenz(40)]),
        (None, [{"contract": "rundpass"}, tout("solo")]),
        ({"all_pass": "none"}, [{"contract": "rundpass"}, sauspiel(70)]),  # no pot under these rules
        (RAMSCH_RULES, [ramsch(50, 30, 25, 15), sauspiel(70)]),
    ],
    ids=["empty pot", "solo", "wenz", "tout", "all_pass none", "all_pass ramsch"],
)
def test_a_hand_that_does_not_move_the_pot_has_no_pot_step(rules, hands):
    result = settle(hands, rules)["hands"][-1]
    assert pot_steps(result) == []


def test_every_pot_step_says_what_the_deltas_move_and_what_the_pot_holds_after_the_hand():
    hands = [
        {"contract": "rundpass"},
        {"contract": "rundpass"},
        sauspiel(50, declarer=1, partner=2),
        solo(70, declarer=3),
        sauspiel(61, declarer=4, partner=3),
        {"contract": "rundpass"},
        sauspiel(20, declarer=3, partner=1, kontra=True),
    ]
    for result in settle(hands)["hands"]:
        moved = result["deltas"]["pot"]
        steps = pot_steps(result)
        if not moved:
            assert steps == []
            continue
        ((key, units, _total, args),) = steps
        assert units == 0
        assert args["pot"] == result["pot_after"] == result["pot_before"] + moved
        if key == "pot_out":
            assert args["taken"] == -moved == 2 * args["each"]
        else:
            assert args["paid"] == moved
        if key == "pot_in":  # everybody paid their stake into it
            assert args["each"] * 4 == moved
            assert all(result["deltas"][seat] == -args["each"] for seat in "1234")
        else:  # the declaring side: the value and its share of the pot
            sign = 1 if key == "pot_out" else -1
            for seat in "1234":
                share = args["each"] if int(seat) in args["seats"] else 0
                own = result["value"] if (int(seat) in args["seats"]) == (key == "pot_out") else -result["value"]
                assert result["deltas"][seat] == own + sign * share


# ---------------------------------------------------------------------------
# all_pass: pot / ramsch / none
# ---------------------------------------------------------------------------


def test_all_pass_defaults_to_pot():
    assert settle([])["rules"]["all_pass"] == "pot"


def test_all_pass_none_makes_a_rundpass_a_hand_of_value_zero_where_nothing_is_paid():
    out = settle([{"contract": "rundpass"}], {"all_pass": "none"})
    result = out["hands"][0]
    check_hand(result, value=0, winner=None, expected_deltas=deltas(0, 0, 0, 0))
    assert out["totals"] == deltas(0, 0, 0, 0)


def test_all_pass_none_leaves_a_sauspiel_without_any_pot():
    out = settle([{"contract": "rundpass"}, sauspiel(70)], {"all_pass": "none"})
    check_hand(out["hands"][1], value=2, winner="declarers", expected_deltas=deltas(2, -2, 2, -2))
    assert out["totals"] == deltas(2, -2, 2, -2)


def test_rundpass_is_refused_when_all_pass_is_ramsch():
    assert error_of([{"contract": "rundpass"}], RAMSCH_RULES) == (
        0,
        "contract",
        "under these rules an all-pass hand is played as ramsch",
    )


def test_ramsch_is_refused_unless_all_pass_is_ramsch():
    assert error_of([ramsch(50, 30, 25, 15)]) == (0, "contract", "ramsch is only played with all_pass ramsch, not pot")
    assert error_of([ramsch(50, 30, 25, 15)], {"all_pass": "none"}) == (
        0,
        "contract",
        "ramsch is only played with all_pass ramsch, not none",
    )


def test_knocks_do_not_apply_to_a_rundpass():
    assert error_of([{"contract": "rundpass", "klopfen": 1}]) == (0, "klopfen", "klopfen does not apply to rundpass")


# ---------------------------------------------------------------------------
# Ramsch
# ---------------------------------------------------------------------------


def test_ramsch_player_with_most_points_pays_tariff_ramsch_to_each_other_player():
    # seat 1 has most (50): pays 2 to each of 3 → −6
    result = one(ramsch(50, 30, 25, 15), RAMSCH_RULES)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-6, 2, 2, 2))
    assert result["losers"] == [1]


def test_ramsch_tariff_option_changes_the_payment():
    # tariff_ramsch 3: seat 2 with 61 pays 3 to each → −9
    result = one(ramsch(20, 61, 20, 19), {"all_pass": "ramsch", "tariff_ramsch": 3})
    check_hand(result, value=3, winner=None, expected_deltas=deltas(3, -9, 3, 3))
    assert result["losers"] == [2]


def test_ramsch_players_tied_for_most_all_lose_and_each_pays_every_non_loser():
    # seats 1, 2 tie at 40: each pays 2 to seats 3 and 4 → −4 each; seats 3, 4 +4 each
    result = one(ramsch(40, 40, 25, 15), RAMSCH_RULES)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-4, -4, 4, 4))
    assert result["losers"] == [1, 2]


def test_ramsch_three_players_tied_all_lose():
    # seats 1, 2, 3 tie at 40, seat 4 has 0: each pays 2 to seat 4 → −2 each, seat 4 +6
    result = one(ramsch(40, 40, 40, 0), RAMSCH_RULES)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-2, -2, -2, 6))
    assert result["losers"] == [1, 2, 3]


def test_ramsch_four_players_tied_at_30_all_lose_so_nobody_pays():
    result = one(ramsch(30, 30, 30, 30), RAMSCH_RULES)
    assert result["deltas"] == deltas(0, 0, 0, 0)
    assert result["value"] == 0  # decision: nobody is paid, so the hand is worth nothing
    assert result["winner"] is None
    assert result["losers"] == [1, 2, 3, 4]
    check_steps(result)


def test_ramsch_tie_named_makes_only_the_named_loser_pay():
    # seats 1, 2 tie at 40; loser 2 named: pays 2 to each of 3 → −6
    rules = {"all_pass": "ramsch", "ramsch_tie": "named"}
    result = one(ramsch(40, 40, 25, 15, loser=2), rules)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(2, -6, 2, 2))
    assert result["losers"] == [2]


def test_ramsch_tie_named_without_a_tie_needs_no_loser():
    rules = {"all_pass": "ramsch", "ramsch_tie": "named"}
    result = one(ramsch(50, 30, 25, 15), rules)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-6, 2, 2, 2))


def test_ramsch_four_players_tied_at_30_under_named_make_the_named_loser_pay_the_other_three():
    rules = {"all_pass": "ramsch", "ramsch_tie": "named"}
    result = one(ramsch(30, 30, 30, 30, loser=3), rules)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(2, 2, -6, 2))
    assert result["losers"] == [3]


def test_ramsch_jungfrau_double_all_doubles_every_payment():
    # seat 4 took no trick: 2 × 2 = 4 to each → seat 1 −12
    result = one(ramsch(60, 40, 20, 0, jungfrau=[4]), RAMSCH_RULES)
    check_hand(result, value=4, winner=None, expected_deltas=deltas(-12, 4, 4, 4))
    assert step_units(result) == [2, 2, 4]


def test_ramsch_two_jungfrauen_under_double_all_double_twice():
    # seats 3 and 4 took no trick: 2 × 2 × 2 = 8 to each → seat 1 −24
    result = one(ramsch(70, 50, 0, 0, jungfrau=[3, 4]), RAMSCH_RULES)
    check_hand(result, value=8, winner=None, expected_deltas=deltas(-24, 8, 8, 8))


def test_ramsch_jungfrau_doubles_the_payments_of_tied_losers():
    # seats 1, 2 tie at 60; seats 3, 4 Jungfrauen: 2 × 2 × 2 = 8; each loser pays 8 to seats 3 and 4
    result = one(ramsch(60, 60, 0, 0, jungfrau=[3, 4]), RAMSCH_RULES)
    check_hand(result, value=8, winner=None, expected_deltas=deltas(-16, -16, 16, 16))


def test_ramsch_jungfrau_double_own_doubles_only_what_the_jungfrau_receives():
    # seat 4 Jungfrau receives 2 × 2 = 4; seats 2 and 3 receive 2; seat 1 pays 4 + 2 + 2 = 8
    result = one(ramsch(60, 40, 20, 0, jungfrau=[4]), {"all_pass": "ramsch", "jungfrau": "double_own"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-8, 2, 2, 4))


def test_ramsch_two_jungfrauen_under_double_own_each_receive_double_once():
    # seats 3, 4 receive 4 each, seat 2 receives 2; seat 1 pays 10
    result = one(ramsch(70, 50, 0, 0, jungfrau=[3, 4]), {"all_pass": "ramsch", "jungfrau": "double_own"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-10, 2, 4, 4))


def test_ramsch_jungfrau_none_pays_the_plain_tariff():
    # jungfrau none: 2 to each → −6
    result = one(ramsch(60, 40, 20, 0, jungfrau=[4]), {"all_pass": "ramsch", "jungfrau": "none"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-6, 2, 2, 2))


def test_ramsch_durchmarsch_wins_as_a_solo_by_default():
    # durchmarsch_tariff solo: each other player pays seat 2 tariff_solo 5 → +15
    result = one({"contract": "ramsch", "durchmarsch": 2}, RAMSCH_RULES)
    check_hand(result, value=5, winner=None, expected_deltas=deltas(-5, 15, -5, -5))
    assert result["losers"] == [1, 3, 4]


def test_ramsch_durchmarsch_with_its_points_given_has_all_120():
    result = one(ramsch(0, 0, 120, 0, durchmarsch=3), RAMSCH_RULES)
    check_hand(result, value=5, winner=None, expected_deltas=deltas(-5, -5, 15, -5))


def test_ramsch_durchmarsch_tariff_ramsch_pays_the_ramsch_tariff():
    # durchmarsch_tariff ramsch: 2 from each → +6
    result = one({"contract": "ramsch", "durchmarsch": 2}, {"all_pass": "ramsch", "durchmarsch_tariff": "ramsch"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-2, 6, -2, -2))


@pytest.mark.parametrize(
    ("jungfrau", "points"),
    [
        ([], None),
        ([2, 3, 4], None),
        ([4, 2, 3], None),  # in any order
        ([2, 3, 4], {"1": 120, "2": 0, "3": 0, "4": 0}),
        ([], {"1": 120, "2": 0, "3": 0, "4": 0}),
    ],
    ids=["empty", "the three others", "the three others in any order", "with points", "empty with points"],
)
def test_ramsch_durchmarsch_accepts_jungfrau_empty_or_naming_exactly_the_three_other_seats(jungfrau, points):
    # a Durchmarsch means the three others took no trick: saying so (or nothing) is consistent, and it
    # changes nothing: seat 1 still wins as a solo, 5 from each → +15 (the Jungfrauen do not double it)
    hand = {"contract": "ramsch", "durchmarsch": 1, "jungfrau": jungfrau}
    if points is not None:
        hand["points"] = points
    result = one(hand, RAMSCH_RULES)
    check_hand(result, value=5, winner=None, expected_deltas=deltas(15, -5, -5, -5))
    assert result == one({"contract": "ramsch", "durchmarsch": 1}, RAMSCH_RULES)


def test_ramsch_durchmarsch_with_the_three_jungfrauen_is_not_doubled_under_any_jungfrau_rule():
    for rule in ("double_all", "double_own", "none"):
        rules = {"all_pass": "ramsch", "jungfrau": rule}
        result = one({"contract": "ramsch", "durchmarsch": 4, "jungfrau": [1, 2, 3]}, rules)
        check_hand(result, value=5, winner=None, expected_deltas=deltas(-5, -5, -5, 15))


def test_ramsch_durchmarsch_null_is_an_ordinary_ramsch():
    result = one(ramsch(50, 30, 25, 15, durchmarsch=None), RAMSCH_RULES)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-6, 2, 2, 2))


def test_knocks_double_ramsch():
    # one knock: 2 × 2 = 4 → seat 1 −12
    result = one(ramsch(50, 30, 25, 15, klopfen=1), RAMSCH_RULES)
    check_hand(result, value=4, winner=None, expected_deltas=deltas(-12, 4, 4, 4))
    assert step_keys(result) == ["ramsch", "klopfen", "value"]


def test_knocks_double_ramsch_after_a_jungfrau():
    # 2 × 2 (Jungfrau) × 2 × 2 (two knocks) = 16 → seat 1 −48
    result = one(ramsch(60, 40, 20, 0, jungfrau=[4], klopfen=2), RAMSCH_RULES)
    check_hand(result, value=16, winner=None, expected_deltas=deltas(-48, 16, 16, 16))
    assert step_units(result) == [2, 2, 4, 8, 16]


def test_knocks_double_a_durchmarsch():
    # 5 × 2 × 2 = 20 from each → +60
    result = one({"contract": "ramsch", "durchmarsch": 1, "klopfen": 2}, RAMSCH_RULES)
    check_hand(result, value=20, winner=None, expected_deltas=deltas(60, -20, -20, -20))


# ---------------------------------------------------------------------------
# presets
# ---------------------------------------------------------------------------

DEFAULT_RULES = {
    "preset": "seed",
    "tariff_sauspiel": 2,
    "tariff_solo": 5,
    "extra": 1,
    "laufende_min": 3,
    "laufende_min_wenz": 2,
    "laufende_max": None,
    "kontra_shifts_threshold": True,
    "declarers_schneider_at": 29,
    "klopfen_played": True,
    "all_pass": "pot",
    "pot_stake": 2,
    "pot_at_close": "split",
    "tariff_ramsch": 2,
    "jungfrau": "double_all",
    "durchmarsch_tariff": "solo",
    "ramsch_tie": "all_lose",
}


def test_output_carries_the_complete_rule_set_with_the_defaults():
    out = settle([sauspiel(70)])
    assert out["game"] == "schafkopf"
    assert out["rules"] == DEFAULT_RULES


def test_a_partial_rule_set_is_completed_with_the_defaults():
    out = settle([], {"tariff_solo": 6})
    assert out["rules"] == {**DEFAULT_RULES, "tariff_solo": 6}


def test_settling_the_output_rules_again_gives_the_same_rule_set():
    for rules in (None, {"preset": "bavarian", "tariff_solo": 10}, {"preset": "seed-variant", "laufende_max": 5}):
        first = settle([], rules)["rules"]
        again = settle([], copy.deepcopy(first))["rules"]
        assert again == first


def test_preset_seed_is_the_defaults():
    assert settle([], {"preset": "seed"})["rules"] == DEFAULT_RULES


def test_preset_seed_variant_pays_1_for_a_sauspiel_2_for_a_solo_and_nothing_on_rundpass():
    rules = {"preset": "seed-variant"}
    out = settle([sauspiel(70), solo(70), {"contract": "rundpass"}], rules)
    assert out["rules"] == {
        **DEFAULT_RULES,
        "preset": "seed-variant",
        "tariff_sauspiel": 1,
        "tariff_solo": 2,
        "all_pass": "none",
    }
    s, so, rp = out["hands"]
    # sauspiel won: 1
    check_hand(s, value=1, winner="declarers", expected_deltas=deltas(1, -1, 1, -1))
    # solo won by seat 2: 2 from each → +6
    check_hand(so, value=2, winner="declarers", expected_deltas=deltas(-2, 6, -2, -2))
    # rundpass: nothing is paid, no pot
    check_hand(rp, value=0, winner=None, expected_deltas=deltas(0, 0, 0, 0))
    # totals: seat 1: 1 − 2 = −1, seat 2: −1 + 6 = 5, seat 3: 1 − 2 = −1, seat 4: −1 − 2 = −3
    assert out["totals"] == deltas(-1, 5, -1, -3)


def test_preset_seed_variant_extras_are_still_one_unit():
    # seed-variant sauspiel won schneider with 3 runners: 1 + 1 + 3 = 5
    result = one(sauspiel(95, laufende=3), {"preset": "seed-variant"})
    check_hand(result, value=5, winner="declarers", expected_deltas=deltas(5, -5, 5, -5))


def test_preset_bavarian_sets_tariff_2_and_5_no_kontra_shift_schneider_at_30_and_ramsch():
    assert settle([], {"preset": "bavarian"})["rules"] == {
        **DEFAULT_RULES,
        "preset": "bavarian",
        "tariff_sauspiel": 2,
        "tariff_solo": 5,
        "kontra_shifts_threshold": False,
        "declarers_schneider_at": 30,
        "all_pass": "ramsch",
    }


def test_preset_bavarian_does_not_shift_the_threshold_after_kontra():
    # 60 with kontra loses: 2 × 2 = 4
    result = one(sauspiel(60, kontra=True), {"preset": "bavarian"})
    check_hand(result, value=4, winner="defenders", expected_deltas=deltas(-4, 4, -4, 4))


def test_preset_bavarian_makes_losing_declarers_with_30_schneider():
    # 30 ≤ 30: 2 + 1 = 3
    result = one(sauspiel(30), {"preset": "bavarian"})
    check_hand(result, value=3, winner="defenders", expected_deltas=deltas(-3, 3, -3, 3))


def test_preset_bavarian_plays_ramsch_when_everybody_passes():
    result = one(ramsch(50, 30, 25, 15), {"preset": "bavarian"})
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-6, 2, 2, 2))
    assert error_of([{"contract": "rundpass"}], {"preset": "bavarian"}) == (
        0,
        "contract",
        "under these rules an all-pass hand is played as ramsch",
    )


def test_preset_overridden_by_an_explicit_key():
    # bavarian with tariff_solo 10 and all_pass pot: kontra still does not shift
    rules = {"preset": "bavarian", "tariff_solo": 10, "all_pass": "pot"}
    out = settle([{"contract": "rundpass"}, solo(70), sauspiel(60, kontra=True)], rules)
    assert out["rules"] == {
        **DEFAULT_RULES,
        "preset": "bavarian",
        "tariff_solo": 10,
        "kontra_shifts_threshold": False,
        "declarers_schneider_at": 30,
        "all_pass": "pot",
    }
    rp, so, s = out["hands"]
    check_hand(rp, value=2, winner=None, expected_deltas=deltas(-2, -2, -2, -2, pot=8))
    # solo won by seat 2 at tariff 10: +30
    check_hand(so, value=10, winner="declarers", expected_deltas=deltas(-10, 30, -10, -10, pot=0))
    # sauspiel 1+3 with kontra and 60 loses (no shift): 2 × 2 = 4, plus half the pot of 8 each → −8; pot 16
    check_hand(s, value=4, winner="defenders", expected_deltas=deltas(-8, 4, -8, 4, pot=8))


def test_seed_variant_overridden_to_play_the_pot():
    rules = {"preset": "seed-variant", "all_pass": "pot"}
    result = one({"contract": "rundpass"}, rules)
    check_hand(result, value=2, winner=None, expected_deltas=deltas(-2, -2, -2, -2, pot=8))


def test_schafkopf_knows_the_presets_seed_seed_variant_bavarian_and_turnier():
    assert set(GAMES["schafkopf"].presets) == {"seed", "seed-variant", "bavarian", "turnier"}


# ---------------------------------------------------------------------------
# tables of five
# ---------------------------------------------------------------------------


def test_tables_of_five_the_engine_speaks_in_four_seats():
    assert GAMES["schafkopf"].seats == 4
    assert error_of([sauspiel(70, declarer=5)]) == (0, "declarer", "declarer must be a seat from 1 to 4, not 5")
    out = settle([sauspiel(70)])
    assert set(out["totals"]) == {"1", "2", "3", "4", "pot"}
    assert set(out["balance"]) == {"1", "2", "3", "4"}


# ---------------------------------------------------------------------------
# validation: hands
# ---------------------------------------------------------------------------

SAUSPIEL = sauspiel(70)
SOLO = solo(70)
WENZ = wenz(70)
TOUT = tout("solo", declarer=1)
RAMSCH = ramsch(50, 30, 25, 15)
NAMED = {"all_pass": "ramsch", "ramsch_tie": "named"}


def without(hand, key):
    out = dict(hand)
    del out[key]
    return out


def with_(hand, **more):
    out = copy.deepcopy(hand)
    out.update(more)
    return out


HAND_ERRORS = [
    # the hand itself
    ("hand a list", None, [1], "", "a hand must be an object, not a list"),
    ("hand a text", None, "sauspiel", "", "a hand must be an object, not a text"),
    ("hand null", None, None, "", "a hand must be an object, not null"),
    # contract
    ("contract missing", None, without(SAUSPIEL, "contract"), "contract", "contract is required"),
    (
        "contract unknown",
        None,
        with_(SAUSPIEL, contract="bettel"),
        "contract",
        "contract must be one of sauspiel, wenz, solo, rundpass, ramsch, not 'bettel'",
    ),
    (
        "contract a number",
        None,
        with_(SAUSPIEL, contract=1),
        "contract",
        "contract must be one of sauspiel, wenz, solo, rundpass, ramsch, not 1",
    ),
    # unknown fields
    ("unknown field", None, with_(SAUSPIEL, bock=True), "bock", "unknown field 'bock'"),
    ("unknown field in a rundpass", None, {"contract": "rundpass", "stock": 2}, "stock", "unknown field 'stock'"),
    (
        "unknown field in a ramsch",
        RAMSCH_RULES,
        with_(RAMSCH, schneider=True),
        "schneider",
        "unknown field 'schneider'",
    ),
    # declarer
    ("declarer missing", None, without(SAUSPIEL, "declarer"), "declarer", "declarer is required"),
    ("declarer a text", None, with_(SOLO, declarer="2"), "declarer", "declarer must be a seat number, not a text"),
    (
        "declarer a decimal",
        None,
        with_(SOLO, declarer=2.0),
        "declarer",
        "declarer must be a seat number, not a decimal number",
    ),
    (
        "declarer a bool",
        None,
        with_(WENZ, declarer=True),
        "declarer",
        "declarer must be a seat number, not true or false",
    ),
    ("declarer null", None, with_(WENZ, declarer=None), "declarer", "declarer must be a seat number, not null"),
    ("declarer 0", None, with_(SOLO, declarer=0), "declarer", "declarer must be a seat from 1 to 4, not 0"),
    ("declarer 5", None, with_(SOLO, declarer=5), "declarer", "declarer must be a seat from 1 to 4, not 5"),
    # partner
    ("partner missing", None, without(SAUSPIEL, "partner"), "partner", "partner is required"),
    ("partner 5", None, with_(SAUSPIEL, partner=5), "partner", "partner must be a seat from 1 to 4, not 5"),
    ("partner a text", None, with_(SAUSPIEL, partner="3"), "partner", "partner must be a seat number, not a text"),
    (
        "partner is the declarer",
        None,
        with_(SAUSPIEL, partner=1),
        "partner",
        "the partner must be another seat than the declarer",
    ),
    ("partner in a solo", None, with_(SOLO, partner=3), "partner", "partner does not apply to solo"),
    ("partner in a wenz", None, with_(WENZ, partner=3), "partner", "partner does not apply to wenz"),
    # suit
    ("suit missing in a sauspiel", None, without(SAUSPIEL, "suit"), "suit", "suit is required"),
    (
        "sauspiel with herz",
        None,
        with_(SAUSPIEL, suit="herz"),
        "suit",
        "suit must be one of eichel, gras, schellen, not 'herz'",
    ),
    (
        "sauspiel with an unknown suit",
        None,
        with_(SAUSPIEL, suit="kreuz"),
        "suit",
        "suit must be one of eichel, gras, schellen, not 'kreuz'",
    ),
    ("suit missing in a solo", None, without(SOLO, "suit"), "suit", "suit is required"),
    (
        "solo with an unknown suit",
        None,
        with_(SOLO, suit="pik"),
        "suit",
        "suit must be one of eichel, gras, herz, schellen, not 'pik'",
    ),
    (
        "solo suit null",
        None,
        with_(SOLO, suit=None),
        "suit",
        "suit must be one of eichel, gras, herz, schellen, not null",
    ),
    ("suit in a wenz", None, with_(WENZ, suit="herz"), "suit", "suit does not apply to wenz"),
    # points
    ("points missing", None, without(SAUSPIEL, "points"), "points", "points is required"),
    ("points 121", None, with_(SAUSPIEL, points=121), "points", "points must be between 0 and 120"),
    ("points -1", None, with_(SOLO, points=-1), "points", "points must be between 0 and 120"),
    (
        "points a decimal",
        None,
        with_(WENZ, points=60.5),
        "points",
        "points must be a whole number, not a decimal number",
    ),
    ("points a text", None, with_(WENZ, points="70"), "points", "points must be a whole number, not a text"),
    ("points a bool", None, with_(SOLO, points=True), "points", "points must be a whole number, not true or false"),
    ("points null", None, with_(SOLO, points=None), "points", "points must be a whole number, not null"),
    # schwarz
    (
        "schwarz a number",
        None,
        with_(SAUSPIEL, schwarz=0),
        "schwarz",
        "schwarz must be true or false, not a whole number",
    ),
    ("schwarz null", None, with_(SAUSPIEL, schwarz=None), "schwarz", "schwarz must be true or false, not null"),
    (
        "schwarz with defenders' points",
        None,
        with_(SAUSPIEL, points=100, schwarz=True),
        "schwarz",
        "the defenders took no trick, so they cannot have 20 points",
    ),
    (
        "schwarz with declarers' points",
        None,
        with_(SOLO, points=10, schwarz=True),
        "schwarz",
        "the declarers took no trick, so they cannot have 10 points",
    ),
    (
        "schwarz when 60 wins after kontra",
        None,
        with_(SAUSPIEL, points=60, kontra=True, schwarz=True),
        "schwarz",
        "the defenders took no trick, so they cannot have 60 points",
    ),
    (
        "schwarz when 60 loses without kontra",
        None,
        with_(SAUSPIEL, points=60, schwarz=True),
        "schwarz",
        "the declarers took no trick, so they cannot have 60 points",
    ),
    # laufende
    ("laufende 15", None, with_(SOLO, laufende=15), "laufende", "laufende must be between 0 and 14"),
    ("laufende -1", None, with_(SAUSPIEL, laufende=-1), "laufende", "laufende must be between 0 and 14"),
    ("laufende 5 in a wenz", None, with_(WENZ, laufende=5), "laufende", "laufende must be between 0 and 4"),
    ("laufende a text", None, with_(SOLO, laufende="3"), "laufende", "laufende must be a whole number, not a text"),
    (
        "laufende a bool",
        None,
        with_(SOLO, laufende=False),
        "laufende",
        "laufende must be a whole number, not true or false",
    ),
    ("laufende in a ramsch", RAMSCH_RULES, with_(RAMSCH, laufende=3), "laufende", "laufende does not apply to ramsch"),
    # tout and won
    ("tout in a sauspiel", None, with_(SAUSPIEL, tout=True), "tout", "tout does not apply to sauspiel"),
    ("tout false in a sauspiel", None, with_(SAUSPIEL, tout=False), "tout", "tout does not apply to sauspiel"),
    ("tout a number", None, with_(SOLO, tout=1), "tout", "tout must be true or false, not a whole number"),
    ("won in a sauspiel", None, with_(SAUSPIEL, won=True), "won", "won does not apply to sauspiel"),
    ("won without tout", None, with_(SOLO, won=True), "won", "won applies only to a tout"),
    ("won with tout false", None, with_(WENZ, tout=False, won=False), "won", "won applies only to a tout"),
    ("won missing in a tout", None, without(TOUT, "won"), "won", "won is required"),
    ("won a text", None, with_(TOUT, won="yes"), "won", "won must be true or false, not a text"),
    (
        "points in a tout",
        None,
        with_(TOUT, points=120),
        "points",
        "points does not apply to a tout: it is won or lost",
    ),
    (
        "schwarz in a tout",
        None,
        with_(TOUT, schwarz=True),
        "schwarz",
        "schwarz does not apply to a tout: it is won or lost",
    ),
    ("laufende 5 in a wenz tout", None, tout("wenz", laufende=5), "laufende", "laufende must be between 0 and 4"),
    # kontra, re
    ("kontra a text", None, with_(SAUSPIEL, kontra="yes"), "kontra", "kontra must be true or false, not a text"),
    ("re without kontra", None, with_(SAUSPIEL, re=True), "re", "re needs kontra first"),
    ("re with kontra false", None, with_(SOLO, kontra=False, re=True), "re", "re needs kontra first"),
    ("re without kontra in a tout", None, with_(TOUT, re=True), "re", "re needs kontra first"),
    ("re a number", None, with_(SOLO, kontra=True, re=1), "re", "re must be true or false, not a whole number"),
    ("kontra in a ramsch", RAMSCH_RULES, with_(RAMSCH, kontra=True), "kontra", "kontra does not apply to ramsch"),
    # klopfen
    ("klopfen 5", None, with_(SAUSPIEL, klopfen=5), "klopfen", "klopfen must be between 0 and 4"),
    ("klopfen -1", None, with_(SOLO, klopfen=-1), "klopfen", "klopfen must be between 0 and 4"),
    ("klopfen a bool", None, with_(WENZ, klopfen=True), "klopfen", "klopfen must be a whole number, not true or false"),
    ("klopfen 5 in a ramsch", RAMSCH_RULES, with_(RAMSCH, klopfen=5), "klopfen", "klopfen must be between 0 and 4"),
    (
        "klopfen in a rundpass",
        None,
        {"contract": "rundpass", "klopfen": 1},
        "klopfen",
        "klopfen does not apply to rundpass",
    ),
    # fields that do not apply to the contract
    (
        "declarer in a rundpass",
        None,
        {"contract": "rundpass", "declarer": 1},
        "declarer",
        "declarer does not apply to rundpass",
    ),
    ("jungfrau in a sauspiel", None, with_(SAUSPIEL, jungfrau=[]), "jungfrau", "jungfrau does not apply to sauspiel"),
    ("durchmarsch in a solo", None, with_(SOLO, durchmarsch=None), "durchmarsch", "durchmarsch does not apply to solo"),
    ("loser in a wenz", None, with_(WENZ, loser=1), "loser", "loser does not apply to wenz"),
    ("declarer in a ramsch", RAMSCH_RULES, with_(RAMSCH, declarer=1), "declarer", "declarer does not apply to ramsch"),
    ("schwarz in a ramsch", RAMSCH_RULES, with_(RAMSCH, schwarz=False), "schwarz", "schwarz does not apply to ramsch"),
    # all_pass
    (
        "rundpass under all_pass ramsch",
        RAMSCH_RULES,
        {"contract": "rundpass"},
        "contract",
        "under these rules an all-pass hand is played as ramsch",
    ),
    (
        "ramsch under all_pass pot",
        None,
        RAMSCH,
        "contract",
        "ramsch is only played with all_pass ramsch, not pot",
    ),
    (
        "ramsch under all_pass none",
        {"all_pass": "none"},
        RAMSCH,
        "contract",
        "ramsch is only played with all_pass ramsch, not none",
    ),
    # ramsch points
    (
        "ramsch points missing",
        RAMSCH_RULES,
        {"contract": "ramsch"},
        "points",
        "points is required: each seat's card points",
    ),
    (
        "ramsch points a list",
        RAMSCH_RULES,
        {"contract": "ramsch", "points": [50, 30, 25, 15]},
        "points",
        "points in a ramsch must be an object, not a list",
    ),
    (
        "ramsch points a number",
        RAMSCH_RULES,
        {"contract": "ramsch", "points": 120},
        "points",
        "points in a ramsch must be an object, not a whole number",
    ),
    (
        "ramsch points add up to 110",
        RAMSCH_RULES,
        ramsch(50, 30, 25, 5),
        "points",
        "the card points must add up to 120, not 110",
    ),
    (
        "ramsch points add up to 130",
        RAMSCH_RULES,
        ramsch(60, 30, 25, 15),
        "points",
        "the card points must add up to 120, not 130",
    ),
    (
        "ramsch seat missing",
        RAMSCH_RULES,
        {"contract": "ramsch", "points": {"1": 50, "2": 40, "3": 30}},
        "points.4",
        "points of seat 4 are required",
    ),
    (
        "ramsch unknown seat 5",
        RAMSCH_RULES,
        {"contract": "ramsch", "points": {"1": 50, "2": 40, "3": 30, "4": 0, "5": 0}},
        "points.5",
        "unknown seat '5': seats are 1 to 4",
    ),
    (
        "ramsch unknown seat 0",
        RAMSCH_RULES,
        {"contract": "ramsch", "points": {"0": 0, "1": 50, "2": 40, "3": 30, "4": 0}},
        "points.0",
        "unknown seat '0': seats are 1 to 4",
    ),
    # jungfrau
    (
        "jungfrau with points",
        RAMSCH_RULES,
        with_(RAMSCH, jungfrau=[4]),
        "jungfrau",
        "seat 4 took no trick, so it cannot have 15 points",
    ),
    (
        "three jungfrauen",
        RAMSCH_RULES,
        ramsch(120, 0, 0, 0, jungfrau=[2, 3, 4]),
        "jungfrau",
        "when three players took no trick the fourth made a durchmarsch",
    ),
    (
        "jungfrau not a list",
        RAMSCH_RULES,
        ramsch(60, 40, 20, 0, jungfrau=4),
        "jungfrau",
        "jungfrau must be a list of seats, not a whole number",
    ),
    (
        "jungfrau seat 5",
        RAMSCH_RULES,
        ramsch(60, 40, 20, 0, jungfrau=[5]),
        "jungfrau",
        "jungfrau must be a seat from 1 to 4, not 5",
    ),
    (
        "jungfrau seat a text",
        RAMSCH_RULES,
        ramsch(60, 40, 20, 0, jungfrau=["4"]),
        "jungfrau",
        "jungfrau must be a seat number, not a text",
    ),
    (
        "jungfrau twice",
        RAMSCH_RULES,
        ramsch(60, 40, 20, 0, jungfrau=[4, 4]),
        "jungfrau",
        "jungfrau names a seat twice",
    ),
    # durchmarsch
    (
        "durchmarsch with only some jungfrauen",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 1, "jungfrau": [2, 4]},
        "jungfrau",
        "a durchmarsch leaves seats 2, 3, 4 without a trick: jungfrau names all three or none, not 2, 4",
    ),
    (
        "durchmarsch with one jungfrau",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 3, "jungfrau": [1]},
        "jungfrau",
        "a durchmarsch leaves seats 1, 2, 4 without a trick: jungfrau names all three or none, not 1",
    ),
    (
        "durchmarsch seat as a jungfrau",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 2, "jungfrau": [1, 2, 3]},
        "jungfrau",
        "seat 2 made the durchmarsch and took every trick, so it is no jungfrau",
    ),
    (
        "durchmarsch with all four seats as jungfrauen",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 2, "jungfrau": [1, 2, 3, 4]},
        "jungfrau",
        "seat 2 made the durchmarsch and took every trick, so it is no jungfrau",
    ),
    (
        "durchmarsch with a jungfrau named twice",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 1, "jungfrau": [2, 2, 3]},
        "jungfrau",
        "jungfrau names a seat twice",
    ),
    (
        "durchmarsch with jungfrau not a list",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 1, "jungfrau": 2},
        "jungfrau",
        "jungfrau must be a list of seats, not a whole number",
    ),
    (
        "durchmarsch with loser",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 1, "loser": 2},
        "loser",
        "loser does not apply to a durchmarsch",
    ),
    (
        "durchmarsch seat 5",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": 5},
        "durchmarsch",
        "durchmarsch must be a seat from 1 to 4, not 5",
    ),
    (
        "durchmarsch a text",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": "2"},
        "durchmarsch",
        "durchmarsch must be a seat number, not a text",
    ),
    (
        "durchmarsch a bool",
        RAMSCH_RULES,
        {"contract": "ramsch", "durchmarsch": True},
        "durchmarsch",
        "durchmarsch must be a seat number, not true or false",
    ),
    (
        "durchmarsch seat without all points",
        RAMSCH_RULES,
        ramsch(20, 100, 0, 0, durchmarsch=2),
        "points.2",
        "a durchmarsch takes every trick, so all 120 points",
    ),
    (
        "durchmarsch points not adding up",
        RAMSCH_RULES,
        ramsch(0, 120, 10, 0, durchmarsch=2),
        "points",
        "the card points must add up to 120, not 130",
    ),
    # loser
    (
        "loser under all_lose",
        RAMSCH_RULES,
        ramsch(40, 40, 25, 15, loser=1),
        "loser",
        "loser is named only when players tie for most points (ramsch_tie named)",
    ),
    (
        "loser without a tie",
        NAMED,
        ramsch(50, 30, 25, 15, loser=1),
        "loser",
        "loser is named only when players tie for most points (ramsch_tie named)",
    ),
    (
        "tie named without a loser",
        NAMED,
        ramsch(40, 40, 25, 15),
        "loser",
        "seats 1, 2 tie for most points: name the loser",
    ),
    (
        "four tied named without a loser",
        NAMED,
        ramsch(30, 30, 30, 30),
        "loser",
        "seats 1, 2, 3, 4 tie for most points: name the loser",
    ),
    (
        "loser not among the tied",
        NAMED,
        ramsch(40, 40, 25, 15, loser=3),
        "loser",
        "the loser must be one of the tied seats 1, 2",
    ),
    ("loser seat 5", NAMED, ramsch(40, 40, 25, 15, loser=5), "loser", "loser must be a seat from 1 to 4, not 5"),
    ("loser a text", NAMED, ramsch(40, 40, 25, 15, loser="1"), "loser", "loser must be a seat number, not a text"),
]


@pytest.mark.parametrize(
    ("rules", "hand", "field", "message"),
    [case[1:] for case in HAND_ERRORS],
    ids=[case[0] for case in HAND_ERRORS],
)
def test_invalid_hand_is_rejected_naming_hand_field_and_reason(rules, hand, field, message):
    assert error_of([hand], rules) == (0, field, message)


def test_invalid_hand_later_in_the_session_names_its_0_based_index_and_nothing_is_settled():
    hands = [SAUSPIEL, {"contract": "rundpass"}, with_(SOLO, points=121), SAUSPIEL]
    assert error_of(hands) == (2, "points", "points must be between 0 and 120")


def test_invalid_hand_error_is_a_value_error_with_a_json_body():
    with pytest.raises(ValueError, match="points must be between 0 and 120") as info:
        settle([with_(SOLO, points=121)])
    assert isinstance(info.value, InvalidHand)
    assert info.value.to_json() == {"hand": 0, "field": "points", "message": "points must be between 0 and 120"}


@pytest.mark.parametrize(
    ("seat_points", "seat", "reason"),
    [
        ({"1": "50", "2": 30, "3": 25, "4": 15}, "1", "must be a whole number, not a text"),
        ({"1": 50, "2": 30.0, "3": 25, "4": 15}, "2", "must be a whole number, not a decimal number"),
        ({"1": 50, "2": 30, "3": 25, "4": True}, "4", "must be a whole number, not true or false"),
        ({"1": 130, "2": 0, "3": 0, "4": -10}, "1", "must be between 0 and 120"),
        ({"1": 50, "2": 30, "3": 50, "4": -10}, "4", "must be between 0 and 120"),
    ],
    ids=["text", "decimal", "bool", "above 120", "negative"],
)
def test_a_bad_seat_inside_ramsch_points_is_named_as_points_dot_seat(seat_points, seat, reason):
    # docs/rules-decisions.md: "`field` is the key at fault: ... `points.3` for a seat inside a Ramsch `points` object"
    hand, field, message = error_of([{"contract": "ramsch", "points": seat_points}], RAMSCH_RULES)
    assert hand == 0
    assert field == f"points.{seat}"
    assert message.endswith(reason)


# ---------------------------------------------------------------------------
# validation: rules and the session
# ---------------------------------------------------------------------------

RULE_ERRORS = [
    ("unknown rule", {"bock": True}, "rules.bock", "unknown rule 'bock'"),
    ("rule of another game", {"win_threshold": 61}, "rules.win_threshold", "unknown rule 'win_threshold'"),
    ("rules a list", [], "rules", "rules must be an object, not a list"),
    ("rules a text", "bavarian", "rules", "rules must be an object, not a text"),
    (
        "unknown preset",
        {"preset": "bayern"},
        "rules.preset",
        "preset must be one of seed, seed-variant, bavarian, turnier, not 'bayern'",
    ),
    (
        "preset null",
        {"preset": None},
        "rules.preset",
        "preset must be one of seed, seed-variant, bavarian, turnier, not null",
    ),
    (
        "tariff_sauspiel a text",
        {"tariff_sauspiel": "2"},
        "rules.tariff_sauspiel",
        "tariff_sauspiel must be a whole number, not a text",
    ),
    (
        "tariff_solo a decimal",
        {"tariff_solo": 5.0},
        "rules.tariff_solo",
        "tariff_solo must be a whole number, not a decimal number",
    ),
    ("tariff_solo null", {"tariff_solo": None}, "rules.tariff_solo", "tariff_solo may not be null"),
    ("tariff_solo 1001", {"tariff_solo": 1001}, "rules.tariff_solo", "tariff_solo must be between 0 and 1000"),
    ("extra a bool", {"extra": True}, "rules.extra", "extra must be a whole number, not true or false"),
    ("extra -1", {"extra": -1}, "rules.extra", "extra must be between 0 and 1000"),
    ("laufende_min 0", {"laufende_min": 0}, "rules.laufende_min", "laufende_min must be between 1 and 14"),
    ("laufende_min 15", {"laufende_min": 15}, "rules.laufende_min", "laufende_min must be between 1 and 14"),
    (
        "laufende_min_wenz 5",
        {"laufende_min_wenz": 5},
        "rules.laufende_min_wenz",
        "laufende_min_wenz must be between 1 and 4",
    ),
    ("laufende_max -1", {"laufende_max": -1}, "rules.laufende_max", "laufende_max must be between 0 and 14"),
    ("laufende_max 15", {"laufende_max": 15}, "rules.laufende_max", "laufende_max must be between 0 and 14"),
    (
        "laufende_max a bool",
        {"laufende_max": True},
        "rules.laufende_max",
        "laufende_max must be a whole number, not true or false",
    ),
    (
        "kontra_shifts_threshold a number",
        {"kontra_shifts_threshold": 1},
        "rules.kontra_shifts_threshold",
        "kontra_shifts_threshold must be true or false, not a whole number",
    ),
    (
        "kontra_shifts_threshold null",
        {"kontra_shifts_threshold": None},
        "rules.kontra_shifts_threshold",
        "kontra_shifts_threshold may not be null",
    ),
    (
        "declarers_schneider_at 60",
        {"declarers_schneider_at": 60},
        "rules.declarers_schneider_at",
        "declarers_schneider_at must be between 0 and 59",
    ),
    (
        "declarers_schneider_at -1",
        {"declarers_schneider_at": -1},
        "rules.declarers_schneider_at",
        "declarers_schneider_at must be between 0 and 59",
    ),
    (
        "all_pass unknown",
        {"all_pass": "stock"},
        "rules.all_pass",
        "all_pass must be one of pot, ramsch, none, redeal, not 'stock'",
    ),
    ("all_pass null", {"all_pass": None}, "rules.all_pass", "all_pass may not be null"),
    (
        "all_pass a bool",
        {"all_pass": False},
        "rules.all_pass",
        "all_pass must be one of pot, ramsch, none, redeal, not false",
    ),
    (
        "klopfen_played a number",
        {"klopfen_played": 0},
        "rules.klopfen_played",
        "klopfen_played must be true or false, not a whole number",
    ),
    ("klopfen_played null", {"klopfen_played": None}, "rules.klopfen_played", "klopfen_played may not be null"),
    ("pot_stake -1", {"pot_stake": -1}, "rules.pot_stake", "pot_stake must be between 0 and 1000"),
    (
        "pot_at_close unknown",
        {"pot_at_close": "keep"},
        "rules.pot_at_close",
        "pot_at_close must be one of split, carry, not 'keep'",
    ),
    ("tariff_ramsch 1001", {"tariff_ramsch": 1001}, "rules.tariff_ramsch", "tariff_ramsch must be between 0 and 1000"),
    (
        "jungfrau unknown",
        {"jungfrau": "double"},
        "rules.jungfrau",
        "jungfrau must be one of double_all, double_own, none, not 'double'",
    ),
    (
        "durchmarsch_tariff unknown",
        {"durchmarsch_tariff": "sauspiel"},
        "rules.durchmarsch_tariff",
        "durchmarsch_tariff must be one of solo, ramsch, not 'sauspiel'",
    ),
    (
        "ramsch_tie unknown",
        {"ramsch_tie": "first"},
        "rules.ramsch_tie",
        "ramsch_tie must be one of all_lose, named, not 'first'",
    ),
    (
        "bad key beside a preset",
        {"preset": "bavarian", "tariff_solo": -5},
        "rules.tariff_solo",
        "tariff_solo must be between 0 and 1000",
    ),
]


@pytest.mark.parametrize(
    ("rules", "field", "message"),
    [case[1:] for case in RULE_ERRORS],
    ids=[case[0] for case in RULE_ERRORS],
)
def test_invalid_rules_are_rejected_with_hand_null(rules, field, message):
    assert error_of([SAUSPIEL], rules) == (None, field, message)


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        (
            {"game": "schafkopf", "hands": [], "colour": "blue"},
            "colour",
            "unknown field 'colour'",
        ),
        ({"game": "schafkopf"}, "hands", "hands is required (a list of hands)"),
        ({"game": "schafkopf", "hands": {"0": SAUSPIEL}}, "hands", "hands must be a list of hands"),
        ({"hands": [SAUSPIEL]}, "game", "game is required"),
        ([], "", "the input must be an object, not a list"),
    ],
    ids=["unknown top-level key", "hands missing", "hands an object", "game missing", "input a list"],
)
def test_invalid_session_is_rejected_with_hand_null(payload, field, message):
    with pytest.raises(InvalidHand) as info:
        settle_json(payload)
    assert (info.value.hand, info.value.field, info.value.message) == (None, field, message)


def test_laufende_max_null_is_accepted_as_no_cap():
    out = settle([solo(70, laufende=10)], {"laufende_max": None})
    assert out["rules"]["laufende_max"] is None
    # 5 + 10 = 15 from each
    check_hand(out["hands"][0], value=15, winner="declarers", expected_deltas=deltas(-15, 45, -15, -15, pot=0))


def test_defaults_of_optional_hand_fields_are_no_schwarz_no_runners_no_tout_no_kontra_no_knocks():
    explicit = sauspiel(70, schwarz=False, laufende=0, kontra=False, re=False, klopfen=0)
    assert one(explicit) == one(sauspiel(70))
    assert one(solo(70, tout=False)) == one(solo(70))
    r_explicit = one(ramsch(50, 30, 25, 15, jungfrau=[], durchmarsch=None, klopfen=0), RAMSCH_RULES)
    assert r_explicit == one(ramsch(50, 30, 25, 15), RAMSCH_RULES)


def test_settle_session_accepts_hands_and_returns_the_same_numbers_as_settle_json():
    s = settle_session("schafkopf", {"preset": "bavarian"}, [sauspiel(30), ramsch(50, 30, 25, 15)])
    # sauspiel lost schneider (30 ≤ 30): 3; ramsch seat 1 pays 2 each
    # seat 1: −3 − 6 = −9; seat 2: 3 + 2 = 5; seat 3: −3 + 2 = −1; seat 4: 3 + 2 = 5
    assert s.totals == (-9, 5, -1, 5)
    assert s.balance == (-9, 5, -1, 5)
    assert s.pot is None
    assert [r.value for r in s.results] == [3, 2]
    with pytest.raises(InvalidHand) as info:
        settle_session("schafkopf", None, [SAUSPIEL, with_(SAUSPIEL, re=True)])
    assert (info.value.hand, info.value.field, info.value.message) == (1, "re", "re needs kontra first")


def test_a_pot_to_start_with_is_taken_by_a_won_sauspiel():
    # the pot holds 8 carried units; Anna (1) and Clara (3) win a sauspiel with 70: value 2, and they take 4 each
    result = settle_json(
        {
            "game": "schafkopf",
            "pot": 8,
            "hands": [{"contract": "sauspiel", "suit": "gras", "declarer": 1, "partner": 3, "points": 70}],
        }
    )
    assert result["hands"][0]["deltas"] == {"1": 6, "2": -2, "3": 6, "4": -2, "pot": -8}
    assert result["totals"]["pot"] == -8  # the totals count what this night moved; the pot is now empty
    assert (result["pot_start"], result["pot_end"]) == (8, 0)
    assert result["hands"][0]["pot_after"] == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (
            {"game": "schafkopf", "pot": 3, "hands": []},
            "the pot holds an even number of units (it is shared in halves)",
        ),
        ({"game": "schafkopf", "pot": -2, "hands": []}, "pot must be between 0 and 1000000000"),
        ({"game": "schafkopf", "pot": "8", "hands": []}, "pot must be a whole number, not a text"),
        (
            {"game": "matzlfangen", "pot": 2, "hands": []},
            "a pot to start with applies only to schafkopf with all_pass pot",
        ),
        (
            {"game": "schafkopf", "rules": {"all_pass": "none"}, "pot": 2, "hands": []},
            "a pot to start with applies only to schafkopf with all_pass pot",
        ),
    ],
)
def test_a_bad_pot_to_start_with_is_refused(payload, message):
    with pytest.raises(InvalidHand) as caught:
        settle_json(payload)
    assert (caught.value.hand, caught.value.field, caught.value.message) == (None, "pot", message)
