"""A member's table page open while another phone closes the night, in Chromium at 390 x 844: it kept offering to
record the next hand (a guest's page said so already: its polling is refused with the code ``closed``). The live
part carries the night's state: the page says the night was closed, with the way to its settlement, and offers no
way into the night; reopened, the page is loaded again and offers recording again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from scorekeeper.core.nights import close_night, reopen_night

pytestmark = pytest.mark.browser


def test_a_members_table_page_says_the_night_was_closed_on_another_phone(page, live, night_with_a_hand):
    base, app = live
    night = night_with_a_hand
    page.goto(f"{base}/nights/{night}")
    expect(page.locator("#record")).to_be_visible()
    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night)  # another phone
    notice = page.locator("#night-closed")
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice).to_contain_text("Dieser Abend wurde inzwischen auf einem anderen Handy abgeschlossen")
    expect(notice.get_by_role("link", name="Abrechnung")).to_have_attribute("href", f"/nights/{night}/summary")
    expect(page.locator("#record")).to_be_hidden()
    with database.session(app.extensions["sk_engine"], write=True) as db:
        reopen_night(db=db, night_id=night, reason="Vertippt")  # reopened: the page offers recording again
    expect(page.locator("#record")).to_be_visible(timeout=10_000)
    expect(page.locator("#night-closed")).to_have_count(0)
