"""A form whose answer is lost after the server stored what it sent (the Wi-Fi at the pub table), in Chromium at
390 x 844: a hand saved on a form opened in another language (the menu's ``?lang=`` link), a night started. Sent
again, each lands once."""

from __future__ import annotations

import time

import pytest

from tests.browser.outbox_phone import kept_by_the_worker
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
    kept_by_the_worker(page, base, night, "/hands/new?lang=en")
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
    kept_by_the_worker(page, base, night, "/hands/new?lang=en")
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


def _nights(app) -> list[int]:
    from sqlmodel import select

    from scorekeeper.core import db as database
    from scorekeeper.core.models import Night

    with database.session(app.extensions["sk_engine"]) as db:
        return [n.id for n in db.exec(select(Night).order_by(Night.id))]


def _lose_the_first_answer(page, url: str) -> list:
    """The first post to ``url`` reaches the server (which stores what it sent), and its answer never reaches the
    phone; the list fills once it was."""
    lost: list = []

    def route(r):
        if r.request.method != "POST" or lost:
            r.continue_()
            return
        r.fetch()  # stored
        lost.append(1)
        r.abort("connectionreset")

    page.context.route(url, route)
    return lost


def test_a_night_started_whose_answer_was_lost_is_started_once_when_started_again(page, live, roster):
    """ "Start the night" reached the server, its answer did not reach the phone: the offline page said "Nothing was
    saved", and its way back showed the form loaded afresh with a new key: started again, the night was there twice.
    The page says it may have been saved, and the form it goes back to keeps its key: the night is started once."""
    base, app = live
    page.goto(f"{base}/nights/")
    worker_ready(page)
    page.goto(f"{base}/nights/new")
    for i, name in enumerate(["Anna", "Bernd", "Clara", "Dieter"], start=1):
        page.select_option(f"#seat_{i}", label=name)
    key = page.input_value("input[name=idempotency_key]")
    lost = _lose_the_first_answer(page, f"{base}/nights/new")
    page.get_by_role("button", name="Abend beginnen").click()
    page.wait_for_selector("#way-back")
    assert lost and len(_nights(app)) == 1  # the server has it
    said = page.locator("main").inner_text()
    assert "Nichts wurde gespeichert" not in said
    assert "vielleicht" in said.lower(), said
    page.locator("#way-back").click()
    page.wait_for_selector("#night-form")
    assert page.input_value("input[name=idempotency_key]") == key
    for i in range(1, 5):  # (filled in again where the browser did not keep what was entered)
        if not page.input_value(f"#seat_{i}"):
            page.select_option(f"#seat_{i}", label=["Anna", "Bernd", "Clara", "Dieter"][i - 1])
    page.get_by_role("button", name="Abend beginnen").click()
    page.wait_for_url(f"{base}/nights/{_nights(app)[0]}")
    assert len(_nights(app)) == 1  # started once
