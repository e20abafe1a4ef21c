"""Issue 26.1: each game says what changed a hand's value (``Game.marks``), from its own facts."""

from __future__ import annotations

import pytest

from scorekeeper.engine import GAMES


def marks(game: str, hands: list[dict], rules: dict | None = None) -> list[list[tuple[str, dict]]]:
    g = GAMES[game]
    parsed_rules = g.parse_rules(rules)
    parsed, results, _ = g.settle_from(parsed_rules, hands, g.initial_state(parsed_rules))
    return [[(m.key, dict(m.args)) for m in g.marks(parsed_rules, h, r)] for h, r in zip(parsed, results, strict=True)]


def keys(game: str, hands: list[dict], rules: dict | None = None) -> list[list[str]]:
    return [[key for key, _ in hand] for hand in marks(game, hands, rules)]


def test_a_schafkopf_hand_is_marked_by_kontra_re_schneider_schwarz_runners_knocks_and_tout():
    hands = [
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 50, "laufende": 3}
        | {"kontra": True, "re": True},
        {"contract": "solo", "suit": "herz", "declarer": 2, "points": 120, "schwarz": True, "klopfen": 3},
        {"contract": "wenz", "declarer": 3, "tout": True, "won": True},
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70, "laufende": 2},
    ]
    assert keys("schafkopf", hands) == [
        ["laufende", "kontra", "re"],
        ["schneider", "schwarz", "klopfen"],
        ["tout_doubles"],
        [],  # 2 runners are not paid (from 3 on): nothing changed the value
    ]
    assert marks("schafkopf", hands)[1][2] == ("klopfen", {"knock": 3, "count": 3})  # three knocks, one mark


def test_a_matzl_caught_is_marked_with_what_it_did():
    hands = [
        {"contract": "rufen", "declarer": 1, "partner": 3, "points": 50, "matzl": "declarers"},
        {"contract": "rufen", "declarer": 1, "partner": 3, "points": 80, "matzl": "declarers"},
        {"contract": "rufen", "declarer": 1, "partner": 3, "points": 80, "matzl": "declarers", "matzl_claimed": False},
        {"contract": "treiben", "declarer": 2, "points": 20, "raises": 2},
    ]
    expected = [["matzl_annuls"], ["matzl_bonus"], ["matzl_unclaimed"], ["no_water", "raises"]]
    assert keys("matzlfangen", hands) == expected
    no_effect = keys("matzlfangen", hands[:1], {"matzl_annuls_loss": False})
    assert no_effect == [["matzl_no_effect"]]


def test_a_konter_a_matt_partie_names_its_trump_team_first_then_what_made_it_worth_more():
    hands = [{"trump_team": "B", "points_a": 20}, {"trump_team": "B", "points_a": 40, "schwarz": True, "konter": True}]
    got = marks("konter_a_matt", hands)
    side = ("side", {"word": "trumps", "team": "B", "seats": [2, 4]})
    assert got[0] == [side, ("stanner", {"carried": 1, "count": 1})]
    assert [key for key, _ in got[1]] == ["side", "schwarz", "konter", "carry"]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ({"mated_by": 1, "move": 10, "card": "A", "vorablegen": 1, "uebermatt": True}, ["vorablegen", "uebermatt"]),
        ({"mated_by": 2, "move": 3, "card": "K"}, []),
        ({"mated_by": None}, []),
    ],
)
def test_a_durchgang_is_marked_by_vorablegen_and_uebermatt(hand, expected):
    assert keys("matt", [hand]) == [expected]
