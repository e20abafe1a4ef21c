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
from pathlib import Path

from sqlmodel import select

from scorekeeper.core import history_pages
from scorekeeper.core.hands import add_hands
from scorekeeper.core.history import refresh_missing, verify_night
from scorekeeper.core.models import NightResult
from tests.support import EURO, answer_text, page_text, start_night

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


# --- 1. a season of nights at a stake of 0 ----------------------------------------------------------------


def test_the_leaderboard_of_a_season_at_a_stake_of_0_shows_its_units(client, db, players):
    """No money, but each player's units and units per hand, ordered by the units: Anna +17 (8.50 a hand),
    Bernd and Clara -5 (-2.50), Dieter -7 (-3.50)."""
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    answer = client.get("/leaderboard?lang=en&game=matzlfangen&season=2026")
    page = answer.get_data(as_text=True)
    assert heads(page) == ["Player", "Units ▾", "per hand", "wins %"]
    assert [row[1:3] for row in standings(page)] == [["17", "+8.50"], ["-5", "-2.50"], ["-5", "-2.50"], ["-7", "-3.50"]]
    assert [row[0].split()[0] for row in standings(page)] == ["Anna", "Bernd", "Clara", "Dieter"]
    text = answer_text(answer)
    assert not EURO.search(text) and "Played for units, not money (a stake of 0)" in text
    assert "Played for honour" not in text
    # asked by money (a link from a season played for money), the same season is ordered by its units
    asked = client.get("/leaderboard?lang=en&game=matzlfangen&season=2026&sort=money").get_data(as_text=True)
    assert heads(asked) == ["Player", "Units ▾", "per hand", "wins %"]
    assert re.search(r'<option (?=[^>]*value="units")[^>]*selected', asked) and 'value="money"' not in asked
    by_hand = client.get("/leaderboard?lang=en&game=matzlfangen&season=2026&sort=per_hand").get_data(as_text=True)
    assert heads(by_hand) == ["Player", "Units", "per hand ▾", "wins %"]
    german = client.get("/leaderboard?lang=de&game=matzlfangen&season=2026")
    assert heads(german.get_data(as_text=True)) == ["Spieler", "Einheiten ▾", "pro Spiel", "Siege %"]
    assert "Um Einheiten gespielt, nicht um Geld (Einsatz 0)" in answer_text(german)
    assert [row[2] for row in standings(german.get_data(as_text=True))] == ["+8,50", "-2,50", "-2,50", "-3,50"]


def test_a_players_page_of_nights_at_a_stake_of_0_shows_the_units_and_records_in_units(client, db, players):
    """Anna played at a stake of 0 only: her units (+17) instead of money, and her best night by units."""
    night = night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    answer = client.get(f"/players/{players[0].id}?lang=en")
    page, text = answer.get_data(as_text=True), answer_text(answer)
    assert not EURO.search(text)
    assert "17 units" in text  # the figure tile
    assert "Units over the nights" in text and "<svg" in page
    assert re.search(rf'Best night: <a href="/nights/{night.id}">.*?</a> <span class="gain">17\sunits</span>', page)
    assert "Worst night" not in text and "Longest winning streak: 1 night" in text
    assert ["Matzlfangen", "1", "2", "17"] in cells(page)  # the season's and the overall row: units, no money
    assert "Played for units, not money (a stake of 0): the units won or lost." in text
    german = answer_text(client.get(f"/players/{players[0].id}?lang=de"))
    assert "17 Einheiten" in german and "Einheiten über die Abende" in german and "Bester Abend" in german
    dieter = answer_text(client.get(f"/players/{players[3].id}?lang=en"))
    assert "Worst night" in dieter and "-7 units" in dieter and "Best night" not in dieter


# --- 2. a season of both --------------------------------------------------------------------------------


