"""The nights list's top player (docs/rules.md, "A night's top player"): everybody who ties for the top is
named, at a night played for money as at a stake of 0; and the figure is the settlement's: with a pot shared
out at the close, its share is in a money night's figure (the settlement's money), while a night at a stake
of 0 names its top by the settlement's units column (which carries no share of a pot: "Shared out at the
close.").

The nights, worked out by hand from docs/rules.md (Anna deals first at a table of four: Anna, Bernd, Clara,
Dieter):

- ``RUFEN_WON`` (Matzlfangen): Bernd (forehand) calls Clara and wins with 70: 1 unit each, Bernd +1, Clara +1,
  Anna -1, Dieter -1: Bernd and Clara tie (0.10 EUR each at 10 cents, 1 unit each at a stake of 0).
- ``SPLIT`` (Schafkopf, the pot split at the close): a Rundpass (-2 each, the pot 8), Clara's Sauspiel with
  Dieter won (+2 each and 4 each from the pot), a Rundpass (-2 each, the pot 8): Anna -6, Bernd -6, Clara +2,
  Dieter +2 units. At 10 cents the pot's 0.80 EUR is shared, 0.20 EUR each: Clara and Dieter +0.40 EUR each.
  At a stake of 0 the settlement says Clara and Dieter 2 units each.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from scorekeeper.core import history_pages
from scorekeeper.core.hands import add_hands
from scorekeeper.core.nights import close_night
from tests.support import SAUSPIEL_CLARA, answer_text, page_text, start_night

RUFEN_WON = {"contract": "rufen", "partner": 3, "points": 70}
DURCH_WON = {"contract": "durch", "declarer": 1, "won": True}  # Anna: 6 units from each defender
SPLIT = [{"contract": "rundpass"}, SAUSPIEL_CLARA, {"contract": "rundpass"}]


def night_of(db, players, hands, stake_cents, game="matzlfangen", played_on=date(2026, 3, 1), closed=False):
    night = start_night(db, players, game, 4, stake_cents=stake_cents, played_on=played_on)
    add_hands(db=db, night_id=night.id, hands=hands)
    if closed:
        close_night(db=db, night_id=night.id)
    return night


def leaders(db) -> list:
    return [i.leader for i in history_pages.nights_page(db=db, filters=history_pages.NightFilter()).items]


def settlement_units(client, night_id: int) -> dict[str, int]:
    """The settlement's balance at a stake of 0: each player's units, as its page shows them."""
    page = client.get(f"/nights/{night_id}/summary?lang=en").get_data(as_text=True)
    table = re.search(r'<table class="balance"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    assert table, page
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    cells = [[page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]
    return {name: int(units) for name, units in cells}


@pytest.mark.parametrize(("stake", "value"), [(10, 10), (0, 1)])
def test_every_player_who_ties_for_the_top_is_named_in_seat_order(db, players, stake, value):
    night_of(db, players, [RUFEN_WON], stake)
    assert leaders(db) == [(("Bernd", "Clara"), value)]


def test_one_player_at_the_top_is_named_alone(db, players):
    night_of(db, players, [RUFEN_WON, DURCH_WON], 0)  # Anna +17, Bernd -5, Clara -5, Dieter -7
    assert leaders(db) == [(("Anna",), 17)]


def test_the_nights_list_says_who_tie_and_what_each_won_in_both_languages(client, db, players):
    night_of(db, players, [RUFEN_WON], 10, played_on=date(2026, 3, 2))
    night_of(db, players, [RUFEN_WON], 0, played_on=date(2026, 3, 1))
    english = answer_text(client.get("/nights/?lang=en"))
    assert "top: Bernd, Clara 0.10 EUR each" in english and "top: Bernd, Clara 1 unit each" in english
    german = answer_text(client.get("/nights/?lang=de"))
    assert "vorne: Bernd, Clara je 0,10 EUR" in german and "vorne: Bernd, Clara je 1 Einheit" in german
    page = client.get("/nights/?lang=de").get_data(as_text=True)  # held together on a phone's line
    assert "je\xa00,10\xa0EUR" in page and "je\xa01\xa0Einheit" in page


def test_a_money_nights_top_players_have_their_share_of_a_split_pot(client, db, players):
    """The settlement's money: Clara and Dieter +0.20 EUR of units and +0.20 EUR of the pot each."""
    night_of(db, players, SPLIT, 10, game="schafkopf", closed=True)
    assert leaders(db) == [(("Clara", "Dieter"), 40)]
    assert "top: Clara, Dieter 0.40 EUR each" in answer_text(client.get("/nights/?lang=en"))


def test_a_night_at_a_stake_of_0_names_its_top_players_by_the_settlements_units(client, db, players):
    """With its pot shared out at the close: the nights list names whom the settlement's units put on top,
    and with their figure."""
    night = night_of(db, players, SPLIT, 0, game="schafkopf", closed=True)
    units = settlement_units(client, night.id)
    assert units == {"Anna": -6, "Bernd": -6, "Clara": 2, "Dieter": 2}
    top = max(units.values())
    assert leaders(db) == [(tuple(name for name, u in units.items() if u == top), top)]
    assert "top: Clara, Dieter 2 units each" in answer_text(client.get("/nights/?lang=en"))
