"""Issue 14 (8, 10, 11): one word per thing in each game (Spiel, Partie, Durchgang), Konter a Matt's
strokes after every partie (rows, preview, PDF, chart), Matt's match on the table page during it
and after it."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import edit_hand, record_hand
from scorekeeper.core.players import create_player
from scorekeeper.core.table import load_table
from scorekeeper.web.charts import LEGEND_FULL, chart_svg
from scorekeeper.web.pdf import context, summary_html, summary_pdf
from scorekeeper.web.view import hand_views, hand_word
from tests.support import page_text, pdf_text, start_night, submit

#: Konter a Matt: team A has trumps and wins 40:0 with schwarz, matt and konter: A's strokes fall by 4.
BIG_A = {"trump_team": "A", "points_a": 40, "schwarz": True, "matt": True, "konter": True}
#: Team B has trumps and wins 30:10: B's strokes fall by 1.
SMALL_B = {"trump_team": "B", "points_a": 10}
#: Matt: mate on move 3 with the ace (33 points), on move 2 with the king (8), a draw (nobody scores).
ANNA_33 = {"mated_by": 1, "move": 3, "card": "A"}
BERND_8 = {"mated_by": 2, "move": 2, "card": "K"}
DRAW = {"mated_by": None}


def record(db, night, *hands):
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)


def rows(page: str) -> dict[int, str]:
    """Hand number -> the text of its row's summary line."""
    return {
        int(n): page_text(s)
        for n, s in re.findall(r'<details class="hand card" id="hand-(\d+)">\s*<summary>(.*?)</summary>', page, re.S)
    }


def balance_card(page: str) -> str:
    return page_text(page.split('id="balance"', 1)[1].split("</section>", 1)[0])


@pytest.fixture
def konter(db, players):
    """Konter a Matt: Anna + Clara are team A, Bernd + Dieter team B; 11 strokes each, no stake."""
    return start_night(db, players, game="konter_a_matt")


@pytest.fixture
def matt(db, players):
    """Matt: Anna (seat 1) against Bernd (seat 2)."""
    return start_night(db, players, game="matt", seats=2)


# --- 8. one word per thing -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, game, one, many, inside, numbered",
    [
        ("de", "matzlfangen", "Spiel", "Spiele", "Spiele", "Spiel 3"),
        ("de", "schafkopf", "Spiel", "Spiele", "Spiele", "Spiel 3"),
        ("de", "konter_a_matt", "Partie", "Partien", "Partien", "Partie 3"),
        ("de", "matt", "Durchgang", "Durchgänge", "Durchgänge", "Durchgang 3"),
        ("en", "matzlfangen", "Hand", "Hands", "hands", "Hand 3"),
        ("en", "schafkopf", "Hand", "Hands", "hands", "Hand 3"),
        ("en", "konter_a_matt", "Partie", "Parties", "parties", "Partie 3"),
        ("en", "matt", "Durchgang", "Durchgänge", "Durchgänge", "Durchgang 3"),
    ],
)
def test_each_game_has_one_word_for_a_hand_in_each_language(app, lang, game, one, many, inside, numbered):
    with app.test_request_context(f"/?lang={lang}"):
        assert hand_word(game) == one
        assert hand_word(game, plural=True) == many
        assert hand_word(game, plural=True, lower=True) == inside
        assert hand_word(game, 3) == numbered


def test_the_word_is_a_template_global(app):
    with app.test_request_context("/?lang=de"):
        words = "{{ hand_word('konter_a_matt', 2) }} · {{ hand_word('matt', plural=True) }}"
        assert app.jinja_env.from_string(words).render() == "Partie 2 · Durchgänge"


@pytest.mark.parametrize(
    "game, seats, hand, de, en",
    [
        ("konter_a_matt", 4, SMALL_B, "Partie 1", "Partie 1"),
        ("matt", 2, ANNA_33, "Durchgang 1", "Durchgang 1"),
        ("matzlfangen", 4, {"contract": "durch", "declarer": 1, "won": True}, "Spiel 1", "Hand 1"),
    ],
)
def test_the_changes_of_a_hand_name_it_in_its_games_word(client, db, players, game, seats, hand, de, en):
    night = start_night(db, players, game=game, seats=seats)
    record(db, night, hand)
    edit_hand(db=db, night_id=night.id, number=1, hand=hand)
    german = page_text(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    english = page_text(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True))
    assert f"{de} eingetragen" in german and f"{de} unverändert gespeichert" in german
    assert f"{en} recorded" in english and f"{en} saved unchanged" in english
    assert game == "matzlfangen" or ("Spiel 1" not in german and "Hand 1" not in english)


