"""The outbox where it meets the rest of the app, in Chromium at 390 x 844: a tournament table's phone that
saved hands offline while the organiser closed and reopened the tournament, and a table page whose session
ended with hands waiting. Each hand is sent once, or stays on the phone saying why; none is lost."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange import night_file
from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night, delete_night, reopen_night
from tests.browser.conftest import ADMIN, PHONE
from tests.browser.test_outbox import enter_durch, queued, save_offline, table
from tests.browser.tournament_steps import join_table
from tests.support import PASSWORD, make_user, session_cookie, wait_sent, worker_ready

pytestmark = pytest.mark.browser

DECLARERS = ("Anna", "Bernd")


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


@pytest.fixture
def tournament_table(live, roster) -> tuple[int, int, str]:
    """A Matzlfangen tournament of one round, its one table of four (Anna, Bernd, Clara, Dieter) drawn:
    (tournament id, the table's night id, its join code). Eight deals: two hands leave the table open."""
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(db=db, name="Matzl-Cup", game="matzlfangen", rules={}, rounds=1, deals=8, seed="s")
        for player_id in roster[:4]:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player_id)
        tm.draw_round(db=db, tournament_id=t.id)
        night = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
        return t.id, night.id, night.join_code


def _table_phone_offline_with_hands(browser, base: str, night: int, code: str):
    """The table's phone joins with the table's code, opens the table and its hand form (so the service worker
    keeps both), goes offline and saves a hand for each of DECLARERS: they wait on the phone."""
    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.set_default_timeout(10_000)
    join_table(phone, base, night, code)
    for _ in range(30):  # the worker registered on the join page: a later load is its (worker_ready's polling
        if phone.evaluate("navigator.serviceWorker.controller !== null"):  # evaluates, which the policy forbids)
            break
        phone.wait_for_timeout(500)
        phone.goto(f"{base}/nights/{night}")
    save_offline(phone, base, night, DECLARERS)
    return phone


def _organiser_closes_and_reopens(app, tournament: int, night: int) -> None:
    """Meanwhile the organiser finishes the table early, closes the tournament and reopens it."""
    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night, who="admin")
        tm.close_tournament(db=db, tournament_id=tournament)
        tm.reopen_tournament(db=db, tournament_id=tournament, reason="Tisch 1 korrigieren", who="admin")


def _declarers(live, night: int) -> list[str]:
    """Who declared each hand the table has (a seat of the hand, at the table's positions as drawn)."""
    t = table(live, night)
    return [t.players[seats[h.data["declarer"] - 1]].name for h, seats in zip(t.hands, t.positions, strict=True)]


def _back_online(phone) -> None:
    phone.context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")


def _reopen_table(app, night: int) -> None:
    with database.session(app.extensions["sk_engine"], write=True) as db:
        reopen_night(db=db, night_id=night, reason="zu früh beendet", who="admin")


def _sent_once_each(phone, live, night: int) -> None:
    wait_sent(phone, night, timeout=20)
    assert _declarers(live, night) == list(DECLARERS)  # once each, in order


@pytest.fixture
def back_at_a_finished_table(browser, live, tournament_table):
    """The table's phone with two hands saved offline, back online after the organiser finished its table,
    closed the tournament and reopened it: the hands marked, still on the phone. (phone, night)"""
    base, app = live
    tournament, night, code = tournament_table
    phone = _table_phone_offline_with_hands(browser, base, night, code)
    try:
        _organiser_closes_and_reopens(app, tournament, night)
        _back_online(phone)
        expect(phone.locator("#outbox li.conflict")).to_have_count(len(DECLARERS), timeout=20_000)
        yield phone, night
    finally:
        phone.context.close()


