"""The end of the night: close and reopen, the summary page, its PDF and the exports (on the nights blueprint)."""

from __future__ import annotations

import json

from flask import Response, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.core.exchange import night_file, spreadsheet
from scorekeeper.core.nights import change_night, close_night, delete_night, pot_moved, reopen_night
from scorekeeper.core.players import roster_stamp
from scorekeeper.core.table import Table, load_table
from scorekeeper.web import life, printing
from scorekeeper.web.access import ADMIN, NIGHT_READ, NIGHT_WRITE, VIEWER, access, closed_by_guest, identity
from scorekeeper.web.context import found, get_db
from scorekeeper.web.forms import ConfirmForm, ReopenForm
from scorekeeper.web.messages import field_error, message
from scorekeeper.web.nights.forms import ChangeNightForm, DeleteNightForm
from scorekeeper.web.nights.routes import bp, show
from scorekeeper.web.pdf import context, summary_html
from scorekeeper.web.steps import mark_text, step_text
from scorekeeper.web.view import decimal_mark, hand_word, seat_names


def _table(night_id: int) -> Table:
    return found(load_table, _("There is no such night."), night_id=night_id)


@bp.get("/<int:night_id>/summary")
@access(NIGHT_READ)
def summary(night_id: int):
    """Who pays whom, the statistics and the chart (the same as the PDF)."""
    table = _table(night_id)
    show_bank = request.args.get("bank") == "1"
    return render_template(
        "nights/summary.html", **context(table), show_bank=show_bank, allowed=life.allowed(table.night)
    )


def _file(table: Table, body, suffix: str, mimetype: str, disposition: str = "attachment") -> Response:
    """A night's file for download: ``scorekeeper-DATE-ID.SUFFIX``."""
    name = f"scorekeeper-{table.night.played_on.isoformat()}-{table.night.id}.{suffix}"
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'{disposition}; filename="{name}"'})


@bp.get("/<int:night_id>/summary.pdf")
@access(NIGHT_READ)
def pdf(night_id: int):
    """The summary on A4, to take home or pin up at the club."""
    table = _table(night_id)
    # a carried pot's correction is the other night's change: it is part of the key (core/nights.py pot_moved)
    moved = pot_moved(db=get_db(), night=table.night)
    key = ("night", night_id, table.night.version, roster_stamp(db=get_db()), moved, str(get_locale() or "de"))
    body = printing.pdf(key, lambda: summary_html(table))
    if body is None:
        return printing.busy()
    return _file(table, body, "pdf", "application/pdf", "inline")