def test_a_season_of_both_shows_the_money_of_the_nights_for_money_and_the_units_of_all(client, db, players):
    """The units are each hand's score, whatever the stake: they add up over both nights (Anna 17 - 1 = +16 in
    3 hands, 5.33 a hand; Bernd -5 + 1 = -4, -1.33; Dieter -7 - 1 = -8, -2.67); the money is the night for
    money's (Anna and Dieter -0.10 EUR, Bernd and Clara +0.10 EUR)."""
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    answer = client.get("/leaderboard?lang=en&game=matzlfangen&season=2026")
    page = answer.get_data(as_text=True)
    assert heads(page) == ["Player", "Money ▾", "per hand", "wins %"]
    rows = {row[0].split()[0]: row[1:3] for row in standings(page)}
    assert rows == {
        "Bernd": ["0.10 EUR -4 units", "-1.33"],
        "Clara": ["0.10 EUR -4 units", "-1.33"],
        "Anna": ["-0.10 EUR 16 units", "+5.33"],
        "Dieter": ["-0.10 EUR -8 units", "-2.67"],
    }
    assert "Under the money: the units won or lost at all the season's nights, for money or at a stake of 0." in (
        answer_text(answer)
    )
    units = answer_text(client.get("/leaderboard?lang=en&game=matzlfangen&season=2026&sort=units"))
    assert "Money ▾" in units  # a season with money is ordered by its money
    anna = client.get(f"/players/{players[0].id}?lang=en").get_data(as_text=True)
    assert ["Matzlfangen", "2", "3", "-0.10 16"] in cells(anna)  # the money of one night, the units of both
    assert "Under the money: the units won or lost at every night, for money or at a stake of 0." in page_text(anna)