def test_hands_saved_offline_at_a_table_the_organiser_finished_stay_on_the_phone_saying_why(
    live, back_at_a_finished_table
):
    phone, night = back_at_a_finished_table
    kept = phone.locator("#outbox li.queued")
    assert kept.count() == len(DECLARERS)  # both still on the phone, in order
    for i, name in enumerate(DECLARERS):
        assert name in kept.nth(i).locator(".what").inner_text()
    said = kept.first.locator(".state").inner_text()
    assert "Tisch" in said and "Abend" not in said, said  # a tournament's table, in the table's words
    assert "Die Turnierleitung hat diesen Tisch abgeschlossen" in said, said  # and the server's reason, a sentence
    assert table(live, night).hands == []  # nothing stored: the table is finished
    phone.reload()
    expect(phone.locator("#outbox li.conflict")).to_have_count(len(DECLARERS))  # still there after a reload


def test_hands_kept_at_a_finished_table_are_sent_once_when_the_organiser_reopens_it(live, back_at_a_finished_table):
    base, app = live
    phone, night = back_at_a_finished_table
    _reopen_table(app, night)
    phone.goto(f"{base}/nights/{night}")  # the phone opens its table again
    _sent_once_each(phone, live, night)


def test_hands_saved_offline_are_sent_once_when_the_table_is_open_again(browser, live, tournament_table):
    base, app = live
    tournament, night, code = tournament_table
    phone = _table_phone_offline_with_hands(browser, base, night, code)
    try:
        _organiser_closes_and_reopens(app, tournament, night)
        _reopen_table(app, night)  # and then the table, before the phone is back
        _back_online(phone)
        _sent_once_each(phone, live, night)
    finally:
        phone.context.close()


def test_the_session_gone_with_a_hand_waiting_keeps_it_says_so_and_sends_it_after_signing_in_again(page, live, night):
    base, app = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")  # kept by the worker
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    page.goto(f"{base}/nights/{night}/hands/new")
    enter_durch(page, "Clara")
    page.wait_for_url(f"{base}/nights/{night}")
    assert len(queued(page)) == 1
    with database.session(app.extensions["sk_engine"], write=True) as db:  # "sign out everywhere" on the laptop
        accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name=ADMIN).id)
    _back_online(page)
    notice = page.locator("#session-gone")
    notice.wait_for(state="visible", timeout=10_000)
    said = notice.inner_text()
    assert "Du bist auf diesem Handy nicht mehr angemeldet" in said
    assert "Noch nicht gesendet: 1, auf diesem Handy aufbewahrt, bis du wieder angemeldet bist." in said, said
    assert len(queued(page)) == 1  # still on the phone
    expect(page.locator("#outbox li.queued .state")).to_have_text("wartet, bis du wieder angemeldet bist")
    assert table(live, night).hands == []
    notice.get_by_role("link", name="Wieder anmelden").click()
    page.wait_for_url(lambda url: url.startswith(f"{base}/login?next="))
    page.fill("#name", ADMIN)
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/nights/{night}")
    wait_sent(page, night, timeout=20)
    hands = table(live, night).hands
    assert [h.data["declarer"] for h in hands] == [3]  # Clara's hand, once


