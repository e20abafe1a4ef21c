"""The whole club out of the database and back in: one lossless JSON object.

:func:`club_json` writes the whole club (the roster with retired players and players without
nights, the roster's changes, every night as :mod:`.night_file` writes it, every tournament with
its tables as :mod:`.tournament_file` writes it); :func:`read_club` checks such an object
completely without the database, and :func:`import_club` adds it in one transaction, with the
same checks as a night's and a tournament's file.

No Flask here: everything takes a database session.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from scorekeeper.core.exchange import checks
from scorekeeper.core.exchange.checks import InvalidExport, timestamp
from scorekeeper.core.exchange.night_file import (
    CheckedNight,
    add_night,
    check_pot_start,
    find_people,
    night_json,
    read_night,
)
from scorekeeper.core.exchange.tournament_file import (
    CheckedTournament,
    read_tournament_file,
    tournament_json,
    write_tournament,
)
from scorekeeper.core.models import CLUB_NIGHT, POT_GONE, Night, RosterChange, Tournament
from scorekeeper.core.players import (
    CHANGE_DETAILS,
    CHANGE_NUMBERS,
    add_imported_roster_change,
    list_guests,
    list_players,
    player_named,
    roster_changes,
    sound_detail,
)
from scorekeeper.core.text import ID_MAX, NAME_MAX, name_key
from scorekeeper.engine import GAMES

CLUB_FORMAT = "scorekeeper-club"
CLUB_VERSION = 2
#: The club files this Scorekeeper reads: version 1 was written before tournaments (it has no
#: ``tournaments``); version 2 has them, and its ``nights`` are the club's nights only.
CLUB_VERSIONS = (1, 2)
GONE_PLAYER_ID = 0  # a roster change of a record that is gone (merged away) points at no player

__all__ = [
    "CLUB_FORMAT",
    "CLUB_VERSION",
    "CLUB_VERSIONS",
    "CheckedClub",
    "ClubImport",
    "club_json",
    "import_club",
    "read_club",
]

_CLUB_KEYS_V1 = ("players", "roster_changes", "nights")
_CLUB_KEYS = (*_CLUB_KEYS_V1, "tournaments")
_CLUB_PLAYER_KEYS = ("name", "retired", "created_at")
_CHANGE_KEYS = ("uid", "action", "player", "detail", "at")
#: Each roster change's action and the keys of its detail (core/players.py writes them; a player's page
#: shows them: web/view.py roster_text): names, but a merge's ``merged_id`` (the record's id where it was
#: written) and ``nights`` (how many it moved), whole numbers.
_CHANGE_DETAILS = CHANGE_DETAILS
_CHANGE_NUMBERS = CHANGE_NUMBERS  # the least of each


def club_json(db: Session) -> dict[str, Any]:
    """The whole club as a JSON object, lossless: :func:`import_club` makes the same club of it.

    ``players``: the whole roster by name (retired players and players without
    a night too); ``roster_changes``: oldest first, each naming its player as
    the roster has it now, or a tournament's guest as the tournaments below have them (null for a
    record that is gone, e.g. merged away);
    ``nights``: :func:`night_json` of every night of the club, in the order they were made;
    ``tournaments``: :func:`~scorekeeper.core.exchange.tournament_file.tournament_json` of every
    tournament, oldest first, with its tables (nights of a tournament: not in ``nights``).
    No database ids: uids and names say what is what. A tournament's guests are not on the
    roster (``players``): they come with their tournament.
    """
    loose = select(Night.id).where(CLUB_NIGHT).order_by(Night.id)
    nights = [night_json(db=db, night_id=night_id) for night_id in db.exec(loose)]
    tournaments = [tournament_json(db, t_id) for t_id in db.exec(select(Tournament.id).order_by(Tournament.id))]
    # The roster after the nights: a player seated at a night exported above is on it (guests are not).
    players = list_players(db=db)
    # a change names a player of this list, or a guest of the tournaments below (their import finds them)
    at_tournaments = {
        person["name"]
        for t in tournaments
        for e in t["entrants"]
        for person in (e, *e.get("former", ()))
        if person["guest"]
    }
    names = {p.id: p.name for p in players}
    names |= {p.id: p.name for p in list_guests(db=db) if p.name in at_tournaments}
    return {
        "format": CLUB_FORMAT,
        "version": CLUB_VERSION,
        "players": [{"name": p.name, "retired": p.retired, "created_at": timestamp(p.created_at)} for p in players],
        "roster_changes": [
            {
                "uid": c.uid,
                "action": c.action,
                "player": names.get(c.player_id),
                "detail": copy.deepcopy(sound_detail(c)),  # a detail stored broken: without its broken part
                "at": timestamp(c.at),
            }
            for c in roster_changes(db=db)
            if c.action in _CHANGE_DETAILS  # an action no page knows (stored before the checks): nothing to show
        ],
        "nights": nights,
        "tournaments": tournaments,
    }


@dataclass(frozen=True)
class CheckedClub:
    """A checked club file, ready to be written."""

    players: list[dict[str, Any]]  # Player's columns
    # RosterChange's columns, with ``player`` (a name or None) for player_id, and ``guest``: whether that
    # name is a guest's of the file's tournaments (not one of its players)
    changes: list[dict[str, Any]]
    nights: list[CheckedNight]
    tournaments: list[CheckedTournament] = field(default_factory=list)


def _read_club_players(value: Any) -> list[dict[str, Any]]:
    players = []
    seen: dict[str, int] = {}
    for i, path, p in checks.objects_with(checks.a_list(value, "players"), "players", _CLUB_PLAYER_KEYS, "a player"):
        name = checks.name(p["name"], f"{path}.name")
        if name in seen:  # names that only look alike: two records of a database of before today's rule
            raise InvalidExport(f"{path}.name", f"{name!r} is players[{seen[name]}] already: a player is listed once")
        seen[name] = i
        players.append(
            {
                "name": name,
                "retired": checks.boolean(p["retired"], f"{path}.retired"),
                "created_at": checks.moment(p["created_at"], f"{path}.created_at"),
            }
        )
    return players


def _seated_are_listed(players: list[dict[str, Any]], nights: list[CheckedNight]) -> None:
    """Everyone who sat at a night of a club's file is one of its ``players`` (the roster: a club's own file
    lists them all). A name seated that is not listed is refused, naming the night and the name: the import
    would add a player that the file's roster and the import's count of new players both leave out.

    :raises InvalidExport: at ``nights[i].players[j].name``.
    """
    listed = {p["name"] for p in players}
    for i, night in enumerate(nights):
        for j, name in enumerate(night.names):
            if name not in listed:
                raise InvalidExport(
                    f"nights[{i}].players[{j}].name",
                    f"{name!r} sits at the night of {night.columns['played_on']} but is not one of the file's "
                    "players: a club's file lists everyone who sat at its nights",
                )


def _read_changes(value: Any, players: list[dict[str, Any]], guests: list[str]) -> list[dict[str, Any]]:
    """The roster changes; each one's ``player`` is one of ``players`` or of ``guests`` (the guests of the
    file's tournaments: ``guest`` True)."""
    listed = [p["name"] for p in players]
    changes = []
    seen: dict[str, int] = {}
    changes_listed = checks.a_list(value, "roster_changes")
    for i, path, c in checks.objects_with(changes_listed, "roster_changes", _CHANGE_KEYS, "a roster change"):
        uid = checks.uid(c["uid"], f"{path}.uid")
        if uid in seen:
            raise InvalidExport(f"{path}.uid", f"roster_changes[{seen[uid]}] has the same uid")
        seen[uid] = i
        player, guest = None, False
        if c["player"] is not None:
            player = checks.name(c["player"], f"{path}.player")
            player, guest = _listed_as(player, listed, guests, f"{path}.player")
        action = checks.action(c["action"], f"{path}.action")
        changes.append(
            {
                "uid": uid,
                "action": action,
                "player": player,
                "guest": guest,
                "detail": _change_detail(action, c["detail"], f"{path}.detail"),
                "at": checks.moment(c["at"], f"{path}.at"),
            }
        )
    return changes


