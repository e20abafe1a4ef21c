"""The table page whose session is gone with hands waiting on the phone (seams 2 to 5), in Chromium: the notice says
what the hands wait for in the words of its link (a member signs in again; another account signed in now: the one
that saved them; a guest joins the table again), a guest who joined the same table again with a new guest session
sends the hands the earlier one saved (so does a member signed in on the phone: test_guest_hands_member.py), and
at 360 x 640 the notice and the outbox (a summary line with the count, which never stands on a line by itself)
leave the table on the first screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core.models import Night
from tests.browser.conftest import ADMIN, PHONE
from tests.browser.test_outbox import enter_durch, save_offline, table
from tests.browser.test_outbox_seams import _back_online
from tests.browser.tournament_steps import join_table
from tests.support import wait_sent, wait_until, worker_ready

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
#: whether the phone keeps one hand for the account ``a`` (the outbox's store, static/outbox-store.js)
KEPT_FOR = """(a) => new Promise((done) => {
  const q = indexedDB.open("scorekeeper", 1);
  q.onupgradeneeded = () => q.result.createObjectStore("outbox", { keyPath: "key" });
  q.onsuccess = () => {
    const all = q.result.transaction("outbox").objectStore("outbox").getAll();
    all.onsuccess = () => { q.result.close(); done(all.result.filter((h) => h.account === a).length === 1); };
  };
})"""


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


def _code(live, night: int) -> str:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return db.get(Night, night).join_code


def _offline_with_hands(page, base: str, night: int, declarers: tuple[str, ...], won: str = "gewonnen") -> None:
    """The table page opened, then a Durch won (``won``: the page's word) saved offline for each of ``declarers``."""
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, declarers, won)


def _guest(browser, base: str, night: int, code: str, size=PHONE, locale="de-DE"):
    phone = browser.new_context(viewport=size, locale=locale).new_page()
    phone.set_default_timeout(20_000)  # a guest's phone signs in, joins, goes offline and back: slow on a busy machine
    join_table(phone, base, night, code)
    return phone


def _count_line(page) -> tuple[float, float]:
    """Where the outbox title's last word and its count "(3)" stand: the top of each's last line box."""
    return page.evaluate(
        """() => {
        const title = document.querySelector("#outbox [data-title]").firstChild;
        const word = document.createRange();
        word.setStart(title, title.textContent.trimEnd().lastIndexOf(" ") + 1);
        word.setEnd(title, title.textContent.trimEnd().length);
        const count = document.querySelector("#outbox [data-count]").getClientRects();
        const rects = word.getClientRects();
        return [rects[rects.length - 1].top, count[count.length - 1].top];
        }"""
    )


def _notice(page) -> str:
    notice = page.locator("#session-gone")
    notice.wait_for(state="visible", timeout=10_000)
    return notice.inner_text()


# --- 2. another account signed in on this phone ---------------------------------------------------------------


def test_another_account_signed_in_the_notice_says_the_hands_wait_for_the_account_that_saved_them(page, live, night):
    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_user(db=db, name="Resi", password="auch-richtig-geheim", role="scorer")
    _offline_with_hands(page, base, night, ("Clara",))
    inner, down = app.wsgi_app, [True]

    def down_for_scripts(environ, start_response):  # the outbox can't reach the server till Resi is signed in
        if down[0] and environ.get("HTTP_SEC_FETCH_MODE") != "navigate" and environ["PATH_INFO"].endswith("/new"):
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"502 Bad Gateway"]
        return inner(environ, start_response)

    app.wsgi_app = down_for_scripts
    try:
        _back_online(page)
        other = page.context.new_page()  # another tab of the same phone: Resi signs in there
        other.goto(f"{base}/login")
        other.fill("#name", "Resi")
        other.fill("#password", "auch-richtig-geheim")
        other.click("main button[type=submit]")
        other.wait_for_url(f"{base}/nights/")
        down[0] = False
        page.bring_to_front()  # back to the table's tab (a hidden page does not poll)
        said = _notice(page)
    finally:
        app.wsgi_app = inner
    assert "Auf diesem Handy ist jetzt ein anderes Konto angemeldet." in said, said
    assert "Noch nicht gesendet: 1, auf diesem Handy für das Konto aufbewahrt, das sie gespeichert hat" in said, said
    assert "sobald du wieder angemeldet bist" not in said, said  # not true of whoever holds the phone now
    page.evaluate("window.dispatchEvent(new Event('online'))")  # the outbox tries again now (not in 8 s)
    expect(page.locator("#outbox [data-title]")).to_have_text("Wartet auf das Konto, das sie gespeichert hat")
    word, count = _count_line(page)  # a title of two lines: it wraps between words, the count stays with the last
    assert abs(word - count) < 2, (word, count)
    expect(page.locator("#outbox li.queued .state")).to_have_text(
        "wartet, bis sich das Konto, das es gespeichert hat, auf diesem Handy wieder anmeldet"
    )
    assert table(live, night).hands == []  # never under Resi's session


# --- 3. a guest whose session is gone joins the same table again ------------------------------------------------


