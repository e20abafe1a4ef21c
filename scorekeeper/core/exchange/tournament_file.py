"""A whole tournament out of the database and back in: one lossless JSON object.

- :func:`tournament_json` writes the tournament (its columns, complete rules, prizes and seed),
  its entrants (start number, name, guest or not, withdrawn after which round), its rounds (byes,
  how many times drawn) and its tables (round, number, the paper list if any, and the table's
  night as :func:`scorekeeper.core.exchange.night_file.night_json` writes it).
- :func:`read_tournament_file` checks such an object completely without the database (every
  table's night as :func:`scorekeeper.core.exchange.night_file.read_night` checks it, and that the tables
  fit the tournament); :func:`import_tournament` writes it in one transaction. A tournament whose
  ``uid`` is in the database already is not imported again (``created`` False).

Roster players are found by name as the club's import finds them (or added to the roster); a
guest becomes a guest player (never on the roster). The whole-club export carries its tournaments
in this form (:func:`scorekeeper.core.exchange.club_file.club_json`). No Flask here.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlmodel import Session, select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange import checks
from scorekeeper.core.exchange.checks import InvalidExport, timestamp
from scorekeeper.core.exchange.night_file import CheckedNight, find_night, find_people, night_json, read_night
from scorekeeper.core.exchange.transaction import import_once
from scorekeeper.core.hands import add_imported_hands
from scorekeeper.core.history import write_solos
from scorekeeper.core.models import (
    CLOSED,
    OPEN,
    STATUSES,
    Entrant,
    Player,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.core.nights import add_imported_night, new_join_code
from scorekeeper.core.players import find_or_add_players
from scorekeeper.core.stored import deals_played
from scorekeeper.core.text import ID_MAX, name_key

FORMAT = "scorekeeper-tournament"
VERSION = 1
SEED_MAX = 32  # Tournament.seed's length
_CURRENCY = re.compile(r"[A-Z]{3}")  # as a night's (night_file)

__all__ = [
    "FORMAT",
    "VERSION",
    "CheckedTournament",
    "import_tournament",
    "read_tournament_file",
    "tournament_json",
    "write_tournament",
]


# --- export ----------------------------------------------------------------------------------


def tournament_json(db: Session, tournament_id: Any) -> dict[str, Any]:
    """The whole tournament as a JSON object, lossless: :func:`import_tournament` makes the same
    tournament of it. No database ids: the tournament's and the nights' uids say what is what.

    :raises NotFound: for an unknown tournament.
    """
    t = tm.get_tournament(db=db, tournament_id=tournament_id)
    entrants = db.exec(
        select(Entrant, Player)
        .join(Player, Player.id == Entrant.player_id)
        .where(Entrant.tournament_id == t.id)
        .order_by(Entrant.number)
    ).all()
    rounds = db.exec(
        select(TournamentRound).where(TournamentRound.tournament_id == t.id).order_by(TournamentRound.number)
    ).all()
    tables = db.exec(
        select(TournamentTable)
        .where(TournamentTable.tournament_id == t.id)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "uid": t.uid,
            "name": t.name,
            "played_on": t.played_on.isoformat(),
            "place": t.place,
            "game": t.game,
            "rules": copy.deepcopy(t.rules),
            "rounds": t.rounds,
            "deals": t.deals,
            "entry_fee_cents": t.entry_fee_cents,
            "prizes": list(t.prizes),
            "currency": t.currency,
            "seed": t.seed,
            **({"keep_apart": [list(pair) for pair in t.keep_apart]} if t.keep_apart else {}),
            **({"reopened": copy.deepcopy(t.reopened)} if t.reopened else {}),
            "status": t.status,
            "created_at": timestamp(t.created_at),
            "closed_at": timestamp(t.closed_at),
        },
        "entrants": [_entrant_json(db, e, p) for e, p in entrants],
        "rounds": [
            {"number": r.number, "byes": list(r.byes), "attempt": r.attempt, "drawn_at": timestamp(r.drawn_at)}
            for r in rounds
        ],
        "tables": [
            {
                "round": tt.round,
                "number": tt.number,
                "paper": None if tt.paper is None else list(tt.paper),
                # a paper list's solos (None: not given); a recorded table's are counted from its hands
                **({"solos": copy.deepcopy(tt.solos)} if tt.paper is not None and tt.solos is not None else {}),
                "night": night_json(db=db, night_id=tt.night_id),
            }
            for tt in tables
        ],
    }


def _entrant_json(db: Session, e: Entrant, p: Player) -> dict[str, Any]:
    """An entrant; ``former``, only where someone was replaced: who, after which round, when."""
    out = {"number": e.number, "name": p.name, "guest": p.guest, "withdrawn_after": e.withdrawn_after}
    if e.former:
        out["former"] = [
            {
                "name": f["name"],
                "guest": db.get(Player, f["player_id"]).guest,
                "after_round": f["after_round"],
                "at": f["at"],
            }
            for f in e.former
        ]
    return out


# --- reading a file: every check before anything is written -----------------------------------

_TOP_KEYS = ("tournament", "entrants", "rounds", "tables")
_TOURNAMENT_KEYS = (
    "uid",
    "name",
    "played_on",
    "place",
    "game",
    "rules",
    "rounds",
    "deals",
    "entry_fee_cents",
    "prizes",
    "seed",
    "status",
    "created_at",
    "closed_at",
)
_ENTRANT_KEYS = ("number", "name", "guest", "withdrawn_after")
_ROUND_KEYS = ("number", "byes", "attempt", "drawn_at")
_TABLE_KEYS = ("round", "number", "paper", "night")
_FORMER_KEYS = ("name", "guest", "after_round", "at")


@dataclass(frozen=True)
class CheckedTournament:
    """A checked tournament file, ready to be written."""

    columns: dict[str, Any]  # Tournament's columns
    entrants: list[dict[str, Any]]  # number, name (clean), guest, withdrawn_after
    rounds: list[dict[str, Any]]  # TournamentRound's columns (without tournament_id)
    tables: list[tuple[dict[str, Any], CheckedNight]]  # TournamentTable's round, number, paper; its night

    @property
    def uid(self) -> str:
        return self.columns["uid"]


def _read_columns(value: Any, currency: str) -> dict[str, Any]:
    path = "tournament"
    t = checks.object_with(
        value, path, checks.keys_with(value, _TOURNAMENT_KEYS, "keep_apart", "reopened", "currency"), "the tournament"
    )
    game = checks.text(t["game"], f"{path}.game")
    if game not in tm.TOURNAMENT_GAMES:
        raise InvalidExport(f"{path}.game", f"must be one of {', '.join(tm.TOURNAMENT_GAMES)}, not {game!r}")
    prizes = checks.a_list(t["prizes"], f"{path}.prizes")
    if len(prizes) > tm.PRIZES_MAX:
        raise InvalidExport(f"{path}.prizes", f"at most {tm.PRIZES_MAX} prizes, not {len(prizes)}")
    for i, amount in enumerate(prizes):
        checks.integer(amount, f"{path}.prizes[{i}]", 0, tm.PRIZE_MAX_CENTS)
    seed = checks.text(t["seed"], f"{path}.seed", SEED_MAX, required=True)
    status = checks.text(t["status"], f"{path}.status")
    if status not in STATUSES:
        raise InvalidExport(f"{path}.status", f"must be one of {', '.join(STATUSES)}, not {status!r}")
    closed_at = checks.moment(t["closed_at"], f"{path}.closed_at", nullable=True)
    if (status == OPEN) != (closed_at is None):
        raise InvalidExport(
            f"{path}.closed_at", "an open tournament has no closing time, a closed one has the time it was closed"
        )
    return {
        "uid": checks.uid(t["uid"], f"{path}.uid"),
        "name": checks.text(t["name"], f"{path}.name", tm.NAME_MAX, required=True),
        "played_on": checks.day(t["played_on"], f"{path}.played_on"),
        "place": checks.text(t["place"], f"{path}.place", tm.NAME_MAX, required=False),
        "game": game,
        "rules": checks.rule_set(game, t["rules"], f"{path}.rules", f"{path}.rules"),
        "rounds": checks.integer(t["rounds"], f"{path}.rounds", 1, tm.ROUNDS_MAX),
        "deals": checks.integer(t["deals"], f"{path}.deals", 1, tm.DEALS_MAX),
        "entry_fee_cents": checks.integer(t["entry_fee_cents"], f"{path}.entry_fee_cents", 0, tm.FEE_MAX_CENTS),
        "prizes": list(prizes),
        "currency": _read_currency(t["currency"], f"{path}.currency") if "currency" in t else currency,
        "seed": seed,
        "keep_apart": _read_apart(t.get("keep_apart", []), f"{path}.keep_apart"),
        "status": status,
        "created_at": checks.moment(t["created_at"], f"{path}.created_at"),
        "closed_at": closed_at,
        "reopened": _read_reopened(t.get("reopened", []), f"{path}.reopened") or None,
    }


def _read_currency(value: Any, path: str) -> str:
    """The fee's and the prizes' currency: three capitals, as a night's (a file written before it has none: the
    importing club's currency, :func:`read_tournament_file`)."""
    currency = checks.text(value, path)
    if not _CURRENCY.fullmatch(currency):
        raise InvalidExport(path, f"must be a three-letter code in capitals such as EUR, not {currency!r}")
    return currency


