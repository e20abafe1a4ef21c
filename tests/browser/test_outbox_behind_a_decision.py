"""Hands entered on an online phone while one of its hands waits for the player's decision (another phone beat it to
its number), in Chromium at 390 x 844: they queued behind it silently, saying "waiting for a connection". Hands go in
order (each is the number after the one before), so they are not sent ahead of it: they say they wait behind it, the
list is open, and once it is decided they go."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_outbox import beaten_to_its_number, enter_durch, table
from tests.support import wait_sent, worker_ready

pytestmark = pytest.mark.browser


def test_a_hand_entered_behind_one_that_needs_a_decision_says_so_and_goes_after_it(page, live, matzlfangen_night):
    base, _ = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    conflict = beaten_to_its_number(page, live, night)  # Clara's hand 1, beaten by Dieter's
    page.goto(f"{base}/nights/{night}/hands/new")  # online: the next hand
    enter_durch(page, "Anna")
    page.wait_for_url(f"{base}/nights/{night}")
    behind = page.locator("#outbox li.queued:not(.conflict)")
    expect(behind).to_have_count(1)
    expect(behind.locator(".state")).to_have_text("wartet, bis du über Spiel 1 entschieden hast")
    expect(page.locator("#outbox details")).to_have_attribute("open", "")
    assert "Verbindung" not in page.locator("#outbox").inner_text()
    assert [h.data["declarer"] for h in table(live, night).hands] == [4]  # not sent ahead of it
    conflict.locator("button", has_text="Als nächstes Spiel anhängen").click()
    wait_sent(page, night, timeout=20)
    assert [h.data["declarer"] for h in table(live, night).hands] == [4, 3, 1]  # in order
