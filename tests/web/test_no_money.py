"""Issue 26.3 and 26.4: a game played without a stake shows and exports what it is played for, never money
columns of zeros; the leaderboard opens on a game the club plays for money; the CSV is written for the
reader's spreadsheet (";" in German); a German player page speaks German."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest

from scorekeeper.core.hands import add_hands
from tests.support import EURO, answer_text, page_text, start_night

KONTER = [{"trump_team": "A", "points_a": 30}, {"trump_team": "B", "points_a": 10}]
MATT = [{"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 3, "card": "K"}]


def night_with(db, players, game, hands, seats=4, rules=None, played_on=date(2026, 3, 1)):
    night = start_night(db, players, game, seats, rules, played_on=played_on)
    add_hands(db=db, night_id=night.id, hands=hands)
    return night


def balance_headers(page: str) -> list[str]:
    table = re.search(r'<table class="balance"[^>]*>\s*<thead><tr>(.*?)</tr>', page, re.S)
    return re.findall(r"<th[^>]*>(.*?)</th>", table.group(1)) if table else []


def balance_rows(page: str) -> list[list[str]]:
    table = re.search(r'<table class="balance"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    assert table, page
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    return [[page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]


def test_konter_a_matt_and_matt_without_a_stake_show_no_money_on_the_table_page(client, db, players):
    konter, matt = night_with(db, players, "konter_a_matt", KONTER), night_with(db, players, "matt", MATT, 2)
    for night, headers in ((konter, ["Spieler", "Team", "Striche"]), (matt, ["Spieler", "Gewonnene Partien"])):
        page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
        assert balance_headers(page) == headers, night.game
        assert not re.search(r"0,00\s+EUR", page)  # however spaced
    staked = night_with(db, players, "konter_a_matt", KONTER, rules={"stake_per_game": 1})
    page = client.get(f"/nights/{staked.id}?lang=de").get_data(as_text=True)
    assert balance_headers(page) == ["Spieler", "Einheiten", "Geld"]  # with a stake: its money


def test_konter_a_matt_without_a_stake_stands_each_player_with_the_team_and_its_strokes(client, db, players):
    """Polish 3: no table of names alone: each player's team (A: seats 1 and 3) and the strokes it has left in
    the game under way, as the engine keeps them (A won a partie: 10; B won one: 10; a third partie to B: 9)."""
    night = night_with(db, players, "konter_a_matt", [*KONTER, {"trump_team": "B", "points_a": 10}])
    strokes = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    assert [row[1:] for row in balance_rows(strokes)] == [["A", "10"], ["B", "9"], ["A", "10"], ["B", "9"]]
    assert [row[0].split()[0] for row in balance_rows(strokes)] == ["Anna", "Bernd", "Clara", "Dieter"]
    english = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert balance_headers(english) == ["Player", "Team", "Strokes"]


@pytest.mark.parametrize(
    "lang, headers, result",
    [
        ("de", ["Spieler", "Team", "Striche"], "Ergebnis Gewonnene Spiele: A (Anna + Clara) 0 : 0 B (Bernd + Dieter)"),
        ("en", ["Player", "Team", "Strokes"], "Result Games won: A (Anna + Clara) 0 : 0 B (Bernd + Dieter)"),
    ],
)
def test_konter_a_matt_without_a_stake_has_no_empty_standing_before_its_first_partie(
    client, db, players, lang, headers, result
):
    """Before the first partie too, the table page's standing has columns (each player's team and its strokes,
    the game's start), never a heading over names alone; the settlement's result says the games won."""
    night = night_with(db, players, "konter_a_matt", [])
    page = client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
    assert balance_headers(page) == headers
    assert [row[1:] for row in balance_rows(page)] == [["A", "11"], ["B", "11"], ["A", "11"], ["B", "11"]]
    assert result in answer_text(client.get(f"/nights/{night.id}/summary?lang={lang}"))


def test_matt_without_a_stake_stands_each_player_with_the_matches_won(client, db, players):
    """No table of names alone: each player's matches won, as the engine counts them. A match is four
    Durchgänge: Anna mates with 33, Bernd with 8, a draw, Anna with 33 again: Anna wins it 66 : 8."""
    anna_33, bernd_8 = {"mated_by": 1, "move": 3, "card": "A"}, {"mated_by": 2, "move": 2, "card": "K"}
    night = night_with(db, players, "matt", [anna_33, bernd_8, {"mated_by": None}, anna_33, bernd_8], 2)
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert balance_headers(page) == ["Player", "Matches won"]
    assert [row[0].split()[0] for row in balance_rows(page)] == ["Anna", "Bernd"]
    assert [row[1] for row in balance_rows(page)] == ["1", "0"]
    assert "Matches won: Anna 1 : 0 Bernd" in answer_text(client.get(f"/nights/{night.id}?lang=en"))


def test_matts_matches_won_set_their_figures_in_bold_as_the_score_does(client, db, players):
    """The two lines of figures under the match read alike: the match's score and the matches won, each
    figure in <strong>, the second name held to the figures by no-break spaces."""
    anna_33 = {"mated_by": 1, "move": 3, "card": "A"}
    night = night_with(db, players, "matt", [anna_33] * 4, 2)  # match 1 won by Anna 132 : 0
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    states = re.findall(r'<p class="state">(.*?)</p>', page, re.S)
    (score,) = [p for p in states if p.startswith("Partie 1:")]
    (won,) = [p for p in states if p.startswith("Gewonnene Partien:")]
    bernd = '&nbsp;<span class="who">Bernd</span>'
    assert score.startswith(f"Partie 1: Anna <strong>132</strong>&nbsp;:&nbsp;<strong>0</strong>{bernd}"), score
    assert won == f"Gewonnene Partien: Anna <strong>1</strong>&nbsp;:&nbsp;<strong>0</strong>{bernd}"


def test_the_settlement_of_a_night_without_a_stake_shows_what_it_was_played_for(client, db, players):
    konter = night_with(db, players, "konter_a_matt", KONTER)
    page = answer_text(client.get(f"/nights/{konter.id}/summary?lang=de"))
    assert "Ergebnis Gewonnene Spiele: A (Anna + Clara) 0 : 0 B (Bernd + Dieter)" in page
    assert not EURO.search(page) and "Wer zahlt wem" not in page
    assert "Striche" in page  # the strokes of the game under way
    matt = night_with(db, players, "matt", MATT, 2)
    page = answer_text(client.get(f"/nights/{matt.id}/summary?lang=de"))
    assert not EURO.search(page) and "Gewonnene Partien" in page


def csv_rows(answer) -> list[list[str]]:
    body = answer.get_data(as_text=True).lstrip("\ufeff")
    delimiter = ";" if body.split("\r\n", 1)[0].count(";") else ","
    return list(csv.reader(io.StringIO(body), delimiter=delimiter))


def test_the_konter_a_matt_csv_without_a_stake_keeps_the_strokes_not_zero_columns(client, db, players):
    night = night_with(db, players, "konter_a_matt", KONTER)
    rows = csv_rows(client.get(f"/nights/{night.id}/export.csv?lang=en"))
    assert rows[0] == [
        "Partie",
        "Dealer",
        "Result",
        "Played by",
        "Marks",
        "Value",
        "Strokes A",
        "Strokes B",
        "Game won by",
    ]
    assert [row[6:] for row in rows[1:]] == [["10", "11", ""], ["10", "10", ""]]


def test_the_matt_csv_keeps_the_match_score(client, db, players):
    night = night_with(db, players, "matt", MATT, 2)
    rows = csv_rows(client.get(f"/nights/{night.id}/export.csv?lang=en"))
    assert rows[0][6:] == ["Match", "Match Anna", "Match Bernd", "Anna", "Bernd"]
    assert [row[6:] for row in rows[1:]] == [["1", "77", "0", "77", "0"], ["1", "77", "12", "0", "12"]]


def test_the_csv_is_written_for_the_readers_spreadsheet(client, db, players):
    night = night_with(db, players, "matzlfangen", [{"contract": "rufen", "partner": 3, "points": 70}])
    german = client.get(f"/nights/{night.id}/export.csv?lang=de").get_data(as_text=True)
    assert german.lstrip("\ufeff").startswith("Spiel;Geber;")
    english = client.get(f"/nights/{night.id}/export.csv?lang=en").get_data(as_text=True)
    assert english.lstrip("\ufeff").startswith("Hand,Dealer,")
    both = client.get(f"/nights/{night.id}/export.csv?lang=de&sep=comma").get_data(as_text=True)
    assert both.lstrip("\ufeff").startswith("Spiel,Geber,")
    summary = client.get(f"/nights/{night.id}/summary?lang=de").get_data(as_text=True)
    assert "export.csv?sep=comma" in summary  # both are offered


def test_the_leaderboard_opens_on_a_game_played_for_money(client, db, players):
    night_with(
        db, players, "matzlfangen", [{"contract": "rufen", "partner": 3, "points": 70}], played_on=date(2026, 2, 1)
    )
    night_with(db, players, "matt", MATT, 2, played_on=date(2026, 3, 1))  # the newest, without a stake
    night_with(db, players, "matt", MATT, 2, played_on=date(2026, 3, 2))
    page = answer_text(client.get("/leaderboard?lang=en"))
    assert "Matzlfangen · Season 2026" in page


def test_a_player_page_names_no_best_night_without_money_and_speaks_german(client, db, players):
    night = night_with(db, players, "matt", MATT, 2)
    page = answer_text(client.get(f"/players/{players[0].id}?lang=de"))
    assert "Bester Abend" not in page  # a Matt night without a stake brought no money: it is no best night
    assert "Matches" not in page and "Matt: Partien gewonnen" in page
    assert night.id


def test_the_leaderboard_of_konter_a_matt_without_a_stake_shows_no_money(client, db, players):
    """A season of a game played for honour has no "Money" column of 0.00 EUR nor units per hand of 0.00
    (docs/using.md: "no units, money or payments anywhere"); it opens sorted by the hands won."""
    night_with(db, players, "konter_a_matt", KONTER, played_on=date(2026, 3, 1))
    answer = client.get("/leaderboard?lang=en&game=konter_a_matt&season=2026")
    page = answer_text(answer)
    assert "Konter a Matt · Season 2026" in page
    assert not EURO.search(page)  # no money column of 0.00 EUR for a game the club plays for honour
    assert "per hand" not in page.lower() and "0.00" not in page  # nor sorted by money or units per hand
    assert "Played for honour, not money." in page and "wins % ▾" in page
    asked = answer_text(client.get("/leaderboard?lang=en&game=konter_a_matt&season=2026&sort=money"))
    assert "wins % ▾" in asked and not EURO.search(asked) and "per hand" not in asked.lower()
    german = answer_text(client.get("/leaderboard?lang=de&game=konter_a_matt&season=2026"))
    assert "Um die Ehre gespielt, nicht um Geld." in german and not EURO.search(german)


def test_the_leaderboard_of_a_season_with_a_staked_night_shows_its_money(client, db, players):
    night_with(db, players, "konter_a_matt", KONTER, played_on=date(2026, 3, 1))
    night_with(db, players, "konter_a_matt", KONTER, rules={"stake_per_game": 1}, played_on=date(2026, 3, 2))
    page = answer_text(client.get("/leaderboard?lang=en&game=konter_a_matt&season=2026"))
    assert "Money" in page and "0.00 EUR" in page and "per hand" in page  # no game ended yet: 0.00 paid


def test_a_player_page_shows_no_money_for_nights_played_without_a_stake(client, db, players):
    night_with(db, players, "matt", MATT, 2, played_on=date(2026, 3, 2))
    page = answer_text(client.get(f"/players/{players[0].id}?lang=en"))
    assert "Matt" in page
    assert not EURO.search(page)  # "0.00 EUR net", a "Money (EUR)" column of 0.00: money that was never played for
    assert "Balance over the nights" not in page and "<svg" not in client.get(f"/players/{players[0].id}").text


def test_a_player_page_shows_money_for_the_nights_played_for_money_only(client, db, players):
    """Anna played a Matt for honour and a Matzlfangen for 10 cents a unit (lost one hand: -0.10 EUR): money
    for the Matzlfangen, "–" where the Matt's would be, and the chart of the one night played for money."""
    night_with(db, players, "matt", MATT, 2, played_on=date(2026, 3, 1))
    night_with(
        db, players, "matzlfangen", [{"contract": "rufen", "partner": 3, "points": 70}], played_on=date(2026, 3, 2)
    )
    answer = client.get(f"/players/{players[0].id}?lang=en")
    page = answer_text(answer)
    assert "-0.10 EUR net" in page and "Money (EUR)" in page
    rows = re.findall(r"<tr>(<td>.*?)</tr>", answer.get_data(as_text=True), re.S)
    cells = [[page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]
    assert ["Matt", "1", "2", "–"] in cells and ["Matzlfangen", "1", "1", "-0.10 -1"] in cells
    assert "–: played for honour, not money." in page
    assert "Balance over the nights" in page and "Worst night" in page
    german = answer_text(client.get(f"/players/{players[0].id}?lang=de"))
    assert "–: um die Ehre gespielt, nicht um Geld." in german


def test_the_charts_y_axis_has_room_for_its_longest_value(app):
    from scorekeeper.web.charts import AXIS_FIGURE, chart_svg

    with app.test_request_context("/?lang=de"):
        svg = str(chart_svg([[0, -1234567, 250000]], ["Anna"]))
    labels = re.findall(r'<text x="([\d.]+)"[^>]*text-anchor="end"[^>]*>([^<]*)</text>', svg)
    assert any(text.startswith("-12345") for _, text in labels), labels
    for x, text in labels:  # each value, right-aligned at x, starts inside the chart
        assert float(x) - AXIS_FIGURE * len(text) >= 0, (x, text)


def test_the_pdf_log_of_a_night_without_a_stake_has_no_columns_of_zeros(app, db, players):
    from scorekeeper.core.table import load_table
    from scorekeeper.web.pdf import summary_html

    night = night_with(db, players, "konter_a_matt", KONTER)
    with app.test_request_context("/?lang=de"):
        html = summary_html(load_table(db=db, night_id=night.id))
    log = html[html.index('<section class="log">') :]
    head, body = log.split("<tbody>", 1)
    assert "Dieter" not in head and not EURO.search(html)
    assert [cell.split() for cell in re.findall(r'<td class="figures">([^<]*)</td>', body)] == [["1"], ["1"]]


#: A Sauspiel won by the declarer's side, then a Rundpass that leaves 8 units in the pot (split at the close).
SCHAFKOPF = [
    {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 70},
    {"contract": "rundpass"},
]
MATZLFANGEN = [{"contract": "rufen", "partner": 3, "points": 70}]


@pytest.mark.parametrize("game, hands", [("schafkopf", SCHAFKOPF), ("matzlfangen", MATZLFANGEN)])
def test_a_night_at_a_stake_of_0_shows_its_units_and_no_money(client, db, players, game, hands):
    """A stake of 0 is valid: the night is played for units (for honour). Its table page (open and closed), its
    settlement, its PDF and the history pages show no money of 0.00 EUR, no stake and no payments; its units stay."""
    from scorekeeper.core.nights import close_night
    from scorekeeper.core.table import load_table
    from scorekeeper.web.pdf import summary_html

    night = start_night(db, players, game, stake_cents=0, played_on=date(2026, 3, 1))
    add_hands(db=db, night_id=night.id, hands=hands)
    for lang, headers in (("en", ["Player", "Units"]), ("de", ["Spieler", "Einheiten"])):
        page = client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
        assert balance_headers(page) == headers, lang
        assert not EURO.search(page), lang
    assert [row[1] for row in balance_rows(page)] == [str(u) for u in load_table(db=db, night_id=night.id).balance]
    close_night(db=db, night_id=night.id)
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert balance_headers(page) == ["Player", "Units"] and not EURO.search(page)
    for lang, units, payments in (("en", "Units", "Who pays whom"), ("de", "Einheiten", "Wer zahlt wem")):
        answer = client.get(f"/nights/{night.id}/summary?lang={lang}")
        summary = answer.get_data(as_text=True)
        assert not EURO.search(summary) and payments not in answer_text(answer)
        assert balance_headers(summary) == [{"en": "Player", "de": "Spieler"}[lang], units], lang
        assert [row[1] for row in balance_rows(summary)] == [row[1] for row in balance_rows(page)]  # as the table's
    with client.application.test_request_context("/?lang=en"):
        assert not EURO.search(summary_html(load_table(db=db, night_id=night.id)))
    assert "Each player's units after each hand" in answer_text(client.get(f"/nights/{night.id}/summary?lang=en"))
    if game == "schafkopf":  # the Rundpass left 8 units in the pot, shared out at the close: units, no money
        assert "Pot: 8 units. Shared out at the close." in answer_text(client.get(f"/nights/{night.id}?lang=en"))
        german = answer_text(client.get(f"/nights/{night.id}/summary?lang=de"))
        assert "Stock: 8 Einheiten. Beim Abschluss aufgeteilt." in german
        assert "Einheiten jedes Spielers nach jedem Spiel" in german
    for path in ("/nights/", f"/players/{players[0].id}", f"/leaderboard?game={game}&season=2026"):
        assert not EURO.search(answer_text(client.get(f"{path}{'&' if '?' in path else '?'}lang=en"))), path


def test_a_matt_night_with_a_stake_per_point_at_a_stake_of_0_shows_its_units_and_no_money(client, db, players):
    """Matt's units are the balance (stake_per_point times the points' difference); the stake per unit turns them
    into money: at 0 there is none, and its units (the points) stay."""
    night = start_night(db, players, "matt", 2, {"stake_per_point": 1}, stake_cents=0)
    add_hands(db=db, night_id=night.id, hands=MATT)
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    assert balance_headers(page) == ["Player", "Units"] and not EURO.search(page)
    assert not EURO.search(client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True))


