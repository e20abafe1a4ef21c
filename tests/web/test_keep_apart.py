"""The organiser keeps two participants apart on the tournament's page (issue 25.1): the form, its
refusals on the page in the page's language, taking a pair back, and the warning when the draw
could not keep a pair apart."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from tests.support_tournament import make_tournament


@pytest.fixture(autouse=True)
def english(client):
    client.set_cookie("lang", "en")


def _tournament(db, n=8, rounds=2):
    return make_tournament(db, n, rounds=rounds)


def test_the_organiser_keeps_two_apart_and_allows_them_together_again(client, db):
    t = _tournament(db)
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Keep apart" in page and "Nobody is kept apart." in page
    answer = client.post(f"/tournaments/{t.id}/apart", data={"first": "3", "second": "1"}, follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "1 and 3 are kept apart from the next draw on." in page
    db.rollback()  # see what the request committed
    db.refresh(t)
    assert t.keep_apart == [[1, 3]]
    answer = client.post(f"/tournaments/{t.id}/apart/remove", data={"first": "1", "second": "3"}, follow_redirects=True)
    assert "1 and 3 may sit together again." in answer.get_data(as_text=True)
    db.rollback()
    db.refresh(t)
    assert t.keep_apart == []


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"first": "2", "second": "2"}, "choose two different participants"),
        ({"first": "2", "second": "42"}, "there is no participant 42"),
        ({"first": "2", "second": ""}, "Enter two start numbers."),
        ({"first": "x", "second": "3"}, "Not a valid integer value."),
        ({"first": "-1", "second": "3"}, "there is no participant -1"),
    ],
)
def test_a_bad_pair_is_said_on_the_page_and_nothing_changes(client, db, data, said):
    t = _tournament(db)
    answer = client.post(f"/tournaments/{t.id}/apart", data=data)
    assert answer.status_code == 400 and said in answer.get_data(as_text=True)
    db.rollback()
    db.refresh(t)
    assert t.keep_apart == []


def test_the_refusal_is_german_by_default(client, db):
    client.delete_cookie("lang")
    t = _tournament(db)
    answer = client.post(f"/tournaments/{t.id}/apart", data={"first": "2", "second": "2"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "wähle zwei verschiedene Teilnehmer" in page and "Auseinandersetzen" in page


def test_the_page_says_when_the_draw_could_not_keep_a_pair_apart(client, db):
    t = _tournament(db, n=4, rounds=1)
    tm.keep_apart(db=db, tournament_id=t.id, first=1, second=2)
    tm.draw_round(db=db, tournament_id=t.id)
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "The draw could not keep apart: 1 Spieler 1 / 2 Spieler 2" in page


def test_the_api_keeps_two_apart_and_allows_them_together_again(client, db):
    t = _tournament(db)
    answer = client.post(f"/api/v1/tournaments/{t.id}/apart", json={"first": 4, "second": 2})
    assert answer.status_code == 200 and answer.get_json()["keep_apart"] == [[2, 4]]
    assert client.get(f"/api/v1/tournaments/{t.id}").get_json()["keep_apart"] == [[2, 4]]
    answer = client.post(f"/api/v1/tournaments/{t.id}/apart", json={"first": 2, "second": 4, "apart": False})
    assert answer.status_code == 200 and answer.get_json()["keep_apart"] == []


@pytest.mark.parametrize(
    ("body", "field", "said"),
    [
        ({"first": 2, "second": 2}, "second", "two different"),
        ({"first": 2, "second": 99}, "second", "no participant 99"),
        ({"first": "2", "second": 3}, "first", "start number"),
        ({"first": 2, "second": 3, "apart": "no"}, "apart", "true or false"),
        ({"first": 2, "second": 3, "why": "couple"}, "why", ""),
    ],
)
def test_the_api_refuses_a_bad_pair_with_its_field_and_changes_nothing(client, db, body, field, said):
    t = _tournament(db)
    answer = client.post(f"/api/v1/tournaments/{t.id}/apart", json=body)
    error = answer.get_json()["error"]
    assert answer.status_code == 400 and error["field"] == field and said in error["message"]
    db.rollback()
    db.refresh(t)
    assert t.keep_apart == []
