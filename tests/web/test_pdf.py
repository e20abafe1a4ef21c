"""The PDF's hand log: every hand with its steps and payments, two cells a hand, its figures in
columns under the players' names (tests/web/test_reports.py has the rest of the PDF)."""

from __future__ import annotations

import random
import re

import pyphen
import pytest

from scorekeeper.core.hands import add_hands
from scorekeeper.core.players import create_player
from scorekeeper.core.table import load_table
from scorekeeper.engine import GAMES
from scorekeeper.engine.samples import random_hands
from scorekeeper.web.pdf import (
    FIGURE_SPACE,
    FIGURES_CHARS_MAX,
    PLAYER_CHARS,
    VALUE_CHARS,
    fit_fields,
    hand_log,
    name_chars,
    steps_text,
    summary_document,
    summary_html,
    summary_pdf,
)
from scorekeeper.web.view import hand_views
from tests.support import EURO, pdf_text, start_night


def a_night(db, players, hands=30, game="schafkopf", seats=4, seed=7):
    night = start_night(db, players, game=game, seats=seats)
    rules = GAMES[game].parse_rules(None)
    add_hands(db=db, night_id=night.id, hands=random_hands(game, random.Random(seed), hands, rules))
    return load_table(db=db, night_id=night.id)


def test_steps_are_joined_as_the_page_shows_them_without_the_total():
    assert steps_text([("a", 2, 2), ("b", 0, 2), ("c", -3, -1), ("total", 0, -1)]) == "a (+2); b; c (-3)"
    assert steps_text([("total", 4, 4)]) == ""
    assert steps_text([]) == ""


@pytest.mark.parametrize("game, seats", [("schafkopf", 4), ("schafkopf", 5), ("matt", 2), ("matzlfangen", 4)])
def test_every_hand_has_its_number_dealer_steps_value_and_units_in_fixed_columns(app, db, players, game, seats):
    table = a_night(db, players, game=game, seats=seats)
    with app.test_request_context("/?lang=en"):
        views = hand_views(table, newest_first=False)
        log = hand_log(views, [table.players[p].name for p in sorted(table.players)])
    assert len(log.rows) == len(views) == len(table.hands) and len(log.chars) == 1 + seats
    assert log.chars[0] >= VALUE_CHARS and all(n >= PLAYER_CHARS for n in log.chars[1:])
    for row, h in zip(log.rows, views, strict=True):
        number = str(h.number).rjust(log.digits, FIGURE_SPACE)  # a figure space never breaks the line
        assert row.lead.startswith(f"{number}{FIGURE_SPACE}{h.dealer} · ")
        # the steps, then what the hand leaves for the next (Matt: the Durchgang's points, the match)
        assert steps_text(h.steps) and row.lead.endswith(" · ".join([steps_text(h.steps), *h.after]))
        assert bool(h.after) == (game == "matt")
        assert len(row.figures) == sum(log.chars)  # each figure right-aligned in its field
        starts = [sum(log.chars[:i]) for i in range(len(log.chars))]
        fields = [row.figures[start : start + n] for start, n in zip(starts, log.chars, strict=True)]
        assert [f.strip() for f in fields] == [str(h.result.value)] + [
            f"{p.units:+d}" if p.units else "0" for p in h.payments
        ]
        assert all(f.startswith("  ") for f in fields)  # a gap before every figure


@pytest.mark.parametrize("game, seats", [("schafkopf", 5), ("konter_a_matt", 4), ("matt", 2)])
def test_every_hand_in_the_log_names_who_played_it(app, db, players, game, seats):
    table = a_night(db, players, game=game, seats=seats, seed=3)
    with app.test_request_context("/?lang=de"):
        views = hand_views(table, newest_first=False)
        log = hand_log(views, [table.players[p].name for p in sorted(table.players)])
    named = 0
    for row, h in zip(log.rows, views, strict=True):
        if h.played_by:  # nobody plays a Rundpass, a Ramsch or a drawn Durchgang
            assert f" · {h.played_by}" in row.lead
            assert all(name in row.lead for name in h.players)
            named += 1
    assert named > len(views) // 2


