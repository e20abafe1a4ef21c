"""The command line: ``python manage.py settle < session.json`` (RULES.md, "The JSON contract"), and at the end the
commands that keep the club's data safe (backup, restore, export-all, import).

A handful of tests run the real command in a subprocess; the rest call ``settle_text`` (what ``settle``
does with the text it reads) to keep the suite quick. Every golden number is derived by hand in a comment.
"""

from __future__ import annotations

import copy
import gc
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main, settle, settle_text
from tests.support import DURCH, ROOT, run_manage

#: What the web app is made of; ``settle`` must start without it.
WEB_PACKAGES = {"flask", "flask_wtf", "flask_babel", "sqlmodel", "sqlalchemy", "alembic", "weasyprint", "jinja2"}


def run_settle(data: bytes | str, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``python manage.py settle [args]`` in the repository root, bytes in and out, in the C locale."""
    raw = data.encode() if isinstance(data, str) else data
    env = {**os.environ, "LC_ALL": "C"}
    env.pop("PYTHONIOENCODING", None)
    return subprocess.run(
        [sys.executable, "manage.py", "settle", *args], input=raw, capture_output=True, cwd=ROOT, env=env, timeout=60
    )


def settled(payload: Any) -> dict[str, Any]:
    """``settle_text`` on a JSON payload that must be accepted."""
    status, answer = settle_text(json.dumps(payload))
    assert status == 0, answer
    return json.loads(answer)


def refused(text: str | bytes) -> dict[str, Any]:
    """``settle_text`` on input that must be refused: the body of ``{"error": ...}``."""
    status, answer = settle_text(text)
    assert status == 1
    body = json.loads(answer)
    assert list(body) == ["error"]
    assert list(body["error"]) == ["hand", "field", "message"]
    return body["error"]


def golden_view(actual: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """``actual`` as the golden sees it: a step's ``args`` (they feed translations) may name more than the
    golden does; the golden's must be there with the same values. Everything else must match exactly."""
    view = copy.deepcopy(actual)
    for got, want in zip(view.get("hands", []), expected["hands"], strict=False):
        for step, golden in zip(got.get("steps", []), want["steps"], strict=False):
            args = step.get("args")
            assert isinstance(args, dict), step
            assert golden["args"].items() <= args.items(), (step, golden)
            step["args"] = golden["args"]
    return view


# --- Golden sessions, one per game

MATZLFANGEN_IN = {
    "game": "matzlfangen",
    "hands": [
        # The worked example of RULES.md: rufen won simply (70 >= 66, the defenders have 60 >= 30: water),
        # raised to the fifth level (Hirsch): 1 + 5 = 6; declarer 1 and partner 4 +6, seats 2 and 3 -6.
        {"contract": "rufen", "declarer": 1, "partner": 4, "points": 70, "raises": 5},
        # Treiben lost with 20 (kein Wasser: 1 + 1 = 2) but the declarer caught the Matzl: worth 0.
        {"contract": "treiben", "declarer": 2, "points": 20, "matzl": "declarers"},
        # Durch won with one raise: 6 + 1 = 7 from each defender, the declarer +21.
        {"contract": "durch", "declarer": 3, "won": True, "raises": 1},
    ],
}
MATZLFANGEN_OUT = {
    "game": "matzlfangen",
    "rules": {
        "preset": "seed",
        "win_threshold": 66,
        "no_water_below": 30,
        "no_trick_value": 3,
        "no_water_value": 2,
        "durch_value": 6,
        "max_raises": 10,
        "matzl_bonus": 1,
        "matzl_annuls_loss": True,
    },
    "hands": [
        {
            "winner": "declarers",
            "value": 6,
            "deltas": {"1": 6, "2": -6, "3": -6, "4": 6},
            "steps": [
                {
                    "what": "rufen won with 70 of 130 (66 needed)",
                    "units": 1,
                    "total": 1,
                    "key": "points",
                    "args": {"contract": "rufen", "won": True, "points": 70, "needed": 66},
                },
                {
                    "what": "raised 5× to Hirsch",
                    "units": 5,
                    "total": 6,
                    "key": "raises",
                    "args": {"raises": 5, "level": "Hirsch"},
                },
                {"what": "value", "units": 6, "total": 6, "key": "value", "args": {}},
            ],
        },
        {
            "winner": "defenders",
            "value": 0,
            "deltas": {"1": 0, "2": 0, "3": 0, "4": 0},
            "steps": [
                {
                    "what": "treiben lost with 20 of 130 (66 needed)",
                    "units": 1,
                    "total": 1,
                    "key": "points",
                    "args": {"contract": "treiben", "won": False, "points": 20, "needed": 66},
                },
                {
                    "what": "kein Wasser: the losing side has 20, under 30",
                    "units": 1,
                    "total": 2,
                    "key": "no_water",
                    "args": {"points": 20, "below": 30, "level": 2},
                },
                {
                    "what": "the losing side caught the Matzl: nobody pays",
                    "units": -2,
                    "total": 0,
                    "key": "matzl_annuls",
                    "args": {},
                },
                {"what": "value", "units": 0, "total": 0, "key": "value", "args": {}},
            ],
        },
        {
            "winner": "declarers",
            "value": 7,
            "deltas": {"1": -7, "2": -7, "3": 21, "4": -7},
            "steps": [
                {
                    "what": "durch won: the declarer took every trick",
                    "units": 6,
                    "total": 6,
                    "key": "slam",
                    "args": {"contract": "durch", "won": True},
                },
                {
                    "what": "raised 1× to Schuß",
                    "units": 1,
                    "total": 7,
                    "key": "raises",
                    "args": {"raises": 1, "level": "Schuß"},
                },
                {"what": "value", "units": 7, "total": 7, "key": "value", "args": {}},
            ],
        },
    ],
    # Seat 1: 6 - 7 = -1; seat 2: -6 - 7 = -13; seat 3: -6 + 21 = 15; seat 4: 6 - 7 = -1.
    "totals": {"1": -1, "2": -13, "3": 15, "4": -1},
    "balance": {"1": -1, "2": -13, "3": 15, "4": -1},
}

SCHAFKOPF_IN = {
    "game": "schafkopf",
    "hands": [
        # The worked example of RULES.md: tout won with 4 runners, (5 + 4) × 2 = 18 from each defender, +54.
        {"contract": "solo", "suit": "herz", "declarer": 1, "tout": True, "won": True, "laufende": 4},
        # Everybody passed: each pays the pot stake 2, the pot holds 8.
        {"contract": "rundpass"},
        # Sauspiel won with 70 (no schneider): 2 each; declarer 2 and partner 3 also take 8 / 2 = 4 from the pot.
        {"contract": "sauspiel", "suit": "eichel", "declarer": 2, "partner": 3, "points": 70},
    ],
}
SCHAFKOPF_OUT = {
    "game": "schafkopf",
    "rules": {
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
    },
    "hands": [
        {
            "winner": "declarers",
            "value": 18,
            "deltas": {"1": 54, "2": -18, "3": -18, "4": -18, "pot": 0},
            "steps": [
                {
                    "what": "solo tout won",
                    "units": 5,
                    "total": 5,
                    "key": "tout",
                    "args": {"contract": "solo", "won": True, "tariff": 5},
                },
                {"what": "4 runners", "units": 4, "total": 9, "key": "laufende", "args": {"runners": 4, "paid": 4}},
                {"what": "tout doubles", "units": 9, "total": 18, "key": "tout_doubles", "args": {}},
                {"what": "value", "units": 18, "total": 18, "key": "value", "args": {}},
            ],
            "pot_before": 0,
            "pot_after": 0,
        },
        {
            "winner": None,
            "value": 2,
            "deltas": {"1": -2, "2": -2, "3": -2, "4": -2, "pot": 8},
            "steps": [
                {
                    "what": "everybody passed: each player pays 2 into the pot",
                    "units": 2,
                    "total": 2,
                    "key": "rundpass_pot",
                    "args": {"stake": 2},
                },
                {
                    "what": "+8 into the pot, the pot holds 8",
                    "units": 0,
                    "total": 2,
                    "key": "pot_in",
                    "args": {"each": 2, "paid": 8, "pot": 8},
                },
                {"what": "value", "units": 2, "total": 2, "key": "value", "args": {}},
            ],
            "pot_before": 0,
            "pot_after": 8,
        },
        {
            "winner": "declarers",
            "value": 2,
            "deltas": {"1": -2, "2": 6, "3": 6, "4": -2, "pot": -8},
            "steps": [
                {
                    "what": "sauspiel won with 70 of 120 (61 needed)",
                    "units": 2,
                    "total": 2,
                    "key": "points",
                    "args": {"contract": "sauspiel", "won": True, "points": 70, "needed": 61},
                },
                {
                    "what": "declarer and partner take 4 each from the pot (-8), the pot holds 0",
                    "units": 0,
                    "total": 2,
                    "key": "pot_out",
                    "args": {"seats": [2, 3], "each": 4, "taken": 8, "pot": 0},
                },
                {"what": "value", "units": 2, "total": 2, "key": "value", "args": {}},
            ],
            "pot_before": 8,
            "pot_after": 0,
        },
    ],
    # Seat 1: 54 - 2 - 2 = 50; seats 2 and 3: -18 - 2 + 6 = -14; seat 4: -18 - 2 - 2 = -22; pot 0 + 8 - 8 = 0.
    "totals": {"1": 50, "2": -14, "3": -14, "4": -22, "pot": 0},
    "balance": {"1": 50, "2": -14, "3": -14, "4": -22},
    # the pot started empty (nothing carried from an earlier night) and ends empty
    "pot_start": 0,
    "pot_end": 0,
}

KONTER_A_MATT_IN = {
    "game": "konter_a_matt",
    "rules": {"strokes": 3, "stake_per_game": 2},
    "hands": [
        # 20:20 with Matt, A on trumps: a Stänner. A 3 + 1 = 4, worth 1 + 1 = 2 carried.
        {"trump_team": "A", "points_a": 20, "matt": True},
        # A (trumps again) wins 30:10: struck 1 + 2 carried = 3, A 4 - 3 = 1.
        {"trump_team": "A", "points_a": 30},
        # B on trumps loses 40:0, schwarz, Konter: N = 3. A 1 - 3 shows 0: A wins the game; B 3 + 3 = 6.
        # Seats 1 and 3 get the stake 2 from seats 2 and 4.
        {"trump_team": "B", "points_a": 40, "schwarz": True, "konter": True},
    ],
}
KONTER_A_MATT_OUT = {
    "game": "konter_a_matt",
    "rules": {
        "preset": "seed",
        "strokes": 3,
        "win_points": 21,
        "trump_team_penalty": True,
        "tie_penalty": 1,
        "stake_per_game": 2,
    },
    "hands": [
        {
            "winner": None,
            "value": 0,
            "deltas": {"1": 0, "2": 0, "3": 0, "4": 0},
            "steps": [
                {
                    "what": "partie 20:20: undecided, worth 2",
                    "units": 1,
                    "total": 1,
                    "key": "partie",
                    "args": {"score": "20:20"},
                },
                {"what": "Matt was said", "units": 1, "total": 2, "key": "matt", "args": {}},
                {
                    "what": "Stänner: 2 carried to the next decided partie",
                    "units": -2,
                    "total": 0,
                    "key": "stanner",
                    "args": {"carried": 2},
                },
                {"what": "value", "units": 0, "total": 0, "key": "value", "args": {}},
            ],
            "points": {"A": 20, "B": 20},
            "strokes": {"A": 4, "B": 3},
            "carry": 2,
            "game": 1,
            "game_over": False,
            "game_winner": None,
            "stanner": True,
            "trump_team_lost": False,
        },
        {
            "winner": "A",
            "value": 3,
            "deltas": {"1": 0, "2": 0, "3": 0, "4": 0},
            "steps": [
                {
                    "what": "team A won 30:10 (21 needed)",
                    "units": 1,
                    "total": 1,
                    "key": "partie",
                    "args": {"team": "A", "score": "30:10"},
                },
                {
                    "what": "2 carried from the Stänner before",
                    "units": 2,
                    "total": 3,
                    "key": "carry",
                    "args": {"carried": 2},
                },
                {"what": "value", "units": 3, "total": 3, "key": "value", "args": {}},
            ],
            "points": {"A": 30, "B": 10},
            "strokes": {"A": 1, "B": 3},
            "carry": 0,
            "game": 1,
            "game_over": False,
            "game_winner": None,
            "stanner": False,
            "trump_team_lost": False,
        },
        {
            "winner": "A",
            "value": 3,
            "deltas": {"1": 2, "2": -2, "3": 2, "4": -2},
            "steps": [
                {
                    "what": "team A won 40:0 (21 needed)",
                    "units": 1,
                    "total": 1,
                    "key": "partie",
                    "args": {"team": "A", "score": "40:0"},
                },
                {
                    "what": "schwarz: the losing team took no trick",
                    "units": 1,
                    "total": 2,
                    "key": "schwarz",
                    "args": {},
                },
                {"what": "Konter was said", "units": 1, "total": 3, "key": "konter", "args": {}},
                {"what": "value", "units": 3, "total": 3, "key": "value", "args": {}},
            ],
            "points": {"A": 40, "B": 0},
            "strokes": {"A": 0, "B": 6},
            "carry": 0,
            "game": 1,
            "game_over": True,
            "game_winner": "A",
            "stanner": False,
            "trump_team_lost": True,
        },
    ],
    "totals": {"1": 2, "2": -2, "3": 2, "4": -2},
    "balance": {"1": 2, "2": -2, "3": 2, "4": -2},
    # The next game starts at 3:3 with nothing carried; A has won one game.
    "strokes": {"A": 3, "B": 3},
    "carry": 0,
    "games_won": {"A": 1, "B": 0},
}

MATT_IN = {
    "game": "matt",
    "rules": {"stake_per_point": 1},
    "hands": [
        # Mate on move 7 with the Ace: 7 × 11 = 77 for seat 1.
        {"mated_by": 1, "move": 7, "card": "A"},
        # Both laid a card aside, mate on move 5 with the King: (5 + 1) × 4 = 24 for seat 2.
        {"mated_by": 2, "move": 5, "card": "K", "vorablegen": 2},
        # A draw: nobody scores.
        {"mated_by": None},
        # One laid aside, Übermatt on move 10 with the Queen: (10 + 1) × 3 × 2 = 66 for seat 2.
        {"mated_by": 2, "move": 10, "card": "Q", "vorablegen": 1, "uebermatt": True},
    ],
}
MATT_OUT = {
    "game": "matt",
    "rules": {"preset": "seed", "stake_per_point": 1},
    "hands": [
        {
            "winner": 1,
            "value": 77,
            "deltas": {"1": 77, "2": 0},
            "steps": [
                {"what": "mate on move 7", "units": 7, "total": 7, "key": "move", "args": {"move": 7}},
                {
                    "what": "× 11 for the mating Ace",
                    "units": 70,
                    "total": 77,
                    "key": "card",
                    "args": {"card": "A", "factor": 11},
                },
                {"what": "value", "units": 77, "total": 77, "key": "value", "args": {}},
            ],
            "match": 1,
            "durchgang": 1,
            "match_score": {"1": 77, "2": 0},
            "match_over": False,
            "match_winner": None,
        },
        {
            "winner": 2,
            "value": 24,
            "deltas": {"1": 0, "2": 24},
            "steps": [
                {"what": "mate on move 5", "units": 5, "total": 5, "key": "move", "args": {"move": 5}},
                {
                    "what": "a card was laid aside: one move more",
                    "units": 1,
                    "total": 6,
                    "key": "vorablegen",
                    "args": {"players": 2},
                },
                {
                    "what": "× 4 for the mating King",
                    "units": 18,
                    "total": 24,
                    "key": "card",
                    "args": {"card": "K", "factor": 4},
                },
                {"what": "value", "units": 24, "total": 24, "key": "value", "args": {}},
            ],
            "match": 1,
            "durchgang": 2,
            "match_score": {"1": 77, "2": 24},
            "match_over": False,
            "match_winner": None,
        },
        {
            "winner": None,
            "value": 0,
            "deltas": {"1": 0, "2": 0},
            "steps": [
                {"what": "no mate after 10 moves: a draw", "units": 0, "total": 0, "key": "draw", "args": {}},
                {"what": "value", "units": 0, "total": 0, "key": "value", "args": {}},
            ],
            "match": 1,
            "durchgang": 3,
            "match_score": {"1": 77, "2": 24},
            "match_over": False,
            "match_winner": None,
        },
        {
            "winner": 2,
            "value": 66,
            "deltas": {"1": 0, "2": 66},
            "steps": [
                {"what": "mate on move 10", "units": 10, "total": 10, "key": "move", "args": {"move": 10}},
                {
                    "what": "a card was laid aside: one move more",
                    "units": 1,
                    "total": 11,
                    "key": "vorablegen",
                    "args": {"players": 1},
                },
                {
                    "what": "× 3 for the mating Queen",
                    "units": 22,
                    "total": 33,
                    "key": "card",
                    "args": {"card": "Q", "factor": 3},
                },
                {"what": "Übermatt doubles", "units": 33, "total": 66, "key": "uebermatt", "args": {}},
                {"what": "value", "units": 66, "total": 66, "key": "value", "args": {}},
            ],
            "match": 1,
            "durchgang": 4,
            # 77 against 24 + 66 = 90: seat 2 wins the match.
            "match_score": {"1": 77, "2": 90},
            "match_over": True,
            "match_winner": 2,
        },
    ],
    "totals": {"1": 77, "2": 90},
    # stake_per_point 1 × (77 - 90) = -13 for seat 1, +13 for seat 2.
    "balance": {"1": -13, "2": 13},
    "matches_won": {"1": 0, "2": 1},
}

GOLDEN = {
    "matzlfangen": (MATZLFANGEN_IN, MATZLFANGEN_OUT),
    "schafkopf": (SCHAFKOPF_IN, SCHAFKOPF_OUT),
    "konter_a_matt": (KONTER_A_MATT_IN, KONTER_A_MATT_OUT),
    "matt": (MATT_IN, MATT_OUT),
}


@pytest.mark.parametrize("game", list(GOLDEN))
def test_settle_prints_the_golden_settlement_of_a_session_of_every_game(game: str) -> None:
    session, expected = GOLDEN[game]
    proc = run_settle(json.dumps(session))
    assert proc.returncode == 0
    assert proc.stderr == b""
    text = proc.stdout.decode("utf-8")  # UTF-8 even in the C locale
    lines = text.splitlines()
    assert len(lines) == 1  # compact JSON, one line
    assert golden_view(json.loads(lines[0]), expected) == expected


def test_settle_writes_non_ascii_text_unescaped() -> None:
    proc = run_settle(json.dumps(KONTER_A_MATT_IN))
    assert "Stänner: 2 carried".encode() in proc.stdout  # not escaped as \u00e4
    assert proc.stderr == b""


@pytest.mark.parametrize("game", list(GOLDEN))
def test_settle_text_gives_the_same_golden_settlement(game: str) -> None:
    session, expected = GOLDEN[game]
    assert golden_view(settled(session), expected) == expected


def test_settle_text_writes_non_ascii_text_unescaped() -> None:
    status, answer = settle_text(json.dumps(MATT_IN))
    assert status == 0
    assert "Übermatt doubles" in answer
    assert "\\u" not in answer


@pytest.mark.parametrize("text", [json.dumps(MATT_IN), '{"game": "matt", "hands": [{}]}', "not json"])
def test_settle_text_leaves_the_cycle_collector_as_it_found_it(text: str) -> None:
    """It pauses the collector while it settles (no cycles to find), and only then."""
    assert gc.isenabled()
    settle_text(text)
    assert gc.isenabled()
    gc.disable()
    try:
        settle_text(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_pretty_output_parses_to_the_same_settlement() -> None:
    proc = run_settle(json.dumps(SCHAFKOPF_IN), "--pretty")
    assert proc.returncode == 0
    assert proc.stderr == b""
    text = proc.stdout.decode("utf-8")
    assert len(text.splitlines()) > 1
    assert text.startswith('{\n  "game": "schafkopf"')
    assert golden_view(json.loads(text), SCHAFKOPF_OUT) == SCHAFKOPF_OUT


@pytest.mark.parametrize("game", list(GOLDEN))
def test_pretty_settle_text_parses_to_the_same_as_compact(game: str) -> None:
    session, expected = GOLDEN[game]
    status, pretty = settle_text(json.dumps(session), pretty=True)
    assert status == 0
    assert "\n" in pretty
    compact = json.loads(settle_text(json.dumps(session))[1])
    assert json.loads(pretty) == compact
    assert golden_view(compact, expected) == expected


# --- The worked examples of RULES.md


def test_the_matzlfangen_worked_example_rufen_won_and_raised_to_hirsch_is_worth_6() -> None:
    out = settled({"game": "matzlfangen", "hands": [MATZLFANGEN_IN["hands"][0]]})
    hand = out["hands"][0]
    assert hand["value"] == 6
    assert hand["deltas"] == {"1": 6, "2": -6, "3": -6, "4": 6}  # as in RULES.md's output example
    assert out["totals"] == {"1": 6, "2": -6, "3": -6, "4": 6}


def test_the_schafkopf_worked_example_tout_with_4_runners_is_18_from_each_defender() -> None:
    out = settled({"game": "schafkopf", "hands": [SCHAFKOPF_IN["hands"][0]]})
    hand = out["hands"][0]
    assert hand["value"] == 18  # (5 + 4) × 2
    assert hand["deltas"] == {"1": 54, "2": -18, "3": -18, "4": -18, "pot": 0}  # 3 × 18 = 54


def test_the_output_rules_are_the_complete_rule_set_and_settle_the_same_again() -> None:
    for session, expected in GOLDEN.values():
        again = settled({**session, "rules": expected["rules"]})
        assert golden_view(again, expected) == expected


def test_a_preset_is_named_in_the_output_rules_and_other_keys_override_it() -> None:
    out = settled({"game": "schafkopf", "rules": {"preset": "bavarian", "tariff_solo": 6}, "hands": []})
    assert out["rules"]["preset"] == "bavarian"
    assert out["rules"]["tariff_solo"] == 6  # overridden
    assert out["rules"]["all_pass"] == "ramsch"  # from the preset
    assert out["rules"]["kontra_shifts_threshold"] is False  # from the preset


def test_a_session_without_hands_settles_to_zero() -> None:
    out = settled({"game": "matzlfangen", "hands": []})
    assert out["hands"] == []
    assert out["totals"] == {"1": 0, "2": 0, "3": 0, "4": 0}


def test_rules_may_be_null_like_left_out() -> None:
    assert settled({"game": "matt", "rules": None, "hands": []})["rules"] == {"preset": "seed", "stake_per_point": 0}


def test_settle_imports_nothing_of_the_web_app() -> None:
    # cli.py: "it imports nothing of the web app, so it starts fast and works without a database".
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "manage.py", "settle"],
        input=json.dumps(MATT_IN).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    assert "scorekeeper.engine" in imported  # the measurement works
    assert sorted({name.split(".")[0] for name in imported} & WEB_PACKAGES) == []


# --- Bad input through the real command


def test_input_that_is_not_json_exits_1_with_a_json_error_and_no_traceback() -> None:
    proc = run_settle("this is not json")
    assert proc.returncode == 1
    assert proc.stderr == b""
    error = json.loads(proc.stdout)["error"]
    assert (error["hand"], error["field"]) == (None, "")
    assert error["message"].startswith("the input is not valid JSON")


def test_input_that_is_not_utf8_exits_1_with_a_json_error_and_no_traceback() -> None:
    proc = run_settle(b'{"game": "matt", "hands": [], "x": "\xff\xfe"}')
    assert proc.returncode == 1
    assert proc.stderr == b""
    error = json.loads(proc.stdout)["error"]
    assert (error["hand"], error["field"]) == (None, "")
    assert error["message"].startswith("the input is not valid JSON")


def test_a_bad_hand_in_the_middle_exits_1_naming_it_and_settles_nothing() -> None:
    session = {
        "game": "matzlfangen",
        "hands": [
            {"contract": "durch", "declarer": 1, "won": True},
            {"contract": "rufen", "declarer": 1, "partner": 3, "points": 131},
            {"contract": "durch", "declarer": 2, "won": False},
        ],
    }
    proc = run_settle(json.dumps(session))
    assert proc.returncode == 1
    assert proc.stderr == b""
    assert json.loads(proc.stdout) == {
        "error": {"hand": 1, "field": "points", "message": "points must be between 0 and 130"}
    }


# --- Bad input through settle_text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n",
        "{",
        '{"game": "matt", "hands": []',
        "{'game': 'matt'}",
        "matt",
        '{"game": "matt", "hands": [],}',
    ],
)
def test_text_that_is_not_json_is_refused_as_the_whole_input(text: str) -> None:
    error = refused(text)
    assert (error["hand"], error["field"]) == (None, "")
    assert error["message"].startswith("the input is not valid JSON: ")


