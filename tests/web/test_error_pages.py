"""Issue 22.4: errors in the page's language, in the page's shape.

A form token its session does not know is refused in the page's words (the form shown again,
filled in; the hand form's preview in one line of JSON); every error page speaks the page's
language in the app's layout; a 405 says what the address takes.
"""

from __future__ import annotations

import pytest
from flask import abort

from scorekeeper.web.access import PUBLIC, access
from tests.support import PASSWORD, RUFEN_HIRSCH, fill, make_user, open_form, snapshot, start_night

TOO_OLD_DE = "Das Formular war zu alt, bitte noch einmal speichern."
TOO_OLD_EN = "The form was too old, please save again."


@pytest.fixture
def guarded(app):
    """CSRF checked, as in production (the app fixture turns it off)."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def _sign_in(app, name="Wirtin"):
    """A fresh phone: its own sign-in through the form, as a browser does it."""
    make_user(app, name, "admin")
    phone = app.test_client()
    answer = phone.post("/login", data={**open_form(phone, "/login"), "name": name, "password": PASSWORD})
    assert answer.status_code == 302
    return phone


# --- the form token --------------------------------------------------------------------------


def test_a_fresh_sessions_first_preview_has_its_token_though_a_poll_answered_last(guarded, db, players):
    """Every answer of a signed-in (permanent) session sends its cookie again: a poll sent before the
    hand form made the session's first token, and answered after it, put back a cookie without one."""
    night = start_night(db, players)
    phone = _sign_in(guarded)
    cookie_of_the_poll = phone.get_cookie("session").value  # the poll leaves with the cookie of the sign-in
    form = fill(open_form(phone, f"/nights/{night.id}/hands/new"), RUFEN_HIRSCH)
    phone.set_cookie("session", cookie_of_the_poll)  # ... and its answer arrives last
    answer = phone.post(f"/nights/{night.id}/hands/new?fragment=1", data={**form, "action": "preview"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert "CSRF" not in answer.get_data(as_text=True)


@pytest.mark.parametrize(("lang", "words"), [("de", TOO_OLD_DE), ("en", TOO_OLD_EN)])
def test_a_preview_without_its_token_gets_one_line_of_json_in_the_pages_language(guarded, db, players, lang, words):
    night = start_night(db, players)
    phone = _sign_in(guarded)
    form = fill(open_form(phone, f"/nights/{night.id}/hands/new"), RUFEN_HIRSCH)
    del form["csrf_token"]
    answer = phone.post(f"/nights/{night.id}/hands/new?fragment=1&lang={lang}", data={**form, "action": "preview"})
    assert answer.status_code == 400
    assert answer.is_json
    assert answer.get_json()["error"]["message"] == words


@pytest.mark.parametrize("token", [None, "an-old-sessions-token"])
def test_a_hand_saved_with_a_stale_token_is_shown_again_filled_in_and_not_saved(guarded, db, players, token):
    night = start_night(db, players)
    phone = _sign_in(guarded)
    form = fill(open_form(phone, f"/nights/{night.id}/hands/new"), {**RUFEN_HIRSCH, "points": 71})
    if token is None:
        del form["csrf_token"]
    else:
        form["csrf_token"] = token
    before = snapshot(db)
    answer = phone.post(f"/nights/{night.id}/hands/new", data={**form, "action": "save"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert TOO_OLD_DE in page
    assert "CSRF" not in page and "Bad Request" not in page
    assert 'value="71"' in page  # the input is kept
    assert snapshot(db) == before
    fresh = open_form(phone, f"/nights/{night.id}/hands/new")  # the page's new token saves it
    again = phone.post(
        f"/nights/{night.id}/hands/new", data={**form, "csrf_token": fresh["csrf_token"], "action": "save"}
    )
    assert again.status_code == 302


@pytest.mark.parametrize(("lang", "words"), [("de", TOO_OLD_DE), ("en", TOO_OLD_EN)])
def test_a_page_form_with_a_stale_token_is_shown_again_with_its_input(guarded, db, lang, words):
    phone = _sign_in(guarded)
    form = open_form(phone, "/players/")
    form.update({"name": "Zenzi", "csrf_token": "stale"})
    before = snapshot(db)
    answer = phone.post(f"/players/?lang={lang}", data=form)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert words in page
    assert 'value="Zenzi"' in page
    assert "CSRF" not in page
    assert snapshot(db) == before


def test_a_form_whose_view_would_redirect_still_refuses_a_stale_token(guarded, db):
    phone = _sign_in(guarded)
    before = snapshot(db)
    answer = phone.post("/logout", data={"csrf_token": "stale"})
    assert answer.status_code == 400
    assert answer.headers["X-Frame-Options"] == "DENY"  # the answer replaced keeps every answer's headers
    assert TOO_OLD_DE in answer.get_data(as_text=True)
    assert snapshot(db) == before
    assert phone.get("/account").status_code == 200  # still signed in


# --- error pages --------------------------------------------------------------------------------

GERMAN = {
    400: "Die Anfrage war nicht lesbar",
    401: "Bitte zuerst anmelden",
    403: "Nicht erlaubt",
    404: "Nicht gefunden",
    405: "Hier nicht möglich",
    409: "Inzwischen geändert",
    413: "Zu groß",
    429: "Zu viele Versuche",
    500: "Da ist etwas schiefgegangen",
}
ENGLISH = {
    400: "The request could not be read",
    401: "Sign in first",
    403: "Not allowed",
    404: "Not found",
    405: "Not possible here",
    409: "Changed in the meantime",
    413: "Too large",
    429: "Too many attempts",
    500: "Something went wrong",
}
WERKZEUG = ("Bad Request", "Unauthorized", "Forbidden", "Not Found", "Method Not Allowed", "Conflict", "Too Many")


@pytest.fixture
def failing(app):
    """An address that fails with the code it names (as a refusal deep in a view would)."""

    @app.get("/test-fails/<int:code>")
    @access(PUBLIC)
    def fails(code: int):
        if code == 500:
            raise RuntimeError("a bug")
        abort(code)

    return app.test_client()


@pytest.mark.parametrize("code", sorted(GERMAN))
@pytest.mark.parametrize(("lang", "words"), [("de", GERMAN), ("en", ENGLISH)])
def test_every_error_page_is_in_the_pages_language_in_the_apps_layout(failing, code, lang, words):
    answer = failing.get(f"/test-fails/{code}?lang={lang}")
    page = answer.get_data(as_text=True)
    assert answer.status_code == code
    assert f"<h1>{words[code]}</h1>" in page
    assert f'<html lang="{lang}"' in page and 'class="topbar' in page  # the app's layout
    assert not [w for w in WERKZEUG if w in page]


def test_the_german_404_of_an_unknown_address_says_nicht_gefunden(anon):
    page = anon.get("/no/such/page").get_data(as_text=True)
    assert "<h1>Nicht gefunden</h1>" in page
    assert "Diese Seite gibt es nicht." in page
    assert "Not Found" not in page


def test_a_refusals_own_sentence_stays_under_the_codes_heading(client):
    answer = client.get("/nights/999999")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 404
    assert "<h1>Nicht gefunden</h1>" in page
    assert "Diesen Abend gibt es nicht." in page


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE"])
def test_a_405_says_which_methods_the_address_takes(anon, method):
    answer = anon.open("/login", method=method)
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


def test_a_405_of_the_api_keeps_its_allow_header(client):
    answer = client.open("/api/v1/players", method="TRACE")
    assert answer.status_code == 405
    assert "GET" in answer.headers["Allow"]
    assert answer.is_json


def test_standings_of_a_tournament_that_does_not_exist_are_404_whatever_the_tag(client):
    answer = client.get("/tournaments/999999/standings", headers={"If-None-Match": "*"})
    assert answer.status_code == 404
    assert "<h1>Nicht gefunden</h1>" in answer.get_data(as_text=True)