def test_a_long_word_in_a_name_widens_its_column():
    assert name_chars("Anna") == name_chars("Clara Schütz") == PLAYER_CHARS
    assert name_chars("Bartholomäus Huber") == 15  # 12 letters and the gap before them
    assert name_chars("Bartholomäus Schwarzenberger") == 18  # 15 letters: no longer cut to 14
    assert name_chars("Zoë Ångström-Øster") == PLAYER_CHARS + 3  # 8 letters and the hyphen it breaks after
    assert name_chars("李小龙") == PLAYER_CHARS


def test_the_widest_names_give_way_when_the_fields_would_crowd_out_the_hands_text():
    assert fit_fields([6, 12, 10, 9, 9, 9], [6, 8, 8, 8, 8, 8]) == [6, 12, 10, 9, 9, 9]  # 55: room
    assert fit_fields([6, 30, 12], [6, 8, 8]) == [6, 30, 12]  # Matt's two players: a long word has room
    # five players of long words: the widest cut to one width, within the limit
    assert fit_fields([6, 20, 18, 16, 12, 9], [6, 8, 8, 8, 8, 8]) == [6, 10, 10, 10, 10, 9]
    assert sum(fit_fields([6, 20, 18, 16, 12, 9], [6, 8, 8, 8, 8, 8])) <= FIGURES_CHARS_MAX
    # never narrower than a field's figures, nor than PLAYER_CHARS, even past the limit
    assert fit_fields([6, 40, 40, 40, 40, 40], [6, 8, 8, 8, 8, 19]) == [6, 8, 8, 8, 8, 19]
    assert fit_fields([9, 40, 40, 40, 40, 40], [9, 8, 8, 8, 8, 40]) == [9, 8, 8, 8, 8, 40]


#: Five names of 20 characters and more, of words longer than a field of the figures (Schwarzenberger: 15 letters).
FIVE_LONG_NAMES = (
    "Maximilian Obermeierhuber",
    "Bartholomäus Schwarzenberger",
    "Anna-Katharina Weißenbacher",
    "Sebastian Hinterseer-Moos",
    "Kreszentia Obermüller-Zwack",
)


def hand_text_width(document) -> float:
    """How wide (mm) the laid-out log's hand text is: the content of its first row's first cell (the head's is a th)."""
    for page in document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and element.tag == "td" and element.get("class") == "lead":
                return box.width * 25.4 / 96  # CSS px
    raise AssertionError("no hand in the log")


@pytest.mark.parametrize("game, seats", [("schafkopf", 5), ("schafkopf", 4), ("matzlfangen", 4), ("matt", 2)])
def test_long_names_leave_the_hands_text_a_readable_width(app, db, game, seats):
    """Five names of 20 characters and more widened their fields to 76 characters together, 129 mm of the
    page's 182, and left a hand's text a column of 39 mm, four words a line and a hand ten lines. The text
    keeps 70 mm at least (``FIGURES_CHARS_MAX``); a name's word longer than its field is hyphenated."""
    long_players = [create_player(db=db, name=name) for name in FIVE_LONG_NAMES]
    table = a_night(db, long_players, hands=3, game=game, seats=seats)
    with app.test_request_context("/?lang=de"):
        assert hand_text_width(summary_document(table)) >= 70


def test_the_log_is_two_cells_a_hand(app, db, players):
    """WeasyPrint's time grows with the cells: a cell a figure made the 300-hand PDF take 3.5 s."""
    table = a_night(db, players, hands=40)
    with app.test_request_context("/?lang=de"):
        html = summary_html(table)
    log = html[html.index('<section class="log">') :]
    body = log[log.index("<tbody>") :]
    assert body.count("<tr>") == 40 and body.count("<td") == 2 * 40
    assert log.count("<td") == 2 * 40 + 1 + len(table.players)  # and the header's value and names
    assert "Alle Spiele" in log


@pytest.mark.parametrize("lang, heading", [("de", "Alle Spiele"), ("en", "All hands")])
def test_the_pdf_shows_every_hand_with_its_payments_under_the_names(app, db, players, tmp_path, lang, heading):
    table = a_night(db, players, hands=60)
    with app.test_request_context(f"/?lang={lang}"):
        views = hand_views(table, newest_first=False)
        text = pdf_text(summary_pdf(table), tmp_path)
    log = text[text.index(heading) :]
    for name in (table.players[p].name for p in sorted(table.players)):
        assert name in log
    lines = log.splitlines()
    for h in views:
        figures = [str(h.result.value)] + [f"{p.units:+d}" if p.units else "0" for p in h.payments]
        pattern = rf"^\s*{h.number}\s+{re.escape(h.dealer)} · .*\s" + r"\s+".join(map(re.escape, figures)) + r"\s*$"
        assert any(re.match(pattern, line) for line in lines), (h.number, figures)