def test_units_per_hand_count_the_hands_of_the_nights_that_score_units(db, players):
    """A Matt without a stake per point scores no units: its hands are no hands of the units per hand. Clara
    and Anna play a Matt for 1 unit a point (10 cents a unit) and one without: the units per hand are those of
    the first night's hands alone."""
    matt = [{"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 3, "card": "K"}]
    scored = start_night(db, players, "matt", 2, {"stake_per_point": 1}, played_on=date(2026, 3, 1))
    add_hands(db=db, night_id=scored.id, hands=matt)
    honour = start_night(db, players, "matt", 2, {"stake_per_point": 0}, played_on=date(2026, 3, 2))
    add_hands(db=db, night_id=honour.id, hands=matt)
    rows = {r.player_id: r for r in db.exec(select(NightResult).where(NightResult.night_id == scored.id))}
    season = history_pages.Season.starting(2026)
    table, nights = history_pages.leaderboard(db=db, game="matt", season=season)
    assert nights == 2
    for s in table:
        row = rows[s.player_id]
        assert (s.tally.hands, s.tally.units) == (2 * row.hands, row.units)
        assert s.tally.units_per_hand == history_pages.ratio(part=row.units, whole=row.hands)
    anna = history_pages.player_history(db=db, player_id=players[0].id)
    assert anna.total.units_per_hand == history_pages.ratio(part=rows[players[0].id].units, whole=2)


# --- 3. the nights list ------------------------------------------------------------------------------------


def test_the_nights_list_names_the_top_player_of_a_night_at_a_stake_of_0_by_units(client, db, players):
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    page = history_pages.nights_page(db=db, filters=history_pages.NightFilter())
    assert [i.leader for i in page.items] == [(("Bernd", "Clara"), 10), (("Anna",), 17)]  # by money, by units
    text = answer_text(client.get("/nights/?lang=en"))
    assert "top: Bernd, Clara 0.10 EUR each" in text and "top: Anna 17 units" in text
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
    migration 0017 removes them, for the app's start to write them again (``refresh_missing``); a night without
    redeals is left alone."""
    night = night_of(db, players, REDEALT, date(2026, 3, 1), 10, game="schafkopf", rules={"all_pass": "redeal"})
    other = night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    for row in db.exec(select(NightResult).where(NightResult.night_id == night.id)):
        row.hands = 2  # as written before
        db.add(row)
    db.commit()
    assert verify_night(db=db, night_id=night.id) == ["the night's result rows differ"]
    assert _migration_0017().forget(db.connection()) == 1
    assert refresh_missing(db) == 1
    assert verify_night(db=db, night_id=night.id) == [] and verify_night(db=db, night_id=other.id) == []
    assert {r.hands for r in db.exec(select(NightResult).where(NightResult.night_id == night.id))} == {1}


def _migration_0017():
    """The module of migration 0017 (its name starts with a digit: loaded from its file)."""
    import importlib.util

    from scorekeeper import core

    path = Path(core.__file__).parent / "migrations" / "versions" / "0017_redeal_rows.py"
    spec = importlib.util.spec_from_file_location("migration_0017", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_nights_list_counts_the_hands_played_and_the_redeals_apart_as_the_summary_does(client, db, players):
    """The nights list says what the night's summary says: one hand played, one dealt again ("Hands played: 1 +
    1 dealt again"), not "2 hands"; a night without redeals says its hands alone."""
    night_of(db, players, REDEALT, date(2026, 3, 1), 10, game="schafkopf", rules={"all_pass": "redeal"})
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    page = history_pages.nights_page(db=db, filters=history_pages.NightFilter())
    assert [(i.hands, i.redeals) for i in page.items] == [(1, 0), (1, 1)]
    text = answer_text(client.get("/nights/?lang=en"))
    assert "Clara, Dieter · 1 hand · top" in text and "Clara, Dieter · 1 hand + 1 dealt again · top" in text
    assert "2 hands" not in text
    german = answer_text(client.get("/nights/?lang=de"))
    assert "Clara, Dieter · 1 Spiel + 1 neu gegeben · vorne" in german and "2 Spiele" not in german


def test_the_nights_list_keeps_a_number_and_its_word_together(client, db, players):
    """On a phone the line of a night wraps between its parts, never between "17" and "units" (nor "1" and
    "hand", "0.10" and "EUR"): each held by no-break spaces, in both languages."""
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    night_of(db, players, REDEALT, date(2026, 3, 3), 10, game="schafkopf", rules={"all_pass": "redeal"})
    english = client.get("/nights/?lang=en").get_data(as_text=True)
    for words in ("17\xa0units", "0.10\xa0EUR", "2\xa0hands", "1\xa0hand\xa0+\xa01\xa0dealt\xa0again"):
        assert words in english
    german = client.get("/nights/?lang=de").get_data(as_text=True)
    for words in ("17\xa0Einheiten", "0,10\xa0EUR", "2\xa0Spiele", "1\xa0Spiel\xa0+\xa01\xa0neu\xa0gegeben"):
        assert words in german


def test_the_history_pages_keep_a_count_and_its_word_together(client, db, players):
    """The leaderboard's "1 night" and each player's "2 hands", the nights list's filtered "2 nights" and a
    player's streak of "1 night": held together by no-break spaces, in both languages."""
    night_of(db, players, FOR_UNITS, date(2026, 3, 1), 0)
    for lang, night, hands in (
        ("en", "1\xa0night", "2\xa0hands"),
        ("de", "1\xa0Abend", "2\xa0Spiele"),
    ):
        board = client.get(f"/leaderboard?lang={lang}&game=matzlfangen&season=2026").get_data(as_text=True)
        assert f"· {night}</p>" in board and f"{hands} ·" in board
        anna = client.get(f"/players/{players[0].id}?lang={lang}").get_data(as_text=True)
        assert re.search(rf": {night} <span class=\"date\">", anna)
    night_of(db, players, FOR_MONEY, date(2026, 3, 2), 10)
    for lang, nights in (("en", "2\xa0nights"), ("de", "2\xa0Abende")):
        assert f" · {nights}</summary>" in client.get(f"/nights/?lang={lang}&game=matzlfangen").get_data(as_text=True)
