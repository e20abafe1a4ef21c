"""A guest whose night was closed or reopened meanwhile is told why, as a member is, and led to joining (or back to
the table it reads), never to the sign-in page. The preview of a guest's hand form after a member's phone closed the
night said "Sign in first (or join the night with its code).", its Save showed the "Sign in first" page whose button
"Back to the nights" led to the sign-in form, and the table page of a night reopened since (it gets a new code) was
the sign-in form too."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night, reopen_night
from tests.support import RUFEN_HIRSCH, fill, open_form, page_text, snapshot

CLOSED = {
    "en": "This night is closed: no hand can be recorded, changed or undone",
    "de": "Dieser Abend ist abgeschlossen",
}
# the guest's phone shows no code: someone at the table tells it (a member's phone shows it)
NEW_CODE = {
    "en": "This night was reopened or got a new code since you joined it: ask at the table for the new code (a "
    "member's phone shows it on the night's table page) and join again with it.",
    "de": "Dieser Abend wurde wieder geöffnet oder hat seit deinem Beitritt einen neuen Code: frag am Tisch nach dem "
    "neuen Code (das Handy eines Mitglieds zeigt ihn auf der Tischseite des Abends) und tritt damit wieder bei.",
}
JOIN = {"en": "Join a night with its code", "de": "Mit Code einem Abend beitreten"}
BACK = {"en": "Back to the table", "de": "Zurück zum Tisch"}
SIGN_IN = ("Sign in first", "Zuerst anmelden")


def _join(app, code: str):
    phone = app.test_client()
    assert phone.post("/join", data={"code": code}).status_code == 302
    return phone


def _way_out(page: str) -> tuple[str, str]:
    """The error page's message and its button: (the message, where it leads, what it says)."""
    main = page[page.index("<main>") : page.index("</main>")]
    said = re.search(r'<p id="error-message">(.*?)</p>', main, re.S)
    found = re.findall(r'<p><a class="button" href="([^"]+)">([^<]+)</a></p>', main)
    assert said and len(found) == 1, main
    return page_text(said.group(1)), *found[0]


def _state(db, night_id: int) -> tuple:
    db.rollback()
    return snapshot(db), db.get(Night, night_id).version


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guest_whose_night_a_member_closed_gets_the_closing_not_the_sign_in(app, db, night, lang):
    phone = _join(app, night.join_code)
    path = f"/nights/{night.id}/hands/new"
    data = fill(open_form(phone, f"{path}?lang={lang}"), RUFEN_HIRSCH)
    close_night(db=db, night_id=night.id)  # a member's phone
    before = _state(db, night.id)
    preview = phone.post(f"{path}?fragment=1&lang={lang}", data={**data, "action": "preview"})
    assert preview.status_code == 409
    line = preview.get_json()["error"]["message"]
    assert line.startswith(CLOSED[lang]), line
    saved = phone.post(f"{path}?lang={lang}", data={**data, "action": "save"})
    assert saved.status_code == 409
    said, target, button = _way_out(saved.get_data(as_text=True))
    assert said.startswith(CLOSED[lang]) and not said.startswith(SIGN_IN), said
    assert (target, button) == ("/join", JOIN[lang])  # the guest may not read the closed night: joining another
    table = phone.get(f"/nights/{night.id}?lang={lang}")  # the table page too: its reason, not the sign-in form
    assert table.status_code == 409
    assert _way_out(table.get_data(as_text=True)) == (said, "/join", JOIN[lang])
    assert _state(db, night.id) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_guest_who_closed_the_night_saving_a_form_left_open_is_led_back_to_its_table(app, db, night, lang):
    phone = _join(app, night.join_code)
    path = f"/nights/{night.id}/hands/new"
    data = fill(open_form(phone, f"{path}?lang={lang}"), RUFEN_HIRSCH)  # another tab's form
    assert phone.post(f"/nights/{night.id}/close").status_code == 200  # the guest closes it, and reads it on
    before = _state(db, night.id)
    preview = phone.post(f"{path}?fragment=1&lang={lang}", data={**data, "action": "preview"})
    assert preview.status_code == 409
    assert preview.get_json()["error"]["message"].startswith(CLOSED[lang])
    saved = phone.post(f"{path}?lang={lang}", data={**data, "action": "save"})
    assert saved.status_code == 409
    said, target, button = _way_out(saved.get_data(as_text=True))
    assert said.startswith(CLOSED[lang]), said
    assert (target, button) == (f"/nights/{night.id}", BACK[lang])
    assert phone.get(target).status_code == 200  # it reads the night on
    assert _state(db, night.id) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guest_of_a_night_reopened_since_is_led_to_joining_it_with_its_new_code(app, db, night, lang):
    phone = _join(app, night.join_code)
    path = f"/nights/{night.id}/hands/new"
    data = fill(open_form(phone, f"{path}?lang={lang}"), RUFEN_HIRSCH)
    close_night(db=db, night_id=night.id)
    reopen_night(db=db, night_id=night.id, reason="Versehen")  # a new code
    home = phone.get("/nights/")  # the app's start page: joining, never the sign-in form
    assert (home.status_code, home.headers["Location"]) == (302, "/join")
    for start in (f"/nights/{night.id}", path):  # the night's pages: joining, saying why
        page = phone.get(f"{start}?lang={lang}")
        assert page.status_code == 302, start
        # never the sign-in form; the join page names the night (it lists the hands the phone keeps for it)
        assert page.headers["Location"] == f"/join?night={night.id}", start
        join = phone.get(f"/join?lang={lang}")
        assert join.status_code == 200
        text = page_text(join.get_data(as_text=True))
        assert NEW_CODE[lang] in text, text
    before = _state(db, night.id)
    saved = phone.post(f"{path}?lang={lang}", data={**data, "action": "save"})
    assert saved.status_code == 409
    said, target, button = _way_out(saved.get_data(as_text=True))
    assert said.startswith(NEW_CODE[lang]), said
    assert (target, button) == ("/join", JOIN[lang])
    preview = phone.post(f"{path}?fragment=1&lang={lang}", data={**data, "action": "preview"})
    assert preview.status_code == 409
    assert preview.get_json()["error"]["message"].startswith(NEW_CODE[lang])
    assert _state(db, night.id) == before
    db.rollback()
    assert _join(app, db.get(Night, night.id).join_code).get(f"/nights/{night.id}").status_code == 200