def _listed_as(name: str, listed: list[str], guests: list[str], path: str) -> tuple[str, bool]:
    """The name of ``listed`` (a member) or of ``guests`` (a tournament's guest) a roster change's ``name``
    is, and whether a guest's: the same name, else the one name that looks like it (:func:`name_key`).

    :raises InvalidExport: at ``path`` for a name that is none of them, or looks like several.
    """
    if name in listed or name in guests:
        return name, name not in listed
    for names, guest in ((listed, False), (guests, True)):
        alike = [n for n in names if name_key(n) == name_key(name)]
        if len(alike) > 1:
            raise InvalidExport(path, f"{name!r} looks like {' and '.join(map(repr, alike))}: name one of them exactly")
        if alike:
            return alike[0], guest
    raise InvalidExport(path, f"{name!r} is not one of the players, nor a guest of the tournaments")


def _change_detail(action: str, value: Any, path: str) -> dict[str, Any]:
    """A roster change's detail as :data:`_CHANGE_DETAILS` has it for its action (``path``: the detail's).
    Its names are as an older version may have stored them (1 to 40 characters, no control characters),
    not held to today's name rules: what a roster change said stays as it was said."""
    if action not in _CHANGE_DETAILS:
        known = ", ".join(sorted(_CHANGE_DETAILS))
        raise InvalidExport(checks.join(path.rsplit(".", 1)[0], "action"), f"must be one of {known}, not {action!r}")
    # without a key its change was stored without, or with broken (by a version before the checks)
    detail = checks.object_with(
        value, path, checks.keys_with(value, (), *_CHANGE_DETAILS[action]), "a roster change's detail"
    )
    for key, item in detail.items():
        item_path = checks.join(path, key)
        if key in _CHANGE_NUMBERS:
            checks.integer(item, item_path, _CHANGE_NUMBERS[key], ID_MAX)
        else:
            checks.text(item, item_path, NAME_MAX, required=True)
    return detail