@pytest.mark.parametrize("data", [b"\xff", b'{"game": "\xff"}', b'{"game": "matt", "hands": ["\xc3\x28"]}'])
def test_bytes_that_are_not_utf8_are_refused_as_the_whole_input(data: bytes) -> None:
    error = refused(data)
    assert (error["hand"], error["field"]) == (None, "")
    assert error["message"].startswith("the input is not valid JSON: ")


def test_utf8_bytes_are_accepted() -> None:
    status, answer = settle_text(json.dumps(MATT_IN).encode("utf-8"))
    assert status == 0
    assert golden_view(json.loads(answer), MATT_OUT) == MATT_OUT


def test_input_nested_too_deeply_is_refused_without_a_crash() -> None:
    assert refused("[" * 100_000) == {"hand": None, "field": "", "message": "the input is nested too deeply"}


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("[]", "a list"),
        ('[{"game": "matt", "hands": []}]', "a list"),
        ("null", "null"),
        ("5", "a whole number"),
        ("2.5", "a decimal number"),
        ('"matt"', "a text"),
        ("true", "true or false"),
    ],
)
def test_input_that_is_not_a_json_object_is_refused(text: str, what: str) -> None:
    assert refused(text) == {"hand": None, "field": "", "message": f"the input must be an object, not {what}"}


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({"hands": []}, "game", "game is required"),
        ({"game": "matt"}, "hands", "hands is required (a list of hands)"),
        ({"game": "matt", "hands": None}, "hands", "hands is required (a list of hands)"),
        ({"game": "matt", "hands": {}}, "hands", "hands must be a list of hands"),
        ({"game": "matt", "hands": "1,2"}, "hands", "hands must be a list of hands"),
        (
            {"game": "poker", "hands": []},
            "game",
            "game must be one of matzlfangen, schafkopf, konter_a_matt, matt, not 'poker'",
        ),
        (
            {"game": "Matt", "hands": []},
            "game",
            "game must be one of matzlfangen, schafkopf, konter_a_matt, matt, not 'Matt'",
        ),
        ({"game": 5, "hands": []}, "game", "game must be one of matzlfangen, schafkopf, konter_a_matt, matt, not 5"),
        ({"game": "matt", "hands": [], "players": 2}, "players", "unknown field 'players'"),
        ({"game": "matt", "hands": [], "rules": {"stake": 1}}, "rules.stake", "unknown rule 'stake'"),
        (
            {"game": "matzlfangen", "hands": [], "rules": {"tariff_solo": 5}},
            "rules.tariff_solo",
            "unknown rule 'tariff_solo'",
        ),
        ({"game": "matt", "hands": [], "rules": []}, "rules", "rules must be an object, not a list"),
        ({"game": "matt", "hands": [], "rules": "seed"}, "rules", "rules must be an object, not a text"),
        (
            {"game": "schafkopf", "hands": [], "rules": {"preset": "tournament"}},
            "rules.preset",
            "preset must be one of seed, seed-variant, bavarian, turnier, not 'tournament'",
        ),
        (
            {"game": "schafkopf", "hands": [], "rules": {"tariff_solo": "5"}},
            "rules.tariff_solo",
            "tariff_solo must be a whole number, not a text",
        ),
        (
            {"game": "matzlfangen", "hands": [], "rules": {"win_threshold": 131}},
            "rules.win_threshold",
            "win_threshold must be between 1 and 130",
        ),
        (
            {"game": "schafkopf", "hands": [], "rules": {"all_pass": "stock"}},
            "rules.all_pass",
            "all_pass must be one of pot, ramsch, none, redeal, not 'stock'",
        ),
    ],
)
def test_a_bad_session_is_refused_with_hand_null_naming_the_field(payload: Any, field: str, message: str) -> None:
    assert refused(json.dumps(payload)) == {"hand": None, "field": field, "message": message}


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        (5, "", "a hand must be an object, not a whole number"),
        ({"declarer": 1, "won": True}, "contract", "contract is required"),
        ({"contract": "durch", "declarer": 1, "won": True, "bid": 3}, "bid", "unknown field 'bid'"),
        ({"contract": "durch", "declarer": 1, "won": 1}, "won", "won must be true or false, not a whole number"),
        ({"contract": "durch", "declarer": "1", "won": True}, "declarer", "declarer must be a seat number, not a text"),
        (
            {"contract": "durch", "declarer": True, "won": True},
            "declarer",
            "declarer must be a seat number, not true or false",
        ),
        ({"contract": "durch", "declarer": 5, "won": True}, "declarer", "declarer must be a seat from 1 to 4, not 5"),
        (
            {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70.5},
            "points",
            "points must be a whole number, not a decimal number",
        ),
        (
            {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70.0},
            "points",
            "points must be a whole number, not a decimal number",
        ),
        (
            {"contract": "treiben", "declarer": 1, "partner": 3, "points": 70},
            "partner",
            "partner does not apply to treiben",
        ),
    ],
)
def test_a_bad_hand_in_the_middle_is_refused_naming_its_index_and_nothing_is_settled(
    bad: Any, field: str, message: str
) -> None:
    text = json.dumps({"game": "matzlfangen", "hands": [DURCH, DURCH, bad, DURCH]})
    assert refused(text) == {"hand": 2, "field": field, "message": message}


