"""The history pages: the nights list with filters and paging, a player's page, the leaderboard,
and roster care (merge, retire) through the web. The numbers themselves are checked against
hand-computed values in tests/core/test_history.py; here: what the pages show and refuse."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from sqlmodel import func, select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import add_hands, record_hand
from scorekeeper.core.models import NightResult, Player, RosterChange, Seat
from scorekeeper.core.nights import close_night, create_night
from scorekeeper.core.players import create_player, roster_changes
from tests.support import RUFEN_HIRSCH, answer_text, start_night
from tests.support_tournament import make_tournament

RUFEN_WON = {"contract": "rufen", "partner": 3, "points": 70}  # Bernd (forehand) and Clara win: 1 unit each


def errors_of(answer) -> list[str]:
    return re.findall(r'<ul class="errors"[^>]*><li>(.*?)</li>', answer.get_data(as_text=True))


def night_with(db, players, hands, played_on, **kwargs):
    night = start_night(db, players, played_on=played_on, **kwargs)
    if hands:
        add_hands(db=db, night_id=night.id, hands=hands)
    return night


def counts(db) -> tuple[int, int, int, int]:
    """Everything roster care could change."""
    return (
        db.exec(select(func.count()).select_from(Player)).one(),
        db.exec(select(func.count()).select_from(Seat)).one(),
        db.exec(select(func.count()).select_from(NightResult)).one(),
        db.exec(select(func.count()).select_from(RosterChange)).one(),
    )


# --- the nights list -----------------------------------------------------------------


def test_the_nights_list_without_nights_invites_to_start_one(client):
    answer = client.get("/nights/?lang=en")
    assert answer.status_code == 200
    assert "No nights yet." in answer_text(answer)


def test_the_nights_list_shows_a_night_with_its_players_hands_and_biggest_winner(client, db, players):
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    page = answer_text(client.get("/nights/?lang=en"))
    assert "Matzlfangen" in page
    assert "Anna, Bernd, Clara, Dieter · 1 hand · top: Bernd, Clara 0.10 EUR each" in page


def test_the_start_page_is_the_nights_list(client):
    answer = client.get("/")
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("/nights/")


def test_many_nights_are_paged_newest_first_and_the_links_keep_the_filter(client, db, players):
    for i in range(30):
        night_with(db, players, [], date(2026, 1, 1) + timedelta(days=i))
    first = client.get("/nights/?lang=en&game=matzlfangen").get_data(as_text=True)
    assert "page 1 of 2" in first
    assert first.index("30.01.2026" if False else "2026-01-30") < first.index("2026-01-29")
    assert "2026-01-05" not in first  # the 26th newest is on the second page
    older = re.search(r'href="([^"]+)">older', first).group(1).replace("&amp;", "&")
    assert "game=matzlfangen" in older and "page=2" in older
    second = client.get(older + "&lang=en").get_data(as_text=True)
    assert "page 2 of 2" in second and "2026-01-05" in second and "2026-01-30" not in second


def test_a_page_past_the_end_shows_the_last_page(client, db, players):
    night_with(db, players, [], date(2026, 1, 1))
    answer = client.get("/nights/?page=99&lang=en")
    assert answer.status_code == 200
    assert "2026-01-01" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("game=schafkopf", ["2025-05-05"], ["2026-02-02", "2026-06-06"]),
        ("season=2025", ["2025-05-05"], ["2026-02-02", "2026-06-06"]),
        ("since=2026-02-02&until=2026-02-02", ["2026-02-02"], ["2025-05-05", "2026-06-06"]),
        ("place=Ochsen", ["2026-06-06"], ["2025-05-05", "2026-02-02"]),
        ("player=5", ["2026-06-06"], ["2025-05-05", "2026-02-02"]),
        ("season=2026&game=matzlfangen&since=2026-03-01", ["2026-06-06"], ["2025-05-05", "2026-02-02"]),
    ],
)
def test_the_nights_list_filters_by_game_season_dates_place_and_player(client, db, players, query, shown, hidden):
    night_with(db, players, [], date(2025, 5, 5), game="schafkopf")
    night_with(db, players, [], date(2026, 2, 2))
    night = create_night(
        db=db,
        game="matzlfangen",
        rules=None,
        stake_cents=10,
        player_ids=[p.id for p in players[1:5]],
        first_dealer=1,
        played_on=date(2026, 6, 6),
        place="Ochsen",
    )
    assert night.id
    page = client.get(f"/nights/?lang=en&{query}").get_data(as_text=True)
    assert all(day in page for day in shown), query
    assert not any(day in page for day in hidden), query


def test_a_filter_that_matches_nothing_says_so(client, db, players):
    night_with(db, players, [], date(2026, 1, 1))
    answer = client.get("/nights/?lang=en&game=matt")
    assert answer.status_code == 200
    assert "No night matches this filter." in answer_text(answer)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=poker", "Not a valid choice."),
        ("player=abc", "Not a valid choice."),
        ("player=99", "Not a valid choice."),
        ("season=1999", "Not a valid choice."),
        ("place=%3Cscript%3E", "Not a valid choice."),
        ("since=2026-13-45", "Not a valid date value."),
        ("since=2026-03-01&until=2026-02-01", "The last day must not be before the first."),
        ("page=0", "Number must be between 1 and 1000000."),
        ("page=x" * 3, "Not a valid integer value."),
    ],
)
def test_a_bad_filter_is_refused_with_a_message_and_the_list_unfiltered(client, db, players, query, message):
    night_with(db, players, [], date(2026, 1, 1))
    answer = client.get(f"/nights/?lang=en&{query}")
    assert answer.status_code == 400
    assert message in errors_of(answer)
    assert "2026-01-01" in answer.get_data(as_text=True)
    assert "<script>" not in answer.get_data(as_text=True)


def test_the_filter_messages_are_german_by_default(client):
    answer = client.get("/nights/?since=2026-03-01&until=2026-02-01")
    assert answer.status_code == 400
    assert errors_of(answer) == ["Der letzte Tag darf nicht vor dem ersten liegen."]


# --- a player's page -----------------------------------------------------------------


def test_a_player_without_nights_has_a_page_that_says_so(client, players):
    answer = client.get(f"/players/{players[4].id}?lang=en")
    assert answer.status_code == 200
    assert "Eva has not played a hand yet." in answer_text(answer)
    assert "<svg" not in answer.get_data(as_text=True)


def test_a_players_page_shows_totals_records_contracts_and_a_chart(client, db, players):
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    night_with(db, players, [RUFEN_WON, RUFEN_WON], date(2026, 3, 8), first_dealer=4)  # Anna is forehand: she calls
    answer = client.get(f"/players/{players[1].id}?lang=en")
    page = answer_text(answer)
    assert answer.status_code == 200
    assert "2 nights 3 hands" in page
    assert "Best night: 2026-03-01, Matzlfangen 0.10 EUR" in page
    assert "Longest winning streak: 1 night" in page
    assert "Matzlfangen Rufen 2 / 2 100 %" in page  # Bernd called in the first night and in the second's 2nd hand
    svg = re.search(r"<svg.*?</svg>", answer.get_data(as_text=True), re.S).group(0)
    assert "2026-03-01" in svg and "2026-03-08" in svg and "Bernd" in svg


def test_a_players_chart_of_nights_on_one_day_writes_that_day_once(client, db, players):
    """A player of a single night (or of nights all on one day): the chart's x axis says that day once, not at
    both ends, in both languages; nights on two days keep a day at each end."""
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    for lang, written in (("en", "2026-03-01"), ("de", "01.03.2026")):
        page = client.get(f"/players/{players[1].id}?lang={lang}").get_data(as_text=True)
        svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
        assert svg.count(written) == 1, svg
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))  # a second night on the same day
    svg = re.search(r"<svg.*?</svg>", client.get(f"/players/{players[1].id}?lang=en").get_data(as_text=True), re.S)
    assert svg.group(0).count("2026-03-01") == 1
    night_with(db, players, [RUFEN_WON], date(2026, 3, 8))
    svg = re.search(r"<svg.*?</svg>", client.get(f"/players/{players[1].id}?lang=en").get_data(as_text=True), re.S)
    assert svg.group(0).count("2026-03-01") == 1 and svg.group(0).count("2026-03-08") == 1


def test_a_players_streak_of_nights_on_one_day_writes_that_day_once(client, db, players):
    """A streak of one night says its day once, not "(2026-03-01 – 2026-03-01)"; of nights on two days, both."""
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    assert "Longest winning streak: 1 night (2026-03-01) " in answer_text(
        client.get(f"/players/{players[1].id}?lang=en")
    )
    assert "Längste Gewinnserie: 1 Abend (01.03.2026) " in answer_text(client.get(f"/players/{players[1].id}?lang=de"))
    night_with(db, players, [RUFEN_WON], date(2026, 3, 8))
    text = answer_text(client.get(f"/players/{players[1].id}?lang=en"))
    assert "Longest winning streak: 2 nights (2026-03-01 – 2026-03-08) " in text


def test_a_players_records_keep_an_amount_and_its_currency_together(client, db, players):
    """The records' "Best night: 2026-03-01, Matzlfangen 0.10 EUR" wraps on a phone, never between "0.10" and "EUR"."""
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    night_with(db, players, [{"contract": "rufen", "partner": 3, "points": 40}], date(2026, 3, 8))  # Bernd loses
    english = client.get(f"/players/{players[1].id}?lang=en").get_data(as_text=True)
    assert re.search(r'Best night: .*?<span class="gain">0\.10\xa0EUR</span>', english)
    assert re.search(r'Worst night: .*?<span class="loss">-0\.10\xa0EUR</span>', english)
    german = client.get(f"/players/{players[1].id}?lang=de").get_data(as_text=True)
    assert re.search(r'Bester Abend: .*?<span class="gain">0,10\xa0EUR</span>', german)
    # the net figure's tile, narrower than a line: the currency may go under the amount (not "0.10 EU" and "R")
    assert re.search(r'<div><strong><span class="">0\.00 EUR</span></strong><span>net</span></div>', english)


