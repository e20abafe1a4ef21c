"""The JSON API (v1): the same validation as the forms, because both go through the repository and the engine.

Errors are ``{"error": {"field", "message"}}`` (plus ``hand`` where the engine names one, ``problems`` where
a paper list is refused: every refusal):
400 for bad input, 404 for unknown ids, 409 when the night changed or is closed, 413 for a body
over 1 MiB (``limits.py``). The OpenAPI document (``openapi.py``) is served at ``/api/v1/openapi.json``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, current_app, request

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.exchange.tournament_file import tournament_json
from scorekeeper.core.hands import StaleVersion, edit_hand, record_hand, undo_last
from scorekeeper.core.models import Player
from scorekeeper.core.nights import PotMoved, check_date, pot_moved, start_night
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.players import LooksLikeSeveral, create_player, list_players, match_names
from scorekeeper.core.summary import night_money
from scorekeeper.core.table import Table, load_table
from scorekeeper.core.text import name_key
from scorekeeper.engine import GAMES, InvalidHand, ledger
from scorekeeper.engine.fields import shown
from scorekeeper.web import life, paper
from scorekeeper.web.access import NIGHT_READ, NIGHT_WRITE, PUBLIC, SCORER, VIEWER, access, identity
from scorekeeper.web.api import limits, openapi
from scorekeeper.web.context import get_db
from scorekeeper.web.extensions import csrf
from scorekeeper.web.tournaments.forms import PRESET as TOURNAMENT_PRESET
from scorekeeper.web.view import HandView, hand_view, hand_views

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.url_value_preprocessor(limits.read_body)  # the body is read (at most 1 MiB) before the access check

SESSION_FIELDS = frozenset({"game", "rules", "stake_cents", "players", "first_dealer", "currency", "date", "place"})


def _shown_field(field: str) -> str:
    """A field name as an answer repeats it: at most 40 characters, and a lone surrogate (no
    Unicode character, which strict JSON readers refuse) written as its escape."""
    return field[:40].encode("utf-8", "backslashreplace").decode("utf-8")


class ApiError(Exception):
    """An answer refusing the request: ``field`` and ``message`` the (first) refusal; ``problems``, where one
    request is refused for several things at once (a paper list), every one, the first included."""

    def __init__(
        self,
        status: int,
        field: str,
        message: str,
        hand: int | None = None,
        problems: list[tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.field, self.message, self.hand = status, field, message, hand
        self.problems = problems


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError):
    get_db().rollback()
    body: dict[str, Any] = {"field": _shown_field(exc.field), "message": exc.message}
    if exc.hand is not None:
        body["hand"] = exc.hand
    if exc.problems is not None:
        body["problems"] = [{"field": _shown_field(field), "message": said} for field, said in exc.problems]
    return {"error": body}, exc.status


@bp.errorhandler(InvalidHand)
def _invalid_hand(exc: InvalidHand):
    get_db().rollback()
    return {"error": exc.to_json() | {"field": _shown_field(exc.field)}}, 400


@bp.errorhandler(InvalidInput)
def _invalid_input(exc: InvalidInput):
    get_db().rollback()
    return {"error": {"field": _shown_field(exc.field), "message": exc.message}}, 400


@bp.errorhandler(NotFound)
def _not_found(exc: NotFound):
    return {"error": {"field": "", "message": str(exc)}}, 404


@bp.errorhandler(StaleVersion)
def _stale(exc: StaleVersion):
    get_db().rollback()
    message = f"the night changed since version {exc.seen} (it is at {exc.now}): read it again"
    return {"error": {"field": "If-Match", "message": message}}, 412


@bp.errorhandler(Conflict)
def _conflict(exc: Conflict):
    get_db().rollback()
    return {"error": {"field": "", "message": exc.message}}, 409


def _body() -> Any:
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise ApiError(400, "", "the body is nested too deeply") from None
    if data is None:
        raise ApiError(400, "", "the body must be JSON (Content-Type: application/json)")
    return data


def _player_json(p: Player) -> dict[str, Any]:
    return {"id": p.id, "name": p.name}


@bp.get("/openapi.json")
@access(PUBLIC)
def openapi_document():
    """The API as an OpenAPI 3.1 document (no token needed)."""
    return openapi.document()


@bp.get("/players")
@access(VIEWER)
def players():
    """The roster."""
    return {"players": [_player_json(p) for p in list_players(db=get_db())]}


@bp.post("/players")
@access(SCORER)
def add_player():
    """Add a player: ``{"name": ...}``."""
    data = _body()
    if not isinstance(data, dict) or set(data) - {"name"}:
        raise ApiError(400, "", "the body must be an object with just a name")
    return _player_json(create_player(db=get_db(), name=data.get("name"))), 201


def _looks_alike(err: LooksLikeSeveral) -> str:
    """What a name given for a seat that is none of the roster's exactly, and looks like several, says."""
    them = " and ".join(f"{shown(p.name)} (id {p.id})" for p in err.players)
    if err.other is None:
        return f"{len(err.players)} players look like {shown(err.name)}: {them}; choose one by id"
    return _one_name(err.other, err.name) + f" (both look like {them})"


