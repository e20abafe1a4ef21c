"""The tournament endpoints of the JSON API: create, read, enter, draw, standings, export; every
refusal JSON with its field and changing nothing; reading for any account, writing for scorers;
the tables record through the nights' hand endpoints."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange.tournament_file import import_tournament
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Player
from scorekeeper.core.players import create_player
from tests.support import snapshot

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
NEW = {"name": "Preisschafkopf", "game": "schafkopf", "rules": {"preset": "turnier"}, "rounds": 2, "deals": 2}


def error_of(answer, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_data(as_text=True)[:500]
    error = answer.get_json()["error"]
    assert isinstance(error["field"], str) and error["message"]
    return error


def made(client, **fields) -> dict:
    answer = client.post("/api/v1/tournaments", json={**NEW, **fields})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


@pytest.fixture
def roster(db):
    return [create_player(db=db, name=f"Spieler {i}") for i in range(1, 9)]


@pytest.fixture
def entered(client, roster) -> dict:
    """A tournament of the 8 roster players and a guest (9: a table of four and one of five)."""
    t = made(client)
    for p in roster:
        assert client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": p.id}).status_code == 201
    assert client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"guest": "Gast Gustl"}).status_code == 201
    return t


# --- create and read -------------------------------------------------------------------------


def test_creating_a_tournament_answers_201_with_it_and_its_complete_rules(client):
    t = made(
        client, played_on="2026-11-21", place="Zur Post", entry_fee_cents=1500, prizes=[5000, 2000], rounds=3, deals=32
    )
    assert (t["name"], t["game"], t["date"], t["place"]) == ("Preisschafkopf", "schafkopf", "2026-11-21", "Zur Post")
    assert (t["rounds"], t["deals"], t["entry_fee_cents"], t["prizes"]) == (3, 32, 1500, [5000, 2000])
    assert t["rules"]["all_pass"] == "redeal"  # the turnier preset, completed
    assert (t["status"], t["entrants"], t["drawn"]) == ("open", [], [])


def test_reading_a_tournament_shows_its_entrants_and_each_tables_night_code_players_deals_and_points(
    client, db, entered
):
    client.post(f"/api/v1/tournaments/{entered['id']}/rounds")
    t = client.get(f"/api/v1/tournaments/{entered['id']}").get_json()
    assert [e["number"] for e in t["entrants"]] == list(range(1, 10))
    guest_id = db.exec(select(Player.id).where(Player.name == "Gast Gustl")).one()
    assert t["entrants"][-1] == {
        "number": 9,
        "name": "Gast Gustl",
        "guest": True,
        "player_id": guest_id,  # the guest's own record: entered again by it in a later tournament
        "withdrawn_after": None,
    }
    (r1,) = t["drawn"]
    assert sorted(len(table["players"]) for table in r1["tables"]) == [4, 5]
    table = r1["tables"][0]
    record_hand(db=db, night_id=table["night_id"], hand=SAUSPIEL)
    again = client.get(f"/api/v1/tournaments/{entered['id']}").get_json()["drawn"][0]["tables"][0]
    assert again["deals"] == 1 and sum(again["points"]) == 0 and again["points"] != [0] * len(again["points"])
    assert again["join_code"] and not again["paper"] and not again["done"]


def test_a_viewer_reads_a_tournament_without_the_tables_join_codes(client, as_role, entered):
    client.post(f"/api/v1/tournaments/{entered['id']}/rounds")
    viewer = as_role("viewer")
    answer = viewer.get(f"/api/v1/tournaments/{entered['id']}")
    assert answer.status_code == 200
    assert all(table["join_code"] is None for table in answer.get_json()["drawn"][0]["tables"])


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "schafkopf"}, "name"),
        ({"name": "X"}, "game"),
        ({**NEW, "name": 7}, "name"),
        ({**NEW, "name": "  "}, "name"),
        ({**NEW, "game": "matt"}, "game"),
        ({**NEW, "game": ["schafkopf"]}, "game"),
        ({**NEW, "rounds": "2"}, "rounds"),
        ({**NEW, "rounds": 0}, "rounds"),
        ({**NEW, "deals": 2.5}, "deals"),
        ({**NEW, "entry_fee_cents": -1}, "entry_fee_cents"),
        ({**NEW, "prizes": [10, "20"]}, "prizes"),
        ({**NEW, "prizes": 100}, "prizes"),
        ({**NEW, "played_on": "21.11.2026"}, "played_on"),
        ({**NEW, "played_on": 20261121}, "played_on"),
        ({**NEW, "place": 3}, "place"),
        ({**NEW, "rules": {"preset": "nonsense"}}, "preset"),
        ({**NEW, "colour": "red"}, "colour"),
    ],
)
def test_a_bad_tournament_is_refused_with_its_field_and_nothing_is_created(client, db, body, field):
    before = snapshot(db)
    error = error_of(client.post("/api/v1/tournaments", json=body), 400)
    assert field in error["field"]
    assert snapshot(db) == before


@pytest.mark.parametrize("body", [[], "Turnier", 7, None])
def test_a_tournament_body_that_is_not_an_object_is_refused(client, db, body):
    before = snapshot(db)
    answer = client.post("/api/v1/tournaments", json=body)
    error_of(answer, 400)
    assert snapshot(db) == before


@pytest.mark.parametrize("path", ["", "/standings", "/export"])
def test_an_unknown_tournament_is_404_in_json(client, path):
    error_of(client.get(f"/api/v1/tournaments/999{path}"), 404)


# --- entrants -------------------------------------------------------------------------------


def test_entering_a_player_and_a_guest_gives_the_next_start_numbers(client, db, roster):
    t = made(client)
    answer = client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": roster[2].id})
    assert answer.status_code == 201
    assert answer.get_json() == {
        "number": 1,
        "name": "Spieler 3",
        "guest": False,
        "player_id": roster[2].id,
        "withdrawn_after": None,
    }
    guest = client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"guest": "Gast Gustl"}).get_json()
    assert (guest["number"], guest["guest"]) == (2, True)
    assert guest["player_id"] not in {p.id for p in roster}  # the guest's own record: entered again by it
    roster_names = [p["name"] for p in client.get("/api/v1/players").get_json()["players"]]
    assert "Gast Gustl" not in roster_names  # a guest is never on the roster


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "player_id"),
        ({"player_id": 999}, "player_id"),
        ({"player_id": "1"}, "player_id"),
        ({"player_id": True}, "player_id"),
        ({"player_id": 1, "guest": "Gustl"}, "player_id"),
        ({"guest": 7}, "guest"),
        ({"guest": ""}, "guest"),
        ({"guest": "x" * 41}, "guest"),
        ({"guest": "spieler 1"}, "guest"),  # the name of a roster player
        ({"who": "Gustl"}, "who"),
    ],
)
def test_a_bad_entrant_is_refused_with_its_field_and_nothing_changes(client, db, roster, body, field):
    t = made(client)
    before = snapshot(db)
    error = error_of(client.post(f"/api/v1/tournaments/{t['id']}/entrants", json=body), 400)
    assert error["field"] == field
    assert snapshot(db) == before


def test_entering_a_player_twice_is_refused(client, db, roster):
    t = made(client)
    client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": roster[0].id})
    before = snapshot(db)
    error = error_of(client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": roster[0].id}), 400)
    assert "entered already" in error["message"]
    assert snapshot(db) == before


def test_entering_into_an_unknown_tournament_is_404(client, db, roster):
    error_of(client.post("/api/v1/tournaments/999/entrants", json={"player_id": roster[0].id}), 404)


def _closed(client, db, roster) -> int:
    """A tournament of one round of one deal, played and closed."""
    t = made(client, rounds=1, deals=1)
    for p in roster:
        client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": p.id})
    for table in client.post(f"/api/v1/tournaments/{t['id']}/rounds").get_json()["tables"]:
        assert client.post(f"/api/v1/sessions/{table['night_id']}/hands", json=SAUSPIEL).status_code == 201
    tm.close_tournament(db=db, tournament_id=t["id"])
    return t["id"]


def test_a_closed_tournament_refuses_entrants_and_rounds_with_409(client, db, roster):
    t_id = _closed(client, db, roster)
    extra = create_player(db=db, name="Spät")
    before = snapshot(db)
    assert (
        "closed"
        in error_of(client.post(f"/api/v1/tournaments/{t_id}/entrants", json={"player_id": extra.id}), 409)["message"]
    )
    error_of(client.post(f"/api/v1/tournaments/{t_id}/rounds"), 409)
    assert snapshot(db) == before


# --- rounds ---------------------------------------------------------------------------------


def test_drawing_a_round_answers_its_tables_with_their_night_ids_and_they_record_through_the_hand_endpoints(
    client, db, entered
):
    answer = client.post(f"/api/v1/tournaments/{entered['id']}/rounds", json={})
    assert answer.status_code == 201
    r1 = answer.get_json()
    assert r1["number"] == 1 and r1["byes"] == [] and not r1["done"]
    seated = sorted(p["number"] for table in r1["tables"] for p in table["players"])
    assert seated == list(range(1, 10))
    for table in r1["tables"]:
        night_id = table["night_id"]
        assert client.get(f"/api/v1/sessions/{night_id}").get_json()["stake_cents"] == 0
        for _ in range(2):
            assert client.post(f"/api/v1/sessions/{night_id}/hands", json=SAUSPIEL).status_code == 201
        error_of(client.post(f"/api/v1/sessions/{night_id}/hands", json=SAUSPIEL), 409)  # the table closed itself
    r2 = client.post(f"/api/v1/tournaments/{entered['id']}/rounds").get_json()
    assert r2["number"] == 2


def test_a_round_is_not_drawn_before_the_one_before_is_over(client, db, entered):
    client.post(f"/api/v1/tournaments/{entered['id']}/rounds")
    before = snapshot(db)
    error = error_of(client.post(f"/api/v1/tournaments/{entered['id']}/rounds"), 409)
    assert "not over" in error["message"]
    assert snapshot(db) == before


def test_a_round_needs_four_participants(client, db, roster):
    t = made(client)
    for p in roster[:3]:
        client.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": p.id})
    before = snapshot(db)
    error_of(client.post(f"/api/v1/tournaments/{t['id']}/rounds"), 409)
    assert snapshot(db) == before


@pytest.mark.parametrize("body", [{"round": 2}, [], "draw"])
def test_a_draw_with_a_body_other_than_empty_is_refused(client, db, entered, body):
    before = snapshot(db)
    error_of(client.post(f"/api/v1/tournaments/{entered['id']}/rounds", json=body), 400)
    assert snapshot(db) == before


def test_drawing_in_an_unknown_tournament_is_404(client):
    error_of(client.post("/api/v1/tournaments/999/rounds"), 404)


# --- standings and export --------------------------------------------------------------------


def test_the_standings_rank_every_participant_with_points_per_round_total_and_solos(client, db, entered):
    r1 = client.post(f"/api/v1/tournaments/{entered['id']}/rounds").get_json()
    night_id = r1["tables"][0]["night_id"]
    client.post(f"/api/v1/sessions/{night_id}/hands", json={"contract": "wenz", "declarer": 1, "points": 61})
    answer = client.get(f"/api/v1/tournaments/{entered['id']}/standings")
    assert answer.status_code == 200
    body = answer.get_json()
    assert (body["rounds"], body["drawn"], body["finished"], body["status"]) == (2, 1, False, "open")
    lines = body["standings"]
    assert [line["rank"] for line in lines] == list(range(1, 10))
    view = tm.read_tournament(db=db, tournament_id=entered["id"])
    assert [(line["number"], line["total"]) for line in lines] == [
        (line.entrant.number, line.standing.total) for line in view.standings
    ]
    top = lines[0]
    assert top["total"] > 0 and top["points"] == [top["total"]] and top["solos_won"] == 1
    assert top["decided_by"] == "points"
    assert {line["name"] for line in lines} >= {"Gast Gustl", "Spieler 1"}


def test_the_standings_say_whose_solos_are_unknown_and_the_document_describes_it(client, db, entered):
    """A paper list that left a player's solos out: the standings count them as 0 and say they are
    unknown (``solos_known``), as the page's ``?`` does."""
    client.post(f"/api/v1/tournaments/{entered['id']}/rounds")
    tm.enter_paper(
        db=db, tournament_id=entered["id"], round_number=1, table=1, points=[3, -3, 0, 0],
        solos=[[1, 0], None, [0, 0], [0, 1]],
    )  # fmt: skip
    view = tm.read_tournament(db=db, tournament_id=entered["id"])
    left_out = view.rounds[0].tables[0].entrants[1].number
    lines = client.get(f"/api/v1/tournaments/{entered['id']}/standings").get_json()["standings"]
    known = {line["number"]: line["solos_known"] for line in lines}
    assert known == {e.number: e.number != left_out for e in view.entrants}
    unknown = next(line for line in lines if line["number"] == left_out)
    assert (unknown["solos_won"], unknown["solos_lost"]) == (0, 0)
    schema = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["Standings"]
    line_schema = schema["properties"]["standings"]["items"]
    assert line_schema["properties"]["solos_known"]["type"] == "boolean"
    assert "unknown" in line_schema["properties"]["solos_known"]["description"]
    assert set(line_schema["required"]) == set(lines[0]) == set(line_schema["properties"])


