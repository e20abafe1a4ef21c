"""What a phone at the table is told, in Chromium, found by an attack with real browsers:

- a guest's table page whose night another phone closed said "Join the table again" (which cannot work: the night
  is closed), or, for a guest still at another night, nothing at all while its polling went on; it now says the
  night was closed, leads where the error page of it leads, and offers nothing of the night any more;
- the sign-in page did not say that hands saved on the phone wait for a member's account (its session ended
  elsewhere): the table's outbox said so only after signing in;
- the outbox recognised "other players play this hand" by the sentence in the page's language: an answer in another
  language (the language switched in another tab) was taken for a hand to add as the next one; now by the server's
  code (the Scorekeeper-Refusal header). A hand refused as the night closed between the outbox's fetching the form
  and its post was "recorded meanwhile by another phone", with "Add as the next hand"; and a refused hand's stored
  reason, in the language it came in, is marked with that language once the page is in another."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core.models import Night, Player
from scorekeeper.core.nights import close_night, reopen_night
from tests.browser.conftest import ADMIN, PHONE
from tests.browser.test_outbox import enter_durch, five, queued, table  # noqa: F401 (five: a fixture)
from tests.browser.tournament_steps import join_table
from tests.support import start_night, wait_sent, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


def _code(app, night: int) -> str:
    with database.session(app.extensions["sk_engine"]) as db:
        return db.get(Night, night).join_code


def _guest(browser, base: str, night: int, code: str, locale: str = "de-DE"):
    phone = browser.new_context(viewport=PHONE, locale=locale).new_page()
    phone.set_default_timeout(20_000)
    join_table(phone, base, night, code)
    return phone


def _close(app, night: int) -> None:
    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night)  # a member's phone


def _notice(page) -> str:
    notice = page.locator("#session-gone")
    notice.wait_for(state="visible", timeout=10_000)
    return notice.inner_text()


# --- 1. a guest's night closed by another phone --------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "said", "link"),
    [
        ("de-DE", "Dieser Abend wurde auf einem anderen Handy abgeschlossen", "Mit Code einem Abend beitreten"),
        ("en-GB", "This night was closed on another phone", "Join a night with its code"),
    ],
)
def test_a_guests_table_whose_night_was_closed_says_so_not_join_again(browser, live, night, locale, said, link):
    base, app = live
    phone = _guest(browser, base, night, _code(app, night), locale)
    try:
        assert phone.locator("#record").is_visible()
        _close(app, night)
        text = _notice(phone)
        assert said in text, text
        assert "wieder beitreten" not in text and "Join the table again" not in text, text
        way = phone.locator("#session-gone a")
        assert (way.inner_text(), way.get_attribute("href")) == (link, "/join")
        assert phone.locator("#record").is_hidden()  # nothing of the night is offered any more
        asked: list[str] = []
        phone.on("request", lambda r: asked.append(r.url) if r.url.endswith("/live") else None)
        phone.wait_for_timeout(2_500)  # it polls every second here: no more once it knows
        assert asked == []
    finally:
        phone.context.close()


def test_a_guest_still_at_another_night_is_told_and_led_back_to_that_table(browser, live, night):
    """Its polling got a 409 it did not understand (the answer was still the guest's), and went on without a word."""
    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        other = start_night(db, list(db.exec(select(Player).order_by(Player.id)))).id
    phone = _guest(browser, base, other, _code(app, other))
    try:
        join_table(phone, base, night, _code(app, night))
        _close(app, night)
        text = _notice(phone)
        assert "Dieser Abend wurde auf einem anderen Handy abgeschlossen" in text, text
        way = phone.locator("#session-gone a")
        assert (way.inner_text(), way.get_attribute("href")) == ("Zurück zum Tisch", f"/nights/{other}")
    finally:
        phone.context.close()


def test_a_guests_table_whose_night_got_a_new_code_says_why(browser, live, night):
    base, app = live
    phone = _guest(browser, base, night, _code(app, night), "en-GB")
    try:
        with database.session(app.extensions["sk_engine"], write=True) as db:
            close_night(db=db, night_id=night)
            reopen_night(db=db, night_id=night, reason="Versehen")
        text = _notice(phone)
        assert "This night was reopened or got a new code since you joined it" in text, text
        assert "ask at the table for the new code (a member's phone shows it" in text, text  # the guest's has none
        assert phone.locator("#session-gone a").get_attribute("href") == "/join"
    finally:
        phone.context.close()


# --- 2. the sign-in page says that hands wait for a member's account -----------------------------------------


def _keep(page, night: int, account: str) -> None:
    """A hand kept in the phone's outbox for ``account`` (as the hand form keeps one saved without a connection)."""
    page.evaluate(
        """([night, account]) => self.skOutbox.keep({key: self.skOutbox.newKey(), night: String(night), account,
           expected: 0, fields: [["contract", "durch"], ["declarer", "1"], ["won", "1"]], entered: null,
           summary: "Durch", at: Date.now(), conflict: "", why: ""})""",
        [night, account],
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "Noch nicht gesendet: 2, auf diesem Handy für das Konto aufbewahrt, das sie gespeichert hat."),
        ("en", "Not yet sent: 2, kept on this phone for the account that saved them."),
    ],
)
def test_the_sign_in_page_says_hands_wait_for_the_account_whose_session_ended(page, live, night, lang, said):
    base, app = live
    page.goto(f"{base}/nights/{night}")
    account = page.evaluate("document.documentElement.dataset.account")
    for _ in range(2):
        _keep(page, night, account)
    _keep(page, night, "guest:someone")  # a guest's: it waits for joining the table again, not for an account
    with database.session(app.extensions["sk_engine"], write=True) as db:  # signed out on another device
        accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name=ADMIN).id)
    page.goto(f"{base}/nights/{night}?lang={lang}")
    page.wait_for_url(lambda url: "/login" in url)
    notice = page.locator("#outbox-waiting")
    expect(notice).to_be_visible()
    assert said in notice.inner_text(), notice.inner_text()


