"""One rule, one check: what a paper list says it was made for (``night_uid``, ``player_ids``,
``night_version``) is checked by the core (core/tournaments/paper.py ``enter_paper``): a wrong shape is refused
naming the field (a wrong shape was taken for a stale form and refused as a Conflict), the API answers 400 in
the core's words (it had its own checks), and the paper form still says a mangled hidden field is stale."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from tests.support import answer_text, form_values, snapshot
from tests.support_tournament import make_tournament

WRONG = [
    ("night_uid", 7),
    ("night_uid", ""),
    ("night_uid", "x" * 33),
    ("player_ids", "1 2 3 4"),
    ("player_ids", [1, 2, "3", 4]),
    ("player_ids", []),
    ("player_ids", [1, 2, 3, True]),
    ("night_version", -1),
    ("night_version", "1"),
    ("night_version", 1.5),
    ("night_version", True),
]


@pytest.mark.parametrize(("field", "value"), WRONG)
def test_the_core_refuses_a_wrong_shape_of_what_a_paper_list_was_made_for_naming_it(db, field, value):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as refused:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[1, -1, 0, 0], **{field: value})
    assert refused.value.field == field
    db.rollback()
    assert snapshot(db) == before


def test_the_core_refuses_a_wrong_shape_before_it_looks_for_the_table(db):
    """A wrong uid for a table the round no longer has is a wrong uid, not "drawn again"."""
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(InvalidInput) as refused:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=3, points=[1, -1, 0, 0], night_uid=7)
    assert refused.value.field == "night_uid"


@pytest.mark.parametrize(("field", "value"), WRONG)
def test_the_api_answers_a_wrong_shape_in_the_cores_words(client, db, field, value):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(InvalidInput) as core:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[1, -1, 0, 0], **{field: value})
    db.rollback()
    before = snapshot(db)
    answer = client.post(
        f"/api/v1/tournaments/{t.id}/rounds/1/tables/1/paper", json={"points": [1, -1, 0, 0], field: value}
    )
    assert answer.status_code == 400
    said = {"field": field, "message": core.value.message}
    assert answer.get_json()["error"] == {**said, "problems": [said]}  # the one refusal, and the list of all
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("players", "1 2 x 4", "The players of table 1 changed meanwhile: nothing was saved"),
        ("version", "v1", "The points of table 1 were changed meanwhile by someone else: nothing was saved"),
        ("night_uid", "x" * 40, "Table 1 was drawn again meanwhile: nothing was saved"),
    ],
)
def test_the_paper_form_says_a_mangled_hidden_field_is_stale(client, db, field, value, said):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    url = f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang=en"
    data = form_values(client.get(url).get_data(as_text=True))
    before = snapshot(db)
    answer = client.post(url, data=data | {"p1": "3", "p2": "-3", "p3": "0", "p4": "0", field: value})
    assert answer.status_code == 409
    assert said in answer_text(answer)
    assert snapshot(db) == before
    shown = form_values(answer.get_data(as_text=True))  # a new form of the table as it is, which saves
    assert client.post(url, data=shown | {"p1": "3", "p2": "-3", "p3": "0", "p4": "0"}).status_code == 302
