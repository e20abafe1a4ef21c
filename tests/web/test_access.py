"""Who may do what, route by route: the test enumerates the app's routes, so a new one can't slip through.

Every route declares its access (``web/auth.py``). For each route and method this test
asks as everybody who lacks that access (nobody, a viewer, a scorer, a guest of another
night) and checks the refusal and that nothing in the database changed. It also asks as
somebody who has the access and checks that the route is not refused. With CSRF on,
every form post without its token is refused as well.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.core import accounts
from scorekeeper.web.access import ADMIN, NIGHT_READ, NIGHT_WRITE, PUBLIC, SAFE_METHODS, SCORER, VIEWER, level_of
from tests.support import make_user, signed_in, snapshot, start_night

#: Who lacks each access (guest: of another night than the one asked for).
LACKING = {
    PUBLIC: [],
    VIEWER: ["nobody", "guest"],
    SCORER: ["nobody", "guest", "viewer"],
    ADMIN: ["nobody", "guest", "viewer", "scorer"],
    NIGHT_READ: ["nobody", "guest"],
    NIGHT_WRITE: ["nobody", "guest", "viewer"],
}
#: Somebody who has it.
HAVING = {
    PUBLIC: "nobody",
    VIEWER: "viewer",
    SCORER: "scorer",
    ADMIN: "admin",
    NIGHT_READ: "own guest",
    NIGHT_WRITE: "own guest",
}


def routes(app):
    """(endpoint, rule, method) for every route but the static files; closing the night, then deleting it
    come last."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        found += [(rule.endpoint, rule, method) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    last = {("nights.close", "POST"): 1, ("nights.delete", "POST"): 2}
    return sorted(found, key=lambda r: (last.get((r[0], r[2]), 0), r[0], r[2]))


@pytest.fixture
def world(app, db, players, admin):
    """Two open nights, a closed one, the people who ask, and the values for every URL's parts."""
    mine = start_night(db, players)
    other = start_night(db, players)
    code = mine.join_code
    other_code = other.join_code
    from scorekeeper.core.hands import record_hand

    record_hand(db=db, night_id=mine.id, hand={"contract": "rufen", "partner": 3, "points": 70})
    viewer, scorer = make_user(app, "Vera", "viewer"), make_user(app, "Sepp", "scorer")
    token, _ = accounts.create_token(db=db, user=admin, label="x")
    clients = {
        "nobody": app.test_client(),
        "viewer": signed_in(app, viewer),
        "scorer": signed_in(app, scorer),
        "admin": signed_in(app, admin),
        "own guest": app.test_client(),
        "guest": app.test_client(),
    }
    assert clients["own guest"].post("/join", data={"code": code}).status_code == 302
    assert clients["guest"].post("/join", data={"code": other_code}).status_code == 302
    from scorekeeper.core import tournaments as tm

    tournament = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"})
    for p in players[:4]:
        tm.add_entrant(db=db, tournament_id=tournament.id, player_id=p.id)
    tm.draw_round(db=db, tournament_id=tournament.id)
    values = {
        "tournament_id": tournament.id,
        "round_number": 1,
        "table": 1,
        "night_id": mine.id,
        "number": 1,
        "player_id": players[0].id,
        "user_id": viewer.id,
        "token_id": token.id,
        "code": code,
        "token": "not-the-setup-token",
    }
    return clients, values


def url(app, endpoint, values):
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        rule = next(r for r in app.url_map.iter_rules(endpoint))
        return adapter.build(endpoint, {k: v for k, v in values.items() if k in rule.arguments})


def ask(client, method, path):
    if path.startswith("/api/"):
        return client.open(path, method=method, json={})
    return client.open(path, method=method, data={})


def test_every_route_declares_who_may_use_it_for_every_method(app):
    undeclared = [f"{method} {rule}" for endpoint, rule, method in routes(app) if not level_of(app, endpoint, method)]
    assert undeclared == []


