"""The hand form's Save while the service worker runs the page, answered with a 500 (the app's own, a proxy's page),
in Chromium at 390 x 844: the worker took only a 502-504 for "the server is down" and showed the 500's error page,
the hand lost unless entered again. It waits in the outbox, as the outbox's own sending treats any 5xx or an answer
that is not the app's, and lands once: the server stored it before it failed, or not."""

from __future__ import annotations

import pytest

from tests.browser.outbox_phone import kept_by_the_worker
from tests.browser.test_outbox import enter_durch, table
from tests.support import wait_sent

pytestmark = pytest.mark.browser


def _fail_the_first_save(app, stored: bool, status: str = "500 INTERNAL SERVER ERROR") -> list:
    """The first Save of the hand form (a navigation) is answered ``status`` with a page that is not the app's;
    ``stored``: the app stored the hand first. The list fills once it was. Put back with ``app.wsgi_app = inner``."""
    inner = app.wsgi_app
    failed: list = []

    def answer(environ, start_response):
        if (
            not failed
            and environ["REQUEST_METHOD"] == "POST"
            and environ["PATH_INFO"].endswith("/hands/new")
            and environ.get("HTTP_SEC_FETCH_MODE") == "navigate"
        ):
            failed.append(1)
            if stored:
                list(inner(environ, lambda *a, **k: None))
            start_response(status, [("Content-Type", "text/html")])
            return [b"<html><body><h1>Internal Server Error</h1></body></html>"]
        return inner(environ, start_response)

    app.wsgi_app = answer
    return failed


@pytest.mark.parametrize("stored", [False, True], ids=["not-stored", "stored"])
def test_a_save_answered_with_a_500_waits_in_the_outbox_and_lands_once(page, live, matzlfangen_night, stored):
    base, app = live
    night = matzlfangen_night
    kept_by_the_worker(page, base, night, "/hands/new")
    inner = app.wsgi_app
    failed = _fail_the_first_save(app, stored)
    try:
        enter_durch(page, "Bernd")
        page.wait_for_url(f"{base}/nights/{night}", timeout=20_000)  # the table, the hand waiting: no error page
        assert failed
        wait_sent(page, night, timeout=30)  # kept, and sent again with its key (at once: the server answers again)
    finally:
        app.wsgi_app = inner
    assert [h.data["declarer"] for h in table(live, night).hands] == [2]  # once
