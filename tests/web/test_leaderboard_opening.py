"""The game the leaderboard opens on (web/leaderboard/routes.py ``_opening_game``; docs/rules.md, "The game the
leaderboard opens on"): the one the club plays most for money; without a night for money, the one it plays
most for units (at a stake of 0), whose standings have a balance; only without either, the one it plays most
(a game played for honour, whose standings are the hands won)."""

from __future__ import annotations

from datetime import date

from scorekeeper.core.hands import add_hands
from tests.support import answer_text, start_night
from tests.support_history import night_in

KONTER = [{"trump_team": "A", "points_a": 30}, {"trump_team": "B", "points_a": 10}]  # no stake: for honour
RUFEN_WON = [{"contract": "rufen", "partner": 3, "points": 70}]


def night_of(db, players, game, hands, played_on, stake_cents=10):
    night = start_night(db, players, game, 4, stake_cents=stake_cents, played_on=played_on)
    add_hands(db=db, night_id=night.id, hands=hands)
    return night


def opening(client) -> str:
    return answer_text(client.get("/leaderboard?lang=en"))


def test_a_game_at_a_stake_of_0_goes_before_one_played_for_honour_played_more(client, db, players):
    night_of(db, players, "matzlfangen", RUFEN_WON, date(2026, 2, 1), stake_cents=0)
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 3, 1))  # the newest, and two of them
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 3, 2))
    page = opening(client)
    assert "Matzlfangen · Season 2026" in page and "Played for units, not money (a stake of 0)" in page


def test_a_game_played_for_money_goes_before_one_at_a_stake_of_0_played_more(client, db, players):
    night_of(db, players, "schafkopf", [{"contract": "rundpass"}], date(2026, 2, 1))
    night_of(db, players, "matzlfangen", RUFEN_WON, date(2026, 3, 1), stake_cents=0)
    night_of(db, players, "matzlfangen", RUFEN_WON, date(2026, 3, 2), stake_cents=0)
    assert "Schafkopf · Season 2026" in opening(client)


def test_among_games_played_for_honour_alone_the_one_played_most(client, db, players):
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 2, 1))
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 2, 2))
    night_of(db, players[:2], "matt", [{"mated_by": 1, "move": 7, "card": "A"}], date(2026, 3, 1))
    assert "Konter a Matt · Season 2026" in opening(client)


def test_nights_for_money_in_another_currency_count_as_nights_for_units(client, db, players):
    """The club plays in EUR (SCOREKEEPER_CURRENCY): its two Schafkopf nights in USD, newer and more, are no money
    of its history (docs/using.md, "One currency"), whose leaderboard shows them in units; its one Matzlfangen
    night in EUR is. The leaderboard opened on Schafkopf, a season without the club's money."""
    night_in(db, players, RUFEN_WON, "EUR", played_on=date(2026, 2, 1))
    night_in(db, players, [{"contract": "rundpass"}], "USD", game="schafkopf", played_on=date(2026, 3, 1))
    night_in(db, players, [{"contract": "rundpass"}], "USD", game="schafkopf", played_on=date(2026, 3, 2))
    assert "Matzlfangen · Season 2026" in opening(client)


def test_without_a_night_in_the_clubs_currency_they_count_before_a_game_played_for_honour(client, db, players):
    night_in(db, players, [{"contract": "rundpass"}], "USD", game="schafkopf", played_on=date(2026, 2, 1))
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 3, 1))
    night_of(db, players, "konter_a_matt", KONTER, date(2026, 3, 2))
    assert "Schafkopf · Season 2026" in opening(client)
