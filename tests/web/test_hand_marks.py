"""Issue 26.1: a hand's row says, closed, what made its value (its marks, from the engine's facts),
and so do the PDF's hand log and the CSV."""

from __future__ import annotations

import csv
import io
import re

from scorekeeper.core.hands import record_hand
from tests.support import page_text, pdf_text, start_night


def row_marks(page: str) -> dict[int, list[str]]:
    """Hand number -> the badges in its closed row (its summary)."""
    out = {}
    for number, summary in re.findall(
        r'<details class="hand card" id="hand-(\d+)">\s*<summary>(.*?)</summary>', page, re.S
    ):
        out[int(number)] = [page_text(m) for m in re.findall(r'<span class="mark">(.*?)</span>', summary, re.S)]
    return out


def row_summary(page: str, number: int) -> str:
    summary = re.search(rf'<details class="hand card" id="hand-{number}">\s*<summary>(.*?)</summary>', page, re.S)
    return page_text(summary.group(1))


def record(db, night, *hands):
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)


SCHAFKOPF = (
    # lost with 50 (61 needed): Kontra and Re, 3 runners
    {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 50, "laufende": 3}
    | {"kontra": True, "re": True},
    {"contract": "solo", "suit": "herz", "declarer": 2, "points": 95, "klopfen": 2},  # schneider, two knocks
    {"contract": "wenz", "declarer": 3, "tout": True, "won": True},
)


def test_a_schafkopf_row_shows_kontra_re_schneider_runners_knocks_and_tout_closed(client, db, players):
    night = start_night(db, players, game="schafkopf")
    record(db, night, *SCHAFKOPF)
    marks = row_marks(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert marks == {1: ["3 Laufende", "Kontra", "Re"], 2: ["Schneider", "2× geklopft"], 3: ["Tout"]}
    marks = row_marks(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True))
    assert marks[1] == ["3 runners", "Kontra", "Re"] and marks[2] == ["Schneider", "Knocked 2×"]


def test_a_schafkopf_row_says_the_pot_share_taken_or_paid(client, db, players):
    night = start_night(db, players, game="schafkopf")
    record(
        db,
        night,
        {"contract": "rundpass"},  # 8 into the pot
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 50},  # lost: doubles it
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70},  # won: takes 16
    )
    marks = row_marks(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert marks == {1: [], 2: ["Stock verdoppelt (+8)"], 3: ["16 aus dem Stock"]}


def test_a_matzlfangen_row_says_the_matzl_made_it_worth_nothing_and_the_raises(client, db, night):
    record(
        db,
        night,
        {"contract": "rufen", "partner": 3, "points": 50, "matzl": "declarers"},  # lost, but caught the Matzl
        {"contract": "treiben", "declarer": 2, "points": 20, "raises": 5, "matzl": "defenders"},
    )
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    assert row_marks(page) == {1: ["Matzl: keiner zahlt"], 2: ["Kein Wasser", "Erhöht auf Hirsch", "Matzl angesagt"]}
    assert row_summary(page, 1).endswith("Matzl: keiner zahlt 0")  # the badge beside the value it explains


def test_a_konter_a_matt_row_labels_the_trump_team_and_the_strokes_after_the_partie(client, db, players):
    night = start_night(db, players, game="konter_a_matt")
    record(db, night, {"trump_team": "B", "points_a": 30, "matt": True, "konter": True})  # A wins against trumps
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    summary = row_summary(page, 1)
    assert "Trumpf: Team B (Bernd + Dieter)" in summary
    assert "Striche nach der Partie: A 8 : 14 B" in summary
    assert row_marks(page) == {1: ["Matt", "Konter"]}
    english = row_summary(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True), 1)
    assert "Trumps: team B (Bernd + Dieter)" in english and "Strokes after the partie: A 8 : 14 B" in english


def test_a_matt_row_shows_vorablegen_and_uebermatt(client, db, players):
    night = start_night(db, players, game="matt", seats=2)
    record(db, night, {"mated_by": 1, "move": 10, "card": "A", "vorablegen": 1, "uebermatt": True})
    assert row_marks(client.get(f"/nights/{night.id}").get_data(as_text=True)) == {1: ["Vorablegen", "Übermatt"]}


def test_the_csv_and_the_pdf_log_carry_the_same_marks(client, db, players, tmp_path):
    night = start_night(db, players, game="schafkopf")
    record(db, night, *SCHAFKOPF)
    body = client.get(f"/nights/{night.id}/export.csv?lang=de").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(body), delimiter=";" if body.split("\n", 1)[0].count(";") else ","))
    header = rows[0]
    column = header.index("Besonderheiten")
    assert [row[column] for row in rows[1:]] == ["3 Laufende, Kontra, Re", "Schneider, 2× geklopft", "Tout"]
    log = " ".join(pdf_text(client.get(f"/nights/{night.id}/summary.pdf?lang=de").data, tmp_path).split())
    assert "Anna + Clara [3 Laufende, Kontra, Re]:" in log
    assert "Bernd [Schneider, 2× geklopft]:" in log


def test_every_mark_a_game_gives_has_a_label_on_the_pages():
    from scorekeeper.engine import konter_a_matt, matt, matzlfangen, schafkopf
    from scorekeeper.web.steps import MARK_TEXTS

    given = {"side"}.union(*(game.MARK_STEPS for game in (matzlfangen, schafkopf, konter_a_matt, matt)))
    assert given <= set(MARK_TEXTS)


def test_a_rows_badges_begin_with_a_capital_in_english_and_german(client, db, night):
    """A badge is a label of its own (seams 8): "No trick", "Raised to Hirsch", as the German ones are written."""
    record(
        db,
        night,
        {"contract": "rufen", "partner": 3, "points": 130, "schwarz": True},  # won, the defenders took no trick
        {"contract": "treiben", "declarer": 2, "points": 20, "raises": 5, "matzl": "defenders"},
    )
    marks = row_marks(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True))
    assert marks == {1: ["No trick"], 2: ["Kein Wasser", "Raised to Hirsch", "Matzl claimed"]}, marks
    marks = row_marks(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert marks == {1: ["Kein Stich"], 2: ["Kein Wasser", "Erhöht auf Hirsch", "Matzl angesagt"]}, marks