def test_a_night_without_hands_has_an_empty_log(app, db, players, tmp_path):
    night = start_night(db, players)
    with app.test_request_context("/?lang=en"):
        text = pdf_text(summary_pdf(load_table(db=db, night_id=night.id)), tmp_path)
    # the log follows the chart: no page of its own
    assert "All hands" in text and "Dealer · Hand" in text and "page 1 of 1" in text


def test_a_tournament_tables_pdf_shows_points_never_money(app, client, db):
    """A tournament table's PDF (for the organiser's file) stands the players with points: no stake, no money
    columns, no "Wer zahlt wem" (docs/tournaments.md, "Never money")."""
    from scorekeeper.web.pdf import summary_html
    from tests.web.test_tournaments import played_table

    night_id = played_table(client, db)
    with app.test_request_context("/?lang=de"):
        html = summary_html(load_table(db=db, night_id=night_id))
    assert not EURO.search(html), "the PDF of a tournament table speaks of money"
    assert "Wer zahlt wem" not in html and "Einsatz" not in html
    assert "Punkte" in html and "Abend" not in html


def _round_two_table_three(db) -> int:
    """Table 3 of round 2 of "Herbstturnier 2026" (12 players, one deal a table), one deal played: its night id."""
    from scorekeeper.core import tournaments as tm
    from scorekeeper.core.hands import record_hand
    from tests.support_tournament import make_tournament

    sauspiel = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
    t = make_tournament(db, 12, name="Herbstturnier 2026", deals=1, rounds=2)
    tm.draw_round(db=db, tournament_id=t.id)
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=sauspiel)  # its one deal finishes it
    tm.draw_round(db=db, tournament_id=t.id)
    (table,) = [x for x in tm.read_tournament(db=db, tournament_id=t.id).rounds[1].tables if x.number == 3]
    record_hand(db=db, night_id=table.night.id, hand=sauspiel)
    return table.night.id


@pytest.mark.parametrize(
    ("lang", "head", "night_word"),
    [
        ("de", "Herbstturnier 2026 · Runde 2 · Tisch 3", r"\bAbends?\b"),
        ("en", "Herbstturnier 2026 · Round 2 · Table 3", r"\bnight\b"),
    ],
)
def test_a_tournament_tables_pdf_names_its_tournament_round_and_table_in_its_head(
    app, db, tmp_path, lang, head, night_word
):
    """Pinned up or filed by the organiser, a table's PDF says which table it is, in the reader's language: the
    tournament, the round and the table (its head, above the settlement, and every page's foot), never a night."""
    night_id = _round_two_table_three(db)
    with app.test_request_context(f"/?lang={lang}"):
        text = pdf_text(summary_pdf(load_table(db=db, night_id=night_id)), tmp_path)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == head, lines[:3]  # the first line of the first page
    assert head in text.split("\f")[-2], "every page's foot names the table"
    assert not re.search(night_word, text, re.I), re.findall(rf".{{0,30}}{night_word}.{{0,30}}", text, re.I)


def test_a_club_nights_pdf_names_no_tournament(app, db, players, tmp_path):
    table = a_night(db, players, hands=4)
    with app.test_request_context("/?lang=de"):
        text = pdf_text(summary_pdf(table), tmp_path)
    assert not re.search(r"\b(Runde|Tisch)\s+\d", text), "a club night is no tournament's table"
    assert text.lstrip().startswith(f"{app.config['CLUB_NAME'].upper()}\n")


#: Long names of one word too long for the old limit (Schwarzenberger: 15 letters) and of hyphens (a break after one).
LONG_NAMES = (
    "Maximilian Oberhuber",
    "Bartholomäus Schwarzenberger",
    "Anna-Katharina Weißenbacher",
    "Sepp Hinterseer",
    "Kreszentia Obermüller-Zwack",
)


#: What WeasyPrint writes where it hyphenates a word (U+2010 HYPHEN).
HYPHENATED = "\u2010"


