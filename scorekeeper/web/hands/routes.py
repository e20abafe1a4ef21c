"""Recording a hand (with a live preview), editing one, undoing the last."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm

from ... import repository
from ...engine import InvalidHand, konter_a_matt, ledger, matzlfangen, schafkopf
from .. import get_db
from ..auth import NIGHT_WRITE, access
from ..errors import message
from ..view import hand_view, seat_names
from .forms import FORMS, HandForm

#: card points in a deal, for "the other side has ..." as the points are typed
TOTAL_POINTS = {m.NAME: m.TOTAL_POINTS for m in (matzlfangen, schafkopf, konter_a_matt)}

bp = Blueprint("hands", __name__, url_prefix="/nights/<int:evening_id>/hands")


def _table(evening_id: int) -> repository.Table:
    try:
        return repository.load_table(db=get_db(), evening_id=evening_id)
    except repository.NotFound:
        abort(404, _("There is no such night."))


def _hidden_fields(table: repository.Table) -> frozenset[str]:
    """Fields the hand form doesn't show at this table (a message for them goes above the form)."""
    hidden = {"idempotency_key", "expected_hands", "csrf_token"}
    if getattr(table.settlement.rules, "ramsch_tie", "named") != "named":
        hidden.add("loser")  # the form shows the Ramsch loser only where the rules let the table name one
    return frozenset(hidden)


def _attach(form: HandForm, exc: InvalidHand | repository.InvalidInput, table: repository.Table) -> None:
    """An engine error goes next to its field, else above the form."""
    name = exc.field.split(".")[0]
    if name == "points" and "ramsch_1" in form and exc.field.count("."):
        name = f"ramsch_{exc.field.split('.')[1]}"
    field = getattr(form, name, None) if name and name in form else None
    if field is not None and name not in _hidden_fields(table):
        field.errors = [*list(field.errors), message(exc, str(field.label.text))]
    else:
        form.form_errors.append(message(exc))


def _form_page(table: repository.Table, form: HandForm, positions, number: int, preview, status: int = 200, edit=False):
    template = "hands/_preview.html" if request.args.get("fragment") else "hands/form.html"
    return (
        render_template(
            template,
            table=table,
            form=form,
            names=seat_names(table, positions),
            number=number,
            dealer=table.players[table.dealer_for(number)].name,
            forehand=table.players[table.forehand_for(number)].name,
            preview=preview,
            edit=edit,
            hidden=_hidden_fields(table),
            total_points=TOTAL_POINTS.get(table.evening.game),
        ),
        status,
    )


def _forehand_seat(table: repository.Table, positions: tuple[int, ...], number: int) -> int:
    """The engine seat of forehand in hand ``number``."""
    return ledger.seat_of(table.forehand_for(number), positions) or 1


def _handle(table: repository.Table, form: HandForm, number: int, positions: tuple[int, ...], save, edit=False):
    """Validate, preview or save: the same path with or without JavaScript."""
    forehand_seat = _forehand_seat(table, positions, number)
    preview = None
    if request.method == "POST":
        if not form.validate():
            return _form_page(table, form, positions, number, None, 400, edit)
        hand = form.hand_json(forehand_seat, table.size)
        data = repository.engine_hand(table.evening, hand, table.dealer_for(number))
        try:
            if request.form.get("action") == "save":
                save(data, form)
                return None
            # the same settling as saving (the night's carried pot included), without saving
            preview = hand_view(table.with_hand(number, data), number)
        except InvalidHand as exc:
            get_db().rollback()
            if exc.hand is not None and exc.hand != number - 1:  # the change would spoil a later hand
                form.form_errors.append(
                    _("This would make hand %(n)s invalid: %(reason)s", n=exc.hand + 1, reason=message(exc))
                )
            else:
                _attach(form, exc, table)
            return _form_page(table, form, positions, number, None, 400, edit)
        except repository.InvalidInput as exc:
            get_db().rollback()
            _attach(form, exc, table)
            return _form_page(table, form, positions, number, None, 400, edit)
        except repository.Conflict as exc:
            get_db().rollback()
            form.form_errors.append(message(exc))
            return _form_page(table, form, positions, number, None, 409, edit)
    return _form_page(table, form, positions, number, preview, edit=edit)


