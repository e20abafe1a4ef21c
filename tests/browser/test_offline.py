"""Offline (issue 15), in Chromium at 390 x 844: once a night's table page and hand form have been
opened, both load with no network; other pages say they need the connection, in the page's
language; a form sent without a connection says that nothing was saved."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Player
from tests.support import DURCH, start_night

pytestmark = pytest.mark.browser


@pytest.fixture
def night(live, roster):
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        players = list(db.exec(select(Player).order_by(Player.id)))
        night = start_night(db, players)
        record_hand(db=db, night_id=night.id, hand=DURCH)
        return night.id


def ready(page) -> None:
    """Wait until the service worker controls the page (it registers on the first page, then claims it)."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15_000)


def test_a_nights_table_page_and_hand_form_open_without_a_connection(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}")
    ready(page)
    page.goto(f"{base}/nights/{night}")  # now through the worker: it keeps a copy
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.goto(f"{base}/nights/{night}")
        assert page.locator("#hand-1").count() == 1  # the hand recorded, from the copy kept
        assert "Anna" in page.locator("#balance").inner_text()
        page.goto(f"{base}/nights/{night}/hands/new")
        assert page.locator("#hand-form, form.hand-form, form[method=post]").count() >= 1
        assert page.locator("button", has_text="Speichern").count() >= 1
        page.goto(f"{base}/players/")  # never opened, and not kept: the offline page, in German
        assert "Keine Verbindung" in page.locator("h1").inner_text()
    finally:
        page.context.set_offline(False)


def test_a_form_sent_without_a_connection_says_nothing_was_saved(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")
    ready(page)
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("button[type=submit]", has_text="Speichern").first.click()
        page.wait_for_load_state()
        assert "Nichts wurde gespeichert" in page.locator("main, body").first.inner_text()
    finally:
        page.context.set_offline(False)