def test_a_bad_hand_of_each_game_is_refused_with_its_index() -> None:
    cases = [
        ("schafkopf", {"contract": "sauspiel", "suit": "herz", "declarer": 1, "partner": 2, "points": 61}, "suit"),
        ("konter_a_matt", {"trump_team": "A", "points_a": 41}, "points_a"),
        ("matt", {"mated_by": 3, "move": 1, "card": "A"}, "mated_by"),
    ]
    for game, bad, field in cases:
        good = GOLDEN[game][0]["hands"][0]
        error = refused(json.dumps({"game": game, "hands": [good, bad]}))
        assert (error["hand"], error["field"]) == (1, field), game


def test_nan_is_not_a_number_of_points() -> None:
    text = '{"game": "matzlfangen", "hands": [{"contract": "rufen", "declarer": 1, "partner": 3, "points": NaN}]}'
    assert refused(text) == {
        "hand": 0,
        "field": "points",
        "message": "points must be a whole number, not a decimal number",
    }


# --- settle() and main() in process


def test_settle_reads_stdin_writes_one_line_and_returns_the_status() -> None:
    out = io.StringIO()
    assert settle(io.StringIO(json.dumps(MATT_IN)), out) == 0
    assert out.getvalue().endswith("\n")
    assert out.getvalue().count("\n") == 1
    assert golden_view(json.loads(out.getvalue()), MATT_OUT) == MATT_OUT


