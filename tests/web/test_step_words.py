"""Issue 14 (3, 6, 8): the steps in players' words: the contract as players write it, the pot's moves
(so a hand visibly adds up), Matt's mating card as the table calls it."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand
from scorekeeper.engine import Step, settle_json
from scorekeeper.engine.matt import CARD_VALUES
from scorekeeper.engine.matzlfangen import CONTRACTS as MATZLFANGEN_CONTRACTS
from scorekeeper.engine.schafkopf import CONTRACTS as SCHAFKOPF_CONTRACTS
from scorekeeper.engine.schafkopf import SUITS
from scorekeeper.web.labels import CARD_LABELS, card_name, contract_name
from scorekeeper.web.steps import TEXTS, step_text
from tests.support import start_night

#: Every contract as players write it, from the args of its first step.
NAMES = [
    ({"contract": "rufen"}, "Rufen"),
    ({"contract": "treiben"}, "Treiben"),
    ({"contract": "neidspiel"}, "Neidspiel"),
    ({"contract": "durch"}, "Durch"),
    ({"contract": "trumpf_durch"}, "Trumpf-Durch"),
    ({"contract": "sauspiel", "suit": "gras"}, "Sauspiel"),
    ({"contract": "wenz"}, "Wenz"),
    ({"contract": "solo", "suit": "eichel"}, "Eichel-Solo"),
    ({"contract": "solo", "suit": "gras"}, "Gras-Solo"),
    ({"contract": "solo", "suit": "herz"}, "Herz-Solo"),
    ({"contract": "solo", "suit": "schellen"}, "Schellen-Solo"),
    ({"contract": "rundpass"}, "Rundpass"),
    ({"contract": "ramsch"}, "Ramsch"),
    # results stored before the steps named the suit: a Solo's trumps are in its English name
    ({"contract": "solo", "name": "gras solo"}, "Gras-Solo"),
    ({"contract": "solo", "name": "solo"}, "Herz-Solo"),
]


@pytest.mark.parametrize(("args", "name"), NAMES, ids=[n for _, n in NAMES[:-2]] + ["stored gras solo", "stored solo"])
def test_a_contract_is_named_as_players_write_it(args, name):
    assert contract_name(args) == name


def test_every_contract_of_schafkopf_and_matzlfangen_has_a_players_name_without_a_key_in_it():
    for contract in (*SCHAFKOPF_CONTRACTS, *MATZLFANGEN_CONTRACTS):
        for suit in SUITS if contract == "solo" else (None,):
            name = contract_name({"contract": contract, "suit": suit})
            assert name[0].isupper() and "_" not in name and " solo" not in name, name


def test_a_tout_is_named_after_its_contract():
    assert contract_name({"contract": "solo", "suit": "gras"}, tout=True) == "Gras-Solo Tout"
    assert contract_name({"contract": "wenz"}, tout=True) == "Wenz Tout"


def test_every_mating_card_of_matt_has_a_label():
    assert set(CARD_LABELS) == set(CARD_VALUES)


# --- the step texts, in both languages ---------------------------------------------------------


def texts(app, lang: str, payload: dict) -> list[list[str]]:
    """Each hand's steps as the pages say them in ``lang``."""
    with app.test_request_context(f"/?lang={lang}"):
        return [[step_text(Step.from_json(s)) for s in h["steps"]] for h in settle_json(payload)["hands"]]


SCHAFKOPF = {
    "game": "schafkopf",
    "hands": [
        {"contract": "rundpass"},
        {"contract": "sauspiel", "suit": "gras", "declarer": 1, "partner": 3, "points": 111},
        {"contract": "rundpass"},
        {"contract": "sauspiel", "suit": "eichel", "declarer": 2, "partner": 4, "points": 40},
        {"contract": "solo", "suit": "gras", "declarer": 1, "points": 67},
        {"contract": "solo", "suit": "herz", "declarer": 2, "tout": True, "won": False},
        {"contract": "wenz", "declarer": 3, "points": 50},
    ],
}


def test_the_german_steps_name_the_contracts_and_show_the_pot_so_each_hand_adds_up(app):
    rundpass, won, rundpass2, lost, solo, tout, wenz = texts(app, "de", SCHAFKOPF)
    # each pays 2 (the value) and the pot gets the 8: it holds 8
    assert rundpass == ["Rundpass: jeder zahlt 2 in den Stock", "+8 in den Stock, im Stock: 8", "Wert"]
    # the Sauspiel is worth 2 + 1 (schneider); the winners each take 4 of the 8: 3 + 4 = +7 each
    assert won[0] == "Sauspiel gewonnen mit 111 Augen (61 nötig)"
    assert won[-2:] == ["Spieler und Partner nehmen je 4 aus dem Stock (-8), im Stock: 0", "Wert"]
    assert rundpass2[1] == "+8 in den Stock, im Stock: 8"
    # lost: the losers each pay 4 into the pot, which doubles to 16
    assert lost[0] == "Sauspiel verloren mit 40 Augen (61 nötig)"
    assert lost[-2] == "Spieler und Partner zahlen je 4 in den Stock, der sich verdoppelt (+8), im Stock: 16"
    assert solo[0] == "Gras-Solo gewonnen mit 67 Augen (61 nötig)"
    assert tout[0] == "Herz-Solo Tout verloren"
    assert wenz[0] == "Wenz verloren mit 50 Augen (61 nötig)"