# --- 10. Konter a Matt: the strokes after every partie -------------------------------------------


def test_each_konter_a_matt_row_shows_both_teams_strokes_after_its_partie_and_the_game_it_won(client, db, konter):
    record(db, konter, SMALL_B, BIG_A, BIG_A, BIG_A, SMALL_B)
    german = rows(client.get(f"/nights/{konter.id}?lang=de").get_data(as_text=True))
    strokes = [(11, 10), (7, 10), (3, 10), (0, 10), (11, 10)]  # after each partie; game 1 ends at A 0
    said = [f"Striche nach der Partie: A {a} : {b} B" in german[n] for n, (a, b) in enumerate(strokes, start=1)]
    assert said == [True] * 5
    assert "Spiel 1 gewonnen von Team A" in german[4]
    assert not any("gewonnen von Team" in german[n] for n in (1, 2, 3, 5))
    english = rows(client.get(f"/nights/{konter.id}?lang=en").get_data(as_text=True))
    assert "Strokes after the partie: A 0 : 10 B" in english[4] and "Game 1 won by team A" in english[4]


def test_the_konter_a_matt_state_says_which_team_won_the_game_just_ended(client, db, konter):
    record(db, konter, BIG_A, BIG_A, BIG_A)
    state = balance_card(client.get(f"/nights/{konter.id}?lang=de").get_data(as_text=True))
    assert "Spiel 1 gewonnen von Team A: A 0 : 11 B" in state
    assert "die nächste Partie beginnt Spiel 2" in state
    assert "Striche: A 11 · B 11" in state
    assert "gewonnene Spiele A 1 : B 0" in state
    record(db, konter, SMALL_B)
    state = balance_card(client.get(f"/nights/{konter.id}?lang=de").get_data(as_text=True))
    assert "gewonnen von Team" not in state and "Striche: A 11 · B 10" in state


def test_the_konter_a_matt_preview_shows_the_strokes_after_the_partie(client, db, konter):
    record(db, konter, BIG_A)
    answer = submit(client, konter.id, {"trump_team": "A", "points_a": 25}, action="preview", lang="de")
    assert answer.status_code == 200
    preview = page_text(answer.get_data(as_text=True).split("Vorschau", 1)[1])
    assert "Striche nach der Partie: A 6 : 11 B" in preview
    fragment = client.post(
        f"/nights/{konter.id}/hands/new?fragment=1&lang=en",
        data={
            **_form(client, konter),
            "trump_team": "A",
            "points_a": "40",
            "schwarz": "y",
            "matt": "y",
            "konter": "y",
            "action": "preview",
        },
    )
    assert "A 3 : 11 B" in page_text(fragment.get_data(as_text=True))


def _form(client, night) -> dict[str, str]:
    from tests.support import open_form

    return open_form(client, f"/nights/{night.id}/hands/new?lang=en")


def test_the_konter_a_matt_pdf_log_shows_the_strokes_and_its_chart_charts_them(app, client, db, konter, tmp_path):
    record(db, konter, SMALL_B, BIG_A, BIG_A, BIG_A)
    table = load_table(db=db, night_id=konter.id)
    with app.test_request_context("/?lang=de"):
        text = pdf_text(summary_pdf(table), tmp_path)
        chart = str(context(table)["chart"])
    log = text[text.index("Alle Partien") :]
    assert "Geber · Partie" in log
    assert re.search(r"Striche nach der Partie: A 11 : 10\s+B", log) and "Spiel 1 gewonnen von Team A" in log
    assert "Spiele" not in log.replace("Spiel 1 gewonnen", "")
    # the chart: both teams' strokes from 11, with the teams' names, whole numbers on the axis
    assert "Team A: Anna + Clara" in chart and "Team B: Bernd + Dieter" in chart
    assert 'aria-label="Striche beider Teams nach jeder Partie"' in chart
    assert len(re.findall(r"<polyline ", chart)) == 2 and ">11<" in chart and ",00<" not in chart


