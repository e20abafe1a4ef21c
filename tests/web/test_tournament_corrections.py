"""Corrections on tournament day: paper points typed into the wrong table are taken back on its paper form
(the table plays again on its phone, the standings count nothing from it) until the next round is drawn;
every refusal is said in English and German and changes nothing."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import OPEN, Night, TournamentTable
from tests.support import answer_text, snapshot
from tests.support_tournament import make_tournament

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}


def _paper(client, t, table, points, round_number=1):
    data = {f"p{i}": str(p) for i, p in enumerate(points, start=1)}
    return client.post(f"/tournaments/{t.id}/rounds/{round_number}/tables/{table}/paper", data=data)


def _clear(client, t, table, round_number=1, lang="en"):
    return client.post(  # the confirmation page's post (tests/web/test_paper_defects.py: it asks first)
        f"/tournaments/{t.id}/rounds/{round_number}/tables/{table}/paper/clear?lang={lang}",
        data={"confirm": str(table)},
    )


def _totals(db, t) -> dict[int, int]:
    db.rollback()
    return {
        line.entrant.number: line.standing.total for line in tm.read_tournament(db=db, tournament_id=t.id).standings
    }


def _table(db, t, number, round_number=1) -> tm.TableView:
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    return next(table for table in view.rounds[round_number - 1].tables if table.number == number)


def test_paper_points_typed_into_the_wrong_table_are_cleared_and_the_standings_follow(client, db):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    assert _paper(client, t, 1, [12, -12, 5, -5]).status_code == 302  # meant for table 2
    wrong = _table(db, t, 1)
    assert [_totals(db, t)[e.number] for e in wrong.entrants] == [12, -12, 5, -5]
    page = client.get(f"/tournaments/{t.id}?lang=en").get_data(as_text=True)
    assert "Correct the paper points" in page  # the way to the paper form stays
    form = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang=en").get_data(as_text=True)
    assert "Clear the points of table 1" in form

    answer = _clear(client, t, 1)
    assert answer.status_code == 302
    assert "are cleared" in answer_text(client.get(answer.headers["Location"]))
    table = _table(db, t, 1)
    assert not table.paper and not table.done  # playing again
    assert set(_totals(db, t).values()) == {0}
    row = db.get(TournamentTable, (t.id, 1, 1))
    assert row.paper is None and row.solos == [[0, 0]] * 4
    night = db.get(Night, table.night.id)
    assert night.status == OPEN and night.join_code  # its card's code still joins it
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL)  # its phone records its deals again
    db.rollback()
    assert _table(db, t, 1).deals == 1

    assert _paper(client, t, 2, [12, -12, 5, -5]).status_code == 302  # where they belonged
    right = _table(db, t, 2)
    totals = _totals(db, t)
    assert [totals[e.number] for e in right.entrants] == [12, -12, 5, -5]
    assert [totals[e.number] for e in wrong.entrants] == _table(db, t, 1).points


WORDS = {
    "none": {
        "en": "This table has no points from paper to clear",
        "de": "Dieser Tisch hat keine Punkte vom Zettel, die sich löschen ließen",
    },
    "later": {
        "en": "Round 2 is drawn: the points of an earlier round's table are corrected, not cleared",
        "de": "Runde 2 ist ausgelost: die Punkte eines Tisches einer früheren Runde werden berichtigt, nicht gelöscht",
    },
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_clearing_a_table_without_paper_points_is_refused_and_changes_nothing(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    before = snapshot(db)
    answer = _clear(client, t, 1, lang=lang)
    assert answer.status_code == 409
    assert WORDS["none"][lang] in answer_text(answer)
    assert snapshot(db) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_paper_points_of_an_earlier_round_are_corrected_not_cleared(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    _paper(client, t, 1, [12, -12, 5, -5])
    _paper(client, t, 2, [1, -1, 0, 0])
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302  # round 2: its players have moved on
    before = snapshot(db)
    answer = _clear(client, t, 1, lang=lang)
    assert answer.status_code == 409
    assert WORDS["later"][lang] in answer_text(answer)
    assert snapshot(db) == before
    assert _paper(client, t, 1, [3, -3, 0, 0]).status_code == 302  # corrected on the paper form instead
    assert _table(db, t, 1).points == [3, -3, 0, 0]


def test_a_table_phone_may_not_clear_paper_points(app, client, db):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    _paper(client, t, 1, [12, -12, 5, -5])
    with pytest.raises(Exception, match="only the organiser enters a table's points"):
        tm.clear_paper(db=db, tournament_id=t.id, round_number=1, table=1, who="guest")
    db.rollback()
    assert _table(db, t, 1).paper
