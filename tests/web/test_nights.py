"""Starting a night through the form (as a phone without JavaScript posts it), the table page, /live and /version."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import edit_hand, record_hand, undo_last
from scorekeeper.core.models import Night, Seat
from scorekeeper.core.nights import close_night, create_night, reopen_night
from scorekeeper.core.table import load_table
from scorekeeper.engine import GAMES
from scorekeeper.engine.rules import rules_to_json
from tests.support import closed_split_night, field_errors, form_values, page_text, start_night
from tests.support_tournament import make_tournament

# --- a small browser: read a form's fields as a browser would post them ---------


def night_form(client, lang: str = "en") -> dict[str, str]:
    """The empty start-a-night form as a browser would post it untouched."""
    page = client.get(f"/nights/new?lang={lang}")
    assert page.status_code == 200
    return form_values(page.get_data(as_text=True))


def post_night(client, players, game="matzlfangen", seats=4, lang="en", **fields):
    """Fill the form with ``game`` and the first ``seats`` players, change ``fields`` (None: leave out), post."""
    data = night_form(client, lang)
    data["game"] = game
    for i, player in enumerate(players[:seats], start=1):
        data[f"seat_{i}"] = str(player.id)
    data["start"] = "1"
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return client.post(f"/nights/new?lang={lang}", data=data)


def form_errors(page: str) -> str:
    match = re.search(r'<div class="errors form-errors" role="alert">(.*?)</div>', page, re.S)
    return page_text(match.group(1)) if match else ""


def nights(db) -> int:
    db.rollback()
    db.expire_all()
    return db.exec(select(func.count()).select_from(Night)).one()


def seats_stored(db) -> int:
    return db.exec(select(func.count()).select_from(Seat)).one()


def the_night(db) -> Night:
    db.rollback()
    db.expire_all()
    return db.exec(select(Night)).one()


def defaults(game: str, preset: str = "seed") -> dict:
    return rules_to_json(GAMES[game].parse_rules({"preset": preset}))


# --- starting a night --------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "seats"),
    [("matzlfangen", 4), ("matzlfangen", 5), ("schafkopf", 4), ("schafkopf", 5), ("konter_a_matt", 4), ("matt", 2)],
)
def test_a_night_of_each_game_starts_with_its_players_in_seat_order_and_the_complete_default_rules(
    client, db, players, game, seats
):
    answer = post_night(client, players, game, seats)
    assert answer.status_code == 302
    night = the_night(db)
    assert answer.headers["Location"].endswith(f"/nights/{night.id}")
    assert night.game == game
    assert night.seat_count == seats
    assert night.rules == defaults(game)
    assert night.stake_cents == 10
    assert night.currency == "EUR"
    assert night.first_dealer == 1
    assert night.version == 0
    stored = db.exec(select(Seat).where(Seat.night_id == night.id).order_by(Seat.position)).all()
    assert [(s.position, s.player_id) for s in stored] == [(i, p.id) for i, p in enumerate(players[:seats], 1)]


def test_the_seats_keep_the_order_chosen_not_the_roster_order(client, db, players):
    order = [players[3], players[0], players[4], players[1]]
    answer = post_night(client, order, "schafkopf", 4, first_dealer="3")
    assert answer.status_code == 302
    night = the_night(db)
    stored = db.exec(select(Seat).where(Seat.night_id == night.id).order_by(Seat.position)).all()
    assert [s.player_id for s in stored] == [p.id for p in order]
    assert night.first_dealer == 3


def test_stake_currency_date_and_place_are_stored_as_given(client, db, players):
    answer = post_night(
        client, players, stake="1,50", currency="chf", played_on="2026-11-14", place="  Gasthaus Zur Post  "
    )
    assert answer.status_code == 302
    night = the_night(db)
    assert night.stake_cents == 150
    assert night.currency == "CHF"
    assert night.played_on == date(2026, 11, 14)
    assert night.place == "Gasthaus Zur Post"


@pytest.mark.parametrize(("stake", "cents"), [("0,10", 10), ("0.5", 50), ("2", 200), ("0", 0), ("1000,00", 100_000)])
def test_the_stake_is_read_as_money_with_comma_or_point(client, db, players, stake, cents):
    assert post_night(client, players, stake=stake).status_code == 302
    assert the_night(db).stake_cents == cents


def test_a_changed_option_is_stored_with_every_other_option_at_its_default(client, db, players):
    answer = post_night(
        client, players, "matzlfangen", 4, matzlfangen__win_threshold="61", matzlfangen__matzl_annuls_loss=None
    )
    assert answer.status_code == 302
    expected = {**defaults("matzlfangen"), "win_threshold": 61, "matzl_annuls_loss": False}
    assert the_night(db).rules == expected


def test_the_stored_rules_govern_the_nights_hands(client, db, players):
    assert post_night(client, players, "matzlfangen", 4, matzlfangen__win_threshold="61").status_code == 302
    night = the_night(db)
    # Anna deals, Bernd (forehand) calls Dieter and makes 62: a loss under the default 66, a win at 61
    record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": 4, "points": 62})
    assert load_table(db=db, night_id=night.id).balance == [-1, 1, -1, 1]


def test_a_schafkopf_option_left_empty_takes_its_default_or_none(client, db, players):
    answer = post_night(client, players, "schafkopf", 4, schafkopf__tariff_solo="", schafkopf__laufende_max="")
    assert answer.status_code == 302
    rules = the_night(db).rules
    assert rules["tariff_solo"] == 5
    assert rules["laufende_max"] is None


def test_schafkopf_options_of_every_kind_are_stored(client, db, players):
    answer = post_night(
        client,
        players,
        "schafkopf",
        4,
        schafkopf__tariff_sauspiel="3",
        schafkopf__laufende_max="4",
        schafkopf__kontra_shifts_threshold=None,
        schafkopf__all_pass="none",
        schafkopf__pot_at_close="carry",
    )
    assert answer.status_code == 302
    expected = {
        **defaults("schafkopf"),
        "tariff_sauspiel": 3,
        "laufende_max": 4,
        "kontra_shifts_threshold": False,
        "all_pass": "none",
        "pot_at_close": "carry",
    }
    assert the_night(db).rules == expected


def test_applying_the_bavarian_preset_fills_its_values_without_starting_a_night(client, db, players):
    data = night_form(client)
    data.update(game="schafkopf", schafkopf__preset="bavarian", apply_preset="1")
    answer = client.post("/nights/new?lang=en", data=data)
    assert answer.status_code == 200
    assert nights(db) == 0
    filled = form_values(answer.get_data(as_text=True))
    assert filled["schafkopf__preset"] == "bavarian"
    assert filled["schafkopf__all_pass"] == "ramsch"
    assert filled["schafkopf__declarers_schneider_at"] == "30"
    assert "schafkopf__kontra_shifts_threshold" not in filled  # unticked
    assert filled["game"] == "schafkopf"


def test_a_night_started_after_applying_the_bavarian_preset_stores_the_bavarian_rule_set(client, db, players):
    data = night_form(client)
    data.update(game="schafkopf", schafkopf__preset="bavarian", apply_preset="1")
    filled = form_values(client.post("/nights/new?lang=en", data=data).get_data(as_text=True))
    for i, player in enumerate(players[:4], start=1):
        filled[f"seat_{i}"] = str(player.id)
    filled["start"] = "1"
    answer = client.post("/nights/new?lang=en", data=filled)
    assert answer.status_code == 302
    rules = the_night(db).rules
    assert rules == defaults("schafkopf", "bavarian")
    assert rules["preset"] == "bavarian"
    assert rules["all_pass"] == "ramsch"
    assert rules["kontra_shifts_threshold"] is False
    assert rules["declarers_schneider_at"] == 30


def test_a_preset_can_be_adjusted_after_it_is_applied(client, db, players):
    data = night_form(client)
    data.update(game="schafkopf", schafkopf__preset="seed-variant", apply_preset="1")
    filled = form_values(client.post("/nights/new?lang=en", data=data).get_data(as_text=True))
    assert filled["schafkopf__tariff_solo"] == "2"
    for i, player in enumerate(players[:4], start=1):
        filled[f"seat_{i}"] = str(player.id)
    filled.update(start="1", schafkopf__tariff_solo="4")
    assert client.post("/nights/new?lang=en", data=filled).status_code == 302
    assert the_night(db).rules == {**defaults("schafkopf", "seed-variant"), "tariff_solo": 4}


def test_applying_a_preset_keeps_what_else_was_typed(client, db, players):
    data = night_form(client)
    data.update(game="schafkopf", schafkopf__preset="bavarian", apply_preset="1", place="Stammtisch", stake="0,20")
    data["seat_1"] = str(players[2].id)
    filled = form_values(client.post("/nights/new?lang=en", data=data).get_data(as_text=True))
    assert filled["place"] == "Stammtisch"
    assert filled["stake"] == "0,20"
    assert filled["seat_1"] == str(players[2].id)


# --- refused input -------------------------------------------------------------

BAD_NIGHTS = [
    # (game, seats, changed fields, where the message is shown, the message)
    ("matzlfangen", 0, {}, "seat_1", "Matzlfangen is played by 4 or 5 players, not 0"),
    ("matzlfangen", 3, {}, "seat_1", "Matzlfangen is played by 4 or 5 players, not 3"),
    ("schafkopf", 3, {}, "seat_1", "Schafkopf is played by 4 or 5 players, not 3"),
    ("konter_a_matt", 5, {}, "seat_1", "Konter a Matt is played by 4 players, not 5"),
    ("konter_a_matt", 3, {}, "seat_1", "Konter a Matt is played by 4 players, not 3"),
    ("matt", 3, {}, "seat_1", "Matt is played by 2 players, not 3"),
    ("matt", 1, {}, "seat_1", "Matt is played by 2 players, not 1"),
    ("matzlfangen", 4, {"seat_3": "1"}, "seat_1", "a player cannot sit at two seats"),
    ("matt", 2, {"seat_2": "1"}, "seat_1", "a player cannot sit at two seats"),
    ("matzlfangen", 4, {"seat_4": "999"}, "seat_1", "The player chosen for seat 4 is not on the roster (any more)"),
    ("matzlfangen", 4, {"stake": "abc"}, "stake", "Enter the stake as an amount such as 0,10"),
    ("matzlfangen", 4, {"stake": "-1"}, "stake", "Enter the stake as an amount such as 0,10"),
    ("matzlfangen", 4, {"stake": "0,123"}, "stake", "Enter the stake as an amount such as 0,10"),
    ("matzlfangen", 4, {"stake": "1,2,3"}, "stake", "Enter the stake as an amount such as 0,10"),
    ("matzlfangen", 4, {"stake": "10 EUR"}, "stake", "Enter the stake as an amount such as 0,10"),
    ("matzlfangen", 4, {"currency": "E1R"}, "currency", "the currency must be a three-letter code such as EUR"),
    ("matzlfangen", 4, {"currency": "€€€"}, "currency", "the currency must be a three-letter code such as EUR"),
    ("matzlfangen", 4, {"matzlfangen__win_threshold": "0"}, "matzlfangen__win_threshold", "between 1 and 130"),
    ("matzlfangen", 4, {"matzlfangen__win_threshold": "131"}, "matzlfangen__win_threshold", "between 1 and 130"),
    ("matzlfangen", 4, {"matzlfangen__max_raises": "11"}, "matzlfangen__max_raises", "between 0 and 10"),
    ("schafkopf", 4, {"schafkopf__laufende_max": "15"}, "schafkopf__laufende_max", "between 0 and 14"),
    ("schafkopf", 4, {"schafkopf__tariff_solo": "-5"}, "schafkopf__tariff_solo", "between 0 and 1000"),
    ("konter_a_matt", 4, {"konter_a_matt__win_points": "20"}, "konter_a_matt__win_points", "between 21 and 40"),
    ("konter_a_matt", 4, {"konter_a_matt__strokes": "0"}, "konter_a_matt__strokes", "between 1 and 100"),
    ("matt", 2, {"matt__stake_per_point": "1001"}, "matt__stake_per_point", "between 0 and 1000"),
    ("matzlfangen", 4, {"first_dealer": "5"}, "first_dealer", "the first dealer must be a seat from 1 to 4"),
    ("matt", 2, {"first_dealer": "3"}, "first_dealer", "the first dealer must be a seat from 1 to 2"),
]


@pytest.mark.parametrize(("game", "seats", "fields", "field", "message"), BAD_NIGHTS)
def test_a_bad_night_is_refused_with_a_message_at_its_field_and_no_night_is_created(
    client, db, players, game, seats, fields, field, message
):
    answer = post_night(client, players, game, seats, **fields)
    assert answer.status_code == 400
    assert message in field_errors(answer.get_data(as_text=True), field)
    assert nights(db) == 0
    assert seats_stored(db) == 0


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"matzlfangen__win_threshold": "abc"}, "matzlfangen__win_threshold"),
        ({"matzlfangen__win_threshold": "66.5"}, "matzlfangen__win_threshold"),
        ({"matzlfangen__durch_value": "sechs"}, "matzlfangen__durch_value"),
        ({"schafkopf__all_pass": "sometimes"}, "schafkopf__all_pass"),
        ({"schafkopf__preset": "austrian"}, "schafkopf__preset"),
        ({"first_dealer": "9"}, "first_dealer"),
        ({"first_dealer": "x"}, "first_dealer"),
        ({"currency": "EURO"}, "currency"),
        ({"currency": ""}, "currency"),
        ({"stake": ""}, "stake"),
        ({"played_on": "yesterday"}, "played_on"),
        ({"played_on": "2026-02-30"}, "played_on"),
        ({"place": "P" * 81}, "place"),
        ({"game": "poker"}, "game"),
        ({"game": None}, "game"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_with_a_readable_message_at_its_field(client, db, players, fields, field):
    answer = post_night(client, players, **fields)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    message = field_errors(page, field) or form_errors(page)
    assert re.search(r"[A-Za-z]{3,}", message), f"no readable message at {field} or above the form"
    assert "Traceback" not in answer.get_data(as_text=True)
    assert nights(db) == 0


def test_a_stake_above_the_limit_is_refused_and_says_the_limit_at_the_stake_field(client, db, players):
    answer = post_night(client, players, stake="1000,01")
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "The stake may be at most 1000,00" in field_errors(page, "stake")
    assert nights(db) == 0


def test_a_player_id_that_is_not_a_number_is_refused(client, db, players):
    answer = post_night(client, players, seat_2="Bernd")
    assert answer.status_code == 400
    assert "seat 2 is not on the roster" in field_errors(answer.get_data(as_text=True), "seat_1")
    assert nights(db) == 0


def test_a_player_id_beyond_any_database_integer_is_refused_not_a_server_error(client, db, players):
    answer = post_night(client, players, seat_4=str(10**30))
    assert answer.status_code == 400
    assert "seat 4 is not on the roster" in field_errors(answer.get_data(as_text=True), "seat_1")
    assert nights(db) == 0


def test_an_out_of_range_option_of_another_game_does_not_hold_up_the_chosen_game(client, db, players):
    # The option belongs to Matzlfangen; a Matt night never reads it.
    answer = post_night(client, players, "matt", 2, matzlfangen__win_threshold="500")
    assert answer.status_code == 302
    assert the_night(db).rules == defaults("matt")


def test_the_refusals_are_in_german_by_default(client, db, players):
    answer = post_night(client, players, lang="de", stake="abc", seat_2=str(players[0].id))
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Den Einsatz als Betrag angeben, z. B. 0,10" in field_errors(page, "stake")
    assert nights(db) == 0


def test_a_duplicate_player_is_refused_in_german_by_default(client, db, players):
    answer = post_night(client, players, lang="de", seat_2=str(players[0].id))
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "seat_1") == "ein Spieler kann nicht auf zwei Plätzen sitzen"


def test_the_refused_form_keeps_what_was_entered(client, players):
    answer = post_night(client, players, "schafkopf", 3, place="Zur Linde", schafkopf__tariff_solo="7")
    assert answer.status_code == 400
    kept = form_values(answer.get_data(as_text=True))
    assert kept["place"] == "Zur Linde"
    assert kept["schafkopf__tariff_solo"] == "7"
    assert kept["game"] == "schafkopf"
    assert kept["seat_3"] == str(players[2].id)


def test_the_start_form_offers_every_player_of_the_roster_for_every_seat(client, players):
    page = client.get("/nights/new").get_data(as_text=True)
    for i in range(1, 6):
        select_html = re.search(rf'<select id="seat_{i}" name="seat_{i}">(.*?)</select>', page, re.S).group(1)
        assert [m for m in re.findall(r">([^<]+)</option>", select_html)][1:] == [p.name for p in players]


def test_with_no_players_the_start_form_points_to_the_roster(client):
    page = client.get("/nights/new?lang=en").get_data(as_text=True)
    assert "First add the players to the roster." in page


# --- the table page -------------------------------------------------------------


def balance_rows(page: str) -> list[tuple[str, str, str]]:
    """The balance table as (name, units, money) rows."""
    body = re.search(r'<table class="balance">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [
            re.sub(r"\s+", " ", re.sub(r"<span.*?</span>", "", c, flags=re.S)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        rows.append(tuple(cells))
    return rows


def rufen(partner: int, points: int, raises: int = 0) -> dict:
    return {"contract": "rufen", "partner": partner, "points": points, "raises": raises}


def test_a_new_night_shows_everybody_at_zero(client, night):
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert balance_rows(page) == [
        ("Anna", "0", "0,00 EUR"),
        ("Bernd", "0", "0,00 EUR"),
        ("Clara", "0", "0,00 EUR"),
        ("Dieter", "0", "0,00 EUR"),
    ]
    assert "Noch nichts eingetragen." in page


def test_the_table_page_shows_each_balance_in_units_and_money(client, db, night):
    # Bernd (forehand) calls Dieter: 70 points raised to Hirsch is worth 6; then Clara calls Anna and makes 100: 1
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70, 5))
    record_hand(db=db, night_id=night.id, hand=rufen(1, 100))
    page = client.get(f"/nights/{night.id}")
    assert page.status_code == 200
    assert balance_rows(page.get_data(as_text=True)) == [
        ("Anna", "-5", "-0,50 EUR"),
        ("Bernd", "5", "0,50 EUR"),
        ("Clara", "-5", "-0,50 EUR"),
        ("Dieter", "5", "0,50 EUR"),
    ]


def test_the_table_page_in_english_writes_money_with_a_decimal_point(client, db, players):
    night = start_night(db, players, stake_cents=50)
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70, 5))
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert balance_rows(page) == [
        ("Anna", "-6", "-3.00 EUR"),
        ("Bernd", "6", "3.00 EUR"),
        ("Clara", "-6", "-3.00 EUR"),
        ("Dieter", "6", "3.00 EUR"),
    ]
    assert "stake 0.50\u00a0EUR" in page


def test_at_a_table_of_five_the_dealer_is_on_the_balance_with_zero_for_the_hand(client, db, players):
    night = start_night(db, players, seats=5)
    # Anna deals and sits out: Bernd, Clara, Dieter, Eva are seats 1-4; Bernd declares with Dieter (seat 3)
    record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "declarer": 1, "partner": 3, "points": 80})
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert balance_rows(page) == [
        ("Anna", "0", "0,00 EUR"),
        ("Bernd", "1", "0,10 EUR"),
        ("Clara", "-1", "-0,10 EUR"),
        ("Dieter", "1", "0,10 EUR"),
        ("Eva", "-1", "-0,10 EUR"),
    ]


def test_the_table_page_shows_the_pot_of_a_schafkopf_night(client, db, players):
    night = start_night(db, players, game="schafkopf")
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert "Pot: <strong>8\u00a0units</strong> (0.80\u00a0EUR)" in page
    assert [row[1] for row in balance_rows(page)] == ["-2", "-2", "-2", "-2"]


def money_column(page: str) -> list[str]:
    """The last column (the money) of a page's balance table, the table page's or the settlement's."""
    table = re.search(r'<table class="balance"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    assert table, page
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    return [page_text(re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)[-1]) for r in rows]


