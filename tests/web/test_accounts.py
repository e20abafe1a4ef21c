"""Accounts: signing in and out, the rate limit, the first admin, joining a night with its code,
the admin's account pages, API tokens, secure cookies. Messages are checked word for word (German)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import select

from scorekeeper import config
from scorekeeper.core import accounts
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import LoginFailure, Player, User
from scorekeeper.core.nights import close_night, reopen_night
from scorekeeper.core.table import load_table
from tests.support import DURCH, PASSWORD, answer_text, make_user, signed_in, start_night, submit

HAND = {"contract": "rufen", "partner": 3, "points": 70}

#: The refusal of a code no open night or tournament table has, at /join.
WRONG_CODE = (
    "Kein offener Abend und kein Turniertisch hat diesen Code. Abgeschlossene Abende und fertige Tische kann "
    "niemand betreten."
)


def errors_of(answer) -> list[str]:
    html = answer.get_data(as_text=True)
    return [
        re.sub(r"<[^>]+>", "", e).strip()
        for e in re.findall(r'class="errors[^"]*"[^>]*>(.*?)</(?:ul|div)>', html, re.S)
    ]


def sign_in(client, name, password, next_=None):
    path = "/login" + (f"?next={next_}" if next_ else "")
    return client.post(path, data={"name": name, "password": password})


# --- signing in ---------------------------------------------------------------------------


def test_signing_in_with_name_and_password_opens_the_history(app, anon, admin):
    answer = sign_in(anon, "admin", PASSWORD)  # the name in any case
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/nights/"
    assert anon.get("/nights/").status_code == 200


def test_signing_in_returns_to_the_page_asked_for_but_never_to_another_site(app, anon, admin):
    assert anon.get("/leaderboard").headers["Location"] == "/login?next=/leaderboard"
    assert sign_in(anon, "Admin", PASSWORD, "/leaderboard").headers["Location"] == "/leaderboard"
    other = app.test_client()
    for target in ["//evil.example/", "https://evil.example/", "/\\evil.example"]:
        assert sign_in(other, "Admin", PASSWORD, target).headers["Location"] == "/nights/"


@pytest.mark.parametrize(
    ("name", "password", "messages"),
    [
        ("Admin", "falsch-falsch", ["Der Name oder das Passwort stimmt nicht."]),
        ("Niemand", PASSWORD, ["Der Name oder das Passwort stimmt nicht."]),
        ("", "", ["Gib deinen Namen ein.", "Gib dein Passwort ein."]),
        ("Admin\x00", PASSWORD, ["Der Name oder das Passwort stimmt nicht."]),
        ("A" * 5000, "x" * 5000, ["Der Name oder das Passwort stimmt nicht."]),
    ],
)
def test_a_wrong_sign_in_is_refused_with_one_message_that_tells_nothing_about_the_name(
    app, anon, admin, name, password, messages
):
    answer = sign_in(anon, name, password)
    assert answer.status_code == 400
    assert errors_of(answer) == messages
    assert anon.get("/nights/").status_code == 302  # still nobody


def test_five_wrong_passwords_pause_the_name_for_a_quarter_of_an_hour(app, db, anon, admin):
    for _ in range(5):
        assert sign_in(anon, "Admin", "falsch-falsch").status_code == 400
    answer = sign_in(app.test_client(), "Admin", PASSWORD)  # even the right password, from elsewhere
    assert answer.status_code == 429
    assert errors_of(answer) == ["Zu viele falsche Versuche. Warte eine Viertelstunde und versuche es dann wieder."]
    # a quarter of an hour later
    for failure in db.exec(select(LoginFailure)).all():
        failure.at -= timedelta(minutes=16)
        db.add(failure)
    db.commit()
    assert sign_in(anon, "Admin", PASSWORD).status_code == 302
    assert [f.key for f in db.exec(select(LoginFailure)).all()] == ["addr:127.0.0.1"] * 5  # the name's are forgotten


def test_thirty_wrong_sign_ins_from_one_address_pause_it_for_every_name(app, anon, admin):
    for i in range(30):
        assert sign_in(anon, f"Nobody{i}", "x").status_code == 400
    assert sign_in(anon, "Admin", PASSWORD).status_code == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert sign_in(other, "Admin", PASSWORD).status_code == 302


def test_signing_out_needs_the_button_and_ends_the_session_also_for_a_copy_of_its_cookie(app, anon, admin):
    sign_in(anon, "Admin", PASSWORD)
    copy = app.test_client()
    copy.set_cookie("session", anon.get_cookie("session").value)
    assert copy.get("/nights/").status_code == 200
    assert anon.get("/logout").status_code == 405
    answer = anon.post("/logout")
    assert answer.headers["Location"] == "/login"
    assert anon.get("/nights/").status_code == 302
    assert copy.get("/nights/").status_code == 302


def test_names_without_an_account_pause_like_real_ones_so_the_pause_tells_nothing(app, anon, admin):
    for name in ("Admin", "Ghost"):
        answers = [sign_in(app.test_client(), name, "falsch-falsch").status_code for _ in range(6)]
        assert answers == [400] * 5 + [429]


def test_guessing_ones_own_password_on_the_account_page_pauses_too(app, as_role):
    phone = as_role("viewer")
    for _ in range(5):
        answer = phone.post(
            "/account", data={"current": "falsch", "password": "neu-und-lang", "confirm": "neu-und-lang"}
        )
        assert errors_of(answer) == ["Das ist nicht dein Passwort."]
    answer = phone.post("/account", data={"current": PASSWORD, "password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["Zu viele falsche Versuche. Warte eine Viertelstunde und versuche es dann wieder."]


def test_a_disabled_account_or_a_changed_password_ends_its_sessions(app, db, admin):
    scorer = make_user(app, "Sepp", "scorer")
    phone = signed_in(app, scorer)
    assert phone.get("/nights/").status_code == 200
    accounts.update_user(db=db, user_id=scorer.id, password="ein-neues-passwort")
    assert phone.get("/nights/").status_code == 302
    phone = signed_in(app, db.get(User, scorer.id))
    db.rollback()  # the test's session read before the token was written: start afresh
    accounts.update_user(db=db, user_id=scorer.id, active=False)
    assert phone.get("/nights/").status_code == 302
    assert sign_in(app.test_client(), "Sepp", "ein-neues-passwort").status_code == 400


def test_the_session_cookie_is_secure_over_https_and_http_only(app, anon, admin):
    answer = anon.post("/login", data={"name": "Admin", "password": PASSWORD}, base_url="https://club.example")
    cookie = answer.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    answer = app.test_client().post("/login", data={"name": "Admin", "password": PASSWORD})
    assert "Secure" not in answer.headers["Set-Cookie"]  # plain HTTP on the pub's Wi-Fi still works
    app.config["SESSION_COOKIE_SECURE"] = True
    answer = app.test_client().post("/login", data={"name": "Admin", "password": PASSWORD})
    assert "Secure" in answer.headers["Set-Cookie"]


def test_the_secure_cookie_setting_reads_the_environment(monkeypatch):
    for value, expected in [("1", True), ("0", False), ("auto", "auto"), ("", "auto")]:
        monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", value)
        assert config.Settings.from_env().secure_cookies == expected


# --- the first admin ------------------------------------------------------------------------


def test_the_first_admin_is_made_once_at_the_setup_address(app, anon):
    path = app.config["SETUP_PATH"]
    assert anon.get("/setup/wrong-token").status_code == 404
    page = anon.get(path)
    assert page.status_code == 200
    answer = anon.post(path, data={"name": "Wirt", "password": "kurz", "confirm": "kurz"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["das Passwort muss 8 bis 200 Zeichen haben"]
    answer = anon.post(path, data={"name": "Wirt", "password": "lang-genug", "confirm": "anders-lang"})
    assert errors_of(answer) == ["Die zwei Passwörter sind nicht gleich."]
    answer = anon.post(path, data={"name": "Wirt", "password": "lang-genug", "confirm": "lang-genug"})
    assert answer.status_code == 302
    assert anon.get("/users/").status_code == 200  # signed in as admin
    assert app.test_client().get(path).status_code == 404  # once only
    assert config.read_setup_token(app.instance_path) is None


def test_the_login_page_tells_how_to_make_the_first_admin_until_there_is_one(app, anon):
    assert "python manage.py create-admin NAME" in answer_text(anon.get("/login"))
    make_user(app, "Wirt", "admin")
    assert "create-admin" not in answer_text(anon.get("/login"))


def test_the_setup_address_is_gone_when_an_admin_exists(app, anon, admin):
    assert anon.get(app.config["SETUP_PATH"]).status_code == 404


# --- joining a night with its code -------------------------------------------------------------


@pytest.fixture
def table(db, players):
    night = start_night(db, players)
    return night, night.join_code


def test_the_table_page_shows_the_join_code_and_its_qr_code_to_who_may_record(app, client, table, as_role):
    night, code = table
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert code in page and f"/nights/{night.id}/join.svg" in page
    qr = client.get(f"/nights/{night.id}/join.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.get_data(as_text=True).startswith("<svg") and "<path" in qr.get_data(as_text=True)
    viewer = as_role("viewer")
    assert code not in viewer.get(f"/nights/{night.id}").get_data(as_text=True)
    assert viewer.get(f"/nights/{night.id}/join.svg").status_code == 403


@pytest.mark.parametrize(
    ("lang", "night_said", "table_said"),
    [
        (
            "de",
            "Einem abgeschlossenen Abend kann niemand beitreten.",
            "Einem abgeschlossenen Tisch kann niemand beitreten.",
        ),
        ("en", "A closed night can't be joined.", "A closed table can't be joined."),
    ],
)
def test_the_qr_code_of_a_closed_night_or_table_is_not_found_in_its_words(
    client, db, table, lang, night_said, table_said
):
    """A closed club night's join code is gone (a night); a closed tournament's table is a table."""
    from scorekeeper.core import tournaments as tm
    from tests.support_tournament import make_tournament

    night, _code = table
    t = make_tournament(db, 4, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    at_table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    for closed, said in ((night, night_said), (at_table, table_said)):
        close_night(db=db, night_id=closed.id)
        answer = client.get(f"/nights/{closed.id}/join.svg?lang={lang}")
        assert answer.status_code == 404
        assert said in answer_text(answer)


def test_a_guest_records_hands_of_the_night_joined_and_nothing_else(app, db, players, anon, table):
    night, code = table
    other = start_night(db, players)
    page = anon.get("/join")  # the QR code's address is /join#CODE: the browser sends no code, join.js fills it in
    assert page.status_code == 200
    assert re.search(r'src="/static/join\.[0-9a-f]{12}\.js"', page.get_data(as_text=True))  # fingerprinted
    assert anon.get(f"/join/{code.lower()}").status_code == 404  # no code in a URL (access logs keep URLs)
    assert "Matzlfangen" not in answer_text(page)  # a GET tells nothing about a code (only counted POSTs do)
    answer = anon.post("/join", data={"code": f" {code[:3].lower()}-{code[3:]} "})
    assert answer.headers["Location"] == f"/nights/{night.id}"
    assert anon.post(f"/api/v1/sessions/{night.id}/hands", json=HAND).status_code == 401  # no token: no API
    form = anon.get(f"/nights/{night.id}/hands/new")
    assert form.status_code == 200
    assert submit(anon, night.id, {"contract": "rufen", "partner": "3", "points": "70"}).status_code == 302
    assert len(load_table(db=db, night_id=night.id).hands) == 1
    assert anon.get(f"/nights/{other.id}").status_code == 302
    assert anon.post(f"/nights/{other.id}/hands/new", data={"contract": "rufen"}).status_code == 401
    assert anon.get("/nights/new").status_code == 302
    assert anon.get("/nights/").status_code == 302


def test_the_code_expires_when_the_night_is_closed(app, db, anon, table):
    night, code = table
    anon.post("/join", data={"code": code})
    assert anon.get(f"/nights/{night.id}").status_code == 200
    close_night(db=db, night_id=night.id)
    assert (
        anon.get(f"/nights/{night.id}").status_code == 409
    )  # the closing's reason (tests/web/test_guest_closed_night.py)
    answer = app.test_client().post("/join", data={"code": code})
    assert answer.status_code == 400
    assert errors_of(answer) == [WRONG_CODE]
    # reopened by an admin: the night gets a new code, the old guests stay out
    reopen_night(db=db, night_id=night.id, reason="Nachtrag")
    assert anon.get(f"/nights/{night.id}").status_code == 302
    assert db.get(type(night), night.id).join_code not in (None, code)


@pytest.mark.parametrize("code", ["", "ABC", "0OIL1Z", "A" * 41, "'; DROP TABLE evening; --", "<b>x</b>", "ÄÖÜ123"])
def test_a_wrong_code_is_refused_with_a_message(app, anon, table, code):
    answer = anon.post("/join", data={"code": code})
    assert answer.status_code == 400
    assert errors_of(answer) in (
        [WRONG_CODE],
        ["Gib den Code ein, der auf der Tischseite steht."],
    )


def test_ten_wrong_codes_from_one_address_pause_joining(app, anon, table):
    _, code = table
    for _ in range(10):
        anon.post("/join", data={"code": "AAAAAA"})
    answer = anon.post("/join", data={"code": code})
    assert answer.status_code == 429
    assert errors_of(answer) == ["Zu viele falsche Codes. Warte eine Viertelstunde und versuche es dann wieder."]


# --- the admin's account pages ---------------------------------------------------------------


def test_an_admin_makes_an_account_that_can_sign_in(app, client, db):
    answer = client.post(
        "/users/", data={"name": "Sepp", "role": "scorer", "password": "sepp-geheim", "confirm": "sepp-geheim"}
    )
    assert answer.status_code == 302
    user = accounts.find_user(db=db, name="sepp")
    assert user.role == "scorer" and user.password_hash != "sepp-geheim"
    assert sign_in(app.test_client(), "Sepp", "sepp-geheim").status_code == 302


@pytest.mark.parametrize(
    ("data", "messages"),
    [
        ({"name": "admin", "role": "viewer"}, ["es gibt schon ein Konto namens admin"]),
        ({"name": "", "role": "viewer"}, ["der Name darf nicht leer sein"]),
        ({"name": "X", "role": "king"}, ["Keine gültige Auswahl."]),
        (
            {"name": "X", "role": "viewer", "password": "kurz", "confirm": "kurz"},
            ["das Passwort muss 8 bis 200 Zeichen haben"],
        ),
        ({"name": "X\x07", "role": "viewer"}, ["der Name darf keine Steuerzeichen enthalten"]),
    ],
)
def test_a_bad_new_account_is_refused_with_a_message_and_nothing_is_made(app, client, db, data, messages):
    data = {"password": "lang-genug", "confirm": "lang-genug"} | data
    answer = client.post("/users/", data=data)
    assert answer.status_code == 400
    assert errors_of(answer) == messages
    assert [u.name for u in accounts.list_users(db)] == ["Admin"]


def test_the_last_admin_cannot_be_demoted_or_disabled(app, client, db, admin):
    answer = client.post(f"/users/{admin.id}/role", data={"role": "viewer", "active": "1"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["Admin ist der einzige Admin: mach zuerst ein anderes Konto zum Admin"]
    assert client.post(f"/users/{admin.id}/role", data={"role": "admin", "active": "0"}).status_code == 400
    db.rollback()
    assert db.get(User, admin.id).role == "admin" and db.get(User, admin.id).active


def test_an_admin_changes_a_role_and_the_account_may_do_only_what_the_new_one_may(app, client, db):
    scorer = make_user(app, "Sepp", "scorer")
    phone = signed_in(app, scorer)
    assert phone.get("/nights/new").status_code == 200
    assert client.post(f"/users/{scorer.id}/role", data={"role": "viewer", "active": "1"}).status_code == 302
    assert phone.get("/nights/new").status_code == 302  # the role change ended the session
    phone = signed_in(app, db.get(User, scorer.id))
    assert phone.get("/nights/new").status_code == 403


def test_an_admin_sets_a_new_password(app, client, db):
    user = make_user(app, "Sepp", "scorer")
    answer = client.post(f"/users/{user.id}/password", data={"password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert answer.status_code == 302
    assert sign_in(app.test_client(), "Sepp", "neu-und-lang").status_code == 302
    answer = client.post(f"/users/{user.id}/password", data={"password": "neu-und-lang", "confirm": "anders"})
    assert errors_of(answer) == ["Die zwei Passwörter sind nicht gleich."]


def test_a_user_changes_their_own_password_with_the_old_one(app, as_role):
    phone = as_role("viewer")
    answer = phone.post("/account", data={"current": "falsch", "password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["Das ist nicht dein Passwort."]
    answer = phone.post("/account", data={"current": PASSWORD, "password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert answer.status_code == 302
    assert phone.get("/nights/").status_code == 200  # this session goes on


def test_unknown_accounts_and_tokens_are_404(app, client, admin):
    assert client.get("/users/999").status_code == 404
    assert client.get(f"/users/{2**40}").status_code == 404
    assert client.post(f"/users/{admin.id}/tokens/999/revoke").status_code == 404


# --- API tokens -----------------------------------------------------------------------------


def test_a_token_is_shown_once_works_for_the_api_and_stops_when_revoked(app, client, db, admin, players):
    answer = client.post(f"/users/{admin.id}/tokens", data={"label": "Tablet"})
    token = re.search(r'<code class="token">([^<]+)</code>', answer.get_data(as_text=True)).group(1)
    api = app.test_client()
    api.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    assert api.get("/api/v1/players").status_code == 200
    assert token not in client.get(f"/users/{admin.id}").get_data(as_text=True)
    record = next(t for t in accounts.tokens(db=db, user_id=admin.id) if t.label == "Tablet")
    assert record.digest != token
    assert client.post(f"/users/{admin.id}/tokens/{record.id}/revoke").status_code == 302
    assert api.get("/api/v1/players").status_code == 401


def test_a_new_password_or_disabling_an_account_revokes_its_tokens(app, client, db):
    user = make_user(app, "Tablet", "scorer")
    api = signed_in(app, user)
    assert api.get("/api/v1/players").status_code == 200
    client.post(f"/users/{user.id}/password", data={"password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert api.get("/api/v1/players").status_code == 401
    api = signed_in(app, accounts.get_user(db=db, user_id=user.id))
    client.post(f"/users/{user.id}/role", data={"role": "scorer", "active": "0"})
    client.post(f"/users/{user.id}/role", data={"role": "scorer", "active": "1"})
    assert api.get("/api/v1/players").status_code == 401  # enabled again, but the token stays revoked


def test_the_page_showing_a_new_token_is_not_cached(app, client, admin):
    answer = client.post(f"/users/{admin.id}/tokens", data={"label": "Tablet"})
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_guest_who_closes_the_night_sees_its_settlement(app, db, anon, table):
    night, code = table
    other = app.test_client()  # a guest who joined too, and did not close it
    assert other.post("/join", data={"code": code}).status_code == 302
    anon.post("/join", data={"code": code})
    answer = anon.post(f"/nights/{night.id}/close")
    assert answer.status_code == 200 and "Abrechnung" in answer_text(answer)
    assert other.get(f"/nights/{night.id}/summary").status_code == 409  # and then the code is spent: closed, it says


def test_a_guest_who_closes_the_night_can_open_what_its_settlement_offers(app, db, night):
    """A guest who closes the night sees its settlement (docs/rules.md, a decision), and opens what that
    page offers: the PDF, the CSV, the JSON and the bank view, of this night and while it stays closed."""
    record_hand(db=db, night_id=night.id, hand=DURCH)
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    shown = phone.post(f"/nights/{night.id}/close?lang=en")
    assert shown.status_code == 200 and "Who pays whom" in answer_text(shown)
    offered = re.findall(
        r'href="([^"]*(?:summary\.pdf|export\.csv|export\.json|bank=1)[^"]*)"', shown.get_data(as_text=True)
    )
    assert len(offered) >= 4, offered
    for link in offered:
        target = link if link.startswith("/") else f"/nights/{night.id}/close{link}"
        answer = phone.get(target)
        assert answer.status_code == 200, f"{link}: {answer.status_code} {answer.headers.get('Location')}"
    assert phone.get(f"/nights/{night.id}").status_code == 200  # its pages: what the phone saw until now
    assert phone.post(f"/nights/{night.id}/reopen", data={"reason": "x"}).status_code == 401
    other = start_night(db, players_of(db))
    close_night(db=db, night_id=other.id)
    assert phone.get(f"/nights/{other.id}/summary").status_code == 302  # this night's only
    reopen_night(db=db, night_id=night.id, reason="a hand was wrong")
    reopened = phone.get(f"/nights/{night.id}/summary")  # reopened: the right has ended; to joining it again
    assert (reopened.status_code, reopened.headers["Location"]) == (302, f"/join?night={night.id}")
    close_night(db=db, night_id=night.id)  # closed again by somebody else: the closing's reason, never the sign-in
    assert phone.get(f"/nights/{night.id}/summary").status_code == 409


def test_a_guest_who_closed_the_night_and_signs_out_reads_it_no_more(app, db, night):
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    assert phone.post(f"/nights/{night.id}/close").status_code == 200
    assert phone.get(f"/nights/{night.id}/summary").status_code == 200
    phone.post("/logout")
    assert phone.get(f"/nights/{night.id}/summary").status_code == 302


def test_a_viewers_token_reads_but_does_not_write(app, db, night):
    viewer = make_user(app, "Vera", "viewer")
    api = signed_in(app, viewer)
    assert api.get(f"/api/v1/sessions/{night.id}").status_code == 200
    answer = api.post(f"/api/v1/sessions/{night.id}/hands", json=HAND)
    assert answer.status_code == 403
    assert answer.get_json() == {"error": {"field": "", "message": "the role viewer may not do this"}}
    assert load_table(db=db, night_id=night.id).hands == []


def test_a_token_label_with_control_characters_is_refused(app, client, admin):
    answer = client.post(f"/users/{admin.id}/tokens", data={"label": "a\x00b"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["die Bezeichnung darf höchstens 80 Zeichen und keine Steuerzeichen haben"]


def players_of(db) -> list:
    return list(db.exec(select(Player).order_by(Player.id)))
