"""The offline page's way back in Chromium (static/offline.js): the page is the same for everybody on the phone
(the worker keeps one copy), and its script makes the way back the phone's own from the pages the phone keeps
for offline use: a guest at a table and a member go back to the newest table page kept, which opens without a
connection (the nights list, which a guest cannot see and the phone never keeps, is a member's only when none is
kept); never to a night that is gone."""

from __future__ import annotations

import pytest

from tests.browser.outbox_phone import NO_PAGES_KEPT, delete, guest_phone, join_code, kept_by_the_worker
from tests.support import wait_until, worker_ready

pytestmark = pytest.mark.browser

LINK = "#way-back"


def _offline_page(page, base: str) -> None:
    """A page the phone never kept, asked without a connection: the worker's offline page."""
    page.goto(f"{base}/players/")
    assert "Keine Verbindung" in page.locator("h1").inner_text()


def test_a_guests_way_back_from_the_offline_page_is_its_table(browser, live, night_with_a_hand):
    base, app = live
    phone = guest_phone(browser, base, night_with_a_hand, join_code(app, night_with_a_hand))
    context = phone.context
    try:
        kept_by_the_worker(phone, base, night_with_a_hand)  # through the worker: it keeps a copy
        context.set_offline(True)
        _offline_page(phone, base)
        wait_until(phone, "() => document.getElementById('way-back').textContent.trim() === 'Zurück zum Tisch'")
        assert phone.locator(LINK).get_attribute("href") == f"/nights/{night_with_a_hand}"
        phone.locator(LINK).click()
        phone.wait_for_url(f"{base}/nights/{night_with_a_hand}")
        assert phone.locator("#hand-1").count() == 1  # the table page kept, without a connection
    finally:
        context.set_offline(False)
        context.close()


def _kept_paths(page) -> list[str]:
    """The paths of the pages the phone keeps for offline use (every account's)."""
    return page.evaluate(
        """() => caches.keys().then(names => Promise.all(names.filter(n => n.indexOf('sk-pages-') === 0)
             .map(n => caches.open(n).then(c => c.keys()))))
             .then(all => [].concat(...all).map(r => new URL(r.url).pathname))"""
    )


def test_a_deleted_nights_pages_are_no_longer_kept_and_the_way_back_never_leads_there(browser, live, night_with_a_hand):
    """A guest's night is deleted: once the app answered its table page with 404, the phone keeps neither its table
    page nor its hand form. Offline it opened the copy kept, looking live and taking hands into the outbox, and the
    offline page's way back led straight to it."""
    base, app = live
    night = night_with_a_hand
    phone = guest_phone(browser, base, night, join_code(app, night))
    context = phone.context
    try:
        kept_by_the_worker(phone, base, night, "/hands/new")
        wait_until(phone, "(n) => caches.keys().then(k => k.some(x => x.indexOf('sk-pages-guest:') === 0))")
        delete(app, night)
        assert phone.goto(f"{base}/nights/{night}").status == 404
        wait_until(phone, NO_PAGES_KEPT)
        assert _kept_paths(phone) == []
        context.set_offline(True)
        phone.goto(f"{base}/nights/{night}")
        assert "Keine Verbindung" in phone.locator("h1").inner_text()  # not the night's copy
        phone.wait_for_timeout(500)  # offline.js has looked at the caches
        assert phone.locator(LINK).get_attribute("href") == "/"  # the start page, not the night gone
    finally:
        context.set_offline(False)
        context.close()


def test_a_members_way_back_is_the_newest_table_kept_else_the_nights(page, live, night_with_a_hand):
    """A member's way back was the nights, which the phone never keeps: offline a dead end. It is the newest table
    page kept (as a guest's), and the nights only where none is kept (here: its night was deleted)."""
    base, app = live
    night = night_with_a_hand
    kept_by_the_worker(page, base, night)
    page.context.set_offline(True)
    try:
        _offline_page(page, base)
        wait_until(page, "() => document.getElementById('way-back').textContent.trim() === 'Zurück zum Tisch'")
        assert page.locator(LINK).get_attribute("href") == f"/nights/{night}"
        page.locator(LINK).click()
        page.wait_for_url(f"{base}/nights/{night}")
        assert page.locator("#hand-1").count() == 1  # the table page kept, without a connection
        page.context.set_offline(False)
        delete(app, night)
        page.goto(f"{base}/nights/{night}")
        wait_until(page, "() => caches.keys().then(k => k.length > 0)")
        wait_until(page, NO_PAGES_KEPT)
        page.context.set_offline(True)
        _offline_page(page, base)
        wait_until(page, "() => document.getElementById('way-back').textContent.trim() === 'Zurück zu den Abenden'")
        assert page.locator(LINK).get_attribute("href") == "/nights/"
    finally:
        page.context.set_offline(False)


def test_the_offline_page_speaks_the_language_the_phone_uses_now(page, live, night_with_a_hand):
    """The worker kept the offline page in the language of its install (German): after ?lang=en every page was
    English but the offline page, and its way back's words."""
    base, _ = live
    night = night_with_a_hand
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}?lang=en")
    assert page.evaluate("document.documentElement.lang") == "en"
    wait_until(  # the worker has the offline page in English
        page,
        """() => caches.keys().then(names => caches.open(names.filter(n => n.indexOf('sk-static-') === 0)[0]))
             .then(c => c.match('/offline')).then(r => r && r.text())
             .then(t => Boolean(t) && t.includes('<html lang="en"'))""",
    )
    page.context.set_offline(True)
    try:
        page.goto(f"{base}/players/")
        assert page.locator("h1").inner_text() == "No connection"
        assert page.evaluate("document.documentElement.lang") == "en"
        wait_until(page, "() => document.getElementById('way-back').textContent.trim() === 'Back to the table'")
    finally:
        page.context.set_offline(False)


def test_nothing_was_saved_goes_back_to_what_was_entered(browser, live, night_with_a_hand):
    """A hand corrected offline: "Nothing was saved" says go back, what you entered stays, but its one button went to
    the table page, and what was entered was lost. It goes back in the browser's history, to the form as entered."""
    base, app = live
    night = night_with_a_hand
    phone = guest_phone(browser, base, night, join_code(app, night), timeout=10_000)
    context = phone.context
    try:
        kept_by_the_worker(phone, base, night, "/hands/1/edit")
        context.set_offline(True)
        phone.locator("#declarer-group label", has_text="Clara").first.click()
        phone.locator("#save").click()
        phone.wait_for_load_state()
        assert "Nichts wurde gespeichert" in phone.locator("main").inner_text()
        assert phone.locator(LINK).inner_text().strip() == "Zurück zu deiner Eingabe"
        phone.locator(LINK).click()  # (the form was posted to its own address: the same URL, a page back)
        wait_until(phone, "() => Boolean(document.querySelector('#declarer-group'))")
        chosen = phone.evaluate(
            "Array.from(document.querySelectorAll('#declarer-group input:checked')).map(i => i.labels[0].textContent)"
        )
        assert [c.strip() for c in chosen] == ["Clara"]
    finally:
        context.set_offline(False)
        context.close()
