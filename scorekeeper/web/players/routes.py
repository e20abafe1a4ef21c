"""The club's roster: add and rename players."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import gettext as _

from ... import repository
from ...models import Player
from .. import get_db
from ..errors import message
from .forms import PlayerForm

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.route("/", methods=["GET", "POST"])
def index():
    """The roster, with a form to add a player."""
    db = get_db()
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            repository.create_player(db=db, name=form.name.data)
        except repository.InvalidInput as exc:
            form.name.errors.append(message(exc))
        else:
            return redirect(url_for(".index"))
    status = 400 if form.errors else 200
    return render_template("players/index.html", form=form, players=repository.list_players(db=db)), status


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id: int):
    """Rename one player."""
    db = get_db()
    player = db.get(Player, player_id)
    if player is None:
        abort(404, _("There is no such player."))
    form = PlayerForm(data={"name": player.name})
    if form.validate_on_submit():
        try:
            repository.rename_player(db=db, player_id=player_id, name=form.name.data)
        except repository.InvalidInput as exc:
            db.rollback()
            form.name.errors.append(message(exc))
        else:
            return redirect(url_for(".index"))
    status = 400 if form.errors else 200
    return render_template("players/rename.html", form=form, player=player), status
