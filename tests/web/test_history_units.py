"""The history pages and a night played at a stake of 0 (for its units alone), and a redeal on them.

A stake of 0 has no money anywhere, and its units stay (docs/rules.md, "Played for money"; "The club's
history"): the leaderboard, a player's page and the nights list show the units of such a night, add
them up with the units of the nights played for money, and name a night's top player by units. A
redeal (Schafkopf's all-pass under ``all_pass: "redeal"``: the same dealer deals again) is no hand played.

The nights, worked out by hand from RULES.md (Anna deals first at a table of four: Anna, Bernd, Clara, Dieter):

- ``FOR_UNITS``, a Matzlfangen: hand 1, Bernd (forehand) calls Clara and wins with 70: 1 unit each, Bernd +1,
  Clara +1, Anna -1, Dieter -1; hand 2, Anna plays Durch and wins: 6 units from each defender, Anna +18,
  Bernd -6, Clara -6, Dieter -6. The night: Anna +17, Bernd -5, Clara -5, Dieter -7.
- ``FOR_MONEY``, a Matzlfangen: hand 1 as above: Bernd +1, Clara +1, Anna -1, Dieter -1.
"""

from __future__ import annotations

import re
from datetime import date

from sqlmodel import select

from scorekeeper.core import history_pages
from scorekeeper.core.hands import add_hands
from scorekeeper.core.history import refresh_redealt, verify_night
from scorekeeper.core.models import NightResult
from tests.support import answer_text, page_text, start_night

RUFEN_WON = {"contract": "rufen", "partner": 3, "points": 70}  # Bernd (forehand) and Clara win: 1 unit each
DURCH_WON = {"contract": "durch", "declarer": 1, "won": True}  # Anna: 6 units from each defender
FOR_UNITS = [RUFEN_WON, DURCH_WON]
FOR_MONEY = [RUFEN_WON]


def night_of(db, players, hands, played_on, stake_cents, game="matzlfangen", rules=None):
    night = start_night(db, players, game, 4, rules, stake_cents=stake_cents, played_on=played_on)
    add_hands(db=db, night_id=night.id, hands=hands)
    return night


def standings(page: str) -> list[list[str]]:
    """The leaderboard's rows, each cell's words."""
    body = re.search(r'<table class="stats standings">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, page
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    return [[page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def cells(page: str) -> list[list[str]]:
    """A player's page's table rows, each cell's words."""
    rows = re.findall(r"<tr>(<td>.*?)</tr>", page, re.S)
    return [[page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def heads(page: str) -> list[str]:
    head = re.search(r'<table class="stats standings">\s*<thead><tr>(.*?)</tr>', page, re.S)
    return [page_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)]


# --- 3. the nights list ------------------------------------------------------------------------------------


def test_the_nights_list_names_the_top_player_of_a_night_at_a_stake_of_0_by_units(client, db, players):
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    page = history_pages.nights_page(db=db, filters=history_pages.NightFilter())
    assert [i.leader for i in page.items] == [("Bernd", 10), ("Anna", 17)]  # by money, by units
    text = answer_text(client.get("/nights/?lang=en"))
    assert "top: Bernd 0.10 EUR" in text and "top: Anna 17 units" in text
    assert "vorne: Anna 17 Einheiten" in answer_text(client.get("/nights/?lang=de"))


def test_a_night_for_honour_names_no_top_player(db, players):
    konter = [{"trump_team": "A", "points_a": 30}, {"trump_team": "B", "points_a": 10}]
    night_of(db, players, konter, date(2026, 3, 1), 10, game="konter_a_matt")
    page = history_pages.nights_page(db=db, filters=history_pages.NightFilter())
    assert [i.leader for i in page.items] == [None]


# --- 4. a redeal is no hand played ------------------------------------------------------------------------

#: Schafkopf under all_pass "redeal", 10 cents a unit: everybody passes (Anna deals again), then Bernd's Sauspiel
#: with Dieter wins with 70: 2 units (the tariff), Bernd +2, Dieter +2, Anna -2, Clara -2. One hand each.
REDEALT = [
    {"contract": "rundpass"},
    {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 70},
]


def test_a_redeal_is_no_hand_on_the_leaderboard_nor_a_players_page(client, db, players):
    night = night_of(db, players, REDEALT, date(2026, 3, 1), 10, game="schafkopf", rules={"all_pass": "redeal"})
    rows = db.exec(select(NightResult).where(NightResult.night_id == night.id)).all()
    assert sorted((r.position, r.hands, r.units) for r in rows) == [(1, 1, -2), (2, 1, 2), (3, 1, -2), (4, 1, 2)]
    assert verify_night(db=db, night_id=night.id) == []  # a fresh settle counts the same
    table, _ = history_pages.leaderboard(db=db, game="schafkopf", season=history_pages.Season.starting(2026))
    assert [(s.name, s.tally.hands, s.tally.units_per_hand) for s in table][:2] == [
        ("Bernd", 1, 200),
        ("Dieter", 1, 200),
    ]
    text = answer_text(client.get("/leaderboard?lang=en&game=schafkopf&season=2026"))
    assert "Bernd 1 hand" in text and "+2.00" in text and "2 hands" not in text
    summary = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    stats = re.search(r"<td>Bernd</td><td class=\"num\">(\d+)</td>", summary[summary.index('<table class="stats">') :])
    assert stats and stats.group(1) == "1"  # the night's statistics: one hand played
    assert "Hands played: 1 + 1 dealt again" in page_text(summary)
    assert "Spiele gespielt: 1 + 1 neu gegeben" in answer_text(client.get(f"/nights/{night.id}/summary?lang=de"))


def test_rows_written_when_a_redeal_counted_are_rewritten(db, players):
    """Rows of a night written before a redeal stopped counting as a hand differ from a fresh settle, and
    ``refresh_redealt`` (for the data migration) rewrites them; a night without redeals is left alone."""
    night = night_of(db, players, REDEALT, date(2026, 3, 1), 10, game="schafkopf", rules={"all_pass": "redeal"})
    other = night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    for row in db.exec(select(NightResult).where(NightResult.night_id == night.id)):
        row.hands = 2  # as written before
        db.add(row)
    db.commit()
    assert verify_night(db=db, night_id=night.id) == ["the night's result rows differ"]
    assert refresh_redealt(db) == 1
    assert verify_night(db=db, night_id=night.id) == [] and verify_night(db=db, night_id=other.id) == []
    assert {r.hands for r in db.exec(select(NightResult).where(NightResult.night_id == night.id))} == {1}