#: The most reopenings a tournament file may list.
REOPENED_MAX = 1000


def _read_reopened(value: Any, path: str) -> list[dict[str, str]]:
    """Each reopening of the closed tournament (core/tournaments/setup.py ``reopen_tournament``): when, and the
    admin's reason, oldest first (a file written before reopenings were kept has none)."""
    out = []
    for i, item in enumerate(checks.list_at_most(value, path, REOPENED_MAX)):
        r = checks.object_with(item, f"{path}[{i}]", ("at", "reason"), "a reopening")
        checks.moment(r["at"], f"{path}[{i}].at")
        reason = checks.text(r["reason"], f"{path}[{i}].reason", tm.REASON_MAX, required=True)
        out.append({"at": r["at"], "reason": reason})
    return out


def _read_apart(value: Any, path: str) -> list[list[int]]:
    """The pairs of start numbers kept apart: each two different numbers, smaller first, none twice."""
    pairs: list[list[int]] = []
    for i, pair in enumerate(checks.list_at_most(value, path, tm.APART_MAX)):
        items = checks.a_list(pair, f"{path}[{i}]")
        if len(items) != 2:
            raise InvalidExport(f"{path}[{i}]", "two start numbers")
        a, b = (checks.integer(n, f"{path}[{i}][{k}]", 1, tm.ENTRANTS_MAX) for k, n in enumerate(items))
        if a >= b or [a, b] in pairs:
            raise InvalidExport(f"{path}[{i}]", "two different start numbers, the smaller first, each pair once")
        pairs.append([a, b])
    return pairs


