"""The sign-out dialog's words after "Send now" left hands unsent, in Chromium at 390 x 844: it said "no connection,
or another phone recorded hands meanwhile … Try again" whatever the reason; where the hand's night was closed
meanwhile (the refusal's code ``closed``), trying again can never send it. It says the reason."""

from __future__ import annotations

import pytest

from tests.browser.outbox_phone import close
from tests.browser.test_outbox import save_offline
from tests.browser.test_signout import sign_out_from_the_menu
from tests.support import wait_until

pytestmark = pytest.mark.browser

LEFT = "() => document.querySelector('#signout-ask p').textContent.startsWith('Nicht gesendet: 1')"


def test_send_now_at_sign_out_says_the_hands_night_was_closed(page, live, matzlfangen_night):
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Clara"])
    close(app, night)  # another phone
    page.context.set_offline(False)
    page.goto(f"{base}/players/")
    sign_out_from_the_menu(page)
    ask = page.locator("#signout-ask")
    ask.locator("button", has_text="Jetzt senden").click()
    wait_until(page, LEFT)
    said = ask.locator("p[data-text]").inner_text()
    assert "geschlossen" in said, said
    assert "keine Verbindung" not in said, said


def test_send_now_at_sign_out_without_a_connection_says_so(page, live, matzlfangen_night):
    base, _ = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Clara"])  # and still offline
    sign_out_from_the_menu(page)
    ask = page.locator("#signout-ask")
    ask.locator("button", has_text="Jetzt senden").click()
    wait_until(page, LEFT)
    said = ask.locator("p[data-text]").inner_text()
    assert "keine Verbindung" in said and "geschlossen" not in said, said
