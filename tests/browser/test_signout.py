"""Issue 22.3, in Chromium at 390 x 844: signed out means signed out on that phone too. The pages kept for
offline use are forgotten whenever the phone learns its session is gone; a hand waiting in the outbox
is its account's (never sent under another one's session), and signing out asks what to do with it; a
guest leaves the table from the table page with the same clean-up; the kept pages are one per page
(not per query string), and only so many."""

from __future__ import annotations

import time

import pytest

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core.models import Night
from scorekeeper.core.table import load_table
from tests.support import wait_sent, wait_until, worker_ready

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
KEPT_PAGES = """() => caches.keys().then(names => Promise.all(names.filter(n => n.startsWith("sk-pages"))
  .map(n => caches.open(n).then(c => c.keys()).then(keys => keys.map(k => new URL(k.url))))))
  .then(lists => [].concat(...lists).map(u => u.pathname + u.search))"""
WAITING = "() => self.skOutbox.waiting(null, document.documentElement.dataset.account).then(h => h.length)"
EVERY_HAND_ON_THE_PHONE = """() => new Promise(done => { const r = indexedDB.open("scorekeeper", 1);
  r.onsuccess = () => { const q = r.result.transaction("outbox").objectStore("outbox").getAll();
  q.onsuccess = () => done(q.result.length); }; })"""


@pytest.fixture
def night(night_with_a_hand):
    """The night, with one hand recorded."""
    return night_with_a_hand


@pytest.fixture
def unsent(live):
    """``unsent[0] = True``: the outbox cannot reach the server (its scripts' requests for the hand form
    answer 502, as a proxy does while the app is down), while the pages themselves still load."""
    _, app = live
    inner = app.wsgi_app
    down = [False]

    def app_down_for_scripts(environ, start_response):
        script = environ.get("HTTP_SEC_FETCH_MODE") not in (None, "navigate")
        if down[0] and script and environ["PATH_INFO"].endswith("/hands/new"):
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"502 Bad Gateway"]
        return inner(environ, start_response)

    app.wsgi_app = app_down_for_scripts
    yield down
    app.wsgi_app = inner


def hands(live, night) -> list[dict]:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return [h.data for h in load_table(db=db, night_id=night).hands]


def member(live, name: str, password: str = "auch-geheim-genug") -> tuple[str, str]:
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_user(db=db, name=name, password=password, role="scorer")
    return name, password


def sign_in_as(page, live, who: tuple[str, str]) -> None:
    base, _ = live
    page.goto(f"{base}/login")
    page.fill("#name", who[0])
    page.fill("#password", who[1])
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/nights/")


def kept_pages(page, until, timeout: float = 10) -> list[str]:
    """The paths of the pages the worker keeps, once ``until(paths)`` holds (asked again for ``timeout`` s)."""
    end = time.monotonic() + timeout
    while True:
        paths = page.evaluate(KEPT_PAGES)
        if until(paths) or time.monotonic() > end:
            return paths
        page.wait_for_timeout(200)


def keep_offline(page, base: str, night: int) -> None:
    """Open the night's table page and hand form through the service worker: both are kept."""
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    assert len(kept_pages(page, lambda p: len(p) == 2)) == 2


def save_offline(page, base: str, night: int, declarer: str = "Bernd") -> None:
    """A Durch saved on the hand form without a connection: it waits in the outbox."""
    page.goto(f"{base}/nights/{night}/hands/new")
    worker_ready(page)  # (the worker's own requests go offline with the page only once it runs)
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text=declarer).first.click()
        page.locator("#won-group label", has_text="gewonnen").first.click()
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_selector("#outbox:not([hidden])")
    finally:
        page.context.set_offline(False)


def sign_out_from_the_menu(page) -> None:
    if page.locator("details.menu[open]").count() == 0:
        page.locator("details.menu > summary").click()
    page.locator("details.menu button", has_text="Abmelden").click()


# --- the pages kept, after a sign-out elsewhere ---------------------------------------------------------


