"""A night out of the database and back in: a CSV of its hands, and a lossless JSON file.

- :func:`night_csv` writes the hands of a loaded :class:`Table` as CSV
  for a spreadsheet: one row per hand, one column of units per player.
- :func:`night_json` writes everything about a night (rules, people, hands,
  idempotency keys, the audit trail, timestamps) as a JSON object.
- :func:`import_night` reads that object back in one transaction. It checks the
  file as strictly as the forms check their input, and settles its hands with
  the engine, so a corrupted or hand-edited file cannot create a broken night.
- :func:`club_json` writes the whole club (the roster with retired players and
  players without nights, the roster's changes, every night, every tournament with its
  tables: :mod:`scorekeeper.core.tournament_exports`) as one object;
  :func:`import_club` reads it back in one transaction, with the same checks.

No Flask here: everything takes a database session or a loaded table.
"""

from __future__ import annotations

import copy
import csv
import io
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.hands import add_imported_hands
from scorekeeper.core.models import CLOSED, OPEN, STATUSES, HandRecord, Night, Player, RosterChange, Seat, Tournament
from scorekeeper.core.nights import STAKE_MAX_CENTS, add_imported_night, check_date
from scorekeeper.core.players import add_imported_roster_change, find_or_add_players, list_players, roster_changes
from scorekeeper.core.table import Table, audit_trail, dealer_after, get_night
from scorekeeper.core.text import ID_MAX, clean_name, has_control, name_key
from scorekeeper.engine import GAMES, InvalidHand, Mark, settle_session
from scorekeeper.engine.fields import type_name
from scorekeeper.engine.rules import rules_to_json

FORMAT = "scorekeeper-night"
VERSION = 1
CLUB_FORMAT = "scorekeeper-club"
CLUB_VERSION = 2
#: The club files this Scorekeeper reads: version 1 was written before tournaments (it has no
#: ``tournaments``); version 2 has them, and its ``nights`` are the club's nights only.
CLUB_VERSIONS = (1, 2)
GONE_PLAYER_ID = 0  # a roster change of a record that is gone (merged away) points at no player
POT_MAX = 10**9  # what the engine accepts as a pot to start with

__all__ = [
    "CLUB_FORMAT",
    "CLUB_VERSION",
    "CLUB_VERSIONS",
    "CSV_HEADERS",
    "FORMAT",
    "VERSION",
    "CheckedClub",
    "CheckedNight",
    "ClubImport",
    "InvalidExport",
    "club_json",
    "import_club",
    "import_night",
    "night_csv",
    "night_json",
    "played_by",
    "read_club",
    "read_night",
    "text_cell",
]


class InvalidExport(ValueError):
    """A night file that cannot be imported: ``path`` says where in the JSON (``hands[3].data.points``).

    >>> str(InvalidExport("hands[3].data", "a hand must be an object, not a list"))
    'hands[3].data: a hand must be an object, not a list'
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


# --- CSV -----------------------------------------------------------------------

#: A spreadsheet takes a cell starting with one of these for a formula (or its start).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """A text cell that a spreadsheet shows as text: a leading formula character gets a ``'`` before it.

    >>> text_cell("=1+1"), text_cell("@Wirt"), text_cell("Anna"), text_cell("<b>x</b>")
    ("'=1+1", "'@Wirt", 'Anna', '<b>x</b>')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def _summary(table: Table, index: int) -> str:
    """What hand ``index`` (0-based) was, as its game says it; a seat is named by its player."""
    said = GAMES[table.night.game].summary(table.settlement.hands[index])
    return table.players[table.positions[index][said - 1]].name if isinstance(said, int) else said


def played_by(table: Table, index: int) -> list[str]:
    """Who played hand ``index`` (0-based), by name, as the engine says it of the hand.

    The declaring side (:attr:`HandFacts.declarers`, with the hand's ``partner`` where it has
    one: a Rufen's or a Sauspiel's called partner; Konter a Matt: the trump team); where nobody
    declared, the seat the game's summary names (Matt: who gave mate). Nobody for a Ramsch,
    a Rundpass or a draw.
    """
    game = GAMES[table.night.game]
    hand, result = table.settlement.hands[index], table.settlement.results[index]
    seats = list(game.facts(hand, result).declarers)
    partner = getattr(hand, "partner", None)
    if seats and isinstance(partner, int) and partner not in seats:
        seats.append(partner)
    if not seats:
        said = game.summary(hand)
        if isinstance(said, int) and not isinstance(said, bool):
            seats = [said]
    positions = table.positions[index]
    return [table.players[positions[seat - 1]].name for seat in seats]


