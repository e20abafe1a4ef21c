"""A guest's hands saved on the phone while another phone closed its club night, in Chromium at 390 x 844: the closing
spent the guest's code, so no hand of this phone's guest is recorded at that night again (reopened, it has a new
code). They waited as "closed … sent if the night is reopened", asked again at every sending, and once the table
page was left they were on no page at all: kept on the phone for nobody. They now say that the night was closed on
another phone and they can no longer be recorded at it; they stay to be read until the guest discards them, on the
table page and on the night's page opened again (its refusal)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.outbox_phone import close, guest_phone, join_code
from tests.browser.test_outbox import save_offline, table
from tests.browser.test_outbox_seams import _back_online
from tests.support import wait_until

pytestmark = pytest.mark.browser

STATES = "() => self.skOutbox.all().then(hs => hs.map(h => h.conflict))"


@pytest.mark.parametrize(
    ("locale", "said", "kept", "notice", "leaving"),
    [
        (
            "de-DE",
            "Dieser Abend wurde auf einem anderen Handy abgeschlossen: dieses Spiel kann dort nicht mehr eingetragen"
            " werden.",
            "Nicht eingetragen, zum Nachlesen auf diesem Handy behalten: 2.",
            "Nicht gesendet: 2. An diesem Abend können sie nicht mehr eingetragen werden",
            "Der Abend dieser Spiele wurde auf einem anderen Handy abgeschlossen; dort können sie nicht mehr",
        ),
        (
            "en-GB",
            "This night was closed on another phone: this hand can no longer be recorded at it.",
            "Not recorded, kept on this phone to read: 2.",
            "Not sent: 2: they can no longer be recorded at this night",
            "their night was closed on another phone, and they can no longer be recorded at it.",
        ),
    ],
)
def test_a_guests_hands_whose_night_another_phone_closed_say_so_and_are_kept_to_read(
    browser, live, matzlfangen_night, locale, said, kept, notice, leaving
):
    base, app = live
    night = matzlfangen_night
    phone = guest_phone(browser, base, night, join_code(app, night), locale=locale, timeout=20_000)
    won = "gewonnen" if locale == "de-DE" else "won"
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"), won)
        close(app, night)  # another phone closes the night: the guest's code is spent
        _back_online(phone)
        wait_until(phone, f"() => ({STATES})().then(s => s.length === 2 && s.every(c => c === 'ended'))", timeout=20)
        items = phone.locator("#outbox li.queued")
        expect(items).to_have_count(2)
        expect(items.first.locator(".state")).to_contain_text(said)
        assert "reopened" not in items.first.inner_text() and "wieder geöffnet" not in items.first.inner_text()
        expect(items.first.locator("button[data-action=discard]")).to_be_visible()
        expect(items.first.locator("button[data-action=add]")).to_have_count(0)
        expect(phone.locator("#session-gone")).to_contain_text(notice)  # the table page's polling found it closed
        phone.locator("main button.signout").click()  # leaving the table: nothing to send, said so
        ask = phone.locator("#signout-ask")
        expect(ask.locator("[data-text]")).to_contain_text(leaving)
        expect(ask.locator("[data-send]")).to_be_hidden()  # nothing to send
        ask.locator("[data-cancel]").click()  # kept, to read
        phone.goto(f"{base}/nights/{night}")  # the night's page again: its refusal, with the hands to read
        box = phone.locator("#night-ended")
        expect(box).to_be_visible()
        expect(box).to_contain_text(kept)
        expect(box.locator("li")).to_have_count(2)
        expect(box.locator("li").first).to_contain_text("Durch")
        phone.wait_for_timeout(2_500)  # never sent again (nothing asked of the night's form)
        assert phone.evaluate(STATES) == ["ended", "ended"] and table(live, night).hands == []
        phone.once("dialog", lambda d: d.accept())
        box.locator("button").click()
        expect(box).to_be_hidden()
        assert phone.evaluate("self.skOutbox.all().then(hs => hs.length)") == 0
    finally:
        phone.context.close()
