"""The season's standings in one game: money, units per hand, win rate as declarer, attendance."""

from __future__ import annotations

from collections import Counter
from datetime import date

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext as _
from sqlmodel import select

from scorekeeper.core import history_pages
from scorekeeper.core.models import Night
from scorekeeper.engine import GAMES
from scorekeeper.web.access import VIEWER, access
from scorekeeper.web.context import get_db
from scorekeeper.web.forms import choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.leaderboard.forms import LeaderboardForm
from scorekeeper.web.seasons import chosen_season, filter_form

bp = Blueprint("leaderboard", __name__, url_prefix="/leaderboard")


def _opening_game(db) -> str:
    """The game the leaderboard opens on: the one the club plays most for money (a night with a stake that
    pays units: ``Game.uses_stake``), else the one it plays most; ties go to the newest."""
    played: Counter[str] = Counter()
    paid: Counter[str] = Counter()
    for game, rules, stake in db.exec(select(Night.game, Night.rules, Night.stake_cents).order_by(Night.played_on)):
        played[game] += 1
        if stake and game in GAMES and GAMES[game].uses_stake(rules or {}):
            paid[game] += 1
    counts = paid or played
    return max(reversed(counts), key=counts.__getitem__) if counts else next(iter(GAMES))


@bp.get("")
@access(VIEWER)
def index():
    """A season's standings in one game: money, units per hand, win rate as declarer, attendance."""
    db = get_db()
    form = LeaderboardForm(request.args)
    orders = {
        "money": _("money"),
        "per_hand": _("units per hand"),
        "win_rate": _("won as declarer"),
        "attendance": _("nights present"),
    }
    form.sort.choices = choices((key, orders[key]) for key in history_pages.SORTS)
    status = filter_form(form, db, all_games=None, all_seasons=None)
    newest = db.exec(select(Night).order_by(Night.played_on.desc(), Night.id.desc()).limit(1)).first()
    game = form.game.data if status == 200 and form.game.data else _opening_game(db)
    season = chosen_season(form) if status == 200 else None
    if season is None:
        season = history_pages.Season.of(
            newest.played_on if newest else date.today(), current_app.config["SEASON_START"]
        )
    sort = form.sort.data if status == 200 and form.sort.data else "money"
    form.game.data, form.season.data, form.sort.data = game, str(season.year), sort
    minimum = current_app.config["MIN_DECLARED"]
    standings, nights = history_pages.leaderboard(db=db, game=game, season=season, min_declared=minimum, sort=sort)
    return (
        render_template(
            "leaderboard/index.html",
            form=form,
            standings=standings,
            nights=nights,
            game=game,
            season=season,
            sort=sort,
            minimum=minimum,
            labels=GAME_LABELS,
            currency=current_app.config["CURRENCY"],
        ),
        status,
    )
