"""The history pages' choice of game and season (the nights list, the leaderboard): one setup of
their GET forms, and the season chosen, counted from the club's season start (``SEASON_START``)."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from sqlmodel import Session

from scorekeeper.core import history_pages
from scorekeeper.core.history_pages import Season
from scorekeeper.web.forms import choices, game_choices


def filter_form(form: Any, db: Session, *, all_games: str | None, all_seasons: str | None) -> int:
    """Give ``form`` its games and the club's seasons to choose from (first ``all_games`` and
    ``all_seasons``, meaning none in particular, where given), then check what was asked: the page's
    status, 400 for a choice that is not one of them (the page is then shown as if nothing was asked).
    Set the form's other choices before."""
    seasons = history_pages.seasons(db=db, start=current_app.config["SEASON_START"])
    form.game.choices = game_choices(all_games)
    first = [("", all_seasons)] if all_seasons else []
    form.season.choices = choices([*first, *((s.year, s.label) for s in seasons)])
    return 400 if request.args and not form.validate() else 200


def chosen_season(form: Any) -> Season | None:
    """The season the form's ``season`` names (a year), or None where it names none."""
    if not form.season.data:
        return None
    return Season.starting(int(form.season.data), current_app.config["SEASON_START"])