def _read_nights(value: Any) -> list[CheckedNight]:
    nights = []
    seen: dict[str, int] = {}
    for i, item in enumerate(checks.a_list(value, "nights")):
        path = f"nights[{i}]"
        try:
            night = read_night(item)
        except InvalidExport as err:
            raise InvalidExport(checks.join(path, err.path), err.message) from None
        uid = night.columns["uid"]
        if uid in seen:
            raise InvalidExport(f"{path}.evening.uid", f"nights[{seen[uid]}] is the same night (the same uid)")
        seen[uid] = i
        nights.append(night)
    return nights


def read_club(data: Any, currency: str = "EUR") -> CheckedClub:
    """Check a club file completely (every night as :func:`read_night` does) without the database. ``currency``:
    the club's (``SCOREKEEPER_CURRENCY``), that of a tournament of a file written before a tournament kept its own.

    :raises InvalidExport: naming the JSON path of the first problem (``nights[3].hands[2].data.points``).
    """
    if isinstance(data, dict) and data.get("format") == CLUB_FORMAT and data.get("version") in CLUB_VERSIONS:
        version = data["version"]
        if type(version) is not int:
            raise InvalidExport("version", f"this Scorekeeper reads version 1 or {CLUB_VERSION}, not {version!r}")
    else:
        version = CLUB_VERSION  # _file says what is wrong
    old = version == 1
    top = checks.file_top(data, CLUB_FORMAT, version, _CLUB_KEYS_V1 if old else _CLUB_KEYS, "club")
    players = _read_club_players(top["players"])
    nights = _read_nights(top["nights"])
    tournaments = []
    loose = {night.columns["uid"]: f"nights[{i}]" for i, night in enumerate(nights)}  # where each night is
    seen: dict[str, int] = {}
    for i, item in enumerate([] if old else checks.a_list(top["tournaments"], "tournaments")):
        path = f"tournaments[{i}]"
        try:
            t = read_tournament_file(item, currency)
        except InvalidExport as err:
            raise InvalidExport(checks.join(path, err.path), err.message) from None
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
    guests = [e["name"] for t in tournaments for e in t.entrants if e["guest"]]
    guests += [f["name"] for t in tournaments for e in t.entrants for f in e["former"] if f["guest"]]
    changes = _read_changes(top["roster_changes"], players, guests)
    _seated_are_listed(players, nights)
    return CheckedClub(players, changes, nights, tournaments)


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


