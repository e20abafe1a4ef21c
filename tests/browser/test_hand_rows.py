"""Issue 26.1 in Chromium at 390 x 844: a hand waiting on the phone (saved without a connection) says
its parts labelled, as the table would: "Anna spielt mit Clara · Gras · 70 Augen · 3 Laufende"."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.nights import create_night
from tests.support import wait_until, worker_ready

pytestmark = pytest.mark.browser


def offline_form(page, live, roster, game: str, rules=None) -> tuple[str, int]:
    """A new night of ``game`` (Anna, Bernd, Clara, Dieter; Anna deals; ``rules``), its pages kept by the worker,
    its hand form open on a phone that has just lost its connection: the base URL and the night."""
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        night = create_night(db=db, game=game, rules=rules, stake_cents=10, player_ids=roster[:4], first_dealer=1).id
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    return base, night


def test_a_waiting_sauspiel_says_who_plays_with_whom_and_labels_its_numbers(page, live, roster):
    base, night = offline_form(page, live, roster, "schafkopf")
    try:
        page.locator("#declarer-group label", has_text="Anna").first.click()
        page.locator("#partner-group label", has_text="Clara").first.click()
        page.locator("#suit-group label", has_text="Gras").first.click()
        page.fill("#points", "70")
        page.locator("#laufende-group label", has_text="3").first.click()
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        page.wait_for_selector("#outbox:not([hidden])")
        what = page.locator("#outbox li.queued .what").first.text_content().strip()
    finally:
        page.context.set_offline(False)
    assert what == "Spiel 1 · Sauspiel · Anna spielt mit Clara · Gras · 70 Augen · 3 Laufende · 0× geklopft", what


def test_the_kept_table_page_gives_the_deals_badge_to_the_dealer_of_the_next_hand(page, live, roster):
    """Issue 26.5: Anna deals hand 1; with hand 1 waiting on the phone, the table page kept for offline use says
    Bernd deals (hand 2), as the server will."""
    base, night = offline_form(page, live, roster, "matzlfangen")
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text="Anna").first.click()
        page.locator("#won-group label", has_text="gewonnen").first.click()
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        page.wait_for_selector("#outbox:not([hidden])")
        wait_until(page, "() => document.querySelector('tr[data-position=\"2\"] .badge[data-deals]')")
        dealer = page.locator("table.balance tr:has(.badge[data-deals]) td").first.inner_text()
    finally:
        page.context.set_offline(False)
    assert dealer.startswith("Bernd"), dealer
