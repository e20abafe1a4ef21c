"""Nights: the list, starting one, the table page every phone at the table watches, its join code."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.core import history_pages, lifecycle
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.models import Night
from scorekeeper.core.nights import pot_moved, start_night
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.players import list_players
from scorekeeper.core.summary import night_money
from scorekeeper.core.table import Table, audit_trail, get_night, load_table
from scorekeeper.core.tournaments import list_tournaments, table_of
from scorekeeper.engine import GAMES, InvalidHand
from scorekeeper.web import life, options
from scorekeeper.web.access import NIGHT_READ, NIGHT_WRITE, SCORER, VIEWER, access, identity
from scorekeeper.web.addresses import reach_url
from scorekeeper.web.context import found, get_db
from scorekeeper.web.forms import choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.live import as_header, live_etag, not_modified, tagged
from scorekeeper.web.messages import message
from scorekeeper.web.nights.forms import MAX_SEATS, NightFilterForm, NightForm, option_field_name, presets_json
from scorekeeper.web.seasons import chosen_season, filter_form
from scorekeeper.web.view import audit_text, hand_views, money

bp = Blueprint("nights", __name__, url_prefix="/nights")
#: The API's name for a night, kept for links already printed: ``/sessions/<id>/summary.pdf``.
sessions_bp = Blueprint("sessions", __name__, url_prefix="/sessions")

PER_PAGE = 25
TOURNAMENTS_SHOWN = 3  # on the first page of the nights

# the pages' words for a night's rules, on every page that shows a night (web/options.py)
for helper in (options.preset_name, options.rule_changes):
    bp.add_app_template_global(helper)


def _money_options() -> dict[str, tuple[str, str]]:
    """Per game whose rules may pay no money at all: the option's form field, and the stake's hint about it."""
    out = {}
    for name in GAMES:
        option = options.money_option(name)
        if option is not None:
            hint = _(
                "%(game)s: only when “%(option)s” is more than 0.",
                game=GAME_LABELS[name],
                option=options.option(name, option).label,
            )
            out[name] = (option_field_name(name, option), hint)
    return out


def _off_roster(form: NightForm, roster: set[int]) -> list[int]:
    """The seats whose chosen player is none the form offered (a form opened before the player was merged away
    or retired, or a value made up): their numbers, for a message in the page's words, not the core's about an id."""
    return [n for n, f in enumerate(form.seat_fields(), start=1) if f.data and parse_int(f.data) not in roster]


@bp.route("/new", methods=["GET", "POST"])
@access(SCORER)
def new():
    """Start a night."""
    db = get_db()
    players = list_players(db=db, active=True)
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
        elif off_roster := _off_roster(form, {p.id for p in players}):
            form.seat_1.errors = [
                *list(form.seat_1.errors),
                *(
                    _("The player chosen for seat %(n)s is not on the roster (any more): choose again.", n=n)
                    for n in off_roster
                ),
            ]
        else:
            ids = [parse_int(f.data) for f in form.seat_fields() if f.data]
            try:
                night, _new = start_night(
                    db=db,
                    key=form.idempotency_key.data or None,
                    by=identity().user_id,
                    game=form.game.data,
                    rules=form.rules(),
                    stake_cents=form.stake_cents(),
                    currency=(form.currency.data or "").upper(),
                    played_on=form.played_on.data,
                    place=form.place.data or "",
                    player_ids=ids,
                    first_dealer=int(form.first_dealer.data or 1),
                )
            except InvalidHand as exc:
                db.rollback()
                form.refused(exc)
            except InvalidInput as exc:
                db.rollback()
                target = {"players": form.seat_1, "first_dealer": form.first_dealer, "stake_cents": form.stake}.get(
                    exc.field
                )
                target = target or getattr(form, exc.field, None)
                if target is None or target.type == "HiddenField":  # a hidden field's: above the form
                    form.form_errors.append(message(exc))
                else:
                    target.errors = [*list(target.errors), message(exc)]
            else:
                return redirect(url_for(".show", night_id=night.id))
    if request.method == "POST" and "apply_preset" not in request.form:
        status = 400
    return (
        render_template(
            "nights/new.html",
            form=form,
            games=GAMES,
            labels=GAME_LABELS,
            players=players,
            presets=presets_json(GAMES),
            money_options=_money_options(),
            max_seats=MAX_SEATS,
            sizes={name: g.table_sizes for name, g in GAMES.items()},
        ),
        status,
    )


LATEST = 20  # hands shown on the table page unless all are asked for


def _show_all() -> bool:
    return request.args.get("all") == "1"


def _load(night_id: int) -> Table:
    """The table page's night: its newest hands only, unless all are asked for."""
    newest = None if _show_all() else LATEST
    return found(load_table, _("There is no such night."), night_id=night_id, newest=newest)


def _join_code(night: Night) -> str | None:
    """The code that joins the night now, for the page's join panel: while it is open, to who may record."""
    return night.join_code if night.is_open and identity().may(NIGHT_WRITE, night.id) else None


