"""The OpenAPI document of the JSON API: served without a token, the routes' own (it cannot drift), and
true: schemathesis fuzzes every operation in-process and every answer must be one the document
describes; no answer is a server error; a refused request changes nothing."""

from __future__ import annotations

import os
import random
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core import NOT_SET

from scorekeeper.core import accounts, tournaments
from scorekeeper.core.hands import add_hands, record_hand
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import create_player
from scorekeeper.engine import GAMES
from scorekeeper.engine.samples import random_hands
from scorekeeper.web.api.openapi import PREFIX
from tests.support import RUFEN_HIRSCH, make_user, snapshot, start_night

METHODS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")


def api_routes(app) -> set[tuple[str, str, str]]:
    """(path as OpenAPI writes it, method, endpoint) of every route of the api blueprint."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] != "api":
            continue
        assert rule.rule.startswith(PREFIX)
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule[len(PREFIX) :])
        found |= {(path, method.lower(), rule.endpoint) for method in rule.methods - {"HEAD", "OPTIONS"}}
    return found


def documented(document) -> set[tuple[str, str, str]]:
    return {
        (path, method, f"api.{operation['operationId']}")
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def test_the_document_is_served_to_anybody_as_openapi_3_1(anon):
    answer = anon.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    document = answer.get_json()
    assert document["openapi"] == "3.1.0"
    assert document["servers"] == [{"url": "/api/v1"}]
    bearer = document["components"]["securitySchemes"]["bearer"]
    assert (bearer["type"], bearer["scheme"]) == ("http", "bearer")


def test_the_document_has_every_route_of_the_api_and_no_other(app, anon):
    document = anon.get("/api/v1/openapi.json").get_json()
    assert documented(document) == api_routes(app)
    assert len(api_routes(app)) == 16


def test_the_path_parameters_of_the_document_are_the_routes(app, anon):
    document = anon.get("/api/v1/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            named = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert named == set(re.findall(r"{(\w+)}", path)), f"{method} {path}"


def test_only_the_document_is_open_without_a_token(anon):
    document = anon.get("/api/v1/openapi.json").get_json()
    open_operations = [
        op["operationId"] for item in document["paths"].values() for op in item.values() if op.get("security") == []
    ]
    assert open_operations == ["openapi_document"]
    assert document["security"] == [{"bearer": []}]


# --- schemathesis: the document is true -------------------------------------------------------------

#: Cases per operation, generation mode (valid and invalid requests) and night; plus the document's examples.
#: ``SCOREKEEPER_FUZZ_SCALE=20``: twenty times as many, new ones on every run (a deeper search, by hand).
SCALE = int(os.environ.get("SCOREKEEPER_FUZZ_SCALE", "1"))
EXAMPLES = 25
#: The checks every answer goes through, besides "a refused request changes nothing".
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]
#: The nights of :func:`fuzzed` that the operations on a night are also asked about (random ids are unknown).
NIGHTS = (
    {"night_id": 1, "number": 1, "tournament_id": 1},
    {"night_id": 2, "number": 1, "tournament_id": 2},
    {"night_id": 3, "number": 1, "tournament_id": 1},
)


@pytest.fixture
def fuzzed(app, db, admin):
    """The app with something to find: a roster named as the document's examples, night 1 (Matzlfangen,
    open, one hand), night 2 (closed, one hand), night 3 (Schafkopf, open, no hand); tournament 1
    (five entrants, round 1 drawn: its table begun) and tournament 2 (four entrants, none drawn);
    and the admin's token that schemathesis asks with."""
    players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva")]
    nights = [start_night(db, players), start_night(db, players), start_night(db, players, game="schafkopf")]
    assert [n.id for n in nights] == [p["night_id"] for p in NIGHTS]
    for night in nights[:2]:
        record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    close_night(db=db, night_id=nights[1].id)
    for t_id, entrants in ((1, players), (2, players[:4])):
        t = tournaments.create_tournament(db=db, name=f"Turnier {t_id}", game="schafkopf", rules={"preset": "turnier"})
        assert t.id == t_id
        for p in entrants:
            tournaments.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    tournaments.draw_round(db=db, tournament_id=1)
    table = tournaments.read_tournament(db=db, tournament_id=1).rounds[0].tables[0]
    record_hand(db=db, night_id=table.night.id, hand={"contract": "wenz", "declarer": 1, "points": 61})
    _, token = accounts.create_token(db=db, user=admin, label="schemathesis")
    # schemathesis's in-process client asks for gzip but does not unpack it: ask for the plain body
    return {"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"}


