"""Issue 16: the Schafkopf tournament rule set (docs/rules.md, "Tournaments"; /work/shared/RULES.md).

The preset ``turnier``: ``tariff_sauspiel`` 1, ``tariff_solo`` 5, ``extra`` 1, runners not paid
(``laufende_max`` 0), ``all_pass`` ``redeal``, ``kontra_shifts_threshold`` false,
``declarers_schneider_at`` 30, knocking not played (``klopfen_played`` false). One test per line of
the preset's table in docs/rules.md, each worked out by hand in its comment; then the new options on
their own. Seats are 1..4; deltas are written in seat order. No pot is reported under ``redeal``.
"""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import GAMES, InvalidHand, settle_json
from scorekeeper.engine.samples import random_hands
from scorekeeper.engine.schafkopf import PRESETS, Hand, Rules, is_redeal
from scorekeeper.engine.tariff import tariff_options
from tests.support import check_steps

TURNIER = {"preset": "turnier"}
SCHAFKOPF = GAMES["schafkopf"]


def settle(hands, rules=TURNIER, **more):
    return settle_json({"game": "schafkopf", "rules": rules, "hands": hands, **more})


def one(hand, rules=TURNIER):
    """One hand settled on its own under ``rules``; its steps add up to its value."""
    result = settle([hand], rules)["hands"][0]
    check_steps(result)
    assert sum(result["deltas"].values()) == 0
    return result


def deltas(s1, s2, s3, s4):
    """The expected deltas: the four seats, and no pot line (none under ``redeal``)."""
    return {"1": s1, "2": s2, "3": s3, "4": s4}


def sauspiel(points, **more):
    return {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 3, "points": points, **more}


def solo(points, **more):
    return {"contract": "solo", "suit": "gras", "declarer": 2, "points": points, **more}


def wenz(points, **more):
    return {"contract": "wenz", "declarer": 4, "points": points, **more}


def tout(won=True, **more):
    return {"contract": "solo", "suit": "herz", "declarer": 1, "tout": True, "won": won, **more}


def refusal(hands, rules=TURNIER):
    with pytest.raises(InvalidHand) as info:
        settle(hands, rules)
    return info.value.hand, info.value.field, info.value.message


# --- the preset ------------------------------------------------------------------------------------


def test_the_turnier_preset_sets_exactly_the_options_the_specification_lists():
    assert PRESETS["turnier"] == {
        "tariff_sauspiel": 1,
        "tariff_solo": 5,
        "extra": 1,
        "laufende_max": 0,
        "all_pass": "redeal",
        "kontra_shifts_threshold": False,
        "declarers_schneider_at": 30,
        "klopfen_played": False,
    }
    rules = SCHAFKOPF.parse_rules(TURNIER)
    assert (rules.preset, rules.tariff_sauspiel, rules.tariff_solo, rules.laufende_max, rules.all_pass) == (
        "turnier",
        1,
        5,
        0,
        "redeal",
    )
    assert rules.klopfen_played is False and rules.kontra_shifts_threshold is False


# --- the table of docs/rules.md, line by line ---------------------------------------------------------


def test_turnier_sauspiel_plain_is_one_unit_for_each_player():
    # tariff_sauspiel 1: the winners 1 and 3 get +1 each, the losers 2 and 4 pay 1 each
    result = one(sauspiel(70))
    assert (result["value"], result["winner"], result["deltas"]) == (1, "declarers", deltas(1, -1, 1, -1))
    # lost with 40 (more than 30: not schneider): the same with the signs reversed
    result = one(sauspiel(40))
    assert (result["value"], result["winner"], result["deltas"]) == (1, "defenders", deltas(-1, 1, -1, 1))


def test_turnier_sauspiel_schneider_is_two_units_for_each_player():
    # won with 91: 1 + 1 (schneider) = 2
    assert one(sauspiel(91))["deltas"] == deltas(2, -2, 2, -2)
    # lost with 30: declarers_schneider_at 30, so the declaring side is schneider: 1 + 1 = 2
    result = one(sauspiel(30))
    assert (result["value"], result["deltas"]) == (2, deltas(-2, 2, -2, 2))
    # with 31 it is not: 1
    assert one(sauspiel(31))["value"] == 1