def test_the_table_page_of_a_closed_night_shows_the_money_its_settlement_pays(client, db, players):
    night = closed_split_night(db, players)
    summary = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    # the settlement: the 0.80 EUR left in the pot is shared, 0.20 EUR each: Anna -0.60 + 0.20 = -0.40
    assert money_column(summary) == ["-0.40 EUR", "-0.40 EUR", "0.40 EUR", "0.40 EUR"]
    table = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    # the closed night's own page said -0.60 EUR for Anna, and a pot of 8 units that was shared out
    assert money_column(table) == money_column(summary)
    assert "Pot: <strong>8\u00a0units</strong>" not in table
    assert "Pot: 8 units = 0.80 EUR. Shared: 0.20 EUR each." in page_text(table)
    german = page_text(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert "Stock: 8 Einheiten = 0,80 EUR. Geteilt: je 0,20 EUR." in german


def test_the_table_page_of_an_open_night_shows_the_pot_still_on_the_table(client, db, players):
    night = closed_split_night(db, players)
    reopen_night(db=db, night_id=night.id, reason="a hand was missing")
    table = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert money_column(table) == ["-0.60 EUR", "-0.60 EUR", "0.20 EUR", "0.20 EUR"]  # nothing shared yet
    assert "Pot: <strong>8\u00a0units</strong> (0.80\u00a0EUR)" in table


def test_the_hands_of_a_staked_matt_night_pay_what_its_balance_pays(client, db, players):
    # Matt's deltas are points; its money is stake_per_point x the difference (docs/rules.md): a Durchgang
    # Anna wins by 77 points pays her 2 x 77 units and costs Bernd as much, not 77 units to her alone
    night = start_night(db, players, "matt", 2, {"stake_per_point": 2}, stake_cents=10)
    record_hand(db=db, night_id=night.id, hand={"mated_by": 1, "move": 7, "card": "A"})
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    hand = re.search(r'<table class="payments">(.*?)</table>', page, re.S).group(1)
    assert page_text(hand) == "Points Money Anna +77 15.40 EUR Bernd +0 -15.40 EUR"  # points, not units: named
    assert money_column(page) == ["15.40 EUR", "-15.40 EUR"]


@pytest.mark.parametrize(("lang", "head"), [("en", "Points Money"), ("de", "Punkte Geld")])
def test_a_matt_hands_row_names_its_points_beside_its_money_and_other_games_rows_name_nothing(
    client, db, players, lang, head
):
    """A Matt hand's figures are its points (77 for Anna), beside the money its share of the balance pays: the
    row's head says so (it showed "+77" where the other games show units, with nothing to tell them apart). A
    Matzlfangen hand's figures are the units the balance adds up: no head."""
    matt = start_night(db, players, "matt", 2, {"stake_per_point": 2}, stake_cents=10)
    record_hand(db=db, night_id=matt.id, hand={"mated_by": 1, "move": 7, "card": "A"})
    other = start_night(db, players)
    record_hand(db=db, night_id=other.id, hand={"contract": "rufen", "partner": 3, "points": 70})
    for night, said in ((matt, head), (other, None)):
        page = client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
        row = re.search(r'<table class="payments">(.*?)</table>', page, re.S).group(1)
        assert ("<thead>" in row) is (said is not None)
        if said:
            assert page_text(row).startswith(said + " Anna +77")


def test_the_table_page_shows_the_strokes_of_a_konter_a_matt_night(client, db, players):
    night = start_night(db, players, game="konter_a_matt")
    record_hand(db=db, night_id=night.id, hand={"trump_team": "A", "points_a": 25, "matt": True})
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert "Strokes: A <strong>9</strong> · B <strong>11</strong>" in page


def test_the_table_page_marks_who_deals_next(client, db, night):
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    marked = re.findall(r"<td>(\w+) <span class=\"badge\"", page)
    assert marked == ["Bernd"]


def test_the_table_page_names_the_game_date_place_stake_and_preset(client, db, players):
    night = create_night(
        db=db,
        game="schafkopf",
        rules={"preset": "bavarian"},
        stake_cents=20,
        player_ids=[p.id for p in players[:4]],
        first_dealer=1,
        played_on=date(2026, 11, 14),
        place="Zur Post",
    )
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert "<h1>Schafkopf</h1>" in page
    assert "14.11.2026 · Zur Post" in page
    assert "Einsatz 0,20\u00a0EUR" in page
    assert "Regeln: bayerisch" in page


def test_the_nights_list_shows_a_started_night(client, db, players):
    assert post_night(client, players, "konter_a_matt", 4, place="Beim Wirt").status_code == 302
    page = client.get("/nights/")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f'/nights/{the_night(db).id}"' in text
    assert "Konter a Matt" in text


def test_the_start_page_leads_to_the_nights(client):
    answer = client.get("/")
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("/nights/")


# --- /live and /version -------------------------------------------------------------


def test_live_is_the_changing_part_of_the_table_page_only(client, db, night):
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70, 5))
    answer = client.get(f"/nights/{night.id}/live")
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    assert "<html" not in text
    assert 'id="balance"' in text
    assert balance_rows(text)[0] == ("Anna", "-6", "-0,60 EUR")