def test_settle_returns_1_and_writes_the_error_for_bad_input() -> None:
    out = io.StringIO()
    assert settle(io.StringIO("[]"), out) == 1
    assert json.loads(out.getvalue()) == {
        "error": {"hand": None, "field": "", "message": "the input must be an object, not a list"}
    }


def test_settle_answers_undecodable_stdin_as_invalid_json() -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe{}"), encoding="utf-8", errors="strict")
    out = io.StringIO()
    assert settle(stdin, out) == 1
    error = json.loads(out.getvalue())["error"]
    assert (error["hand"], error["field"]) == (None, "")
    assert error["message"].startswith("the input is not valid JSON")


class _GoneReader(io.StringIO):
    """Standard output whose reader went away (``settle | head -c 0``)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_settle_does_not_fail_when_the_reader_went_away() -> None:
    assert settle(io.StringIO(json.dumps(MATT_IN)), _GoneReader()) == 0


def test_main_settle_pretty_reads_stdin_and_prints_indented_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(KONTER_A_MATT_IN).encode("utf-8"))))
    assert main(["settle", "--pretty"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out.startswith("{\n")
    assert golden_view(json.loads(out.out), KONTER_A_MATT_OUT) == KONTER_A_MATT_OUT


def test_main_settle_returns_1_for_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"game": "matt"}')))
    assert main(["settle"]) == 1
    assert json.loads(capsys.readouterr().out) == {
        "error": {"hand": None, "field": "hands", "message": "hands is required (a list of hands)"}
    }


# --- The club's data: backup, restore, export-all, import
#
# These run on SQLite in a fresh instance folder, found as ``python manage.py`` finds it (SCOREKEEPER_INSTANCE).


def _make_instance(folder: Path, names: tuple[str, ...]) -> None:
    """The app's database in ``folder`` with the players ``names`` and, with four of them, a night of two hands."""
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.hands import record_hand
    from scorekeeper.core.nights import create_night
    from scorekeeper.core.players import create_player

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(folder)})
    engine = app.extensions["sk_engine"]
    try:
        with database.session(engine) as db:
            people = [create_player(db=db, name=name) for name in names]
            if len(people) >= 4:
                night = create_night(
                    db=db,
                    game="matzlfangen",
                    rules=None,
                    stake_cents=10,
                    player_ids=[p.id for p in people[:4]],
                    first_dealer=1,
                )
                for hand in (
                    {"contract": "rufen", "partner": 3, "points": 70},
                    {"contract": "durch", "declarer": 1, "won": True},
                ):
                    record_hand(db=db, night_id=night.id, hand=hand)
    finally:
        engine.dispose()


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instance folder whose database holds five players (Resi never played) and one night of two hands."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    _make_instance(folder, ("Anna", "Bernd", "Clara", "Dieter", "Resi"))
    return folder


