"""Nights: the list, starting one, and the table page every phone at the table watches."""

from __future__ import annotations

import json

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import repository
from ...engine import GAMES, InvalidHand
from ...models import Evening
from .. import get_db
from ..auth import NIGHT_READ, NIGHT_WRITE, SCORER, access, identity
from ..errors import message
from ..hands.forms import choices
from ..view import hand_views, money
from .forms import GAME_LABELS, MAX_SEATS, NightForm, option_field_name, parse_cents

bp = Blueprint("tables", __name__)


def _presets_json() -> str:
    return json.dumps(
        {
            name: {p: {f.name: values.get(f.name, f.default) for f in g.options()} for p, values in g.presets.items()}
            for name, g in GAMES.items()
        }
    )


@bp.route("/nights/new", methods=["GET", "POST"])
@access(SCORER)
def new():
    """Start a night."""
    db = get_db()
    players = repository.list_players(db=db, active=True)
    form = NightForm()
    for field in form.seat_fields():
        field.choices = choices([("", "—"), *((p.id, p.name) for p in players)])
    status = 200
    if request.method == "POST" and "apply_preset" in request.form:
        if form.game.data in GAMES:
            form.apply_preset()
    elif form.validate_on_submit():
        if form.game.data not in GAMES:
            form.game.errors.append(_("Choose a game."))
        elif form.preset_not_applied():
            form.apply_preset()
            form.form_errors.append(_("The preset's rules are filled in: check them and start the night."))
        else:
            chosen = [f.data for f in form.seat_fields() if f.data]
            ids = [int(x) if x.isdigit() else -1 for x in chosen]
            try:
                evening = repository.create_evening(
                    db=db,
                    game=form.game.data,
                    rules=form.rules(),
                    stake_cents=parse_cents(form.stake.data),
                    currency=(form.currency.data or "").upper(),
                    played_on=form.played_on.data,
                    place=form.place.data or "",
                    player_ids=ids,
                    first_dealer=int(form.first_dealer.data or 1),
                )
            except InvalidHand as exc:
                db.rollback()
                name = exc.field.removeprefix("rules.")
                target = getattr(form, option_field_name(form.game.data, name), None)
                (target.errors if target is not None else form.form_errors).append(message(exc))
            except repository.InvalidInput as exc:
                db.rollback()
                target = {"players": form.seat_1, "first_dealer": form.first_dealer, "stake_cents": form.stake}.get(
                    exc.field
                )
                target = target or getattr(form, exc.field, None)
                if target is None:
                    form.form_errors.append(message(exc))
                else:
                    target.errors = [*list(target.errors), message(exc)]
            else:
                return redirect(url_for(".show", evening_id=evening.id))
    if request.method == "POST" and "apply_preset" not in request.form:
        status = 400
    return (
        render_template(
            "tables/new.html",
            form=form,
            games=GAMES,
            labels=GAME_LABELS,
            players=players,
            presets=_presets_json(),
            max_seats=MAX_SEATS,
            sizes=repository.TABLE_SIZES,
        ),
        status,
    )


def _load(evening_id: int) -> repository.Table:
    try:
        return repository.load_table(db=get_db(), evening_id=evening_id)
    except repository.NotFound:
        abort(404, _("There is no such night."))


LATEST = 20  # hands shown on the table page unless all are asked for


def _context(table: repository.Table) -> dict:
    evening = table.evening
    show_all = request.args.get("all") == "1"
    hands = hand_views(table, limit=None if show_all else LATEST)
    audit = {}
    numbers = [h.number for h in hands]
    for entry in repository.audit(db=get_db(), evening_id=evening.id, hand_numbers=numbers):
        audit.setdefault(entry.hand_number, []).append(entry)
    return {
        "table": table,
        "evening": evening,
        "label": GAME_LABELS[evening.game],
        "hands": hands,
        "more": len(table.hands) - len(hands),
        "money": money,
        "audit": audit,
        "poll_seconds": current_app.config["POLL_SECONDS"],
    }


@bp.get("/nights/<int:evening_id>")
@access(NIGHT_READ)
def show(evening_id: int):
    """The table page: balances, game state, the last hands."""
    table = _load(evening_id)
    code = None
    if table.evening.status == "open" and identity().may(NIGHT_WRITE, evening_id):
        code = table.evening.join_code
    return render_template("tables/show.html", join_code=code, **_context(table))


@bp.get("/nights/<int:evening_id>/live")
@access(NIGHT_READ)
def live(evening_id: int):
    """The changing part of the table page, for the other phones' polling."""
    return render_template("tables/_live.html", **_context(_load(evening_id)))


@bp.get("/nights/<int:evening_id>/version")
@access(NIGHT_READ)
def version(evening_id: int):
    """How often the night has changed: phones poll this and reload the live part when it moves."""
    evening = get_db().get(Evening, evening_id)
    if evening is None:
        abort(404, _("There is no such night."))
    return {"version": evening.version}, 200, {"Cache-Control": "no-store"}


@bp.get("/sessions/<int:evening_id>/summary.pdf")
@access(NIGHT_READ)
def summary_pdf_alias(evening_id: int):
    """The summary PDF under the API's name for a night (``/sessions/<id>``)."""
    return redirect(url_for("reports.pdf", evening_id=evening_id))
