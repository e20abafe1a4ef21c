"""POST /api/v1/tournaments/{id}/rounds/{n}/tables/{t}/paper: a table's points from its paper list through
the API, with the paper form's guards (``night_uid``, ``player_ids``, optional): a list typed for a table
drawn again since, or for players of before, is refused with 409 and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from tests.support import snapshot

NEW = {"name": "Preisschafkopf", "game": "schafkopf", "rules": {"preset": "turnier"}, "rounds": 2, "deals": 8}


def _tournament(client, db, n: int) -> dict[str, Any]:
    t = client.post("/api/v1/tournaments", json=NEW).get_json()
    for i in range(1, n + 1):
        player = create_player(db=db, name=f"Spieler {i}")
        assert client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": player.id}).status_code == 201
    assert client.post(f"/api/v1/tournaments/{t['id']}/rounds").status_code == 201
    return client.get(f"/api/v1/tournaments/{t['id']}").get_json()


def _guard(t: dict[str, Any], number: int) -> dict[str, Any]:
    """The guards of table ``number`` of round 1 as the tournament's answer names them."""
    table = t["drawn"][0]["tables"][number - 1]
    ids = {e["number"]: e["player_id"] for e in t["entrants"]}
    return {"night_uid": table["night_uid"], "player_ids": [ids[p["number"]] for p in table["players"]]}


def _paper(client, t: dict[str, Any], table: int, body: dict[str, Any]):
    return client.post(f"/api/v1/tournaments/{t['id']}/rounds/1/tables/{table}/paper", json=body)


def _table(db, t: dict[str, Any], number: int) -> tm.TableView:
    db.rollback()
    return tm.read_tournament(db=db, tournament_id=t["id"]).rounds[0].tables[number - 1]


def test_a_paper_list_through_the_api_with_its_guards_is_entered(client, db):
    t = _tournament(client, db, 8)
    body = {"points": [12, -7, 3, -8], "solos": [[2, 0], [0, 1], None, [1, 1]], **_guard(t, 2)}
    answer = _paper(client, t, 2, body)
    assert answer.status_code == 200, answer.get_json()
    table = answer.get_json()["tables"][1]
    assert table["paper"] and table["done"] and table["points"] == [12, -7, 3, -8]
    assert _table(db, t, 2).paper_solos == [[2, 0], [0, 1], None, [1, 1]]
    assert _paper(client, t, 1, {"points": [1, -1, 0, 0]}).status_code == 200  # the guards are optional


def test_a_paper_list_for_a_table_drawn_again_since_is_refused_with_409_and_nothing_stored(client, db):
    t = _tournament(client, db, 9)  # a table of four and one of five
    guard = _guard(t, 1)
    tm.withdraw_entrant(db=db, tournament_id=t["id"], number=9)  # round 1 drawn again: two tables of four
    before = snapshot(db)
    answer = _paper(client, t, 1, {"points": [20, -20, 5, -5], **guard})
    assert answer.status_code == 409
    assert "table 1 was drawn again meanwhile: nothing was saved" in answer.get_json()["error"]["message"]
    answer = _paper(client, t, 1, {"points": [20, -20, 5, -5], "night_uid": guard["night_uid"]})
    assert answer.status_code == 409
    assert snapshot(db) == before
    assert not _table(db, t, 1).paper


def test_a_paper_list_for_a_table_gone_since_is_refused_with_409_and_nothing_stored(client, db):
    t = _tournament(client, db, 8)  # two tables of four
    guard = _guard(t, 2)
    tm.withdraw_entrant(db=db, tournament_id=t["id"], number=8)  # 7: one table of five, two byes
    before = snapshot(db)
    answer = _paper(client, t, 2, {"points": [20, -20, 5, -5], **guard})
    assert answer.status_code == 409
    said = "round 1 was drawn again meanwhile: table 2 is gone and nothing was saved"
    assert answer.get_json()["error"]["message"] == said
    assert _paper(client, t, 2, {"points": [20, -20, 5, -5]}).status_code == 404  # no guard: no such table
    assert snapshot(db) == before


