"""Tournaments: the list, creating one, the organiser's page (participants, the draw, each table's
code, paper results), the standings (phones and a big screen), the table cards and the result list
as PDF. A table's phone records on the table's night page, as at a club night."""

from __future__ import annotations

import base64
import io
import re
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user

from scorekeeper.core import lifecycle
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound, Refusal
from scorekeeper.core.numbers import parse_cents, parse_int
from scorekeeper.core.players import list_guests, list_players, roster_stamp
from scorekeeper.core.text import name_key
from scorekeeper.engine import GAMES, InvalidHand, ledger
from scorekeeper.engine.tariff import tariff
from scorekeeper.web import life, options, printing
from scorekeeper.web.access import ADMIN, SCORER, VIEWER, access
from scorekeeper.web.addresses import reach_url
from scorekeeper.web.context import found, get_db
from scorekeeper.web.forms import ReopenForm, choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.live import not_modified, tagged
from scorekeeper.web.messages import message
from scorekeeper.web.nights.forms import presets_json
from scorekeeper.web.paper import save_paper
from scorekeeper.web.tournaments.forms import (
    ActionForm,
    ConfirmForm,
    EntrantForm,
    KeepApartForm,
    TournamentForm,
    paper_form,
    parse_prizes,
    rules_form,
)

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")

#: How often the standings board asks whether anything changed (seconds).
BOARD_SECONDS = 10


@bp.context_processor
def _tournament_words() -> dict:
    """What every tournament page and PDF uses: the club's currency (as every page; a tournament's fee and prizes
    are in its own, ``t.currency``), the ties' notes."""
    return {"currency": current_app.config["CURRENCY"], "ties": tm.ties}


def _view(tournament_id: int) -> tm.TournamentView:
    return found(tm.read_tournament, _("There is no such tournament."), tournament_id=tournament_id)


@bp.get("/")
@access(VIEWER)
def index():
    """Every tournament, newest first."""
    return render_template("tournaments/index.html", tournaments=tm.list_tournaments(db=get_db()))


@bp.route("/new", methods=["GET", "POST"])
@access(SCORER)
def new():
    """Create a tournament: name, date, place, game, rules, rounds, deals, fee and prizes."""
    db = get_db()
    form = TournamentForm()
    status = 200
    if request.method == "POST" and "apply_preset" in request.form:
        if form.game.data in tm.TOURNAMENT_GAMES:
            form.apply_preset()
    elif form.validate_on_submit():
        if form.preset_not_applied():
            form.apply_preset()
            form.form_errors.append(_("The preset's rules are filled in: check them and create the tournament."))
        else:
            try:
                t = tm.create_tournament(
                    db=db,
                    name=form.name.data,
                    game=form.game.data,
                    rules=form.rules(),
                    played_on=form.played_on.data,
                    place=form.place.data or "",
                    rounds=form.rounds.data,
                    deals=form.deals.data,
                    entry_fee_cents=parse_cents(form.entry_fee.data),
                    prizes=parse_prizes(form.prizes.data),
                    currency=current_app.config["CURRENCY"],  # the club's: the tournament keeps it
                )
            except InvalidHand as exc:
                db.rollback()
                form.refused(exc)
            except InvalidInput as exc:
                db.rollback()
                target = getattr(form, exc.field, None) or getattr(form, exc.field.removesuffix("_cents"), None)
                if target is None:
                    form.form_errors.append(message(exc))
                else:
                    target.errors = [*list(target.errors), message(exc, target.label.text)]
            else:
                return redirect(url_for(".show", tournament_id=t.id))
    if request.method == "POST" and "apply_preset" not in request.form:
        status = 400
    games = {name: GAMES[name] for name in tm.TOURNAMENT_GAMES}
    return (
        render_template(
            "tournaments/new.html",
            form=form,
            games=games,
            labels=GAME_LABELS,
            presets=presets_json(tm.TOURNAMENT_GAMES),
        ),
        status,
    )