def _read_entrants(value: Any, rounds: int) -> list[dict[str, Any]]:
    entrants = checks.list_at_most(value, "entrants", tm.ENTRANTS_MAX)
    out: list[dict[str, Any]] = []
    names: dict[str, int] = {}
    last = 0
    for i, path, e in checks.objects_with(entrants, "entrants", _ENTRANT_KEYS, "an entrant", "former"):
        number = checks.integer(e["number"], f"{path}.number", 1, ID_MAX)
        if number <= last:
            raise InvalidExport(f"{path}.number", f"the entrants are listed by start number: expected more than {last}")
        last = number
        name = checks.name(e["name"], f"{path}.name")
        if name in names:  # names that only look alike: two records of a database of before today's rule
            raise InvalidExport(f"{path}.name", f"{name!r} is entrants[{names[name]}] already")
        names[name] = i
        withdrawn = e["withdrawn_after"]
        if withdrawn is not None:
            checks.integer(withdrawn, f"{path}.withdrawn_after", 0, rounds)
        guest = checks.boolean(e["guest"], f"{path}.guest")
        former = []
        replaced = checks.a_list(e.get("former", []), f"{path}.former")
        for _, fpath, f in checks.objects_with(replaced, f"{path}.former", _FORMER_KEYS, "a replaced person"):
            fname = checks.name(f["name"], f"{fpath}.name")
            if fname in names:
                raise InvalidExport(f"{fpath}.name", f"{fname!r} is an entrant already")
            names[fname] = i
            former.append(
                {
                    "name": fname,
                    "guest": checks.boolean(f["guest"], f"{fpath}.guest"),
                    "after_round": checks.integer(f["after_round"], f"{fpath}.after_round", 0, rounds),
                    "at": checks.text(f["at"], f"{fpath}.at"),
                }
            )
        out.append({"number": number, "name": name, "guest": guest, "withdrawn_after": withdrawn, "former": former})
    return out