def test_a_hand_saved_offline_for_a_night_deleted_meanwhile_does_not_wait_for_a_connection_forever(
    page, live, matzlfangen_night
):
    """The phone saves a hand offline; meanwhile an admin deletes the night (started by mistake). Back online,
    the server answers the outbox's hand form with 404, which the outbox took for a missing connection: the
    table page of a night that no longer exists kept saying "Wartet auf Verbindung (1)". The hand stays on
    the phone saying why, to be discarded by a tap, and is not sent again and again."""
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna"])
    with database.session(app.extensions["sk_engine"], write=True) as db:
        delete_night(db=db, night_id=night, reason="Versehen", export=night_file.night_json(db=db, night_id=night))
    asked = []
    page.on("request", lambda r: asked.append(r.url) if f"/nights/{night}/hands/new" in r.url else None)
    _back_online(page)
    expect(page.locator("#outbox li.conflict")).to_have_count(1, timeout=15_000)
    tries = len(asked)
    said = page.locator("#outbox").inner_text()
    assert "Verbindung" not in said, said
    assert "Diesen Abend gibt es nicht mehr" in said, said  # why, in the page's words
    assert "Anna" in page.locator("#outbox li.conflict .what").inner_text()  # the hand, still on the phone
    page.wait_for_timeout(5_000)  # longer than the outbox's first tries (2 s, 4 s) would take
    assert len(asked) == tries, asked  # not asked again: the night is gone, not the connection
    page.once("dialog", lambda d: d.accept())
    page.locator("#outbox li.conflict button", has_text="Verwerfen").click()
    expect(page.locator("#outbox")).to_be_hidden()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_hand_of_an_account_no_longer_allowed_to_record_stays_saying_why(browser, live, matzlfangen_night, lang):
    """A scorer saves a hand offline; meanwhile an admin makes the account a viewer (its sessions end). Signed
    in again, the viewer's table page shows the hand: the server refuses the hand form (403), which the
    outbox took for a missing connection. It says why, in the page's language, and waits for a tap."""
    base, app = live
    night = matzlfangen_night
    scorer = make_user(app, "Schreiber", "scorer")
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    phone = context.new_page()
    try:
        context.add_cookies([session_cookie(app, scorer, base)])
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ["Bernd"])
        with database.session(app.extensions["sk_engine"], write=True) as db:
            accounts.update_user(db=db, user_id=scorer.id, role="viewer")
            viewer = accounts.get_user(db=db, user_id=scorer.id)
        phone.goto("about:blank")  # no answer to the old session's page sets its cookie after the new one
        context.set_offline(False)
        context.clear_cookies()
        context.add_cookies([session_cookie(app, viewer, base)])  # signed in again, as a viewer now
        phone.goto(f"{base}/nights/{night}" + ("?lang=en" if lang == "en" else ""))
        expect(phone.locator("#outbox li.conflict")).to_have_count(1, timeout=15_000)
        said = phone.locator("#outbox").inner_text()
        assert "Bernd" in said
        if lang == "en":
            assert "Your account may no longer record" in said, said
        else:
            assert "Dein Konto darf" in said and "Verbindung" not in said, said
        assert table(live, night).hands == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_table_page_open_while_its_night_is_deleted_says_so_and_offers_to_record_no_more(
    page, live, matzlfangen_night, lang
):
    """A phone has the table page open; an admin deletes the night (started by mistake). The page used to
    poll on for ever and go on offering "Spiel 1 eintragen", whose form is a 404. It says the night is gone,
    with a way to the nights, hides what leads into the night (record, settlement) and stops asking."""
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}?lang={lang}")
    expect(page.locator("#record")).to_be_visible()
    with database.session(app.extensions["sk_engine"], write=True) as db:
        delete_night(db=db, night_id=night, reason="Versehen", export=night_file.night_json(db=db, night_id=night))
    said = {
        "de": "Diesen Abend gibt es nicht mehr: er wurde gelöscht.",
        "en": "This night no longer exists: it was deleted.",
    }
    expect(page.locator("#night-gone")).to_contain_text(said[lang], timeout=10_000)
    expect(page.locator("#night-gone a")).to_have_attribute("href", "/nights/")
    expect(page.locator("#record")).to_be_hidden()
    expect(page.locator("a", has_text={"de": "Zwischenabrechnung", "en": "Interim settlement"}[lang])).to_be_hidden()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/live" in r.url else None)
    page.wait_for_timeout(2_500)  # the page polls every second (the browser tests' POLL_SECONDS)
    assert asked == []


def _kept_hands(page) -> list[tuple[str, str]]:
    """The hands this account keeps on the phone, of every night: (night, key) each."""
    return page.evaluate(
        """() => self.skOutbox.waiting(null, document.documentElement.dataset.account)
                   .then((hands) => hands.map((h) => [h.night, h.key]))"""
    )


