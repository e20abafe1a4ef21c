"""Scorekeeper: the hand-recorder and scoring companion for card games at the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, render_template

from . import config
from .engine import GAMES

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application factory."""
    instance = config.instance_path()
    app = Flask(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=config.database_url(instance),
        SECRET_KEY=config.secret_key(instance) if not (test_config or {}).get("SECRET_KEY") else None,
    )
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def index() -> str:
        """The start page."""
        return render_template("index.html", games=GAMES)

    return app