def test_live_follows_a_hand_recorded_meanwhile(client, db, night):
    before = balance_rows(client.get(f"/nights/{night.id}/live").get_data(as_text=True))
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    after = balance_rows(client.get(f"/nights/{night.id}/live").get_data(as_text=True))
    assert [r[1] for r in before] == ["0", "0", "0", "0"]
    assert [r[1] for r in after] == ["-1", "1", "-1", "1"]


def test_live_carries_the_code_that_joins_now_to_who_may_record_only(client, as_role, db, night):
    """The join panel follows the poll (static/table.js): a reopened night's new code is in the live part,
    a closed night's none, and a viewer's none (the panel is a scorer's)."""
    from scorekeeper.core.nights import close_night, reopen_night

    def live(who=client):
        return who.get(f"/nights/{night.id}/live").get_data(as_text=True)

    old = night.join_code
    assert f'data-join-code="{old}"' in live()
    assert "data-join-code" not in live(as_role("viewer"))
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    close_night(db=db, night_id=night.id)
    assert "data-join-code" not in live()
    reopen_night(db=db, night_id=night.id, reason="Korrektur")
    new = db.get(Night, night.id).join_code
    assert new != old and f'data-join-code="{new}"' in live()


def test_version_counts_every_change_and_is_never_cached(client, db, night):
    def version():
        answer = client.get(f"/nights/{night.id}/version")
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "no-store"
        return answer.get_json()

    assert version() == {"version": 0}
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    assert version() == {"version": 1}
    edit_hand(db=db, night_id=night.id, number=1, hand=rufen(3, 70))
    assert version() == {"version": 2}
    undo_last(db=db, night_id=night.id)
    assert version() == {"version": 3}