def test_the_english_steps_keep_the_game_words(app):
    rundpass, won, _, lost, solo, tout, wenz = texts(app, "en", SCHAFKOPF)
    assert rundpass[:2] == [
        "Rundpass (everybody passed): each player pays 2 into the pot",
        "+8 into the pot, the pot holds 8",
    ]
    assert won[0] == "Sauspiel won with 111 (61 needed)"
    assert won[-2] == "Declarer and partner take 4 each from the pot (-8), the pot holds 0"
    assert lost[-2] == "Declarer and partner pay 4 each into the pot, doubling it (+8), the pot holds 16"
    assert (solo[0], tout[0], wenz[0]) == (
        "Gras-Solo won with 67 (61 needed)",
        "Herz-Solo Tout lost",
        "Wenz lost with 50 (61 needed)",
    )


def test_no_step_text_shows_a_lowercase_contract_key(app):
    payloads = [
        SCHAFKOPF,
        {"game": "schafkopf", "rules": {"all_pass": "none"}, "hands": [{"contract": "rundpass"}]},
        {
            "game": "schafkopf",
            "rules": {"all_pass": "ramsch"},
            "hands": [
                {"contract": "ramsch", "points": {"1": 50, "2": 40, "3": 30, "4": 0}, "jungfrau": [4]},
                {"contract": "ramsch", "durchmarsch": 2, "jungfrau": [1, 3, 4]},
            ],
        },
        {
            "game": "matzlfangen",
            "hands": [
                {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70},
                {"contract": "trumpf_durch", "declarer": 2, "won": True},
                {"contract": "durch", "declarer": 2, "won": False},
                {"contract": "neidspiel", "declarer": 2, "points": 30},
            ],
        },
    ]
    keys = re.compile(r"\b(" + "|".join((*SCHAFKOPF_CONTRACTS, *MATZLFANGEN_CONTRACTS, *SUITS)) + r")\b|solo")
    for lang in ("de", "en"):
        for payload in payloads:
            for hand in texts(app, lang, payload):
                for text in hand:
                    assert not keys.search(text), (lang, text)


def test_the_ramsch_and_matzlfangen_steps_name_their_contract(app):
    ramsch = {
        "game": "schafkopf",
        "rules": {"all_pass": "ramsch"},
        "hands": [
            {"contract": "ramsch", "points": {"1": 50, "2": 40, "3": 30, "4": 0}},
            {"contract": "ramsch", "durchmarsch": 2},
        ],
    }
    most, durchmarsch = texts(app, "de", ramsch)
    assert most[0] == "Ramsch: die meisten Augen (50) verlieren: 1"
    assert durchmarsch[0] == "Ramsch: Durchmarsch von 2"
    matzl = {
        "game": "matzlfangen",
        "hands": [
            {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70},
            {"contract": "trumpf_durch", "declarer": 2, "won": True},
        ],
    }
    rufen, trumpf_durch = texts(app, "de", matzl)
    assert rufen[0] == "Rufen gewonnen mit 70 Augen (66 nötig)"
    assert trumpf_durch[0] == "Trumpf-Durch gewonnen: alle Stiche"
    assert (
        texts(app, "de", {"game": "schafkopf", "rules": {"all_pass": "none"}, "hands": [{"contract": "rundpass"}]})[0][
            0
        ]
        == "Rundpass: niemand zahlt"
    )


# --- Matt's mating card ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "german", "english"),
    [("Q", "Dame", "Queen"), ("K", "König", "King"), ("A", "Ass", "Ace"), ("10", "10", "10"), ("7", "7", "7")],
)
def test_the_mating_card_is_named_as_the_table_calls_it(app, card, german, english):
    payload = {"game": "matt", "hands": [{"mated_by": 1, "move": 2, "card": card}]}
    factor = CARD_VALUES[card]
    assert texts(app, "de", payload)[0][1] == f"× {factor} für die Mattkarte {german}"
    assert texts(app, "en", payload)[0][1] == f"× {factor} for the mating card {english}"
    with app.test_request_context("/?lang=de"):
        assert card_name(card) == german


# --- on the table page ---------------------------------------------------------------------------


def test_the_table_page_shows_the_pot_in_the_steps_of_a_hand(client, db, players):
    night = start_night(db, players, game="schafkopf")
    for hand in SCHAFKOPF["hands"][:2]:
        record_hand(db=db, night_id=night.id, hand=hand)
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    assert "+8 in den Stock, im Stock: 8" in page
    assert "Spieler und Partner nehmen je 4 aus dem Stock (-8), im Stock: 0" in page
    assert "Sauspiel gewonnen mit 111 Augen" in page and "sauspiel gewonnen" not in page


def test_every_step_key_of_the_engine_has_a_text():
    # the keys the engine's steps have (docs/rules.md lists Schafkopf's): a key without a text falls back to English
    schafkopf = {
        "points", "tout", "schneider", "schwarz", "laufende", "tout_doubles", "kontra", "re", "klopfen",
        "rundpass_none", "rundpass_pot", "rundpass_redeal", "pot_in", "pot_out", "pot_doubled", "durchmarsch", "ramsch",
        "jungfrau", "jungfrau_own", "ramsch_all_tied", "value",
    }  # fmt: skip
    assert schafkopf <= set(TEXTS)