@pytest.mark.parametrize("path", ["/players/999", "/players/0", f"/players/{2**31}", "/players/-1"])
def test_the_page_of_an_unknown_player_is_not_found(client, path):
    assert client.get(path).status_code == 404


# --- the leaderboard ------------------------------------------------------------------


def test_the_leaderboard_without_nights_renders(client):
    answer = client.get("/leaderboard?lang=en")
    assert answer.status_code == 200
    assert "No nights of this game in this season." in answer_text(answer)


def test_the_leaderboard_shows_the_newest_seasons_standings_by_money(client, db, players):
    clara_calls_bernd = {"contract": "rufen", "partner": 2, "points": 70}  # the second hand: Clara is forehand
    night_with(db, players, [RUFEN_WON, clara_calls_bernd], date(2026, 3, 1))
    page = answer_text(client.get("/leaderboard?lang=en"))
    assert "Matzlfangen · Season 2026" in page
    # Bernd and Clara won 2 hands of 1 unit (10 cents): +0.20 each; Anna and Dieter -0.20
    order = [page.index(name) for name in ("Bernd", "Clara", "Anna", "Dieter")]
    assert order == sorted(order)
    assert "0.20 EUR 2 units +1.00" in page and "-0.20 EUR -2 units -1.00" in page  # money, its units under it


