"""The ranges of a paper list are the core's alone (core/tournaments/paper.py ``paper_problems``): the paper form read
each field and checked its range too, so a post with a figure out of range was told only that, never the
table's own refusals (the points not adding up, a player's solos together beyond the deals). Now every problem
is said at once, each at its field where it has one, in the page's language; what only the form can know (a
word typed where a number belongs, no points at all) is still the form's, said beside the core's."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from tests.support import answer_text, field_errors, snapshot
from tests.support_tournament import make_tournament

RANGE = {
    "en": "Each player's points are a whole number from -100,000 to 100,000",
    "de": "Die Punkte eines Spielers sind eine ganze Zahl von -100.000 bis 100.000",
}
SUM = {
    "en": "A table's points must add up to zero: these add up to 1",
    "de": "Die Punkte eines Tisches müssen zusammen null ergeben: diese ergeben 1",
}
SOLOS_RANGE = {
    "en": "Solos won and lost are whole numbers from 0 to 8 deals",
    "de": "Gewonnene und verlorene Soli sind ganze Zahlen von 0 bis 8 Spiele",
}
EACH = {
    "en": "A player's solos won and lost together may not exceed 8",
    "de": "Gewonnene und verlorene Soli eines Spielers dürfen zusammen 8 nicht überschreiten",
}
TABLE = {
    "en": "The solos of all players together may not exceed 8, one per deal: these are 9",
    "de": "Die Soli aller Spieler dürfen zusammen 8 nicht überschreiten, eines pro Spiel: hier sind es 9",
}
NO_SUM = {"en": "these add up to", "de": "diese ergeben"}
NOT_A_NUMBER = {"en": "Not a valid integer value.", "de": "Keine gültige, ganze Zahl."}


@pytest.fixture
def drawn(client, db):
    t = make_tournament(db, n=8, deals=8)
    client.post(f"/tournaments/{t.id}/draw")
    return t


def _post(client, t, data: dict[str, str], lang: str):
    return client.post(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}", data=data)


def test_the_core_refuses_each_players_points_out_of_range_at_that_player(db):
    t = make_tournament(db, n=8, deals=8)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(InvalidInput) as refused:
        tm.enter_paper(
            db=db, tournament_id=t.id, round_number=1, table=1, points=[100_001, 0, -100_001, "7"], solos=None
        )
    assert [p.field for p in refused.value.problems] == ["points.0", "points.2", "points.3"]
    assert tm.paper_problems([1, -1, 0, 0], [None] * 4, seats=4, deals=8) == []


def test_a_player_at_a_table_of_five_declares_only_in_the_deals_they_play():
    """The dealer of a table of five sits out, and each of the five deals at least every fifth deal: of 5 deals a
    player plays 4, of 12 at most 10. The core let one player's solos reach every deal of the table."""
    assert [
        (p.field, p.params) for p in tm.paper_problems([0] * 5, [[5, 0], None, None, None, None], seats=5, deals=5)
    ] == [("solos.0", {"n": 4})]
    assert tm.paper_problems([0] * 5, [[4, 0], None, None, None, None], seats=5, deals=5) == []
    assert [p.params["n"] for p in tm.paper_problems([0] * 5, [[6, 5]] + [None] * 4, seats=5, deals=12)] == [10]
    assert tm.paper_problems([0] * 4, [[5, 0], None, None, None], seats=4, deals=5) == []  # four: every player plays


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_solos_range_and_the_points_not_adding_up_are_said_together(client, db, drawn, lang):
    before = snapshot(db)
    data = {"p1": "5", "p2": "-4", "p3": "0", "p4": "0", "w2": "20", "l2": "0"}
    answer = _post(client, drawn, data, lang)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert SUM[lang] in answer_text(answer)  # the table's, above the form
    assert field_errors(page, "l2") == SOLOS_RANGE[lang]  # the player's, at their solos
    assert not field_errors(page, "w2")  # said once
    assert snapshot(db) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_points_out_of_range_are_said_at_each_player_with_a_players_solos(client, db, drawn, lang):
    before = snapshot(db)
    data = {"p1": "200000", "p2": "-200000", "p3": "0", "p4": "0", "w1": "5", "l1": "4"}
    answer = _post(client, drawn, data, lang)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert field_errors(page, "p1") == RANGE[lang]
    assert field_errors(page, "p2") == RANGE[lang]
    assert not field_errors(page, "p3")
    assert field_errors(page, "l1") == EACH[lang]
    assert snapshot(db) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_word_typed_is_the_forms_to_say_beside_the_cores_refusals(client, db, drawn, lang):
    before = snapshot(db)
    data = {"p1": "fünf", "p2": "-5", "p3": "0", "p4": "0", "w2": "5", "l2": "4", "w3": "x", "l3": "9"}
    answer = _post(client, drawn, data, lang)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert field_errors(page, "p1") == NOT_A_NUMBER[lang]  # the form's alone: the core's range says nothing more
    assert field_errors(page, "l2") == EACH[lang]
    assert field_errors(page, "w3") == NOT_A_NUMBER[lang]
    assert field_errors(page, "l3") == SOLOS_RANGE[lang]
    assert TABLE[lang] in answer_text(answer)  # the table's solos, above the form
    assert NO_SUM[lang] not in answer_text(answer)  # but no sum of points the form could not read
    assert snapshot(db) == before