def test_the_export_is_the_tournament_file_and_imports_into_another_database(client, db, entered, other_db):
    client.post(f"/api/v1/tournaments/{entered['id']}/rounds")
    answer = client.get(f"/api/v1/tournaments/{entered['id']}/export")
    assert answer.status_code == 200
    data = answer.get_json()
    assert data["format"] == "scorekeeper-tournament" and len(data["entrants"]) == 9
    t, created = import_tournament(other_db, data)
    assert created and t.name == "Preisschafkopf"


# --- access ---------------------------------------------------------------------------------

READS = ["", "/standings", "/export"]
WRITES = [("/entrants", {"guest": "Gustl"}), ("/rounds", {})]


@pytest.mark.parametrize("path", READS)
def test_reading_needs_an_account_and_any_account_may(anon, as_role, client, entered, path):
    answer = anon.get(f"/api/v1/tournaments/{entered['id']}{path}")
    error_of(answer, 401)
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert as_role("viewer").get(f"/api/v1/tournaments/{entered['id']}{path}").status_code == 200


@pytest.mark.parametrize("path, body", [("", NEW), *WRITES])
def test_a_viewer_and_nobody_may_not_write(anon, as_role, db, entered, path, body):
    url = "/api/v1/tournaments" + (f"/{entered['id']}{path}" if path else "")
    viewer = as_role("viewer")
    before = snapshot(db)
    error_of(anon.post(url, json=body), 401)
    error_of(viewer.post(url, json=body), 403)
    assert snapshot(db) == before


def test_a_scorer_may_create_enter_and_draw(as_role, roster):
    scorer = as_role("scorer")
    t = made(scorer)
    for p in roster[:4]:
        assert scorer.post(f"/api/v1/tournaments/{t['id']}/entrants", json={"player_id": p.id}).status_code == 201
    answer = scorer.post(f"/api/v1/tournaments/{t['id']}/rounds")
    assert answer.status_code == 201
    assert answer.get_json()["tables"][0]["join_code"]  # a scorer hands the code to the table's phone