def test_the_sign_in_page_of_a_phone_without_waiting_hands_says_nothing(browser, live):
    base, _ = live
    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    try:
        phone.goto(f"{base}/login")
        wait_until(phone, "() => self.skOutbox && self.skOutbox.all().then(() => true)")
        phone.wait_for_timeout(300)
        assert phone.locator("#outbox-waiting").is_hidden()
    finally:
        phone.context.close()


# --- 3. the outbox decides by the server's code, never its words ---------------------------------------------


def test_a_hand_others_would_play_is_known_by_its_code_in_whatever_language_the_answer_is(
    browser,
    page,
    live,
    five,  # noqa: F811 (the fixture imported above)
    sign_in,
):
    """The German page's outbox sends while the phone's language is English (switched in another tab): the server's
    refusal is in English. The German sentence was not found in it: "Add as the next hand" was offered."""
    from tests.browser.test_outbox import enter_sauspiel

    base, _ = live
    other = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    try:
        sign_in(other)
        for phone in (page, other):
            phone.goto(f"{base}/nights/{five}/hands/new")
            phone.context.set_offline(True)
        enter_sauspiel(page, "Bernd", "Clara")
        enter_sauspiel(other, "Dieter", "Eva")
        assert len(queued(page)) == 1 and len(queued(other)) == 1
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        wait_sent(page, five, timeout=20)
        other.context.add_cookies([{"name": "lang", "value": "en", "url": base}])  # English, in another tab
        other.context.set_offline(False)
        other.evaluate("window.dispatchEvent(new Event('online'))")
        conflict = other.locator("#outbox li.conflict")
        conflict.wait_for(timeout=20_000)
        said = conflict.inner_text()
        assert "Dieses Spiel spielen andere Spieler, oder ein anderer sagt an: trag es neu ein." in said, said
        assert conflict.locator("button", has_text="Als nächstes Spiel anhängen").count() == 0  # discard only
    finally:
        other.context.close()
    assert [(h.data["declarer"], h.data["partner"]) for h in table(live, five).hands] == [(1, 2)]


def test_a_hand_posted_as_its_night_closed_waits_as_closed_not_as_recorded_meanwhile(page, live, night):
    base, app = live
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    enter_durch(page, "Clara")
    assert len(queued(page)) == 1

    inner, posted = app.wsgi_app, []

    def close_first(environ, start_response):  # the night closed on another phone between the form and the post
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"] == f"/nights/{night}/hands/new":
            if not posted:
                _close(app, night)
            posted.append(environ.get("HTTP_SEC_FETCH_DEST"))
        return inner(environ, start_response)

    app.wsgi_app = close_first
    try:
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        conflict = page.locator("#outbox li.conflict")
        conflict.wait_for(timeout=20_000)
    finally:
        app.wsgi_app = inner
    said = conflict.inner_text()
    assert "Dieser Abend nimmt keine Spiele mehr an" in said, (said, posted)
    assert "Dieser Abend ist abgeschlossen: kein Spiel kann eingetragen" in said, said  # the server's reason
    assert "Ein anderes Handy hat inzwischen ein Spiel mit dieser Nummer eingetragen" not in said, said
    assert conflict.locator("button", has_text="Als nächstes Spiel anhängen").count() == 0
    assert table(live, night).hands == []


def test_a_refused_hands_reason_keeps_its_language_and_says_which_once_the_page_is_in_another(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}?lang=en")
    account = page.evaluate("document.documentElement.dataset.account")
    page.evaluate(  # a Durch without its declarer: the server refuses it (400), in English
        """([night, account]) => self.skOutbox.keep({key: self.skOutbox.newKey(), night: String(night), account,
           expected: 0, fields: [["contract", "durch"], ["won", "1"]], entered: null, summary: "Durch",
           at: Date.now(), conflict: "", why: ""})""",
        [night, account],
    )
    page.goto(f"{base}/nights/{night}?lang=en")
    reason = page.locator("#outbox li.conflict .state .reason")
    reason.wait_for(timeout=20_000)
    assert reason.get_attribute("lang") is None  # the page's language: nothing to mark
    english = reason.inner_text()
    page.goto(f"{base}/nights/{night}?lang=de")
    state = page.locator("#outbox li.conflict .state")
    state.wait_for(timeout=20_000)
    assert state.inner_text().startswith("Der Server hat dieses Spiel abgelehnt"), state.inner_text()
    reason = state.locator(".reason")
    assert (reason.inner_text(), reason.get_attribute("lang")) == (english, "en")
