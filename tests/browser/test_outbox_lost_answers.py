"""A form whose answer is lost after the server stored what it sent (the Wi-Fi at the pub table), in Chromium at
390 x 844: a hand saved on a form opened in another language (the menu's ``?lang=`` link), a night started. Sent
again, each lands once."""

from __future__ import annotations

import time

import pytest

from tests.browser.test_outbox import enter_durch, table
from tests.support import wait_sent, worker_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def short_send_wait(live):
    """The service worker gives up on a hand's answer after 2 s, not 15 (asked for before ``page``)."""
    live[1].config["SEND_WAIT_SECONDS"] = 2


def _answer_late(app, path_end: str, seconds: float = 4) -> list:
    """The first post to a path ending in ``path_end`` is stored at once and answered ``seconds`` later; the list
    fills once it was. Put back with ``app.wsgi_app = inner``."""
    inner = app.wsgi_app
    slow: list = []

    def answer_late(environ, start_response):
        answer = list(inner(environ, start_response))
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith(path_end) and not slow:
            slow.append(1)
            time.sleep(seconds)
        return answer

    app.wsgi_app = answer_late
    return slow


def test_a_hand_saved_on_the_form_opened_in_another_language_whose_answer_was_lost_waits_and_lands_once(
    short_send_wait, page, live, matzlfangen_night
):
    """The language link reloads the hand form at ``…/hands/new?lang=en``; the form posted to that address, which
    the worker did not take for the hand form's: a lost answer said "Nothing was saved", and the hand saved again
    was stored twice. It is kept in the outbox under its key, and sent again is answered as that hand."""
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new?lang=en")
    assert page.locator("#hand-form").get_attribute("action") == f"/nights/{night}/hands/new"
    inner = app.wsgi_app
    _answer_late(app, "/hands/new")
    try:
        enter_durch(page, "Bernd", "won")
        page.wait_for_url(f"{base}/nights/{night}", timeout=30_000)  # kept, not "Nothing was saved"
        assert len(table(live, night).hands) == 1  # the server has it
        wait_sent(page, night, timeout=30)  # sent again, answered as that hand
    finally:
        app.wsgi_app = inner
    assert len(table(live, night).hands) == 1  # and still once


def test_the_worker_keeps_a_save_posted_with_the_language_in_the_query(short_send_wait, page, live, matzlfangen_night):
    """A hand form kept from before it named its action (or a post to ``?lang=en`` anyhow): the worker takes the
    query the app reads on every page for the hand form's own address."""
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new?lang=en")
    page.evaluate("() => document.getElementById('hand-form').setAttribute('action', location.href)")
    inner = app.wsgi_app
    _answer_late(app, "/hands/new")
    try:
        enter_durch(page, "Clara", "won")
        page.wait_for_url(f"{base}/nights/{night}", timeout=30_000)
        wait_sent(page, night, timeout=30)
    finally:
        app.wsgi_app = inner
    assert [h.data["declarer"] for h in table(live, night).hands] == [3]
