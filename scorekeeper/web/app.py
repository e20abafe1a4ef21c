"""The application factory: settings, database (migrated on start), extensions, blueprints,
error pages and the headers every answer carries; static files fingerprinted and compressed, the
pages compressed, and the garbage collector kept out of the requests (docs/production.md)."""

from __future__ import annotations

import gc
import weakref
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, abort, current_app, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from scorekeeper import config
from scorekeeper.core import accounts, db, history, history_pages
from scorekeeper.core.text import ID_MAX
from scorekeeper.engine import GAMES
from scorekeeper.web import access, assets, i18n
from scorekeeper.web.context import SAFE_METHODS, close_db, is_api
from scorekeeper.web.extensions import compress, csrf
from scorekeeper.web.messages import capital

#: Where the pages and styles are: the checkout's top-level folders, or the copies a built
#: package carries inside itself (pyproject ships them as ``scorekeeper/templates`` and ``/static``).
PACKAGE = Path(__file__).resolve().parent.parent


def _folder(name: str) -> str:
    checkout = PACKAGE.parent / name
    return str(checkout if checkout.is_dir() else PACKAGE / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application factory: configuration, database (migrated on start), extensions, blueprints."""
    settings = config.Settings.from_env()
    test_config = test_config or {}
    instance = Path(test_config.get("INSTANCE_PATH") or settings.instance)
    config.private_folder(instance)
    app = Flask(
        "scorekeeper",
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=_folder("templates"),
        static_folder=_folder("static"),
    )
    app.config.from_mapping(
        DATABASE_URL=settings.database(instance),
        SECRET_KEY=test_config.get("SECRET_KEY") or settings.key(instance),
        WTF_CSRF_TIME_LIMIT=None,  # a form may stay open on a phone through a long hand
        WTF_CSRF_CHECK_DEFAULT=False,  # checked after access, refused in the page's words: _csrf_check
        WTF_I18N_ENABLED=True,
        BABEL_DEFAULT_LOCALE="de",
        POLL_SECONDS=2,
        SEND_WAIT_SECONDS=15,  # a hand the service worker posted with no answer by then waits in the outbox
        CLUB_NAME=settings.club_name,
        PUBLIC_URL=settings.public_url,  # where the phones reach the server (web/addresses.py)
        SEASON_START=settings.season_start,  # MM-DD: the club's seasons begin
        CURRENCY=settings.currency,  # the history adds up money in this currency
        MIN_DECLARED=settings.min_declared,  # hands declared for a win rate
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # "auto": Secure when the request came over HTTPS (a pub laptop may serve plain HTTP on its Wi-Fi)
        SESSION_COOKIE_SECURE=settings.secure_cookies,
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),  # signed in at the table for the season
        MAX_CONTENT_LENGTH=1024 * 1024,  # a page's form (the API checks its own bodies: web/api/limits.py)
        # Flask-Compress: pages, JSON, SVG and CSV in gzip or brotli when the client takes it; not the
        # PDF (compressed already), not answers under a kilobyte, not streamed ones (their length stays
        # known). Static files come compressed ahead of time (web/assets.py).
        COMPRESS_MIMETYPES=["text/html", "application/json", "image/svg+xml", "text/csv"],
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_LEVEL=6,
        COMPRESS_BR_LEVEL=5,  # smaller than gzip's 6 at its cost (a table page: 0.25 ms)
        COMPRESS_MIN_SIZE=1024,
        COMPRESS_STREAMS=False,
        GC_THRESHOLD=settings.gc_threshold,  # None: the interpreter's, nothing frozen
        # False: the database is at the newest migration already, start without asking Alembic. The
        # tests' hook only: they hand each app a copy of one database migrated per run (tests/conftest.py).
        MIGRATE_ON_START=True,
        # Where the static files' fingerprinted copies are written (None: instance/static/). The tests'
        # hook: their apps, each with an instance folder of its own, share one folder per worker.
        STATIC_CACHE=None,
    )
    app.config.update(test_config)
    app.config["SEASON_START"] = history_pages.parse_season_start(app.config["SEASON_START"])
    app.config["CURRENCY"] = config.parse_currency(app.config["CURRENCY"])
    engine = db.make_engine(app.config["DATABASE_URL"])
    # the engine's pooled connections are closed when the app is let go (also one whose start failed
    # below), or at the latest at exit: none is left to the garbage collector (a ResourceWarning).
    # Called, it closes them at once and never again (the tests' apps share an engine: tests/conftest.py).
    close_engine = weakref.finalize(app, engine.dispose)
    if app.config["MIGRATE_ON_START"]:
        db.upgrade(engine, currency=app.config["CURRENCY"])  # the club's: migration 0018's tournaments of before
    with db.session(engine, write=True) as session:
        history.refresh_missing(session)  # nights recorded before the history tables existed
        if not accounts.has_admin(session):
            token = config.ensure_setup_token(instance)
            app.config["SETUP_PATH"] = f"/setup/{token}"
            app.logger.warning("No admin yet: open %s on this server to create the first one", app.config["SETUP_PATH"])
    if settings.proxy_fix:  # behind one reverse proxy (docs/production.md)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    # static files: fingerprinted, compressed, a year in the cache; their copies in instance/static/
    assets.init_app(app, Path(app.config["STATIC_CACHE"] or instance / "static"), SECURITY_HEADERS)
    app.extensions["sk_engine"] = engine
    app.extensions["sk_engine_close"] = close_engine
    csrf.init_app(app)
    compress.init_app(app)
    i18n.init_app(app)
    _register(app)

    @app.get("/")
    @access.access(access.PUBLIC)
    def index():
        """The start page is the list of nights."""
        return redirect(url_for("nights.index"))

    @app.get("/favicon.ico")
    @access.access(access.PUBLIC)
    def favicon():
        """Browsers ask for it on every site whatever the page links: the icon under its fingerprinted name."""
        answer = redirect(url_for("static", filename="favicon.ico"))
        answer.headers["Cache-Control"] = "public, max-age=86400"
        return answer

    @app.get("/manifest.webmanifest")
    @access.access(access.PUBLIC)
    def manifest():
        """What a phone needs to put the app on its home screen (fetched without the session cookie)."""
        answer = jsonify(_manifest())
        answer.mimetype = "application/manifest+json"
        answer.headers["Cache-Control"] = "no-cache"
        return answer

    _keep_gc_out_of_requests(app.config["GC_THRESHOLD"])
    return app


#: the stylesheet's ground and the top bar's green (static/style.css: --bg, --top)
BACKGROUND, THEME = "#f6f5f1", "#0b5d3b"
ICONS = (
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable-512.png", "512x512", "maskable"),
)


def _manifest() -> dict[str, Any]:
    """The web app manifest: the start page (the list of nights), standalone, the icons by their fingerprinted URLs."""
    start = url_for("nights.index")
    return {
        "id": start,
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "start_url": start,
        "scope": url_for("index"),
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": url_for("static", filename=name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }


_frozen = False  # the process's objects are frozen (gc.freeze): once, by its first app


def _keep_gc_out_of_requests(threshold: tuple[int, int, int] | None) -> None:
    """Collect less often (``config.GC_THRESHOLD``), and freeze what the process holds once the app is
    built (the garbage collector never walks it again): no request waits for a collection of the
    whole process.

    The first app of a process only: an app built later (the tests build one per test) is left
    collectable, and the full collection before freezing is paid once.
    """
    global _frozen
    if threshold is None:
        return
    if not _frozen:
        gc.collect()  # startup's garbage (the migrations, the templates' parsing) is not kept forever
        gc.freeze()
        _frozen = True
    gc.set_threshold(*threshold)


#: Each error page's heading and, where the code that refused said nothing of its own, its sentence:
#: in the page's language (Werkzeug's own names and descriptions are English).
ERROR_WORDS: dict[int, tuple[Any, Any]] = {
    400: (_l("The request could not be read"), _l("What was sent is not what this page expects.")),
    401: (_l("Sign in first"), _l("Sign in first (or join the night with its code).")),
    403: (_l("Not allowed"), _l("Your account may not do this. Ask an admin of the club.")),
    404: (_l("Not found"), _l("There is no such page.")),
    405: (_l("Not possible here"), _l("This address does not take this kind of request.")),
    409: (_l("Changed in the meantime"), _l("Somebody changed this in the meantime: look again and try again.")),
    411: (_l("The request could not be read"), _l("Send this form from its page.")),
    413: (_l("Too large"), _l("What was sent is too large.")),
    429: (_l("Too many attempts"), _l("Wait a moment and try again.")),
    500: (_l("Something went wrong"), ""),
}

#: A form posted with a token its session does not know (expired, missing, another session's).
FORM_TOO_OLD = _l("The form was too old, please save again.")


def _error_words(exc: HTTPException) -> tuple[str, str]:
    """The page's heading and sentence of an error: the refusing code's own sentence (it is in the
    page's language already), else the code's."""
    title, default = ERROR_WORDS.get(exc.code or 500, (None, ""))
    if isinstance(exc, CSRFError):
        return str(title or exc.name), str(FORM_TOO_OLD)
    own = exc.description if exc.description != type(exc).description else None
    return str(title or exc.name), str(own or default)


def _in_a_line() -> bool:
    """Whether the request is the hand form's live preview (static/hand.js), whose box shows an error
    as one line of JSON's ``error.message``, never a whole page nested in it."""
    return request.endpoint in _PREVIEWED and bool(request.args.get("fragment"))


#: The pages whose form has the live preview (``?fragment=1``): the hand form, new and edited.
_PREVIEWED = frozenset({"hands.new", "hands.edit"})


def _http_error(exc: HTTPException):
    """Error pages in the user's language, in the app's layout; JSON for the API (in English, as the
    API speaks) and for the preview (in the page's language). The headers the error carries stay
    (a 405's ``Allow``, a 401's ``WWW-Authenticate``)."""
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if is_api():
        return {"error": {"field": "", "message": exc.description or exc.name}}, exc.code, headers
    title, message = _error_words(exc)
    if _in_a_line():
        return {"error": {"field": "", "message": message or title}}, exc.code, headers
    page = render_template("errors/error.html", code=exc.code, title=title, message=message)
    return page, exc.code, headers


def _server_error(exc: Exception):
    """A 500 never shows a traceback; the database session is rolled back.

    Its objects are let go first, keeping what they hold: the page still names the signed-in user.
    """
    session = g.pop("db", None)
    if session is not None:
        session.expunge_all()
        session.rollback()
        session.close()
    current_app.logger.exception("unhandled error")
    if is_api():
        return {"error": {"field": "", "message": "internal error"}}, 500
    if _in_a_line():
        return {"error": {"field": "", "message": str(ERROR_WORDS[500][0])}}, 500
    return render_template("errors/error.html", code=500, title=str(ERROR_WORDS[500][0]), message=""), 500


#: Sent with every answer. The pages load scripts and styles only from ``/static`` (no inline
#: script anywhere), draw their charts as inline SVG, and are never framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _forms_only():
    """A page's form is posted as a form, without files: anything else is refused before a form reads it.

    (Flask-WTF would read a JSON body as the form's data, where a list, a null or a number
    isn't text any more.) The API under ``/api/`` takes JSON and checks it itself.
    """
    if request.method in SAFE_METHODS or is_api():
        return None
    if "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        abort(411)  # browsers send a form's length; a chunked body would be cut at the limit, not refused
    if request.mimetype and request.mimetype not in FORM_TYPES:
        abort(400, _("Send this form from its page."))
    if request.files:
        abort(400, _("This form takes no files."))
    return None


def _csrf_check():
    """Every page form's token (Flask-WTF's check, run here after web/access.py has said who may post).

    A token its session does not know (a form left open across a sign-in, a cookie that lost it)
    is refused in the page's language: the preview gets its one line; a page's form is shown again
    by its own view, filled in as it was posted and with a new token, and says so above it. The
    posted token is taken out first, so every form of the view fails on it and nothing is changed
    (a view that would answer anything but a refusal is answered with the error page instead:
    :func:`_csrf_refused`).
    """
    if not current_app.config["WTF_CSRF_ENABLED"]:
        return None
    try:
        csrf.protect(apply_exemptions=True)
    except CSRFError:
        if _in_a_line():
            return {"error": {"field": "csrf_token", "message": str(FORM_TOO_OLD)}}, 400
        g.csrf_refused = True
        posted = request.form.copy()
        posted.poplist(current_app.config["WTF_CSRF_FIELD_NAME"])
        request.form = ImmutableMultiDict(posted)
        flash(str(FORM_TOO_OLD), "error")
    return None


def _csrf_refused(response):
    """A form refused for its token is never answered as done: a view's redirect or success becomes
    the error page (the message is flashed already)."""
    if g.get("csrf_refused") and response.status_code < 400:
        page = render_template("errors/error.html", code=400, title=str(ERROR_WORDS[400][0]), message="")
        return _security_headers(current_app.response_class(page, status=400))
    return response


def _security_headers(response):
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class IdConverter(IntegerConverter):
    """``<int:...>`` in URLs, bounded to what every database's integer holds: beyond it, a 404.

    (A ``max`` on the converter would make Werkzeug answer 405 for some paths, so the
    bound answers 404 itself.)
    """

    def to_python(self, value: str) -> int:
        number = super().to_python(value)
        if number > ID_MAX:
            raise NotFound()
        return number


def _register(app: Flask) -> None:
    """The blueprints, each owning its URL prefix and its templates folder, and what every request shares."""
    from scorekeeper.web.accounts.routes import bp as accounts_bp
    from scorekeeper.web.api.routes import bp as api_bp
    from scorekeeper.web.hands.routes import bp as hands_bp
    from scorekeeper.web.i18n import day
    from scorekeeper.web.labels import GAME_LABELS
    from scorekeeper.web.leaderboard.routes import bp as leaderboard_bp
    from scorekeeper.web.nights import closing  # noqa: F401  (its routes join the nights blueprint)
    from scorekeeper.web.nights.routes import bp as nights_bp
    from scorekeeper.web.nights.routes import sessions_bp
    from scorekeeper.web.offline.routes import bp as offline_bp
    from scorekeeper.web.players.routes import bp as players_bp
    from scorekeeper.web.signin.routes import bp as signin_bp
    from scorekeeper.web.tournaments.routes import bp as tournaments_bp
    from scorekeeper.web.view import (
        css_string,
        current_match,
        decimal_mark,
        hand_word,
        hundredths,
        money,
        plain_text,
        roster_text,
        unit_count,
    )

    app.url_map.converters["int"] = IdConverter
    for blueprint in (
        nights_bp,
        sessions_bp,
        hands_bp,
        players_bp,
        leaderboard_bp,
        signin_bp,
        accounts_bp,
        api_bp,
        offline_bp,
        tournaments_bp,
    ):
        app.register_blueprint(blueprint)
    access.init_app(app)
    app.before_request(_forms_only)
    app.before_request(_csrf_check)
    app.after_request(_csrf_refused)
    app.jinja_env.globals.update(
        money=money,  # "0.40 EUR" with a no-break space, as unit_count's "17 units"
        unit_count=unit_count,
        plain_text=plain_text,  # a macro's words as the Share text has them, a no-break space kept
        decimal_mark=decimal_mark,  # the page's decimal mark: "," in German (its CSV then has ";" between cells)
        day=day,
        hundredths=hundredths,
        roster_text=roster_text,
        hand_word=hand_word,  # the game's word for a hand: hand_word(night.game, 3) is "Partie 3"
        current_match=current_match,  # Matt's match under way
        game_label=GAME_LABELS.get,  # a game's own name: game_label(night.game)
        game_teams=lambda game: GAMES[game].teams,  # a game's fixed teams and their seats (the engine's)
        capital=capital,  # a text that stands on its own (a badge): its first letter up
        css_string=css_string,  # a text in a <style> element: the PDFs' footers
    )
    app.teardown_appcontext(close_db)
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