def test_a_route_without_a_declaration_is_refused_to_everybody(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "i"))
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}", "SECRET_KEY": "t"})
    app.add_url_rule("/forgotten", "forgotten", lambda: "open")
    answer = app.test_client().get("/forgotten")
    assert answer.status_code == 403
    app.extensions["sk_engine"].dispose()


def test_the_state_changing_routes_are_the_ones_this_test_knows(app):
    """If this fails, a route was added: decide its access and look at it in the tests below."""
    changing = sorted({f"{method} {rule.endpoint}" for _, rule, method in routes(app) if method not in SAFE_METHODS})
    assert changing == sorted(
        [
            "DELETE api.delete_hand",
            "POST api.add_hand",
            "POST api.add_player",
            "POST api.create_session",
            "POST signin.join_night",
            "POST signin.login",
            "POST signin.logout",
            "POST accounts.revoke_token",
            "POST signin.setup",
            "POST accounts.user_password",
            "POST accounts.user_role",
            "POST accounts.user_token",
            "POST signin.account",
            "POST accounts.users",
            "POST hands.edit",
            "POST hands.new",
            "POST hands.undo",
            "POST players.index",
            "POST players.member",
            "POST players.merge",
            "POST players.rename",
            "POST players.retire",
            "POST nights.change",
            "POST nights.close",
            "POST nights.delete",
            "POST nights.reopen",
            "POST nights.new",
            "PUT api.put_hand",
            "POST api.create_tournament",
            "POST api.add_entrant",
            "POST api.keep_apart",
            "POST api.draw_round",
            "POST api.enter_paper",
            "POST tournaments.new",
            "POST tournaments.add_entrant",
            "POST tournaments.withdraw",
            "POST tournaments.take_back",
            "POST tournaments.replace",
            "POST tournaments.keep_apart",
            "POST tournaments.allow_together",
            "POST tournaments.draw",
            "POST tournaments.close",
            "POST tournaments.reopen",
            "POST tournaments.paper",
            "POST tournaments.clear_paper",
            "POST tournaments.rules",
        ]
    )


def test_every_route_is_refused_to_whoever_lacks_its_access_and_nothing_changes(app, db, world):
    clients, values = world
    refused, checked = [], 0
    for endpoint, _rule, method in routes(app):
        level = level_of(app, endpoint, method)
        path = url(app, endpoint, values)
        for who in LACKING[level]:
            if path.startswith("/api/") and who == "guest":
                continue  # the API knows no guests: its callers are tokens (asked as nobody)
            before = snapshot(db)
            answer = ask(clients[who], method, path)
            checked += 1
            if path.startswith("/api/"):
                ok = answer.status_code in (401, 403) and answer.get_json()["error"]["message"]
            elif endpoint == "nights.index" and who == "guest":  # the app's home: a guest's is its table
                ok = answer.status_code == 302 and answer.headers["Location"].startswith("/nights/")
            elif method in SAFE_METHODS and who in ("nobody", "guest"):  # no account: asked to sign in
                ok = answer.status_code == 302 and "/login?next=" in answer.headers["Location"]
            else:
                ok = answer.status_code in (401, 403)
            if not ok:
                refused.append(f"{method} {path} as {who}: {answer.status_code}")
            assert snapshot(db) == before, f"{method} {path} as {who} changed the database"
    assert refused == []
    assert checked > 60


def test_every_route_is_open_to_whoever_has_its_access(app, db, world):
    clients, values = world
    refused = []
    for endpoint, _rule, method in routes(app):
        level = level_of(app, endpoint, method)
        path = url(app, endpoint, values)
        who = "admin" if path.startswith("/api/") and level in (NIGHT_READ, NIGHT_WRITE) else HAVING[level]
        if endpoint == "signin.logout":
            continue  # signs the client out; tested in test_accounts.py
        answer = ask(clients[who], method, path)
        if answer.status_code in (401, 403) or (answer.status_code == 302 and "/login" in answer.headers["Location"]):
            refused.append(f"{method} {path} as {who}: {answer.status_code}")
    assert refused == []