def _club(folder: Path) -> dict[str, Any]:
    """``export-all`` of the database in ``folder``."""
    out = folder.parent / f"club-of-{folder.name}.json"
    assert main(["export-all", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_backup_writes_a_dated_copy_into_the_instance_folder_and_prints_its_path_and_size(
    instance: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup"]) == 0
    [copy] = (instance / "backups").iterdir()
    assert re.fullmatch(r"scorekeeper-\d{8}-\d{6}\.db", copy.name)
    out = capsys.readouterr().out
    assert out == f"backup written: {copy} ({copy.stat().st_size:,} bytes, 1 night, integrity check ok)\n"


def test_backup_writes_to_the_file_or_into_the_folder_it_is_given(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", str(tmp_path / "usb" / "club.db")]) == 0
    assert (tmp_path / "usb" / "club.db").stat().st_size > 0
    assert main(["backup", str(tmp_path / "usb")]) == 0
    assert len(list((tmp_path / "usb").glob("scorekeeper-*.db"))) == 1
    assert main(["backup", str(instance / "scorekeeper.db")]) == 1
    assert "is the database itself" in capsys.readouterr().err


def test_restore_yes_puts_the_backup_back_and_says_so(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _club(instance)
    assert main(["backup", str(tmp_path / "saved.db")]) == 0
    assert main(["import", str(tmp_path / "club-of-instance.json")]) == 0  # harmless: nothing changes
    _make_instance(instance, ("Zenzi", "Xaver"))
    assert len(_club(instance)["players"]) == 7
    capsys.readouterr()

    assert main(["restore", str(tmp_path / "saved.db"), "--yes"]) == 0

    out = capsys.readouterr().out
    assert out.startswith(f"restored {tmp_path / 'saved.db'} into {instance / 'scorekeeper.db'} (1 night)")
    [safety] = (instance / "backups").glob("before-restore-*.db")
    assert out.endswith(f"\nthe database as it was before the restore is kept in {safety}\n")
    assert _club(instance) == before
    assert main(["restore", str(safety), "--yes"]) == 0  # the safety copy undoes the restore
    assert len(_club(instance)["players"]) == 7


@pytest.mark.parametrize("answer, status", [("n\n", 1), ("\n", 1), ("", 1), ("yes\n", 0)])
def test_restore_asks_before_it_replaces_the_database(
    instance: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    status: int,
) -> None:
    assert main(["backup", str(tmp_path / "saved.db")]) == 0
    _make_instance(instance, ("Zenzi",))
    changed = _club(instance)
    monkeypatch.setattr(sys, "stdin", io.StringIO(answer))
    capsys.readouterr()

    assert main(["restore", str(tmp_path / "saved.db")]) == status

    captured = capsys.readouterr()
    assert "Everything recorded since that backup is lost. [y/N]" in captured.out
    if status:
        assert captured.err == "restore cancelled: nothing changed\n"
        assert _club(instance) == changed
    else:
        assert "Zenzi" not in [p["name"] for p in _club(instance)["players"]]


def test_restore_of_a_file_that_is_no_backup_exits_1_with_one_line_and_changes_nothing(
    instance: Path, tmp_path: Path
) -> None:
    before = _club(instance)
    notes = tmp_path / "notes.txt"
    notes.write_text("Anna owes Bernd 2,40\n" * 50, encoding="utf-8")
    env = {"SCOREKEEPER_INSTANCE": str(instance)}

    proc = run_manage("restore", str(notes), "--yes", env=env)

    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == f"nothing restored: {notes} is not a SQLite database (file is not a database)\n"
    assert _club(instance) == before
    proc = run_manage("restore", str(tmp_path / "missing.db"), "--yes", env=env)
    assert (proc.returncode, proc.stderr) == (1, f"nothing restored: {tmp_path / 'missing.db'} is not a file\n")


def test_restore_of_a_file_without_the_whole_schema_exits_1_with_one_line_and_the_app_still_starts(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3
    from contextlib import closing

    before = _club(instance)
    bad = tmp_path / "bad.db"
    assert main(["backup", str(bad)]) == 0
    with closing(sqlite3.connect(bad)) as connection:  # the attack: the night table at the newest version, nothing else
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('evening', 'alembic_version')"
            " AND name NOT LIKE 'sqlite_%'"
        ).fetchall():
            connection.execute(f"DROP TABLE {name}")
        connection.commit()
    live = instance / "scorekeeper.db"
    content, folder = live.read_bytes(), sorted(instance.iterdir())
    capsys.readouterr()

    assert main(["restore", str(bad), "--yes"]) == 1

    captured = capsys.readouterr()
    assert captured.out == ""
    refusal = f"nothing restored: {bad} does not have the schema of Scorekeeper: it has no table "
    assert captured.err.startswith(refusal)
    assert re.fullmatch(r"[a-z_, ]*\n", captured.err.removeprefix(refusal))  # table names, one line
    assert "night_result" in captured.err
    assert live.read_bytes() == content
    assert sorted(instance.iterdir()) == folder  # no temporary file, no safety copy
    assert main(["init-db"]) == 0  # the app starts
    assert _club(instance) == before


def test_restore_that_fails_during_the_swap_says_the_database_is_as_it_was(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    from scorekeeper.core import backup

    assert main(["backup", str(tmp_path / "saved.db")]) == 0
    _make_instance(instance, ("Zenzi",))
    before = _club(instance)
    real_copy_into = backup._copy_into
    calls: list[Path] = []

    def fail_once(source: Path, target: Path) -> None:
        calls.append(source)
        if len(calls) == 1:
            real_copy_into(source, target)
            raise sqlite3.OperationalError("disk I/O error")
        real_copy_into(source, target)

    monkeypatch.setattr(backup, "_copy_into", fail_once)
    capsys.readouterr()

    assert main(["restore", str(tmp_path / "saved.db"), "--yes"]) == 1

    [safety] = (instance / "backups").glob("before-restore-*.db")
    captured = capsys.readouterr()
    assert captured.err == (
        f"restore failed: the restore into {instance / 'scorekeeper.db'} failed, the database is as it was"
        f" (a copy of it is kept in {safety}): disk I/O error\n"
    )
    assert _club(instance) == before


@pytest.mark.parametrize(
    "args, tool",
    [(["backup"], "pg_dump -Fc"), (["restore", "club.dump", "--yes"], "pg_restore (or psql for a plain SQL dump)")],
)
def test_backup_and_restore_refuse_postgresql_pointing_to_its_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], tool: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "postgresql://scorekeeper:secret@db.example/club")

    assert main(args) == 1

    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(f"the database is PostgreSQL, not SQLite: use {tool} (see docs/backup.md)\n")
    assert captured.err.count("\n") == 1
    assert not (tmp_path / "instance").exists()  # nothing was made, nothing was connected to


def test_export_all_then_import_into_another_database_and_again_changes_nothing(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "club.json"
    assert main(["export-all", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: the club with 5 players, 0 roster changes and 1 night\n"
    other = tmp_path / "other"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(other))

    assert main(["import", str(out)]) == 0
    assert capsys.readouterr().out == (
        "club imported: players 5 new, 0 already there; roster changes 0 new, 0 already there; "
        "nights 1 new, 0 already there\n"
    )
    assert main(["import", str(out)]) == 0
    assert capsys.readouterr().out == (
        "the club was imported before: nothing changed (players 0 new, 5 already there; "
        "roster changes 0 new, 0 already there; nights 0 new, 1 already there)\n"
    )
    assert _club(other) == json.loads(out.read_text(encoding="utf-8"))


def test_import_of_a_club_file_with_a_bad_night_exits_1_naming_the_place_and_imports_nothing(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _club(instance)
    data["nights"][0]["hands"][1]["data"]["won"] = "yes"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(other))
    capsys.readouterr()

    assert main(["import", str(bad)]) == 1

    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: nights[0].hands[1].data.won: ")
    assert err.endswith("\nnothing was imported\n")
    assert _club(other)["players"] == []


def test_export_all_to_a_file_that_cannot_be_written_exits_1(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export-all", str(tmp_path / "no-such-folder" / "club.json")]) == 1
    assert capsys.readouterr().err.startswith(f"cannot write {tmp_path / 'no-such-folder' / 'club.json'}: ")


def test_verify_finds_every_night_equal_to_a_fresh_settle_and_says_so(instance, capsys):
    assert main(["verify"]) == 0
    assert "equal a fresh settle" in capsys.readouterr().out


def test_verify_names_a_night_whose_stored_result_was_changed_and_exits_1(instance, capsys):
    import sqlite3
    from contextlib import closing

    # a stored result changed behind the app's back (closed at once: "with connect()" alone only commits)
    with closing(sqlite3.connect(instance / "scorekeeper.db")) as conn, conn:
        conn.execute("UPDATE handrecord SET result = json_set(result, '$.value', 999) WHERE number = 1")
    assert main(["verify"]) == 1
    err = capsys.readouterr().err
    assert "night 1: hand 1" in err and "1 night(s) differ from a fresh settle" in err