def _read_rounds(value: Any, rounds: int, numbers: set[int]) -> list[dict[str, Any]]:
    out = []
    listed = checks.list_at_most(value, "rounds", rounds)
    for i, path, r in checks.objects_with(listed, "rounds", _ROUND_KEYS, "a round"):
        number = checks.integer(r["number"], f"{path}.number", 1, rounds)
        if number != i + 1:
            raise InvalidExport(f"{path}.number", f"the rounds are numbered 1, 2, 3, … in order: expected {i + 1}")
        byes = checks.a_list(r["byes"], f"{path}.byes")
        for j, bye in enumerate(byes):
            checks.integer(bye, f"{path}.byes[{j}]", 1, ID_MAX)
            if bye not in numbers:
                raise InvalidExport(f"{path}.byes[{j}]", f"there is no entrant with the start number {bye}")
            if bye in byes[:j]:
                raise InvalidExport(f"{path}.byes[{j}]", f"{bye} sits out once in a round")
        out.append(
            {
                "number": number,
                "byes": list(byes),
                "attempt": checks.integer(r["attempt"], f"{path}.attempt", 0, ID_MAX),
                "drawn_at": checks.moment(r["drawn_at"], f"{path}.drawn_at"),
            }
        )
    return out


def _read_tables(
    value: Any, columns: dict[str, Any], entrants: list[dict[str, Any]], rounds: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], CheckedNight]]:
    exact = {e["name"]: e["number"] for e in entrants}
    exact |= {f["name"]: e["number"] for e in entrants for f in e["former"]}
    alike: dict[str, set[int]] = {}  # a seat's name that is no entrant's exactly: the one that looks like it
    for name, number in exact.items():
        alike.setdefault(name_key(name), set()).add(number)
    seated: dict[int, dict[int, str]] = {r["number"]: {b: "a bye" for b in r["byes"]} for r in rounds}
    tables: list[tuple[dict[str, Any], CheckedNight]] = []
    keys: dict[tuple[int, int], int] = {}
    uids: dict[str, int] = {}
    listed = checks.list_at_most(value, "tables", tm.ENTRANTS_MAX * tm.ROUNDS_MAX)
    for i, path, t in checks.objects_with(listed, "tables", _TABLE_KEYS, "a table", "solos"):
        round_number = checks.integer(t["round"], f"{path}.round", 1, columns["rounds"])
        if round_number not in seated:
            raise InvalidExport(f"{path}.round", f"round {round_number} is not in rounds")
        number = checks.integer(t["number"], f"{path}.number", 1, ID_MAX)
        if (round_number, number) in keys:
            raise InvalidExport(f"{path}.number", f"tables[{keys[round_number, number]}] is the same table")
        keys[round_number, number] = i
        try:
            night = read_night(t["night"])
        except InvalidExport as err:
            raise InvalidExport(checks.join(f"{path}.night", err.path), err.message) from None
        npath = f"{path}.night.evening"
        uid = night.columns["uid"]
        if uid in uids:
            raise InvalidExport(f"{npath}.uid", f"tables[{uids[uid]}] has the same night (the same uid)")
        uids[uid] = i
        if night.columns["game"] != columns["game"]:
            raise InvalidExport(f"{npath}.game", f"a table plays the tournament's game, {columns['game']}")
        if night.columns["rules"] != columns["rules"]:
            raise InvalidExport(f"{npath}.rules", "a table plays the tournament's rules (tournament.rules)")
        # a tournament's table takes no pot (core/nights.py pot_gap): a pot to start with would be shared out
        # among its players at its close, from nowhere
        said = f"table {number} of round {round_number}"
        if night.columns["pot_start"]:
            raise InvalidExport(
                f"{npath}.pot_start",
                f"{said} starts with a pot of {night.columns['pot_start']} units: a tournament's table takes no pot",
            )
        if night.pot_from:
            raise InvalidExport(
                f"{npath}.pot_from", f"{said} took a pot from another night: a tournament's table takes no pot"
            )
        for seat, name in enumerate(night.names):
            looks = alike.get(name_key(name), set())
            entrant = exact.get(name, next(iter(looks)) if len(looks) == 1 else None)
            spath = f"{path}.night.players[{seat}].name"
            if entrant is None and len(looks) > 1:
                raise InvalidExport(spath, f"{name!r} looks like several entrants and is none of them exactly")
            if entrant is None:
                raise InvalidExport(spath, f"{name!r} is not one of the entrants")
            if entrant in seated[round_number]:
                raise InvalidExport(spath, f"{name!r} has a place in round {round_number} already")
            seated[round_number][entrant] = path
        played = deals_played(night=SimpleNamespace(**night.columns), hands=[h["data"] for h in night.hands])
        if played > columns["deals"]:
            raise InvalidExport(f"{path}.night.hands", f"a table plays {columns['deals']} deals, not {played}")
        paper = t["paper"]
        if paper is not None:
            checks.a_list(paper, f"{path}.paper")
            if len(paper) != night.columns["seat_count"]:
                raise InvalidExport(f"{path}.paper", f"the points of each of the {night.columns['seat_count']} players")
            for j, points in enumerate(paper):
                checks.integer(points, f"{path}.paper[{j}]", -tm.PAPER_MAX, tm.PAPER_MAX)
            if sum(paper) != 0:
                raise InvalidExport(f"{path}.paper", f"a table's points add up to zero, not {sum(paper)}")
            if night.hands or night.columns["status"] != CLOSED:
                raise InvalidExport(f"{path}.paper", "a table typed from paper is closed and has no deals recorded")
            paper = list(paper)
        solos = t.get("solos")
        if solos is not None:
            if paper is None:
                raise InvalidExport(f"{path}.solos", "only a table typed from paper gives its solos")
            if len(checks.a_list(solos, f"{path}.solos")) != len(paper):
                raise InvalidExport(f"{path}.solos", f"the solos of each of the {len(paper)} players, or null")
            for j, pair in enumerate(solos):
                if pair is not None:
                    if len(checks.a_list(pair, f"{path}.solos[{j}]")) != 2:
                        raise InvalidExport(f"{path}.solos[{j}]", "solos won and lost, or null")
                    for k, count in enumerate(pair):
                        checks.integer(count, f"{path}.solos[{j}][{k}]", 0, columns["deals"])
            solos = copy.deepcopy(solos)
        elif paper is not None:
            solos = [None] * len(paper)
        tables.append(({"round": round_number, "number": number, "paper": paper, "solos": solos}, night))
    return tables


