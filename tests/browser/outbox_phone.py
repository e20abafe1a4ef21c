"""The set-ups of a phone with an outbox that the browser tests share (not fixtures: steps a test calls): a guest's
phone at a night's table, the pages the service worker keeps for it, a night closed or deleted by another phone."""

from __future__ import annotations

from scorekeeper.core import db as database
from scorekeeper.core.models import Night
from tests.browser.conftest import PHONE
from tests.browser.tournament_steps import join_table
from tests.support import worker_ready

#: no page of any account kept for offline use (the worker's caches ``sk-pages-…``), for ``wait_until``
NO_PAGES_KEPT = """() => caches.keys().then(names => Promise.all(names.filter(x => x.indexOf('sk-pages-') === 0)
     .map(x => caches.open(x).then(c => c.keys())))).then(all => [].concat(...all).length === 0)"""


def join_code(app, night: int) -> str:
    """The night's join code now."""
    with database.session(app.extensions["sk_engine"]) as db:
        return db.get(Night, night).join_code


def guest_phone(browser, base: str, night: int, code: str, size=PHONE, locale="de-DE", timeout: float | None = None):
    """A phone of its own (a new browser context) that joined the night with ``code`` and shows its table page;
    ``timeout``: its default in ms (Playwright's own without). Close it with ``phone.context.close()``."""
    context = browser.new_context(viewport=size, locale=locale)
    try:
        phone = context.new_page()
        if timeout is not None:
            phone.set_default_timeout(timeout)
        join_table(phone, base, night, code)
    except BaseException:
        context.close()
        raise
    return phone


def kept_by_the_worker(page, base: str, night: int, form: str | None = None) -> None:
    """The night's table page opened once the service worker runs the page (so the worker keeps it), then ``form``
    (a path after the night's, e.g. ``/hands/new``), where one is given."""
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    if form is not None:
        page.goto(f"{base}/nights/{night}{form}")


def delete(app, night: int) -> None:
    """An admin deletes the night (on another phone), with its export kept as the app keeps it."""
    from scorekeeper.core.exchange import night_file
    from scorekeeper.core.nights import delete_night

    with database.session(app.extensions["sk_engine"], write=True) as db:
        delete_night(db=db, night_id=night, reason="Versehen", export=night_file.night_json(db=db, night_id=night))


def close(app, night: int) -> None:
    """Another phone closes the night."""
    from scorekeeper.core.nights import close_night

    with database.session(app.extensions["sk_engine"], write=True) as db:
        close_night(db=db, night_id=night)