def _entrant_form(view: tm.TournamentView) -> EntrantForm:
    form = EntrantForm()
    # who is or was entered (a replaced person keeps their earlier tables: core/tournaments/entrants.py refuses them)
    entered = {e.player_id for e in view.entrants} | {f["player_id"] for e in view.entrants for f in e.former or ()}
    roster = [p for p in list_players(db=get_db(), active=True) if p.id not in entered]
    guests = [p for p in list_guests(db=get_db()) if p.id not in entered]  # a guest who comes back
    # names that look alike (stored before today's rule) are told apart by id, as a guest's name typed that
    # looks like several is refused naming them (core/tournaments/entrants.py _person_named)
    alike = Counter(name_key(p.name) for p in (*roster, *guests))

    def member(p) -> str:
        return p.name if alike[name_key(p.name)] < 2 else f"{p.name} (id {p.id})"

    def guest(p) -> str:
        if alike[name_key(p.name)] < 2:
            return _("%(name)s (guest)", name=p.name)
        return _("%(name)s (guest, id %(id)s)", name=p.name, id=p.id)

    form.player.choices = choices(
        [("", "—"), *((p.id, member(p)) for p in roster), *((p.id, guest(p)) for p in guests)]
    )
    return form


#: The sections of the tournament's page a change leads back to (``_said_at``), besides each round's.
SECTIONS = ("entrants", "apart")


def _said_at(tournament_id: int, section: str, **args) -> str:
    """The tournament's page opened at ``section`` (its anchor), where the message just flashed is said: at its
    top it would be scrolled past (on a phone, the whole screen above the section) and never seen."""
    return url_for(".show", tournament_id=tournament_id, said=section, _anchor=section, **args)


def _show(
    view: tm.TournamentView,
    entrant_form: EntrantForm | None = None,
    status: int = 200,
    apart_form: KeepApartForm | None = None,
):
    # the section a change led back to says its message (a section the page has: else at the page's top)
    said = request.args.get("said")
    said_at = said if said in {*SECTIONS, *(f"round-{r.number}" for r in view.rounds)} else None
    deals_warning = None
    t = view.tournament
    if t.deals % 5 and view.current and any(len(table.entrants) == 5 for table in view.current.tables):
        deals_warning = _(
            "%(deals)s deals at a table of five: not every player deals equally often (a multiple of 5 would).",
            deals=t.deals,
        )
    return (
        render_template(
            "tournaments/show.html",
            view=view,
            t=t,
            label=GAME_LABELS[t.game],
            entrant_form=entrant_form or _entrant_form(view),
            apart_form=apart_form or KeepApartForm(formdata=None),
            action=ActionForm(),
            deals_warning=deals_warning,
            said_at=said_at,
        ),
        status,
    )


@bp.get("/<int:tournament_id>")
@access(VIEWER)
def show(tournament_id: int):
    """The organiser's page: participants, rounds and tables, what to do next."""
    return _show(_view(tournament_id))


def _refused(tournament_id: int, exc: Exception):
    """Back to the tournament's page with the refusal said (nothing changed)."""
    get_db().rollback()
    view = _view(tournament_id)
    flash(message(exc), "error")
    return _show(view, status=409 if isinstance(exc, Conflict) else 400)


@bp.post("/<int:tournament_id>/entrants")
@access(SCORER)
def add_entrant(tournament_id: int):
    """Enter a player of the roster or a guest."""
    view = _view(tournament_id)
    form = _entrant_form(view)
    if not form.validate_on_submit():
        return _show(view, form, 400)
    player_id = parse_int(form.player.data) if form.player.data else None
    guest = (form.guest.data or "").strip() or None
    if form.player.data and player_id is None:
        form.player.errors = [*list(form.player.errors), _("Not a valid choice.")]
        return _show(view, form, 400)
    try:
        entrant = tm.add_entrant(db=get_db(), tournament_id=tournament_id, player_id=player_id, guest=guest)
    except InvalidInput as exc:
        get_db().rollback()
        target = form.guest if exc.field == "guest" or guest else form.player
        target.errors = [*list(target.errors), message(exc)]
        return _show(_view(tournament_id), form, 400)
    except Conflict as exc:
        return _refused(tournament_id, exc)
    except NotFound:
        form.player.errors = [*list(form.player.errors), _("Not a valid choice.")]
        return _show(view, form, 400)
    flash(_("Start number %(n)s is entered.", n=entrant.number))
    # the next one is typed at once: the roster's field has the focus (the organiser at the door)
    return redirect(_said_at(tournament_id, "entrants", entered=entrant.number))


def _entrant(view: tm.TournamentView, number: int):
    entrant = next((e for e in view.entrants if e.number == number), None)
    if entrant is None:
        abort(404, _("There is no such participant."))
    return entrant


