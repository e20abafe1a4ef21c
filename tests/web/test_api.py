"""The JSON API (v1): every route's answers, its refusals ({"error": {"field", "message"}}) and that a refusal
changes nothing; hostile input never gives a 500."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import add_hands, record_hand
from scorekeeper.core.models import AuditEntry, HandRecord, Night, Player, Seat
from scorekeeper.engine import GAMES, settle_json
from scorekeeper.engine.rules import rules_to_json
from tests.support import RUFEN_HIRSCH, make_user, signed_in, start_night
from tests.support_tournament import make_tournament
from tests.web.test_nights import closed_split_night


def rows(db) -> dict[str, int]:
    """How many rows each table holds: what a refusal must leave alone."""
    db.rollback()
    db.expire_all()
    counts = {m.__name__: db.exec(select(func.count()).select_from(m)).one() for m in (Player, Night, Seat)}
    counts["HandRecord"] = db.exec(select(func.count()).select_from(HandRecord)).one()
    counts["AuditEntry"] = db.exec(select(func.count()).select_from(AuditEntry)).one()
    counts["versions"] = sum(e.version for e in db.exec(select(Night)))
    return counts


def audit_trail(db, night_id: int) -> list[AuditEntry]:
    db.rollback()
    db.expire_all()
    return list(db.exec(select(AuditEntry).where(AuditEntry.night_id == night_id).order_by(AuditEntry.id)))


def stored_hands(db, night_id: int) -> list[dict]:
    db.rollback()
    db.expire_all()
    query = select(HandRecord).where(HandRecord.night_id == night_id).order_by(HandRecord.number)
    return [h.data for h in db.exec(query)]


def error_of(answer, status: int) -> dict[str, Any]:
    """The answer's error object, after checking its status and shape."""
    assert answer.status_code == status, answer.get_data(as_text=True)[:500]
    body = answer.get_json()
    assert set(body) == {"error"}
    error = body["error"]
    assert isinstance(error["field"], str)
    assert isinstance(error["message"], str)
    assert error["message"]
    return error


def new_session(client, roster, game="matzlfangen", seats=4, **fields) -> dict:
    """Start a session of ``game`` with the first ``seats`` players of the roster; ``fields`` change the body."""
    body = {"game": game, "stake_cents": 10, "players": [p.id for p in roster[:seats]], "first_dealer": 1, **fields}
    answer = client.post("/api/v1/sessions", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def post_hand(client, session_id: int, hand: Any, key: str | None = None):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(f"/api/v1/sessions/{session_id}/hands", json=hand, headers=headers)


# --- players -------------------------------------------------------------------------------


def test_the_roster_lists_every_player_by_name(client, players):
    answer = client.get("/api/v1/players")
    assert answer.status_code == 200
    assert answer.get_json() == {"players": [{"id": p.id, "name": p.name} for p in players]}


def test_an_empty_roster_is_an_empty_list(client):
    assert client.get("/api/v1/players").get_json() == {"players": []}


def test_adding_a_player_answers_201_with_the_player(client, db):
    answer = client.post("/api/v1/players", json={"name": "  Zoë 🃏  "})
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["name"] == "Zoë 🃏"
    assert db.get(Player, body["id"]).name == "Zoë 🃏"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "the name must not be empty"),
        ("   ", "the name must not be empty"),
        ("x" * 41, "the name may have at most 40 characters"),
        ("Anna\x00", "the name must not contain control characters"),
        (5, "the name must be a text"),
        (None, "the name must be a text"),
        (["Anna"], "the name must be a text"),
        ("anna", "there is already a player called anna"),
    ],
)
def test_a_bad_player_name_is_refused_with_the_field_and_nothing_is_added(client, db, players, name, message):
    before = rows(db)
    error = error_of(client.post("/api/v1/players", json={"name": name}), 400)
    assert error == {"field": "name", "message": message}
    assert rows(db) == before


@pytest.mark.parametrize(
    "body", [{}, {"name": "Franz", "age": 41}, ["Franz"], "Franz", 5, {"names": "Franz"}], ids=repr
)
def test_a_player_body_that_is_not_an_object_with_just_a_name_is_refused(client, db, body):
    error = error_of(client.post("/api/v1/players", json=body), 400)
    assert error["message"]
    assert rows(db)["Player"] == 0


# --- bodies that are not JSON ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/sessions", "/api/v1/sessions/{id}/hands"])
@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{", "application/json"),
        ("{'name': 'x'}", "application/json"),
        ("", "application/json"),
        ("null", "application/json"),
        ('{"name": "Franz"}', "text/plain"),
        ("name=Franz", "application/x-www-form-urlencoded"),
    ],
)
def test_a_body_that_is_not_json_is_refused_with_400_and_changes_nothing(
    client, db, players, night, path, data, content_type
):
    before = rows(db)
    answer = client.post(path.format(id=night.id), data=data, content_type=content_type)
    error = error_of(answer, 400)
    assert error == {"field": "", "message": "the body must be JSON (Content-Type: application/json)"}
    assert rows(db) == before


