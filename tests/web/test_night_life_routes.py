"""Every route and API endpoint that changes a night asks its life (core/lifecycle.py), and nothing else
decides: the test enumerates the app's URL rules, drives each one that changes a night with a valid
request while the one place refuses everything, and checks each was refused and changed nothing.
And the pages offer only what the one place allows."""

from __future__ import annotations

import pytest

from scorekeeper.core import lifecycle
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.hands import record_hand
from scorekeeper.core.players import create_player
from scorekeeper.web.context import SAFE_METHODS
from tests.support import RUFEN_HIRSCH, snapshot, start_night

#: (endpoint, method) -> the action it asks for, and its request (a valid one: without the refusal it would
#: change the night).
LIFE_ROUTES = {
    ("hands.new", "POST"): (lifecycle.RECORD, "/nights/{n}/hands/new", {**RUFEN_HIRSCH, "action": "save"}),
    ("hands.edit", "POST"): (lifecycle.EDIT, "/nights/{n}/hands/1/edit", {**RUFEN_HIRSCH, "action": "save"}),
    ("hands.undo", "POST"): (lifecycle.UNDO, "/nights/{n}/hands/undo", {"expected_version": "1"}),
    ("nights.close", "POST"): (lifecycle.CLOSE, "/nights/{n}/close", {}),
    ("nights.reopen", "POST"): (lifecycle.REOPEN, "/nights/{c}/reopen", {"reason": "a hand was wrong"}),
    ("nights.delete", "POST"): (
        lifecycle.DELETE,
        "/nights/{n}/delete",
        {"reason": "started by mistake", "confirm": "y"},
    ),
    ("nights.change", "POST"): (lifecycle.CHANGE, "/nights/{n}/change", {"played_on": "2026-03-14", "place": "Post"}),
    ("api.add_hand", "POST"): (lifecycle.RECORD, "/api/v1/sessions/{n}/hands", RUFEN_HIRSCH),
    ("api.put_hand", "PUT"): (lifecycle.EDIT, "/api/v1/sessions/{n}/hands/1", RUFEN_HIRSCH),
    ("api.delete_hand", "DELETE"): (lifecycle.UNDO, "/api/v1/sessions/{n}/hands/1", None),
    ("tournaments.paper", "POST"): (
        lifecycle.PAPER,
        "/tournaments/{t}/rounds/1/tables/1/paper",
        {"p1": "3", "p2": "-1", "p3": "-1", "p4": "-1"},
    ),
    ("api.enter_paper", "POST"): (
        lifecycle.PAPER,
        "/api/v1/tournaments/{t}/rounds/1/tables/1/paper",
        {"points": [3, -1, -1, -1]},
    ),
    ("tournaments.clear_paper", "POST"): (
        lifecycle.PAPER,
        "/tournaments/{t}/rounds/1/tables/1/paper/clear",
        {"confirm": "1"},
    ),
}
#: Routes with a night in their address that change no part of its life.
NOT_LIFE: set[tuple[str, str]] = set()


def _changing(app):
    out = set()
    for rule in app.url_map.iter_rules():
        for method in rule.methods - SAFE_METHODS - {"HEAD", "OPTIONS"}:
            if "night_id" in rule.arguments or "round_number" in rule.arguments:
                out.add((rule.endpoint, method))
    return out


def test_the_routes_that_change_a_night_are_the_ones_this_test_drives(app):
    """If this fails, a route that changes a night was added: make it ask core/lifecycle.py and add it here."""
    assert _changing(app) == set(LIFE_ROUTES) | NOT_LIFE


@pytest.fixture
def world(db, players):
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    closed = start_night(db, players)
    from scorekeeper.core.nights import close_night

    close_night(db=db, night_id=closed.id)
    t = tm.create_tournament(db=db, name="T", game="schafkopf", rules={"preset": "turnier"}, deals=2)
    for i in range(4):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"T{i}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    return {"n": night.id, "c": closed.id, "t": t.id}


@pytest.mark.parametrize("route", sorted(LIFE_ROUTES))
def test_each_route_that_changes_a_night_asks_the_one_place(client, db, world, monkeypatch, route):
    action, path, body = LIFE_ROUTES[route]
    asked = []

    def refuse(life, asked_action, who=lifecycle.SYSTEM):
        asked.append((asked_action, who))
        return Conflict("refused by the one place")

    monkeypatch.setattr(lifecycle, "refusal", refuse)
    before = snapshot(db)
    url = path.format(**world) + ("?lang=en" if not path.startswith("/api/") else "")
    if path.startswith("/api/"):
        answer = client.open(url, method=route[1], json=body)
    else:
        answer = client.open(url, method=route[1], data=body)
    assert (action, "admin") in asked, asked
    assert answer.status_code in (302, 409), answer.get_data(as_text=True)[:500]
    said = "refused by the one place" if path.startswith("/api/") else "Refused by the one place"  # a page: a line
    if answer.status_code == 302:  # a page that went back to the table: it says why
        assert said in client.get(answer.location).get_data(as_text=True)
    else:
        assert said in answer.get_data(as_text=True)
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("path", "action"),
    [
        ("/nights/{n}/hands/new", lifecycle.RECORD),
        ("/nights/{n}/hands/1/edit", lifecycle.EDIT),
        ("/nights/{n}/hands/undo", lifecycle.UNDO),
        ("/nights/{n}/close", lifecycle.CLOSE),
        ("/nights/{c}/reopen", lifecycle.REOPEN),
        ("/nights/{n}/delete", lifecycle.DELETE),
        ("/nights/{n}/change", lifecycle.CHANGE),
    ],
)
def test_a_page_for_an_action_the_night_does_not_allow_does_not_open(client, world, monkeypatch, path, action):
    real = lifecycle.refusal

    def refuse(life, asked, who=lifecycle.SYSTEM):
        return Conflict("not now") if asked == action else real(life, asked, who)

    monkeypatch.setattr(lifecycle, "refusal", refuse)
    answer = client.get(path.format(**world))
    assert answer.status_code == 302
    assert "Not now" in client.get(answer.location).get_data(as_text=True)  # a line of its own: a sentence


def test_the_table_page_offers_only_what_the_night_allows(client, world, monkeypatch):
    n = world["n"]
    links = ('id="record"', f'href="/nights/{n}/hands/1/edit"', f'href="/nights/{n}/hands/undo"', "/delete")
    page = client.get(f"/nights/{n}").get_data(as_text=True)
    assert all(link in page for link in links)
    monkeypatch.setattr(lifecycle, "refusal", lambda life, action, who=None: Conflict("no"))
    page = client.get(f"/nights/{n}").get_data(as_text=True)
    assert [link for link in links if link in page] == []
    summary = client.get(f"/nights/{n}/summary").get_data(as_text=True)
    assert f"/nights/{n}/close" not in summary and f"/nights/{n}/reopen" not in summary
