"""A guest's hands waiting on the phone when a member signs in on it (docs/rules.md, "The outbox's reasons"), in
Chromium: they were hidden from the member and never sent, lost to the club. The member is at the same table: the
night's table page lists them as the member's, says so, and sends them under the member's account; in a tab the
guest left open the notice says where they go now."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_outbox import save_offline, table
from tests.browser.test_outbox_seams import _back_online
from tests.browser.test_session_gone_outbox import _code, _guest, _notice
from tests.support import wait_sent

pytestmark = pytest.mark.browser


def test_a_guests_hands_are_sent_under_the_member_who_signs_in_on_the_phone(browser, sign_in, live, matzlfangen_night):
    base, _ = live
    night = matzlfangen_night
    phone = _guest(browser, base, night, _code(live, night))
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"))
        phone.context.clear_cookies()  # the guest session is gone; a member signs in on this phone
        _back_online(phone)
        phone.goto(f"{base}/login")  # the sign-in page says they wait, and where they go
        expect(phone.locator("#outbox-waiting")).to_contain_text(
            "Von einem Gast an einem Tisch auf diesem Handy gespeichert, noch nicht gesendet: 2."
        )
        sign_in(phone)
        phone.goto(f"{base}/nights/{night}")
        assert phone.evaluate("document.documentElement.dataset.account").startswith("user:")
        wait_sent(phone, night, timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [1, 2]  # sent once each, in order
        expect(phone.locator("#outbox")).to_be_hidden()
    finally:
        phone.context.close()


def test_the_member_sees_the_guests_hands_as_saved_by_a_guest(browser, sign_in, live, matzlfangen_night):
    """Listed while they wait (here: the server failing on the outbox's posts), the member's page says whose they
    were and where they go."""
    base, app = live
    night = matzlfangen_night
    phone = _guest(browser, base, night, _code(live, night))
    inner = app.wsgi_app
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Clara",))
        phone.context.clear_cookies()
        app.wsgi_app = _down_for_scripts(inner)
        _back_online(phone)
        sign_in(phone)
        phone.goto(f"{base}/nights/{night}")
        expect(phone.locator("#outbox li.queued")).to_have_count(1, timeout=15_000)
        expect(phone.locator("#outbox li.queued .state")).to_contain_text(
            "Von einem Gast an diesem Tisch auf diesem Handy gespeichert: es wird unter deinem Konto gesendet. Wartet"
        )  # its state a sentence of its own after the note
        assert table(live, night).hands == []
    finally:
        app.wsgi_app = inner
        phone.context.close()


def _down_for_scripts(inner, down=(True,)):
    """The app behind a proxy that answers the outbox's hand form 502 while ``down[0]``."""

    def answer(environ, start_response):
        if down[0] and environ.get("HTTP_SEC_FETCH_MODE") != "navigate" and environ["PATH_INFO"].endswith("/new"):
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"502 Bad Gateway"]
        return inner(environ, start_response)

    return answer


def test_the_guests_tab_says_a_members_account_now_sends_its_hands(browser, live, matzlfangen_night):
    """One phone, two tabs: the guest's table page with a hand waiting (the server failing on the outbox's posts),
    a member signs in in the other tab. The guest's tab said "join the table again", which would not help: it says
    that a member's account is signed in now, whose table page sends them; its link there sends them."""
    from scorekeeper.core import accounts
    from scorekeeper.core import db as database

    base, app = live
    night = matzlfangen_night
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_user(db=db, name="Resi", password="auch-richtig-geheim", role="scorer")
    phone = _guest(browser, base, night, _code(live, night))
    inner, down = app.wsgi_app, [True]  # the outbox can't reach the server till Resi is signed in

    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Dieter",))
        app.wsgi_app = _down_for_scripts(inner, down)
        _back_online(phone)
        other = phone.context.new_page()
        other.goto(f"{base}/login")
        other.fill("#name", "Resi")
        other.fill("#password", "auch-richtig-geheim")
        other.click("main button[type=submit]")
        other.wait_for_url(f"{base}/nights/")
        other.close()
        down[0] = False
        phone.bring_to_front()
        said = _notice(phone)
        assert "Auf diesem Handy ist jetzt ein Mitgliedskonto angemeldet." in said, said
        assert "unter diesem Konto gesendet, wenn es dort Spiele eintragen darf" in said, said
        phone.locator("#session-gone a").click()
        wait_sent(phone, night, timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [4]
    finally:
        app.wsgi_app = inner
        phone.context.close()


def test_a_viewer_who_signs_in_on_the_phone_leaves_the_guests_hands_to_the_guest(browser, live, matzlfangen_night):
    """A viewer may not record: signed in on the guest's phone, the night's page took the guest's hands as the
    viewer's, marked them "forbidden", and they could never be sent, not even by the guest joining again. They stay
    the guest's: the guest who joins the table again sends them."""
    from scorekeeper.core import accounts
    from scorekeeper.core import db as database
    from tests.browser.tournament_steps import join_table

    base, app = live
    night = matzlfangen_night
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_user(db=db, name="Vroni", password="nur-zuschauen-bitte", role="viewer")
    code = _code(live, night)
    phone = _guest(browser, base, night, code)
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Clara",))
        phone.context.clear_cookies()
        _back_online(phone)
        phone.goto(f"{base}/login")
        phone.fill("#name", "Vroni")
        phone.fill("#password", "nur-zuschauen-bitte")
        phone.click("main button[type=submit]")
        phone.wait_for_url(f"{base}/nights/")
        phone.goto(f"{base}/nights/{night}")
        phone.wait_for_load_state("load")
        phone.wait_for_timeout(1_000)  # the outbox's script has read the store and sent what it would send
        kept = phone.evaluate("self.skOutbox.all().then(hs => hs.map(h => [h.account, !!h.conflict]))")
        assert len(kept) == 1 and kept[0][0].startswith("guest:") and not kept[0][1], kept  # the guest's still
        assert table(live, night).hands == []
        phone.context.clear_cookies()  # the viewer leaves; the guest joins the table again
        join_table(phone, base, night, code)
        wait_sent(phone, night, timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [3]
    finally:
        phone.context.close()


def test_signing_out_from_any_page_asks_about_the_guests_hands_the_member_would_leave(
    browser, sign_in, live, matzlfangen_night
):
    """A member signed in on the guest's phone signs out without having opened the night's page: the dialog asked
    about the member's own hands only, so the guest's went unasked, left on the phone for nobody in particular. It
    asks about them too ("Send now" sends them under the member's account, as the night's page would)."""
    base, _ = live
    night = matzlfangen_night
    phone = _guest(browser, base, night, _code(live, night))
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"))
        phone.context.clear_cookies()  # the guest session is gone; a member signs in on this phone
        _back_online(phone)
        sign_in(phone)
        phone.goto(f"{base}/players/")  # never the night's page
        phone.locator("details.menu > summary").click()
        phone.locator("details.menu button", has_text="Abmelden").click()
        ask = phone.locator("#signout-ask")
        expect(ask).to_be_visible()
        expect(ask.locator("[data-text]")).to_contain_text("noch nicht beim Server: 2")
        ask.locator("button", has_text="Jetzt senden").click()
        phone.wait_for_url(f"{base}/login")
        assert [h.data["declarer"] for h in table(live, night).hands] == [1, 2]  # sent once each, in order
        assert phone.evaluate("self.skOutbox.all().then(hs => hs.length)") == 0
    finally:
        phone.context.close()