def _entrant_page(tournament_id: int, number: int, template: str, make_form, act):
    """A page about one participant that asks before it changes anything (replace): shown on GET; on POST
    ``act(view, entrant, form)`` does the change and answers where to go next, or the status to show the
    page again with (its refusals said on the form)."""
    view = _view(tournament_id)
    entrant = _entrant(view, number)
    form = make_form(view)
    status = 200
    if request.method == "POST":
        outcome = act(view, entrant, form)
        if not isinstance(outcome, int):
            return outcome
        status = outcome
    return render_template(template, view=view, t=view.tournament, entrant=entrant, form=form), status


def _confirmed(tournament_id: int, template: str, *, confirm: str, ask: str, change, done: str, back: str, **page):
    """A change asked on its own page first (a plain link and form, no script: a withdrawal, clearing a
    table's paper points). GET shows ``template`` (with ``page`` and the form); a POST carrying that page's
    confirmation (``confirm``: what the page posts) does ``change()``, says ``done`` and leads ``back``; a
    post without it (``ask`` says so) or with an expired form changes nothing and shows the page again; a
    refusal of the core goes back to the tournament's page, said."""
    form = ConfirmForm()
    status = 200
    if request.method == "POST":
        status = 400
        if not form.validate_on_submit():
            form.form_errors.append(_("The form has expired: try again."))
        elif form.confirm.data != confirm:
            form.form_errors.append(ask)
        else:
            try:
                change()
            except (Conflict, InvalidInput) as exc:
                return _refused(tournament_id, exc)
            flash(done)
            return redirect(back)
    return render_template(template, form=form, **page), status


@bp.route("/<int:tournament_id>/entrants/<int:number>/withdraw", methods=["GET", "POST"])
@access(SCORER)
def withdraw(tournament_id: int, number: int):
    """Withdraw a participant between rounds, after a page that names them asks (no script needed)."""
    if request.method == "POST" and not any(e.number == number for e in _view(tournament_id).entrants):
        return _refused(tournament_id, InvalidInput("number", "there is no participant {n}", n=number))
    view = _view(tournament_id)
    entrant = _entrant(view, number)
    return _confirmed(
        tournament_id,
        "tournaments/withdraw.html",
        confirm=str(number),
        ask=_("Confirm the withdrawal on this page."),
        change=lambda: tm.withdraw_entrant(db=get_db(), tournament_id=tournament_id, number=number),
        done=_(
            "%(name)s (start number %(n)s) has withdrawn: not drawn again; the points so far stay.",
            name=view.names[number],
            n=number,
        ),
        back=_said_at(tournament_id, "entrants"),
        view=view,
        t=view.tournament,
        entrant=entrant,
    )


@bp.post("/<int:tournament_id>/entrants/<int:number>/take-back")
@access(SCORER)
def take_back(tournament_id: int, number: int):
    """Take a withdrawal back (until a round without them starts)."""
    view = _view(tournament_id)
    if not ActionForm().validate_on_submit():
        return _refused(tournament_id, InvalidInput("csrf_token", "the form has expired: try again"))
    try:
        tm.take_back_withdrawal(db=get_db(), tournament_id=tournament_id, number=number)
    except (Conflict, InvalidInput) as exc:
        return _refused(tournament_id, exc)
    except NotFound:
        return _refused(tournament_id, InvalidInput("number", "there is no participant {n}", n=number))
    flash(_("%(name)s (start number %(n)s) plays again.", name=view.names[number], n=number))
    return redirect(_said_at(tournament_id, "entrants"))


@bp.post("/<int:tournament_id>/apart")
@access(SCORER)
def keep_apart(tournament_id: int):
    """Keep two participants at different tables from the next draw on (a couple, a family)."""
    return _apart(tournament_id, tm.keep_apart, _("%(a)s and %(b)s are kept apart from the next draw on."))


@bp.post("/<int:tournament_id>/apart/remove")
@access(SCORER)
def allow_together(tournament_id: int):
    """No longer keep two participants apart."""
    return _apart(tournament_id, tm.allow_together, _("%(a)s and %(b)s may sit together again."))