def test_a_guest_who_joins_the_table_again_with_a_new_session_sends_the_hands_saved_before(browser, live, night):
    base, _ = live
    phone = _guest(browser, base, night, _code(live, night))
    try:
        _offline_with_hands(phone, base, night, ("Anna", "Bernd"))
        before = phone.evaluate("document.documentElement.dataset.account")
        phone.context.clear_cookies()  # the guest session is gone (its cookie lost): the table is joined anew
        _back_online(phone)
        # (a member signed in on this phone meanwhile would send them: tests/browser/test_guest_hands_member.py)
        join_table(phone, base, night, _code(live, night))  # the same table, a new guest session
        assert phone.evaluate("document.documentElement.dataset.account") not in (before, "-")
        wait_sent(phone, night, timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [1, 2]  # sent once each, in order
    finally:
        phone.context.close()


# --- 4. a guest's notice says what its link does -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "lang", "won", "say", "waits", "link", "state"),
    [
        (
            "de-DE",
            "de",
            "gewonnen",
            # why, by the polling's code (a new code since another guest left), not only that the guest is out
            "Dieser Abend wurde wieder geöffnet oder hat seit deinem Beitritt einen neuen Code",
            "Noch nicht gesendet: 1, auf diesem Handy aufbewahrt, bis du dem Tisch wieder beitrittst.",
            "Dem Tisch wieder beitreten",
            "wartet, bis du dem Tisch wieder beitrittst",
        ),
        (
            "en-GB",
            "en",
            "won",
            "This night was reopened or got a new code since you joined it",
            "Not yet sent: 1, kept on this phone until you join the table again.",
            "Join the table again",
            "waiting until you join the table again",
        ),
    ],
)
def test_a_guests_notice_says_the_hands_go_once_the_table_is_joined_again(
    browser, live, night, locale, lang, won, say, waits, link, state
):
    base, app = live
    code = _code(live, night)
    phone = _guest(browser, base, night, code, locale=locale)
    try:
        phone.goto(f"{base}/nights/{night}?lang={lang}")
        _offline_with_hands(phone, base, night, ("Anna",), won)
        with database.session(app.extensions["sk_engine"], write=True) as db:  # another guest left: a new code
            accounts.end_guest(db=db, night_id=night, code=code)
        _back_online(phone)
        said = _notice(phone)
        assert say in said and waits in said, said
        assert "angemeldet" not in said and "signed in" not in said, said
        assert phone.locator("#session-gone a").inner_text() == link
        expect(phone.locator("#outbox li.queued .state")).to_have_text(state)
        word, count = _count_line(phone)
        assert abs(word - count) < 2, (phone.locator("#outbox summary").inner_text(), word, count)
    finally:
        phone.context.close()


# --- 5. at 360 x 640 the table starts on the first screen --------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_at_360_the_notice_and_the_outbox_leave_the_table_on_the_first_screen(browser, sign_in, live, night, lang):
    base, app = live
    context = browser.new_context(viewport=SMALL, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page)
        page.goto(f"{base}/nights/{night}?lang={lang}")
        _offline_with_hands(page, base, night, ("Anna", "Bernd", "Clara"), "gewonnen" if lang == "de" else "won")
        with database.session(app.extensions["sk_engine"], write=True) as db:  # signed out on another device
            accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name=ADMIN).id)
        _back_online(page)
        _notice(page)
        summary = page.locator("#outbox summary")
        assert summary.inner_text().strip().endswith("(3)")  # one line: what they wait for, and how many
        assert page.locator("#outbox li.queued").first.is_hidden()  # collapsed
        assert summary.bounding_box()["height"] < 64
        word, count = _count_line(page)
        assert abs(word - count) < 2, (summary.inner_text(), word, count)  # the count stays with the word before it
        assert page.locator("#session-gone").bounding_box()["height"] < 160
        balance = page.locator("#balance").bounding_box()
        assert balance["y"] + 40 < SMALL["height"], balance  # the table starts on the first screen
        summary.click()  # and opens with a tap
        expect(page.locator("#outbox li.queued")).to_have_count(3)
        assert page.locator("#outbox li.queued").first.is_visible()
    finally:
        context.close()


def test_a_hand_saved_on_the_form_after_the_session_ended_elsewhere_waits_for_the_member(page, sign_in, live, night):
    """A member fills in the hand form at the table while signing out on another phone; Save got the server's 401
    page and the hand was lost (nothing kept on the phone). It is kept in the outbox, for that account, and sent
    once the member is signed in again."""
    base, app = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}/hands/new")
    with database.session(app.extensions["sk_engine"], write=True) as db:  # signed out on another device
        accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name=ADMIN).id)
    account = page.evaluate("document.documentElement.dataset.account")
    enter_durch(page, "Clara")
    page.wait_for_load_state()
    wait_until(page, KEPT_FOR, account)  # on the sign-in page the table page led to
    assert table(live, night).hands == []
    sign_in(page)  # the member again, on this phone
    page.goto(f"{base}/nights/{night}")
    wait_sent(page, night, timeout=20)
    assert [h.data["declarer"] for h in table(live, night).hands] == [3]  # Clara's Durch, once