def run_cases(strategy, examples: int, check) -> None:
    """``check`` every case that ``strategy`` draws (Hypothesis: shrunk to the smallest failing case)."""

    @given(case=strategy)
    @settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,  # the same cases on every run: CI stays stable
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )
    def cases(case):
        check(case)

    cases()


#: The operations are asked in this many parts, each a test of its own: pytest-xdist's workers share
#: them (as one test, all operations on one backend took a worker two minutes alone).
PARTS = 6


@pytest.mark.slow  # 6-17 s a part
@pytest.mark.parametrize("part", range(PARTS))
def test_every_answer_is_one_the_document_describes_and_a_refusal_changes_nothing(app, db, fuzzed, part):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)

    def check(case):
        before = snapshot(db)
        response = case.call(headers=fuzzed)
        case.validate_response(response, checks=CHECKS)
        if 400 <= response.status_code < 500:
            assert snapshot(db) == before, f"{case.method} {case.formatted_path} answered {response.status_code}"

    operations = [result.ok() for result in schema.get_all_operations()]
    # every operation but the document's own (schemathesis leaves out the path it loaded the schema from)
    assert len(operations) == len(api_routes(app)) - 1
    for operation in operations[part::PARTS]:
        for example in schema.get_strategies_from_examples(operation):
            run_cases(example, 1, check)
        names = {p.name for p in operation.path_parameters}
        pinned = [{k: v for k, v in night.items() if k in names} for night in NIGHTS] if names else []
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run_cases(operation.as_strategy(generation_mode=mode), EXAMPLES, check)
            for values in pinned:
                run_cases(operation.as_strategy(generation_mode=mode, path_parameters=values), EXAMPLES, check)


#: Hands per sample night: enough for every game's contracts and states (pots, Ramsch, strokes, matches).
SAMPLE_HANDS = 24


def test_a_night_of_every_game_and_preset_answers_as_the_document_says(app, db, admin):
    """Random valid nights of every game under every preset (the engine's samples), asked for, added
    to, edited and undone through the API: the answers of real hands match the document."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operation = {op.label: op for op in (result.ok() for result in schema.get_all_operations())}
    _, token = accounts.create_token(db=db, user=admin, label="samples")
    auth = {"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"}  # as in ``fuzzed``
    players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva")]
    rng = random.Random(2026)
    asked = 0

    def ask(label: str, status: int, body=NOT_SET, **path):
        nonlocal asked
        case = operation[label].Case(path_parameters=path, body=body, media_type="application/json")
        response = case.call(headers=auth)
        assert response.status_code == status, response.text[:500]
        case.validate_response(response, checks=CHECKS)
        asked += 1

    for game in GAMES.values():
        for preset in game.presets:
            night = start_night(db, players, game=game.name, seats=game.seats, rules={"preset": preset})
            hands = random_hands(game.name, rng, SAMPLE_HANDS + 1, game.parse_rules(night.rules))
            add_hands(db=db, night_id=night.id, hands=hands[:-1])
            ask("GET /sessions/{night_id}", 200, night_id=night.id)
            ask("POST /sessions/{night_id}/hands", 201, hands[-1], night_id=night.id)
            ask("PUT /sessions/{night_id}/hands/{number}", 200, hands[0], night_id=night.id, number=1)
            ask("DELETE /sessions/{night_id}/hands/{number}", 200, night_id=night.id, number=SAMPLE_HANDS + 1)
            close_night(db=db, night_id=night.id)
            ask("GET /sessions/{night_id}", 200, night_id=night.id)
            ask("POST /sessions/{night_id}/hands", 409, hands[-1], night_id=night.id)
    assert asked == 6 * sum(len(g.presets) for g in GAMES.values())


def test_a_viewer_is_refused_every_change_as_the_document_says(app, db):
    """The admin above may do everything: the 403s of the document are checked here."""
    viewer = make_user(app, "Vera", "viewer")
    _, token = accounts.create_token(db=db, user=viewer, label="x")
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    document = client.get("/api/v1/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "get":
                continue
            url = PREFIX + path.format(night_id=1, number=1, tournament_id=1, round_number=1, table=1)
            answer = client.open(url, method=method, json={})
            assert answer.status_code == 403
            assert "403" in operation["responses"]