def _kept_elsewhere_and_deleted(page, app, night: int) -> None:
    """A hand kept on the phone for another night (one that stays), then ``night`` deleted by an admin."""
    page.evaluate(
        """(night) => self.skOutbox.keep({key: "qelsewhere", night: String(night), expected: 0, at: 1,
             account: document.documentElement.dataset.account, fields: [["contract", "durch"]],
             summary: "Durch", entered: null, conflict: "", why: ""})""",
        night + 1000,
    )
    with database.session(app.extensions["sk_engine"], write=True) as db:
        delete_night(db=db, night_id=night, reason="Versehen", export=night_file.night_json(db=db, night_id=night))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_hands_kept_for_a_night_deleted_meanwhile_are_discarded_where_the_page_says_it_is_gone(
    page, live, matzlfangen_night, lang
):
    """Two hands saved offline for a night an admin deletes meanwhile (on another phone). Where the table page
    says the night is gone, it says how many of its hands the phone keeps, which can never be sent, and offers
    to discard them: after a confirmation (cancelled: nothing goes), that night's hands go, and only those (a
    hand kept for another night stays). Before, they could only be discarded when signing out."""
    base, app = live
    night = matzlfangen_night
    words = {
        "de": ("Diesen Abend gibt es nicht mehr", "nie mehr zu senden: 2", "Alle verwerfen", "endgültig verwerfen"),
        "en": ("This night no longer exists", "never to be sent: 2", "Discard them all", "for good"),
    }[lang]
    page.goto(f"{base}/nights/{night}?lang={lang}")
    save_offline(page, base, night, ["Anna", "Bernd"], won={"de": "gewonnen", "en": "won"}[lang])
    _kept_elsewhere_and_deleted(page, app, night)
    _back_online(page)
    notice = page.locator("#night-gone")
    expect(notice).to_contain_text(words[0], timeout=10_000)
    expect(notice).to_contain_text(words[1])
    button = notice.get_by_role("button", name=words[2])
    asked = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    button.click()
    assert len(asked) == 1 and words[3] in asked[0] and "2" in asked[0], asked
    assert sorted(n for n, _ in _kept_hands(page)) == [str(night), str(night), str(night + 1000)]  # cancelled
    page.once("dialog", lambda d: answer(d, True))
    button.click()
    expect(page.locator("#outbox")).to_be_hidden()
    expect(button).to_have_count(0)
    expect(notice).not_to_contain_text(words[1])
    expect(notice).to_contain_text(words[0])  # the night is still said to be gone
    assert _kept_hands(page) == [[str(night + 1000), "qelsewhere"]]  # only that night's hands went


def test_hands_kept_for_a_night_deleted_meanwhile_can_be_discarded_from_its_page_opened_again(
    page, live, matzlfangen_night
):
    """The phone opens the table page of a night deleted meanwhile again (a reload, a bookmark): the server has no
    such night (404), and its hands kept on the phone were out of sight but for signing out. The page says how
    many there are and offers to discard them, that night's only, after a confirmation."""
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna", "Bernd"])
    _kept_elsewhere_and_deleted(page, app, night)
    page.context.set_offline(False)
    page.goto(f"{base}/nights/{night}")
    expect(page.locator("h1")).to_have_text("Nicht gefunden")
    kept = page.locator("#night-kept")
    expect(kept).to_contain_text("nie mehr zu senden: 2")
    expect(page.locator("main")).to_contain_text("Diesen Abend gibt es nicht.")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    kept.get_by_role("button", name="Alle verwerfen").click()
    expect(kept).to_be_hidden()
    assert len(asked) == 1 and "für diesen Abend" in asked[0] and "endgültig verwerfen" in asked[0], asked
    assert _kept_hands(page) == [[str(night + 1000), "qelsewhere"]]  # only that night's hands went
    page.goto(f"{base}/nights/{night + 2000}")  # no hands kept for it: nothing said
    expect(page.locator("h1")).to_have_text("Nicht gefunden")
    page.wait_for_timeout(500)
    expect(page.locator("#night-kept")).to_be_hidden()