def _player_ids(value: Any) -> list[int]:
    """Players as ids or as roster names, in seat order."""
    if not isinstance(value, list):
        raise ApiError(400, "players", "players must be a list of player ids or names in seat order")
    names = [item for item in value if isinstance(item, str)]
    try:  # the exact name first, then the one that looks like it; of two that look alike, neither is guessed
        found = iter(match_names(list_players(db=get_db()), names))
    except LooksLikeSeveral as err:
        raise ApiError(400, "players", _looks_alike(err)) from None
    ids = []
    for item in value:
        player = next(found) if isinstance(item, str) else None
        if type(item) is int:
            ids.append(item)
        elif player is not None:
            ids.append(player.id)
        elif isinstance(item, str) and (twin := _named_twice(item, names)) is not None:  # "ANNA" beside "Anna"
            raise ApiError(400, "players", _one_name(twin, item))
        else:
            raise ApiError(400, "players", f"there is no player {shown(item)} on the roster")
    return ids


def _one_name(name: str, other: str) -> str:
    """What two names given for two seats that look alike (``Anna``, ``ANNA``) say: one person named twice."""
    return (
        f"{shown(name)} and {shown(other)} are one name (names that look alike name one player): "
        "a player sits at one seat"
    )


def _named_twice(name: str, names: list[str]) -> str | None:
    """Another of ``names`` that looks like ``name`` (core/text.py ``name_key``) and is not it, if any."""
    key = name_key(name)
    return next((other for other in names if other != name and name_key(other) == key), None)


@bp.post("/sessions")
@access(SCORER)
def create_session():
    """Start a night: game, rules, stake_cents, players in seat order, first_dealer (currency, date, place);
    an ``Idempotency-Key`` repeat (of the same account) returns the night first started, with 200."""
    data = _body()
    if not isinstance(data, dict):
        raise ApiError(400, "", "the body must be an object")
    for key in data:
        if key not in SESSION_FIELDS:
            raise ApiError(400, key[:40], f"unknown field {shown(key)}")
    for key in ("game", "stake_cents", "players", "first_dealer"):
        if key not in data:
            raise ApiError(400, key, f"{key} is required")
    played_on = None
    if "date" in data:
        try:
            played_on = date.fromisoformat(data["date"])
        except (TypeError, ValueError):
            raise ApiError(400, "date", "date must be a date like 2026-11-21") from None
        try:
            check_date(played_on)
        except InvalidInput as exc:
            raise ApiError(400, "date", exc.message) from None
    night, new = start_night(
        db=get_db(),
        key=request.headers.get("Idempotency-Key"),
        by=identity().user_id,
        game=data["game"],
        rules=data.get("rules"),
        stake_cents=data["stake_cents"],
        player_ids=_player_ids(data["players"]),
        first_dealer=data["first_dealer"],
        played_on=played_on,
        place=data.get("place", ""),
        currency=data.get("currency", current_app.config["CURRENCY"]),  # the club's, as the start form's
    )
    return _session_json(night.id), 201 if new else 200


