"""The nights list's place filter offers the places of the nights it lists (a tournament's table's is none); a
player page's tiles say their counts in the singular or the plural ("1 night", "1 Abend").

``RUFEN_WON`` (Matzlfangen; Anna deals first at a table of four: Anna, Bernd, Clara, Dieter): Bernd (forehand)
calls Clara and wins with 70: Bernd +1, Clara +1, Anna -1, Dieter -1 units.
"""

from __future__ import annotations

import re

from scorekeeper.core import history_pages
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import add_hands
from scorekeeper.core.nights import change_night, create_night
from tests.support import page_text
from tests.support_history import night_in
from tests.support_tournament import make_tournament

RUFEN_WON = {"contract": "rufen", "partner": 3, "points": 70}


def tiles(page: str) -> list[str]:
    """The player page's figure tiles, each one's words."""
    found = re.findall(r"<div><strong>(.*?)</strong><span>(.*?)</span></div>", page, re.S)
    assert found, page
    return [page_text(f"{figure} {word}") for figure, word in found]


def test_the_place_filter_offers_no_tournament_tables_place(client, db, players):
    night = night_in(db, players, [RUFEN_WON], "EUR")
    change_night(db=db, night_id=night.id, played_on=night.played_on, place="Zum Ochsen")
    t = make_tournament(db, 8)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    change_night(db=db, night_id=table.id, played_on=table.played_on, place="Pfarrsaal")
    assert history_pages.places(db) == ["Zum Ochsen"]
    page = client.get("/nights/?lang=en").get_data(as_text=True)
    assert 'value="Zum Ochsen"' in page and "Pfarrsaal" not in page


def test_the_player_pages_tiles_say_one_night_and_one_hand(client, db, players):
    night_in(db, players, [RUFEN_WON], "EUR")
    anna = players[0]
    assert tiles(client.get(f"/players/{anna.id}?lang=en").get_data(as_text=True))[:2] == ["1 night", "1 hand"]
    assert tiles(client.get(f"/players/{anna.id}?lang=de").get_data(as_text=True))[:2] == ["1 Abend", "1 Spiel"]


def test_a_player_at_a_stake_of_0_has_a_units_tile_in_the_singular(client, db, players):
    """At a stake of 0, Bernd's Rufen won: +1 unit, "1 unit", "1 Einheit"."""
    night = create_night(
        db=db, game="matzlfangen", rules=None, stake_cents=0, player_ids=[p.id for p in players[:4]], first_dealer=1
    )
    add_hands(db=db, night_id=night.id, hands=[RUFEN_WON])
    bernd = players[1]
    assert tiles(client.get(f"/players/{bernd.id}?lang=en").get_data(as_text=True)) == ["1 night", "1 hand", "1 unit"]
    assert tiles(client.get(f"/players/{bernd.id}?lang=de").get_data(as_text=True)) == [
        "1 Abend",
        "1 Spiel",
        "1 Einheit",
    ]