def breaks(name: str, lang: str) -> tuple[set[int], set[int]]:
    """Where a name may break in a column's head: between words and after a hyphen of its own (as a line's
    end), and at a syllable of a word, the language's hyphenation (where the line ends with a hyphen)."""
    ends = (
        {0, len(name)} | {i for i, c in enumerate(name) if c == " "} | {i + 1 for i, c in enumerate(name) if c == "-"}
    )
    syllables = pyphen.Pyphen(lang=lang)
    starts = [m.start() for m in re.finditer(r"[^\s-]+", name)]
    hyphenated = {
        start + p
        for start, word in zip(starts, re.findall(r"[^\s-]+", name), strict=True)
        for p in syllables.positions(word)
    }
    return ends, hyphenated


def written_whole(name: str, pieces: set[str], lang: str) -> bool:
    """Whether the head's ``pieces`` (its lines' words) write ``name`` whole, each piece ending where a line
    may: at a space, after a hyphen of the name, or at a syllable with the hyphen of hyphenation."""
    ends, hyphenated = breaks(name, lang)
    position = 0
    while position < len(name):
        fits = [
            len(piece.rstrip(HYPHENATED))
            for piece in pieces
            if name.startswith(piece.rstrip(HYPHENATED), position)
            and position + len(piece.rstrip(HYPHENATED)) in (hyphenated if piece.endswith(HYPHENATED) else ends)
        ]
        if not fits:
            return False
        position += max(fits)
        position += name[position : position + 1] == " "
    return True


@pytest.mark.parametrize("lang, heading, value", [("de", "Alle", "Wert"), ("en", "All", "Value")])
@pytest.mark.parametrize("game, seats", [("schafkopf", 5), ("schafkopf", 4), ("matt", 2)])
def test_the_logs_heads_break_long_names_between_words_or_syllables(
    app, db, tmp_path, lang, heading, value, game, seats
):
    """Each long name stands whole in its column's head, wrapped at its spaces and after its hyphens, and a
    word longer than its field hyphenated at a syllable (the fields narrowed so that the hands' text keeps
    its width): none is cut anywhere, as "Schwarzenber / ger" was when a column was at most 14 characters."""
    long_players = [create_player(db=db, name=name) for name in LONG_NAMES]
    table = a_night(db, long_players, hands=6, game=game, seats=seats)
    with app.test_request_context(f"/?lang={lang}"):
        text = pdf_text(summary_pdf(table), tmp_path)
    # "Alle Durchgänge", a page's first line where the log begins a page (after pdftotext's form feed)
    log = text[re.search(rf"^\f? *{heading} \w+$", text, re.M).start() :].splitlines()
    head = log[1 : next(i for i, line in enumerate(log) if value in line) + 1]  # up to the line of "Value"
    pieces = {word for line in head for word in line.split()}
    for name in LONG_NAMES[:seats]:
        assert written_whole(name, pieces, lang), (name, head)
    assert not written_whole("Bartholomäus Schwarzenberger", {"Bartholomäus", "Schwarzenber", "ger"}, lang)


def test_the_footer_shows_names_as_they_are_written(app, client, db, tmp_path):
    """Every page's foot is a CSS string in a <style> element, where HTML reads no entities: a club's or a
    tournament's name with "&", quotes or "<" stood there escaped for HTML ("Kegel &amp; Karten"). Nor can a
    name end the string or the style element."""
    from sqlmodel import select

    from scorekeeper.core.models import Tournament
    from tests.web.test_tournaments import played_table

    night_id = played_table(client, db)
    db.rollback()
    (t,) = db.exec(select(Tournament)).all()
    t.name = 'Herbst & "Winter" <Turnier> \\ </style><p>x'
    db.commit()
    app.config["CLUB_NAME"] = "Kegel & Karten"
    with app.test_request_context("/?lang=de"):
        text = pdf_text(summary_pdf(load_table(db=db, night_id=night_id)), tmp_path)
    name = 'Herbst & "Winter" <Turnier> \\ </style><p>x'
    assert f"Kegel & Karten · {name} · Runde 1 · Tisch 1 · " in text.split("\f")[-2], text
    sheets = client.get(f"/tournaments/{t.id}/sheets.pdf?lang=de")
    assert sheets.status_code == 200
    text = pdf_text(sheets.get_data(), tmp_path)
    assert f"{name} · " in text.split("\f")[-2].splitlines()[-1], text.split("\f")[-2].splitlines()[-3:]