def _hand_json(table: Table, view: HandView) -> dict[str, Any]:
    return {
        "number": view.number,
        "dealer": table.hands[view.number - 1].dealer,
        "hand": view.data,
        "result": view.result.to_json(),
        "players": [{"name": p.name, "units": p.units, "cents": p.cents} for p in view.payments],
    }


def _totals_json(table: Table) -> list[dict[str, Any]]:
    """Each player's units and money: a closed night's money is its settlement's (with a split pot's share)."""
    _, cents = night_money(table)
    return [
        {"seat": pos, "name": p.name, "units": table.balance[pos - 1], "cents": cents[pos]}
        for pos, p in sorted(table.players.items())
    ]


def _pot_moved_json(moved: PotMoved) -> dict[str, Any]:
    """A carried pot corrected after the next night took it, as the table page says it (templates/_macros/pot.html)."""
    return {
        "gave": moved.gave,
        "night_id": moved.other_id,
        "date": moved.other_played_on.isoformat(),
        "took": moved.took,
        "now": moved.now,
        "difference": moved.difference,
        "in_units": moved.in_units,
    }


def _session_json(night_id: int) -> dict[str, Any]:
    table = load_table(db=get_db(), night_id=night_id)
    e = table.night
    views = hand_views(table, newest_first=False)
    out: dict[str, Any] = {
        "id": e.id,
        "game": e.game,
        "rules": e.rules,
        "stake_cents": e.stake_cents,
        "for_money": table.for_money,
        "currency": e.currency,
        "date": e.played_on.isoformat(),
        "place": e.place,
        "status": e.status,
        "version": e.version,
        "first_dealer": e.first_dealer,
        "players": [{"seat": pos, **_player_json(p)} for pos, p in sorted(table.players.items())],
        "hands": [_hand_json(table, v) for v in views],
        "totals": _totals_json(table),
        "next_dealer": table.next_dealer,
        # the carried pots of the night corrected after the next night took them (the difference settled by hand)
        "pot_moved": [_pot_moved_json(m) for m in pot_moved(db=get_db(), night=e)],
    }
    if table.settlement.pot is not None:
        out["pot"] = table.settlement.pot
        out["pot_cents"] = ledger.cents(table.settlement.pot, e.stake_cents)
    out.update(table.settlement.extra)
    return out


@bp.get("/sessions/<int:night_id>")
@access(NIGHT_READ)
def get_session(night_id: int):
    """A night: players, hands with results, totals per player in units and cents, the pot."""
    return _session_json(night_id)


def _hand_answer(night_id: int, number: int, status: int, table: Table | None = None):
    """One hand's result with the night's totals after it (not the whole night: that is GET)."""
    table = table or load_table(db=get_db(), night_id=night_id)
    body = {"hand": _hand_json(table, hand_view(table, number)), "totals": _totals_json(table)}
    return {**body, "version": table.night.version}, status


@bp.post("/sessions/<int:night_id>/hands")
@access(NIGHT_WRITE)
def add_hand(night_id: int):
    """Record the next hand (a hand as in docs/rules.md); an ``Idempotency-Key`` repeat returns the first result."""
    data = _body()
    key = request.headers.get("Idempotency-Key")
    record, created, table = record_hand(
        db=get_db(), night_id=night_id, hand=data, idempotency_key=key, who=life.who(night_id)
    )
    return _hand_answer(night_id, record.number, 201 if created else 200, table)


def _seen_version() -> int | None:
    """The night's version the client saw (``If-Match``: the ``version`` of an answer, quoted or not;
    ``*`` or none: no check). The core compares it under the night's lock: a PUT or DELETE made on an
    older view of the night is refused with 412 (:func:`_stale`), so an undo or a change never hits a
    hand another phone recorded meanwhile.

    :raises ApiError: 400 for an If-Match that is no version.
    """
    given = request.headers.get("If-Match")
    if given is None or given.strip() == "*":
        return None
    seen = parse_int(given.strip().removeprefix('"').removesuffix('"'))
    if seen is None:
        raise ApiError(400, "If-Match", "If-Match must be the night's version as the answers give it")
    return seen


