"""Offline (issue 15), in Chromium at 390 x 844: once a night's table page and hand form have been
opened, both load with no network; other pages say they need the connection, in the page's
language; a form sent without a connection says that nothing was saved."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand, undo_last
from tests.support import DURCH, worker_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def night(night_with_a_hand):
    """The night, with one hand recorded."""
    return night_with_a_hand


def test_a_nights_table_page_and_hand_form_open_without_a_connection(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
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


def test_a_preview_sent_without_a_connection_says_nothing_was_saved(page, live, night):
    """(A hand saved without a connection waits in the outbox: tests/browser/test_outbox.py.)"""
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("button[type=submit]", has_text="Vorschau").first.click()
        page.wait_for_load_state()
        assert "Nichts wurde gespeichert" in page.locator("main, body").first.inner_text()
    finally:
        page.context.set_offline(False)


def test_another_phone_sees_a_new_and_an_undone_hand_within_two_seconds(browser, page, live, night):
    """Issue 15 (live): the second phone polls the live part every 2 s (the app's default), with its ETag."""
    base, app = live
    app.config["POLL_SECONDS"] = 2
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE").new_page()
    try:
        other.goto(f"{base}/login")
        other.fill("#name", "Wirt")
        other.fill("#password", "richtig-geheim")
        other.click("button[type=submit]")
        other.wait_for_url(f"{base}/nights/")
        other.goto(f"{base}/nights/{night}")
        assert other.locator("details.hand").count() == 1
        polls = []
        other.on("response", lambda r: polls.append(r.status) if r.url.endswith(f"/nights/{night}/live") else None)
        with database.session(app.extensions["sk_engine"], write=True) as db:
            record_hand(db=db, night_id=night, hand=DURCH)
        other.wait_for_selector("#hand-2", timeout=3_000)  # 2 s of polling, and a little for the page
        other.wait_for_timeout(2_500)
        assert 304 in polls  # an unchanged night: no body sent
        with database.session(app.extensions["sk_engine"], write=True) as db:
            undo_last(db=db, night_id=night)
        other.wait_for_selector("#hand-2", state="detached", timeout=3_000)
    finally:
        other.context.close()