def test_after_a_sign_out_on_another_device_the_phone_shows_nothing_kept_offline(browser, page, live, night):
    base, _ = live
    keep_offline(page, base, night)
    laptop = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    try:
        sign_in_as(laptop, live, ("Wirt", "richtig-geheim"))
        laptop.goto(f"{base}/account")
        laptop.locator("main button", has_text="Abmelden").click()  # every session of the account ends, the phone's too
        laptop.wait_for_url(f"{base}/login")
    finally:
        laptop.context.close()
    page.goto(f"{base}/nights/{night}")  # online: the phone lands on the sign-in page
    assert page.url.startswith(f"{base}/login")
    assert kept_pages(page, lambda p: not p) == []
    page.context.set_offline(True)
    try:
        page.goto(f"{base}/nights/{night}")
        assert "Keine Verbindung" in page.locator("h1").inner_text()  # not the table of names and balances
        assert page.locator("#balance").count() == 0
        page.goto(f"{base}/nights/{night}/hands/new")
        assert page.locator("#hand-form").count() == 0
    finally:
        page.context.set_offline(False)


def test_the_table_pages_polling_that_finds_the_session_gone_forgets_the_pages(browser, page, live, night):
    base, _ = live
    keep_offline(page, base, night)
    page.goto(f"{base}/nights/{night}")  # and stays there, polling
    laptop = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    try:
        sign_in_as(laptop, live, ("Wirt", "richtig-geheim"))
        laptop.goto(f"{base}/account")
        laptop.locator("main button", has_text="Abmelden").click()
        laptop.wait_for_url(f"{base}/login")
    finally:
        laptop.context.close()
    assert kept_pages(page, lambda p: not p) == []  # the page stays where it is: its polling learnt it


# --- the outbox belongs to the account that saved the hand ----------------------------------------------


def test_a_hand_saved_by_one_member_is_never_sent_under_anothers_session(page, live, night, unsent):
    base, _ = live
    unsent[0] = True
    save_offline(page, base, night)
    page.context.clear_cookies()  # the session ends without a sign-out on the phone (it expired, say)
    unsent[0] = False
    sign_in_as(page, live, member(live, "Zweite"))
    page.goto(f"{base}/nights/{night}")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(3_000)
    assert page.locator("#outbox").is_hidden()  # not hers: not listed
    assert page.evaluate(WAITING) == 0 and page.evaluate(EVERY_HAND_ON_THE_PHONE) == 1  # nor sent: still kept
    assert len(hands(live, night)) == 1
    page.context.clear_cookies()
    sign_in_as(page, live, ("Wirt", "richtig-geheim"))  # its own account again: it is sent
    page.goto(f"{base}/nights/{night}")
    wait_sent(page, night, timeout=20)
    assert [h["declarer"] for h in hands(live, night)] == [1, 2]


def test_signing_out_with_a_hand_waiting_asks_and_discards_it_only_after_a_confirmation(page, live, night, unsent):
    base, _ = live
    keep_offline(page, base, night)
    unsent[0] = True
    save_offline(page, base, night)
    page.wait_for_url(f"{base}/nights/{night}")  # the table page kept, the hand waiting on it
    sign_out_from_the_menu(page)
    ask = page.locator("#signout-ask")
    ask.wait_for()
    assert "noch nicht beim Server: 1" in ask.inner_text()
    ask.locator("button", has_text="Abbrechen").click()  # stays signed in, the hand still waiting
    assert page.url == f"{base}/nights/{night}" and page.evaluate(WAITING) == 1
    sign_out_from_the_menu(page)
    page.once("dialog", lambda d: d.dismiss())  # not confirmed: nothing discarded
    ask.locator("button", has_text="Verwerfen").click()
    assert page.evaluate(WAITING) == 1 and ask.is_visible()
    page.once("dialog", lambda d: d.accept())
    ask.locator("button", has_text="Verwerfen").click()
    page.wait_for_url(f"{base}/login")
    assert page.evaluate(EVERY_HAND_ON_THE_PHONE) == 0
    assert page.evaluate(KEPT_PAGES) == []
    assert len(hands(live, night)) == 1  # nothing sent


