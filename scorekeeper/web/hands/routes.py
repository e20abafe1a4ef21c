"""Recording a hand (with a live preview), editing one, undoing the last."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.hands import (
    Stale,
    UndoneHand,
    changed_meanwhile,
    edit_hand,
    edited_meanwhile,
    record_hand,
    same_people,
    undo_last,
)
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.stored import deals_played
from scorekeeper.core.table import Table, audit_trail, load_table
from scorekeeper.engine import GAMES, InvalidHand
from scorekeeper.web import life, refusals
from scorekeeper.web.access import NIGHT_WRITE, access, night_gone
from scorekeeper.web.context import get_db
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.hands.forms import FORMS, HandForm
from scorekeeper.web.messages import message
from scorekeeper.web.view import hand_view, hand_word, seat_names

#: card points in a deal, for "the other side has ..." as the points are typed

bp = Blueprint("hands", __name__, url_prefix="/nights/<int:night_id>/hands")


def _table(night_id: int, newest: int | None = None) -> Table:
    """The night (with ``newest``: only that many of its newest hands read)."""
    try:
        return load_table(db=get_db(), night_id=night_id, newest=newest)
    except NotFound:  # none, or gone since the request began (a tournament's round drawn again meanwhile)
        abort(404, night_gone(night_id, _("There is no such night.")))


def _hidden_fields(table: Table) -> frozenset[str]:
    """Fields the hand form doesn't show at this table (a message for them goes above the form)."""
    hidden = {"idempotency_key", "expected_hands", "dealt_by", "csrf_token"}
    game = table.night.game  # and those the engine says do not count under the night's rules (Game.fields)
    return frozenset(hidden | FORMS[game].unasked(GAMES[game], table.settlement.rules))


def _attach(form: HandForm, exc: InvalidHand | InvalidInput, table: Table) -> None:
    """An engine error goes next to its field, else above the form; so does every other problem of the hand."""
    words = form.page_words()
    for problem in getattr(exc, "problems", (exc,)):
        name = form.field_for(problem.field) if problem.field else ""
        field = getattr(form, name, None) if name and name in form else None
        if field is not None and name not in _hidden_fields(table):
            field.errors = [*list(field.errors), message(problem, str(field.label.text), **words)]
        else:
            form.form_errors.append(message(problem, **words))


@dataclasses.dataclass(frozen=True)
class Problem:
    """One line of the error summary: what is wrong, and the field it links to (None: the form as a whole)."""

    message: str
    label: str | None = None
    target: str | None = None


def _problems(form: HandForm, table: Table, names: dict[int, str]) -> list[Problem]:
    """Everything that keeps the hand from being saved, in the form's order: the summary atop the form."""
    out = [Problem(str(e)) for e in form.form_errors]
    hidden = _hidden_fields(table)
    for field in form:
        if not field.errors:
            continue
        messages = [str(e) for e in field.errors]
        if field.name in hidden:  # a field the page does not show: no field to go to
            out += [Problem(m) for m in messages]
            continue
        label = str(field.label.text)
        if field.name.startswith("ramsch_"):  # a row of the Ramsch points: the player's name says which
            label = names.get(int(field.name.removeprefix("ramsch_")), label)
        target = f"{field.id}-group" if field.type == "RadioField" else field.id
        out += [Problem(m, None if m.startswith(label) else label, target) for m in messages]
    return out


def _form_page(table: Table, form: HandForm, positions, number: int, preview, status: int = 200, edit=False, codes=()):
    """The hand form (the preview's fragment with ``?fragment=1``); a refusal's ``codes`` in its header
    (web/refusals.py: what the outbox decides on, never the sentence)."""
    template = "hands/_preview.html" if request.args.get("fragment") else "hands/form.html"
    names = seat_names(table, positions)
    dealt = table.deal(number)  # the core's: the page shows it
    now = life.life(table.night)
    deal = number  # a tournament's table counts its deals: a hand dealt again is no deal
    if now.tournament:
        deal = (
            deals_played(night=table.night, hands=[h.data for h in table.hands[: number - 1]]) + 1
            if edit
            else now.next_deal
        )
    return (
        render_template(
            template,
            table=table,
            form=form,
            names=names,
            problems=_problems(form, table, names) if status >= 400 else [],
            saving=request.form.get("action") == "save",
            sits_out=table.players[dealt.sits_out].name if dealt.sits_out else None,
            number=number,
            deal=deal,
            dealer=table.players[dealt.dealer].name,
            dealt=dealt,
            forehand=table.players[dealt.forehand].name,
            preview=preview,
            edit=edit,
            hidden=_hidden_fields(table),
            total_points=GAMES[table.night.game].total_points,
            forehand_declares=GAMES[table.night.game].forehand_declares,
        ),
        status,
        refusals.header(*codes),
    )


