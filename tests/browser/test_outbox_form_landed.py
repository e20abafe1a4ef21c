"""The hand form whose waiting hands land while it stays open (sent in the background once the connection is
back), in Chromium at 390 x 844. The form was made for the hand after the server's last one as it was then
(``expected_hands``), and names the deal behind the hands waiting: once they landed, nothing waits and its
Save posts it straight to the server, which took it for a form made before those hands: refused ("another
phone was quicker"), the player's own hands having landed. The form now counts the hands that landed, and
keeps what was entered meanwhile (it is not loaded again, as the table page is)."""

from __future__ import annotations

import pytest

from tests.browser.test_outbox import table
from tests.support import wait_sent, wait_until, worker_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


def _choose(page, group: str, label: str) -> None:
    page.locator(f"#{group}-group label", has_text=label).first.click()


def test_the_next_hand_on_a_form_whose_waiting_hand_landed_meanwhile_is_recorded(page, live, night):
    """Anna deals hand 1, a Durch kept on the phone without a connection. The form opened again behind it is hand
    2 (Bernd deals); the player starts entering it, the connection comes back and hand 1 lands from this page. The
    hand entered is then saved as hand 2, with what was entered before the landing."""
    base, _ = live
    form_url = f"{base}/nights/{night}/hands/new"
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")  # kept by the worker, and the hand form
    page.goto(form_url)
    page.context.set_offline(True)
    try:
        _choose(page, "contract", "Durch")
        _choose(page, "declarer", "Anna")
        _choose(page, "won", "gewonnen")
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        page.goto(form_url)  # the form kept at hand 1: behind the hand waiting, hand 2
        wait_until(page, "() => document.querySelector('.hand-head h1').textContent.includes('2')")
        assert page.locator(".hand-head .meta").inner_text().startswith("Bernd gibt")
        _choose(page, "contract", "Durch")  # hand 2, begun without a connection
        _choose(page, "declarer", "Clara")
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night)  # hand 1 landed, sent from the form
    assert len(table(live, night).hands) == 1
    assert page.url == form_url  # the form stayed, with what was entered
    assert page.locator("#declarer-group input:checked").evaluate("el => el.labels[0].textContent").strip() == "Clara"
    assert page.locator(".hand-head h1").inner_text() == "Spiel 2"
    _choose(page, "won", "gewonnen")
    page.locator("#save").click()
    page.wait_for_url(f"{base}/nights/{night}#balance")  # saved: at the table (not refused on the form)
    hands = table(live, night).hands
    assert [(h.data["declarer"], h.data["dealer"]) for h in hands] == [(1, 1), (3, 2)]