def test_signing_out_with_a_hand_waiting_can_send_it_first(page, live, night, unsent):
    base, _ = live
    unsent[0] = True  # no way to the server yet
    save_offline(page, base, night, "Clara")
    page.goto(f"{base}/players/")  # another page: the sign-out sends from any
    sign_out_from_the_menu(page)
    ask = page.locator("#signout-ask")
    ask.locator("button", has_text="Jetzt senden").click()
    wait_until(page, "() => document.querySelector('#signout-ask p').textContent.startsWith('Nicht gesendet: 1')")
    assert ask.is_visible() and len(hands(live, night)) == 1  # not sent, still asked
    unsent[0] = False
    ask.locator("button", has_text="Jetzt senden").click()
    page.wait_for_url(f"{base}/login")
    assert [h["declarer"] for h in hands(live, night)] == [1, 3]  # sent, then signed out
    assert page.evaluate(EVERY_HAND_ON_THE_PHONE) == 0


# --- a guest leaves the table ---------------------------------------------------------------------------


def test_a_guest_leaves_the_table_from_the_table_page_and_the_phone_forgets_what_it_kept(browser, live, night, unsent):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        code = db.get(Night, night).join_code
    guest = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    try:
        guest.goto(f"{base}/join")
        guest.fill("#code", code)
        guest.click("main button[type=submit]")
        guest.wait_for_url(f"{base}/nights/{night}")
        keep_offline(guest, base, night)
        unsent[0] = True
        save_offline(guest, base, night, "Dieter")
        guest.wait_for_url(f"{base}/nights/{night}")
        leave = guest.locator("main button", has_text="Abmelden / Tisch verlassen")
        assert leave.is_visible()  # on the table page itself, not in the menu only
        leave.click()
        guest.locator("#signout-ask button", has_text="Jetzt senden").wait_for()
        unsent[0] = False
        guest.locator("#signout-ask button", has_text="Jetzt senden").click()
        guest.wait_for_url(f"{base}/join")
        assert "Du hast den Tisch verlassen." in guest.locator("main").inner_text()
        assert [h["declarer"] for h in hands(live, night)] == [1, 4]
        assert guest.evaluate(EVERY_HAND_ON_THE_PHONE) == 0 and guest.evaluate(KEPT_PAGES) == []
        guest.context.set_offline(True)
        guest.goto(f"{base}/nights/{night}")
        assert "Keine Verbindung" in guest.locator("h1").inner_text()
    finally:
        guest.context.close()


# --- the pages kept: one per page, and only so many ------------------------------------------------------


def test_the_worker_keeps_a_page_once_whatever_its_query_and_only_the_newest_sixteen(page, live, night, roster):
    from sqlmodel import select

    from scorekeeper.core.models import Player
    from tests.support import start_night

    base, app = live
    keep_offline(page, base, night)
    for x in range(1, 4):
        page.goto(f"{base}/nights/{night}?x={x}")
    assert sorted(kept_pages(page, lambda p: len(p) > 2, timeout=2)) == [
        f"/nights/{night}",
        f"/nights/{night}/hands/new",
    ]
    with database.session(app.extensions["sk_engine"], write=True) as db:
        players = list(db.exec(select(Player).order_by(Player.id)))[:4]
        others = [start_night(db, players).id for _ in range(8)]
    for other in others:  # 16 more pages: the first two go
        page.goto(f"{base}/nights/{other}")
        page.goto(f"{base}/nights/{other}/hands/new")
    kept = kept_pages(page, lambda p: f"/nights/{night}" not in p and f"/nights/{others[-1]}/hands/new" in p)
    assert len(kept) == 16 and f"/nights/{night}/hands/new" not in kept
    assert f"/nights/{others[-1]}/hands/new" in kept