def test_the_table_page_tells_the_phones_where_to_poll(client, night, app):
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert f'data-version-url="/nights/{night.id}/version"' in page
    assert f'data-live-url="/nights/{night.id}/live"' in page
    assert f'data-poll="{app.config["POLL_SECONDS"]}"' in page


# --- unknown nights ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "/live", "/version", "/hands/new", "/hands/1/edit", "/hands/undo"])
def test_an_unknown_night_is_not_found(client, night, path):
    answer = client.get(f"/nights/999{path}")
    assert answer.status_code == 404
    if path != "/version":
        assert "Diesen Abend gibt es nicht." in answer.get_data(as_text=True)


def test_an_unknown_night_is_not_found_in_english(client, night):
    answer = client.get("/nights/999?lang=en")
    assert answer.status_code == 404
    assert "There is no such night." in answer.get_data(as_text=True)


@pytest.mark.parametrize("path", ["", "/live", "/version"])
def test_a_night_id_beyond_any_database_integer_is_not_found(client, night, path):
    assert client.get(f"/nights/{10**30}{path}").status_code == 404


def test_the_start_form_sent_twice_starts_one_night(client, db, players):
    """On the pub's slow Wi-Fi "Abend beginnen" is tapped again (or the browser sends the form again): the
    form carries a one-time key, and the same form sent again leads to the night it started, not to a second
    open night of the same players."""
    data = form_values(client.get("/nights/new?lang=en").get_data(as_text=True))
    data.update({f"seat_{i}": str(p.id) for i, p in enumerate(players[:4], start=1)}, start="1")
    first = client.post("/nights/new?lang=en", data=data)
    again = client.post("/nights/new?lang=en", data=data)
    assert first.status_code == again.status_code == 302
    assert again.location == first.location
    db.rollback()
    assert len(db.exec(select(Night)).all()) == 1, f"two nights started: {first.location}, {again.location}"
    other = form_values(client.get("/nights/new?lang=en").get_data(as_text=True))  # a new form: a new key
    other.update({f"seat_{i}": str(p.id) for i, p in enumerate(players[:4], start=1)}, start="1")
    assert client.post("/nights/new?lang=en", data=other).location != first.location
    db.rollback()
    assert len(db.exec(select(Night)).all()) == 2