def test_a_paper_list_for_players_of_before_is_refused_with_409_and_nothing_stored(client, db):
    t = _tournament(client, db, 8)
    guard = _guard(t, 1)
    seated = t["drawn"][0]["tables"][0]["players"][0]["number"]
    tm.replace_entrant(db=db, tournament_id=t["id"], number=seated, guest="Xaver")
    before = snapshot(db)
    answer = _paper(client, t, 1, {"points": [20, -20, 5, -5], "player_ids": guard["player_ids"]})
    assert answer.status_code == 409
    assert "the players of table 1 changed meanwhile" in answer.get_json()["error"]["message"]
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"points": [1, -1, 0, 0], "night_uid": 7}, "night_uid"),
        ({"points": [1, -1, 0, 0], "night_uid": ""}, "night_uid"),
        ({"points": [1, -1, 0, 0], "player_ids": "1 2 3 4"}, "player_ids"),
        ({"points": [1, -1, 0, 0], "player_ids": [1, 2, "3", 4]}, "player_ids"),
        ({"points": [1, -1, 0, 0], "solos": [[5, 4], None, None, None]}, "solos.0"),
        ({"points": [1, -1, 0, 0], "solos": [[3, 0]] * 4}, "solos"),
        ({"points": [1, -1, 0, 1]}, "points"),
        ({"solos": None}, "points"),
        ({"points": [1, -1, 0, 0], "table": 2}, "table"),
    ],
)
def test_a_wrong_paper_list_is_refused_naming_its_field_and_changes_nothing(client, db, body, field):
    t = _tournament(client, db, 8)
    before = snapshot(db)
    answer = _paper(client, t, 1, body)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["error"]["field"] == field
    assert snapshot(db) == before


def test_a_paper_list_with_several_problems_is_answered_every_one_of_them(client, db):
    """The API answered the first refusal only: each problem of a list cost a request of its own."""
    t = _tournament(client, db, 8)
    before = snapshot(db)
    answer = _paper(client, t, 1, {"points": [1, 0, 0, 0], "solos": [None, [5, 4], None, None]})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    total = "a table's points must add up to zero: these add up to 1"
    assert (error["field"], error["message"]) == ("points", total)  # the first, where it always was
    assert error["problems"] == [
        {"field": "points", "message": total},
        {"field": "solos.1", "message": "a player's solos won and lost together may not exceed 8"},
        {"field": "solos", "message": "the solos of all players together may not exceed 8, one per deal: these are 9"},
    ]
    answer = _paper(client, t, 1, {"points": [100_001, 0, "3", -100_001]})  # each player's range: the core's
    assert [p["field"] for p in answer.get_json()["error"]["problems"]] == ["points.0", "points.2", "points.3"]
    assert snapshot(db) == before


def test_points_left_out_of_a_paper_list_are_the_cores_to_refuse(client, db):
    """The API's route checked ``points`` itself, in words of its own."""
    t = _tournament(client, db, 8)
    before = snapshot(db)
    answer = _paper(client, t, 1, {"solos": [None, [1, 0], None, None]})
    assert answer.status_code == 400
    said = {"field": "points", "message": "give the points of each of the 4 players"}
    assert answer.get_json()["error"] == {**said, "problems": [said]}
    assert snapshot(db) == before


def test_a_paper_list_of_wrong_shapes_and_wrong_points_is_answered_every_refusal(client, db):
    """A list whose guards were in a wrong shape was answered the first guard's refusal alone: its other guards'
    and its points' and solos' refusals cost a request each (docs/api.md: every refusal found)."""
    t = _tournament(client, db, 8)
    before = snapshot(db)
    body = {"points": [1, 2, 3], "solos": "x", "night_uid": 5, "player_ids": "x", "night_version": "v"}
    answer = _paper(client, t, 1, body)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["field"] == "night_uid"  # the first, where it always was
    assert [p["field"] for p in error["problems"]] == ["night_uid", "player_ids", "night_version", "points", "solos"]
    assert snapshot(db) == before