def payment_rows(page: str, number: int) -> list[tuple[str, list[str]]]:
    """The rows of hand ``number``'s payments on the table page: each row's class and its cells."""
    hand = re.search(rf'<details class="hand card" id="hand-{number}">.*?</details>', page, re.S)
    assert hand, page
    rows = re.findall(r'<tr class="([^"]*)">(.*?)</tr>', hand.group(0), re.S)
    return [(cls, [page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]) for cls, r in rows]


def test_a_hand_rows_colour_follows_its_money_where_money_is_shown(client, db, players):
    """Matt's hand pays its share of the balance, not its points: in the second hand Anna makes 0 points and
    pays 1.20 EUR (Bernd 12 points, a stake per point of 1, 10 cents a unit): her row is a loss, not colourless."""
    night = start_night(db, players, "matt", 2, {"stake_per_point": 1})
    add_hands(db=db, night_id=night.id, hands=MATT)
    rows = payment_rows(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True), 2)
    assert rows == [("minus", ["Anna", "+0", "-1.20 EUR"]), ("plus", ["Bernd", "+12", "1.20 EUR"])]


def test_a_closed_nights_balance_row_colour_follows_its_money_with_the_pot_shared(client, db, players):
    """At a table of five the dealer (Anna) sits out the Rundpass: 0 units; the pot's 8 units are shared at the
    close, 0.16 EUR each: her row of the closed night's balance shows a gain, as its money does."""
    from scorekeeper.core.nights import close_night

    night = start_night(db, players, "schafkopf", 5)
    add_hands(db=db, night_id=night.id, hands=[{"contract": "rundpass"}])
    close_night(db=db, night_id=night.id)
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    rows = re.findall(r'<tr class="([^"]*)" data-position="(\d)">(.*?)</tr>', page, re.S)
    cls, _, anna = rows[0]
    assert (cls, [page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", anna, re.S)]) == (
        "plus",
        ["Anna", "0", "0.16 EUR"],
    )