def test_a_guests_hands_kept_for_a_night_deleted_meanwhile_can_be_discarded_as_a_members(
    browser, live, matzlfangen_night
):
    """A guest (a phone that joined with the night's code, no account) saves two hands offline; an admin deletes
    the night meanwhile. The guest of a night that is no more was nobody to the server: its table page said the
    session was gone ("join again"), and opened again it went to the sign-in page, the hands out of reach but
    for leaving the table. As a member's: the table page says the night is gone and offers to discard them, and
    so does the page of the night opened again (not found), that night's hands only."""
    base, app = live
    night = matzlfangen_night
    with database.session(app.extensions["sk_engine"]) as db:
        code = db.get(Night, night).join_code
    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.set_default_timeout(10_000)
    try:
        join_table(phone, base, night, code)
        save_offline(phone, base, night, ["Anna", "Bernd"])
        with database.session(app.extensions["sk_engine"], write=True) as db:
            export = night_file.night_json(db=db, night_id=night)
            delete_night(db=db, night_id=night, reason="Versehen", export=export)
        _back_online(phone)
        notice = phone.locator("#night-gone")
        expect(notice).to_contain_text("Diesen Abend gibt es nicht mehr", timeout=10_000)
        expect(notice).to_contain_text("nie mehr zu senden: 2")
        expect(phone.locator("#session-gone")).to_be_hidden()
        phone.goto(f"{base}/nights/{night}")  # opened again
        expect(phone.locator("h1")).to_have_text("Nicht gefunden")
        kept = phone.locator("#night-kept")
        expect(kept).to_contain_text("nie mehr zu senden: 2")
        phone.once("dialog", lambda d: d.accept())
        kept.get_by_role("button", name="Alle verwerfen").click()
        expect(kept).to_be_hidden()
        assert _kept_hands(phone) == []
        phone.goto(f"{base}/nights/{night}/hands/new")  # the hand form too is not found, not the sign-in page
        expect(phone.locator("h1")).to_have_text("Nicht gefunden")
    finally:
        phone.context.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_hands_kept_for_a_table_whose_round_was_drawn_again_are_named_a_tables_where_it_is_not_found(
    browser, live, tournament_table, lang
):
    """A tournament's table is never deleted on its own, but goes with its round when the organiser draws it again
    (before any table recorded a hand): its phone saved two hands offline meanwhile. Its page opened again is not
    found, and the confirmation of "Discard them all" asked about the hands "for this night": the page knows
    nothing of it but what the hands say, and they say they were saved at a tournament's table: it says "table"
    (so does the page: its round was drawn again)."""
    base, app = live
    tournament, night, code = tournament_table
    words = {
        "de": ("Nicht gefunden", "nie mehr zu senden: 2", "Alle verwerfen", "für diesen Tisch", "Abend"),
        "en": ("Not found", "never to be sent: 2", "Discard them all", "for this table", "night"),
    }[lang]
    # the page says why the table is gone (its round drawn again), in a table's words (not "There is no such night.")
    no_table = {"de": "Die Runde dieses Tisches wurde neu ausgelost", "en": "The round of this table was drawn again"}[
        lang
    ]
    phone = _table_phone_offline_with_hands(browser, base, night, code)
    try:
        with database.session(app.extensions["sk_engine"], write=True) as db:
            tm.redraw_round(db=db, tournament_id=tournament)
        phone.context.set_offline(False)
        phone.goto(f"{base}/nights/{night}?lang={lang}")
        expect(phone.locator("h1")).to_have_text(words[0])
        kept = phone.locator("#night-kept")
        expect(kept).to_contain_text(words[1])
        expect(phone.locator("main")).to_contain_text(no_table)
        asked = []
        phone.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        kept.get_by_role("button", name=words[2]).click()
        expect(kept).to_be_hidden()
        assert len(asked) == 1 and words[3] in asked[0] and words[4] not in asked[0], asked
        assert _kept_hands(phone) == []
    finally:
        phone.context.close()