def read_tournament_file(data: Any, currency: str = "EUR") -> CheckedTournament:
    """Check a tournament file completely (format, keys, types, names, every table's night as
    :func:`scorekeeper.core.exchange.night_file.read_night` checks it, and that the tables fit the tournament:
    its game and rules, its entrants, one place per entrant and round) without the database. ``currency``: the
    importing club's (``SCOREKEEPER_CURRENCY``), the fee's and the prizes' of a file written before a tournament
    kept its own.

    :raises InvalidExport: naming the JSON path of the first problem (``tables[2].night.hands[3].data``).
    """
    top = checks.file_top(data, FORMAT, VERSION, _TOP_KEYS, "tournament")
    columns = _read_columns(top["tournament"], currency)
    entrants = _read_entrants(top["entrants"], columns["rounds"])
    numbers = {e["number"] for e in entrants}
    for i, pair in enumerate(columns["keep_apart"]):
        for n in pair:
            if n not in numbers:
                raise InvalidExport(f"tournament.keep_apart[{i}]", f"no participant has the start number {n}")
    rounds = _read_rounds(top["rounds"], columns["rounds"], numbers)
    tables = _read_tables(top["tables"], columns, entrants, rounds)
    if columns["status"] == CLOSED:
        _check_over(columns["rounds"], rounds, tables)
    return CheckedTournament(columns, entrants, rounds, tables)


def _check_over(planned: int, rounds: list[dict[str, Any]], tables: list[tuple[dict[str, Any], Any]]) -> None:
    """A closed tournament played every round it planned, each at its tables, and every table is over.

    :raises InvalidExport: naming what is missing.
    """
    if len(rounds) < planned:
        missing = len(rounds) + 1
        raise InvalidExport("rounds", f"a closed tournament played its {planned} rounds: round {missing} is missing")
    played = {table["round"] for table, _ in tables}
    for i, r in enumerate(rounds):
        if r["number"] not in played:
            said = f"a closed tournament played round {r['number']} at its tables: none is listed"
            raise InvalidExport(f"rounds[{i}]", said)
    for i, (_, night) in enumerate(tables):
        if night.columns["status"] != CLOSED:
            raise InvalidExport(f"tables[{i}].night.evening.status", "the tables of a closed tournament are closed")