def _apart(tournament_id: int, change, said: str):
    view = _view(tournament_id)
    form = KeepApartForm()
    if not form.validate_on_submit():
        return _show(view, status=400, apart_form=form)
    try:
        change(db=get_db(), tournament_id=tournament_id, first=form.first.data, second=form.second.data)
    except InvalidInput as exc:
        get_db().rollback()
        field = form.first if exc.field == "first" else form.second
        field.errors = [*list(field.errors), message(exc)]
        return _show(_view(tournament_id), status=400, apart_form=form)
    except Conflict as exc:
        return _refused(tournament_id, exc)
    a, b = sorted((form.first.data, form.second.data))
    flash(said % {"a": a, "b": b})
    return redirect(_said_at(tournament_id, "apart"))


@bp.route("/<int:tournament_id>/entrants/<int:number>/replace", methods=["GET", "POST"])
@access(SCORER)
def replace(tournament_id: int, number: int):
    """Another person takes a participant's place: the start number and the points so far stay."""

    def act(view, entrant, form):
        if not form.validate_on_submit():
            return 400
        player_id = parse_int(form.player.data) if form.player.data else None
        guest = (form.guest.data or "").strip() or None
        # whose place the page asked about (a page of before this field: the one read now, before the lock)
        was = parse_int(request.form["was"]) or 0 if "was" in request.form else entrant.player_id
        try:
            if form.player.data and player_id is None:
                raise NotFound(form.player.data)
            tm.replace_entrant(
                db=get_db(), tournament_id=tournament_id, number=number, player_id=player_id, guest=guest, was=was
            )
        except InvalidInput as exc:
            get_db().rollback()
            target = form.guest if exc.field == "guest" or guest else form.player
            target.errors = [*list(target.errors), message(exc)]
        except Conflict as exc:
            if exc.template == tm.REPLACED_MEANWHILE:  # the page's names are old: the tournament's say who now
                return _refused(tournament_id, exc)
            get_db().rollback()
            form.form_errors.append(message(exc))
            return 409
        except NotFound:
            get_db().rollback()
            form.player.errors = [*list(form.player.errors), _("Not a valid choice.")]
        else:
            name = tm.read_tournament(db=get_db(), tournament_id=tournament_id).names[number]
            flash(
                _(
                    "%(name)s takes the place of %(before)s: start number %(n)s, the points so far stay.",
                    name=name,
                    before=view.names[number],
                    n=number,
                )
            )
            return redirect(_said_at(tournament_id, "entrants"))
        return 400

    return _entrant_page(tournament_id, number, "tournaments/replace.html", _entrant_form, act)


@bp.post("/<int:tournament_id>/draw")
@access(SCORER)
def draw(tournament_id: int):
    """Draw the next round, or (``again``) the current one again before it starts."""
    _view(tournament_id)
    if not ActionForm().validate_on_submit():
        return _refused(tournament_id, InvalidInput("csrf_token", "the form has expired: try again"))
    try:
        if request.form.get("again"):
            drawn = tm.redraw_round(db=get_db(), tournament_id=tournament_id)
        else:
            drawn = tm.draw_round(db=get_db(), tournament_id=tournament_id)
    except (Conflict, InvalidInput) as exc:
        return _refused(tournament_id, exc)
    flash(_("Round %(n)s is drawn.", n=drawn.number))
    return redirect(_said_at(tournament_id, f"round-{drawn.number}"))


@bp.post("/<int:tournament_id>/close")
@access(SCORER)
def close(tournament_id: int):
    """Close the tournament: the standings are final."""
    _view(tournament_id)
    if not ActionForm().validate_on_submit():
        return _refused(tournament_id, InvalidInput("csrf_token", "the form has expired: try again"))
    try:
        tm.close_tournament(db=get_db(), tournament_id=tournament_id)
    except (Conflict, InvalidInput) as exc:
        return _refused(tournament_id, exc)
    flash(_("The tournament is closed: the standings are final."))
    return redirect(url_for(".show", tournament_id=tournament_id))