def hand_marks(table: Table, index: int) -> list[Mark]:
    """What changed hand ``index``'s (0-based) value, as its game says it (``Game.marks``)."""
    s = table.settlement
    return GAMES[table.night.game].marks(s.rules, s.hands[index], s.results[index])


#: The CSV's column headers by default (English, as the JSON keys say it; ``what``: the game's own header).
CSV_HEADERS: dict[str, str] = {
    "hand": "hand",
    "dealer": "dealer",
    "played_by": "played by",
    "marks": "marks",
    "value": "value",
    "pot": "pot",
    "strokes": "strokes",
    "game_won_by": "game won by",
    "match": "match",
}


def _carried(table: Table, words: Mapping[str, str]) -> tuple[list[str], Callable[[Any], list[Any]]]:
    """What a game carries from hand to hand, as the CSV's columns after each hand (read from its stored
    result): Konter a Matt's strokes of both teams and the team that won a game with the partie; Matt's
    match and its score. None for games that carry nothing."""
    results = table.settlement.results
    extra = results[0].extra if len(results) else {}
    if isinstance(extra.get("strokes"), Mapping):
        teams = list(extra["strokes"])
        header = [f"{words['strokes']} {team}" for team in teams] + [words["game_won_by"]]
        return header, lambda r: [r.extra["strokes"][team] for team in teams] + [r.extra.get("game_winner") or ""]
    if isinstance(extra.get("match_score"), Mapping):
        seats = list(extra["match_score"])
        names = [table.players[table.positions[0][int(seat) - 1]].name for seat in seats]
        header = [words["match"]] + [f"{words['match']} {name}" for name in names]
        return header, lambda r: [r.extra["match"]] + [r.extra["match_score"][seat] for seat in seats]
    return [], lambda r: []


def night_csv(
    table: Table,
    *,
    headers: Mapping[str, str] | None = None,
    hand_text: Callable[[int], str] | None = None,
    marks_text: Callable[[int], str] | None = None,
    delimiter: str = ",",
) -> str:
    """The night's hands as CSV text (RFC 4180: commas, ``"`` quoting where needed, CRLF line ends).

    Columns: ``hand`` (its number), ``dealer`` (a name), what the hand was
    (``contract``; Konter a Matt: the trump team and the points of A and B;
    Matt: who gave mate, or ``draw``), ``played by`` (the names of who declared,
    joined by `` + ``: see :func:`played_by`), ``marks`` (what changed the hand's value,
    as the game says it: ``Game.marks``, the table page's badges), ``value`` (the hand's value in units),
    then one column per player, by name in seat order, with that player's units
    for the hand (0 for the dealer sitting out at a table of five; Matt: match
    points). A Schafkopf night played with the pot ends with ``pot``: the units
    the hand put into the pot (negative: taken out), so that every row adds up
    to zero. A game that carries something from hand to hand has it after the value:
    Konter a Matt the strokes of both teams and the team that won a game; Matt the
    match and its score. A night that pays no unit (Konter a Matt without a stake:
    ``Game.uses_stake``) has no player columns, which would be zeros. ``delimiter``:
    ``,`` (RFC 4180), or ``;`` where a reader's spreadsheet expects it (German).
    Numbers are written as numbers; text that a spreadsheet would take
    for a formula (starting with ``= + - @``) is written with a ``'`` before it.

    A caller that speaks the reader's language gives the ``headers`` (keys as in
    :data:`CSV_HEADERS`, and ``what`` for the third column), ``hand_text``: what
    hand ``index`` (0-based) was, for the third column, and ``marks_text``: its marks
    (by default their keys).
    """
    night = table.night
    game = GAMES[night.game]
    words = {**CSV_HEADERS, "what": game.summary_header, **(headers or {})}
    text_of = hand_text or (lambda index: _summary(table, index))
    marks_of = marks_text or (lambda index: ", ".join(m.key for m in hand_marks(table, index)))
    positions = sorted(table.players) if game.scores_hands(table.settlement.rules) else []
    with_pot = table.settlement.pot is not None
    carried_header, carried = _carried(table, words)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    header: list[Any] = [words[key] for key in ("hand", "dealer", "what", "played_by", "marks", "value")]
    header = [text_cell(h) for h in [*header, *carried_header]] + [text_cell(table.players[p].name) for p in positions]
    if with_pot:
        header.append(text_cell(words["pot"]))
    writer.writerow(header)
    for index, (hand, result, row) in enumerate(zip(table.hands, table.settlement.results, table.rows, strict=True)):
        cells: list[Any] = [
            hand.number,
            text_cell(table.players[hand.dealer].name),
            text_cell(text_of(index)),
            text_cell(" + ".join(played_by(table, index))),
            text_cell(marks_of(index)),
            result.value,
            *carried(result),
        ]
        cells += [row[p - 1] for p in positions]
        if with_pot:
            cells.append(result.pot)
        writer.writerow(cells)
    return out.getvalue()