def test_turnier_sauspiel_schwarz_is_three_units_for_each_player():
    # won with 120, schwarz: 1 + 1 (schneider) + 1 (schwarz) = 3
    result = one(sauspiel(120, schwarz=True))
    assert (result["value"], result["deltas"]) == (3, deltas(3, -3, 3, -3))


def test_turnier_solo_plain_is_15_for_the_declarer_and_5_from_each_defender():
    # tariff_solo 5: declarer 2 gets 5 from each of three defenders, +15
    result = one(solo(70))
    assert (result["value"], result["deltas"]) == (5, deltas(-5, 15, -5, -5))
    # lost with 50: the declarer pays each defender 5, −15
    assert one(solo(50))["deltas"] == deltas(5, -15, 5, 5)


def test_turnier_solo_schneider_is_18_for_the_declarer_and_6_from_each_defender():
    # won with 95: 5 + 1 (schneider) = 6; the declarer 3 × 6 = +18
    result = one(solo(95))
    assert (result["value"], result["deltas"]) == (6, deltas(-6, 18, -6, -6))


def test_turnier_solo_schwarz_is_21_for_the_declarer_and_7_from_each_defender():
    # won with 120, schwarz: 5 + 1 + 1 = 7; the declarer 3 × 7 = +21
    result = one(solo(120, schwarz=True))
    assert (result["value"], result["deltas"]) == (7, deltas(-7, 21, -7, -7))


def test_turnier_wenz_is_paid_like_a_solo():
    # tariff_solo 5 for a Wenz too: declarer 4 +15, each defender −5; schneider 6 (+18), schwarz 7 (+21)
    assert one(wenz(70))["deltas"] == deltas(-5, -5, -5, 15)
    assert one(wenz(91))["deltas"] == deltas(-6, -6, -6, 18)
    assert one(wenz(120, schwarz=True))["deltas"] == deltas(-7, -7, -7, 21)
    # lost with 30 (schneider at 30): 5 + 1 = 6, the declarer pays 3 × 6 = 18
    assert one(wenz(30))["deltas"] == deltas(6, 6, 6, -18)


def test_turnier_tout_is_doubled_to_30_for_the_declarer_and_10_from_each_defender():
    # tariff_solo 5, a tout doubles: 10; the declarer 3 × 10 = +30
    result = one(tout())
    assert (result["value"], result["deltas"]) == (10, deltas(30, -10, -10, -10))
    # lost: the declarer pays each defender 10, −30
    assert one(tout(won=False))["deltas"] == deltas(-30, 10, 10, 10)


def test_turnier_kontra_and_re_double_as_usual():
    # a Sauspiel won with 70: 1, kontra 2, re 4
    assert one(sauspiel(70, kontra=True))["deltas"] == deltas(2, -2, 2, -2)
    assert one(sauspiel(70, kontra=True, re=True))["deltas"] == deltas(4, -4, 4, -4)
    # a Solo won with 95 and kontra: (5 + 1) × 2 = 12, the declarer +36
    assert one(solo(95, kontra=True))["deltas"] == deltas(-12, 36, -12, -12)


def test_turnier_kontra_does_not_shift_the_threshold_to_60():
    # kontra_shifts_threshold false: after kontra the declaring side still needs 61, so 60 loses:
    # 1, kontra doubles: 2 from each of declarer 1 and partner 3
    result = one(sauspiel(60, kontra=True))
    assert (result["winner"], result["deltas"]) == ("defenders", deltas(-2, 2, -2, 2))
    assert result["steps"][0]["args"]["needed"] == 61


# --- runners are not paid ----------------------------------------------------------------------------


def test_turnier_pays_no_runners_and_its_steps_do_not_mention_them():
    # laufende_max 0: 8 runners in a Solo add nothing: 5, not 5 + 8
    result = one(solo(70, laufende=8))
    assert result["value"] == 5
    assert [s["key"] for s in result["steps"]] == ["points", "value"]
    # nor 4 runners in a Wenz (which pays from 2 otherwise), nor 3 in a Sauspiel, nor in a tout (10)
    assert one(wenz(70, laufende=4))["value"] == 5
    assert one(sauspiel(70, laufende=3))["value"] == 1
    assert one(tout(laufende=6))["value"] == 10