@bp.route("/<int:tournament_id>/reopen", methods=["GET", "POST"])
@access(ADMIN)
def reopen(tournament_id: int):
    """Open a closed tournament again (an admin, with a reason the page keeps): its tables are no
    longer frozen, so that one can then be reopened and corrected."""
    t = _view(tournament_id).tournament
    form = ReopenForm()
    valid = form.validate_on_submit()
    if request.method == "POST" and not valid:  # no reason, or a form too old: said on the form first
        return render_template("tournaments/reopen.html", t=t, form=form), 400
    refused = lifecycle.tournament_refusal(t, lifecycle.REOPEN, life.who(None))
    if refused is not None:
        return _refused(tournament_id, refused)
    if valid:
        try:
            tm.reopen_tournament(db=get_db(), tournament_id=tournament_id, reason=form.reason.data, who=life.who(None))
        except InvalidInput as exc:
            get_db().rollback()
            form.reason.errors = [message(exc)]
        except Conflict as exc:
            return _refused(tournament_id, exc)
        else:
            flash(_("The tournament is open again: its standings are not final; an admin can reopen a table."))
            return redirect(url_for(".show", tournament_id=tournament_id))
    status = 400 if request.method == "POST" else 200
    return render_template("tournaments/reopen.html", t=t, form=form), status


def _table(view: tm.TournamentView, round_number: int, table: int) -> tm.TableView:
    """The table of a round, else 404. A paper form posted for a table its round, drawn again meanwhile, no
    longer has (``night_uid``: the night the form was made for, one no table of the round has now), or a link
    to such a table's page (its ``night``, which every link to a table's pages carries), or to a table whose
    number is another night's now (other players: its clearing too, which posts its link's ``night``), leads
    to the round's new tables, saying so (and, posted, that nothing was saved or changed), as a phone of such a
    table is told (web/access.py ``REDRAWN``). So does a link without its night (given out before links named
    it) to a table number the round no longer has, saying only that (it cannot tell a table gone from one never
    drawn), where a table of that number could ever have been drawn (as many tables as fours of participants,
    withdrawn ones too); beyond that, and in a round not drawn, there is no such table."""
    posted = request.form.get("night_uid") if request.method == "POST" else None
    made_for = posted or request.args.get("night")
    r = next((r for r in view.rounds if r.number == round_number), None)
    if r is None:
        abort(404, _("There is no such table."))
    now = next((t for t in r.tables if t.number == table), None)
    if now is not None and (posted or not made_for or made_for == now.night.uid):
        return now  # (a paper form posted for another night: the core's guard refuses it, with the new form)
    if now is None and (
        made_for in {t.night.uid for t in r.tables} if made_for else not 1 <= table <= len(view.entrants) // 4
    ):
        abort(404, _("There is no such table."))  # a night of another number (a link made up); a number never drawn
    # one sentence of its parts, each said alone (in German as in English): what became of the table, whether
    # anything was done, where the page leads
    if not made_for:
        said = [_("Round %(r)s has no table %(n)s now.", r=round_number, n=table)]
    elif now is not None:  # its number is another table's now: other players, another night
        said = [_("Round %(r)s was drawn again meanwhile: table %(n)s has other players now.", r=round_number, n=table)]
    else:
        said = [_("Round %(r)s was drawn again meanwhile: table %(n)s is gone.", r=round_number, n=table)]
    if request.method == "POST":
        said.append(_("Nothing was saved.") if request.endpoint == "tournaments.paper" else _("Nothing was changed."))
    said.append(_("Here are the round's new tables.") if made_for else _("Here are the round's tables."))
    flash(" ".join(said), "error")  # at the page's top, where it opens: the round's anchor scrolled past it
    abort(redirect(url_for(".show", tournament_id=view.tournament.id), 303))


#: Where the paper form says a refusal of one player's figures (by its field, 0-based by table position): their
#: points at their points; their solos at their solos lost, or, where the form could not read that (a word typed:
#: the core was given 0), at their solos won, whose figure it is about.
PLAYER_FIELDS = {"points": ("p",), "solos": ("l", "w")}


def _paper_refused(form, problems) -> None:
    """The core's refusals of a paper list (core/tournaments/paper.py ``paper_problems``, the one place of its ranges,
    rules and words), every one at once: a player's at their field (``PLAYER_FIELDS``), the whole list's above
    the form. A field the form could not read says that alone: the core's refusal of a figure it was not given
    says nothing more."""
    for problem in problems:
        player = re.fullmatch(r"(points|solos)\.(\d{1,3})", problem.field)
        fields = [form._fields.get(f"{key}{int(player[2]) + 1}") for key in PLAYER_FIELDS[player[1]]] if player else []
        fields = [f for f in fields if f is not None]
        if not fields:
            form.form_errors.append(message(problem))
        elif field := next((f for f in fields if not f.errors), None):
            field.errors = [message(problem, sentence=True)]


