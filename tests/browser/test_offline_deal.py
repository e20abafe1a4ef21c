"""The deal offline (issues 24 and 26.5), in Chromium at 390 x 844: the table page kept for offline use gives
its deals badge to the dealer of the next hand to be recorded, behind the hands waiting (a hand dealt again
keeps the dealer); a hand waiting for a night that was closed meanwhile stops being sent, says so in the page's
language and stays for the player to discard."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.nights import close_night
from scorekeeper.core.table import load_table
from tests.browser.test_hand_rows import offline_form
from tests.browser.test_outbox import enter_durch, queued

pytestmark = pytest.mark.browser


def badge_holder(page) -> str:
    """The player the kept table page says deals next, once its script has moved the badge (right after it
    shows the hands waiting, in the same turn)."""
    page.wait_for_selector("#outbox:not([hidden])")
    return page.locator("table.balance tr:has(.badge[data-deals]) td").first.inner_text()


def test_a_waiting_hand_dealt_again_keeps_the_deals_badge_with_its_dealer(page, live, roster):
    """Anna deals hand 1, a Rundpass under rules that deal it again: with it waiting on the phone, the kept
    table page still says Anna deals (hand 2), as the server will; after a Wenz waiting behind it, Bernd."""
    base, night = offline_form(page, live, roster, "schafkopf", {"all_pass": "redeal"})
    try:
        page.locator("#contract-group label", has_text="Rundpass").first.click()
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        page.wait_for_selector("#outbox:not([hidden])")
        first = badge_holder(page)
        dealt = page.locator("#balance [data-made]").get_attribute("data-dealt")
    finally:
        page.context.set_offline(False)
    assert first.startswith("Anna"), first
    assert dealt == "2"  # the badge is for hand 2
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        assert load_table(db=db, night_id=night).hands == []  # the hand is still on the phone only


def _waiting_when_closed(page, live, night: int) -> None:
    """A Durch saved on the phone (offline) waits there, and the night is closed meanwhile."""
    base, app = live
    enter_durch(page, "Anna")
    page.wait_for_url(f"{base}/nights/{night}")
    assert len(queued(page)) == 1
    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night)


def test_a_hand_waiting_for_a_night_closed_meanwhile_stops_and_says_so(page, live, roster):
    """The night is closed while a hand waits on the phone: sending it does not go on for ever; the hand is
    marked (the night takes no more hands, and the server's reason) with only Discard beside it."""
    _, night = offline_form(page, live, roster, "matzlfangen")
    _, app = live
    try:
        _waiting_when_closed(page, live, night)
        asked = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/hands/new") else None)
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#outbox li.queued.conflict", timeout=20_000)
    item = page.locator("#outbox li.queued.conflict").first
    state = item.locator(".state").inner_text()
    assert "Dieser Abend nimmt keine Spiele mehr an" in state, state
    assert "abgeschlossen" in state, state  # the server's reason, in the page's language
    assert [b.inner_text() for b in item.locator("button").all()] == ["Verwerfen"]
    seen = len(asked)
    assert seen >= 1  # the form was asked for (and refused)
    # from the refusal on, nothing is asked again (a retry that read the hands before the refusal asked once
    # more, 2 s after it, in a CI run: test_a_retry_that_read_the_hands_before_the_night_refused_them_asks_no_more)
    page.wait_for_timeout(5_000)  # longer than the first retries (2 s, 4 s)
    assert len(asked) == seen, asked
    with database.session(app.extensions["sk_engine"]) as db:
        assert load_table(db=db, night_id=night).hands == []


def test_a_retry_that_read_the_hands_before_the_night_refused_them_asks_no_more(page, live, roster):
    """The race behind the CI run that asked a closed night once more, 2 s after its refusal: a sending that
    found no connection went on to list the hands (reading them first) while the next one, on the phone's way
    back online, was refused by the closed night and marked them; the first one's list, read before that,
    still had a hand to send, and asked for another try. Here the list's read is slowed (2 s) to hold that
    window open: one refusal stops the asking."""
    base, night = offline_form(page, live, roster, "matzlfangen")
    _, app = live
    form_url = f"{base}/nights/{night}/hands/new"
    reached = []  # the hand form's requests that reached the server, in order
    first = {"failed": False}

    def route(r):
        if r.request.method != "GET":
            r.continue_()
        elif not first["failed"]:  # the first try back online finds no connection
            first["failed"] = True
            r.abort("internetdisconnected")
        else:
            reached.append(r.request.url)
            r.continue_()

    try:
        _waiting_when_closed(page, live, night)
        page.context.route(form_url, route)  # (the service worker makes the page's requests: the context's)
        page.evaluate(
            """() => { const read = self.skOutbox.waiting;  // the page's list reads the hands, then takes 2 s
                       self.skOutbox.waiting = (night, account) => read(night, account).then(
                         (hands) => new Promise((done) => setTimeout(() => done(hands), 2000))); }"""
        )
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#outbox li.queued.conflict", timeout=20_000)
    assert first["failed"]
    seen = len(reached)
    assert seen >= 1  # the closed night was asked (and refused)
    page.wait_for_timeout(5_000)  # longer than the retries that follow a try without a connection (0 s, 2 s)
    assert len(reached) == seen, reached
    with database.session(app.extensions["sk_engine"]) as db:
        assert load_table(db=db, night_id=night).hands == []