def _context(table: Table) -> dict:
    night = table.night
    hands = hand_views(table, limit=None if _show_all() else LATEST)
    audit = {}
    numbers = [h.number for h in hands]
    for entry in audit_trail(db=get_db(), night_id=night.id, hand_numbers=numbers):
        audit.setdefault(entry.hand_number, []).append(entry)
    now = life.life(night)
    pot_close, paid_cents = night_money(table)  # a closed night's: its settlement's, the pot shared or carried
    return {
        "table": table,
        "night": night,
        "label": GAME_LABELS[night.game],
        "hands": hands,
        "more": len(table.hands) - len(hands),
        "money": money,
        "paid_cents": paid_cents,
        "pot_close": pot_close,
        "pot_moved": pot_moved(db=get_db(), night=night),  # a carried pot corrected after the next night took it
        "audit": audit,
        "audit_text": audit_text,
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "allowed": life.allowed(night, now),  # what the page offers (core/lifecycle.py)
        "next_deal": now.next_deal,  # the counter, the button and the list: one numbering
        "join_code": _join_code(night),  # the live part carries it: a reopened night's new code (static/table.js)
        # each seat's fixed team (Konter a Matt: A seats 1 and 3, B 2 and 4; other games none)
        "team_of": {seat: team for team, seats in GAMES[night.game].teams.items() for seat in seats},
        **_tournament_table(table, now, hands),
    }


def _tournament_table(table: Table, now: lifecycle.Life, hands: list) -> dict:
    """A tournament's table: which it is, how many of its deals are played, how many hands were
    dealt again (they do not count), and each row's counted deal (None: dealt again)."""
    if not now.tournament:
        return {"deals_played": None, "redeals": 0, "at_table": None, "deal_of": {}}
    night = table.night
    deal_of, deal = {}, now.deals_played
    for h in hands:  # newest first
        if table.dealt_again(h.number):  # the core's answer (engine/deal.py)
            deal_of[h.number] = None
        else:
            deal_of[h.number], deal = deal, deal - 1
    return {
        "deals_played": now.deals_played,
        "redeals": now.hands - now.deals_played,
        "at_table": table_of(db=get_db(), night_id=night.id),
        "deal_of": deal_of,
    }


@bp.get("/<int:night_id>")
@access(NIGHT_READ)
def show(night_id: int):
    """The table page: balances, game state, the last hands."""
    table = _load(night_id)
    join_url = join_note = None
    if _join_code(table.night):
        join_url, join_note = reach_url("signin.join_night")
    return render_template(
        "nights/show.html",
        join_url=join_url,
        join_note=join_note,
        live_tag=as_header(live_etag(night_id)),
        **_context(table),
    )


@bp.get("/<int:night_id>/live")
@access(NIGHT_READ)
def live(night_id: int):
    """The changing part of the table page, for the other phones' polling: 304 while the night is
    as the phone last saw it (web/live.py)."""
    tag = live_etag(night_id)
    unchanged = not_modified(tag)
    if unchanged is not None:
        return unchanged
    return tagged(make_response(render_template("nights/_live.html", **_context(_load(night_id)))), tag)


@bp.get("/<int:night_id>/version")
@access(NIGHT_READ)
def version(night_id: int):
    """How often the night has changed: phones poll this and reload the live part when it moves."""
    night = get_db().get(Night, night_id)
    if night is None:
        abort(404, _("There is no such night."))
    return {"version": night.version}, 200, {"Cache-Control": "no-store"}


@sessions_bp.get("/<int:night_id>/summary.pdf")
@access(NIGHT_READ)
def summary_pdf_alias(night_id: int):
    """The summary PDF under the API's name for a night (``/sessions/<id>``)."""
    return redirect(url_for("nights.pdf", night_id=night_id))


@bp.get("/")
@access(VIEWER)
def index():
    """All nights, newest first, filtered by game, player, place, season or dates, a page at a time."""
    db = get_db()
    form = NightFilterForm(request.args)
    form.player.choices = choices([("", _("everybody")), *((p.id, p.name) for p in list_players(db=db))])
    form.place.choices = choices([("", _("everywhere")), *((p, p) for p in history_pages.places(db))])
    status = filter_form(form, db, all_games=_("all games"), all_seasons=_("all seasons"))
    filters = history_pages.NightFilter()
    if status == 200 and request.args:
        since, until = form.since.data, form.until.data
        season = chosen_season(form)
        if season is not None:
            since = max(since or season.start, season.start)
            until = min(until or season.last, season.last)
        filters = history_pages.NightFilter(
            game=form.game.data or None,
            player_id=int(form.player.data) if form.player.data else None,
            place=form.place.data or None,
            since=since,
            until=until,
        )
    page = history_pages.nights_page(
        db=db, filters=filters, page=(form.page.data or 1) if status == 200 else 1, per_page=PER_PAGE
    )
    args = {k: v for k, v in request.args.items() if k not in ("page", "lang") and v}

    def page_url(number: int) -> str:
        return url_for(".index", **args, page=number)

    return (
        render_template(
            "nights/index.html",
            form=form,
            page=page,
            page_url=page_url,
            filtered=filters != history_pages.NightFilter(),
            labels=GAME_LABELS,
            # beside the nights, the club's newest tournaments (their tables are no nights of this list)
            tournaments=list_tournaments(db=db)[:TOURNAMENTS_SHOWN] if page.page == 1 else [],
        ),
        status,
    )


@bp.get("/<int:night_id>/join.svg")
@access(NIGHT_WRITE)
def join_qr(night_id: int):
    """The QR code of the night's join address, drawn on the server as SVG."""
    import io

    import segno

    night = found(get_night, _("There is no such night."), night_id=night_id)
    if not night.is_open or not night.join_code:
        abort(
            404, _("A closed table can't be joined.") if night.tournament_id else _("A closed night can't be joined.")
        )
    url, _note = reach_url("signin.join_night", _anchor=night.join_code)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=2, omitsize=True, xmldecl=False, title=_("Join"))
    return out.getvalue(), 200, {"Content-Type": "image/svg+xml", "Cache-Control": "no-store"}