@bp.route("/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table>/paper", methods=["GET", "POST"])
@access(SCORER)
def paper(tournament_id: int, round_number: int, table: int):
    """A table's final points typed from its paper list."""
    view = _view(tournament_id)
    at = _table(view, round_number, table)
    form = paper_form(at.names, view.tournament.deals)
    status = 200
    if request.method == "POST" and request.form.get("clear"):  # asked on its own page first: nothing changes here
        return redirect(
            url_for(
                ".clear_paper",
                tournament_id=tournament_id,
                round_number=round_number,
                table=table,
                night=at.night.uid,
            )
        )
    refused = tm.paper_refusal(
        db=get_db(), tournament_id=tournament_id, round_number=round_number, table=table, who=life.who(None)
    )
    if request.method == "GET":
        if refused is not None:  # said before the form is filled in for nothing
            return _refused(tournament_id, refused)
        form.made_for(at)
        return _paper_page(view, at, round_number, form, status)
    status = 400
    stale = _stale(  # first: old points under the names of other players are not worth a word
        at.number, tm.paper_form_refusal(at.number, at.night, at.player_ids, **form.made_for_values())
    )
    if stale is not None and refused is None:  # (a closed tournament's, a table's with deals: the core says)
        return _paper_page(view, at, round_number, _paper_made_for(view, at, stale), 409)
    if not form.validate_on_submit():  # a field it could not read (or an expired form): the core's problems too
        _paper_refused(
            form, tm.paper_problems(form.points(), form.solos(), seats=len(at.names), deals=view.tournament.deals)
        )
    else:
        try:
            save_paper(tournament_id, round_number, table, form.values())
        except (InvalidInput, Conflict) as exc:
            get_db().rollback()
            exc = _stale(table, exc) or exc
            if isinstance(exc, InvalidInput):
                _paper_refused(form, exc.problems)
                return _paper_page(view, at, round_number, form, status)
            view = _view(tournament_id)
            now = _table(view, round_number, table)  # gone meanwhile: said
            if exc.template in PAPER_STALE:  # a new form of the table as it is now, its players named
                at, form = now, _paper_made_for(view, now, exc)
            else:
                form.form_errors.append(message(exc))
            status = 409
        else:
            flash(_("The points of table %(n)s are entered.", n=table))
            return redirect(_said_at(tournament_id, f"round-{round_number}"))
    return _paper_page(view, at, round_number, form, status)


#: A paper form's refusals for being stale: the form is made again for the table as it is now.
PAPER_STALE = frozenset({tm.TABLE_REDRAWN, tm.SEATS_CHANGED, tm.PAPER_CHANGED})
#: The core's refusal of what a paper list says it was made for, in a wrong shape (its field), as the form
#: says it: the form's hidden fields, forged or mangled, name no table as it is now, so the form is stale.
MANGLED = {"night_uid": tm.TABLE_REDRAWN, "player_ids": tm.SEATS_CHANGED, "night_version": tm.PAPER_CHANGED}


def _stale(number: int, refused: Refusal | None) -> Refusal | None:
    """The core's refusal as the paper form of table ``number`` says it: a hidden field in a wrong shape is
    the form stale (``MANGLED``); any other as it is."""
    if isinstance(refused, InvalidInput) and refused.field in MANGLED:
        return Conflict(MANGLED[refused.field], n=number)
    return refused


def _paper_made_for(view: tm.TournamentView, at: tm.TableView, refused: Conflict):
    """A new paper form of the table as it is now (its players, its points), saying why the posted one was not
    saved."""
    form = paper_form(at.names, view.tournament.deals, formdata=None)
    form.made_for(at)
    form.form_errors.append(message(refused))
    return form


def _paper_page(view: tm.TournamentView, at: tm.TableView, round_number: int, form, status: int):
    return (
        render_template(
            "tournaments/paper.html",
            view=view,
            t=view.tournament,
            at_table=at,
            round_number=round_number,
            form=form,
            action=ActionForm(),
        ),
        status,
    )


