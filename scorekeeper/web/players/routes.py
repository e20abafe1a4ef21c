"""The club's roster: add, rename, retire players, and merge two records of one person."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from scorekeeper.core import history_pages
from scorekeeper.core.errors import InvalidInput, NotFound
from scorekeeper.core.models import Player
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.players import (
    create_player,
    get_player,
    list_guests,
    list_players,
    make_member,
    merge_players,
    rename_player,
    retire_player,
    roster_changes,
)
from scorekeeper.core.tournaments import player_tournaments
from scorekeeper.web.access import ADMIN, SCORER, VIEWER, access
from scorekeeper.web.charts import chart_svg
from scorekeeper.web.context import found, get_db
from scorekeeper.web.forms import ConfirmForm, choices
from scorekeeper.web.i18n import day
from scorekeeper.web.labels import CONTRACT_LABELS, GAME_LABELS
from scorekeeper.web.messages import message
from scorekeeper.web.players.forms import MergeForm, PlayerForm, RetireForm

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.route("/", methods=["GET", "POST"])
@access(VIEWER, write=SCORER)
def index():
    """The roster, with a form to add a player."""
    db = get_db()
    form = PlayerForm()
    guest = None  # the tournament's guest of the name refused: a link to their page, where they become a member
    if form.validate_on_submit():
        try:
            create_player(db=db, name=form.name.data)
        except InvalidInput as exc:
            form.name.errors.append(message(exc))
            guest = exc.params.get("guest_id")
        else:
            return redirect(url_for(".index"))
    status = 400 if form.errors else 200
    players = list_players(db=db)
    return render_template("players/index.html", form=form, players=players, guest=guest), status


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
@access(ADMIN)
def rename(player_id: int):
    """Rename one player."""
    db = get_db()
    player = _player(player_id)
    form = PlayerForm(data={"name": player.name})
    guest = None  # as on the roster's form: the tournament's guest of the name refused, a link to their page
    if form.validate_on_submit():
        try:
            rename_player(db=db, player_id=player_id, name=form.name.data)
        except InvalidInput as exc:
            db.rollback()
            form.name.errors.append(message(exc))
            guest = exc.params.get("guest_id")
        else:
            return redirect(url_for("players.show", player_id=player_id))
    status = 400 if form.errors else 200
    return render_template("players/rename.html", form=form, player=player, guest=guest), status


def _player(player_id: int) -> Player:
    return found(get_player, _("There is no such player."), player_id=player_id)


@bp.post("/<int:player_id>/retire")
@access(ADMIN)
def retire(player_id: int):
    """Retire a player from the seat pickers, or bring them back; the history stays."""
    _player(player_id)
    form = RetireForm()
    if not form.validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    try:
        player = retire_player(db=get_db(), player_id=player_id, retired=form.retired.data == "1")
    except InvalidInput as exc:
        abort(400, message(exc))
    if player.retired:
        flash(_("%(name)s is retired: no longer offered for a seat. The history stays.", name=player.name))
    else:
        flash(_("%(name)s is back on the roster.", name=player.name))
    return redirect(url_for("players.show", player_id=player_id))


@bp.post("/<int:player_id>/member")
@access(ADMIN)
def member(player_id: int):
    """A tournament's guest joins the club: the same record becomes a member (audited)."""
    _player(player_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    try:
        player = make_member(db=get_db(), player_id=player_id)
    except NotFound:  # merged away meanwhile
        get_db().rollback()
        abort(404, _("There is no such player."))
    except InvalidInput as exc:  # a member already (tapped twice, or made one meanwhile): said on their page
        get_db().rollback()
        flash(message(exc, sentence=True))
        return redirect(url_for("players.show", player_id=player_id))
    flash(_("%(name)s is a member of the club now, on the roster.", name=player.name))
    return redirect(url_for("players.show", player_id=player_id))


@bp.route("/<int:player_id>/merge", methods=["GET", "POST"])
@access(ADMIN)
def merge(player_id: int):
    """Merge a duplicate record of the same person into this one (audited)."""
    db = get_db()
    player = _player(player_id)
    form = MergeForm()
    # a member's duplicate is a member, a guest's a guest (members and guests are never merged)
    others = [p for p in (list_guests if player.guest else list_players)(db=db) if p.id != player.id]
    form.other.choices = choices([("", "—"), *((p.id, p.name) for p in others)])
    if form.validate_on_submit():
        other = form.other.data
        try:
            other_id = parse_int(other)
            if other_id is None:
                raise InvalidInput("other", "choose the record to merge into this one")
            merged = get_player(db=db, player_id=other_id)
            merge_players(db=db, keep_id=player.id, merge_id=merged.id)
        except NotFound:
            form.other.errors.append(_("There is no such player."))
        except InvalidInput as exc:
            db.rollback()
            form.other.errors.append(message(exc))
        else:
            flash(_("%(merged)s is merged into %(name)s.", merged=merged.name, name=player.name))
            return redirect(url_for("players.show", player_id=player.id))
    status = 400 if form.errors else 200
    return render_template("players/merge.html", form=form, player=player), status


@bp.get("/<int:player_id>")
@access(VIEWER)
def show(player_id: int):
    """A player's record: money and units by season, contracts declared and won, best nights, streak."""
    db = get_db()
    try:
        record = history_pages.player_history(
            db=db,
            player_id=player_id,
            season_start=current_app.config["SEASON_START"],
            currency=current_app.config["CURRENCY"],
        )
    except NotFound:
        abort(404, _("There is no such player."))
    chart = None
    # the nights played for money, by money; a player who never played for money: the nights at a stake of 0, by
    # units (a night played for honour, a Matt without a stake, has neither)
    counted = record.record_nights
    if counted:
        running, series = 0, [0]
        for night in counted:
            running += night.value(record.in_units)
            series.append(running)
        ends = (day(counted[0].played_on), day(counted[-1].played_on))
        label = _("units over the nights") if record.in_units else _("balance over the nights")
        tick = {"tick": str} if record.in_units else {}
        chart = chart_svg([series], [record.player.name], ends=ends, label=label, **tick)
    return render_template(
        "players/show.html",
        h=record,
        chart=chart,
        # a season's game played without money (for honour, or at a stake of 0): its money cell says "–"; for a
        # player who never played for money, its units cell where it scored none (explained under the table)
        honour=any(
            not (t.for_money if record.total.for_money else t.shows_units)
            for _season, games in record.seasons
            for t in games.values()
        ),
        labels=GAME_LABELS,
        contract_label=CONTRACT_LABELS,
        currency=current_app.config["CURRENCY"],
        changes=roster_changes(db=db, player_id=player_id),
        tournaments=player_tournaments(db=db, player_id=player_id),
    )
