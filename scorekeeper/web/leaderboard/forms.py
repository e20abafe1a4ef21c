"""The leaderboard's choice of game, season and order: a GET form."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import SelectField

from scorekeeper.web.forms import GetForm, checked_choice


class LeaderboardForm(GetForm):
    """Which season and game the leaderboard shows, and its order."""

    game = SelectField(_l("Game"), validate_choice=False, validators=[checked_choice])
    season = SelectField(_l("Season"), validate_choice=False, validators=[checked_choice])
    sort = SelectField(_l("Order by"), validate_choice=False, validators=[checked_choice])  # history_pages.SORTS
