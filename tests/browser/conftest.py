"""Browser tests: the app served on loopback, driven by Playwright in Debian's headless Chromium."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app, repository
from scorekeeper import db as database

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
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
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium); CI installs it")
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
def live(tmp_path, monkeypatch):
    """The app on a fresh SQLite database, served on 127.0.0.1 in a thread. Yields (base_url, app)."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'b.db'}", "SECRET_KEY": "browser", "POLL_SECONDS": 1})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join(5)
    app.extensions["sk_engine"].dispose()


@pytest.fixture
def page(browser, live):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def roster(live):
    """Five players: Anna, Bernd, Clara, Dieter, Eva."""
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return [repository.create_player(db=db, name=n).id for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva")]