@pytest.mark.parametrize("query", ["sort=luck", "season=abc", "season=1999", "game=poker"])
def test_a_bad_leaderboard_choice_is_refused_with_a_message(client, db, players, query):
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    answer = client.get(f"/leaderboard?lang=en&{query}")
    assert answer.status_code == 400
    assert errors_of(answer) == ["Not a valid choice."]


def test_the_leaderboard_opens_on_the_season_of_the_clubs_newest_night_not_of_a_tournament_table(client, db, players):
    night = start_night(db, players, played_on=date(2026, 12, 20))
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    close_night(db=db, night_id=night.id)
    t = make_tournament(db, played_on=date(2027, 1, 2))  # the club's New Year's tournament
    tm.draw_round(db=db, tournament_id=t.id)
    answer = client.get("/leaderboard?lang=en")
    page = answer_text(answer)
    # a tournament's tables are not in the club's history (docs/tournaments.md): the newest season with a
    # night of the club is 2026, where the leaderboard has its four players
    assert "Matzlfangen · Season 2026" in page, page
    assert all(name in page for name in ("Anna", "Bernd", "Clara", "Dieter"))
    # nor is the tournament's season offered, here or on the nights list
    for path in ("/leaderboard?lang=en", "/nights/?lang=en"):
        seasons = re.search(r'<select[^>]*name="season"[^>]*>(.*?)</select>', client.get(path).text, re.S)
        assert seasons and ">2026<" in seasons.group(1) and "2027" not in seasons.group(1), path


