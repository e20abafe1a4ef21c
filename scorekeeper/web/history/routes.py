"""The club's history: the nights list, a player's page, the season leaderboard."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, abort, current_app, render_template, request, url_for
from flask_babel import gettext as _
from sqlmodel import select

from ... import history, repository
from ...engine import GAMES
from ...models import Evening
from ...summary import chart_svg
from .. import get_db
from ..auth import VIEWER, access
from ..hands.forms import CONTRACT_LABELS, choices
from ..tables.forms import GAME_LABELS
from ..view import day
from .forms import LeaderboardForm, NightFilterForm

bp = Blueprint("history", __name__)

PER_PAGE = 25


def _season_start() -> tuple[int, int]:
    return current_app.config["SEASON_START"]


def _game_choices(everything: str | None) -> list:
    first = [("", everything)] if everything else []
    return choices([*first, *((name, GAME_LABELS[name]) for name in GAMES)])


@bp.get("/nights/")
@access(VIEWER)
def nights():
    """All nights, newest first, filtered by game, player, place, season or dates, a page at a time."""
    db = get_db()
    form = NightFilterForm(request.args)
    seasons = history.seasons(db, _season_start())
    form.game.choices = _game_choices(_("all games"))
    form.player.choices = choices([("", _("everybody")), *((p.id, p.name) for p in repository.list_players(db=db))])
    form.place.choices = choices([("", _("everywhere")), *((p, p) for p in history.places(db))])
    form.season.choices = choices([("", _("all seasons")), *((s.year, s.label) for s in seasons)])
    status = 200
    filters = history.NightFilter()
    if request.args and not form.validate():
        status = 400
    elif request.args:
        since, until = form.since.data, form.until.data
        if form.season.data:
            season = history.Season.starting(int(form.season.data), _season_start())
            since = max(since or season.start, season.start)
            until = min(until or season.last, season.last)
        filters = history.NightFilter(
            game=form.game.data or None,
            player_id=int(form.player.data) if form.player.data else None,
            place=form.place.data or None,
            since=since,
            until=until,
        )
    page = history.nights_page(db, filters, (form.page.data or 1) if status == 200 else 1, PER_PAGE)
    args = {k: v for k, v in request.args.items() if k not in ("page", "lang") and v}

    def page_url(number: int) -> str:
        return url_for(".nights", **args, page=number)

    return (
        render_template(
            "history/nights.html",
            form=form,
            page=page,
            page_url=page_url,
            filtered=filters != history.NightFilter(),
            labels=GAME_LABELS,
        ),
        status,
    )


@bp.get("/players/<int:player_id>")
@access(VIEWER)
def player(player_id: int):
    """A player's record: money and units by season, contracts declared and won, best nights, streak."""
    db = get_db()
    try:
        record = history.player_history(db, player_id, _season_start())
    except repository.NotFound:
        abort(404, _("There is no such player."))
    chart = None
    if record.nights:
        running, series = 0, [0]
        for night in record.nights:
            running += night.cents
            series.append(running)
        ends = (day(record.nights[0].played_on), day(record.nights[-1].played_on))
        chart = chart_svg([series], [record.player.name], 360, 200, ends, _("balance over the nights"))
    return render_template(
        "history/player.html",
        h=record,
        chart=chart,
        labels=GAME_LABELS,
        contract_label=CONTRACT_LABELS,
        currency=current_app.config["CURRENCY"],
        changes=repository.roster_changes(db=db, player_id=player_id),
    )


@bp.get("/leaderboard")
@access(VIEWER)
def leaderboard():
    """A season's standings in one game: money, units per hand, win rate as declarer, attendance."""
    db = get_db()
    form = LeaderboardForm(request.args)
    seasons = history.seasons(db, _season_start())
    form.game.choices = _game_choices(None)
    form.season.choices = choices((s.year, s.label) for s in seasons)
    orders = {
        "money": _("money"),
        "per_hand": _("units per hand"),
        "win_rate": _("won as declarer"),
        "attendance": _("nights present"),
    }
    form.sort.choices = choices((key, orders[key]) for key in history.SORTS)
    status = 200
    if request.args and not form.validate():
        status = 400
    newest = db.exec(select(Evening).order_by(Evening.played_on.desc(), Evening.id.desc()).limit(1)).first()
    game = form.game.data if status == 200 and form.game.data else (newest.game if newest else "matzlfangen")
    if status == 200 and form.season.data:
        season = history.Season.starting(int(form.season.data), _season_start())
    else:
        season = history.Season.of(newest.played_on if newest else date.today(), _season_start())
    sort = form.sort.data if status == 200 and form.sort.data else "money"
    form.game.data, form.season.data, form.sort.data = game, str(season.year), sort
    minimum = current_app.config["MIN_DECLARED"]
    standings, nights = history.leaderboard(db, game, season, min_declared=minimum, sort=sort)
    return (
        render_template(
            "history/leaderboard.html",
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