@bp.route("/new", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def new(evening_id: int):
    """Record the next hand."""
    table = _table(evening_id)
    form = FORMS[table.evening.game]()
    positions = table.next_positions()
    form.prepare(
        seat_names(table, positions),
        len(table.hands),
        table.settlement.rules,
        _forehand_seat(table, positions, len(table.hands) + 1),
    )

    def save(data, form):
        repository.record_hand(
            db=get_db(),
            evening_id=evening_id,
            hand=data,
            idempotency_key=form.idempotency_key.data or None,
            expected_hands=form.expected(),
        )

    answer = _handle(table, form, len(table.hands) + 1, positions, save)
    return answer or redirect(url_for("tables.show", evening_id=evening_id, _anchor="balance"))


def _form_data_of(hand: dict[str, Any], game: str) -> dict[str, Any]:
    """A stored hand as the form's data, for editing."""
    data: dict[str, Any] = {}
    for key, value in hand.items():
        if key == "points" and isinstance(value, dict):  # a Ramsch: points per seat
            data.update({f"ramsch_{seat}": p for seat, p in value.items()})
        elif key == "jungfrau":
            data.update({f"jungfrau_{seat}": True for seat in value})
        elif key == "won":
            data[key] = "1" if value else "0"
        elif key == "mated_by" and value is None:
            data[key] = "draw"
        elif isinstance(value, bool) or key in ("points", "points_a"):
            data[key] = value  # toggles and number fields take the value itself
        else:
            data[key] = "" if value is None else str(value)  # segmented buttons post text
    if game == "matzlfangen" and "matzl_claimed" not in hand:
        data["matzl_claimed"] = True
    return data


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def edit(evening_id: int, number: int):
    """Change an earlier hand; everything after it is recomputed."""
    table = _table(evening_id)
    if not 1 <= number <= len(table.hands):
        abort(404, _("There is no such hand."))
    record = table.hands[number - 1]
    positions = table.positions[number - 1]
    form_cls = FORMS[table.evening.game]
    form = form_cls() if request.method == "POST" else form_cls(data=_form_data_of(record.data, table.evening.game))
    form.prepare(
        seat_names(table, positions), len(table.hands), table.settlement.rules, _forehand_seat(table, positions, number)
    )
    if request.method == "GET":
        form.expected_hands.data = str(table.evening.version)

    def save(data, form):
        repository.edit_hand(
            db=get_db(), evening_id=evening_id, number=number, hand=data, expected_version=form.expected()
        )

    answer = _handle(table, form, number, positions, save, edit=True)
    if answer is not None:
        body, status = answer
        return body, status
    flash(_("Hand %(n)s changed.", n=number), "ok")
    return redirect(url_for("tables.show", evening_id=evening_id))


@bp.route("/undo", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def undo(evening_id: int):
    """Take back the last hand, after a confirmation."""
    table = _table(evening_id)
    form = FlaskForm()
    if not table.hands:
        flash(_("There is no hand to undo."), "error")
        return redirect(url_for("tables.show", evening_id=evening_id))
    if request.method == "POST" and form.validate():
        expected = request.form.get("expected_hands", "")
        try:
            repository.undo_last(
                db=get_db(), evening_id=evening_id, expected_hands=int(expected) if expected.isdigit() else None
            )
        except repository.Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
        else:
            flash(_("Hand %(n)s was undone.", n=len(table.hands)), "ok")
        return redirect(url_for("tables.show", evening_id=evening_id))
    return render_template("hands/undo.html", table=table, form=form), 400 if request.method == "POST" else 200