def test_the_api_takes_no_session_cookie_only_a_token(app, world):
    clients, values = world
    admin_by_cookie = clients["admin"]
    admin_by_cookie.environ_base.pop("HTTP_AUTHORIZATION")
    answer = admin_by_cookie.post(f"/api/v1/sessions/{values['night_id']}/hands", json={"contract": "rufen"})
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert admin_by_cookie.get("/nights/").status_code == 200  # the pages still know the admin


@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Bearer skt_not-a-token", "Basic YWRtaW46eA==", "skt_x"])
def test_a_missing_or_wrong_token_is_refused(app, world, header):
    _, values = world
    client = app.test_client()
    answer = client.get(f"/api/v1/sessions/{values['night_id']}", headers={"Authorization": header})
    assert answer.status_code == 401
    assert "Bearer" in answer.get_json()["error"]["message"]


def test_every_form_post_without_its_csrf_token_is_refused_and_changes_nothing(app, db, world):
    clients, values = world
    app.config["WTF_CSRF_ENABLED"] = True
    missing = []
    for endpoint, _rule, method in routes(app):
        path = url(app, endpoint, values)
        if method in SAFE_METHODS or path.startswith("/api/"):
            continue
        level = level_of(app, endpoint, method)
        client = clients["admin" if level != NIGHT_WRITE else "own guest"]
        before = snapshot(db)
        answer = client.post(path, data={"name": "Neu", "reason": "x", "code": values["code"]})
        # refused as a form too old (shown again, web/app.py _csrf_check); a setup address whose token is
        # wrong is not there at all, token or not
        refused = 404 if endpoint == "signin.setup" else 400
        if answer.status_code != refused:
            missing.append(f"POST {path}: {answer.status_code}")
        assert snapshot(db) == before, f"POST {path} without a CSRF token changed the database"
    assert missing == []


def test_reading_the_database_directly_shows_no_password_only_its_hash(app, db, admin):
    row = db.connection().execute(text("SELECT password_hash FROM user_account")).scalar_one()
    assert row.startswith(("scrypt:", "pbkdf2:"))


def test_a_guest_of_a_night_deleted_since_finds_its_pages_not_found_and_stays_the_same_guest(app, db, players):
    """A guest's night deleted (by an admin, on another phone): the guest was nobody then, sent to sign in from its
    pages, its phone's hands for the night out of reach (nobody's answers: "join the table again", which can't be).
    Its pages are not found (404), as a member's are; it stays the same guest (the answers say whose they are:
    the outbox keeps the guest's hands apart by it); it may do nothing more: a post is refused, nothing changes."""
    from scorekeeper.core.exchange import night_file
    from scorekeeper.core.nights import delete_night

    night = start_night(db, players)
    guest = app.test_client()
    assert guest.post("/join", data={"code": night.join_code}).status_code == 302
    whose = guest.get(f"/nights/{night.id}").headers["Scorekeeper-Account"]
    assert whose.startswith("guest:")
    delete_night(db=db, night_id=night.id, reason="Versehen", export=night_file.night_json(db=db, night_id=night.id))
    values = {"night_id": night.id, "number": 1}
    asked = []
    for endpoint, rule, method in routes(app):
        if "night_id" not in rule.arguments or str(rule).startswith("/api/") or not set(rule.arguments) <= set(values):
            continue
        before = snapshot(db)
        answer = ask(guest, method, url(app, endpoint, values))
        if method in SAFE_METHODS and answer.status_code == 302 and "/login" not in answer.headers["Location"]:
            answer = guest.get(answer.headers["Location"])  # an old name of a page: to the page
        asked.append(f"{method} {rule}: {answer.status_code}")
        expected = 404 if method in SAFE_METHODS else 401
        assert answer.status_code == expected, asked[-1]
        assert answer.headers["Scorekeeper-Account"] == whose, asked[-1]
        assert snapshot(db) == before
    assert any(a.startswith("GET /nights/<int:night_id>:") for a in asked), asked
    assert any(a.startswith("GET /nights/<int:night_id>/hands/new:") for a in asked), asked
    assert guest.get("/nights/999999").status_code == 302  # a night it never joined: sign in first, as before