# --- 11. Matt: the match during it and after it --------------------------------------------------


def test_each_matt_row_shows_both_players_points_the_match_after_it_and_its_winner(client, db, matt):
    record(db, matt, ANNA_33, BERND_8, DRAW, ANNA_33, BERND_8)
    german = rows(client.get(f"/nights/{matt.id}?lang=de").get_data(as_text=True))
    assert "Anna 33 : 0 Bernd" in german[1] and "Partie 33 : 0" in german[1]
    assert "Anna 0 : 8 Bernd" in german[2] and "Partie 33 : 8" in german[2]
    assert "Anna 0 : 0 Bernd" in german[3] and "Partie 33 : 8" in german[3]
    assert "Partie 66 : 8" in german[4] and "Partie gewonnen von Anna" in german[4]
    assert "Partie 0 : 8" in german[5] and "gewonnen" not in german[5]
    english = rows(client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True))
    assert "Match 66 : 8" in english[4] and "Match won by Anna" in english[4]


def test_a_level_match_says_so_in_its_last_row(client, db, matt):
    record(db, matt, ANNA_33, ANNA_33 | {"mated_by": 2}, DRAW, DRAW)
    assert "Match ended level" in rows(client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True))[4]


def test_the_matt_match_shows_on_the_table_page_during_it_and_after_it(client, db, matt):
    """The state said "0 : 0" once the match was over."""
    record(db, matt, ANNA_33, BERND_8)
    during = balance_card(client.get(f"/nights/{matt.id}?lang=de").get_data(as_text=True))
    assert "Partie 1: Anna 33 : 8 Bernd Durchgang Anna Bernd 1 33 0 2 0 8" in during
    assert "gewonnen von" not in during
    record(db, matt, DRAW, ANNA_33)
    after = balance_card(client.get(f"/nights/{matt.id}?lang=de").get_data(as_text=True))
    assert "Partie 1: Anna 66 : 8 Bernd · Partie gewonnen von Anna" in after
    assert "Der nächste Durchgang beginnt Partie 2." in after
    assert "Durchgang Anna Bernd 1 33 0 2 0 8 3 0 0 4 33 0" in after
    assert "Gewonnene Partien: Anna 1 : 0 Bernd" in after
    assert "0 : 0" not in after
    record(db, matt, BERND_8)  # the second match: only its Durchgang
    second = balance_card(client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True))
    assert "Match 2: Anna 0 : 8 Bernd Durchgang Anna Bernd 5 0 8 Matches won: Anna 1 : 0 Bernd" in second


def test_a_matt_night_without_a_durchgang_shows_a_score_of_nothing(client, db, matt):
    state = balance_card(client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True))
    assert "Match 1: Anna 0 : 0 Bernd" in state


def test_the_matt_score_holds_the_second_name_to_it_before_and_during_a_match(client, db, matt):
    """No-break spaces: "Anna 0 : 0 Bernd" never leaves "Bernd" on a line by itself at 360 px, before the
    first Durchgang as during the match (the score before it had plain spaces)."""
    held = '<strong>{}</strong>&nbsp;:&nbsp;<strong>{}</strong>&nbsp;<span class="who">Bernd</span>'
    assert held.format(0, 0) in client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True)
    record(db, matt, ANNA_33)
    assert held.format(33, 0) in client.get(f"/nights/{matt.id}?lang=en").get_data(as_text=True)


def test_the_matt_preview_shows_both_players_points_in_the_durchgang(client, db, matt):
    record(db, matt, ANNA_33)
    answer = submit(client, matt.id, {"mated_by": "2", "move": "2", "card": "K"}, action="preview", lang="de")
    assert answer.status_code == 200
    preview = page_text(answer.get_data(as_text=True).split("Vorschau", 1)[1])
    assert "Anna 0 : 8 Bernd" in preview and "Partie 33 : 8" in preview