@bp.route("/<int:night_id>/close", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def close(night_id: int):
    """Close the night after a confirmation: it is locked, the settlement is final."""
    table = _table(night_id)
    if (away := life.not_now(table.night, "close")) is not None:
        return away
    form = ConfirmForm()
    if request.method == "POST" and form.validate():
        try:
            night = close_night(db=get_db(), night_id=night_id, who=life.who(night_id))
        except Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
            return show(night_id), 409  # the table page, which says why
        if not identity().at_least(VIEWER):  # a guest: the closed night's code lets nobody in, so show it now
            closed_by_guest(night)  # and let this guest open what it offers (its PDF, exports)
            return summary(night_id)
        return redirect(url_for(".summary", night_id=night_id))
    status = 400 if request.method == "POST" else 200
    return render_template("nights/close.html", table=table, form=form), status


@bp.route("/<int:night_id>/reopen", methods=["GET", "POST"])
@access(ADMIN)
def reopen(night_id: int):
    """Open a closed night again, with a reason for the audit trail."""
    table = _table(night_id)
    if (away := life.not_now(table.night, "reopen")) is not None:
        return away
    form = ReopenForm()
    if form.validate_on_submit():
        try:
            reopen_night(db=get_db(), night_id=night_id, reason=form.reason.data, who=life.who(night_id))
        except InvalidInput as exc:
            get_db().rollback()
            form.reason.errors = [message(exc)]
        except Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
            return redirect(url_for("nights.show", night_id=night_id))
        else:
            flash(_("The table is open again.") if table.at_tournament else _("The night is open again."), "ok")
            return redirect(url_for("nights.show", night_id=night_id))
    status = 400 if request.method == "POST" else 200
    return render_template("nights/reopen.html", table=table, form=form), status


#: Byte order mark: a spreadsheet that finds it reads the CSV as UTF-8 (its names' umlauts included).
BOM = "\ufeff"


def _hand_text(table: Table, index: int) -> str:
    """What hand ``index`` (0-based) was, as its row on the table page says it first (its first step)."""
    steps = table.settlement.results[index].steps
    return step_text(steps[0], seat_names(table, table.positions[index])) if steps else ""


def _marks(table: Table, index: int) -> str:
    """What changed hand ``index``'s (0-based) value, as its row's badges say it (its side left out)."""
    names = seat_names(table, table.positions[index])
    return ", ".join(mark_text(m, names) for m in spreadsheet.hand_marks(table, index) if m.key != "side")


@bp.get("/<int:night_id>/export.csv")
@access(NIGHT_READ)
def export_csv(night_id: int):
    """The hands as CSV in the user's language (UTF-8 with a BOM): one row per hand, one column per player's units."""
    table = _table(night_id)
    headers = {
        "hand": hand_word(table.night.game),
        "dealer": _("Dealer"),
        "what": _("Result"),
        "played_by": _("Played by"),
        "marks": _("Marks"),
        "value": _("Value"),
        "pot": _("Pot"),
        "strokes": _("Strokes"),
        "game_won_by": _("Game won by"),
        "match": _("Match"),
    }
    body = spreadsheet.night_csv(
        table,
        headers=headers,
        hand_text=lambda index: _hand_text(table, index),
        marks_text=lambda i: _marks(table, i),
        delimiter=csv_delimiter(),
    )
    return _file(table, BOM + body, "csv", "text/csv")


def csv_delimiter() -> str:
    """The CSV's delimiter for the reader's spreadsheet: ``;`` where the decimal mark is a comma (German),
    else ``,``; ``?sep=comma`` or ``?sep=semicolon`` asks for either."""
    asked = {"comma": ",", "semicolon": ";"}.get(request.args.get("sep", ""))
    return asked or (";" if decimal_mark() == "," else ",")


@bp.get("/<int:night_id>/export.json")
@access(NIGHT_READ)
def export_json(night_id: int):
    """The whole night (players, rules, hands, audit) as JSON that imports back losslessly; a tournament's
    table marked as one, which the night import refuses (as ``manage.py export ID`` writes it)."""
    table = _table(night_id)
    body = json.dumps(night_file.night_file_json(db=get_db(), night_id=night_id), ensure_ascii=False, indent=2)
    return _file(table, body, "json", "application/json")


@bp.route("/<int:night_id>/change", methods=["GET", "POST"])
@access(ADMIN)
def change(night_id: int):
    """Correct a night's date and place (audited; the history follows)."""
    table = _table(night_id)
    night = table.night
    if (away := life.not_now(night, "change")) is not None:
        return away
    form = ChangeNightForm(data={"played_on": night.played_on, "place": night.place})
    if form.validate_on_submit():
        try:
            change_night(
                db=get_db(),
                night_id=night_id,
                played_on=form.played_on.data,
                place=form.place.data or "",
                who=life.who(night_id),
            )
        except InvalidInput as exc:
            get_db().rollback()
            field_error(form, exc)
        except Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
            return show(night_id), 409  # the table page, which says why
        else:
            flash(
                _("The table's date and place are saved.")
                if table.at_tournament
                else _("The night's date and place are saved."),
                "ok",
            )
            return redirect(url_for("nights.show", night_id=night_id))
    status = 400 if request.method == "POST" else 200
    return render_template("nights/change.html", table=table, night=night, form=form), status


@bp.route("/<int:night_id>/delete", methods=["GET", "POST"])
@access(ADMIN)
def delete(night_id: int):
    """Delete a night started by mistake, after a confirmation (kept, with its export, as deleted)."""
    table = _table(night_id)
    if (away := life.not_now(table.night, "delete")) is not None:
        return away
    form = DeleteNightForm()
    status = 400 if request.method == "POST" else 200
    refused = life.refusal(table.night, "delete")
    if refused is not None:  # a post the night's life refuses anyway (a tournament's table): why, before the form
        form.form_errors.append(message(refused))
        status = 409
    elif form.validate_on_submit():
        db = get_db()
        try:
            delete_night(
                db=db,
                night_id=night_id,
                reason=form.reason.data,
                export=night_file.night_json(db=db, night_id=night_id),
                who=life.who(night_id),
            )
        except InvalidInput as exc:
            db.rollback()
            field_error(form, exc)
        except Conflict as exc:
            db.rollback()
            form.form_errors.append(message(exc))
            status = 409
        else:
            flash(_("The night is deleted. Its export is kept with the reason."), "ok")
            return redirect(url_for("nights.index"))
    return render_template("nights/delete.html", table=table, night=table.night, form=form), status