@bp.put("/sessions/<int:night_id>/hands/<int:number>")
@access(NIGHT_WRITE)
def put_hand(night_id: int, number: int):
    """Replace hand ``number``; later hands are recomputed."""
    data = _body()
    seen = _seen_version()
    edit_hand(db=get_db(), night_id=night_id, number=number, hand=data, expected_version=seen, who=life.who(night_id))
    return _hand_answer(night_id, number, 200)


@bp.delete("/sessions/<int:night_id>/hands/<int:number>")
@access(NIGHT_WRITE)
def delete_hand(night_id: int, number: int):
    """Undo the last hand (only the last: earlier hands are edited, so the deal order stays true)."""
    seen = _seen_version()
    table = load_table(db=get_db(), night_id=night_id, newest=1)
    if not 1 <= number <= len(table.hands):
        raise NotFound(f"no hand {number}")
    if number != len(table.hands):
        raise ApiError(409, "number", f"only the last hand ({len(table.hands)}) can be deleted; edit earlier hands")
    undo_last(db=get_db(), night_id=night_id, expected_hands=number, expected_version=seen, who=life.who(night_id))
    table = load_table(db=get_db(), night_id=night_id, newest=1)
    return {"deleted": number, "totals": _totals_json(table), "version": table.night.version}, 200


# --- tournaments ------------------------------------------------------------------------------

TOURNAMENT_FIELDS = frozenset(
    {"name", "game", "rules", "rounds", "deals", "played_on", "place", "entry_fee_cents", "prizes"}
)


def _fields(allowed: frozenset[str] | set[str]) -> dict[str, Any]:
    """The body as an object of these fields only (an unknown one is refused by name)."""
    data = _body()
    if not isinstance(data, dict):
        raise ApiError(400, "", "the body must be an object")
    for key in data:
        if key not in allowed:
            raise ApiError(400, key[:40], f"unknown field {shown(key)}")
    return data


def _day(data: dict[str, Any], key: str) -> date | None:
    if key not in data:
        return None
    try:
        day = date.fromisoformat(data[key])
    except (TypeError, ValueError):
        raise ApiError(400, key, f"{key} must be a date like 2026-11-21") from None
    try:
        return check_date(day)
    except InvalidInput as exc:
        raise ApiError(400, key, exc.message) from None


def _table_json(table: tm.TableView, writer: bool) -> dict[str, Any]:
    return {
        "number": table.number,
        "night_id": table.night.id,
        "night_uid": table.night.uid,  # what a paper list is sent for (POST .../paper): refused once drawn again
        "night_version": table.night.version,  # the same: refused once the table's points changed since
        "join_code": table.night.join_code if writer and table.night.is_open else None,
        "players": [
            {"number": e.number, "name": n, "player_id": p}  # who sits there: a paper list's player_ids
            for e, n, p in zip(table.entrants, table.names, table.player_ids, strict=True)
        ],
        "deals": table.deals,
        "points": table.points,
        "paper": table.paper,
        "done": table.done,
    }


def _round_json(r: tm.RoundView) -> dict[str, Any]:
    writer = identity().may(SCORER)  # a table's join code lets a phone record: for who may record
    return {
        "number": r.number,
        "byes": [e.number for e in r.byes],
        "done": r.done,
        "tables": [_table_json(t, writer) for t in r.tables],
    }


def _tournament_json(tournament_id: int) -> dict[str, Any]:
    view = tm.read_tournament(db=get_db(), tournament_id=tournament_id)
    t = view.tournament
    return {
        "id": t.id,
        "name": t.name,
        "date": t.played_on.isoformat(),
        "place": t.place,
        "game": t.game,
        "rules": t.rules,
        "rounds": t.rounds,
        "deals": t.deals,
        "entry_fee_cents": t.entry_fee_cents,
        "prizes": t.prizes,
        "currency": t.currency,  # the fee's and the prizes': the club's when the tournament was made
        "status": t.status,
        "version": t.version,
        "entrants": [
            {
                "number": e.number,
                "name": view.names[e.number],
                "guest": e.number in view.guests,
                "player_id": e.player_id,  # a guest's too: to enter them again in a later tournament
                "withdrawn_after": e.withdrawn_after,
            }
            for e in view.entrants
        ],
        "keep_apart": t.keep_apart,
        "drawn": [_round_json(r) for r in view.rounds],
    }