def test_a_put_body_that_is_not_json_is_refused_and_changes_nothing(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    before, hands = rows(db), stored_hands(db, night.id)
    answer = client.put(f"/api/v1/sessions/{night.id}/hands/1", data="{points: 1", content_type="application/json")
    assert error_of(answer, 400)["field"] == ""
    assert rows(db) == before
    assert stored_hands(db, night.id) == hands


def test_json_nested_beyond_reason_is_refused_not_a_server_error(client, db, night):
    before = rows(db)
    answer = client.post(
        f"/api/v1/sessions/{night.id}/hands", data="[" * 100_000 + "]" * 100_000, content_type="application/json"
    )
    assert error_of(answer, 400)
    assert rows(db) == before


# --- sessions ---------------------------------------------------------------------------------


def test_starting_a_session_answers_201_with_the_whole_night(client, db, players):
    body = new_session(client, players, currency="chf", date="2026-11-14", place="Zur Post")
    night = db.get(Night, body["id"])
    assert night is not None
    assert body == {
        "id": night.id,
        "game": "matzlfangen",
        "rules": rules_to_json(GAMES["matzlfangen"].parse_rules(None)),
        "stake_cents": 10,
        "for_money": True,
        "currency": "CHF",
        "date": "2026-11-14",
        "place": "Zur Post",
        "status": "open",
        "version": 0,
        "first_dealer": 1,
        "players": [{"seat": i, "id": p.id, "name": p.name} for i, p in enumerate(players[:4], start=1)],
        "hands": [],
        "totals": [{"seat": i, "name": p.name, "units": 0, "cents": 0} for i, p in enumerate(players[:4], start=1)],
        "next_dealer": 1,
        "pot_moved": [],
    }


def test_players_may_be_given_by_name_ignoring_case_and_spaces(client, players):
    body = new_session(client, players, players=["anna", "BERND", " Clara ", players[3].id])
    assert [p["name"] for p in body["players"]] == ["Anna", "Bernd", "Clara", "Dieter"]


@pytest.mark.parametrize(
    ("game", "seats", "rules", "expected"),
    [
        ("matzlfangen", 5, {"win_threshold": 61}, {"win_threshold": 61}),
        ("schafkopf", 4, {"preset": "bavarian"}, {}),
        ("schafkopf", 5, {"preset": "bavarian", "tariff_solo": 6}, {"tariff_solo": 6}),
        ("konter_a_matt", 4, {"strokes": 7}, {"strokes": 7}),
        ("matt", 2, None, {}),
    ],
)
def test_a_session_stores_the_complete_rule_set_it_is_played_under(client, db, players, game, seats, rules, expected):
    body = new_session(client, players, game, seats, rules=rules)
    preset = (rules or {}).get("preset", "seed")
    complete = {**rules_to_json(GAMES[game].parse_rules({"preset": preset})), **expected}
    assert body["rules"] == complete
    assert db.get(Night, body["id"]).rules == complete
    assert len(body["players"]) == seats


def test_a_schafkopf_pot_session_reports_the_pot(client, players):
    body = new_session(client, players, "schafkopf")
    assert (body["pot"], body["pot_cents"]) == (0, 0)


def test_a_konter_a_matt_session_reports_strokes_and_games(client, players):
    body = new_session(client, players, "konter_a_matt")
    assert body["strokes"] == {"A": 11, "B": 11}
    assert body["carry"] == 0
    assert body["games_won"] == {"A": 0, "B": 0}


BAD_SESSIONS = [
    # (changed fields, the field named in the error)
    ({"game": None}, "game"),
    ({"game": "poker"}, "game"),
    ({"game": 5}, "game"),
    ({"rules": "bavarian"}, "rules"),
    ({"rules": {"win_threshold": "66"}}, "rules.win_threshold"),
    ({"rules": {"win_threshold": 131}}, "rules.win_threshold"),
    ({"rules": {"win_threshold": 66.0}}, "rules.win_threshold"),
    ({"rules": {"matzl_annuls_loss": 1}}, "rules.matzl_annuls_loss"),
    ({"rules": {"tariff_solo": 5}}, "rules.tariff_solo"),
    ({"rules": {"preset": "bavarian"}}, "rules.preset"),
    ({"stake_cents": "10"}, "stake_cents"),
    ({"stake_cents": -1}, "stake_cents"),
    ({"stake_cents": 0.1}, "stake_cents"),
    ({"stake_cents": True}, "stake_cents"),
    ({"stake_cents": 100_001}, "stake_cents"),
    ({"players": "1,2,3,4"}, "players"),
    ({"players": []}, "players"),
    ({"players": [1, 2, 3]}, "players"),
    ({"players": [1, 2, 3, 4, 5, 1]}, "players"),
    ({"players": [1, 2, 3, 1]}, "players"),
    ({"players": ["Anna", "anna", "Clara", "Dieter"]}, "players"),
    ({"players": [1, 2, 3, 99]}, "players"),
    ({"players": [1, 2, 3, "Zenzi"]}, "players"),
    ({"players": [1, 2, 3, True]}, "players"),
    ({"players": [1, 2, 3, 4.0]}, "players"),
    ({"first_dealer": 0}, "first_dealer"),
    ({"first_dealer": 5}, "first_dealer"),
    ({"first_dealer": "1"}, "first_dealer"),
    ({"first_dealer": None}, "first_dealer"),
    ({"currency": "EURO"}, "currency"),
    ({"currency": "E1R"}, "currency"),
    ({"currency": 978}, "currency"),
    ({"date": "14.11.2026"}, "date"),
    ({"date": "2026-02-30"}, "date"),
    ({"date": 20261114}, "date"),
    ({"place": 5}, "place"),
    ({"place": "P" * 81}, "place"),
    ({"dealer": 1}, "dealer"),
    ({"hands": []}, "hands"),
]


@pytest.mark.parametrize(("fields", "field"), BAD_SESSIONS, ids=lambda v: json.dumps(v)[:40])
def test_a_bad_session_is_refused_with_400_naming_the_field_and_nothing_is_created(client, db, players, fields, field):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in players[:4]], "first_dealer": 1}
    body.update(fields)
    before = rows(db)
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error["field"] == field
    assert rows(db) == before


