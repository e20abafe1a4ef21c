"""The table page's polling finds the session gone (signed out on another device, or another account signed in
on this phone): it says so in the page's language, with a link to sign in, instead of putting the answer it got
(the sign-in page) into the table. The table's last state stays, and the polling stops."""

from __future__ import annotations

import pytest

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from tests.browser.conftest import ADMIN, PHONE

pytestmark = pytest.mark.browser

OTHER, OTHER_PASSWORD = "Resi", "auch-richtig-geheim"


def _open_table(browser, sign_in, base: str, night: int, lang: str):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page)
    page.goto(f"{base}/nights/{night}?lang={lang}")
    assert page.locator("#live #balance").count() == 1
    assert page.locator("#session-gone").is_hidden()
    return page


def _asked(page) -> list[str]:
    """Each live part the page asks for from now on."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/live") else None)
    return asked


def _says_the_session_is_gone(page, base: str, night: int, text: str, link: str) -> None:
    notice = page.locator("#session-gone")
    notice.wait_for(state="visible", timeout=5_000)
    assert text in notice.inner_text()
    assert page.locator("#live form, #live #password, #live header").count() == 0  # no page inside the page
    assert page.locator("#live #balance").count() == 1  # the table as it was last seen
    sign_in = notice.get_by_role("link", name=link)
    assert sign_in.get_attribute("href") == f"/login?next=/nights/{night}"
    assert sign_in.bounding_box()["height"] >= 44


def test_signed_out_on_another_device_the_table_says_so_with_a_link_to_sign_in(
    browser, sign_in, live, night_with_a_hand
):
    base, app = live
    night = night_with_a_hand
    page = _open_table(browser, sign_in, base, night, "de")
    with database.session(app.extensions["sk_engine"], write=True) as db:  # "sign out everywhere" on the laptop
        accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name=ADMIN).id)
    _says_the_session_is_gone(page, base, night, "Du bist auf diesem Handy nicht mehr angemeldet", "Wieder anmelden")
    asked = _asked(page)
    page.wait_for_timeout(2_500)  # it polls every second here: no more once it knows
    assert asked == []
    page.locator("#session-gone a").click()
    page.wait_for_url(lambda url: url.startswith(f"{base}/login?next="))
    page.context.close()


def test_another_account_signed_in_on_this_phone_the_table_says_so_in_english(
    browser, sign_in, live, night_with_a_hand
):
    base, app = live
    night = night_with_a_hand
    with database.session(app.extensions["sk_engine"], write=True) as db:
        accounts.create_user(db=db, name=OTHER, password=OTHER_PASSWORD, role="viewer")
    page = _open_table(browser, sign_in, base, night, "en")
    other = page.context.new_page()  # another tab of the same browser: its cookie is the table page's now
    other.goto(f"{base}/login")
    other.fill("#name", OTHER)
    other.fill("#password", OTHER_PASSWORD)
    other.click("main button[type=submit]")
    other.wait_for_url(f"{base}/nights/")
    _says_the_session_is_gone(page, base, night, "Another account is signed in on this phone now.", "Sign in again")
    page.context.close()
