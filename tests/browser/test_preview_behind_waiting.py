"""The hand form's live preview with hands waiting on the phone, at a table of five (one sits out each deal), in
Chromium at 390 x 844: the form names the deal behind the waiting hands (hand 3: Clara deals and sits out), but the
server's preview was of its own next hand (hand 1: Anna sits out, Clara plays), so it named other players than the
form. The preview settles the waiting hands first (unsaved) and is of the deal the form names."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from scorekeeper.core.nights import create_night
from tests.browser.test_outbox import enter_durch, table
from tests.support import wait_until, worker_ready

pytestmark = pytest.mark.browser


def _posts_fail(inner):
    """The outbox's posts of hands answered 502 (a proxy, the server restarting); pages and previews go through."""

    def answer(environ, start_response):
        if (
            environ["REQUEST_METHOD"] == "POST"
            and environ["PATH_INFO"].endswith("/hands/new")
            and "fragment" not in environ.get("QUERY_STRING", "")
            and environ.get("HTTP_SEC_FETCH_MODE") != "navigate"
        ):
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"502 Bad Gateway"]
        return inner(environ, start_response)

    return answer


def roster_names() -> tuple[str, ...]:
    return ("Anna", "Bernd", "Clara", "Dieter", "Eva")


def _preview(page) -> str:
    box = page.locator("#preview")
    expect(box).to_contain_text("Vorschau", timeout=10_000)
    return box.inner_text()


@pytest.mark.parametrize("waiting", [2, 0], ids=["two-waiting", "none-waiting"])
def test_the_preview_is_of_the_deal_the_form_names_behind_the_hands_waiting(page, live, roster, waiting):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        night = create_night(db=db, game="matzlfangen", rules=None, stake_cents=10, player_ids=roster, first_dealer=1)
        night = night.id
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    for name in ["Bernd", "Clara"][:waiting]:  # hands 1 and 2: Anna, then Bernd deals and sits out
        page.goto(f"{base}/nights/{night}/hands/new")
        enter_durch(page, name)
        page.wait_for_url(f"{base}/nights/{night}")
    inner = app.wsgi_app
    app.wsgi_app = _posts_fail(inner)
    try:
        page.context.set_offline(False)
        page.goto(f"{base}/nights/{night}/hands/new")
        out = ["Anna", "Bernd", "Clara"][waiting]  # who deals the hand the form is for, and sits out
        expect(page.locator("#sits-out")).to_contain_text(out)
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text="Dieter").first.click()
        page.locator("#won-group label", has_text="gewonnen").first.click()
        said = _preview(page)
        units = {line.split("\t")[0]: line.split("\t")[1] for line in said.splitlines() if line.count("\t") == 2}
        # the form's deal's players pay (a Durch won: 6 from each defender), who sits out pays nothing
        assert units == {p: "+0" if p == out else "+18" if p == "Dieter" else "-6" for p in roster_names()}, said
        assert table(live, night).hands == []  # nothing saved by the preview
    finally:
        app.wsgi_app = inner


def _posts_land(inner, allowed):
    """As :func:`_posts_fail`, but the next ``allowed[0]`` of the outbox's posts of hands go through (counted down):
    the outbox posts a hand urlencoded, the preview (static/hand.js) as multipart."""
    failing = _posts_fail(inner)

    def answer(environ, start_response):
        outbox = environ["REQUEST_METHOD"] == "POST" and environ.get("CONTENT_TYPE", "").startswith(
            "application/x-www-form-urlencoded"
        )
        if outbox and allowed[0] > 0 and environ["PATH_INFO"].endswith("/hands/new"):
            allowed[0] -= 1
            return inner(environ, start_response)
        return failing(environ, start_response)

    return answer


def test_the_preview_while_some_of_the_hands_waiting_landed_is_no_other_phones(page, live, roster):
    """Two hands waiting, the form open behind them; the outbox sends them one after another, and only the first has
    landed: the preview said "another phone recorded a hand meanwhile", though the hand that landed was this phone's
    own. It is of the deal the form names, behind the one still waiting."""
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        night = create_night(db=db, game="matzlfangen", rules=None, stake_cents=10, player_ids=roster, first_dealer=1)
        night = night.id
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    for name in ["Bernd", "Clara"]:
        page.goto(f"{base}/nights/{night}/hands/new")
        enter_durch(page, name)
        page.wait_for_url(f"{base}/nights/{night}")
    inner, allowed = app.wsgi_app, [0]
    app.wsgi_app = _posts_land(inner, allowed)
    try:
        page.context.set_offline(False)
        page.goto(f"{base}/nights/{night}/hands/new")  # made before either landed: for hand 1, behind 2 waiting
        expect(page.locator("#sits-out")).to_contain_text("Clara")
        allowed[0] = 1  # the first lands, the second's post fails: it waits
        wait_until(page, "() => self.skOutbox.all().then(hs => hs.length === 1)", timeout=20)
        assert len(table(live, night).hands) == 1
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text="Dieter").first.click()
        page.locator("#won-group label", has_text="gewonnen").first.click()
        said = _preview(page)
        assert "anderes Handy" not in said and "inzwischen" not in said, said
        units = {line.split("\t")[0]: line.split("\t")[1] for line in said.splitlines() if line.count("\t") == 2}
        assert units == {p: "+0" if p == "Clara" else "+18" if p == "Dieter" else "-6" for p in roster_names()}, said
        assert len(table(live, night).hands) == 1  # nothing saved by the preview
    finally:
        app.wsgi_app = inner
