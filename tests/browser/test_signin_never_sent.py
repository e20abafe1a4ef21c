"""The sign-in page counted a hand of a deleted night, which can never be sent, among the hands that "are sent from
their table page" once signed in again. It counts only the hands that can still be sent, and says the others apart."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.outbox_phone import delete
from tests.browser.test_outbox import save_offline

pytestmark = pytest.mark.browser


def test_the_sign_in_page_does_not_promise_to_send_a_hand_of_a_deleted_night(page, live, matzlfangen_night):
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna"])
    delete(app, night)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#outbox li.conflict")).to_have_count(1, timeout=15_000)  # found gone: never to be sent
    page.context.clear_cookies()  # the session ends
    page.goto(f"{base}/login")
    notice = page.locator("#outbox-waiting")
    expect(notice).to_be_visible()
    said = notice.inner_text()
    assert "Noch nicht gesendet" not in said and "werden sie von ihrer Tischseite aus gesendet" not in said, said
    assert "nie gesendet" in said and "): 1." in said, said
