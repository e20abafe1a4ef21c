"""Browser tests: the app served on loopback, driven by Playwright in Debian's headless Chromium."""

from __future__ import annotations

import os
import shutil

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.players import create_player
from tests.support import make_user, served_app, session_cookie


def _default_chromium() -> str:
    """Debian's headless shell of Chromium where it is installed (package chromium-headless-shell), else
    its Chromium: the same Blink and V8 without the browser's windows and tabs around them, the build
    Playwright's own headless mode uses. On this machine it took 38 % off the browser tests' time
    (docs/testing.md). ``SCOREKEEPER_CHROMIUM`` names another."""
    shell = "/usr/bin/chromium-headless-shell"
    return shell if os.path.exists(shell) else "/usr/bin/chromium"


CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM") or _default_chromium()
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.browser


def _chromium_or_skip() -> str:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(
            f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium-headless-shell); CI installs it"
        )
    return CHROMIUM


@pytest.fixture(scope="module")
def browser():
    path = _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def live(tmp_path, sqlite_template, static_cache):
    """The app on a fresh SQLite database (a copy of the migrated template), served on 127.0.0.1 in a
    thread. Yields (base_url, app)."""
    with served_app(tmp_path, sqlite_template, static_cache, poll_seconds=1) as served:
        yield served


ADMIN = "Wirt"


def _sign_in(page, live) -> None:
    """Sign in as the club's admin: the session cookie a sign-in gives, made by the app itself and
    handed to the page's browser, then the nights' list opened (where the sign-in form leads).

    Not through the form: two page loads and the password's hash checked (slow on purpose) in every
    browser test, 3-18 % of their CPU time (docs/testing.md). Signing in through the form is what the
    tests of signing in do (tests/browser/test_session_gone.py, test_signout.py, test_every_page.py's
    sign-in page and the web tests of the form)."""
    from scorekeeper.core import accounts

    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        user = accounts.find_user(db=db, name=ADMIN) or make_user(app, ADMIN, "admin")
    page.context.add_cookies([session_cookie(app, user, base)])
    page.goto(f"{base}/nights/")


@pytest.fixture
def sign_in(live):
    """``sign_in(page)``: sign a page of another browser context in as the admin."""
    return lambda page: _sign_in(page, live)


@pytest.fixture
def page(browser, live):
    """A phone (390 x 844, German) signed in as the admin."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    _sign_in(page, live)
    yield page
    context.close()


@pytest.fixture
def roster(live):
    """Five players: Anna, Bernd, Clara, Dieter, Eva."""
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return [create_player(db=db, name=n).id for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva")]


@pytest.fixture
def matzlfangen_night(live, roster) -> int:
    """A Matzlfangen night of Anna, Bernd, Clara and Dieter, with no hand yet: its id."""
    from sqlmodel import select

    from scorekeeper.core.models import Player
    from tests.support import start_night

    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        return start_night(db, list(db.exec(select(Player).order_by(Player.id)))).id


@pytest.fixture
def night_with_a_hand(live, matzlfangen_night) -> int:
    """The Matzlfangen night with one hand recorded (a Durch won by Anna): its id."""
    from scorekeeper.core.hands import record_hand
    from tests.support import DURCH

    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        record_hand(db=db, night_id=matzlfangen_night, hand=DURCH)
    return matzlfangen_night