def test_laufende_max_0_pays_no_runner_under_any_preset():
    # the default tariffs, laufende_max 0: a Solo with 6 runners is the tariff 5 alone
    result = one(solo(70, laufende=6), {"laufende_max": 0, "all_pass": "none"})
    assert result["value"] == 5
    assert "laufende" not in [s["key"] for s in result["steps"]]


def test_laufende_max_0_is_accepted_and_15_is_refused():
    assert SCHAFKOPF.parse_rules({"laufende_max": 0}).laufende_max == 0
    assert SCHAFKOPF.parse_rules({"laufende_max": 14}).laufende_max == 14
    with pytest.raises(InvalidHand) as info:
        SCHAFKOPF.parse_rules({"laufende_max": 15})
    assert (info.value.field, info.value.message) == ("rules.laufende_max", "laufende_max must be between 0 and 14")


def test_the_organiser_may_change_a_turnier_option_so_runners_are_paid():
    # turnier with laufende_max null: every runner from 3 on is paid, 1 each: 5 + 4 = 9
    assert one(solo(70, laufende=4), {"preset": "turnier", "laufende_max": None})["value"] == 9


# --- redeal --------------------------------------------------------------------------------------------


def test_turnier_redeal_pays_nothing_and_reports_no_pot():
    out = settle([{"contract": "rundpass"}, sauspiel(70)])
    redeal = out["hands"][0]
    check_steps(redeal)
    assert (redeal["value"], redeal["winner"], redeal["deltas"]) == (0, None, deltas(0, 0, 0, 0))
    assert [s["key"] for s in redeal["steps"]] == ["rundpass_redeal", "value"]
    assert redeal["steps"][0]["units"] == 0
    assert "pot_before" not in redeal and "pot_after" not in redeal
    # the night: only the Sauspiel counts (1 each), and no pot line anywhere
    assert out["totals"] == deltas(1, -1, 1, -1)
    assert "pot_start" not in out and "pot_end" not in out


def test_is_redeal_is_true_exactly_for_a_rundpass_under_all_pass_redeal():
    turnier = SCHAFKOPF.parse_rules(TURNIER)
    rundpass = SCHAFKOPF.parse_hand({"contract": "rundpass"}, 0, turnier)
    assert SCHAFKOPF.is_redeal(turnier, rundpass) is True
    assert is_redeal(turnier, SCHAFKOPF.parse_hand(sauspiel(70), 0, turnier)) is False
    for all_pass in ("pot", "none"):
        rules = SCHAFKOPF.parse_rules({"all_pass": all_pass})
        assert SCHAFKOPF.is_redeal(rules, SCHAFKOPF.parse_hand({"contract": "rundpass"}, 0, rules)) is False
    ramsch_rules = Rules(all_pass="ramsch")
    assert is_redeal(ramsch_rules, Hand("ramsch", ramsch_points=(60, 60, 0, 0))) is False


@pytest.mark.parametrize("game", ["matzlfangen", "konter_a_matt", "matt"])
def test_no_hand_of_another_game_is_a_redeal(game):
    g = GAMES[game]
    rules = g.parse_rules(None)
    for i, hand in enumerate(random_hands(game, random.Random(16), 20, rules)):
        assert g.is_redeal(rules, g.parse_hand(hand, i, rules)) is False


def test_redeal_refuses_a_ramsch_and_a_pot_to_start_with():
    ramsch = {"contract": "ramsch", "points": {"1": 60, "2": 60, "3": 0, "4": 0}}
    assert refusal([ramsch]) == (0, "contract", "ramsch is only played with all_pass ramsch, not redeal")
    with pytest.raises(InvalidHand) as info:
        settle([{"contract": "rundpass"}], pot=4)
    assert info.value.field == "pot"


def test_redeal_leaves_the_pot_options_without_effect():
    # pot_stake and pot_at_close are as under all_pass none: a rundpass pays nothing, no pot is reported
    rules = {"all_pass": "redeal", "pot_stake": 5, "pot_at_close": "carry"}
    out = settle([{"contract": "rundpass"}], rules)
    assert out["hands"][0]["deltas"] == deltas(0, 0, 0, 0)
    assert not SCHAFKOPF.takes_pot(SCHAFKOPF.parse_rules(rules))
    assert not SCHAFKOPF.carries_pot(SCHAFKOPF.parse_rules(rules))


# --- knocking --------------------------------------------------------------------------------------------