def test_the_matt_pdf_names_durchgaenge_and_charts_the_points(app, db, matt, tmp_path):
    record(db, matt, ANNA_33, BERND_8, DRAW, ANNA_33)
    table = load_table(db=db, night_id=matt.id)
    with app.test_request_context("/?lang=en"):
        text = pdf_text(summary_pdf(table), tmp_path)
        chart = str(context(table)["chart"])
    log = text[text.index("All Durchgänge") :]
    assert "Dealer · Durchgang" in log and "Match won by Anna" in log
    # the points after each Durchgang, not a line from 0 to the money (flat without a stake)
    anna = [float(p.split(",")[1]) for p in re.findall(r'<polyline [^>]*points="([^"]+)"', chart)[0].split()]
    assert len(anna) == 5 and anna[0] > anna[1] == anna[2] == anna[3] > anna[4]  # 0, 33, 33, 33, 66 points
    assert ">66<" in chart and "points after each Durchgang" in chart


# --- the chart -----------------------------------------------------------------------------------


def chart_values(chart: str, bottom: int, top: int) -> list[list[float]]:
    """Each line's values as the chart draws them, read back from its y coordinates: its lowest point is
    ``bottom``, its highest ``top``, and each line starts at 0."""
    drawn = re.findall(r'<polyline [^>]*points="([^"]+)"', chart)
    lines = [[float(p.split(",")[1]) for p in points.split()] for points in drawn]
    zero, ys = lines[0][0], [y for line in lines for y in line]
    per_cent = (max(ys) - min(ys)) / (top - bottom)  # y grows downwards
    return [[round((zero - y) / per_cent) for y in line] for line in lines]


def test_a_matt_night_at_a_stake_charts_its_money_hand_by_hand_up_to_the_settlement(app, db, players):
    """Matt's money is the final balance (``Game.hand_money`` gives each Durchgang's share of it): its chart
    at a stake climbs Durchgang by Durchgang to what the settlement pays, as the other games' charts do (it
    stood at 0 and jumped to the money in one step, or drew points where the settlement speaks of money)."""
    matt = start_night(db, players, game="matt", seats=2, rules={"stake_per_point": 2}, stake_cents=10)
    record(db, matt, ANNA_33, BERND_8, DRAW, ANNA_33)
    table = load_table(db=db, night_id=matt.id)
    with app.test_request_context("/?lang=en"):
        data = context(table)
    chart = str(data["chart"])
    paid = [line.total for line in data["s"].lines]
    assert paid == [1160, -1160]  # (33 - 8 + 33) points' difference x 2 units x 10 cents
    hands = [table.hand_money(n) for n in range(1, 5)]
    expected = [[sum(h[k] for h in hands[:n]) for n in range(5)] for k in range(2)]
    assert [line[-1] for line in expected] == paid
    assert expected == [[0, 660, 500, 500, 1160], [0, -660, -500, -500, -1160]]
    assert chart_values(chart, min(paid), max(paid)) == expected
    assert ">11.60<" in chart and ">-11.60<" in chart  # the axis in money
    assert data["chart_caption"] == "Running balance over the night"


def test_the_charts_amounts_follow_the_pages_language(app):
    with app.test_request_context("/?lang=en"):
        english = str(chart_svg([[0, 150, -250]], ["Anna"]))
    with app.test_request_context("/?lang=de"):
        german = str(chart_svg([[0, 150, -250]], ["Anna"]))
    assert ">1.50<" in english and ">-2.50<" in english and ",50" not in english
    assert ">1,50<" in german and ">-2,50<" in german