def _pots_as_then(nights: list[CheckedNight], tables: list[CheckedNight]) -> dict[str, tuple[str, int | None]]:
    """Where the rule of then sent each carried pot of a club's file written before where a pot went was
    recorded, as migration 0016 records it for a database (its ``pots_as_then``, the same rule, kept apart
    since a migration imports nothing that may change: tests/core/test_pot_upgrade.py holds the two to the
    same nights): ``{uid: (pot_to, pot_given)}`` for the nights whose pot went, the others' waits
    (``pot_to`` null: the pot the old rule would give next, and that of a night open in the file).

    The old rule (core/nights.py ``_carried_pot`` of every release before): a night started under rules that
    play a pot took the pot of the club night of its game closed last (of those closed at that moment, by
    their last close: a night reopened and closed again is closed then), when that night's rules carry its
    pot and no night of the game started after that close began with a pot (``tables``: a tournament's,
    counted as the old rule counted them). A pot given is recorded as given (its units at the giving night's
    stake: the money the later night began with; a pot taken twice, by the first); every other pot of a night
    closed in the file is gone (``POT_GONE``), so that no old pot comes back at the next night."""

    def closed_at(night: CheckedNight, moment: Any) -> Any:  # its last close before ``moment``, if closed then
        if moment is None:
            return night.columns["closed_at"]
        events = [(a["at"], a["action"]) for a in night.audit if a["action"] in ("close", "reopen")]
        if not any(action == "close" for _, action in events):
            events = [(night.columns["closed_at"], "close")] if night.columns["closed_at"] is not None else []
        state = None
        for at, action in sorted(events, key=lambda e: e[0]):
            if at >= moment:
                break
            state = at if action == "close" else None
        return state

    def carries(night: CheckedNight) -> bool:
        g = GAMES[night.columns["game"]]
        return g.carries_pot(g.parse_rules(night.columns["rules"]))

    def source(game: str, moment: Any) -> CheckedNight | None:  # whose pot a night started at ``moment`` took
        closed = [
            (at, i, n) for i, n in enumerate(nights) if n.columns["game"] == game and (at := closed_at(n, moment))
        ]
        if not closed:
            return None
        at, _, last = max(closed, key=lambda c: (c[0], c[1]))
        taken = any(
            n.columns["game"] == game
            and n.columns["pot_start"] > 0
            and at < n.columns["created_at"]
            and (moment is None or n.columns["created_at"] < moment)
            for n in [*nights, *tables]
        )
        return last if carries(last) and not taken else None

    given: dict[str, tuple[str, int | None]] = {}
    takers = sorted((n for n in nights if n.columns["pot_start"] > 0), key=lambda n: n.columns["created_at"])
    for taker in takers:
        last = source(taker.columns["game"], taker.columns["created_at"])
        if last is not None and last is not taker and last.columns["uid"] not in given:
            stake, start = last.columns["stake_cents"], taker.columns["pot_start"]
            units = (
                start
                if not stake or stake == taker.columns["stake_cents"]
                else start * taker.columns["stake_cents"] // stake
            )
            given[last.columns["uid"]] = (taker.columns["uid"], units)
    waiting = {id(n) for game in {n.columns["game"] for n in nights} if (n := source(game, None)) is not None}
    return {
        n.columns["uid"]: given.get(n.columns["uid"], (POT_GONE, None))
        for n in nights
        if n.columns["uid"] in given or (n.columns["closed_at"] is not None and id(n) not in waiting)
    }


