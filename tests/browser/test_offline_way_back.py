"""The offline page's way back in Chromium (static/offline.js): the page is the same for everybody on the phone
(the worker keeps one copy), and its script makes the way back the phone's own from the pages the phone keeps
for offline use: a guest at a table goes back to its table page, which opens without a connection (the nights
list, which a guest cannot see, is not its way back); a member to the nights."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.models import Night
from tests.browser.conftest import PHONE
from tests.browser.tournament_steps import join_table
from tests.support import wait_until, worker_ready

pytestmark = pytest.mark.browser

LINK = "#way-back"


def _offline_page(page, base: str) -> None:
    """A page the phone never kept, asked without a connection: the worker's offline page."""
    page.goto(f"{base}/players/")
    assert "Keine Verbindung" in page.locator("h1").inner_text()


def test_a_guests_way_back_from_the_offline_page_is_its_table(browser, live, night_with_a_hand):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        code = db.get(Night, night_with_a_hand).join_code
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        phone = context.new_page()
        join_table(phone, base, night_with_a_hand, code)
        worker_ready(phone)
        phone.goto(f"{base}/nights/{night_with_a_hand}")  # through the worker: it keeps a copy
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


def test_a_members_way_back_from_the_offline_page_is_the_nights(page, live, night_with_a_hand):
    base, _ = live
    page.goto(f"{base}/nights/{night_with_a_hand}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night_with_a_hand}")
    page.context.set_offline(True)
    try:
        _offline_page(page, base)
        wait_until(page, "() => document.getElementById('way-back').textContent.trim() === 'Zurück zu den Abenden'")
        assert page.locator(LINK).get_attribute("href") == "/nights/"
    finally:
        page.context.set_offline(False)