def test_the_leaderboard_takes_the_season_start_from_the_configuration(app, client, db, players):
    app.config["SEASON_START"] = (8, 1)
    night_with(db, players, [RUFEN_WON], date(2026, 3, 1))
    page = answer_text(client.get("/leaderboard?lang=en"))
    assert "Season 2025/26 (2025-08-01 – 2026-07-31)" in page


# --- roster care ------------------------------------------------------------------------


def test_merging_a_duplicate_moves_its_nights_and_is_shown_on_the_page(client, db, players):
    twin = create_player(db=db, name="Anna H.")
    twin_id = twin.id
    night = create_night(
        db=db,
        game="matzlfangen",
        rules=None,
        stake_cents=10,
        player_ids=[twin.id, *(p.id for p in players[1:4])],
        first_dealer=1,
        played_on=date(2026, 1, 1),
    )
    add_hands(db=db, night_id=night.id, hands=[RUFEN_WON])
    answer = client.post(f"/players/{players[0].id}/merge", data={"other": str(twin_id), "confirm": "y"})
    assert answer.status_code == 302
    db.rollback()
    db.expire_all()
    assert db.get(Player, twin_id) is None
    page = answer_text(client.get(f"/players/{players[0].id}?lang=en"))
    assert "1 nights" in page or "1 night" in page
    assert "Anna H. merged into this record (1 nights)" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"confirm": "y"}, "Choose the record to merge into this one."),
        ({"other": "2"}, "Tick the box to confirm that both records are the same person."),
        ({"other": "1", "confirm": "y"}, "choose another player: a record cannot be merged with itself"),
        ({"other": "999", "confirm": "y"}, "There is no such player."),
        ({"other": "x'; DROP TABLE player;--", "confirm": "y"}, "choose the record to merge into this one"),
        ({"other": "2", "confirm": "y"}, "Anna and Bernd sat at the same night (night 1): they are two people"),
    ],
)
def test_a_merge_that_cannot_be_done_is_refused_with_a_message_and_changes_nothing(client, db, players, data, message):
    night_with(db, players, [RUFEN_WON], date(2026, 1, 1))
    before = counts(db)
    answer = client.post(f"/players/{players[0].id}/merge?lang=en", data=data)
    assert answer.status_code == 400
    assert message in errors_of(answer)
    db.rollback()
    db.expire_all()
    assert counts(db) == before


def test_retiring_takes_a_player_off_the_seat_picker_and_back(client, db, players):
    answer = client.post(f"/players/{players[4].id}/retire", data={"retired": "1"})
    assert answer.status_code == 302
    picker = client.get("/nights/new").get_data(as_text=True)
    assert ">Eva<" not in picker and ">Anna<" in picker
    assert "Retired" in answer_text(client.get("/players/?lang=en"))
    client.post(f"/players/{players[4].id}/retire", data={"retired": "0"})
    assert ">Eva<" in client.get("/nights/new").get_data(as_text=True)
    db.rollback()
    db.expire_all()
    assert [c.action for c in roster_changes(db=db, player_id=players[4].id)] == ["retire", "unretire"]


@pytest.mark.parametrize("data", [{}, {"retired": "maybe"}])
def test_a_bad_retire_form_is_refused_and_changes_nothing(client, db, players, data):
    answer = client.post(f"/players/{players[4].id}/retire?lang=en", data=data)
    assert answer.status_code == 400
    assert "The form was not complete" in answer.get_data(as_text=True)
    db.rollback()
    db.expire_all()
    assert db.get(Player, players[4].id).retired is False


def test_retire_is_a_post_only(client, players):
    assert client.get(f"/players/{players[0].id}/retire").status_code == 405
