"""The service worker and its offline page.

The worker is served from the site's root (its scope is the whole site) and rendered with the
fingerprinted URLs of the static files, so a deploy that changes one of them installs a new worker,
which drops the old caches. See templates/offline/sw.js for what it caches and when.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, g, make_response, render_template, request
from flask_babel import get_locale

from scorekeeper.web.access import PUBLIC, Identity, access, account_key
from scorekeeper.web.assets import static_urls
from scorekeeper.web.context import is_api

bp = Blueprint("offline", __name__)

#: Bump when templates/offline/sw.js or the offline pages it keeps (templates/offline/offline.html) change in a way
#: the static files' hashes do not show (4: "Perhaps not saved", the hand form's post with ?lang=; 5: a Save
#: answered with any 5xx or a page not the app's is kept in the outbox).
WORKER_VERSION = 5

#: The header that tells the worker whose answer this is (:func:`access.account_key`; ``-``: nobody's).
ACCOUNT_HEADER = "Scorekeeper-Account"


@bp.after_app_request
def tell_the_worker(answer):
    """Every page and every request of the pages' scripts says whose it is: the worker keeps a page for
    that account only, and forgets the pages it kept when the answer is nobody's (the session ended
    here or elsewhere: a sign-in page after a redirect, a 401). The API's answers are no page's.

    A page says its language too (Content-Language): the worker fetches its offline pages again when the
    phone's language changed since it kept them."""
    if not is_api():
        answer.headers[ACCOUNT_HEADER] = account_key()
        answer.headers.setdefault("Content-Language", str(get_locale() or "de"))
    return answer


def worker_version(urls: list[str]) -> str:
    """The worker's cache version: its own version and every static file's fingerprinted name."""
    digest = hashlib.sha256("\n".join([str(WORKER_VERSION), *urls]).encode()).hexdigest()
    return digest[:12]


@bp.get("/sw.js")
@access(PUBLIC)
def service_worker():
    """The service worker (always checked with the server: ``no-cache``)."""
    urls = static_urls()
    body = render_template("offline/sw.js", assets=urls, version=worker_version(urls))
    answer = make_response(body)
    answer.mimetype = "text/javascript"
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/offline")
@access(PUBLIC)
def page():
    """What the worker shows for a page it has no copy of while there is no connection
    (``?unsaved=1``: after a form was sent without a connection: nothing was saved).

    It is nobody's: the worker keeps the copy it fetched at install for every later account, so it
    names nobody (no account's name in its menu, no sign-out, ``-`` to the worker)."""
    g.identity = Identity()
    return render_template("offline/offline.html", unsaved=request.args.get("unsaved") == "1")