@bp.route("/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table>/paper/clear", methods=["GET", "POST"])
@access(SCORER)
def clear_paper(tournament_id: int, round_number: int, table: int):
    """A table's paper points taken back (typed into the wrong table), after a page that names the table
    and its players asks (as a withdrawal does; no script needed): the table plays again."""
    view = _view(tournament_id)
    at = _table(view, round_number, table)
    if request.method == "GET":
        refused = tm.paper_refusal(
            db=get_db(),
            tournament_id=tournament_id,
            round_number=round_number,
            table=table,
            who=life.who(None),
            clear=True,
        )
        if refused is not None:  # said at once, not after a confirmation
            return _refused(tournament_id, refused)
    return _confirmed(
        tournament_id,
        "tournaments/clear_paper.html",
        confirm=str(table),
        ask=_("Confirm the clearing on this page."),
        change=lambda: tm.clear_paper(
            db=get_db(), tournament_id=tournament_id, round_number=round_number, table=table, who=life.who(None)
        ),
        done=_("The points of table %(n)s are cleared: its phone records its deals again.", n=table),
        back=_said_at(tournament_id, f"round-{round_number}"),
        view=view,
        t=view.tournament,
        at_table=at,
        round_number=round_number,
    )


def _standings_context(view: tm.TournamentView) -> dict:
    t = view.tournament
    prizes = dict(enumerate(t.prizes, start=1))
    return {
        "view": view,
        "t": t,
        "label": GAME_LABELS[t.game],
        "prizes": prizes,
        "board_seconds": BOARD_SECONDS,
        "round_no": 0,
    }


@bp.get("/<int:tournament_id>/standings")
@access(VIEWER)
def standings(tournament_id: int):
    """The standings: on a phone, or (``?board=1``) large on a big screen that refreshes itself.
    The board asks with its tag and gets 304 while no table has changed."""
    board = request.args.get("board") == "1"
    asked = request.args.get("round")
    round_no = 0 if asked is None else parse_int(asked) or -1  # a round's own list; 0: overall
    # the page says who is signed in and is in their language: the tag says both
    who = current_user.get_id() if current_user.is_authenticated else "-"
    version = found(tm.version, _("There is no such tournament."), tournament_id=tournament_id)
    tag = f"t{tournament_id}-{version}.{roster_stamp(db=get_db())}-{get_locale() or 'de'}-{who}-{int(board)}-{round_no}"
    unchanged = not_modified(tag)
    if unchanged is not None:
        return unchanged
    view = _view(tournament_id)
    if round_no and round_no not in view.round_standings:  # no such round (or no number)
        abort(404, _("There is no such round."))
    lines = view.round_standings[round_no] if round_no else view.standings
    page = render_template(
        "tournaments/standings.html",
        **(_standings_context(view) | {"board": board, "round_no": round_no, "lines": lines}),
    )
    return tagged(make_response(page), tag)


def _qr_data(url: str) -> str:
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=1, omitsize=True, xmldecl=False)
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode()


def _pdf(template: str, filename: str, *, shown: Hashable = None, **context) -> object:
    """A tournament's PDF, laid out once per version of the tournament (web/printing.py) and per
    ``shown``: what it prints that no version counts (the table cards: the tables' codes; the score
    sheets: the table asked for). Nothing else of the query is in the key: a link's ``?utm=...`` or a
    messenger's ``?fbclid=...`` gets the kept PDF, not a layout of many seconds in the one press."""
    lang = str(get_locale() or "de")
    t = context["t"]
    version = tm.version(db=get_db(), tournament_id=t.id)
    roster = roster_stamp(db=get_db())  # the names it prints (core/players.py)
    key = ("tournament", template, t.id, version, roster, lang, context.get("join"), shown)
    body = printing.pdf(key, lambda: render_template(template, lang=lang, **context))
    if body is None:
        return printing.busy()
    answer = make_response(body)
    answer.headers["Content-Type"] = "application/pdf"
    answer.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return answer