#: Matt: mate on move 3 with the ace (33 points), on move 2 with the king (8), a draw (nobody scores).
MATT_HANDS = (
    {"mated_by": 1, "move": 3, "card": "A"},
    {"mated_by": 2, "move": 2, "card": "K"},
    {"mated_by": None},
    {"mated_by": 1, "move": 3, "card": "A"},
    {"mated_by": 2, "move": 2, "card": "K"},
)


@pytest.mark.parametrize(
    "lang, heading, note, money",
    [
        (
            "en",
            "All Durchgänge",
            "Under the names: what each Durchgang pays in EUR, its share of the balance; its points are in its text.",
            ["+6.60 -6.60", "-1.60 +1.60", "0 0", "+6.60 -6.60", "-1.60 +1.60"],
        ),
        (
            "de",
            "Alle Durchgänge",
            "Unter den Namen: was jeder Durchgang in EUR zahlt, sein Anteil am Stand; seine Punkte stehen in seinem "
            "Text.",
            ["+6,60 -6,60", "-1,60 +1,60", "0 0", "+6,60 -6,60", "-1,60 +1,60"],
        ),
    ],
)
def test_a_matt_logs_figures_add_up_to_its_balance_as_the_table_pages_rows_do(
    app, db, players, tmp_path, lang, heading, note, money
):
    """Matt scores points a Durchgang and settles in units of the final difference (docs/rules.md, Matt): at a
    stake, the log showed each Durchgang's points under the names (Anna +33, +33: 66) beside a balance of 100 units,
    10.00 EUR. Under the names it shows what the Durchgang pays, as the table page's hand rows do (Anna 6.60 EUR:
    her share of the balance, ``Table.hand_money``), adding up to the balance's money; the points stay in the
    hand's text ("Anna 33 : 0 Bernd") and under the value, and a line says which is which."""
    from scorekeeper.core.hands import record_hand

    night = start_night(db, players, game="matt", seats=2, rules={"stake_per_point": 2}, stake_cents=10)
    for hand in MATT_HANDS:
        record_hand(db=db, night_id=night.id, hand=hand)
    table = load_table(db=db, night_id=night.id)
    with app.test_request_context(f"/?lang={lang}"):
        text = pdf_text(summary_pdf(table), tmp_path)
        views = hand_views(table, newest_first=False)
    assert [sum(p.cents for p in h.payments) for h in views] == [0] * 5
    assert [sum(h.payments[k].cents for h in views) for k in (0, 1)] == [1000, -1000]  # the balance's money
    log = text[text.index(heading) :]
    assert " ".join(note.split()) in " ".join(log.split())
    rows = [re.search(rf"^\s*{n}\s.*?(\S+)\s+(\S+)\s+(\S+)\s*$", log, re.M) for n in range(1, 6)]
    assert [row[1] for row in rows] == ["33", "8", "0", "33", "8"]  # the value: the Durchgang's points
    assert [f"{row[2]} {row[3]}" for row in rows] == money
    assert "Anna 33 : 0 Bernd" in log  # the points in the hand's text


#: Matt's five Durchgänge of the longest texts: each with a card laid aside and Übermatt on the 10th move, the
#: Durchgang's and the match's points after it (three lines each in the log).
LONGEST_MATT = [{"mated_by": 1 + i % 2, "move": 10, "card": "Q", "vorablegen": 1, "uebermatt": True} for i in range(5)]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("stake", [2, 0])
def test_a_matt_night_of_five_durchgaenge_fits_one_page(app, db, players, lang, stake):
    """Its fifth Durchgang ran onto a second page (at a stake: the log's line saying what its figures are, on top of
    the chart, and a table that said each had played every Durchgang)."""
    rules = {"stake_per_point": stake} if stake else None
    night = start_night(db, players, game="matt", seats=2, rules=rules, stake_cents=10)
    add_hands(db=db, night_id=night.id, hands=LONGEST_MATT)
    with app.test_request_context(f"/?lang={lang}"):
        document = summary_document(load_table(db=db, night_id=night.id))
    assert len(document.pages) == 1
