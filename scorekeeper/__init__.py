"""Scorekeeper: the hand-recorder and scoring companion for card games at the table.

The package imports nothing at the top, so that ``python manage.py settle``
(which needs only :mod:`scorekeeper.engine`) starts without Flask or a database.
The layers and where things live: ``docs/architecture.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application factory (:func:`scorekeeper.web.app.create_app`), importable as ``scorekeeper:create_app``."""
    from scorekeeper.web.app import create_app as factory

    return factory(test_config)