@pytest.mark.parametrize("missing", ["game", "stake_cents", "players", "first_dealer"])
def test_a_session_without_a_required_field_is_refused(client, db, players, missing):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in players[:4]], "first_dealer": 1}
    del body[missing]
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error == {"field": missing, "message": f"{missing} is required"}
    assert rows(db)["Night"] == 0


@pytest.mark.parametrize("body", [[], ["matzlfangen"], "matzlfangen", 4, True], ids=repr)
def test_a_session_body_that_is_not_an_object_is_refused(client, db, body):
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error == {"field": "", "message": "the body must be an object"}
    assert rows(db)["Night"] == 0


def test_a_refused_session_says_why_in_plain_words(client, players):
    body = {"game": "konter_a_matt", "stake_cents": 10, "players": [p.id for p in players], "first_dealer": 1}
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error == {"field": "players", "message": "konter_a_matt is played by 4 players, not 5"}


def test_getting_a_session_answers_with_players_hands_and_totals(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    answer = client.get(f"/api/v1/sessions/{night.id}")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["version"] == 1
    assert body["next_dealer"] == 2
    [hand] = body["hands"]
    assert hand["number"] == 1
    assert hand["dealer"] == 1
    assert hand["hand"] == {**RUFEN_HIRSCH, "dealer": 1}
    assert hand["result"]["value"] == 6
    assert hand["result"]["deltas"] == {"1": -6, "2": 6, "3": -6, "4": 6}
    assert [s["what"] for s in hand["result"]["steps"]][-1] == "value"
    assert hand["players"] == [
        {"name": "Anna", "units": -6, "cents": -60},
        {"name": "Bernd", "units": 6, "cents": 60},
        {"name": "Clara", "units": -6, "cents": -60},
        {"name": "Dieter", "units": 6, "cents": 60},
    ]
    assert body["totals"] == [
        {"seat": 1, "name": "Anna", "units": -6, "cents": -60},
        {"seat": 2, "name": "Bernd", "units": 6, "cents": 60},
        {"seat": 3, "name": "Clara", "units": -6, "cents": -60},
        {"seat": 4, "name": "Dieter", "units": 6, "cents": 60},
    ]


def test_a_session_says_whether_it_is_played_for_money(client, db, players):
    """A night at a stake of 0 is played for its units alone (docs/rules.md, "Played for money"): its cents are all
    0, and ``for_money`` says so rather than leaving a client to show 0.00 EUR; a staked night's says true."""
    honour = start_night(db, players, "schafkopf", stake_cents=0)
    record_hand(db=db, night_id=honour.id, hand={"contract": "rundpass"})
    staked = start_night(db, players, "schafkopf")
    assert [client.get(f"/api/v1/sessions/{n.id}").get_json()["for_money"] for n in (honour, staked)] == [False, True]
    body = client.get(f"/api/v1/sessions/{honour.id}").get_json()
    assert [t["units"] for t in body["totals"]] == [-2, -2, -2, -2] and (body["pot"], body["pot_cents"]) == (8, 0)


# --- hands ------------------------------------------------------------------------------------


def test_recording_a_hand_answers_201_with_its_result_and_the_totals(client, db, night):
    answer = post_hand(client, night.id, RUFEN_HIRSCH)
    assert answer.status_code == 201
    body = answer.get_json()
    assert set(body) == {"hand", "totals", "version"}
    assert body["version"] == 1
    assert body["hand"]["number"] == 1
    assert body["hand"]["result"]["value"] == 6
    assert body["hand"]["result"]["winner"] == "declarers"
    assert [(t["name"], t["units"], t["cents"]) for t in body["totals"]] == [
        ("Anna", -6, -60),
        ("Bernd", 6, 60),
        ("Clara", -6, -60),
        ("Dieter", 6, 60),
    ]
    assert stored_hands(db, night.id) == [{**RUFEN_HIRSCH, "dealer": 1}]


def test_totals_equal_the_engines_for_the_same_hands(client, db, players):
    session = new_session(client, players, "schafkopf", stake_cents=50)
    hands = [
        {"contract": "rundpass"},
        {"contract": "solo", "declarer": 3, "suit": "herz", "points": 95, "laufende": 3},
        {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 70, "kontra": True},
        {"contract": "wenz", "declarer": 1, "tout": True, "won": False, "laufende": 2},
        {"contract": "rundpass"},
    ]
    for hand in hands:
        assert post_hand(client, session["id"], hand).status_code == 201
    body = client.get(f"/api/v1/sessions/{session['id']}").get_json()
    engine = settle_json({"game": "schafkopf", "rules": session["rules"], "hands": hands})
    assert [t["units"] for t in body["totals"]] == [engine["totals"][str(s)] for s in range(1, 5)]
    assert [t["cents"] for t in body["totals"]] == [engine["totals"][str(s)] * 50 for s in range(1, 5)]
    assert body["pot"] == engine["totals"]["pot"]
    # by hand: rundpass -2 each, pot 8; Clara's solo 9 from each; Bernd and Dieter win a Sauspiel doubled by kontra
    # (4 each) and take 4 each from the pot; Anna's Wenz tout lost with 2 runners ((5 + 2) × 2 = 14 to each);
    # rundpass -2 each, pot 8 again
    assert [t["units"] for t in body["totals"]] == [-59, 9, 33, 9]
    assert (body["pot"], body["pot_cents"]) == (8, 400)


def test_a_hand_at_a_table_of_five_books_the_dealer_zero(client, players):
    session = new_session(client, players, "matzlfangen", 5)
    # Anna deals and sits out: seats 1-4 are Bernd, Clara, Dieter, Eva; Bernd declares with Dieter
    answer = post_hand(client, session["id"], {"contract": "rufen", "declarer": 1, "partner": 3, "points": 80})
    assert answer.status_code == 201
    body = answer.get_json()
    assert [(p["name"], p["units"]) for p in body["hand"]["players"]] == [
        ("Anna", 0),
        ("Bernd", 1),
        ("Clara", -1),
        ("Dieter", 1),
        ("Eva", -1),
    ]
    assert body["hand"]["dealer"] == 1


def test_a_konter_a_matt_hand_reports_the_strokes(client, players):
    session = new_session(client, players, "konter_a_matt")
    assert post_hand(client, session["id"], {"trump_team": "B", "points_a": 20}).status_code == 201
    body = client.get(f"/api/v1/sessions/{session['id']}").get_json()
    assert body["strokes"] == {"A": 11, "B": 12}
    assert body["carry"] == 1
    assert body["hands"][0]["result"]["stanner"] is True


def test_a_matt_match_reports_the_match_score(client, players):
    session = new_session(client, players, "matt", 2, rules={"stake_per_point": 1})
    for hand in ({"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 5, "card": "10"}):
        assert post_hand(client, session["id"], hand).status_code == 201
    body = client.get(f"/api/v1/sessions/{session['id']}").get_json()
    assert body["hands"][-1]["result"]["match_score"] == {"1": 77, "2": 50}
    assert [t["units"] for t in body["totals"]] == [27, -27]
    assert [t["cents"] for t in body["totals"]] == [270, -270]


MATT_HANDS = [{"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 3, "card": "K"}]


def test_the_api_pays_no_cents_in_any_hand_of_a_matt_night_without_a_stake(client, db, players):
    night = start_night(db, players, "matt", 2, None, stake_cents=10, played_on=date(2026, 3, 2))
    add_hands(db=db, night_id=night.id, hands=MATT_HANDS)
    body = client.get(f"/api/v1/sessions/{night.id}").get_json()
    assert [t["cents"] for t in body["totals"]] == [0, 0]  # played for honour: nobody pays anything
    # ... yet each hand said what each player "won or paid in this hand" (docs/api.md): 7.70 EUR to Anna
    paid = [[p["cents"] for p in h["players"]] for h in body["hands"]]
    assert paid == [[0, 0], [0, 0]]
    assert [[p["units"] for p in h["players"]] for h in body["hands"]] == [[77, 0], [0, 12]]  # the points


def test_the_api_hands_of_a_staked_matt_night_add_up_to_its_totals(client, db, players):
    rules = {"stake_per_point": 1}
    night = start_night(db, players, "matt", 2, rules, stake_cents=10, played_on=date(2026, 3, 2))
    add_hands(db=db, night_id=night.id, hands=MATT_HANDS)
    body = client.get(f"/api/v1/sessions/{night.id}").get_json()
    totals = [t["cents"] for t in body["totals"]]
    assert totals == [650, -650]  # (77 - 12) points x 1 unit x 10 cents
    by_hands = [sum(h["players"][i]["cents"] for h in body["hands"]) for i in range(2)]
    assert by_hands == totals  # what each hand says a player won or paid adds up to what they win or pay


def test_the_api_of_a_closed_night_gives_the_money_its_settlement_pays(client, db, players):
    night = closed_split_night(db, players)  # 8 units (0.80 EUR) left in the pot, shared at the close
    body = client.get(f"/api/v1/sessions/{night.id}").get_json()
    assert [t["cents"] for t in body["totals"]] == [-40, -40, 40, 40]
    assert [t["units"] for t in body["totals"]] == [-6, -6, 2, 2]  # the units stay the balance's


def test_repeating_an_idempotency_key_returns_the_first_result_with_200(client, db, night):
    first = post_hand(client, night.id, RUFEN_HIRSCH, key="hand-1-phone-a")
    again = post_hand(client, night.id, RUFEN_HIRSCH, key="hand-1-phone-a")
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.get_json() == first.get_json()
    assert len(stored_hands(db, night.id)) == 1
    assert rows(db)["AuditEntry"] == 1


def test_a_repeated_key_returns_the_first_hand_even_with_another_body(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH, key="k").status_code == 201
    other = {"contract": "durch", "declarer": 2, "won": True}
    again = post_hand(client, night.id, other, key="k")
    assert again.status_code == 200
    assert again.get_json()["hand"]["hand"] == {**RUFEN_HIRSCH, "dealer": 1}
    assert stored_hands(db, night.id) == [{**RUFEN_HIRSCH, "dealer": 1}]


def test_different_idempotency_keys_record_different_hands(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH, key="a").status_code == 201
    second = post_hand(client, night.id, {"contract": "rufen", "partner": 1, "points": 70}, key="b")
    assert second.status_code == 201
    assert second.get_json()["hand"]["number"] == 2
    assert second.get_json()["hand"]["dealer"] == 2
    assert len(stored_hands(db, night.id)) == 2


def test_a_key_of_an_undone_hand_is_refused_with_409_and_records_nothing(client, db, night):
    """The hand sent again after its undo (its answer was lost) is not recorded again (docs/api.md)."""
    assert post_hand(client, night.id, RUFEN_HIRSCH, key="phone-a-1").status_code == 201
    assert client.delete(f"/api/v1/sessions/{night.id}/hands/1").status_code == 200
    before = rows(db)
    error = error_of(post_hand(client, night.id, RUFEN_HIRSCH, key="phone-a-1"), 409)
    assert error == {
        "field": "",
        "message": "the hand sent with this idempotency key was recorded as hand 1 and undone since: "
        "it is not recorded again",
    }
    assert rows(db) == before
    assert stored_hands(db, night.id) == []


def test_an_idempotency_key_is_kept_per_night(client, db, players, night):
    other = new_session(client, players, "matzlfangen")
    assert post_hand(client, night.id, RUFEN_HIRSCH, key="same").status_code == 201
    assert post_hand(client, other["id"], RUFEN_HIRSCH, key="same").status_code == 201
    assert len(stored_hands(db, other["id"])) == 1


@pytest.mark.parametrize("key", ["k" * 65, "x" * 10_000])
def test_an_idempotency_key_too_long_is_refused(client, db, night, key):
    error = error_of(post_hand(client, night.id, RUFEN_HIRSCH, key=key), 400)
    assert error == {
        "field": "idempotency_key",
        "message": "the idempotency key must be 1 to 64 printable ASCII characters",
    }
    assert stored_hands(db, night.id) == []


def test_an_idempotency_key_with_a_control_character_is_refused_and_nothing_is_saved(client, db, night):
    form = {"contract": "rufen", "partner": "4", "points": "70", "expected_hands": "0", "action": "save"}
    answer = client.post(f"/nights/{night.id}/hands/new", data={**form, "idempotency_key": "a\x00b"})
    assert answer.status_code == 400
    assert stored_hands(db, night.id) == []


BAD_HANDS = [
    # (hand, field, message)
    ({**RUFEN_HIRSCH, "points": 131}, "points", "points must be between 0 and 130"),
    ({**RUFEN_HIRSCH, "points": "70"}, "points", "points must be a whole number, not a text"),
    ({**RUFEN_HIRSCH, "points": 70.0}, "points", "points must be a whole number, not a decimal number"),
    ({**RUFEN_HIRSCH, "points": True}, "points", "points must be a whole number, not true or false"),
    ({**RUFEN_HIRSCH, "partner": 2}, "partner", "the partner must be another seat than the declarer"),
    ({**RUFEN_HIRSCH, "partner": -1}, "partner", "partner must be a seat from 1 to 4, not -1"),
    ({**RUFEN_HIRSCH, "declarer": 1}, "declarer", "in rufen forehand declares: with seat 1 dealing that is seat 2"),
    ({**RUFEN_HIRSCH, "won": True}, "won", "won does not apply to rufen"),
    ({**RUFEN_HIRSCH, "foo": 1}, "foo", "unknown field 'foo'"),
    ({"contract": "rufen", "points": 70}, "partner", "partner is required"),
    ({"partner": 4, "points": 70}, "contract", "contract is required"),
    ({**RUFEN_HIRSCH, "schwarz": True}, "schwarz", "the defenders took no trick, so they cannot have 60 points"),
]


@pytest.mark.parametrize(("hand", "field", "message"), BAD_HANDS, ids=lambda v: json.dumps(v)[:40])
def test_an_invalid_hand_is_refused_with_the_engines_error_and_nothing_changes(client, db, night, hand, field, message):
    before = rows(db)
    error = error_of(post_hand(client, night.id, hand, key="once"), 400)
    assert error == {"hand": 0, "field": field, "message": message}
    assert rows(db) == before
    # the key of a refused hand is free for the corrected one
    assert post_hand(client, night.id, RUFEN_HIRSCH, key="once").status_code == 201


@pytest.mark.parametrize("body", [[RUFEN_HIRSCH], "rufen", 70, True, [], {"hands": [RUFEN_HIRSCH]}], ids=repr)
def test_a_hand_that_is_not_a_hand_object_is_refused(client, db, night, body):
    before = rows(db)
    error = error_of(post_hand(client, night.id, body), 400)
    assert error["message"]
    assert rows(db) == before


def test_an_invalid_later_hand_names_its_index(client, db, night):
    for _ in range(2):
        assert post_hand(client, night.id, {"contract": "durch", "declarer": 1, "won": True}).status_code == 201
    # hand 3: Clara deals, Dieter (seat 4) declares and calls Anna
    error = error_of(post_hand(client, night.id, {"contract": "rufen", "partner": 1, "points": -5}), 400)
    assert error == {"hand": 2, "field": "points", "message": "points must be between 0 and 130"}


# --- PUT and DELETE ---------------------------------------------------------------------------


def test_putting_a_hand_replaces_it_and_recomputes_the_totals(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    answer = client.put(f"/api/v1/sessions/{night.id}/hands/1", json={**RUFEN_HIRSCH, "points": 60})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["hand"]["hand"] == {**RUFEN_HIRSCH, "points": 60, "dealer": 1}
    assert body["hand"]["result"]["winner"] == "defenders"
    assert [t["units"] for t in body["totals"]] == [6, -6, 6, -6]
    assert body["version"] == 2
    entries = audit_trail(db, night.id)
    assert [e.action for e in entries] == ["record", "edit"]
    assert entries[-1].before["points"] == 70
    assert entries[-1].after["points"] == 60


def test_putting_an_early_hand_recomputes_the_later_ones(client, db, players):
    session = new_session(client, players, "schafkopf")
    sauspiel = {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 70}
    for hand in ({"contract": "rundpass"}, sauspiel):
        assert post_hand(client, session["id"], hand).status_code == 201
    assert [t["units"] for t in client.get(f"/api/v1/sessions/{session['id']}").get_json()["totals"]] == [-4, 4, -4, 4]
    wenz = {"contract": "wenz", "declarer": 1, "points": 61}
    answer = client.put(f"/api/v1/sessions/{session['id']}/hands/1", json=wenz)
    assert answer.status_code == 200
    body = client.get(f"/api/v1/sessions/{session['id']}").get_json()
    assert [t["units"] for t in body["totals"]] == [13, -3, -7, -3]
    assert body["pot"] == 0
    assert body["hands"][1]["result"]["pot_before"] == 0


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({**RUFEN_HIRSCH, "points": 200}, "points"),
        ({**RUFEN_HIRSCH, "bonus": 1}, "bonus"),
        ({**RUFEN_HIRSCH, "partner": "Dieter"}, "partner"),
        ([RUFEN_HIRSCH], ""),
        ("rufen", ""),
    ],
    ids=lambda v: json.dumps(v)[:40],
)
def test_putting_an_invalid_hand_is_refused_and_changes_nothing(client, db, night, hand, field):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    before, hands = rows(db), stored_hands(db, night.id)
    error = error_of(client.put(f"/api/v1/sessions/{night.id}/hands/1", json=hand), 400)
    assert error["field"] == field
    assert rows(db) == before
    assert stored_hands(db, night.id) == hands


def test_putting_a_hand_that_would_spoil_a_later_one_is_refused_naming_the_later_hand(client, db, players):
    session = new_session(client, players, "konter_a_matt")
    for hand in ({"trump_team": "B", "points_a": 25}, {"trump_team": "A", "points_a": 30}):
        assert post_hand(client, session["id"], hand).status_code == 201
    before, hands = rows(db), stored_hands(db, session["id"])
    answer = client.put(f"/api/v1/sessions/{session['id']}/hands/1", json={"trump_team": "B", "points_a": 20})
    error = error_of(answer, 400)
    assert error == {
        "hand": 1,
        "field": "trump_team",
        "message": "after a Stänner the same team chooses trumps again: team B",
    }
    assert rows(db) == before
    assert stored_hands(db, session["id"]) == hands


@pytest.mark.parametrize("number", [0, 2, 99])
def test_putting_a_hand_that_does_not_exist_is_not_found(client, db, night, number):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    before = rows(db)
    error = error_of(client.put(f"/api/v1/sessions/{night.id}/hands/{number}", json=RUFEN_HIRSCH), 404)
    assert error == {"field": "", "message": f"no hand {number}"}
    assert rows(db) == before


def test_deleting_the_last_hand_undoes_it(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    assert post_hand(client, night.id, {"contract": "durch", "declarer": 1, "won": True}).status_code == 201
    answer = client.delete(f"/api/v1/sessions/{night.id}/hands/2")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["deleted"] == 2
    assert [t["units"] for t in body["totals"]] == [-6, 6, -6, 6]
    assert body["version"] == 3
    session = client.get(f"/api/v1/sessions/{night.id}").get_json()
    assert [h["number"] for h in session["hands"]] == [1]
    assert session["next_dealer"] == 2
    undo = audit_trail(db, night.id)[-1]
    assert (undo.action, undo.hand_number, undo.after) == ("undo", 2, None)
    assert undo.before == {"contract": "durch", "declarer": 1, "won": True, "dealer": 2}


def test_deleting_a_hand_other_than_the_last_is_a_conflict_and_changes_nothing(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    assert post_hand(client, night.id, {"contract": "durch", "declarer": 1, "won": True}).status_code == 201
    before = rows(db)
    error = error_of(client.delete(f"/api/v1/sessions/{night.id}/hands/1"), 409)
    assert error == {"field": "number", "message": "only the last hand (2) can be deleted; edit earlier hands"}
    assert rows(db) == before


DURCH_BY_ONE = {"contract": "durch", "declarer": 1, "won": True}


def test_an_undo_sent_with_the_version_read_before_another_phone_changed_the_night_is_refused_with_412(
    client, db, night
):
    """Phone A reads the night (two hands); phone B undoes hand 2 and records another hand 2; A's undo of
    "hand 2", sent with the version it read (If-Match), is refused: it would take back B's hand."""
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    assert post_hand(client, night.id, DURCH_BY_ONE).status_code == 201
    seen = client.get(f"/api/v1/sessions/{night.id}").get_json()["version"]
    assert client.delete(f"/api/v1/sessions/{night.id}/hands/2").status_code == 200  # phone B
    assert post_hand(client, night.id, {**DURCH_BY_ONE, "won": False}).status_code == 201
    now = client.get(f"/api/v1/sessions/{night.id}").get_json()["version"]
    before = rows(db)
    error = error_of(client.delete(f"/api/v1/sessions/{night.id}/hands/2", headers={"If-Match": f'"{seen}"'}), 412)
    assert error == {
        "field": "If-Match",
        "message": f"the night changed since version {seen} (it is at {now}): read it again",
    }
    assert rows(db) == before
    assert stored_hands(db, night.id)[1]["won"] is False  # B's hand stays


@pytest.mark.parametrize("quoted", [True, False])
def test_an_undo_or_a_change_sent_with_the_nights_version_goes_through(client, db, night, quoted):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    assert post_hand(client, night.id, DURCH_BY_ONE).status_code == 201
    version = client.get(f"/api/v1/sessions/{night.id}").get_json()["version"]
    tag = f'"{version}"' if quoted else str(version)
    changed = client.put(
        f"/api/v1/sessions/{night.id}/hands/2", json={**DURCH_BY_ONE, "won": False}, headers={"If-Match": tag}
    )
    assert changed.status_code == 200
    assert stored_hands(db, night.id)[1]["won"] is False
    tag = f'"{changed.get_json()["version"]}"' if quoted else str(changed.get_json()["version"])
    answer = client.delete(f"/api/v1/sessions/{night.id}/hands/2", headers={"If-Match": tag})
    assert answer.status_code == 200
    assert [h["number"] for h in client.get(f"/api/v1/sessions/{night.id}").get_json()["hands"]] == [1]


def test_a_change_sent_with_an_older_version_is_refused_with_412_and_changes_nothing(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    seen = client.get(f"/api/v1/sessions/{night.id}").get_json()["version"]
    assert post_hand(client, night.id, DURCH_BY_ONE).status_code == 201  # another phone
    before = rows(db)
    answer = client.put(
        f"/api/v1/sessions/{night.id}/hands/1", json={**RUFEN_HIRSCH, "points": 60}, headers={"If-Match": str(seen)}
    )
    assert error_of(answer, 412)["field"] == "If-Match"
    assert rows(db) == before


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_a_night_changed_by_another_phone_while_the_request_waited_for_its_lock_is_refused_with_412(
    app, client, db, night, monkeypatch, method
):
    """The version is compared under the night's lock, where the change or undo is made: another phone's
    hand recorded after the request read the night and before it took the lock is found there too, and
    answered as a stale If-Match (412), not as some other conflict (it was a 409). PostgreSQL only: on
    SQLite a request that writes holds the write lock from its first read, so no phone comes between."""
    from scorekeeper.core import db as database
    from scorekeeper.web.api import routes

    if app.extensions["sk_engine"].dialect.name == "sqlite":
        pytest.skip("SQLite: the request holds the write lock from its first read (BEGIN IMMEDIATE)")

    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    seen = client.get(f"/api/v1/sessions/{night.id}").get_json()["version"]
    name = "edit_hand" if method == "PUT" else "undo_last"
    real = getattr(routes, name)

    def another_phone_first(**kwargs):
        with database.session(app.extensions["sk_engine"], write=True) as phone:
            record_hand(db=phone, night_id=night.id, hand=DURCH_BY_ONE)
        return real(**kwargs)

    monkeypatch.setattr(routes, name, another_phone_first)
    [first] = stored_hands(db, night.id)
    body = {"json": {**RUFEN_HIRSCH, "points": 60}} if method == "PUT" else {}
    answer = client.open(f"/api/v1/sessions/{night.id}/hands/1", method=method, headers={"If-Match": str(seen)}, **body)
    assert error_of(answer, 412) == {
        "field": "If-Match",
        "message": f"the night changed since version {seen} (it is at {seen + 1}): read it again",
    }
    assert stored_hands(db, night.id) == [first, {**DURCH_BY_ONE, "dealer": 2}]  # hand 1 as it was; hand 2 kept


def test_if_match_star_checks_nothing(client, db, night):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    assert client.delete(f"/api/v1/sessions/{night.id}/hands/1", headers={"If-Match": "*"}).status_code == 200


@pytest.mark.parametrize("tag", ["", "x", "-1", "1.0", "²", 'W/"1"', "1" * 19, '"1", "2"'])
def test_an_if_match_that_is_no_version_is_refused_with_400_and_changes_nothing(client, db, night, tag):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    before = rows(db)
    error = error_of(client.delete(f"/api/v1/sessions/{night.id}/hands/1", headers={"If-Match": tag}), 400)
    assert error == {"field": "If-Match", "message": "If-Match must be the night's version as the answers give it"}
    error = error_of(
        client.put(f"/api/v1/sessions/{night.id}/hands/1", json=RUFEN_HIRSCH, headers={"If-Match": tag}), 400
    )
    assert error["field"] == "If-Match"
    assert rows(db) == before


@pytest.mark.parametrize("number", [0, 1, 3])
def test_deleting_a_hand_that_does_not_exist_is_not_found(client, db, night, number):
    if number == 3:
        assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    before = rows(db)
    error_of(client.delete(f"/api/v1/sessions/{night.id}/hands/{number}"), 404)
    assert rows(db) == before


# --- unknown ids -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/sessions/999"),
        ("post", "/api/v1/sessions/999/hands"),
        ("put", "/api/v1/sessions/999/hands/1"),
        ("delete", "/api/v1/sessions/999/hands/1"),
        ("get", "/api/v1/sessions/abc"),
        ("get", "/api/v1/nothing"),
        ("put", "/api/v1/sessions/1/hands/-1"),
    ],
)
def test_an_unknown_session_or_route_is_not_found_as_json(client, db, night, method, path):
    before = rows(db)
    error = error_of(getattr(client, method)(path, json=RUFEN_HIRSCH), 404)
    assert error["field"] == ""
    assert rows(db) == before


def test_an_unknown_session_says_which(client):
    assert error_of(client.get("/api/v1/sessions/999"), 404) == {"field": "", "message": "no night 999"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/sessions/{huge}"),
        ("post", "/api/v1/sessions/{huge}/hands"),
        ("put", "/api/v1/sessions/{night}/hands/{huge}"),
        ("delete", "/api/v1/sessions/{huge}/hands/1"),
    ],
)
def test_an_id_beyond_any_database_integer_is_not_found_not_a_server_error(client, db, night, method, path):
    before = rows(db)
    answer = getattr(client, method)(path.format(huge=10**30, night=night.id), json=RUFEN_HIRSCH)
    error_of(answer, 404)
    assert rows(db) == before


def test_a_method_the_route_does_not_have_is_refused_as_json(client, night):
    error = error_of(client.patch(f"/api/v1/sessions/{night.id}/hands/1", json={}), 405)
    assert error["field"] == ""


# --- hostile values: never a 500 ---------------------------------------------------------------

HOSTILE = [
    10**30,
    -(10**30),
    -1,
    0,
    1.5,
    float("inf"),
    "x" * 100_000,
    "",
    "\x00",
    [[[[[]]]]],
    {"a": {"b": [None]}},
    None,
    True,
]


def _id(value: Any) -> str:
    return json.dumps(value)[:24]


def hostile(fields: list[str], valid: tuple[tuple[str, Any], ...] = ()) -> list:
    """Every hostile value for every field, leaving out the pairs that are valid there (null matzl, 0 points)."""
    return [
        pytest.param(field, value, id=f"{field}={_id(value)}")
        for field in fields
        for value in HOSTILE
        if not any(field == f and type(value) is type(v) and value == v for f, v in valid)
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    hostile(
        ["contract", "partner", "points", "raises", "matzl", "dealer", "declarer", "trump"],
        valid=(("matzl", None), ("trump", None), ("points", 0), ("raises", 0)),
    ),
)
def test_a_hostile_value_in_a_hand_is_refused_with_400(client, db, night, field, value):
    before = rows(db)
    error = error_of(post_hand(client, night.id, {**RUFEN_HIRSCH, field: value}), 400)
    assert error["field"] == field
    assert rows(db) == before


@pytest.mark.parametrize(("field", "value"), hostile(["points", "partner", "contract"], valid=(("points", 0),)))
def test_a_hostile_value_in_a_put_hand_is_refused_with_400_and_changes_nothing(client, db, night, field, value):
    assert post_hand(client, night.id, RUFEN_HIRSCH).status_code == 201
    before, hands = rows(db), stored_hands(db, night.id)
    error = error_of(client.put(f"/api/v1/sessions/{night.id}/hands/1", json={**RUFEN_HIRSCH, field: value}), 400)
    assert error["field"] == field
    assert rows(db) == before
    assert stored_hands(db, night.id) == hands


@pytest.mark.parametrize(
    ("field", "value"),
    hostile(
        ["game", "rules", "stake_cents", "players", "first_dealer", "currency", "date", "place"],
        valid=(("rules", None), ("place", ""), ("stake_cents", 0)),
    ),
)
def test_a_hostile_value_in_a_session_is_refused_with_400(client, db, players, field, value):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in players[:4]], "first_dealer": 1}
    body[field] = value
    before = rows(db)
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error["field"].split(".")[0] == field
    assert rows(db) == before


@pytest.mark.parametrize("value", [10**30, -(10**30), 2**63, -1, 0], ids=_id)
def test_a_player_id_out_of_any_range_is_refused_with_400(client, db, players, value):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [1, 2, 3, value], "first_dealer": 1}
    before = rows(db)
    error = error_of(client.post("/api/v1/sessions", json=body), 400)
    assert error["field"] == "players"
    assert rows(db) == before


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_a_hostile_player_name_is_refused_with_400(client, db, value):
    error = error_of(client.post("/api/v1/players", json={"name": value}), 400)
    assert error["field"] == "name"
    assert rows(db)["Player"] == 0


@pytest.mark.parametrize(("field", "value"), hostile(["points.4"], valid=(("points.4", 0),)))
def test_a_hostile_ramsch_points_value_is_refused_with_400(client, db, players, field, value):
    session = new_session(client, players, "schafkopf", rules={"preset": "bavarian"})
    before = rows(db)
    hand = {"contract": "ramsch", "points": {"1": 60, "2": 60, "3": 0, "4": value}}
    error = error_of(post_hand(client, session["id"], hand), 400)
    assert error["field"] == field
    assert rows(db) == before


# --- a session started once (Idempotency-Key) ------------------------------------------------


def start_session(client, roster, key: str | None):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [p.id for p in roster[:4]], "first_dealer": 1}
    return client.post("/api/v1/sessions", json=body, headers={} if key is None else {"Idempotency-Key": key})