#: the most hands waiting on a phone that a preview settles before its own (more: no preview)
WAITING_MAX = 40


def _behind_waiting(table: Table) -> Table | None:
    """The table after the hands waiting on the phone before the form's (``outbox_waiting``, the preview's: each
    hand's fields as the outbox keeps them, in order; static/outbox.js), settled in turn, not saved: the form names
    the deal after them, and its preview is of that deal (at a table of five, who sits out moves on). None where one
    of them is not a hand the night would take (the outbox will say so when it sends it): no preview then."""
    try:
        waiting = json.loads(request.form.get("outbox_waiting") or "[]")
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the reader goes
        return None
    if not isinstance(waiting, list) or len(waiting) > WAITING_MAX:
        return None
    for pairs in waiting:
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs
        ):
            return None
        dealt = table.next_deal
        form = FORMS[table.night.game](formdata=MultiDict(pairs), meta={"csrf": False})
        form.prepare(seat_names(table, dealt.positions), len(table.hands), table.settlement.rules, dealt.forehand_seat)
        if not form.validate():
            return None
        try:
            table = table.with_hand(len(table.hands) + 1, form.hand_json())
        except (InvalidHand, InvalidInput):
            return None
    return table


def _seen(expected: int | None, landed: int | None) -> int | None:
    """The hands a preview's form counts before the hands waiting on its phone: the form's own count, or more where
    the phone's first waiting hand was entered after more (``landed``: the phone's own hands, sent since the form was
    made; never fewer than the form saw)."""
    if expected is None or landed is None or landed < expected:
        return expected
    return landed


def _handle(
    table: Table,
    form: HandForm,
    number: int,
    positions: tuple[int, ...],
    save,
    edit=False,
    current=None,
    waiting: int = 0,
    landed: int | None = None,
):
    """Validate, preview or save: the same path with or without JavaScript. ``current``: an edit's form of the hand
    as it is stored now, at the night's version now (a stale edit comes back with it, to be checked and saved).
    ``waiting``: how many hands waiting on the phone ``table`` holds before this one, settled (a preview's only:
    _behind_waiting): the form saw that many fewer. ``landed``: how many hands the first of those waiting was entered
    after (the phone's ``outbox_after``): the hands the phone sent since the form was made, one after another, which
    landed while the rest still wait, are its own, never "another phone recorded meanwhile"."""
    preview = None
    if request.method == "POST":
        if not form.validate():
            return _form_page(table, form, positions, number, None, 400, edit)
        hand = form.hand_json()  # as entered: the core completes it with its deal
        try:
            if request.form.get("action") == "save":
                save(hand, form)
                return None
            # a preview answers as the save would: a night that takes no hand now (closed meanwhile) refuses it
            # with the save's reason, changing nothing (core/lifecycle.py, asked as the use case asks it)
            if (refused := life.refusal(table.night, "edit" if edit else "record")) is not None:
                raise refused
            # and a stale form (another phone recorded or took back a hand meanwhile) with the save's reason too:
            # its hand is no longer the next one, whose figures (at a table of five: other people's) it would show;
            # an edit form made at an older version of the night (a hand recorded, edited or undone since) neither
            stale = (
                edited_meanwhile(night=table.night, expected_version=form.expected())
                if edit
                else changed_meanwhile(
                    night=table.night,
                    expected_hands=form.expected(),
                    count=number - 1 - waiting,
                    seen=_seen(form.expected(), landed),
                )
            )
            if stale is not None:
                raise stale
            # the same settling as saving (the night's carried pot included), without saving
            preview = hand_view(table.with_hand(number, hand), number)
        except InvalidHand as exc:
            get_db().rollback()
            if exc.hand is not None and exc.hand != number - 1:  # the change would spoil a later hand
                # that hand's own players (at a table of five another one sits out)
                words = {**form.page_words(), "seats": seat_names(table, table.deal(exc.hand + 1).positions)}
                form.form_errors.append(
                    _(
                        "This would make %(hand)s invalid: %(reason)s",
                        hand=hand_word(table.night.game, exc.hand + 1, lower=True),
                        reason=message(exc, **words),
                    )
                )
            else:
                _attach(form, exc, table)
            return _form_page(table, form, positions, number, None, 400, edit)
        except InvalidInput as exc:
            get_db().rollback()
            if exc.field == "dealt_by":  # entered for another deal: the hand it would be, in the game's word
                exc.params["hand"] = hand_word(table.night.game, exc.params["hand"], lower=True)
            _attach(form, exc, table)
            return _form_page(table, form, positions, number, None, 400, edit)
        except Conflict as exc:
            get_db().rollback()
            form.form_errors.append(message(exc, sentence=True))
            # what the refusal is, for the outbox (web/refusals.py): the night takes no hand now, or the form is stale
            closed = life.refusal(table.night, "edit" if edit else "record") is not None
            codes = [refusals.CLOSED] if closed else [refusals.CHANGED] if isinstance(exc, Stale) else []
            if not edit and form.expected() not in (None, number - 1) and not closed:
                # a stale form (another phone was quicker): the page shows the next hand's deal and names;
                # once checked with the table, saved again it is that hand
                errors = form.form_errors
                seen_by = parse_int(form.dealt_by.data or "")
                if not same_people(night=table.night, hand=hand, dealt=table.deal(number), dealt_by=seen_by):
                    # other people play the next hand (at a table of five another sits out; where forehand
                    # declares, another declares): a seat on the form would now be someone else's: it starts empty
                    form = type(form)(formdata=None)
                    form.prepare(
                        seat_names(table, positions),
                        number - 1,
                        table.settlement.rules,
                        table.deal(number).forehand_seat,
                    )
                    errors.append(_("Other players play this hand, or another one declares: enter it again."))
                    codes.append(refusals.OTHERS)
                form.form_errors = errors
                form.expected_hands.data, form.dealt_by.data = str(number - 1), str(table.deal(number).dealer)
                if not request.args.get("fragment"):  # the script's preview leaves the page's form as it was
                    form.form_errors.append(
                        _(
                            "Saved again, it is recorded as %(hand)s.",
                            hand=hand_word(table.night.game, number, lower=True),
                        )
                    )
            # a stale edit (another phone recorded, edited or took back a hand meanwhile): the form comes back with
            # the hand as stored now and the night's version now, so that, checked, it saves (said above the form,
            # not in the refusal's reasons, which the preview says as the save; the script's preview leaves the
            # page's form as it was)
            if (
                edit
                and current is not None
                and isinstance(exc, Stale)
                and not closed
                and not request.args.get("fragment")
            ):
                errors = form.form_errors
                form = current()
                form.form_errors = errors
                flash(_("The form shows the hand as it is stored now."), "error")
            return _form_page(table, form, positions, number, None, 409, edit, codes)
    return _form_page(table, form, positions, number, preview, edit=edit)


