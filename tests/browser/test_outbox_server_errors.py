"""The outbox when the server answers, but not properly, in Chromium at 390 x 844: a 5xx (a proxy's 502/503/504 while
the club's server restarts, the app's own 500), or an answer that is not the app's own (a proxy's page, without the
``Scorekeeper-Account`` header every answer of the app carries), says nothing about the hand. It was marked refused
and never sent again: the hand was lost to the club. It waits as after a lost connection, is sent again on the same
backing-off timer, and lands once; a hand the server keeps failing on is tried less and less often, and the list
says so, with the way out."""

from __future__ import annotations

import itertools
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_outbox import save_offline, table
from tests.support import wait_sent

pytestmark = pytest.mark.browser

PROXY_PAGE = "<html><head><title>{0}</title></head><body><h1>{0}</h1><hr><center>nginx</center></body></html>"


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


def _answer_posts(page, url: str, status: int, headers: dict[str, str] | None = None) -> list[float]:
    """From now on the outbox's posts to ``url`` are answered ``status`` with a proxy's page (and ``headers``),
    without reaching the app; the times they came at are returned (a list that fills). Its other requests go as
    always."""
    came: list[float] = []

    def route(r):
        if r.request.method != "POST":
            r.continue_()
            return
        came.append(time.monotonic())
        r.fulfill(status=status, content_type="text/html", headers=headers or {}, body=PROXY_PAGE.format(status))

    page.context.route(url, route)
    return came


def _until(page, what, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        page.wait_for_timeout(100)


def _back_online(page) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


@pytest.mark.parametrize("status", [503, 502, 200])
def test_a_hand_a_proxy_answered_for_the_server_waits_and_lands_once_the_server_is_back(page, live, night, status):
    """A 503 (or 502) of the proxy in front of a restarting server, or a page of the proxy's with a 200: the hand
    is not refused. It waits, saying the server did not answer properly, and lands once the server answers."""
    base, _ = live
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna"])
    url = f"{base}/nights/{night}/hands/new"
    came = _answer_posts(page, url, status)
    _back_online(page)
    _until(page, lambda: len(came) >= 1)
    item = page.locator("#outbox li.queued")
    expect(item.locator(".state")).to_have_text(
        "wartet: der Server hat nicht richtig geantwortet; wird bald wieder versucht"
    )
    expect(item).not_to_have_class("queued conflict")
    expect(page.locator("#outbox [data-title]")).to_have_text("Wartet auf den Server")
    assert table(live, night).hands == []
    page.context.unroute(url)  # the server is back: the timer finds it
    wait_sent(page, night, timeout=30)
    assert [h.data["declarer"] for h in table(live, night).hands] == [1]


def test_a_hand_the_server_stored_before_it_failed_with_500_is_not_stored_twice(page, live, night):
    """The server stores the hand, then fails (its own 500: the app's headers, an error page). The outbox sends it
    again later, with its key: the server answers it as the hand it has, and the phone drops it. Once."""
    base, app = live
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Bernd"])
    inner = app.wsgi_app
    failed = []

    def stored_then_failed(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/hands/new") and not failed:
            said = []
            b"".join(inner(environ, lambda status, headers, exc_info=None: said.append(headers)))  # stored
            failed.append(1)
            kept = [(k, v) for k, v in said[0] if k in ("Scorekeeper-Account", "Content-Language")]
            start_response("500 INTERNAL SERVER ERROR", [("Content-Type", "text/html; charset=utf-8"), *kept])
            return [b"<!doctype html><title>Etwas ist schiefgegangen</title><h1>Etwas ist schiefgegangen</h1>"]
        return inner(environ, start_response)

    app.wsgi_app = stored_then_failed
    try:
        _back_online(page)
        _until(page, lambda: failed)
        assert [h.data["declarer"] for h in table(live, night).hands] == [2]  # the server has it
        wait_sent(page, night, timeout=30)  # sent again, answered as that hand
    finally:
        app.wsgi_app = inner
    assert [h.data["declarer"] for h in table(live, night).hands] == [2]  # and still once
    expect(page.locator("#hand-1")).to_be_visible()


@pytest.mark.parametrize(
    ("lang", "won", "says"),
    [
        (
            "de",
            "gewonnen",
            "Der Server scheitert immer wieder an diesem Spiel (3 Versuche). Es wird weiter versucht, immer "
            "seltener; oder verwirf es und gib es neu ein.",
        ),
        (
            "en",
            "won",
            "The server keeps failing on this hand (3 tries). It is tried again, less and less often; or discard "
            "it and enter it again.",
        ),
    ],
)
def test_a_hand_the_server_fails_on_every_time_is_tried_less_and_less_often_and_says_so(
    page, live, night, lang, won, says
):
    """Every post of the hand is answered with the app's 500 (a hand that makes the server fail): it is sent again
    on the timer that backs off (2 s, then 4 s, ..., never faster), and after three tries the list says the server
    keeps failing on it, opened, with Discard beside it."""
    base, _ = live
    page.goto(f"{base}/nights/{night}?lang={lang}")
    save_offline(page, base, night, ["Clara"], won)
    account = page.evaluate("document.documentElement.dataset.account")  # the app's own answer: whose it is
    came = _answer_posts(page, f"{base}/nights/{night}/hands/new", 500, {"Scorekeeper-Account": account})
    _back_online(page)
    state = page.locator("#outbox li.queued .state")
    expect(state).to_have_text(says, timeout=20_000)
    expect(page.locator("#outbox li.queued").get_by_role("button")).to_have_text(
        ["Verwerfen" if lang == "de" else "Discard"]
    )
    expect(page.locator("#outbox li.queued")).to_be_visible()  # the list opened by itself
    assert len(came) == 3, came
    _until(page, lambda: len(came) >= 4)
    page.wait_for_timeout(6_000)  # the next try is 8 s after the fourth
    assert len(came) == 4, came
    # backing off as after a lost connection: at once (the "online" event starts afresh, and its sending's first
    # failure is tried again at once, as the outbox did before), then after 2 s, 4 s, 8 s, ... up to a minute
    gaps = [b - a for a, b in itertools.pairwise(came)]
    assert gaps[1] >= 1.5 and gaps[2] >= 3.5, gaps
    assert table(live, night).hands == []
