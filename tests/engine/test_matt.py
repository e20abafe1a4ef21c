"""Matt: the engine checked against RULES.md ("The JSON contract", "Matt") and docs/rules-decisions.md.

Every expected number is derived by hand in a comment from the rule:
points = (move + 1 if anybody laid a card aside) x card value (A 11, 10 10, K 4, Q 3, 7 7),
doubled for Übermatt. Four Durchgänge make a match; the player with more points wins it.
balance = stake_per_point x (points of seat 1 - points of seat 2) for seat 1, its negative for seat 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import GAMES, InvalidHand, settle_json, settle_session
from tests.support import check_steps

GAME = "matt"


# --- helpers -----------------------------------------------------------------------------------------------------


def settle(hands: list[Any], **rules: Any) -> dict[str, Any]:
    """Settle a Matt session through the JSON contract and check every Durchgang's steps."""
    payload: dict[str, Any] = {"game": GAME, "hands": hands}
    if rules:
        payload["rules"] = rules
    out = settle_json(payload)
    assert out["game"] == GAME
    for result in out["hands"]:
        check_steps(result)
    assert sum(out["balance"].values()) == 0, "the balance adds up to zero"
    return out


def one(hand: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return settle([hand], **rules)["hands"][0]


def mate(seat: int, move: int, card: str, **fields: Any) -> dict[str, Any]:
    return {"mated_by": seat, "move": move, "card": card, **fields}


def draw(**fields: Any) -> dict[str, Any]:
    return {"mated_by": None, **fields}


def pair(one_: int, two: int) -> dict[str, int]:
    return {"1": one_, "2": two}


def units(result: dict[str, Any]) -> list[int]:
    return [step["units"] for step in result["steps"]]


def error(hands: Any, rules: Any = None) -> tuple[int | None, str, str]:
    body: dict[str, Any] = {"game": GAME, "hands": hands}
    if rules is not None:
        body["rules"] = rules
    with pytest.raises(InvalidHand) as info:
        settle_json(body)
    err = info.value
    return err.hand, err.field, err.message


# --- points of a Durchgang -----------------------------------------------------------------------------------------


def test_mate_scores_the_move_times_the_value_of_the_mating_card():
    # Mate on move 7 with an Ace: 7 x 11 = 77 for seat 1; seat 2 scores nothing.
    result = one(mate(1, 7, "A"))
    assert result["value"] == 77
    assert result["deltas"] == pair(77, 0)
    assert result["winner"] == 1
    # steps: move 7, the card multiplies (adds 77 - 7 = 70), value 77
    assert units(result) == [7, 70, 77]


@pytest.mark.parametrize(("card", "points"), [("A", 55), ("10", 50), ("K", 20), ("Q", 15), ("7", 35)])
def test_card_values_are_ace_11_ten_10_king_4_queen_3_seven_7(card, points):
    # Mate on move 5: 5 x 11 = 55, 5 x 10 = 50, 5 x 4 = 20, 5 x 3 = 15, 5 x 7 = 35.
    result = one(mate(2, 5, card))
    assert result["value"] == points
    assert result["deltas"] == pair(0, points)
    assert units(result) == [5, points - 5, points]


def test_seat_2_that_gives_mate_scores_the_points():
    # mated_by is the seat that gave mate and scores: move 4 with the 10: 40 for seat 2.
    result = one(mate(2, 4, "10"))
    assert result["winner"] == 2
    assert result["deltas"] == pair(0, 40)


def test_mate_on_the_first_move_with_a_queen_scores_3():
    # 1 x 3 = 3: the smallest score.
    assert one(mate(1, 1, "Q"))["value"] == 3


def test_mate_on_move_10_without_laying_aside_is_not_doubled():
    # 10 x 11 = 110.
    assert one(mate(1, 10, "A"))["value"] == 110


def test_one_player_laying_a_card_aside_counts_as_one_move_more():
    # Vorablegen by one player: (6 + 1) x 4 = 28. Steps: 6, +1, x4 adds 21, value 28.
    result = one(mate(1, 6, "K", vorablegen=1))
    assert result["value"] == 28
    assert units(result) == [6, 1, 21, 28]


def test_both_players_laying_aside_still_add_one_move():
    # RULES.md: "(move + 1 if anybody laid a card aside)": (9 + 1) x 10 = 100, not (9 + 2) x 10.
    result = one(mate(2, 9, "10", vorablegen=2))
    assert result["value"] == 100
    assert result["deltas"] == pair(0, 100)
    assert units(result) == [9, 1, 90, 100]


def test_vorablegen_defaults_to_zero():
    assert one(mate(1, 6, "K"))["value"] == one(mate(1, 6, "K", vorablegen=0))["value"] == 24


def test_uebermatt_doubles_the_points():
    # One player laid aside, mate on move 10 with an Ace, Übermatt: (10 + 1) x 11 = 121, x 2 = 242.
    result = one(mate(1, 10, "A", vorablegen=1, uebermatt=True))
    assert result["value"] == 242
    assert result["deltas"] == pair(242, 0)
    # steps: 10, +1, x11 adds 110, x2 adds 121, value 242
    assert units(result) == [10, 1, 110, 121, 242]


def test_mate_on_move_10_after_one_laid_aside_without_uebermatt_is_not_doubled():
    # (10 + 1) x 7 = 77.
    result = one(mate(2, 10, "7", vorablegen=1, uebermatt=False))
    assert result["value"] == 77
    assert result["deltas"] == pair(0, 77)


def test_uebermatt_defaults_to_false():
    # (10 + 1) x 3 = 33, not doubled.
    assert one(mate(1, 10, "Q", vorablegen=1))["value"] == 33


def test_a_draw_scores_nothing_for_either_player():
    result = one(draw())
    assert result["value"] == 0
    assert result["winner"] is None
    assert result["deltas"] == pair(0, 0)


def test_a_draw_may_carry_vorablegen_and_still_scores_nothing():
    assert one(draw(vorablegen=2))["deltas"] == pair(0, 0)


def test_deltas_are_points_scored_not_payments_so_they_do_not_add_up_to_zero():
    # decisions: "Matt's deltas are points scored, not payments".
    out = settle([mate(1, 7, "A")])
    assert out["hands"][0]["deltas"] == pair(77, 0)
    assert out["totals"] == pair(77, 0)


# --- matches of four Durchgänge ------------------------------------------------------------------------------------

#: One match: 77:0, 77:30, 97:30, 97:30 (draw). Seat 1 wins 97 to 30.
MATCH_ONE = [
    mate(1, 7, "A"),  # 7 x 11 = 77
    mate(2, 10, "Q"),  # 10 x 3 = 30
    mate(1, 5, "K"),  # 5 x 4 = 20
    draw(),
]

#: Another: seat 2 wins 176 to 20.
MATCH_TWO = [
    mate(2, 8, "A"),  # 8 x 11 = 88
    mate(2, 10, "K", vorablegen=1, uebermatt=True),  # (10 + 1) x 4 x 2 = 88
    mate(1, 2, "10"),  # 2 x 10 = 20
    draw(vorablegen=1),
]


def test_four_durchgaenge_make_a_match_with_its_score_after_each():
    out = settle(MATCH_ONE)
    hands = out["hands"]
    assert [h["match"] for h in hands] == [1, 1, 1, 1]
    assert [h["durchgang"] for h in hands] == [1, 2, 3, 4]
    assert [h["match_score"] for h in hands] == [pair(77, 0), pair(77, 30), pair(97, 30), pair(97, 30)]
    assert [h["match_over"] for h in hands] == [False, False, False, True]
    assert [h["match_winner"] for h in hands] == [None, None, None, 1]


def test_totals_are_the_match_score_when_one_match_was_played():
    out = settle(MATCH_ONE)
    # 77 + 20 = 97 for seat 1; 30 for seat 2.
    assert out["totals"] == pair(97, 30)
    assert out["totals"] == out["hands"][-1]["match_score"]
    assert out["matches_won"] == pair(1, 0)


def test_the_player_with_more_points_after_four_durchgaenge_wins_the_match():
    out = settle(MATCH_TWO)
    # 88 + 88 = 176 for seat 2, 20 for seat 1.
    last = out["hands"][-1]
    assert last["match_score"] == pair(20, 176)
    assert last["match_over"] is True
    assert last["match_winner"] == 2
    assert out["matches_won"] == pair(0, 1)


def test_a_second_match_restarts_at_zero():
    out = settle([*MATCH_ONE, mate(2, 3, "7")])
    fifth = out["hands"][4]
    # 3 x 7 = 21 for seat 2, counted from 0:0 in match 2.
    assert fifth["match"] == 2
    assert fifth["durchgang"] == 1
    assert fifth["match_score"] == pair(0, 21)
    assert fifth["match_over"] is False
    assert fifth["match_winner"] is None
    # totals are the points of the whole session: 97 : 30 + 21
    assert out["totals"] == pair(97, 51)
    assert out["matches_won"] == pair(1, 0)


def test_two_matches_count_matches_won_and_totals_of_the_session():
    out = settle([*MATCH_ONE, *MATCH_TWO])
    assert [h["match"] for h in out["hands"]] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert [h["durchgang"] for h in out["hands"]] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert [h["match_winner"] for h in out["hands"]] == [None, None, None, 1, None, None, None, 2]
    assert out["hands"][7]["match_score"] == pair(20, 176)
    # 97 + 20 = 117 for seat 1; 30 + 176 = 206 for seat 2.
    assert out["totals"] == pair(117, 206)
    assert out["matches_won"] == pair(1, 1)


def test_a_match_with_equal_points_is_a_draw_without_a_winner():
    # 3 x 10 = 30 for seat 1, 10 x 3 = 30 for seat 2, two draws: 30:30.
    out = settle([mate(1, 3, "10"), mate(2, 10, "Q"), draw(), draw()])
    last = out["hands"][-1]
    assert last["match_score"] == pair(30, 30)
    assert last["match_over"] is True
    assert last["match_winner"] is None
    assert out["matches_won"] == pair(0, 0)


def test_a_match_under_way_has_no_winner_yet():
    out = settle([mate(1, 7, "A"), mate(1, 7, "A")])
    assert [h["match_over"] for h in out["hands"]] == [False, False]
    assert [h["match_winner"] for h in out["hands"]] == [None, None]
    assert out["hands"][-1]["match_score"] == pair(154, 0)
    assert out["matches_won"] == pair(0, 0)


# --- balance: stake_per_point --------------------------------------------------------------------------------------


def test_balance_is_zero_with_the_default_stake_per_point_of_0():
    out = settle(MATCH_ONE)
    assert out["rules"]["stake_per_point"] == 0
    assert out["balance"] == pair(0, 0)


def test_stake_per_point_option_turns_the_difference_into_the_balance():
    # stake 2: (97 - 30) x 2 = 134 for seat 1, -134 for seat 2.
    out = settle(MATCH_ONE, stake_per_point=2)
    assert out["totals"] == pair(97, 30)
    assert out["balance"] == pair(134, -134)


def test_balance_is_negative_for_seat_1_when_seat_2_has_more_points():
    # stake 3 over two matches: (117 - 206) x 3 = -267.
    out = settle([*MATCH_ONE, *MATCH_TWO], stake_per_point=3)
    assert out["balance"] == pair(-267, 267)


def test_a_drawn_match_has_a_zero_balance_whatever_the_stake():
    out = settle([mate(1, 3, "10"), mate(2, 10, "Q"), draw(), draw()], stake_per_point=5)
    assert out["balance"] == pair(0, 0)


def test_settle_session_gives_points_as_totals_and_the_stake_as_balance():
    settlement = settle_session(GAME, {"stake_per_point": 1}, [mate(1, 7, "A"), mate(2, 5, "K")])
    # 77 : 20; balance (77 - 20) x 1 = 57.
    assert settlement.totals == (77, 20)
    assert settlement.balance == (57, -57)
    assert [r.value for r in settlement.results] == [77, 20]


# --- rule sets -----------------------------------------------------------------------------------------------------


def test_default_rule_set_is_the_one_of_rules_md():
    assert settle([])["rules"] == {"preset": "seed", "stake_per_point": 0}


def test_game_options_are_exactly_the_options_of_rules_md():
    game = GAMES[GAME]
    assert game.seats == 2
    assert {f.name: f.default for f in game.options()} == {"stake_per_point": 0}


def test_settling_the_output_rules_again_gives_the_same_rule_set():
    first = settle([], stake_per_point=7)
    assert first["rules"] == {"preset": "seed", "stake_per_point": 7}
    assert settle([], **first["rules"])["rules"] == first["rules"]


def test_empty_session_has_zero_totals_and_balance():
    out = settle([], stake_per_point=4)
    assert out["totals"] == pair(0, 0)
    assert out["balance"] == pair(0, 0)
    assert out["matches_won"] == pair(0, 0)


# --- validation ----------------------------------------------------------------------------------------------------

UEBERMATT_MESSAGE = "Übermatt is only possible when exactly one player laid aside and mate fell on move 10"

HAND_CASES = [
    # not an object
    pytest.param([1, 7, "A"], "", "a Durchgang must be an object, not a list", id="list"),
    pytest.param(None, "", "a Durchgang must be an object, not null", id="null"),
    pytest.param(77, "", "a Durchgang must be an object, not a whole number", id="number"),
    # unknown fields
    pytest.param(mate(1, 7, "A", winner=1), "winner", "unknown field 'winner'", id="unknown-winner"),
    pytest.param(mate(1, 7, "A", points=77), "points", "unknown field 'points'", id="unknown-points"),
    # missing required fields
    pytest.param(
        {"move": 7, "card": "A"},
        "mated_by",
        "mated_by is required: the seat that gave mate, or null for a draw",
        id="missing-mated_by",
    ),
    pytest.param({}, "mated_by", "mated_by is required: the seat that gave mate, or null for a draw", id="empty"),
    pytest.param({"mated_by": 1, "card": "A"}, "move", "move is required", id="missing-move"),
    pytest.param({"mated_by": 2, "move": 7}, "card", "card is required", id="missing-card"),
    # wrong types
    pytest.param(
        mate(True, 7, "A"), "mated_by", "mated_by must be a seat number, not true or false", id="mated_by-bool"
    ),
    pytest.param(
        mate(1.0, 7, "A"), "mated_by", "mated_by must be a seat number, not a decimal number", id="mated_by-dec"
    ),
    pytest.param(mate("1", 7, "A"), "mated_by", "mated_by must be a seat number, not a text", id="mated_by-text"),
    pytest.param(mate(1, True, "A"), "move", "move must be a whole number, not true or false", id="move-bool"),
    pytest.param(mate(1, 7.0, "A"), "move", "move must be a whole number, not a decimal number", id="move-decimal"),
    pytest.param(mate(1, 7.5, "A"), "move", "move must be a whole number, not a decimal number", id="move-fraction"),
    pytest.param(mate(1, "7", "A"), "move", "move must be a whole number, not a text", id="move-text"),
    pytest.param(mate(1, None, "A"), "move", "move must be a whole number, not null", id="move-null"),
    pytest.param(
        mate(1, 7, "A", vorablegen=True),
        "vorablegen",
        "vorablegen must be a whole number, not true or false",
        id="vb-bool",
    ),
    pytest.param(
        mate(1, 7, "A", vorablegen=1.0),
        "vorablegen",
        "vorablegen must be a whole number, not a decimal number",
        id="vb-dec",
    ),
    pytest.param(
        draw(vorablegen="1"), "vorablegen", "vorablegen must be a whole number, not a text", id="vb-text-draw"
    ),
    pytest.param(
        mate(1, 10, "A", vorablegen=1, uebermatt=1),
        "uebermatt",
        "uebermatt must be true or false, not a whole number",
        id="uebermatt-int",
    ),
    pytest.param(
        mate(1, 10, "A", vorablegen=1, uebermatt="yes"),
        "uebermatt",
        "uebermatt must be true or false, not a text",
        id="uebermatt-text",
    ),
    pytest.param(mate(1, 7, 10), "card", "card must be one of A, 10, K, Q, 7, not 10", id="card-number"),
    # out of range
    pytest.param(mate(0, 7, "A"), "mated_by", "mated_by must be a seat from 1 to 2, not 0", id="mated_by-0"),
    pytest.param(mate(3, 7, "A"), "mated_by", "mated_by must be a seat from 1 to 2, not 3", id="mated_by-3"),
    pytest.param(mate(1, 0, "A"), "move", "move must be between 1 and 10", id="move-0"),
    pytest.param(mate(1, 11, "A"), "move", "move must be between 1 and 10", id="move-11"),
    pytest.param(mate(1, 7, "A", vorablegen=3), "vorablegen", "vorablegen must be between 0 and 2", id="vb-3"),
    pytest.param(mate(1, 7, "A", vorablegen=-1), "vorablegen", "vorablegen must be between 0 and 2", id="vb-neg"),
    pytest.param(draw(vorablegen=3), "vorablegen", "vorablegen must be between 0 and 2", id="vb-3-draw"),
    pytest.param(mate(1, 7, "J"), "card", "card must be one of A, 10, K, Q, 7, not 'J'", id="card-J"),
    pytest.param(mate(1, 7, "a"), "card", "card must be one of A, 10, K, Q, 7, not 'a'", id="card-lowercase"),
    pytest.param(mate(1, 7, "9"), "card", "card must be one of A, 10, K, Q, 7, not '9'", id="card-9"),
    # fields that do not apply to a draw, whatever their value
    pytest.param(draw(move=10), "move", "move does not apply to a draw", id="draw-move"),
    pytest.param(draw(card="A"), "card", "card does not apply to a draw", id="draw-card"),
    pytest.param(draw(uebermatt=False), "uebermatt", "uebermatt does not apply to a draw", id="draw-uebermatt"),
    # move limits with vorablegen: both laying aside, only 9 moves are played
    pytest.param(
        mate(1, 10, "A", vorablegen=2),
        "move",
        "with both players laying a card aside only 9 moves are played",
        id="both-aside-move-10",
    ),
    # Übermatt: only with exactly one laying aside and mate on move 10
    pytest.param(mate(1, 10, "A", uebermatt=True), "uebermatt", UEBERMATT_MESSAGE, id="uebermatt-nobody-aside"),
    pytest.param(mate(1, 9, "A", vorablegen=1, uebermatt=True), "uebermatt", UEBERMATT_MESSAGE, id="uebermatt-move-9"),
    pytest.param(
        mate(1, 9, "A", vorablegen=2, uebermatt=True), "uebermatt", UEBERMATT_MESSAGE, id="uebermatt-both-aside"
    ),
    pytest.param(mate(2, 1, "7", vorablegen=1, uebermatt=True), "uebermatt", UEBERMATT_MESSAGE, id="uebermatt-move-1"),
]


@pytest.mark.parametrize(("hand", "field", "message"), HAND_CASES)
def test_invalid_durchgaenge_are_errors_naming_hand_field_and_reason(hand, field, message):
    assert error([hand]) == (0, field, message)


def test_both_players_laying_aside_allow_mate_on_move_9():
    # (9 + 1) x 11 = 110: the ninth move is the last one and allowed.
    assert one(mate(1, 9, "A", vorablegen=2))["value"] == 110


def test_hand_index_is_0_based_and_one_bad_durchgang_rejects_the_whole_input():
    hands = [*MATCH_ONE, mate(1, 11, "A"), mate(1, 7, "A")]
    assert error(hands) == (4, "move", "move must be between 1 and 10")


RULE_CASES = [
    ({"stake_per_point": -1}, "rules.stake_per_point", "stake_per_point must be between 0 and 1000"),
    ({"stake_per_point": 1001}, "rules.stake_per_point", "stake_per_point must be between 0 and 1000"),
    ({"stake_per_point": 0.5}, "rules.stake_per_point", "stake_per_point must be a whole number, not a decimal number"),
    ({"stake_per_point": 1.0}, "rules.stake_per_point", "stake_per_point must be a whole number, not a decimal number"),
    ({"stake_per_point": True}, "rules.stake_per_point", "stake_per_point must be a whole number, not true or false"),
    ({"stake_per_point": "1"}, "rules.stake_per_point", "stake_per_point must be a whole number, not a text"),
    ({"stake_per_point": None}, "rules.stake_per_point", "stake_per_point may not be null"),
    ({"strokes": 11}, "rules.strokes", "unknown rule 'strokes'"),
    ({"preset": "bavarian"}, "rules.preset", "preset must be one of seed, not 'bavarian'"),
]


@pytest.mark.parametrize(("rules", "field", "message"), RULE_CASES)
def test_invalid_rules_are_errors_of_the_session(rules, field, message):
    assert error([mate(1, 7, "A")], rules) == (None, field, message)


def test_unknown_top_level_key_is_an_error():
    with pytest.raises(InvalidHand) as info:
        settle_json({"game": GAME, "hands": [], "match": 1})
    assert (info.value.hand, info.value.field, info.value.message) == (None, "match", "unknown field 'match'")