@bp.route("/new", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def new(night_id: int):
    """Record the next hand (the form opens only while the night takes one: core/lifecycle.py)."""
    table = _table(night_id, newest=1)  # the next hand is settled from the stored state after the last
    # ?words=1: the form's words, which the outbox says a waiting hand in (static/outbox.js wordsForm), also of a
    # night that takes no hand now (closed meanwhile): the page's language followed; its Save is refused as ever
    words = request.method == "GET" and request.args.get("words") == "1"
    if (away := life.not_now(table.night, "record")) is not None and not words:
        return away
    form = FORMS[table.night.game]()
    stored = len(table.hands)
    waiting, landed = 0, None
    if request.method == "POST" and request.form.get("action") == "preview" and request.form.get("outbox_waiting"):
        # the preview of a hand behind those waiting on the phone: of the deal the form names, after them
        behind = _behind_waiting(table)
        if behind is None:
            return render_template("hands/_preview.html", waiting_unsettled=True, table=table)
        waiting, table = len(behind.hands) - stored, behind
        # the count of hands the first of them was entered after (static/outbox.js waitingAhead): those sent before
        # it landed since the form was made, this phone's own
        landed = parse_int(request.form.get("outbox_after") or "")
    dealt = table.next_deal  # worked out by the core as it read the night
    positions = dealt.positions
    form.prepare(seat_names(table, positions), stored, table.settlement.rules, dealt.forehand_seat)
    if not form.dealt_by.data:
        form.dealt_by.data = str(dealt.dealer)

    said = []  # a message for the table page: shown where it opens, not above the balance's anchor

    def save(hand, form):
        try:
            record_hand(
                db=get_db(),
                night_id=night_id,
                hand=hand,
                idempotency_key=form.idempotency_key.data or None,
                expected_hands=form.expected(),
                night_uid=request.form.get("night_uid"),
                who=life.who(night_id),
                dealt_by=parse_int(form.dealt_by.data or ""),  # the core refuses it where other players play it now
                seen=(table.night.version, dealt),  # the deal the core worked out as it read the night
            )
        except NotFound:  # gone while it waited for the night's lock (a tournament's round drawn again)
            get_db().rollback()
            abort(404, night_gone(night_id, _("There is no such night.")))
        except UndoneHand as exc:  # saved before, undone since: dealt with (an outbox drops it), never recorded again
            get_db().rollback()
            flash(
                _(
                    "%(hand)s was saved already and has been undone since: it is not recorded again.",
                    hand=hand_word(table.night.game, exc.number),
                ),
                "error",
            )
            said.append(exc)

    answer = _handle(table, form, len(table.hands) + 1, positions, save, waiting=waiting, landed=landed)
    return answer or redirect(url_for("nights.show", night_id=night_id, _anchor=None if said else "balance"))


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
    for f in dataclasses.fields(GAMES[game].hand_cls):  # a toggle that is on unless the hand says off
        if f.default is True and f.name not in hand:
            data[f.name] = True
    return FORMS[game].data_of(hand, data)


def _taken_back(table: Table, number: int) -> None:
    """A hand that was there and has been taken back (on another phone, or in another tab, while its edit form was
    open): a 409 saying so, with the code of a form made before the night changed (the page leads back to the
    table: templates/errors/error.html), not "There is no such hand"."""
    if number < 1 or not any(
        e.action == "undo" for e in audit_trail(db=get_db(), night_id=table.night.id, hand_numbers=[number])
    ):
        return
    raise refusals.Refused(
        _(
            "%(hand)s was taken back meanwhile: there is nothing left to change.",
            hand=hand_word(table.night.game, number),
        ),
        refusals.CHANGED,
    )


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def edit(night_id: int, number: int):
    """Change an earlier hand; everything after it is recomputed."""
    table = _table(night_id)
    if not 1 <= number <= len(table.hands):
        _taken_back(table, number)
        abort(404, _("There is no such hand."))
    if (away := life.not_now(table.night, "edit")) is not None:
        return away
    record = table.hands[number - 1]
    positions = table.positions[number - 1]
    form_cls = FORMS[table.night.game]
    form = form_cls() if request.method == "POST" else form_cls(data=_form_data_of(record.data, table.night.game))
    forehand = table.deal(number).forehand_seat
    form.prepare(seat_names(table, positions), len(table.hands), table.settlement.rules, forehand)
    if request.method == "GET":
        form.expected_hands.data = str(table.night.version)

    def current() -> HandForm:
        """The form of the hand as the night stores it now, made at its version now (a stale edit's)."""
        now = _table(night_id)
        fresh = form_cls(formdata=None, data=_form_data_of(now.hands[number - 1].data, now.night.game))
        fresh.prepare(seat_names(now, positions), len(now.hands), now.settlement.rules, forehand)
        fresh.expected_hands.data = str(now.night.version)
        return fresh

    def save(hand, form):
        edit_hand(
            db=get_db(),
            night_id=night_id,
            number=number,
            hand=hand,
            expected_version=form.expected(),
            night_uid=request.form.get("night_uid"),
            who=life.who(night_id),
        )

    answer = _handle(table, form, number, positions, save, edit=True, current=current)
    if answer is not None:
        return answer
    flash(_("%(hand)s changed.", hand=hand_word(table.night.game, number)), "ok")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.route("/undo", methods=["GET", "POST"])
@access(NIGHT_WRITE)
def undo(night_id: int):
    """Take back the last hand, after a confirmation."""
    table = _table(night_id, newest=1)
    form = ConfirmForm()
    if not table.hands:
        flash(_("There is no hand to undo."), "error")
        return redirect(url_for("nights.show", night_id=night_id))
    if (away := life.not_now(table.night, "undo")) is not None:
        return away
    # the night's version the confirmation was made at: a change since (another phone's) refuses it
    seen = parse_int(request.form.get("expected_version", ""))
    if request.method == "POST" and seen is None:  # missing or not a number: not the page's, nothing undone
        flash(
            _("This form was not made by this page. Open the table again and undo from there.")
            if table.at_tournament
            else _("This form was not made by this page. Open the night again and undo from there."),
            "error",
        )
        return render_template("hands/undo.html", table=table, form=form), 400
    if request.method == "POST" and form.validate():
        try:
            undo_last(db=get_db(), night_id=night_id, expected_version=seen, who=life.who(night_id))
        except Conflict as exc:
            get_db().rollback()
            flash(message(exc), "error")
        else:
            flash(_("%(hand)s was undone.", hand=hand_word(table.night.game, len(table.hands))), "ok")
        return redirect(url_for("nights.show", night_id=night_id))
    return render_template("hands/undo.html", table=table, form=form), 400 if request.method == "POST" else 200
