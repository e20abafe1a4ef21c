"""The offline page's way back (templates/offline/offline.html). The service worker keeps one copy of it for
everybody on the phone, so it says neither "Back to the nights" (a guest at a table cannot see the nights list)
nor a table: it leads to the start page, which sends each their way (web/access.py ``way_back``): a member to
the nights, a guest to its table. static/offline.js makes it the phone's own way where the phone keeps pages
(tests/browser/test_offline_way_back.py); the page carries the words it then says."""

from __future__ import annotations

import re

import pytest

from tests.support import page_text

WORDS = {
    "en": ("Back to the start page", "Back to the table", "Back to the nights"),
    "de": ("Zurück zur Startseite", "Zurück zum Tisch", "Zurück zu den Abenden"),
}


def way_back(page: str) -> tuple[str, str, dict[str, str]]:
    """The page's way back: where it leads, what it says, and its data-* words."""
    link = re.search(r'<a class="button" id="way-back" ([^>]*)>([^<]*)</a>', page, re.S)
    assert link, page
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', link.group(1)))
    return attributes.pop("href"), page_text(link.group(2)), attributes


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_offline_page_leads_to_the_start_page_in_words_for_everybody(anon, lang):
    page = anon.get("/offline", headers={"Accept-Language": lang}).get_data(as_text=True)
    start, table, nights = WORDS[lang]
    assert way_back(page) == ("/", start, {"data-table": table, "data-nights": nights})
    assert nights not in page_text(page)  # said only by the script, where the phone keeps a member's pages
    assert re.search(r'<script src="/static/offline\.[0-9a-f]+\.js" defer></script>', page)


def test_the_start_page_leads_a_guest_to_its_table_and_a_member_to_the_nights(app, client, night):
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    guest = phone.get("/", follow_redirects=True)
    assert (guest.status_code, guest.request.path) == (200, f"/nights/{night.id}")
    member = client.get("/", follow_redirects=True)
    assert (member.status_code, member.request.path) == (200, "/nights/")
