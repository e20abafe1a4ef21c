"""Issue 26.1, 26.2 and 26.4: a hand's steps are lines a player reads on their own, so each begins with a capital
letter; a field's refusals say its label first, apart ("Trumps chosen by: missing."), since a label ending in
"by"/"von" begins no sentence ("Trumps chosen by is required" reads wrongly)."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest

from scorekeeper.core.hands import record_hand
from tests.support import start_night, submit
from tests.web.test_page_words import errors_at

#: For each game, hands whose steps between them say most of what the game's steps can say.
HANDS = [
    (
        "schafkopf",
        4,
        {"preset": "bavarian"},
        [
            {
                "contract": "sauspiel",
                "declarer": 1,
                "partner": 3,
                "suit": "gras",
                "points": 95,
                "laufende": 3,
                "kontra": True,
                "re": True,
            },
            {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 20},
            {"contract": "solo", "declarer": 3, "suit": "herz", "tout": True, "won": True},
            {"contract": "ramsch", "durchmarsch": 1},
            {"contract": "ramsch", "points": {"1": 50, "2": 30, "3": 40, "4": 0}},
        ],
    ),
    (
        "matzlfangen",
        4,
        None,
        [
            {"contract": "rufen", "partner": 4, "points": 70, "raises": 5, "matzl": "declarers", "matzl_claimed": True},
            {"contract": "treiben", "declarer": 2, "points": 130, "schwarz": True},
            {"contract": "durch", "declarer": 1, "won": True},
        ],
    ),
    (
        "konter_a_matt",
        4,
        None,
        [
            {"trump_team": "A", "points_a": 25, "matt": True, "konter": True},
            {"trump_team": "B", "points_a": 20},
            {"trump_team": "B", "points_a": 0, "schwarz": True},
        ],
    ),
    ("matt", 2, None, [{"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": None}]),
]


def step_lines(page: str) -> list[str]:
    """The table page's steps, one text a line (static/style.css .steps)."""
    return [html.unescape(s).strip() for s in re.findall(r'<span class="step">(.*?)</span>', page, re.S)]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("game", "seats", "rules", "hands"), HANDS, ids=[h[0] for h in HANDS])
def test_every_step_of_a_hand_begins_with_a_capital_letter(client, db, players, game, seats, rules, hands, lang):
    night = start_night(db, players, game, seats, rules, played_on=date(2026, 11, 26))
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)
    lines = step_lines(client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True))
    assert len(lines) > len(hands)  # every hand says at least what it was and its value
    lower = [line for line in lines if line[:1].islower()]
    assert lower == [], lines


@pytest.mark.parametrize(
    ("game", "fields", "field", "en", "de"),
    [
        (
            "konter_a_matt",
            {"trump_team": None, "points_a": 25},
            "trump_team",
            "Trumps chosen by",
            "Trumpf bestimmt von",
        ),
        ("matt", {"mated_by": 1, "move": 7, "card": None}, "card", "Mating card", "Mattkarte"),
    ],
)
def test_a_missing_value_says_the_label_apart_so_a_label_ending_in_by_reads_right(
    client, db, players, game, fields, field, en, de
):
    seats = 2 if game == "matt" else 4
    night = start_night(db, players, game, seats)
    for lang, label, missing in (("en", en, "missing."), ("de", de, "fehlt.")):
        answer = submit(client, night.id, fields, lang=lang)
        assert answer.status_code == 400
        assert errors_at(answer.get_data(as_text=True), field) == [f"{label}: {missing}"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Points of team A: must be between 0 and 40."),
        ("de", "Punkte von Team A: muss zwischen 0 und 40 liegen."),
    ],
)
def test_a_number_out_of_range_says_the_label_apart(client, db, players, lang, said):
    night = start_night(db, players, "konter_a_matt", 4)
    answer = submit(client, night.id, {"trump_team": "A", "points_a": 99}, lang=lang)
    assert answer.status_code == 400
    assert errors_at(answer.get_data(as_text=True), "points_a") == [said]