def test_a_start_form_with_a_bad_one_time_key_is_refused(client, db, players):
    data = form_values(client.get("/nights/new?lang=en").get_data(as_text=True))
    data.update(
        {f"seat_{i}": str(p.id) for i, p in enumerate(players[:4], start=1)}, start="1", idempotency_key="x" * 65
    )
    answer = client.post("/nights/new?lang=en", data=data)
    assert answer.status_code == 400
    assert "The idempotency key must be 1 to 64 printable ASCII characters" in page_text(answer.get_data(as_text=True))
    assert nights(db) == 0


def test_the_start_form_does_not_seat_a_tournament_guest_at_a_club_night(client, db, players):
    """A guest of a tournament is never on the roster nor in the club's history (docs/tournaments.md): the
    start form offers the roster only, and a posted guest id is refused as no player of the club."""
    t = make_tournament(db, n=4)
    guest = tm.add_entrant(db=db, tournament_id=t.id, guest="Gustl Gast").player_id
    data = form_values(client.get("/nights/new?lang=en").get_data(as_text=True))
    data.update({"seat_1": str(guest), **{f"seat_{i}": str(p.id) for i, p in enumerate(players[:3], start=2)}})
    data["start"] = "1"
    answer = client.post("/nights/new?lang=en", data=data)
    assert answer.status_code == 400
    assert "seat 1 is not on the roster" in field_errors(answer.get_data(as_text=True), "seat_1")
    db.rollback()
    assert db.exec(select(Night).where(Night.tournament_id.is_(None))).first() is None


