"""A guest (joined a night with its code, no account) is never sent to the sign-in page as a way out: the
error page of a night that is gone leads back to a night the guest is still at, or to joining one; leaving
the table says "You have left the table" (and asks about hands not sent "before you leave the table") also
when the guest's night is gone or was closed by the guest, in both languages."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.exchange import night_file
from scorekeeper.core.models import Night
from scorekeeper.core.nights import delete_night
from tests.support import page_text, start_night


def _join(app, code: str):
    phone = app.test_client()
    assert phone.post("/join", data={"code": code}).status_code == 302
    return phone


def _delete(db, night_id: int) -> None:
    delete_night(db=db, night_id=night_id, reason="Versehen", export=night_file.night_json(db=db, night_id=night_id))
    db.commit()


def _way_out(page: str) -> tuple[str, str]:
    """The error page's button below its message: (where it leads, what it says)."""
    main = page[page.index("<main>") : page.index("</main>")]
    found = re.findall(r'<p><a class="button" href="([^"]+)">([^<]+)</a></p>', main)
    assert len(found) == 1, main
    return found[0]


WORDS = {
    "en": ("Join a night with its code", "Back to the table", "Back to the nights"),
    "de": ("Mit Code einem Abend beitreten", "Zurück zum Tisch", "Zurück zu den Abenden"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guest_whose_night_is_gone_is_led_to_joining_not_to_the_sign_in(app, db, night, lang):
    phone = _join(app, night.join_code)
    _delete(db, night.id)
    for path in (f"/nights/{night.id}", f"/nights/{night.id}/hands/new"):
        page = phone.get(f"{path}?lang={lang}")
        assert page.status_code == 404
        target, said = _way_out(page.get_data(as_text=True))
        assert (target, said) == ("/join", WORDS[lang][0]), path
        assert phone.get(target).status_code == 200  # the join page itself, not a redirect to the sign-in


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guest_still_at_another_night_is_led_back_to_its_table(app, db, players, night, lang):
    other = start_night(db, players)
    phone = _join(app, night.join_code)
    assert phone.post("/join", data={"code": other.join_code}).status_code == 302
    _delete(db, night.id)
    page = phone.get(f"/nights/{night.id}?lang={lang}")
    assert page.status_code == 404
    assert _way_out(page.get_data(as_text=True)) == (f"/nights/{other.id}", WORDS[lang][1])
    assert phone.get(f"/nights/{other.id}").status_code == 200


def test_a_member_is_still_led_back_to_the_nights(client, db, night):
    _delete(db, night.id)
    page = client.get(f"/nights/{night.id}?lang=en")
    assert page.status_code == 404
    assert _way_out(page.get_data(as_text=True)) == ("/nights/", WORDS["en"][2])


def test_the_table_page_of_a_guest_leads_to_joining_once_its_night_is_gone(app, night):
    """The table page's notice of a night deleted meanwhile (static/table.js: data-gone-href): for a guest
    the join page, for a member the nights."""
    phone = _join(app, night.join_code)
    page = phone.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    assert 'data-gone-link="Mit Code einem Abend beitreten" data-gone-href="/join"' in page


# --- leaving the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guest_whose_night_is_gone_leaves_the_table_in_a_guests_words(app, db, night, lang):
    phone = _join(app, night.join_code)
    _delete(db, night.id)
    answer = phone.post("/logout", headers={"Accept-Language": lang})
    assert answer.status_code == 302 and answer.headers["Location"] == "/join"
    said = page_text(phone.get("/join", headers={"Accept-Language": lang}).get_data(as_text=True))
    assert {"en": "You have left the table.", "de": "Du hast den Tisch verlassen."}[lang] in said
    assert {"en": "signed out", "de": "abgemeldet"}[lang] not in said


def test_a_guest_who_closed_the_night_leaves_the_table_in_a_guests_words(app, db, night):
    phone = _join(app, night.join_code)
    assert phone.post(f"/nights/{night.id}/close").status_code == 200  # its settlement, shown
    db.expire_all()
    assert not db.get(Night, night.id).is_open
    assert phone.get(f"/nights/{night.id}").status_code == 200  # reads the night it closed
    answer = phone.post("/logout", headers={"Accept-Language": "de"})
    assert answer.headers["Location"] == "/join"
    said = page_text(phone.get("/join", headers={"Accept-Language": "de"}).get_data(as_text=True))
    assert "Du hast den Tisch verlassen." in said and "abgemeldet" not in said


def test_a_member_still_signs_out(client):
    answer = client.post("/logout", headers={"Accept-Language": "de"})
    assert answer.headers["Location"] == "/login"
    assert "Du bist abgemeldet." in page_text(client.get("/login", headers={"Accept-Language": "de"}).get_data(True))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_hands_not_sent_are_asked_about_before_a_guest_leaves_the_table(app, db, players, lang):
    """The question before signing out with hands waiting (static/app.js, #signout-ask) speaks of leaving the table
    to a guest, also one who closed the night."""
    night = start_night(db, players)
    phone = _join(app, night.join_code)
    leave = {"en": "before you leave the table", "de": "bevor du den Tisch verlässt"}[lang]
    sign_out = {"en": "before you sign out", "de": "bevor du dich abmeldest"}[lang]
    page = phone.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
    ask = re.search(r'<dialog id="signout-ask"[^>]*data-say="([^"]+)"', page).group(1)
    assert leave in ask and sign_out not in ask
    assert phone.post(f"/nights/{night.id}/close").status_code == 200  # the guest closes it, and reads it on
    page = phone.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
    ask = re.search(r'<dialog id="signout-ask"[^>]*data-say="([^"]+)"', page).group(1)
    assert leave in ask and sign_out not in ask


def test_the_nights_list_leads_a_guest_to_its_table_or_to_joining_never_to_the_sign_in(app, db, players, night):
    """The app's name at the top of every page links to the nights; for a guest that was the sign-in page.
    A guest goes to the table it is at; with its night gone, to joining one; nobody at all still signs in."""
    phone = _join(app, night.join_code)
    answer = phone.get("/nights/")
    assert answer.status_code == 302 and answer.location == f"/nights/{night.id}"
    _delete(db, night.id)
    answer = phone.get("/nights/")
    assert answer.status_code == 302 and answer.location == "/join"
    assert app.test_client().get("/nights/").location.startswith("/login")