def _made_members(db: Session, changes: list[dict[str, Any]]) -> None:
    """The file's ``member`` roster changes this database does not know yet, applied first: a tournament's
    guest here whom the file's club made a member since (the file's player, or the name the change
    kept) is a member here too, so that the file's roster finds them as the member they are (the change
    itself is kept with the others)."""
    known = set(db.exec(select(RosterChange.uid)))
    for c in changes:
        if c["action"] != "member" or c["uid"] in known:
            continue
        for name in (c["player"], c["detail"].get("name")):
            player = player_named(db, name) if name else None
            if player is not None:
                if player.guest:
                    player.guest = False
                    db.add(player)
                break


def import_club(*, db: Session, data: Any, currency: str = "EUR") -> ClubImport:
    """Add a :func:`club_json` object to the database, in one transaction.

    Players are found on the roster by name (the exact name first, then one that looks like it:
    :func:`~scorekeeper.core.players.match_names`), or added with the
    file's ``retired`` and ``created_at``; roster changes, nights and tournaments already in
    the database (the same uid) are left as they are, so importing a file twice
    changes nothing the second time. The whole file is checked before anything
    is written; on any error nothing is written (the session is rolled back,
    with whatever else it held).

    :raises InvalidExport: for a file that is not a valid club, naming the JSON path.
    """
    club = read_club(data, currency)
    try:
        _made_members(db, club.changes)
        # the roster's members: a name that is a tournament's guest here is refused (never merged)
        players = find_people(db, [(f"players[{i}].name", p) for i, p in enumerate(club.players)])
        # by the file's names: a name renamed or merged here since is found as the player it is now
        ids = {p["name"]: player.id for p, (player, _) in zip(club.players, players, strict=True)}
        known = set(db.exec(select(RosterChange.uid)))
        new_changes = [c for c in club.changes if c["uid"] not in known]
        # a guest's changes: the guest found among the guests by name (or added, as their tournament adds them)
        guests = list(dict.fromkeys(c["player"] for c in new_changes if c["guest"]))
        at = {c["player"]: f"roster_changes[{i}].player" for i, c in reversed(list(enumerate(club.changes)))}
        found = find_people(db, [(at[name], {"name": name, "guest": True}) for name in guests])
        guest_ids = {name: player.id for name, (player, _) in zip(guests, found, strict=True)}
        for c in new_changes:
            player_id = GONE_PLAYER_ID if c["player"] is None else (guest_ids if c["guest"] else ids)[c["player"]]
            columns = {key: copy.deepcopy(value) for key, value in c.items() if key not in ("player", "guest")}
            add_imported_roster_change(db=db, player_id=player_id, columns=columns)
        db.flush()  # in file order: their ids keep the order
        created, written = [], []
        in_file = {night.columns["uid"]: night for night in club.nights}
        for i, night in enumerate(club.nights):
            try:
                night_id, new = add_night(db, night, in_file)
            except InvalidExport as err:  # a seat's name is a tournament's guest here; a pot not its to take
                raise InvalidExport(checks.join(f"nights[{i}]", err.path), err.message) from None
            created.append(new)
            if new and night.pot_known:
                written.append((i, night, night_id))
        db.flush()
        for i, night, night_id in written:  # every night of the file written: the pots they gave are there
            try:
                check_pot_start(db, night, night_id)
            except InvalidExport as err:
                raise InvalidExport(checks.join(f"nights[{i}]", err.path), err.message) from None
        if any(created) and not all(night.pot_known for night in club.nights):  # a file written before 0016
            went = _pots_as_then(club.nights, [night for t in club.tournaments for _, night in t.tables])
            for night, new in zip(club.nights, created, strict=True):
                if new and not night.pot_known:
                    to, units = went.get(night.columns["uid"], (None, None))
                    db.exec(
                        update(Night).where(col(Night.uid) == night.columns["uid"]).values(pot_to=to, pot_given=units)
                    )
        new_tournaments = []
        for i, tournament in enumerate(club.tournaments):
            try:
                new_tournaments.append(write_tournament(db, tournament)[1])
            except InvalidExport as err:  # a table's night is in the database already, not as this table
                raise InvalidExport(checks.join(f"tournaments[{i}]", err.path), err.message) from None
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
