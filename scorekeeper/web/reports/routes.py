"""The end of the night: close and reopen, the summary page and its PDF."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired

from ... import exports, repository
from ...reports import context, summary_pdf
from .. import get_db
from ..auth import ADMIN, NIGHT_READ, NIGHT_WRITE, VIEWER, access, identity
from ..errors import message

bp = Blueprint("reports", __name__, url_prefix="/nights/<int:evening_id>")


class ReopenForm(FlaskForm):
    reason = StringField(_l("Reason"), validators=[InputRequired()])


def _table(evening_id: int) -> repository.Table:
    try:
        return repository.load_table(db=get_db(), evening_id=evening_id)
    except repository.NotFound:
        abort(404, _("There is no such night."))


@bp.get("/summary")
@access(NIGHT_READ)
def summary(evening_id: int):
    """Who pays whom, the statistics and the chart (the same as the PDF)."""
    table = _table(evening_id)
    show_bank = request.args.get("bank") == "1"
    return render_template("reports/summary.html", **context(table), show_bank=show_bank)


def _file(table: repository.Table, body, suffix: str, mimetype: str, disposition: str = "attachment") -> Response:
    """A night's file for download: ``scorekeeper-DATE-ID.SUFFIX``."""
    name = f"scorekeeper-{table.evening.played_on.isoformat()}-{table.evening.id}.{suffix}"
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'{disposition}; filename="{name}"'})


@bp.get("/summary.pdf")
@access(NIGHT_READ)
def pdf(evening_id: int):
    """The summary on A4, to take home or pin up at the club."""
    table = _table(evening_id)
    return _file(table, summary_pdf(table), "pdf", "application/pdf", "inline")


@bp.route("/close", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def close(evening_id: int):
    """Close the night after a confirmation: it is locked, the settlement is final."""
    table = _table(evening_id)
    form = FlaskForm()
    if request.method == "POST" and form.validate():
        try:
            repository.close_evening(db=get_db(), evening_id=evening_id)
        except repository.Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
        if not identity().at_least(VIEWER):  # a guest: the closed night's code lets nobody in, so show it now
            return summary(evening_id)
        return redirect(url_for(".summary", evening_id=evening_id))
    status = 400 if request.method == "POST" else 200
    return render_template("reports/close.html", table=table, form=form), status


@bp.route("/reopen", methods=["GET", "POST"])
@access(ADMIN)
def reopen(evening_id: int):
    """Open a closed night again, with a reason for the audit trail."""
    table = _table(evening_id)
    form = ReopenForm()
    if form.validate_on_submit():
        try:
            repository.reopen_evening(db=get_db(), evening_id=evening_id, reason=form.reason.data)
        except repository.InvalidInput as exc:
            get_db().rollback()
            form.reason.errors = [message(exc)]
        except repository.Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
            return redirect(url_for("tables.show", evening_id=evening_id))
        else:
            flash(_("The night is open again."), "ok")
            return redirect(url_for("tables.show", evening_id=evening_id))
    status = 400 if request.method == "POST" else 200
    return render_template("reports/reopen.html", table=table, form=form), status


@bp.get("/export.csv")
@access(NIGHT_READ)
def export_csv(evening_id: int):
    """The hands as CSV: one row per hand, one column per player's units."""
    table = _table(evening_id)
    return _file(table, exports.night_csv(table), "csv", "text/csv")


@bp.get("/export.json")
@access(NIGHT_READ)
def export_json(evening_id: int):
    """The whole night (players, rules, hands, audit) as JSON that imports back losslessly."""
    table = _table(evening_id)
    body = json.dumps(exports.night_json(get_db(), evening_id), ensure_ascii=False, indent=2)
    return _file(table, body, "json", "application/json")