@pytest.mark.parametrize(
    ("lang", "stake", "refusal"),
    [
        (
            "en",
            "0.50",
            "the pot carried in holds 80 cents (8 units at 10): choose 10 cents, or a stake that makes 80 cents",
        ),
        ("de", "0,50", "im übertragenen Stock liegen 80 Cent (8 Einheiten zu 10): wähle 10 Cent oder einen Einsatz"),
    ],
)
def test_a_night_at_a_stake_that_splits_the_carried_pot_is_refused_at_the_stake(
    client, db, players, lang, stake, refusal
):
    """The carried pot's 80 cents are no whole, even number of units at 50 cents: the form says so at
    its stake, in the page's language, and starts nothing."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=10)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    answer = post_night(client, players, "schafkopf", 4, lang=lang, stake=stake)
    assert answer.status_code == 400
    assert refusal in page_text(answer.get_data(as_text=True))
    assert nights(db) == 1


@pytest.mark.parametrize(
    ("lang", "stake", "refusal"),
    [
        ("en", "30.00", "holds 8,000 cents (8 units at 1,000): choose 1,000 cents, or a stake that makes 8,000 cents"),
        ("de", "30,00", "liegen 8.000 Cent (8 Einheiten zu 1.000): wähle 1.000 Cent oder einen Einsatz"),
    ],
)
def test_the_carried_pots_refusal_groups_its_stake_as_its_cents(client, db, players, lang, stake, refusal):
    """The pot's cents were grouped as the page's language groups thousands and the stake beside them was not:
    "8,000 cents (8 units at 1000): choose 1000 cents"."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=1000)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    answer = post_night(client, players, "schafkopf", 4, lang=lang, stake=stake)
    assert answer.status_code == 400
    assert refusal in page_text(answer.get_data(as_text=True))
    assert nights(db) == 1
