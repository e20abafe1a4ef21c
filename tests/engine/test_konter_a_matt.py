"""Konter a Matt: every rule and option of RULES.md ("Konter a Matt") and docs/rules-decisions.md.

Teams: A = seats 1 and 3, B = seats 2 and 4; 40 card points; each team starts a game with 11 strokes.
Every expected number below is derived by hand in a comment, never by calling the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import GAMES, InvalidHand, settle_json


def partie(trump_team: str, points_a: int, **flags: bool) -> dict[str, Any]:
    """One partie as the JSON contract writes it."""
    return {"trump_team": trump_team, "points_a": points_a, **flags}


def play(*parties: dict[str, Any], **rules: Any) -> dict[str, Any]:
    """Settle a session of Konter a Matt through the JSON contract."""
    return settle_json({"game": "konter_a_matt", "rules": rules, "hands": list(parties)})


def strokes_after(*parties: dict[str, Any], **rules: Any) -> list[dict[str, int]]:
    """The strokes of both teams after each partie."""
    return [h["strokes"] for h in play(*parties, **rules)["hands"]]


def refusal(*parties: Any, **rules: Any) -> tuple[int | None, str, str]:
    """The (hand, field, message) of the error a session is refused with."""
    with pytest.raises(InvalidHand) as info:
        play(*parties, **rules)
    err = info.value
    return err.hand, err.field, err.message


NO_DELTAS = {"1": 0, "2": 0, "3": 0, "4": 0}


# --- The game and its defaults


def test_the_game_is_called_konter_a_matt_in_json() -> None:
    assert "konter_a_matt" in GAMES
    assert play()["game"] == "konter_a_matt"


def test_the_default_rules_are_11_strokes_21_points_penalty_on_tie_penalty_1_and_no_stake() -> None:
    assert play()["rules"] == {
        "preset": "seed",
        "strokes": 11,
        "win_points": 21,
        "trump_team_penalty": True,
        "tie_penalty": 1,
        "stake_per_game": 0,
    }


def test_the_preset_seed_is_the_defaults() -> None:
    assert "seed" in GAMES["konter_a_matt"].presets
    assert play(preset="seed")["rules"] == play()["rules"]


def test_settling_the_output_rules_again_gives_the_same_rule_set() -> None:
    rules = play(strokes=7, tie_penalty=2, stake_per_game=3)["rules"]
    assert play(**rules)["rules"] == rules


def test_both_teams_start_a_game_with_11_strokes() -> None:
    session = play()
    assert session["strokes"] == {"A": 11, "B": 11}
    assert session["carry"] == 0
    assert session["games_won"] == {"A": 0, "B": 0}


# --- The worth of a partie: N = 1 + schwarz + matt + konter


def test_a_plain_partie_is_worth_one_stroke() -> None:
    # A chose trumps and won 25:15: N = 1, A 11 - 1 = 10.
    hand = play(partie("A", 25))["hands"][0]
    assert hand["value"] == 1
    assert hand["winner"] == "A"
    assert hand["strokes"] == {"A": 10, "B": 11}


@pytest.mark.parametrize(
    ("schwarz", "matt", "konter", "worth"),
    [
        (False, False, False, 1),  # 1
        (True, False, False, 2),  # 1 + schwarz
        (False, True, False, 2),  # 1 + matt
        (False, False, True, 2),  # 1 + konter
        (True, True, False, 3),  # 1 + schwarz + matt
        (True, False, True, 3),  # 1 + schwarz + konter
        (False, True, True, 3),  # 1 + matt + konter ("Konter a Matt")
        (True, True, True, 4),  # 1 + schwarz + matt + konter: the most a partie is worth
    ],
)
def test_a_partie_is_worth_one_plus_one_each_for_schwarz_matt_and_konter(
    schwarz: bool, matt: bool, konter: bool, worth: int
) -> None:
    # A chose trumps and took every trick (40:0, so schwarz is possible): A falls by N from 11.
    hand = play(partie("A", 40, schwarz=schwarz, matt=matt, konter=konter))["hands"][0]
    assert hand["value"] == worth
    assert hand["strokes"] == {"A": 11 - worth, "B": 11}


def test_konter_a_matt_said_together_is_worth_three() -> None:
    # One player holds all three queens and says "Konter a Matt": matt and konter, N = 1 + 1 + 1 = 3.
    hand = play(partie("B", 10, matt=True, konter=True))["hands"][0]
    assert hand["value"] == 3
    assert hand["strokes"] == {"A": 11, "B": 8}  # B won 30:10 with trumps: 11 - 3


def test_schwarz_counts_for_the_team_with_all_40_points() -> None:
    # B chose trumps and took every trick (0:40): N = 2, B 11 - 2 = 9.
    hand = play(partie("B", 0, schwarz=True))["hands"][0]
    assert hand["winner"] == "B"
    assert hand["value"] == 2
    assert hand["strokes"] == {"A": 11, "B": 9}


def test_schwarz_matt_and_konter_default_to_false() -> None:
    # Left out and given as false: both a plain partie worth 1.
    left_out = play(partie("A", 30))["hands"][0]
    explicit = play(partie("A", 30, schwarz=False, matt=False, konter=False))["hands"][0]
    assert left_out["value"] == explicit["value"] == 1


# --- Who wins a partie


def test_a_team_with_exactly_21_points_wins_the_partie() -> None:
    # 21:19 for A: A wins; A had trumps, so A 11 - 1 = 10.
    hand = play(partie("A", 21))["hands"][0]
    assert hand["winner"] == "A"
    assert hand["points"] == {"A": 21, "B": 19}
    assert hand["strokes"] == {"A": 10, "B": 11}


def test_team_b_has_the_points_team_a_has_not() -> None:
    # points_a 19: B has 40 - 19 = 21 and wins; B had trumps, so B 11 - 1 = 10.
    hand = play(partie("B", 19))["hands"][0]
    assert hand["winner"] == "B"
    assert hand["points"] == {"A": 19, "B": 21}
    assert hand["strokes"] == {"A": 11, "B": 10}


def test_trump_team_winning_gets_its_strokes_struck_off_by_n() -> None:
    # A chose trumps, won 30:10 with Matt said: N = 2, A 11 - 2 = 9, B untouched.
    hand = play(partie("A", 30, matt=True))["hands"][0]
    assert hand["strokes"] == {"A": 9, "B": 11}
    assert hand["trump_team_lost"] is False


def test_trump_team_losing_gets_the_strokes_the_winners_struck() -> None:
    # A chose trumps, lost 10:30 with Konter said: N = 2; B 11 - 2 = 9, A 11 + 2 = 13.
    hand = play(partie("A", 10, konter=True))["hands"][0]
    assert hand["winner"] == "B"
    assert hand["value"] == 2
    assert hand["strokes"] == {"A": 13, "B": 9}
    assert hand["trump_team_lost"] is True


def test_team_b_losing_with_trumps_rises_while_team_a_falls() -> None:
    # B chose trumps and lost 35:5 (A wins): N = 1; A 11 - 1 = 10, B 11 + 1 = 12.
    hand = play(partie("B", 35))["hands"][0]
    assert hand["winner"] == "A"
    assert hand["strokes"] == {"A": 10, "B": 12}


def test_strokes_carry_from_partie_to_partie_within_a_game() -> None:
    # A 25 (A trumps): A 10. B 5 (B trumps, B has 35): B 10. A 0 with schwarz (B trumps): B 10 - 2 = 8.
    assert strokes_after(partie("A", 25), partie("B", 5), partie("B", 0, schwarz=True)) == [
        {"A": 10, "B": 11},
        {"A": 10, "B": 10},
        {"A": 10, "B": 8},
    ]


def test_after_a_decided_partie_either_team_may_choose_trumps() -> None:
    # A won with trumps (A 10), then B chooses trumps and wins 15:25 (B 10).
    assert strokes_after(partie("A", 25), partie("B", 15))[-1] == {"A": 10, "B": 10}


# --- Stänner (20:20)


def test_a_stanner_at_20_20_raises_the_trump_team_by_one_stroke() -> None:
    # 20:20 with A on trumps: nobody wins, A 11 + tie_penalty 1 = 12.
    hand = play(partie("A", 20))["hands"][0]
    assert hand["winner"] is None
    assert hand["stanner"] is True
    assert hand["strokes"] == {"A": 12, "B": 11}


def test_a_stanner_is_worth_nothing_now_and_moves_no_units() -> None:
    # Decision: a Stänner has value 0; its worth is carried, not struck.
    hand = play(partie("B", 20, matt=True), stake_per_game=5)["hands"][0]
    assert hand["value"] == 0
    assert hand["deltas"] == NO_DELTAS
    assert hand["steps"][-1] == {"what": "value", "units": 0, "total": 0, "key": "value", "args": {}}


def test_a_stanner_carries_what_the_loser_would_have_taken() -> None:
    # 20:20 with Matt and Konter said: N = 1 + 1 + 1 = 3 is carried.
    hand = play(partie("A", 20, matt=True, konter=True))["hands"][0]
    assert hand["carry"] == 3
    assert hand["game_over"] is False


def test_the_winner_of_the_next_decided_partie_has_the_carry_struck_off_in_addition() -> None:
    # 20:20 with Matt (A trumps): A 12, carry 2. Then A wins 30:10: struck 1 + 2 = 3, A 12 - 3 = 9.
    first, second = play(partie("A", 20, matt=True), partie("A", 30))["hands"]
    assert first["strokes"] == {"A": 12, "B": 11}
    assert first["carry"] == 2
    assert second["value"] == 3
    assert second["strokes"] == {"A": 9, "B": 11}
    assert second["carry"] == 0


def test_the_carry_goes_to_the_winner_even_when_the_trump_team_loses() -> None:
    # 20:20 (A trumps): A 12, carry 1. A loses 10:30 with Konter: N = 2.
    # B struck N + carry = 2 + 1 = 3: 11 - 3 = 8. A rises by N only (not by the carry): 12 + 2 = 14.
    second = play(partie("A", 20), partie("A", 10, konter=True))["hands"][1]
    assert second["winner"] == "B"
    assert second["value"] == 3
    assert second["strokes"] == {"A": 14, "B": 8}


def test_stanners_in_a_row_add_up_their_carries() -> None:
    # Three Stänner with A on trumps: worth 1, 2 (matt), 3 (matt + konter). Carry 1, 1 + 2 = 3, 3 + 3 = 6.
    # A rises by 1 each time: 12, 13, 14. Then A wins 25:15: struck 1 + 6 = 7, 14 - 7 = 7.
    hands = play(
        partie("A", 20),
        partie("A", 20, matt=True),
        partie("A", 20, matt=True, konter=True),
        partie("A", 25),
    )["hands"]
    assert [h["carry"] for h in hands] == [1, 3, 6, 0]
    assert [h["strokes"] for h in hands] == [
        {"A": 12, "B": 11},
        {"A": 13, "B": 11},
        {"A": 14, "B": 11},
        {"A": 7, "B": 11},
    ]
    assert hands[-1]["value"] == 7


def test_after_a_stanner_the_same_team_must_choose_trumps_again() -> None:
    # Partie 1 (index 1) is a Stänner with B on trumps, so A may not choose trumps in partie 2 (index 2).
    assert refusal(partie("A", 25), partie("B", 20), partie("A", 25)) == (
        2,
        "trump_team",
        "after a Stänner the same team chooses trumps again: team B",
    )


def test_after_a_stanner_the_same_team_choosing_trumps_again_is_accepted() -> None:
    # B 20:20 (B 12, carry 1), then B wins 15:25: struck 1 + 1 = 2, B 12 - 2 = 10.
    assert strokes_after(partie("B", 20), partie("B", 15))[-1] == {"A": 11, "B": 10}


def test_a_stanner_still_under_way_is_reported_on_the_settlement() -> None:
    # The session ends on a Stänner: A 12 and the carry 2 (matt) wait for the next partie.
    session = play(partie("A", 20, matt=True))
    assert session["strokes"] == {"A": 12, "B": 11}
    assert session["carry"] == 2


# --- Strokes never below 0; the game ends at 0 and a new one starts


def test_strokes_never_fall_below_zero() -> None:
    # A on trumps takes every trick with Konter a Matt three times: N = 4 each. 11 - 4 = 7, 7 - 4 = 3,
    # 3 - 4 = -1 shows as 0.
    sweep = partie("A", 40, schwarz=True, matt=True, konter=True)
    assert strokes_after(sweep, sweep, sweep) == [{"A": 7, "B": 11}, {"A": 3, "B": 11}, {"A": 0, "B": 11}]


def test_the_game_ends_when_a_team_reaches_zero_strokes() -> None:
    # As above: the third sweep takes A from 3 to 0, so A wins game 1 on that partie.
    sweep = partie("A", 40, schwarz=True, matt=True, konter=True)
    hands = play(sweep, sweep, sweep)["hands"]
    assert [h["game_over"] for h in hands] == [False, False, True]
    assert [h["game_winner"] for h in hands] == [None, None, "A"]
    assert [h["game"] for h in hands] == [1, 1, 1]


def test_a_new_game_starts_with_both_teams_back_at_11() -> None:
    # A wins game 1 on the third sweep (B still at 11). Partie 4 is game 2: B wins 15:25 with trumps,
    # B 11 - 1 = 10 and A is back at 11 (not 0).
    sweep = partie("A", 40, schwarz=True, matt=True, konter=True)
    session = play(sweep, sweep, sweep, partie("B", 15))
    last = session["hands"][-1]
    assert last["game"] == 2
    assert last["strokes"] == {"A": 11, "B": 10}
    assert session["strokes"] == {"A": 11, "B": 10}
    assert session["games_won"] == {"A": 1, "B": 0}


def test_the_settlement_shows_both_teams_at_the_start_when_the_session_ends_with_a_game() -> None:
    # strokes 1: A wins 25:15 with trumps, 1 - 1 = 0: game over; the game under way starts at 1:1.
    session = play(partie("A", 25), strokes=1)
    assert session["hands"][0]["strokes"] == {"A": 0, "B": 1}
    assert session["strokes"] == {"A": 1, "B": 1}
    assert session["games_won"] == {"A": 1, "B": 0}


def test_the_team_without_trumps_can_win_the_game_while_the_trump_team_rises() -> None:
    # strokes 2: B on trumps loses 30:10 with Matt: N = 2. A 2 - 2 = 0 wins the game; B 2 + 2 = 4.
    hand = play(partie("B", 30, matt=True), strokes=2)["hands"][0]
    assert hand["game_over"] is True
    assert hand["game_winner"] == "A"
    assert hand["strokes"] == {"A": 0, "B": 4}


def test_the_carry_of_a_stanner_can_end_the_game() -> None:
    # strokes 2: 20:20 (A trumps): A 3, carry 1. A loses 10:30: B struck 1 + 1 = 2 -> 0, game over for B;
    # A rises by N = 1: 4. Game 2 starts at 2:2 with nothing carried: B wins 5:35 with trumps, B 2 - 1 = 1.
    hands = play(partie("A", 20), partie("A", 10), partie("B", 5), strokes=2)["hands"]
    assert hands[1]["strokes"] == {"A": 4, "B": 0}
    assert hands[1]["game_winner"] == "B"
    assert hands[2]["game"] == 2
    assert hands[2]["value"] == 1
    assert hands[2]["strokes"] == {"A": 2, "B": 1}


def test_games_won_count_every_finished_game() -> None:
    # strokes 1: every decided partie ends a game. A, then B, then A win one each.
    session = play(partie("A", 25), partie("B", 5), partie("A", 22), strokes=1)
    assert [h["game"] for h in session["hands"]] == [1, 2, 3]
    assert [h["game_winner"] for h in session["hands"]] == ["A", "B", "A"]
    assert session["games_won"] == {"A": 2, "B": 1}


# --- stake_per_game: units when a game ends


def test_when_a_game_ends_each_loser_pays_stake_per_game_to_one_winner() -> None:
    # strokes 1, stake 5: B wins 10:30 with trumps, 1 - 1 = 0. Seats 2 and 4 get 5 each, seats 1 and 3 pay 5.
    session = play(partie("B", 10), strokes=1, stake_per_game=5)
    assert session["hands"][0]["deltas"] == {"1": -5, "2": 5, "3": -5, "4": 5}
    assert session["totals"] == {"1": -5, "2": 5, "3": -5, "4": 5}
    assert session["balance"] == {"1": -5, "2": 5, "3": -5, "4": 5}


def test_team_a_winning_a_game_pays_seats_1_and_3() -> None:
    # strokes 1, stake 3: A wins 25:15 with trumps: seats 1 and 3 +3, seats 2 and 4 -3.
    assert play(partie("A", 25), strokes=1, stake_per_game=3)["hands"][0]["deltas"] == {
        "1": 3,
        "2": -3,
        "3": 3,
        "4": -3,
    }


def test_deltas_are_zero_while_a_game_is_under_way_even_with_a_stake() -> None:
    # stake 5 but default 11 strokes: A 10 after one partie, no game ended, nobody pays.
    session = play(partie("A", 25), stake_per_game=5)
    assert session["hands"][0]["deltas"] == NO_DELTAS
    assert session["totals"] == NO_DELTAS


def test_with_the_default_stake_of_zero_a_finished_game_moves_no_units() -> None:
    session = play(partie("A", 25), strokes=1)
    assert session["hands"][0]["game_over"] is True
    assert session["hands"][0]["deltas"] == NO_DELTAS
    assert session["totals"] == NO_DELTAS


def test_stakes_of_several_games_add_up_in_the_totals() -> None:
    # strokes 1, stake 2: A, B, A win a game each. Seat 1: +2 - 2 + 2 = 2; seat 2: -2 + 2 - 2 = -2.
    session = play(partie("A", 25), partie("B", 5), partie("A", 22), strokes=1, stake_per_game=2)
    assert session["totals"] == {"1": 2, "2": -2, "3": 2, "4": -2}


# --- Options


def test_the_strokes_option_sets_where_every_game_starts() -> None:
    # strokes 5: A wins with trumps, 5 - 1 = 4. Then two sweeps worth 4: 4 - 4 = 0 ends game 1, and
    # game 2 starts at 5:5, so B winning 15:25 with trumps leaves B at 5 - 1 = 4.
    sweep = partie("A", 40, schwarz=True, matt=True, konter=True)
    assert strokes_after(partie("A", 25), sweep, partie("B", 15), strokes=5) == [
        {"A": 4, "B": 5},
        {"A": 0, "B": 5},
        {"A": 5, "B": 4},
    ]


def test_win_points_raises_the_points_a_team_needs() -> None:
    # win_points 25: 24:16 is not a win, and 25:15 is. Struck 1 (partie) + 1 (carried from 24:16).
    hands = play(partie("A", 24), partie("A", 25), win_points=25)["hands"]
    assert hands[0]["winner"] is None
    assert hands[1]["winner"] == "A"
    assert hands[1]["strokes"] == {"A": 10, "B": 11}  # 11 + 1 (Stänner) - 2


def test_a_partie_in_which_neither_team_reaches_win_points_counts_as_a_stanner() -> None:
    # win_points 25: 23:17 with Matt. A on trumps rises by 1 to 12, the worth 2 is carried.
    hand = play(partie("A", 23, matt=True), win_points=25)["hands"][0]
    assert hand["stanner"] is True
    assert hand["value"] == 0
    assert hand["carry"] == 2
    assert hand["strokes"] == {"A": 12, "B": 11}


def test_after_a_stanner_short_of_win_points_the_same_team_must_choose_trumps_again() -> None:
    # win_points 25: 16:24 with B on trumps is a Stänner, so A may not choose trumps next (index 1).
    assert refusal(partie("B", 16), partie("A", 30), win_points=25) == (
        1,
        "trump_team",
        "after a Stänner the same team chooses trumps again: team B",
    )


def test_with_win_points_40_only_taking_every_point_wins() -> None:
    # win_points 40: 39:1 is a Stänner (A 12, carry 1); 40:0 then wins: 12 - (1 + 1) = 10.
    hands = play(partie("A", 39), partie("A", 40), win_points=40)["hands"]
    assert hands[0]["stanner"] is True
    assert hands[1]["strokes"] == {"A": 10, "B": 11}


def test_without_trump_team_penalty_a_losing_trump_team_does_not_rise() -> None:
    # trump_team_penalty false: A loses 10:30 with trumps and Konter: B 11 - 2 = 9, A stays 11.
    hand = play(partie("A", 10, konter=True), trump_team_penalty=False)["hands"][0]
    assert hand["strokes"] == {"A": 11, "B": 9}
    assert hand["trump_team_lost"] is True


@pytest.mark.parametrize(
    ("tie_penalty", "trump_strokes"),
    [
        (0, 11),  # 11 + 0
        (1, 12),  # 11 + 1, the default
        (3, 14),  # 11 + 3
        (10, 21),  # 11 + 10, the highest allowed
    ],
)
def test_tie_penalty_is_what_the_trump_team_rises_by_on_a_stanner(tie_penalty: int, trump_strokes: int) -> None:
    hand = play(partie("B", 20), tie_penalty=tie_penalty)["hands"][0]
    assert hand["strokes"] == {"A": 11, "B": trump_strokes}
    assert hand["carry"] == 1  # the carry is N, whatever the penalty


def test_tie_penalty_applies_on_every_stanner_in_a_row() -> None:
    # tie_penalty 2, two Stänner with A on trumps: 11 + 2 = 13, 13 + 2 = 15.
    assert strokes_after(partie("A", 20), partie("A", 20), tie_penalty=2) == [{"A": 13, "B": 11}, {"A": 15, "B": 11}]


# --- The output


def test_every_partie_reports_strokes_carry_game_over_and_game_winner() -> None:
    # RULES.md: "Output per partie: strokes (both teams after the partie), carry, game_over, game_winner".
    for hand in play(partie("A", 20), partie("A", 25), partie("B", 30))["hands"]:
        assert {"strokes", "carry", "game_over", "game_winner"} <= hand.keys()
        assert set(hand["strokes"]) == {"A", "B"}


def test_a_decided_partie_carries_every_key_the_decisions_name() -> None:
    hand = play(partie("A", 26, matt=True))["hands"][0]
    assert hand == {
        "winner": "A",
        "value": 2,  # 1 + matt
        "deltas": NO_DELTAS,
        "steps": [
            {
                "what": "team A won 26:14 (21 needed)",
                "units": 1,
                "total": 1,
                "key": "partie",
                "args": {"team": "A", "score": "26:14"},
            },
            {"what": "Matt was said", "units": 1, "total": 2, "key": "matt", "args": {}},
            {"what": "value", "units": 2, "total": 2, "key": "value", "args": {}},
        ],
        "points": {"A": 26, "B": 14},
        "strokes": {"A": 9, "B": 11},  # 11 - 2
        "carry": 0,
        "game": 1,
        "game_over": False,
        "game_winner": None,
        "stanner": False,
        "trump_team_lost": False,
    }


def test_a_stanner_carries_every_key_the_decisions_name() -> None:
    # Decision: "A partie result carries points, strokes, carry, game, game_over, game_winner, stanner,
    # trump_team_lost". A Stänner is a partie too; its trump team did not lose.
    hand = play(partie("A", 20))["hands"][0]
    for key in ("points", "strokes", "carry", "game", "game_over", "game_winner", "stanner", "trump_team_lost"):
        assert key in hand, key
    assert hand["trump_team_lost"] is False


def test_the_steps_of_a_partie_with_a_carry_add_up_to_its_value() -> None:
    # 20:20 with Matt (carry 2), then A wins 30:10 with Matt and Konter: 1 + 1 + 1 + 2 carried = 5.
    hand = play(partie("A", 20, matt=True), partie("A", 30, matt=True, konter=True))["hands"][1]
    assert [(s["key"], s["units"], s["total"]) for s in hand["steps"]] == [
        ("partie", 1, 1),
        ("matt", 1, 2),
        ("konter", 1, 3),
        ("carry", 2, 5),
        ("value", 5, 5),
    ]
    assert hand["value"] == 5
    assert hand["strokes"] == {"A": 7, "B": 11}  # 11 + 1 (Stänner) - 5


def test_a_stanner_reports_no_winner_and_game_not_over() -> None:
    hand = play(partie("B", 20))["hands"][0]
    assert hand["winner"] is None
    assert hand["game_over"] is False
    assert hand["game_winner"] is None
    assert hand["points"] == {"A": 20, "B": 20}


# --- Validation: every error names the hand index, the field and the reason

GOOD = partie("A", 25)


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        (5, "", "a partie must be an object, not a whole number"),
        ([], "", "a partie must be an object, not a list"),
        (None, "", "a partie must be an object, not null"),
        ("A", "", "a partie must be an object, not a text"),
        ({"trump_team": "A", "points_a": 25, "winner": "A"}, "winner", "unknown field 'winner'"),
        ({"trump_team": "A", "points_a": 25, "points_b": 15}, "points_b", "unknown field 'points_b'"),
        ({"points_a": 25}, "trump_team", "trump_team is required"),
        ({"trump_team": "C", "points_a": 25}, "trump_team", "trump_team must be one of A, B, not 'C'"),
        ({"trump_team": "a", "points_a": 25}, "trump_team", "trump_team must be one of A, B, not 'a'"),
        ({"trump_team": 1, "points_a": 25}, "trump_team", "trump_team must be one of A, B, not 1"),
        ({"trump_team": "A"}, "points_a", "points_a is required"),
        ({"trump_team": "A", "points_a": -1}, "points_a", "points_a must be between 0 and 40"),
        ({"trump_team": "A", "points_a": 41}, "points_a", "points_a must be between 0 and 40"),
        ({"trump_team": "A", "points_a": 25.0}, "points_a", "points_a must be a whole number, not a decimal number"),
        ({"trump_team": "A", "points_a": "25"}, "points_a", "points_a must be a whole number, not a text"),
        ({"trump_team": "A", "points_a": True}, "points_a", "points_a must be a whole number, not true or false"),
        ({"trump_team": "A", "points_a": None}, "points_a", "points_a must be a whole number, not null"),
        (
            {"trump_team": "A", "points_a": 40, "schwarz": 1},
            "schwarz",
            "schwarz must be true or false, not a whole number",
        ),
        (
            {"trump_team": "A", "points_a": 40, "schwarz": "true"},
            "schwarz",
            "schwarz must be true or false, not a text",
        ),
        ({"trump_team": "A", "points_a": 40, "schwarz": None}, "schwarz", "schwarz must be true or false, not null"),
        (
            {"trump_team": "A", "points_a": 25, "schwarz": True},
            "schwarz",
            "the losing team took no trick, so the points are 40:0 or 0:40, not 25:15",
        ),
        (
            {"trump_team": "B", "points_a": 1, "schwarz": True},
            "schwarz",
            "the losing team took no trick, so the points are 40:0 or 0:40, not 1:39",
        ),
        (
            {"trump_team": "A", "points_a": 20, "schwarz": True},
            "schwarz",
            "the losing team took no trick, so the points are 40:0 or 0:40, not 20:20",
        ),
        ({"trump_team": "A", "points_a": 25, "matt": 0}, "matt", "matt must be true or false, not a whole number"),
        ({"trump_team": "A", "points_a": 25, "matt": [True]}, "matt", "matt must be true or false, not a list"),
        ({"trump_team": "A", "points_a": 25, "konter": "yes"}, "konter", "konter must be true or false, not a text"),
        ({"trump_team": "A", "points_a": 25, "konter": {}}, "konter", "konter must be true or false, not an object"),
    ],
)
def test_an_invalid_partie_is_refused_naming_its_index_field_and_reason(bad: Any, field: str, message: str) -> None:
    # The bad partie is the second of three (index 1): nothing is settled.
    assert refusal(GOOD, bad, GOOD) == (1, field, message)


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "null"), (True, "true"), (False, "false"), (["A"], "a list"), ({"team": "A"}, "an object")],
)
def test_a_trump_team_that_is_not_a_text_is_refused_spelt_as_json(value: Any, shown: str) -> None:
    assert refusal({"trump_team": value, "points_a": 25}) == (
        0,
        "trump_team",
        f"trump_team must be one of A, B, not {shown}",
    )


def test_the_first_partie_has_index_zero() -> None:
    # Decision: the hand index is 0-based.
    assert refusal({"trump_team": "A", "points_a": 99}) == (0, "points_a", "points_a must be between 0 and 40")


@pytest.mark.parametrize(
    ("rules", "field", "message"),
    [
        ({"strokes": 0}, "rules.strokes", "strokes must be between 1 and 100"),
        ({"strokes": 101}, "rules.strokes", "strokes must be between 1 and 100"),
        ({"strokes": "11"}, "rules.strokes", "strokes must be a whole number, not a text"),
        ({"strokes": 11.0}, "rules.strokes", "strokes must be a whole number, not a decimal number"),
        ({"strokes": None}, "rules.strokes", "strokes may not be null"),
        ({"win_points": 20}, "rules.win_points", "win_points must be between 21 and 40"),
        ({"win_points": 41}, "rules.win_points", "win_points must be between 21 and 40"),
        ({"win_points": True}, "rules.win_points", "win_points must be a whole number, not true or false"),
        (
            {"trump_team_penalty": 1},
            "rules.trump_team_penalty",
            "trump_team_penalty must be true or false, not a whole number",
        ),
        (
            {"trump_team_penalty": "no"},
            "rules.trump_team_penalty",
            "trump_team_penalty must be true or false, not a text",
        ),
        ({"tie_penalty": -1}, "rules.tie_penalty", "tie_penalty must be between 0 and 10"),
        ({"tie_penalty": 11}, "rules.tie_penalty", "tie_penalty must be between 0 and 10"),
        ({"stake_per_game": -1}, "rules.stake_per_game", "stake_per_game must be between 0 and 1000"),
        ({"stake_per_game": 1001}, "rules.stake_per_game", "stake_per_game must be between 0 and 1000"),
        ({"win_threshold": 21}, "rules.win_threshold", "unknown rule 'win_threshold'"),
        ({"preset": "bavarian"}, "rules.preset", "preset must be one of seed, not 'bavarian'"),
    ],
)
def test_an_invalid_rule_is_refused_naming_the_rule(rules: dict[str, Any], field: str, message: str) -> None:
    assert refusal(GOOD, **rules) == (None, field, message)


def test_rules_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(InvalidHand) as info:
        settle_json({"game": "konter_a_matt", "rules": [], "hands": [GOOD]})
    assert info.value.to_json() == {"hand": None, "field": "rules", "message": "rules must be an object, not a list"}