def test_turnier_refuses_a_knock_because_knocking_is_not_played():
    assert refusal([sauspiel(70), solo(70, klopfen=1)]) == (1, "klopfen", "knocking is not played under these rules")
    assert refusal([tout(klopfen=2)]) == (0, "klopfen", "knocking is not played under these rules")
    # no knock said is no knock: klopfen 0 is accepted
    assert one(sauspiel(70, klopfen=0))["value"] == 1


def test_klopfen_played_false_refuses_a_knock_on_a_ramsch_too():
    rules = {"all_pass": "ramsch", "klopfen_played": False}
    ramsch = {"contract": "ramsch", "points": {"1": 60, "2": 30, "3": 30, "4": 0}}
    assert refusal([{**ramsch, "klopfen": 1}], rules) == (0, "klopfen", "knocking is not played under these rules")
    assert refusal([{"contract": "ramsch", "durchmarsch": 2, "klopfen": 1}], rules)[1] == "klopfen"
    assert one(ramsch, rules)["value"] == 2  # tariff_ramsch 2, no knock


def test_klopfen_played_is_true_by_default_so_a_knock_doubles():
    # the default rules: a Sauspiel won with 70 is 2, one knock doubles it to 4
    assert SCHAFKOPF.parse_rules(None).klopfen_played is True
    assert one(sauspiel(70, klopfen=1), None)["value"] == 4
    # turnier with klopfen_played switched back on: 1, knocked twice: 4
    assert one(sauspiel(70, klopfen=2), {"preset": "turnier", "klopfen_played": True})["value"] == 4


# --- end to end ------------------------------------------------------------------------------------------------


def test_settle_json_settles_a_turnier_night_end_to_end():
    # Sauspiel won 1 (1, 3 +1), redeal 0, Solo by 2 won schneider 6 (2 +18), tout by 1 lost 10 (1 −30),
    # Wenz by 4 won with kontra 10 (4 +30), Sauspiel lost with 30: schneider 2 (1, 3 −2)
    hands = [
        sauspiel(70),
        {"contract": "rundpass"},
        solo(95, laufende=5),
        tout(won=False),
        wenz(70, kontra=True),
        sauspiel(30),
    ]
    out = settle_json({"game": "schafkopf", "rules": {"preset": "turnier"}, "hands": hands})
    assert [h["value"] for h in out["hands"]] == [1, 0, 6, 10, 10, 2]
    # seat 1: +1 +0 −6 −30 −10 −2 = −47; seat 2: −1 +18 +10 −10 +2 = 19;
    # seat 3: +1 −6 +10 −10 −2 = −7; seat 4: −1 −6 +10 +30 +2 = 35
    assert out["totals"] == deltas(-47, 19, -7, 35)
    assert sum(out["totals"].values()) == 0
    assert out["rules"]["preset"] == "turnier"
    assert out["rules"]["all_pass"] == "redeal" and out["rules"]["klopfen_played"] is False


# --- which lines a tariff lists (the score sheet's box) ------------------------------------------

POT = {"pot_stake", "pot_at_close"}
RAMSCH = {"tariff_ramsch", "jungfrau", "durchmarsch_tariff", "ramsch_tie"}
RUNNERS_FROM = {"laufende_min", "laufende_min_wenz"}


@pytest.mark.parametrize(
    ("rules", "left_out"),
    [
        (TURNIER, POT | RAMSCH | RUNNERS_FROM),  # an all-pass is dealt again, runners never paid
        ({"preset": "seed"}, RAMSCH),  # a rundpass pays into the pot
        ({"preset": "bavarian"}, POT),  # an all-pass is a Ramsch
        ({"preset": "seed-variant"}, POT | RAMSCH),  # an all-pass is nothing
        ({"preset": "turnier", "all_pass": "ramsch", "laufende_max": 4}, POT),
    ],
)
def test_a_tariff_lists_only_the_options_that_apply_under_the_rules(rules, left_out):
    parsed = SCHAFKOPF.parse_rules(rules)
    every = [f.name for f in SCHAFKOPF.options()]
    assert tariff_options("schafkopf", parsed) == tuple(name for name in every if name not in left_out)


def test_a_game_without_such_options_lists_every_option():
    matzl = GAMES["matzlfangen"]
    assert tariff_options("matzlfangen", matzl.parse_rules({})) == tuple(f.name for f in matzl.options())