def test_a_session_started_again_with_its_idempotency_key_is_the_first_one_with_200(client, db, players):
    first = start_session(client, players, "night-of-phone-a")
    again = start_session(client, players, "night-of-phone-a")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()
    assert rows(db)["Night"] == 1
    assert start_session(client, players, "another").status_code == 201  # another key: another night
    assert start_session(client, players, None).status_code == 201  # no key: a night each time
    assert rows(db)["Night"] == 3


def test_an_idempotency_key_of_a_session_is_kept_per_account(app, client, db, players):
    """Two tablets of two accounts that happen to use the same key start a night each."""
    other = signed_in(app, make_user(app, "Tablet", "scorer"))
    assert start_session(client, players, "1").status_code == 201
    assert start_session(other, players, "1").status_code == 201
    assert rows(db)["Night"] == 2


@pytest.mark.parametrize("key", ["k" * 65, "a\x7fb"])
def test_a_bad_idempotency_key_of_a_session_is_refused_and_starts_nothing(client, db, players, key):
    error = error_of(start_session(client, players, key), 400)
    assert error == {
        "field": "idempotency_key",
        "message": "the idempotency key must be 1 to 64 printable ASCII characters",
    }
    assert rows(db)["Night"] == 0


def test_the_api_does_not_seat_a_tournament_guest_at_a_club_night(client, db, players):
    """A guest of a tournament is never on the roster nor in the club's history (docs/tournaments.md): the
    API refuses the guest by name and, the same way, by the player id the tournament's answers list."""
    t = make_tournament(db, n=4)
    guest = tm.add_entrant(db=db, tournament_id=t.id, guest="Gustl Gast").player_id
    body = {"game": "matzlfangen", "stake_cents": 10, "first_dealer": 1}
    by_name = client.post("/api/v1/sessions", json={**body, "players": ["Gustl Gast", *(p.name for p in players[:3])]})
    assert error_of(by_name, 400)["field"] == "players"
    by_id = client.post("/api/v1/sessions", json={**body, "players": [guest, *(p.id for p in players[:3])]})
    assert error_of(by_id, 400) == {"field": "players", "message": f"there is no player {guest}"}
    assert db.exec(select(Night).where(Night.tournament_id.is_(None))).first() is None