@bp.get("/<int:tournament_id>/cards.pdf")
@access(SCORER)
def cards(tournament_id: int):
    """The current round's table cards (players, seats, the table's code and QR code) and the
    seating list (every participant's table), to print."""
    view = _view(tournament_id)
    if view.current is None:
        return _refused(tournament_id, Conflict("no round is drawn yet"))
    join, join_note = reach_url("signin.join_night", table=1)  # the page then speaks of a table
    codes = {
        table.number: _qr_data(f"{join}#{table.night.join_code}")
        for table in view.current.tables
        if table.night.join_code
    }
    seating = sorted(
        ((e, table.number, position) for table in view.current.tables for position, e in enumerate(table.entrants, 1)),
        key=lambda x: x[0].number,
    )
    return _pdf(
        "tournaments/cards_pdf.html",
        f"tournament-{tournament_id}-round-{view.current.number}.pdf",
        view=view,
        t=view.tournament,
        label=GAME_LABELS[view.tournament.game],
        round=view.current,
        codes=codes,
        join=join,
        join_note=join_note,
        seating=seating,
        shown=tuple(table.night.join_code for table in view.current.tables),  # a code changes no version
    )


@dataclass(frozen=True)
class SheetLine:
    """A line of a score sheet: the deal's number, its dealer (table position) and who plays it."""

    number: int
    dealer: int
    playing: tuple[int, ...]


def _sheet_lines(t_deals: int, game: str, table: tm.TableView) -> list[SheetLine]:
    size = len(table.entrants)
    lines = []
    for k in range(1, t_deals + 1):
        # a hand dealt again has the same dealer and does not count: deal k's dealer never moves
        dealer = ledger.dealer_of(table.night.first_dealer, size, k - 1)
        lines.append(SheetLine(k, dealer, ledger.seat_positions(size, GAMES[game].seats, dealer)))
    return lines


@bp.get("/<int:tournament_id>/sheets.pdf")
@access(SCORER)
def sheets(tournament_id: int):
    """The current round's score sheets, one per table (``?table=n``: that one): what a table on
    paper fills in, deal by deal, and the organiser types into Points from paper."""
    view = _view(tournament_id)
    if view.current is None:
        return _refused(tournament_id, Conflict("no round is drawn yet"))
    t = view.tournament
    tables = view.current.tables
    if "table" in request.args:
        tables = [table for table in tables if str(table.number) == request.args["table"]]
        if not tables:
            abort(404, _("There is no such table."))
    game = GAMES[t.game]
    rules = game.parse_rules(t.rules)
    lines = [
        (str(options.option(t.game, name).label), options.value_text(t.game, name, value))
        for name, value in tariff(t.game, rules)
    ]
    return _pdf(
        "tournaments/sheets_pdf.html",
        f"tournament-{tournament_id}-round-{view.current.number}-sheets.pdf",
        view=view,
        t=t,
        label=GAME_LABELS[t.game],
        round=view.current,
        tables=[(table, _sheet_lines(t.deals, t.game, table)) for table in tables],
        spare=max(2, t.deals // 8),
        tariff=lines,
        shown=request.args.get("table"),  # one table's sheet, or all
    )


@bp.get("/<int:tournament_id>/results.pdf")
@access(VIEWER)
def results(tournament_id: int):
    """The result list (every participant's points per round, total, solos) and the prize list."""
    view = _view(tournament_id)
    return _pdf("tournaments/results_pdf.html", f"tournament-{tournament_id}-results.pdf", **_standings_context(view))


@bp.route("/<int:tournament_id>/rules", methods=["GET", "POST"])
@access(SCORER)
def rules(tournament_id: int):
    """Change the house rules until round 1 starts (a round drawn already plays the new ones)."""
    view = _view(tournament_id)
    t = view.tournament
    form = rules_form(t.game, t.rules)
    status = 200
    if request.method == "POST" and "apply_preset" in request.form:
        form.apply_preset()
    elif form.validate_on_submit():
        if form.preset_not_applied():
            form.apply_preset()
            form.form_errors.append(_("The preset's rules are filled in: check them and save them."))
        else:
            try:
                tm.set_rules(db=get_db(), tournament_id=tournament_id, rules=form.rules())
            except InvalidHand as exc:
                get_db().rollback()
                form.refused(exc)
            except Conflict as exc:
                get_db().rollback()
                form.form_errors.append(message(exc))
                status = 409
            else:
                flash(_("The rules are saved."))
                return redirect(url_for(".show", tournament_id=tournament_id))
    if request.method == "POST" and "apply_preset" not in request.form and status == 200:
        status = 400
    return (
        render_template(
            "tournaments/rules.html",
            t=t,
            form=form,
            games=[t.game],
            labels=GAME_LABELS,
            presets=presets_json(tm.TOURNAMENT_GAMES),
            started=view.started,
        ),
        status,
    )