@bp.post("/tournaments")
@access(SCORER)
def create_tournament():
    """Create a tournament: name, game, rules, rounds, deals (played_on, place, entry_fee_cents, prizes)."""
    data = _fields(TOURNAMENT_FIELDS)
    for key in ("name", "game"):
        if key not in data:
            raise ApiError(400, key, f"{key} is required")
    optional = {key: data[key] for key in ("rounds", "deals", "place", "entry_fee_cents", "prizes") if key in data}
    rules = data.get("rules")
    game = GAMES.get(data["game"]) if isinstance(data["game"], str) else None
    if rules is None and game is not None and TOURNAMENT_PRESET in game.presets:
        rules = {"preset": TOURNAMENT_PRESET}  # as the form does (README, docs/api.md)
    t = tm.create_tournament(
        db=get_db(),
        name=data["name"],
        game=data["game"],
        rules=rules,
        played_on=_day(data, "played_on"),
        currency=current_app.config["CURRENCY"],  # the club's, as the page's
        **optional,
    )
    return _tournament_json(t.id), 201


@bp.get("/tournaments/<int:tournament_id>")
@access(VIEWER)
def get_tournament(tournament_id: int):
    """A tournament: its entrants, and its rounds with their tables (night ids, players, deals, points)."""
    return _tournament_json(tournament_id)


@bp.post("/tournaments/<int:tournament_id>/entrants")
@access(SCORER)
def add_entrant(tournament_id: int):
    """Enter a player of the roster or a guest of an earlier tournament (``{"player_id": n}``), or a
    guest by name (``{"guest": "Name"}``: a guest of an earlier tournament by that name comes back)."""
    data = _fields({"player_id", "guest"})
    if len(data) != 1:
        raise ApiError(400, "player_id", 'give either "player_id" (a player of the roster) or "guest" (a name)')
    tm.get_tournament(db=get_db(), tournament_id=tournament_id)  # unknown: 404 before the body's checks
    if "guest" in data and not isinstance(data["guest"], str):
        raise ApiError(400, "guest", "guest must be a name (a text)")
    if "player_id" in data and type(data["player_id"]) is not int:
        raise ApiError(400, "player_id", "player_id must be a player's id (a whole number)")
    try:
        entrant = tm.add_entrant(
            db=get_db(), tournament_id=tournament_id, player_id=data.get("player_id"), guest=data.get("guest")
        )
    except InvalidInput as exc:
        raise ApiError(400, "guest" if "guest" in data else "player_id", exc.message) from None
    except NotFound:  # the tournament is there (above): the player is not
        raise ApiError(400, "player_id", f"there is no player {data['player_id']}") from None
    view = tm.read_tournament(db=get_db(), tournament_id=tournament_id)
    guest = entrant.number in view.guests
    return {
        "number": entrant.number,
        "name": view.names[entrant.number],
        "guest": guest,
        "player_id": entrant.player_id,
        "withdrawn_after": entrant.withdrawn_after,
    }, 201


@bp.post("/tournaments/<int:tournament_id>/apart")
@access(SCORER)
def keep_apart(tournament_id: int):
    """Keep two participants at different tables from the next draw on (``{"first": 3, "second": 7}``),
    or no longer (``"apart": false``)."""
    data = _fields({"first", "second", "apart"})
    tm.get_tournament(db=get_db(), tournament_id=tournament_id)  # unknown: 404 before the body's checks
    for key in ("first", "second"):
        if type(data.get(key)) is not int:
            raise ApiError(400, key, f"{key} must be a start number (a whole number)")
    apart = data.get("apart", True)
    if not isinstance(apart, bool):
        raise ApiError(400, "apart", "apart must be true or false")
    change = tm.keep_apart if apart else tm.allow_together
    change(db=get_db(), tournament_id=tournament_id, first=data["first"], second=data["second"])
    return _tournament_json(tournament_id)