def test_long_names_get_a_legend_row_each(app):
    names = ["Maximilian Obermeier-Schwarzenberger", "Bartholomäus Huber", "Eva"]
    with app.test_request_context("/?lang=en"):
        long = str(chart_svg([[0, 1], [0, 2], [0, 3]], names))
        short = str(chart_svg([[0, 1], [0, 2], [0, 3]], ["Anna", "Bernd", "Eva"]))
    # a name's text, or its first line (a name too long for a line of the page's chart is wrapped)
    first = r'<text x="([\d.]+)" y="[\d.]+" font-size="\d+">(?:<tspan x="[\d.]+" y="[\d.]+">)?'
    xs = [float(x) for x in re.findall(first + "(?:Max|Bar|Eva)", long)]
    assert xs == [38, 38, 38]  # one name a row: none starts in the other's half
    assert len(set(re.findall(first + "(?:Anna|Bernd|Eva)", short))) == 2
    with app.test_request_context("/?lang=en"):
        one_word = str(chart_svg([[0, 1]], ["Maximilian" * 6]))
    # a word longer than a row is cut short, not off the chart; its title says it whole
    cut = ("Maximilian" * 6)[: LEGEND_FULL - 1] + "…"
    assert f">{cut}</text>" in one_word and f"<title>{'Maximilian' * 6}</title>" in one_word


def legend(chart: str) -> list[list[str]]:
    """The chart's legend: each name (the text after a sample of its line) as the lines it is written in."""
    texts = re.findall(r'stroke-width="2"(?: stroke-dasharray="[^"]*")?/><text [^>]*>(.*?)</text>', chart)
    return [re.findall(r"<tspan [^>]*>(.*?)</tspan>", text) or [text] for text in texts]


def test_a_legend_wraps_long_team_names_and_shows_each_whole(app, db):
    """Konter a Matt's legend names each team's players: two long names each made a team's name longer
    than the chart is wide, and it was cut short ("... + Ba…"). It wraps at its spaces, each line within
    the chart, and the chart grows for the lines."""
    names = [
        "Maximilian Obermeier-Schwarzenberger",
        "Bartholomäus Huber",
        "Kreszentia Obermüller-Zwack",
        "Anna-Katharina Weißenbacher",
    ]
    konter = start_night(db, [create_player(db=db, name=name) for name in names], game="konter_a_matt")
    record(db, konter, SMALL_B, BIG_A)
    with app.test_request_context("/?lang=en"):
        chart = str(context(load_table(db=db, night_id=konter.id))["chart"])
    teams = [
        "Team A: Maximilian Obermeier-Schwarzenberger + Kreszentia Obermüller-Zwack",
        "Team B: Bartholomäus Huber + Anna-Katharina Weißenbacher",
    ]
    written = legend(chart)
    assert [" ".join(lines) for lines in written] == teams  # each whole
    assert all(len(line) <= LEGEND_FULL for lines in written for line in lines) and len(written[0]) > 1
    ys = [float(y) for y in re.findall(r'<tspan x="[\d.]+" y="([\d.]+)"', chart)]
    assert ys == sorted(set(ys)) and ys[-1] + 8 <= float(re.search(r'viewBox="0 0 \d+ ([\d.]+)"', chart)[1])


def test_the_summary_page_and_pdf_say_what_the_chart_shows(app, db, konter, matt, night):
    record(db, konter, SMALL_B)
    record(db, matt, ANNA_33)
    record(db, night, {"contract": "durch", "declarer": 1, "won": True})  # a night without hands has no chart
    with app.test_request_context("/?lang=en"):
        captions = [context(load_table(db=db, night_id=n.id))["chart_caption"] for n in (konter, matt, night)]
        html = summary_html(load_table(db=db, night_id=konter.id))
    assert captions == [
        "Strokes of both teams after each partie",
        "Each player's points after each Durchgang",
        "Running balance over the night",
    ]
    assert "All parties" in html


def test_the_views_of_a_game_without_state_say_nothing_after_a_hand(app, db, night):
    record(db, night, {"contract": "durch", "declarer": 1, "won": True})
    with app.test_request_context("/?lang=en"):
        assert [h.after for h in hand_views(load_table(db=db, night_id=night.id))] == [[]]


@pytest.mark.parametrize(
    "lang, said",
    [
        ("de", "Plätze 1 und 3 sind Team A. Plätze 2 und 4 sind Team B."),
        ("en", "Seats 1 and 3 are team A. Seats 2 and 4 are team B."),
    ],
)
def test_the_start_form_names_konter_a_matts_teams_as_the_engine_seats_them(client, lang, said):
    """Issue 23.3: the hint under the game says the engine's teams (``Game.teams``), not a copy of them."""
    page = page_text(client.get(f"/nights/new?lang={lang}").get_data(as_text=True))
    assert said in page
