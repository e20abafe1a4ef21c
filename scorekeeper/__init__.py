"""Scorekeeper: the hand-recorder and scoring companion for card games at the table.

The package imports nothing at the top, so that ``python manage.py settle``
(which needs only :mod:`scorekeeper.engine`) starts without Flask or a database.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application factory: configuration, database (migrated on start), extensions, blueprints."""
    from datetime import timedelta

    from flask import Flask, redirect, url_for
    from werkzeug.middleware.proxy_fix import ProxyFix

    from . import accounts, config, db, history, i18n, web
    from .extensions import csrf

    test_config = test_config or {}
    instance = Path(test_config.get("INSTANCE_PATH") or config.instance_path())
    instance.mkdir(parents=True, exist_ok=True)
    app = Flask(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE_URL=config.database_url(instance),
        SECRET_KEY=test_config.get("SECRET_KEY") or config.secret_key(instance),
        WTF_CSRF_TIME_LIMIT=None,  # a form may stay open on a phone through a long hand
        WTF_I18N_ENABLED=True,
        BABEL_DEFAULT_LOCALE="de",
        POLL_SECONDS=3,
        CLUB_NAME=os.environ.get("SCOREKEEPER_CLUB_NAME", "Kartenrunde"),
        SEASON_START=os.environ.get("SCOREKEEPER_SEASON_START", "01-01"),  # MM-DD: the club's seasons begin
        CURRENCY=os.environ.get("SCOREKEEPER_CURRENCY", "EUR"),  # the history adds up money in this currency
        MIN_DECLARED=int(os.environ.get("SCOREKEEPER_MIN_DECLARED", "20")),  # hands declared for a win rate
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # "auto": Secure when the request came over HTTPS (a pub laptop may serve plain HTTP on its Wi-Fi)
        SESSION_COOKIE_SECURE=config.secure_cookies(),
        PERMANENT_SESSION_LIFETIME=timedelta(days=60),  # signed in at the table for the season
    )
    app.config.update(test_config)
    app.config["SEASON_START"] = history.parse_season_start(app.config["SEASON_START"])
    engine = db.make_engine(app.config["DATABASE_URL"])
    db.upgrade(engine)
    with db.session(engine, write=True) as session:
        history.refresh_missing(session)  # nights recorded before the history tables existed
        if not accounts.has_admin(session):
            token = config.ensure_setup_token(instance)
            app.config["SETUP_PATH"] = f"/setup/{token}"
            app.logger.warning("No admin yet: open %s on this server to create the first one", app.config["SETUP_PATH"])
    if os.environ.get("SCOREKEEPER_PROXY_FIX") == "1":  # behind one reverse proxy (docs/production.md)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.extensions["sk_engine"] = engine
    csrf.init_app(app)
    i18n.init_app(app)
    web.register(app)

    @app.get("/")
    @web.auth.access(web.auth.PUBLIC)
    def index():
        """The start page is the list of nights."""
        return redirect(url_for("history.nights"))

    return app
