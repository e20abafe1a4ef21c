"""The club's history and the nights' currencies (docs/using.md, "The club's history": "One currency").

Money in another currency than the club's (``SCOREKEEPER_CURRENCY``) is never added to the club's: its night
counts (nights, hands, units), its money is said apart on a player's page and on the leaderboard. A new night
is in the club's currency unless another is asked, on the start form and in the API.

The nights, worked out by hand from docs/rules.md (Anna deals first at a table of four: Anna, Bernd, Clara,
Dieter; 10 cents a unit):

- ``RUFEN_WON`` (Matzlfangen): Bernd (forehand) calls Clara and wins with 70: Bernd +1, Clara +1, Anna -1,
  Dieter -1 units; Bernd and Clara +0.10, Anna and Dieter -0.10.
- ``DURCH_WON`` (Matzlfangen): Anna wins a Durch, 6 units from each defender: Anna +18 (+1.80), the others -6.
"""

from __future__ import annotations

import re
from datetime import date

from scorekeeper.config import Settings
from scorekeeper.core import history_pages
from tests.support import answer_text, form_values
from tests.support_history import night_in, standings

RUFEN_WON = {"contract": "rufen", "partner": 3, "points": 70}
DURCH_WON = {"contract": "durch", "declarer": 1, "won": True}


def test_a_night_in_another_currency_is_not_in_a_players_money(client, db, players):
    """Anna's Durch night in USD (+1.80 USD) and her Rufen night in EUR (-0.10 EUR): her money is -0.10 EUR, her
    best night no USD night called EUR; the USD night is said apart, in USD."""
    night_in(db, players, [DURCH_WON], "USD", played_on=date(2026, 3, 1))
    night_in(db, players, [RUFEN_WON], "EUR", played_on=date(2026, 3, 8))
    anna = players[0]
    record = history_pages.player_history(db=db, player_id=anna.id, currency="EUR")
    assert (record.total.nights, record.total.cents, record.total.units) == (2, -10, 17)
    assert record.elsewhere == {"USD": [1, 180]}
    assert record.best is None and record.worst.cents == -10
    answer = client.get(f"/players/{anna.id}?lang=en")
    text = answer_text(answer)
    assert "1.80 EUR" not in text and "1.70 EUR" not in text
    assert "-0.10 EUR net" in text, text
    assert "Money in EUR only. Not in it: 1 night in USD, 1.80 USD." in text, text
    assert "Best night" not in text  # the only night that brought her money was in USD


def test_a_players_nights_all_in_another_currency_show_no_club_money(client, db, players):
    """The attack's night: only a USD night. No EUR anywhere on the player's page, nor on the leaderboard."""
    night_in(db, players, [DURCH_WON], "USD")
    anna = players[0]
    text = answer_text(client.get(f"/players/{anna.id}?lang=en"))
    assert not re.search(r"[\d.]+\s*EUR", text), text  # no amount in EUR
    assert "18 units" in text  # her units count
    assert "1 night in USD, 1.80 USD" in text
    board = answer_text(client.get("/leaderboard?lang=en&game=matzlfangen&season=2026"))
    assert not re.search(r"[\d.]+\s*EUR", board), board
    assert "Money in EUR only: 1 night played in USD is not in it (its units are)." in board


def test_the_leaderboard_adds_up_the_club_currencys_money_only(client, db, players):
    night_in(db, players, [DURCH_WON], "USD", played_on=date(2026, 3, 1))
    night_in(db, players, [RUFEN_WON], "EUR", played_on=date(2026, 3, 8))
    page = client.get("/leaderboard?lang=en&game=matzlfangen&season=2026").get_data(as_text=True)
    money = standings(page)
    assert money["Anna"].startswith("-0.10 EUR"), money  # not 1.70: +1.80 USD is no EUR
    assert money["Bernd"].startswith("0.10 EUR"), money  # not -0.50
    assert "Money in EUR only: 1 night played in USD is not in it" in answer_text(
        client.get("/leaderboard?lang=en&game=matzlfangen&season=2026")
    )
    german = answer_text(client.get("/leaderboard?lang=de&game=matzlfangen&season=2026"))
    assert "Geld nur in EUR: 1 Abend in USD ist nicht darin (seine Einheiten schon)." in german, german


def test_the_history_counts_the_clubs_own_currency(app, client, db, players):
    """A club in Swiss francs (SCOREKEEPER_CURRENCY=CHF): a night in CHF is money, in CHF; one in EUR (started
    so before) is said apart, not called CHF."""
    app.config["CURRENCY"] = "CHF"
    night_in(db, players, [DURCH_WON], "CHF", played_on=date(2026, 3, 1))
    night_in(db, players, [RUFEN_WON], "EUR", played_on=date(2026, 3, 8))
    anna = players[0]
    text = answer_text(client.get(f"/players/{anna.id}?lang=en"))
    assert "1.80 CHF net" in text and "1 night in EUR, -0.10 EUR" in text, text
    money = standings(client.get("/leaderboard?lang=en&game=matzlfangen&season=2026").get_data(as_text=True))
    assert money["Anna"].startswith("1.80 CHF"), money


def test_a_new_night_is_in_the_clubs_currency(app, client, db, players):
    """The start form's Currency field and the API's default: the club's currency (SCOREKEEPER_CURRENCY)."""
    app.config["CURRENCY"] = "CHF"
    assert form_values(client.get("/nights/new?lang=en").get_data(as_text=True))["currency"] == "CHF"
    answer = client.post(
        "/api/v1/sessions",
        json={"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in players[:4]], "first_dealer": 1},
    )
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert answer.get_json()["currency"] == "CHF"
    asked = client.post(
        "/api/v1/sessions",
        json={
            "game": "matzlfangen",
            "stake_cents": 10,
            "players": [p.id for p in players[:4]],
            "first_dealer": 1,
            "currency": "USD",
        },
    )
    assert asked.get_json()["currency"] == "USD"  # another currency where asked


def test_the_clubs_currency_is_read_as_a_night_stores_it():
    assert Settings.from_env({"SCOREKEEPER_CURRENCY": " chf "}).currency == "CHF"
    assert Settings.from_env({}).currency == "EUR"
