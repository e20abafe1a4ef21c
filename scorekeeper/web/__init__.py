"""The web app's blueprints and what they share: the request's database session and error pages."""

from __future__ import annotations

from flask import Flask, abort, current_app, g, render_template, request
from flask_babel import gettext as _
from sqlmodel import Session
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import IntegerConverter

from .. import db as database


def get_db() -> Session:
    """The database session of this request (closed at its end).

    A POST, PUT or DELETE gets a write session: on SQLite its transactions begin ``BEGIN IMMEDIATE``,
    so its reads and its write are one transaction that no other write can come between.
    """
    if "db" not in g:
        write = request.method not in SAFE_METHODS
        g.db = database.session(current_app.extensions["sk_engine"], write=write)
    return g.db


def read_db() -> Session:
    """A read session of this request, also in a POST: for slow work before the write (a password
    hash takes a tenth of a second, which must not hold SQLite's write lock)."""
    if "read_db" not in g:
        g.read_db = database.session(current_app.extensions["sk_engine"])
    return g.read_db


def _close_db(exc: BaseException | None) -> None:
    reader = g.pop("read_db", None)
    if reader is not None:
        reader.close()
    session = g.pop("db", None)
    if session is not None:
        if exc is not None:
            session.rollback()
        session.close()


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # requests that change nothing


def is_api() -> bool:
    """Whether the request is for the JSON API (tokens, JSON errors) rather than a page."""
    return request.path.startswith("/api/")


def _http_error(exc: HTTPException):
    """Error pages in the user's language; JSON for the API."""
    if is_api():
        return {"error": {"field": "", "message": exc.description or exc.name}}, exc.code
    return render_template("errors/error.html", code=exc.code, title=exc.name, message=exc.description), exc.code


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
    return render_template("errors/error.html", code=500, title=_("Something went wrong"), message=""), 500


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
    if request.mimetype and request.mimetype not in FORM_TYPES:
        abort(400, _("Send this form from its page."))
    if request.files:
        abort(400, _("This form takes no files."))
    return None


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
        if number > 2**31 - 1:
            raise NotFound()
        return number


def register(app: Flask) -> None:
    app.url_map.converters["int"] = IdConverter
    from . import auth
    from .accounts.routes import bp as accounts_bp
    from .api.routes import bp as api_bp
    from .hands.routes import bp as hands_bp
    from .history.routes import bp as history_bp
    from .players.routes import bp as players_bp
    from .reports.routes import bp as reports_bp
    from .tables.routes import bp as tables_bp

    app.register_blueprint(players_bp)
    app.register_blueprint(tables_bp)
    app.register_blueprint(hands_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(reports_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(accounts_bp)
    auth.init_app(app)
    app.before_request(_forms_only)
    from .view import day, hundredths, money, roster_text

    app.jinja_env.globals.update(money=money, day=day, hundredths=hundredths, roster_text=roster_text)
    app.teardown_appcontext(_close_db)
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _server_error)
