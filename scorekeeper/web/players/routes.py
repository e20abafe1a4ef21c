"""The club's roster: add, rename, retire players, and merge two records of one person."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _

from ... import repository
from ...models import Player
from .. import get_db
from ..auth import ADMIN, SCORER, VIEWER, access
from ..errors import message
from ..hands.forms import choices
from .forms import MergeForm, PlayerForm, RetireForm

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.route("/", methods=["GET", "POST"])
@access(VIEWER, write=SCORER)
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
@access(ADMIN)
def rename(player_id: int):
    """Rename one player."""
    db = get_db()
    player = _player(player_id)
    form = PlayerForm(data={"name": player.name})
    if form.validate_on_submit():
        try:
            repository.rename_player(db=db, player_id=player_id, name=form.name.data)
        except repository.InvalidInput as exc:
            db.rollback()
            form.name.errors.append(message(exc))
        else:
            return redirect(url_for("history.player", player_id=player_id))
    status = 400 if form.errors else 200
    return render_template("players/rename.html", form=form, player=player), status


def _player(player_id: int) -> Player:
    try:
        return repository.get_player(db=get_db(), player_id=player_id)
    except repository.NotFound:
        abort(404, _("There is no such player."))


@bp.post("/<int:player_id>/retire")
@access(ADMIN)
def retire(player_id: int):
    """Retire a player from the seat pickers, or bring them back; the history stays."""
    _player(player_id)
    form = RetireForm()
    if not form.validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    player = repository.retire_player(db=get_db(), player_id=player_id, retired=form.retired.data == "1")
    if player.retired:
        flash(_("%(name)s is retired: no longer offered for a seat. The history stays.", name=player.name))
    else:
        flash(_("%(name)s is back on the roster.", name=player.name))
    return redirect(url_for("history.player", player_id=player_id))


@bp.route("/<int:player_id>/merge", methods=["GET", "POST"])
@access(ADMIN)
def merge(player_id: int):
    """Merge a duplicate record of the same person into this one (audited)."""
    db = get_db()
    player = _player(player_id)
    form = MergeForm()
    others = [p for p in repository.list_players(db=db) if p.id != player.id]
    form.other.choices = choices([("", "—"), *((p.id, p.name) for p in others)])
    if form.validate_on_submit():
        other = form.other.data
        try:
            if not other.isdigit():
                raise repository.InvalidInput("other", "choose the record to merge into this one")
            merged = repository.get_player(db=db, player_id=int(other))
            repository.merge_players(db=db, keep_id=player.id, merge_id=merged.id)
        except repository.NotFound:
            form.other.errors.append(_("There is no such player."))
        except repository.InvalidInput as exc:
            db.rollback()
            form.other.errors.append(message(exc))
        else:
            flash(_("%(merged)s is merged into %(name)s.", merged=merged.name, name=player.name))
            return redirect(url_for("history.player", player_id=player.id))
    status = 400 if form.errors else 200
    return render_template("players/merge.html", form=form, player=player), status
