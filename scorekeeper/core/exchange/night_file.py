"""A night out of the database and back in: a lossless JSON file.

- :func:`night_json` writes everything about a night (rules, people, hands,
  idempotency keys, the audit trail with the keys of the hands undone, timestamps) as a JSON object;
  :func:`night_file_json`, the file a night is exported to alone, marks a tournament's table with its
  tournament (``tournament``), and every reader refuses a file so marked: a table is imported only
  with its tournament (docs/backup.md).
- :func:`read_night` checks such an object completely without the database;
  :func:`import_night` writes it in one transaction. It checks the file as strictly
  as the forms check their input, and settles its hands with the engine, so a
  corrupted or hand-edited file cannot create a broken night.

No Flask here: everything takes a database session.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlmodel import Session, select

from scorekeeper.core.exchange import checks
from scorekeeper.core.exchange.checks import InvalidExport, timestamp
from scorekeeper.core.exchange.transaction import import_once
from scorekeeper.core.hands import add_imported_hands, is_idempotency_key
from scorekeeper.core.models import (
    CLOSED,
    OPEN,
    POT_GONE,
    STATUSES,
    HandRecord,
    Night,
    Player,
    Seat,
    Tournament,
    TournamentTable,
)
from scorekeeper.core.nights import (
    STAKE_MAX_CENTS,
    add_imported_night,
    closed_once,
    pot_from_nowhere,
    pot_gap,
    pot_waiting,
)
from scorekeeper.core.players import LooksLikeSeveral, find_or_add_players, match_names
from scorekeeper.core.stored import Running, check_ceiling, running_sums
from scorekeeper.core.table import audit_trail, get_night
from scorekeeper.core.text import ID_MAX, has_control
from scorekeeper.core.tournaments import NAME_MAX
from scorekeeper.engine import GAMES, InvalidHand, deal, ledger, settle_session

FORMAT = "scorekeeper-night"
VERSION = 1
POT_MAX = 10**9  # what the engine accepts as a pot to start with
#: The key of a tournament's table exported alone: its tournament's uid and name, its round and table.
TABLE_MARK = "tournament"

__all__ = [
    "FORMAT",
    "TABLE_MARK",
    "VERSION",
    "CheckedNight",
    "add_night",
    "find_people",
    "import_night",
    "night_file_json",
    "night_json",
    "read_night",
]


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
            "closed_at": timestamp(night.closed_at),
            "pot_start": night.pot_start,
            "pot_to": night.pot_to,
            "pot_given": night.pot_given,
            "pot_from": [
                {"uid": uid, "units": units}
                for uid, units in db.exec(
                    select(Night.uid, Night.pot_given)
                    .where(Night.pot_to == night.uid)
                    .order_by(Night.created_at, Night.id)
                )
            ],
            "created_at": timestamp(night.created_at),
        },
        "players": [{"position": position, "name": name} for position, name in seats],
        "hands": [
            {
                "number": h.number,
                "dealer": h.dealer,
                "data": copy.deepcopy(h.data),
                "idempotency_key": h.idempotency_key,
                "created_at": timestamp(h.created_at),
                "updated_at": timestamp(h.updated_at),
            }
            for h in hands
        ],
        "audit": [
            {
                "hand_number": a.hand_number,
                "action": a.action,
                "before": copy.deepcopy(a.before),
                "after": copy.deepcopy(a.after),
                "at": timestamp(a.at),
            }
            | ({} if a.idempotency_key is None else {"idempotency_key": a.idempotency_key})  # an undo's
            for a in audit_trail(db=db, night_id=night.id)
        ],
    }


def night_file_json(*, db: Session, night_id: int) -> dict[str, Any]:
    """The file a night is exported to alone (``manage.py export ID``, the night's JSON download):
    :func:`night_json`, and for a tournament's table ``tournament``, what it is a table of: the
    tournament's ``uid`` and ``name``, the ``round`` and the ``table``'s number. :func:`read_night`
    refuses a file so marked: a tournament's table alone is no club night, it is imported only with
    its tournament (the tournament's file, which carries its tables unmarked).

    :raises NotFound: for an unknown night.
    """
    data = night_json(db=db, night_id=night_id)
    table = db.exec(
        select(Tournament.uid, Tournament.name, TournamentTable.round, TournamentTable.number)
        .join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
        .where(TournamentTable.night_id == night_id)
    ).first()
    if table is None:
        return data
    uid, name, round_number, number = table
    mark = {"uid": uid, "name": name, "round": round_number, "table": number}
    return {"format": data["format"], "version": data["version"], TABLE_MARK: mark, **data}


# --- reading a file: every check before anything is written ----------------------

_TOP_KEYS = ("evening", "players", "hands", "audit")
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
#: where its carried pot went, and the pots it took (files written before lack them: _read_pot_to, _read_pot_from)
_POT_KEYS = ("pot_to", "pot_given", "pot_from")
_PLAYER_KEYS = ("position", "name")
_HAND_KEYS = ("number", "dealer", "data", "idempotency_key", "created_at", "updated_at")
_AUDIT_KEYS = ("hand_number", "action", "before", "after", "at")

_CURRENCY = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True)
class CheckedNight:
    """A checked night file, ready to be written."""

    columns: dict[str, Any]  # Night's columns
    names: list[str]  # clean names in seat order
    hands: list[dict[str, Any]]  # HandRecord's columns (without night_id)
    audit: list[dict[str, Any]]  # AuditEntry's columns (without night_id)
    pot_from: tuple[tuple[str, int], ...] = ()  # the pots it took: each night's uid and the units it gave
    pot_known: bool = True  # False: written before where a pot went was recorded (_read_pot_to)


def _read_night(value: Any) -> dict[str, Any]:
    e = checks.object_with(value, "evening", checks.keys_with(value, _NIGHT_KEYS, *_POT_KEYS), "evening")
    uid = checks.uid(e["uid"], "evening.uid")
    game = checks.text(e["game"], "evening.game")
    if game not in GAMES:
        raise InvalidExport("evening.game", f"must be one of {', '.join(GAMES)}, not {game!r}")
    complete = checks.rule_set(game, e["rules"], "evening.rules", "evening")
    currency = checks.text(e["currency"], "evening.currency")
    if not _CURRENCY.fullmatch(currency):
        raise InvalidExport(
            "evening.currency", f"must be a three-letter code in capitals such as EUR, not {currency!r}"
        )
    day = checks.day(e["played_on"], "evening.played_on")
    place = checks.text(e["place"], "evening.place")
    if len(place) > 80:
        raise InvalidExport("evening.place", "may have at most 80 characters")
    if has_control(place):
        raise InvalidExport("evening.place", "must not contain control characters")
    sizes = GAMES[game].table_sizes
    seat_count = checks.integer(e["seat_count"], "evening.seat_count", 1, 10)
    if seat_count not in sizes:
        allowed = " or ".join(map(str, sizes))
        raise InvalidExport("evening.seat_count", f"{game} is played by {allowed} players, not {seat_count}")
    status = checks.text(e["status"], "evening.status")
    if status not in STATUSES:
        raise InvalidExport("evening.status", f"must be one of {', '.join(STATUSES)}, not {status!r}")
    closed_at = checks.moment(e["closed_at"], "evening.closed_at", nullable=True)
    if status == OPEN and closed_at is not None:
        raise InvalidExport("evening.closed_at", "an open night has no closing time: it must be null")
    if status == CLOSED and closed_at is None:
        raise InvalidExport("evening.closed_at", "a closed night has the time it was closed: it must not be null")
    return {
        "uid": uid,
        "game": game,
        "rules": complete,
        "stake_cents": checks.integer(e["stake_cents"], "evening.stake_cents", 0, STAKE_MAX_CENTS),
        "currency": currency,
        "played_on": day,
        "place": place,
        "seat_count": seat_count,
        "first_dealer": checks.integer(e["first_dealer"], "evening.first_dealer", 1, seat_count),
        "status": status,
        "closed_at": closed_at,
        "pot_start": checks.integer(e["pot_start"], "evening.pot_start", 0, POT_MAX),
        **_read_pot_to(e, status, uid, GAMES[game].carries_pot(GAMES[game].parse_rules(complete))),
        "created_at": checks.moment(e["created_at"], "evening.created_at"),
    }


def _read_pot_to(e: dict[str, Any], status: str, uid: str, carries: bool) -> dict[str, Any]:
    """Where the night's carried pot went: ``pot_to``, the uid of the night that took it (``""``: it went
    before that was recorded; null: it waits, or the night carries none) and ``pot_given``, the units it gave
    then (null while it waits); the two come together. A file written before has neither: the pot of its
    night, if closed, is taken as gone (it went where the rule of then sent it), so that no old pot waits
    again (a club's file names the one that waits: ``club_file``). Only a night whose rules carry its pot
    (``carries``) gives it to a night, never to itself."""
    if "pot_to" not in e and "pot_given" not in e:
        return {"pot_to": POT_GONE if status == CLOSED else None, "pot_given": None}
    for key in ("pot_to", "pot_given"):
        if key not in e:
            raise InvalidExport(
                f"evening.{key}", "is required with evening.pot_to and evening.pot_given: they come together"
            )
    to = e["pot_to"]
    if to is not None and to != POT_GONE:
        to = checks.uid(to, "evening.pot_to")
        if to == uid:
            raise InvalidExport("evening.pot_to", "names the night itself: a night's pot goes to a later night")
        if not carries:
            raise InvalidExport("evening.pot_to", "names a night, but the night's rules carry no pot to the next")
    given = None if e["pot_given"] is None else checks.integer(e["pot_given"], "evening.pot_given", 0, POT_MAX)
    if (given is None) != (not to):
        raise InvalidExport("evening.pot_given", "is given exactly when evening.pot_to names the night that took it")
    return {"pot_to": to, "pot_given": given}


def _read_pot_from(e: dict[str, Any], night: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """The pots the night took (``pot_from``: each night's ``uid`` and the ``units`` it gave), so that a night
    imported again where those nights wait (deleted, its pots given back) takes them again, not the next night
    too. Optional: a file written before has none."""
    found = []
    for _i, path, item in checks.objects_with(
        checks.a_list(e.get("pot_from", []), "evening.pot_from"), "evening.pot_from", ("uid", "units"), "a pot taken"
    ):
        uid = checks.uid(item["uid"], f"{path}.uid")
        if uid == night["uid"] or uid in {u for u, _ in found}:
            raise InvalidExport(f"{path}.uid", "names the night itself or a night named before")
        found.append((uid, checks.integer(item["units"], f"{path}.units", 0, POT_MAX)))
    return tuple(found)


def _read_players(value: Any, seat_count: int) -> list[str]:
    players = checks.a_list(value, "players")
    if len(players) != seat_count:
        raise InvalidExport(
            "players", f"the night has {seat_count} seats (evening.seat_count) but {len(players)} players"
        )
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, path, p in checks.objects_with(players, "players", _PLAYER_KEYS, "a player"):
        position = checks.integer(p["position"], f"{path}.position", 1, seat_count)
        if position != i + 1:
            raise InvalidExport(f"{path}.position", f"the players are listed in seat order: expected {i + 1}")
        name = checks.name(p["name"], f"{path}.name")
        if name in seen:  # two names that look alike are two records of a database of before today's rule
            raise InvalidExport(f"{path}.name", f"{name!r} already sits at seat {seen[name]}: a player has one seat")
        seen[name] = position
        names.append(name)
    return names


def _read_hands(value: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    hands = []
    keys: dict[str, int] = {}
    game = GAMES[night["game"]]
    rules = game.parse_rules(night["rules"])  # checked by _read_night
    dealt = deal.first_deal(game, night["seat_count"], night["first_dealer"])  # the engine's deals, one a hand
    for i, path, h in checks.objects_with(checks.a_list(value, "hands"), "hands", _HAND_KEYS, "a hand"):
        number = checks.integer(h["number"], f"{path}.number", 1, ID_MAX)
        if number != i + 1:
            raise InvalidExport(f"{path}.number", f"the hands are numbered 1, 2, 3, … in order: expected {i + 1}")
        if checks.integer(h["dealer"], f"{path}.dealer", 1, night["seat_count"]) != dealt.dealer:
            raise InvalidExport(
                f"{path}.dealer",
                f"hand {number} is dealt by seat {dealt.dealer} (the deal moves on clockwise from seat "
                f"{night['first_dealer']}; a hand dealt again keeps its dealer), not {h['dealer']}",
            )
        data = checks.json_object(h["data"], f"{path}.data")
        key = h["idempotency_key"]
        if key is not None:
            if not is_idempotency_key(key):
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
                "created_at": checks.moment(h["created_at"], f"{path}.created_at"),
                "updated_at": checks.moment(h["updated_at"], f"{path}.updated_at"),
            }
        )
        dealt = deal.next_deal(game, rules, dealt, data)
    return hands


def _undone_key(a: dict[str, Any], path: str, action: str, kept: dict[str, str]) -> str | None:
    """The key of the hand an undo took back (``idempotency_key``, optional: files written before it
    lack it), kept so the hand sent again with it is not recorded again. ``kept``: the keys seen so far
    (the hands', each naming its hand; the undos', their path), to which it is added."""
    key = a.get("idempotency_key")
    if key is None:
        return None
    at = f"{path}.idempotency_key"
    if not is_idempotency_key(key):
        raise InvalidExport(at, "must be null or 1 to 64 printable ASCII characters")
    if action != "undo":
        raise InvalidExport(at, f"only an undo keeps the key of the hand it took back, not a {action}")
    if key in kept:
        raise InvalidExport(at, f"{kept[key]} has the same key: a hand taken back is never recorded again with its key")
    kept[key] = path
    return key


def _read_audit(value: Any, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    entries = []
    keys = {h["idempotency_key"]: f"hand {h['number']}" for h in hands if h["idempotency_key"] is not None}
    listed = checks.a_list(value, "audit")
    for _, path, a in checks.objects_with(listed, "audit", _AUDIT_KEYS, "an audit entry", "idempotency_key"):
        number = a["hand_number"]
        if number is not None:
            checks.integer(number, f"{path}.hand_number", 1, ID_MAX)
        action = checks.action(a["action"], f"{path}.action")
        entries.append(
            {
                "hand_number": number,
                "action": action,
                "before": checks.json_object(a["before"], f"{path}.before", nullable=True),
                "after": checks.json_object(a["after"], f"{path}.after", nullable=True),
                "at": checks.moment(a["at"], f"{path}.at"),
                "idempotency_key": _undone_key(a, path, action, keys),
            }
        )
    return entries


def _settle(night: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    """The engine must settle the hands, as it did when they were recorded."""
    try:
        settlement = settle_session(
            night["game"], night["rules"], [h["data"] for h in hands], pot=night["pot_start"] or None
        )
        game = GAMES[night["game"]]
        limit = ledger.CEILING // max(night["stake_cents"], 1)  # a pot to start with, its money at its stake too
        if night["pot_start"] > limit:
            raise InvalidExport(
                "evening.pot_start",
                f"a pot of {night['pot_start']} units to start with is more than a night may hold "
                f"({limit} units at this stake)",
            )
        sums = running_sums(
            game=night["game"],
            seat_count=night["seat_count"],
            start=Running.start(game.seats, night["seat_count"]),
            results=settlement.results,
            dealers=[h["dealer"] for h in hands],
        )
        states = [{"pot": r.extra.get("pot_after")} for r in settlement.results]
        check_ceiling(
            game=game, rules=settlement.rules, stake_cents=night["stake_cents"], sums=sums, states=states, first=0
        )
    except InvalidHand as err:
        if err.hand is not None:
            path = f"hands[{err.hand}].data"
            raise InvalidExport(checks.join(path, err.field), err.message) from None
        field = "pot_start" if err.field == "pot" else err.field
        raise InvalidExport(checks.join("evening", field), err.message) from None


def _table_alone(mark: Any) -> str:
    """Why a file marked as a tournament's table (:func:`night_file_json`) is not imported, naming the
    table and its tournament as the mark says them (a mark that cannot say them: "a tournament's table")."""
    table = "a tournament's table"
    if isinstance(mark, dict):
        name, round_number, number = mark.get("name"), mark.get("round"), mark.get("table")
        if (
            isinstance(name, str)
            and 0 < len(name) <= NAME_MAX
            and not has_control(name)
            and all(type(n) is int and 1 <= n <= ID_MAX for n in (round_number, number))
        ):
            table = f"table {number} of round {round_number} of the tournament {name!r}"
    return (
        f"this file is {table}, exported alone: a tournament's table is no club night, and it is imported "
        "only with its tournament: export the whole tournament where it was played with "
        "python manage.py export-tournament ID FILE, and import that file with python manage.py import-tournament FILE"
    )


def read_night(data: Any) -> CheckedNight:
    """Check a night file completely (format, keys, types, names, the deal, the engine) without the database.
    A tournament's table exported alone (marked ``tournament``, :func:`night_file_json`) is refused: every
    import of a night file (alone, in a club's or a tournament's file) reads it here.

    :raises InvalidExport: naming the JSON path of the first problem.
    """
    top = checks.file_top(data, FORMAT, VERSION, checks.keys_with(data, _TOP_KEYS, TABLE_MARK), "night")
    if TABLE_MARK in top:
        raise InvalidExport(TABLE_MARK, _table_alone(top[TABLE_MARK]))
    night = _read_night(top["evening"])
    names = _read_players(top["players"], night["seat_count"])
    hands = _read_hands(top["hands"], night)
    audit = _read_audit(top["audit"], hands)
    _settle(night, hands)
    known = "pot_to" in top["evening"]
    return CheckedNight(night, names, hands, audit, _read_pot_from(top["evening"], night), known)


# --- writing it: one transaction ----------------------------------------------


def find_night(db: Session, uid: str) -> int | None:
    """The id of the night with this uid, if the database has it."""
    return db.exec(select(Night.id).where(Night.uid == uid)).first()


def find_people(db: Session, people: list[tuple[str, dict[str, Any]]]) -> list[tuple[Player, bool]]:
    """The players of a file's people, found by name or added, as
    :func:`~scorekeeper.core.players.find_or_add_players` finds them: ``people`` are each the JSON
    path of the person's entry and Player's columns (``guest`` True for a tournament's guest; a member
    without it). A member of the club is never found as a tournament's guest, nor a guest as a member
    (docs/tournaments.md: the two are never merged, and a guest never sits at a club night).

    :raises InvalidExport: at the person's path, when the name here is the other kind's; before anything is written.
    """
    names = [columns["name"] for _, columns in people]
    try:
        here = match_names(list(db.exec(select(Player))), names)
    except LooksLikeSeveral as err:  # names stored before today's rule look alike: not guessed
        said = f"{err}: the file names whom it means exactly, or one of them is renamed here first"
        raise InvalidExport(people[err.index][0], said) from None
    for (path, columns), other in zip(people, here, strict=True):
        guest = columns.get("guest", False)
        if other is not None and other.guest != guest:
            said = "a member of the club, not a guest" if guest else "a guest of a tournament, not a member"
            raise InvalidExport(path, f"{columns['name']!r} is {other.name!r} here, {said}")
    return find_or_add_players(db=db, people=[columns for _, columns in people])


def _check_pot_from(db: Session, night: CheckedNight, in_file: dict[str, CheckedNight] | None) -> None:
    """The pots a night took (``pot_from``) are its to take here (docs/backup.md, "The pot carried in"): each
    night named is here, a club night of its game that carries its pot, and its pot waits holding the units
    named (a night deleted gave it back) or went to this night already, those units; or it is a night of
    the same file (``in_file``, a club's) whose ``pot_to`` names this night with those units. Else the pot
    would be paid out twice, or come from nowhere.

    :raises InvalidExport: at ``evening.pot_from[i]``, naming the pot; before anything of the night is written.
    """
    uid = night.columns["uid"]
    gave = []  # each pot's night's stake and currency, and the units it gave
    for i, (source_uid, units) in enumerate(night.pot_from):
        path = f"evening.pot_from[{i}]"
        source = db.exec(select(Night).where(Night.uid == source_uid)).first()
        written = (in_file or {}).get(source_uid)
        if source is not None or written is not None:
            stake, currency = (
                (source.stake_cents, source.currency)
                if source is not None
                else (written.columns["stake_cents"], written.columns["currency"])
            )
            gave.append(SimpleNamespace(stake_cents=stake, currency=currency, pot_given=units))
        if source is None:
            if written is None:
                raise InvalidExport(
                    f"{path}.uid",
                    f"names a night that is not here: the pot of {units} units this night took would come from "
                    "nowhere; import that night first (its own file, or the club's)",
                )
            if (written.columns["pot_to"], written.columns["pot_given"]) != (uid, units):
                raise InvalidExport(
                    f"{path}.units",
                    f"the night of {written.columns['played_on']} in this file does not say it gave this night "
                    f"its pot of {units} units",
                )
            # as a night here (below): a club night of this game, closed once (a pot waits from its close on)
            if written.columns["game"] != night.columns["game"]:
                raise InvalidExport(
                    f"{path}.uid", f"names a night that carries no pot to a {night.columns['game']} night"
                )
            if written.columns["status"] != CLOSED and all(a["action"] != "close" for a in written.audit):
                raise InvalidExport(
                    f"{path}.uid",
                    f"the pot of the night of {written.columns['played_on']} in this file ({units} units) never "
                    "waited for a night: its night was never closed",
                )
            continue
        said = f"the pot of the night of {source.played_on} ({units} units)"
        g = GAMES[source.game]
        if source.game != night.columns["game"] or source.tournament_id is not None:
            raise InvalidExport(f"{path}.uid", f"names a night that carries no pot to a {night.columns['game']} night")
        if not g.carries_pot(g.parse_rules(source.rules)):
            raise InvalidExport(f"{path}.uid", f"names the night of {source.played_on}, whose rules carry no pot")
        if not closed_once(db=db, night=source):  # (a night of the same file, written just before, too)
            raise InvalidExport(f"{path}.uid", f"{said} never waited for a night: its night was never closed")
        if source.pot_to == uid:
            if source.pot_given != units:
                raise InvalidExport(
                    f"{path}.units", f"the night of {source.played_on} gave this night {source.pot_given} units"
                )
            continue
        if source.pot_to is not None:
            taker = db.exec(select(Night).where(Night.uid == source.pot_to)).first() if source.pot_to else None
            where = (
                f"the night of {taker.played_on} (night {taker.id}), which holds it"
                if taker is not None
                else "another night"
            )
            raise InvalidExport(
                f"{path}.uid",
                f"{said} went to {where}: this night would pay it out a second time "
                "(docs/backup.md, 'The pot carried in')",
            )
        waiting = pot_waiting(db=db, night=source)
        if waiting is None:
            raise InvalidExport(f"{path}.uid", f"{said} does not wait for a night: its night was never closed")
        if waiting != units:
            raise InvalidExport(
                f"{path}.units", f"the pot of the night of {source.played_on} waits with {waiting} units, not {units}"
            )
    columns = night.columns
    taker = SimpleNamespace(
        pot_start=columns["pot_start"],
        tournament_id=None,
        stake_cents=columns["stake_cents"],
        currency=columns["currency"],
    )
    # before its hands' rows are written; a club's file written before the pots were followed keeps its pots
    if (night.pot_known or in_file is None) and (gap := pot_gap(taker, gave)) is not None:
        raise InvalidExport("evening.pot_start", f"the night {gap}")


def check_pot_start(db: Session, night: CheckedNight, night_id: int) -> None:
    """A night written from a file starts with the pot the pots it took give it, none from nowhere
    (:func:`~scorekeeper.core.nights.pot_from_nowhere`). A night of a file written before the pots were
    followed (``pot_known`` False) in a club's file keeps the pot the rule of then gave it (as migration 0016).

    :raises InvalidExport: at ``evening.pot_start``.
    """
    gap = pot_from_nowhere(db=db, night=db.get(Night, night_id))
    if gap is not None:
        raise InvalidExport("evening.pot_start", f"the night {gap}")


def _write(db: Session, night: CheckedNight) -> int:
    """Write a new night through the use cases (not committed). Its players are members: a name that
    is a tournament's guest here is refused, as the start form refuses a guest at a club night."""
    people = [(f"players[{i}].name", {"name": name}) for i, name in enumerate(night.names)]
    seated = [player for player, _ in find_people(db, people)]
    added = add_imported_night(db=db, columns=night.columns, player_ids=[p.id for p in seated], pot_from=night.pot_from)
    add_imported_hands(db=db, night=added, hands=copy.deepcopy(night.hands), audit=copy.deepcopy(night.audit))
    return added.id


def add_night(db: Session, night: CheckedNight, in_file: dict[str, CheckedNight] | None = None) -> tuple[int, bool]:
    """Write a checked night unless its uid is there already (not committed: the club's import is one
    transaction): ``(night_id, created)``. ``in_file``: the other nights of the same file by uid (a club's),
    which may have given it their pots. Its pot to start with is checked by the caller once the file's
    nights are written (:func:`check_pot_start`)."""
    existing = find_night(db, night.columns["uid"])
    if existing is not None:
        return existing, False
    _check_pot_from(db, night, in_file)
    return _write(db, night), True


def _add_alone(db: Session, night: CheckedNight) -> tuple[int, bool]:
    """A night file's night written (:func:`add_night`), its pot to start with checked."""
    night_id, created = add_night(db, night)
    if created:
        check_pot_start(db, night, night_id)
    return night_id, created


def import_night(*, db: Session, data: Any) -> tuple[int, bool]:
    """Create the night of a :func:`night_json` object; returns ``(night_id, created)``.

    A night whose ``uid`` is already in the database is not imported again:
    its id comes back with ``created`` False and nothing changes. Players are
    found on the roster by name (the exact name first, then one that looks like it), or added to it. Everything
    happens in one transaction: on any error nothing is written (the session
    is rolled back, with whatever else it held).

    :raises InvalidExport: for a file that is not a valid night, naming the JSON path.
    """
    night = read_night(data)
    uid = night.columns["uid"]
    return import_once(db=db, write=lambda: _add_alone(db, night), find=lambda: find_night(db, uid))