# --- JSON export ---------------------------------------------------------------


def _timestamp(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with its offset, always with microseconds (so that every export reads the same)."""
    if value is None:
        return None
    if value.tzinfo is None:  # stored without a zone: the app stores UTC
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def night_json(*, db: Session, night_id: int) -> dict[str, Any]:
    """The whole night as a JSON object, lossless: :func:`import_night` makes the same night of it.

    Database ids are left out (they differ between databases); the night's ``uid`` says which night it is.

    :raises NotFound: for an unknown night.
    """
    night = get_night(db=db, night_id=night_id)
    seats = db.exec(
        select(Seat.position, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.night_id == night.id)
        .order_by(Seat.position)
    ).all()
    hands = db.exec(select(HandRecord).where(HandRecord.night_id == night.id).order_by(HandRecord.number)).all()
    return {
        "format": FORMAT,
        "version": VERSION,
        "evening": {
            "uid": night.uid,
            "game": night.game,
            "rules": copy.deepcopy(night.rules),
            "stake_cents": night.stake_cents,
            "currency": night.currency,
            "played_on": night.played_on.isoformat(),
            "place": night.place,
            "seat_count": night.seat_count,
            "first_dealer": night.first_dealer,
            "status": night.status,
            "closed_at": _timestamp(night.closed_at),
            "pot_start": night.pot_start,
            "created_at": _timestamp(night.created_at),
        },
        "players": [{"position": position, "name": name} for position, name in seats],
        "hands": [
            {
                "number": h.number,
                "dealer": h.dealer,
                "data": copy.deepcopy(h.data),
                "idempotency_key": h.idempotency_key,
                "created_at": _timestamp(h.created_at),
                "updated_at": _timestamp(h.updated_at),
            }
            for h in hands
        ],
        "audit": [
            {
                "hand_number": a.hand_number,
                "action": a.action,
                "before": copy.deepcopy(a.before),
                "after": copy.deepcopy(a.after),
                "at": _timestamp(a.at),
            }
            for a in audit_trail(db=db, night_id=night.id)
        ],
    }


def club_json(db: Session) -> dict[str, Any]:
    """The whole club as a JSON object, lossless: :func:`import_club` makes the same club of it.

    ``players``: the whole roster by name (retired players and players without
    a night too); ``roster_changes``: oldest first, each naming its player as
    the roster has it now (null for a record that is gone, e.g. merged away);
    ``nights``: :func:`night_json` of every night of the club, in the order they were made;
    ``tournaments``: :func:`~scorekeeper.core.tournament_exports.tournament_json` of every
    tournament, oldest first, with its tables (nights of a tournament: not in ``nights``).
    No database ids: uids and names say what is what. A tournament's guests are not on the
    roster (``players``): they come with their tournament.
    """
    from scorekeeper.core.tournament_exports import tournament_json  # it reads this module's helpers

    loose = select(Night.id).where(Night.tournament_id == None).order_by(Night.id)  # noqa: E711
    nights = [night_json(db=db, night_id=night_id) for night_id in db.exec(loose)]
    tournaments = [tournament_json(db, t_id) for t_id in db.exec(select(Tournament.id).order_by(Tournament.id))]
    # The roster after the nights: a player seated at a night exported above is on it (guests are not).
    players = list_players(db=db)
    names = {p.id: p.name for p in players}  # changes name only players of this list
    return {
        "format": CLUB_FORMAT,
        "version": CLUB_VERSION,
        "players": [{"name": p.name, "retired": p.retired, "created_at": _timestamp(p.created_at)} for p in players],
        "roster_changes": [
            {
                "uid": c.uid,
                "action": c.action,
                "player": names.get(c.player_id),
                "detail": copy.deepcopy(c.detail),
                "at": _timestamp(c.at),
            }
            for c in roster_changes(db=db)
        ],
        "nights": nights,
        "tournaments": tournaments,
    }


# --- reading a file: every check before anything is written ----------------------

_TOP_KEYS = ("format", "version", "evening", "players", "hands", "audit")
_NIGHT_KEYS = (
    "uid",
    "game",
    "rules",
    "stake_cents",
    "currency",
    "played_on",
    "place",
    "seat_count",
    "first_dealer",
    "status",
    "closed_at",
    "pot_start",
    "created_at",
)
_PLAYER_KEYS = ("position", "name")
_HAND_KEYS = ("number", "dealer", "data", "idempotency_key", "created_at", "updated_at")
_AUDIT_KEYS = ("hand_number", "action", "before", "after", "at")
_CLUB_KEYS_V1 = ("format", "version", "players", "roster_changes", "nights")
_CLUB_KEYS = (*_CLUB_KEYS_V1, "tournaments")
_CLUB_PLAYER_KEYS = ("name", "retired", "created_at")
_CHANGE_KEYS = ("uid", "action", "player", "detail", "at")

_UID = re.compile(r"[0-9a-f]{32}")
_CURRENCY = re.compile(r"[A-Z]{3}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _join(path: str, key: str) -> str:
    """``path.key``; either may be empty (the top of the file, or the object itself)."""
    return f"{path}.{key}" if path and key else path or key


def _object(value: Any, path: str, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``: a missing key and an unknown key are both errors."""
    if not isinstance(value, dict):
        raise InvalidExport(path, f"{what} must be an object, not {type_name(value)}")
    for key in value:
        if key not in keys:
            raise InvalidExport(_join(path, str(key)), f"unknown key {key!r}")
    for key in keys:
        if key not in value:
            raise InvalidExport(_join(path, key), f"{key} is required")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidExport(path, f"must be a list, not {type_name(value)}")
    return value


def _int(value: Any, path: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise InvalidExport(path, f"must be a whole number, not {type_name(value)}")
    if not lo <= value <= hi:
        raise InvalidExport(path, f"must be between {lo} and {hi}, not {value}")
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise InvalidExport(path, f"must be true or false, not {type_name(value)}")
    return value


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise InvalidExport(path, f"must be a text, not {type_name(value)}")
    return value


def _uid(value: Any, path: str) -> str:
    uid = _text(value, path)
    if not _UID.fullmatch(uid):
        raise InvalidExport(path, f"must be 32 lowercase hexadecimal digits, not {uid!r}")
    return uid


def _action(value: Any, path: str) -> str:
    """What an audit entry or a roster change did: a short word."""
    action = _text(value, path)
    if not 1 <= len(action) <= 20 or has_control(action):
        raise InvalidExport(path, "must be 1 to 20 characters without control characters")
    return action


def _name(value: Any, path: str) -> str:
    """A player's name, cleaned as the roster cleans it."""
    try:
        return clean_name(value)
    except InvalidInput as err:
        raise InvalidExport(path, err.message) from None


def _datetime(value: Any, path: str, nullable: bool = False) -> datetime | None:
    if value is None and nullable:
        return None
    text = _text(value, path)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidExport(path, f"{text!r} is not an ISO 8601 date and time") from None
    if moment.utcoffset() is None:
        raise InvalidExport(path, f"{text!r} has no time zone (write it as in 2026-03-14T19:30:00+00:00)")
    return moment


def _json_value(value: Any, path: str) -> None:
    """``value`` must be plain JSON (objects with text keys, lists, texts, numbers, true/false, null)."""
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidExport(path, f"{value} is not a JSON number")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _json_value(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidExport(path, f"the key {key!r} is not a text")
            _json_value(item, _join(path, key))
        return
    raise InvalidExport(path, f"{type_name(value)} is not a JSON value")


def _json_object(value: Any, path: str, nullable: bool = False) -> dict[str, Any] | None:
    if value is None and nullable:
        return None
    if not isinstance(value, dict):
        raise InvalidExport(path, f"must be an object{' or null' if nullable else ''}, not {type_name(value)}")
    _json_value(value, path)
    return value


@dataclass(frozen=True)
class CheckedNight:
    """A checked night file, ready to be written."""

    columns: dict[str, Any]  # Night's columns
    names: list[str]  # clean names in seat order
    hands: list[dict[str, Any]]  # HandRecord's columns (without night_id)
    audit: list[dict[str, Any]]  # AuditEntry's columns (without night_id)


def _read_night(value: Any) -> dict[str, Any]:
    e = _object(value, "evening", _NIGHT_KEYS, "evening")
    uid = _uid(e["uid"], "evening.uid")
    game = _text(e["game"], "evening.game")
    if game not in GAMES:
        raise InvalidExport("evening.game", f"must be one of {', '.join(GAMES)}, not {game!r}")
    rules = e["rules"]
    if not isinstance(rules, dict):
        raise InvalidExport("evening.rules", f"must be an object, not {type_name(rules)}")
    try:
        complete = rules_to_json(GAMES[game].parse_rules(rules))
    except InvalidHand as err:
        raise InvalidExport(_join("evening", err.field), err.message) from None
    missing = [key for key in complete if key not in rules]
    if missing:
        raise InvalidExport("evening.rules", f"the rule set is not complete: {', '.join(missing)} missing")
    currency = _text(e["currency"], "evening.currency")
    if not _CURRENCY.fullmatch(currency):
        raise InvalidExport(
            "evening.currency", f"must be a three-letter code in capitals such as EUR, not {currency!r}"
        )
    played_on = _text(e["played_on"], "evening.played_on")
    try:
        if not _DATE.fullmatch(played_on):
            raise ValueError(played_on)
        day = date.fromisoformat(played_on)
    except ValueError:
        raise InvalidExport("evening.played_on", f"must be a date such as 2026-03-14, not {played_on!r}") from None
    try:
        check_date(day)
    except InvalidInput as err:
        raise InvalidExport("evening.played_on", err.message) from None
    place = _text(e["place"], "evening.place")
    if len(place) > 80:
        raise InvalidExport("evening.place", "may have at most 80 characters")
    if has_control(place):
        raise InvalidExport("evening.place", "must not contain control characters")
    sizes = GAMES[game].table_sizes
    seat_count = _int(e["seat_count"], "evening.seat_count", 1, 10)
    if seat_count not in sizes:
        allowed = " or ".join(map(str, sizes))
        raise InvalidExport("evening.seat_count", f"{game} is played by {allowed} players, not {seat_count}")
    status = _text(e["status"], "evening.status")
    if status not in STATUSES:
        raise InvalidExport("evening.status", f"must be one of {', '.join(STATUSES)}, not {status!r}")
    closed_at = _datetime(e["closed_at"], "evening.closed_at", nullable=True)
    if status == OPEN and closed_at is not None:
        raise InvalidExport("evening.closed_at", "an open night has no closing time: it must be null")
    if status == CLOSED and closed_at is None:
        raise InvalidExport("evening.closed_at", "a closed night has the time it was closed: it must not be null")
    return {
        "uid": uid,
        "game": game,
        "rules": complete,
        "stake_cents": _int(e["stake_cents"], "evening.stake_cents", 0, STAKE_MAX_CENTS),
        "currency": currency,
        "played_on": day,
        "place": place,
        "seat_count": seat_count,
        "first_dealer": _int(e["first_dealer"], "evening.first_dealer", 1, seat_count),
        "status": status,
        "closed_at": closed_at,
        "pot_start": _int(e["pot_start"], "evening.pot_start", 0, POT_MAX),
        "created_at": _datetime(e["created_at"], "evening.created_at"),
    }


def _read_players(value: Any, seat_count: int) -> list[str]:
    players = _list(value, "players")
    if len(players) != seat_count:
        raise InvalidExport(
            "players", f"the night has {seat_count} seats (evening.seat_count) but {len(players)} players"
        )
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(players):
        path = f"players[{i}]"
        p = _object(item, path, _PLAYER_KEYS, "a player")
        position = _int(p["position"], f"{path}.position", 1, seat_count)
        if position != i + 1:
            raise InvalidExport(f"{path}.position", f"the players are listed in seat order: expected {i + 1}")
        name = _name(p["name"], f"{path}.name")
        key = name_key(name)
        if key in seen:
            raise InvalidExport(f"{path}.name", f"{name!r} already sits at seat {seen[key]}: a player has one seat")
        seen[key] = position
        names.append(name)
    return names


def _read_hands(value: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    hands = []
    keys: dict[str, int] = {}
    rules = GAMES[night["game"]].parse_rules(night["rules"])  # checked by _read_night
    dealer = night["first_dealer"]
    for i, item in enumerate(_list(value, "hands")):
        path = f"hands[{i}]"
        h = _object(item, path, _HAND_KEYS, "a hand")
        number = _int(h["number"], f"{path}.number", 1, ID_MAX)
        if number != i + 1:
            raise InvalidExport(f"{path}.number", f"the hands are numbered 1, 2, 3, … in order: expected {i + 1}")
        if _int(h["dealer"], f"{path}.dealer", 1, night["seat_count"]) != dealer:
            raise InvalidExport(
                f"{path}.dealer",
                f"hand {number} is dealt by seat {dealer} (the deal moves on clockwise from seat "
                f"{night['first_dealer']}; a hand dealt again keeps its dealer), not {h['dealer']}",
            )
        data = _json_object(h["data"], f"{path}.data")
        key = h["idempotency_key"]
        if key is not None:
            if not isinstance(key, str) or not 1 <= len(key) <= 64 or not (key.isascii() and key.isprintable()):
                raise InvalidExport(f"{path}.idempotency_key", "must be null or 1 to 64 printable ASCII characters")
            if key in keys:
                raise InvalidExport(f"{path}.idempotency_key", f"hand {keys[key]} has the same key")
            keys[key] = number
        hands.append(
            {
                "number": number,
                "dealer": h["dealer"],
                "data": data,
                "idempotency_key": key,
                "created_at": _datetime(h["created_at"], f"{path}.created_at"),
                "updated_at": _datetime(h["updated_at"], f"{path}.updated_at"),
            }
        )
        dealer = dealer_after(game=night["game"], rules=rules, seat_count=night["seat_count"], dealer=dealer, data=data)
    return hands


def _read_audit(value: Any) -> list[dict[str, Any]]:
    entries = []
    for i, item in enumerate(_list(value, "audit")):
        path = f"audit[{i}]"
        a = _object(item, path, _AUDIT_KEYS, "an audit entry")
        number = a["hand_number"]
        if number is not None:
            _int(number, f"{path}.hand_number", 1, ID_MAX)
        entries.append(
            {
                "hand_number": number,
                "action": _action(a["action"], f"{path}.action"),
                "before": _json_object(a["before"], f"{path}.before", nullable=True),
                "after": _json_object(a["after"], f"{path}.after", nullable=True),
                "at": _datetime(a["at"], f"{path}.at"),
            }
        )
    return entries


def _settle(night: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    """The engine must settle the hands, as it did when they were recorded."""
    try:
        settle_session(night["game"], night["rules"], [h["data"] for h in hands], pot=night["pot_start"] or None)
    except InvalidHand as err:
        if err.hand is not None:
            path = f"hands[{err.hand}].data"
            raise InvalidExport(_join(path, err.field), err.message) from None
        field = "pot_start" if err.field == "pot" else err.field
        raise InvalidExport(_join("evening", field), err.message) from None


def _file(data: Any, format_: str, version: int, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """The top of a Scorekeeper file of kind ``what`` (night, club, tournament): its format marker,
    version and keys checked."""
    if not isinstance(data, dict):
        raise InvalidExport("", f"a {what} file must be a JSON object, not {type_name(data)}")
    if data.get("format") != format_:
        raise InvalidExport(
            "format", f"this is not a Scorekeeper {what}: expected {format_!r}, found {data.get('format')!r}"
        )
    if data.get("version") != version or type(data.get("version")) is not int:
        raise InvalidExport("version", f"this Scorekeeper reads version {version}, not {data.get('version')!r}")
    _object(data, "", keys, f"a {what} file")
    return data


def read_night(data: Any) -> CheckedNight:
    """Check a night file completely (format, keys, types, names, the deal, the engine) without the database.

    :raises InvalidExport: naming the JSON path of the first problem.
    """
    top = _file(data, FORMAT, VERSION, _TOP_KEYS, "night")
    night = _read_night(top["evening"])
    names = _read_players(top["players"], night["seat_count"])
    hands = _read_hands(top["hands"], night)
    audit = _read_audit(top["audit"])
    _settle(night, hands)
    return CheckedNight(night, names, hands, audit)


@dataclass(frozen=True)
class CheckedClub:
    """A checked club file, ready to be written."""

    players: list[dict[str, Any]]  # Player's columns
    changes: list[dict[str, Any]]  # RosterChange's columns, with ``player`` (a name or None) for player_id
    nights: list[CheckedNight]
    tournaments: list[Any] = field(default_factory=list)  # CheckedTournament (tournament_exports)


def _read_club_players(value: Any) -> list[dict[str, Any]]:
    players = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_list(value, "players")):
        path = f"players[{i}]"
        p = _object(item, path, _CLUB_PLAYER_KEYS, "a player")
        name = _name(p["name"], f"{path}.name")
        key = name_key(name)
        if key in seen:
            raise InvalidExport(f"{path}.name", f"{name!r} is players[{seen[key]}] already: a player is listed once")
        seen[key] = i
        players.append(
            {
                "name": name,
                "retired": _bool(p["retired"], f"{path}.retired"),
                "created_at": _datetime(p["created_at"], f"{path}.created_at"),
            }
        )
    return players


def _read_changes(value: Any, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    listed = {name_key(p["name"]) for p in players}
    changes = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_list(value, "roster_changes")):
        path = f"roster_changes[{i}]"
        c = _object(item, path, _CHANGE_KEYS, "a roster change")
        uid = _uid(c["uid"], f"{path}.uid")
        if uid in seen:
            raise InvalidExport(f"{path}.uid", f"roster_changes[{seen[uid]}] has the same uid")
        seen[uid] = i
        player = None
        if c["player"] is not None:
            player = _name(c["player"], f"{path}.player")
            if name_key(player) not in listed:
                raise InvalidExport(f"{path}.player", f"{player!r} is not one of the players")
        changes.append(
            {
                "uid": uid,
                "action": _action(c["action"], f"{path}.action"),
                "player": player,
                "detail": _json_object(c["detail"], f"{path}.detail"),
                "at": _datetime(c["at"], f"{path}.at"),
            }
        )
    return changes


def _read_nights(value: Any) -> list[CheckedNight]:
    nights = []
    seen: dict[str, int] = {}
    for i, item in enumerate(_list(value, "nights")):
        path = f"nights[{i}]"
        try:
            night = read_night(item)
        except InvalidExport as err:
            raise InvalidExport(_join(path, err.path), err.message) from None
        uid = night.columns["uid"]
        if uid in seen:
            raise InvalidExport(f"{path}.evening.uid", f"nights[{seen[uid]}] is the same night (the same uid)")
        seen[uid] = i
        nights.append(night)
    return nights


def read_club(data: Any) -> CheckedClub:
    """Check a club file completely (every night as :func:`read_night` does) without the database.

    :raises InvalidExport: naming the JSON path of the first problem (``nights[3].hands[2].data.points``).
    """
    from scorekeeper.core.tournament_exports import read_tournament_file

    if isinstance(data, dict) and data.get("format") == CLUB_FORMAT and data.get("version") in CLUB_VERSIONS:
        version = data["version"]
        if type(version) is not int:
            raise InvalidExport("version", f"this Scorekeeper reads version 1 or {CLUB_VERSION}, not {version!r}")
    else:
        version = CLUB_VERSION  # _file says what is wrong
    old = version == 1
    top = _file(data, CLUB_FORMAT, version, _CLUB_KEYS_V1 if old else _CLUB_KEYS, "club")
    players = _read_club_players(top["players"])
    changes = _read_changes(top["roster_changes"], players)
    nights = _read_nights(top["nights"])
    tournaments = []
    loose = {night.columns["uid"]: f"nights[{i}]" for i, night in enumerate(nights)}  # where each night is
    seen: dict[str, int] = {}
    for i, item in enumerate([] if old else _list(top["tournaments"], "tournaments")):
        path = f"tournaments[{i}]"
        try:
            t = read_tournament_file(item)
        except InvalidExport as err:
            raise InvalidExport(_join(path, err.path), err.message) from None
        if t.uid in seen:
            raise InvalidExport(f"{path}.tournament.uid", f"tournaments[{seen[t.uid]}] is the same tournament")
        seen[t.uid] = i
        for j, (_, night) in enumerate(t.tables):
            uid = night.columns["uid"]
            if uid in loose:
                raise InvalidExport(
                    f"{path}.tables[{j}].night.evening.uid", f"{loose[uid]} is the same night (the same uid)"
                )
            loose[uid] = f"{path}.tables[{j}].night"
        tournaments.append(t)
    return CheckedClub(players, changes, nights, tournaments)


# --- writing it: one transaction ----------------------------------------------


def _night_id(db: Session, uid: str) -> int | None:
    return db.exec(select(Night.id).where(Night.uid == uid)).first()


def _write(db: Session, night: CheckedNight) -> int:
    """Write a new night through the use cases (not committed)."""
    seated = [player for player, _ in find_or_add_players(db=db, people=[{"name": name} for name in night.names])]
    added = add_imported_night(db=db, columns=night.columns, player_ids=[p.id for p in seated])
    add_imported_hands(db=db, night=added, hands=copy.deepcopy(night.hands), audit=copy.deepcopy(night.audit))
    return added.id


def _add_night(db: Session, night: CheckedNight) -> tuple[int, bool]:
    """Write a night unless its uid is there already (not committed): ``(night_id, created)``."""
    existing = _night_id(db, night.columns["uid"])
    if existing is not None:
        return existing, False
    return _write(db, night), True


def import_night(*, db: Session, data: Any) -> tuple[int, bool]:
    """Create the night of a :func:`night_json` object; returns ``(night_id, created)``.

    A night whose ``uid`` is already in the database is not imported again:
    its id comes back with ``created`` False and nothing changes. Players are
    found on the roster by name ignoring case, or added to it. Everything
    happens in one transaction: on any error nothing is written (the session
    is rolled back, with whatever else it held).

    :raises InvalidExport: for a file that is not a valid night, naming the JSON path.
    """
    night = read_night(data)
    uid = night.columns["uid"]
    try:
        try:
            night_id, created = _add_night(db, night)
            if created:
                db.commit()
            return night_id, created
        except IntegrityError:
            db.rollback()
            existing = _night_id(db, uid)  # another import wrote this night meanwhile
            if existing is None:
                raise
            return existing, False
    except BaseException:
        db.rollback()
        raise


@dataclass(frozen=True)
class ClubImport:
    """What :func:`import_club` did: how many of each were new, and how many were there already."""

    players_created: int
    players_present: int
    changes_created: int
    changes_present: int
    nights_created: int
    nights_present: int
    tournaments_created: int = 0
    tournaments_present: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.players_created or self.changes_created or self.nights_created or self.tournaments_created)


def import_club(*, db: Session, data: Any) -> ClubImport:
    """Add a :func:`club_json` object to the database, in one transaction.

    Players are found on the roster by name ignoring case, or added with the
    file's ``retired`` and ``created_at``; roster changes, nights and tournaments already in
    the database (the same uid) are left as they are, so importing a file twice
    changes nothing the second time. The whole file is checked before anything
    is written; on any error nothing is written (the session is rolled back,
    with whatever else it held).

    :raises InvalidExport: for a file that is not a valid club, naming the JSON path.
    """
    from scorekeeper.core.tournament_exports import write_tournament

    club = read_club(data)
    try:
        players = find_or_add_players(db=db, people=club.players)
        ids = {name_key(player.name): player.id for player, _ in players}
        known = set(db.exec(select(RosterChange.uid)))
        new_changes = [c for c in club.changes if c["uid"] not in known]
        for c in new_changes:
            player_id = GONE_PLAYER_ID if c["player"] is None else ids[name_key(c["player"])]
            columns = {key: copy.deepcopy(value) for key, value in c.items() if key != "player"}
            add_imported_roster_change(db=db, player_id=player_id, columns=columns)
        db.flush()  # in file order: their ids keep the order
        created = [_add_night(db, night)[1] for night in club.nights]
        new_tournaments = []
        for i, tournament in enumerate(club.tournaments):
            try:
                new_tournaments.append(write_tournament(db, tournament)[1])
            except InvalidExport as err:  # a table's night is in the database already, not as this table
                raise InvalidExport(_join(f"tournaments[{i}]", err.path), err.message) from None
        db.commit()
    except BaseException:
        db.rollback()
        raise
    players_created = sum(new for _, new in players)
    return ClubImport(
        players_created=players_created,
        players_present=len(players) - players_created,
        changes_created=len(new_changes),
        changes_present=len(club.changes) - len(new_changes),
        nights_created=sum(created),
        nights_present=len(created) - sum(created),
        tournaments_created=sum(new_tournaments),
        tournaments_present=len(new_tournaments) - sum(new_tournaments),
    )