# --- writing it ------------------------------------------------------------------------------


def _tournament_id(db: Session, uid: str) -> int | None:
    return db.exec(select(Tournament.id).where(Tournament.uid == uid)).first()


def write_tournament(db: Session, checked: CheckedTournament) -> tuple[Tournament, bool]:
    """Write a checked tournament unless its uid is there already (not committed: the club's import
    is one transaction). ``(tournament, created)``.

    :raises InvalidExport: when a table's night is in the database already, but not as this table; when a
        participant or a person they replaced (``former``) is a guest in the file and a member here, or
        the other way round.
    """
    existing = _tournament_id(db, checked.uid)
    if existing is not None:
        return tm.get_tournament(db=db, tournament_id=existing), False
    for i, (_, night) in enumerate(checked.tables):
        if find_night(db, night.columns["uid"]) is not None:
            raise InvalidExport(
                f"tables[{i}].night.evening.uid", "this night is in the database already, but not as this table"
            )
    # Everyone who sat at a table, guests as guests: the participants and those they replaced (a guest
    # is never a member of the club, nor a member a guest); the tables' seats then find them by name.
    people = [
        (f"entrants[{i}].guest", {"name": e["name"], "guest": e["guest"]}) for i, e in enumerate(checked.entrants)
    ]
    people += [
        (f"entrants[{i}].former[{j}].guest", {"name": f["name"], "guest": f["guest"]})
        for i, e in enumerate(checked.entrants)
        for j, f in enumerate(e["former"])
    ]
    found = iter(player for player, _ in find_people(db, people))  # in the order of people
    players = [next(found) for _ in checked.entrants]
    t = Tournament(**copy.deepcopy(checked.columns))
    db.add(t)
    db.flush()
    for e, player in zip(checked.entrants, players, strict=True):
        former = [
            {"player_id": p.id, "name": p.name, "after_round": f["after_round"], "at": f["at"]}
            for f, p in zip(e["former"], [next(found) for _ in e["former"]], strict=True)
        ]
        db.add(
            Entrant(
                tournament_id=t.id,
                number=e["number"],
                player_id=player.id,
                withdrawn_after=e["withdrawn_after"],
                former=former or None,
            )
        )
    db.add_all(TournamentRound(tournament_id=t.id, **copy.deepcopy(r)) for r in checked.rounds)
    for table, night in checked.tables:
        seated = find_or_add_players(db=db, people=[{"name": name} for name in night.names])
        columns = {**night.columns, "tournament_id": t.id, "deals": t.deals}
        if columns["status"] == OPEN:
            columns["join_code"] = new_join_code(db)  # a phone joins the table with it
        added = add_imported_night(db=db, columns=columns, player_ids=[p.id for p, _ in seated])
        played = add_imported_hands(
            db=db, night=added, hands=copy.deepcopy(night.hands), audit=copy.deepcopy(night.audit)
        )
        db.add(TournamentTable(tournament_id=t.id, night_id=added.id, **copy.deepcopy(table)))
        if table["paper"] is None:
            write_solos(db=db, table=played)  # counted from its hands, as when they were recorded
    db.flush()
    return t, True


def import_tournament(db: Session, data: Any, *, currency: str = "EUR") -> tuple[Tournament, bool]:
    """Create the tournament of a :func:`tournament_json` object; returns ``(tournament, created)``. ``currency``:
    the club's, for a file written before a tournament kept its own (:func:`read_tournament_file`).

    A tournament whose ``uid`` is already in the database is not imported again: it comes back
    with ``created`` False and nothing changes. Everything happens in one transaction: on any
    error nothing is written (the session is rolled back, with whatever else it held).

    :raises InvalidExport: for a file that is not a valid tournament, naming the JSON path.
    """
    checked = read_tournament_file(data, currency)

    def find() -> Tournament | None:
        existing = _tournament_id(db, checked.uid)
        return None if existing is None else tm.get_tournament(db=db, tournament_id=existing)

    return import_once(db=db, write=lambda: write_tournament(db, checked), find=find)
