"""What a hand waiting for a closed or deleted night says was entered, after the language was switched (Chromium,
390 x 844): it kept the words of the language it was saved in, as the night gave no hand form to say it in the
page's. A closed night's form gives its words (``?words=1``, never a Save): the hand is said in the page's language;
a deleted night has none in any language: its words of the moment are shown, marked with their language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from scorekeeper.core.nights import close_night
from tests.browser.test_hand_rows import offline_form
from tests.browser.test_outbox import queued

pytestmark = pytest.mark.browser


def _waiting_lost_durch(page, live, roster) -> int:
    base, night = offline_form(page, live, roster, "matzlfangen")
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text="Clara").first.click()
        page.locator("#won-group label", has_text="verloren").first.click()
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        assert "verloren" in queued(page)[0]
    finally:
        page.context.set_offline(False)
    return night


def test_a_hand_of_a_closed_night_is_said_in_the_language_switched_to(page, live, roster):
    base, app = live
    night = _waiting_lost_durch(page, live, roster)
    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night)
    page.goto(f"{base}/nights/{night}?lang=en")
    expect(page.locator("#outbox li.queued.conflict")).to_have_count(1, timeout=15_000)
    what = page.locator("#outbox li.queued .what")
    expect(what).to_contain_text("lost")
    assert "verloren" not in what.text_content()
    assert page.locator("#outbox li.queued .what [lang]").count() == 0


def test_a_hand_whose_night_gives_no_form_keeps_its_words_marked_with_their_language(page, live, roster):
    """The night's form not to be had (deleted: 404) while the page is in English and the hand was saved in German:
    its words of the moment, marked ``lang="de"`` (a screen reader reads them right)."""
    base, app = live
    night = _waiting_lost_durch(page, live, roster)
    inner = app.wsgi_app

    def no_form(environ, start_response):  # the night's form answers 404; the outbox's posts a proxy's 502
        if environ["PATH_INFO"].endswith("/hands/new") and environ.get("HTTP_SEC_FETCH_MODE") != "navigate":
            if environ["REQUEST_METHOD"] == "POST":
                start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
                return [b"502 Bad Gateway"]
            start_response("404 NOT FOUND", [("Content-Type", "text/html")])
            return [b"<html><body>no such night</body></html>"]
        return inner(environ, start_response)

    app.wsgi_app = no_form
    try:
        page.goto(f"{base}/nights/{night}?lang=en")
        page.wait_for_selector("#outbox:not([hidden])")
        marked = page.locator("#outbox li.queued .what [lang]")
        expect(marked).to_have_attribute("lang", "de")
        assert "verloren" in marked.text_content()
        assert page.locator("#outbox li.queued .what").text_content().startswith("Hand 1 · ")
    finally:
        app.wsgi_app = inner
