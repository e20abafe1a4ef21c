"""The season's standings in one game: money, units per hand, win rate as declarer, attendance."""

from __future__ import annotations

from collections import Counter
from datetime import date

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext as _
from sqlmodel import select

from scorekeeper.core import history_pages
from scorekeeper.core.models import CLUB_NIGHT, Night, scores_units
from scorekeeper.engine import GAMES
from scorekeeper.web.access import VIEWER, access
from scorekeeper.web.context import get_db
from scorekeeper.web.forms import choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.leaderboard.forms import LeaderboardForm
from scorekeeper.web.seasons import chosen_season, filter_form

#: The orders of a season played for money only (by money), of one played for units alone (a stake of 0: by
#: units), and of either (by units per hand).
MONEY_SORTS = ("money",)
UNITS_SORTS = ("units",)
SCORE_SORTS = ("per_hand",)

bp = Blueprint("leaderboard", __name__, url_prefix="/leaderboard")


def _opening_game(db, currency: str) -> str:
    """The game the leaderboard opens on when none is asked (the menu's link): the one the club plays most for
    money in its ``currency`` (``history_pages.counts_money``, the money the leaderboard adds up: a night for money
    in another currency counts as the history counts it, by its units), else the one it plays most for units (at
    a stake of 0, or in another currency: ``scores_units``, standings with a balance), else the one it plays most
    (for honour: the hands won); ties go to the newest. A tournament's tables are not the club's nights
    (docs/tournaments.md; docs/rules.md, "The club's history")."""
    played: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    paid: Counter[str] = Counter()
    query = select(Night.game, Night.rules, Night.stake_cents, Night.currency).where(CLUB_NIGHT)
    for game, rules, stake, night_currency in db.exec(query.order_by(Night.played_on)):
        played[game] += 1
        if history_pages.counts_money(game, rules, stake, night_currency, currency):
            paid[game] += 1
        elif scores_units(game, rules):
            scored[game] += 1
    counts = paid or scored or played
    return max(reversed(counts), key=counts.__getitem__) if counts else next(iter(GAMES))


@bp.get("")
@access(VIEWER)
def index():
    """A season's standings in one game: money, units per hand, win rate as declarer, attendance."""
    db = get_db()
    form = LeaderboardForm(request.args)
    orders = {
        "money": _("money"),
        "units": _("units"),
        "per_hand": _("units per hand"),
        "win_rate": _("won as declarer"),
        "attendance": _("nights present"),
    }
    form.sort.choices = choices((key, orders[key]) for key in history_pages.SORTS)
    status = filter_form(form, db, all_games=None, all_seasons=None)
    currency = current_app.config["CURRENCY"]  # the money is the club's currency's only (docs/using.md)
    game = form.game.data if status == 200 and form.game.data else _opening_game(db, currency)
    season = chosen_season(form) if status == 200 else None
    if season is None:  # the season of the club's newest night
        season = history_pages.newest_season(db=db, start=current_app.config["SEASON_START"], today=date.today())
    # a season played for money shows money and units; one played for units alone (a stake of 0) its units,
    # no money; one played for honour (Konter a Matt, Matt without a stake) neither (docs/rules.md)
    kind = history_pages.season_kind(db=db, game=game, season=season, currency=currency)
    for_money, units = kind.for_money, kind.shows_units
    sort = form.sort.data if status == 200 and form.sort.data else "money"
    hidden = {
        *(() if for_money else MONEY_SORTS),
        *(() if units and not for_money else UNITS_SORTS),
        *(() if units else SCORE_SORTS),
    }
    form.sort.choices = [c for c in form.sort.choices if c.value not in hidden]
    if sort in hidden:  # the season's balance is its money, else its units; without either, the hands won
        balance = sort in (*MONEY_SORTS, *UNITS_SORTS)
        sort = "money" if balance and for_money else "units" if balance and units else "win_rate"
    form.game.data, form.season.data, form.sort.data = game, str(season.year), sort
    minimum = current_app.config["MIN_DECLARED"]
    standings, nights = history_pages.leaderboard(
        db=db, game=game, season=season, min_declared=minimum, sort=sort, kind=kind, currency=currency
    )
    return (
        render_template(
            "leaderboard/index.html",
            form=form,
            standings=standings,
            nights=nights,
            game=game,
            season=season,
            sort=sort,
            for_money=for_money,
            units=units,
            minimum=minimum,
            labels=GAME_LABELS,
            currency=currency,
            elsewhere=kind.elsewhere,
        ),
        status,
    )