@bp.post("/tournaments/<int:tournament_id>/rounds")
@access(SCORER)
def draw_round(tournament_id: int):
    """Draw the next round (the round before must be over): its tables, each a night for one phone.
    The body is empty, or ``{}``."""
    if request.get_data() and _body() != {}:
        raise ApiError(400, "", "the body must be empty, or an empty object {}")
    drawn = tm.draw_round(db=get_db(), tournament_id=tournament_id)
    view = tm.read_tournament(db=get_db(), tournament_id=tournament_id)
    return _round_json(view.rounds[drawn.number - 1]), 201


PAPER_FIELDS = frozenset(paper.VALUES)

#: A paper list refused for being stale (core/tournaments/paper.py ``paper_form_refusal``), in the API's words: the
#: core's speak of a form.
PAPER_STALE = {
    tm.TABLE_REDRAWN: ("night_uid", "table {n} was drawn again meanwhile: nothing was saved, read its new players"),
    tm.SEATS_CHANGED: ("player_ids", "the players of table {n} changed meanwhile: nothing was saved, read them again"),
    tm.PAPER_CHANGED: (
        "night_version",
        "the points of table {n} were changed meanwhile by someone else: nothing was saved, read them again",
    ),
}


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:round_number>/tables/<int:table>/paper")
@access(SCORER)
def enter_paper(tournament_id: int, round_number: int, table: int):
    """A table's final points typed from its paper list, by table position: ``{"points": [...], "solos":
    [[won, lost] or null, ...]}`` (solos optional), and optionally the table's night and players the list
    is for (``night_uid``, ``player_ids``, ``night_version``, as the table in ``drawn`` names them): where the
    round was drawn again since, another person took a seat, or the table's points changed (another
    organiser's list), it is refused with 409 and nothing is saved. The rules of
    the figures (``points`` there at all, too) and of those three are the core's (``tournaments.enter_paper``):
    a wrong shape is 400 in its words, the first refusal as every answer says one, and ``problems``: every
    refusal the core found in the list (the first included). Answers the round."""
    data = _fields(PAPER_FIELDS)
    tm.get_tournament(db=get_db(), tournament_id=tournament_id)  # unknown: 404 before the body's checks
    try:
        paper.save_paper(tournament_id, round_number, table, data)
    except InvalidInput as exc:
        problems = [(p.field, p.message) for p in exc.problems]
        raise ApiError(400, exc.field, exc.message, problems=problems) from None
    except Conflict as exc:
        if exc.template not in PAPER_STALE:
            raise
        get_db().rollback()
        field, said = PAPER_STALE[exc.template]
        raise ApiError(409, field, said.format(**exc.params)) from None
    view = tm.read_tournament(db=get_db(), tournament_id=tournament_id)
    return _round_json(view.rounds[round_number - 1])


@bp.get("/tournaments/<int:tournament_id>/standings")
@access(VIEWER)
def tournament_standings(tournament_id: int):
    """The standings: rank, start number, name, points per round, total, solos (and whether they are known),
    what decided the place."""
    view = tm.read_tournament(db=get_db(), tournament_id=tournament_id)
    return {
        "id": view.tournament.id,
        "status": view.tournament.status,
        "rounds": view.tournament.rounds,
        "drawn": len(view.rounds),
        "finished": bool(view.rounds) and view.finished,
        "standings": [
            {
                "rank": line.standing.rank,
                "number": line.entrant.number,
                "name": line.name,
                "guest": line.entrant.number in view.guests,
                "points": list(line.standing.points),
                "total": line.standing.total,
                "solos_won": line.standing.solos_won,
                "solos_lost": line.standing.solos_lost,
                "solos_known": line.solos_known,
                "decided_by": line.standing.decided_by,
            }
            for line in view.standings
        ],
    }


@bp.get("/tournaments/<int:tournament_id>/export")
@access(VIEWER)
def export_tournament(tournament_id: int):
    """The whole tournament as its export file (lossless: ``manage.py import-tournament`` reads it)."""
    return tournament_json(get_db(), tournament_id)
