"""The club's roster: adding, renaming, retiring and merging players (audited), and reading it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, text, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.core.errors import InvalidInput, NotFound
from scorekeeper.core.models import (
    ContractResult,
    Entrant,
    NightResult,
    Player,
    RosterChange,
    Seat,
    Tournament,
    TournamentTable,
)
from scorekeeper.core.text import ID_MAX, NAME_MAX, clean_name, has_control, is_id, name_key

#: PostgreSQL's advisory lock of the roster's names (any number no other tool uses; db.MIGRATION_LOCK is another)
NAMES_LOCK = 7_262_538


def _lock_names(db: Session) -> None:
    """Take the roster's names for this transaction (to its commit or rollback): of two writers that
    check a name at the same moment, the second waits for the first's commit and then sees its name.
    Names look alike by a rule no index can hold (:func:`name_key` is computed, not stored): the check
    and the write are made one step so. PostgreSQL: an advisory lock; SQLite's write sessions hold the
    whole database from their ``BEGIN IMMEDIATE`` already."""
    if db.get_bind().dialect.name == "postgresql":
        db.exec(text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=NAMES_LOCK))


def player_named(db: Session, name: str, except_id: int | None = None) -> Player | None:
    """The player (a member or a tournament's guest) whose name looks like ``name``: the same
    ignoring case in every alphabet (Ölfa = ölfa) and letters that only look alike (a Cyrillic
    Сilli is Cilli): core/text.py ``name_key``. The roster's names are locked to the end of the
    transaction (:func:`_lock_names`): a name found free stays free until this transaction's commit.

    Compared in Python: SQLite's lower() knows only ASCII, and a club's roster is small.
    """
    _lock_names(db)
    key = name_key(name)
    return next((p for p in db.exec(select(Player)) if p.id != except_id and name_key(p.name) == key), None)


def _refuse_taken(db: Session, name: str, except_id: int | None = None) -> None:
    """:raises InvalidInput: when another player (member or guest) has a name that looks like this one;
    for a tournament's guest, the refusal says so (they are on no roster page) and carries the guest's
    id (``guest_id``): the way to their page, where an admin makes them a member (:func:`make_member`)."""
    taken = player_named(db, name, except_id)
    if taken is not None and taken.guest:
        raise InvalidInput(
            "name",
            "{name} is the name of a tournament's guest: to have them in the club, make them a member on their page",
            name=taken.name,
            guest_id=taken.id,
        )
    if taken is not None:
        raise InvalidInput("name", "there is already a player called {name}", name=name)


def create_player(*, db: Session, name: Any) -> Player:
    """Add a player to the roster; names are unique (ignoring case)."""
    name = clean_name(name)
    _refuse_taken(db, name)
    player = Player(name=name)
    db.add(player)
    try:
        db.commit()
    except IntegrityError:
        db.rollback()
        raise InvalidInput("name", "there is already a player called {name}", name=name) from None
    return player


def get_player(*, db: Session, player_id: int) -> Player:
    """:raises NotFound: for an unknown player."""
    player = db.get(Player, player_id) if is_id(player_id) else None
    if player is None:
        raise NotFound(f"no player {player_id}")
    return player


#: The roster as it stands: every rename, merge and retirement is a roster change (``RosterChange``), so
#: the highest one's id moves whenever a name shown anywhere may have changed. What shows names and is
#: kept or polled by a tag goes by it beside its own version: a table phone's poll (web/live.py), the
#: standings board and the kept PDFs (web/printing.py). A night's version is not moved for a name: undo,
#: edit and the API's If-Match compare it, and a name changes none of the night's hands
#: (docs/rules.md, "A player renamed").
ROSTER_STAMP = select(func.coalesce(func.max(RosterChange.id), 0)).scalar_subquery()


def roster_stamp(*, db: Session) -> int:
    """:data:`ROSTER_STAMP` now."""
    return db.exec(select(ROSTER_STAMP)).one()


def _name_the_replaced(db: Session, player_id: int, now_id: int, name: str) -> None:
    """A person replaced in a tournament (``Entrant.former``) as ``player_id`` is record ``now_id`` named
    ``name`` now (renamed: the same record; merged: the kept one)."""
    for e in db.exec(select(Entrant).where(Entrant.former.is_not(None))).all():
        if any(f["player_id"] == player_id for f in e.former or ()):
            e.former = [
                {**f, "player_id": now_id, "name": name} if f["player_id"] == player_id else f for f in e.former
            ]
            db.add(e)


def rename_player(*, db: Session, player_id: int, name: Any) -> Player:
    """Give a player a new name (history follows: it is the same record); audited."""
    player = get_player(db=db, player_id=player_id)
    name = clean_name(name)
    _refuse_taken(db, name, except_id=player_id)
    if name != player.name:
        db.add(RosterChange(action="rename", player_id=player.id, detail={"before": player.name, "after": name}))
        _name_the_replaced(db, player.id, player.id, name)
    player.name = name
    db.add(player)
    try:
        db.commit()
    except IntegrityError:  # the same name written meanwhile by a writer that did not lock the names
        db.rollback()
        raise InvalidInput("name", "there is already a player called {name}", name=name) from None
    return player


def make_member(*, db: Session, player_id: int) -> Player:
    """A tournament's guest joins the club: the same record (their tournaments stay theirs) is a
    member now, on the roster and the seat pickers. Audited.

    :raises InvalidInput: for a member. :raises NotFound: for no such player (merged away meanwhile).
    """
    player = _locked(_lock_pair(db, player_id), player_id)  # a merge at the same moment: one waits for the other
    if not player.guest:
        raise InvalidInput("player", "{name} is a member of the club already", name=player.name)
    player.guest = False
    db.add(player)
    db.add(RosterChange(action="member", player_id=player.id, detail={"name": player.name}))
    db.commit()
    return player


def retire_player(*, db: Session, player_id: int, retired: bool = True) -> Player:
    """Take a player off the seat pickers (or bring them back); their history stays. Audited.

    :raises InvalidInput: for a tournament's guest (on no seat picker: there is nothing to retire).
    """
    player = get_player(db=db, player_id=player_id)
    if player.guest:
        raise InvalidInput(
            "player", "{name} is a tournament's guest, on no seat picker: there is nothing to retire", name=player.name
        )
    if player.retired != retired:
        player.retired = retired
        db.add(player)
        db.add(
            RosterChange(action="retire" if retired else "unretire", player_id=player.id, detail={"name": player.name})
        )
        db.commit()
    return player


def _lock_pair(db: Session, *player_ids: int) -> dict[int, Player]:
    """Lock the records of a merge (or the one made a member) (in the order of their ids: two merges never wait for each
    other in a circle) to the end of the transaction, read afresh: of two merges sharing a record
    (X into Y while Y goes into Z), the second waits for the first and then finds the records as the
    first left them (Y gone: no such player; Y with X's nights: all of them go to Z). SQLite's write
    session holds the whole database already. Returns the records found, by id (those the session
    held before are read again: one merged away meanwhile is not among them)."""
    ids = sorted({i for i in player_ids if is_id(i)})
    query = select(Player).where(Player.id.in_(ids)).order_by(Player.id).with_for_update()
    return {p.id: p for p in db.exec(query.execution_options(populate_existing=True))}


def _locked(locked: dict[int, Player], player_id: int) -> Player:
    """:raises NotFound: for a record :func:`_lock_pair` did not find (merged away meanwhile, or never there)."""
    if player_id not in locked:
        raise NotFound(f"no player {player_id}")
    return locked[player_id]


def _two_people(db: Session, keep: Player, merged: Player, night_id: int) -> InvalidInput:
    """The refusal of two records who sat at night ``night_id``: a tournament's table named as the
    tournament, round and table (its pages never call it a night)."""
    table = db.exec(
        select(Tournament.name, TournamentTable.round, TournamentTable.number)
        .join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
        .where(TournamentTable.night_id == night_id)
    ).first()
    if table is not None:
        return InvalidInput(
            "other",
            "{name} and {other} sat at one table ({tournament}, round {round}, table {table}): they are two people",
            name=keep.name,
            other=merged.name,
            tournament=table[0],
            round=table[1],
            table=table[2],
        )
    return InvalidInput(
        "other",
        "{name} and {other} sat at the same night (night {night}): they are two people",
        name=keep.name,
        other=merged.name,
        night=night_id,
    )


def merge_players(*, db: Session, keep_id: int, merge_id: int) -> Player:
    """Make two records of the same person one: every seat and result of ``merge_id`` goes to
    ``keep_id``, which keeps its name; the other record is deleted. Audited, in one transaction.

    :raises InvalidInput: for the same record twice, or two records that sat at the same night
        (they can't be one person).
    """
    locked = _lock_pair(db, keep_id, merge_id)
    keep, merged = (_locked(locked, i) for i in (keep_id, merge_id))
    if keep.id == merged.id:
        raise InvalidInput("other", "choose another player: a record cannot be merged with itself")
    if keep.guest != merged.guest:  # a member's club results never go to a guest, nor a guest's into the roster
        raise InvalidInput(
            "other",
            "{guest} is a tournament's guest and {member} a member of the club: they are kept apart",
            guest=(keep if keep.guest else merged).name,
            member=(merged if keep.guest else keep).name,
        )
    nights_of = select(Seat.night_id).where(Seat.player_id == keep.id)
    shared = db.exec(select(Seat.night_id).where(Seat.player_id == merged.id, Seat.night_id.in_(nights_of))).first()
    if shared is not None:
        raise _two_people(db, keep, merged, shared)
    # a tournament's people: its participants and those they replaced (Entrant.former)
    entrants = db.exec(
        select(Entrant).where(or_(Entrant.player_id.in_((keep.id, merged.id)), Entrant.former.is_not(None)))
    ).all()
    played: dict[int, set[int]] = {keep.id: set(), merged.id: set()}
    for e in entrants:
        for person in {e.player_id, *(f["player_id"] for f in e.former or ())} & set(played):
            played[person].add(e.tournament_id)
    both = min(played[keep.id] & played[merged.id], default=None)
    if both is not None:
        tournament = db.get(Tournament, both)
        raise InvalidInput(
            "other",
            "{name} and {other} both played tournament {tournament} on {date}: they are two people",
            name=keep.name,
            other=merged.name,
            tournament=tournament.name,
            date=tournament.played_on,
        )
    # the merged one's tournaments (closed ones too) have other rows now
    db.exec(update(Tournament).where(Tournament.id.in_(played[merged.id])).values(version=Tournament.version + 1))
    moved = len(db.exec(select(Seat.night_id).where(Seat.player_id == merged.id)).all())
    for model in (Seat, NightResult, ContractResult, RosterChange, Entrant):  # the duplicate's roster changes too
        db.exec(update(model).where(model.player_id == merged.id).values(player_id=keep.id))
    _name_the_replaced(db, merged.id, keep.id, keep.name)  # their earlier tables are the kept record's now
    detail = {"kept": keep.name, "merged": merged.name, "merged_id": merged.id, "nights": moved}
    db.add(RosterChange(action="merge", player_id=keep.id, detail=detail))
    if merged.retired is False and keep.retired:
        keep.retired = False  # the merged record was still playing
        db.add(keep)
    db.delete(merged)
    db.commit()
    return keep


#: Each roster change's action and the keys of its detail, as this module writes them: names, but a
#: merge's ``merged_id`` (the merged record's id then) and ``nights`` (how many it moved), whole numbers
#: from these least ones. (A club's file carries them: core/exchange/club_file.py; a player's page shows
#: them: web/view.py ``roster_text``.)
CHANGE_DETAILS: dict[str, tuple[str, ...]] = {
    "rename": ("before", "after"),
    "merge": ("kept", "merged", "merged_id", "nights"),
    "retire": ("name",),
    "unretire": ("name",),
    "member": ("name",),
}
CHANGE_NUMBERS = {"merged_id": 1, "nights": 0}


def sound_detail(change: RosterChange) -> dict[str, Any]:
    """The part of a stored roster change's detail that is as :data:`CHANGE_DETAILS` has it: its action's
    keys whose values are of their kind (a name: a text of 1 to 40 characters without control
    characters; a number: a whole number from its least one). A club file imported before its roster
    changes were checked may have stored another (a merge of ``"many"`` nights, a detail that is a list):
    what reads them shows the change without the broken part, and an unknown action's detail is empty.

    >>> sound_detail(RosterChange(action="merge", player_id=1, detail={"merged": "Eva", "nights": "many"}))
    {'merged': 'Eva'}
    """
    detail = change.detail if isinstance(change.detail, dict) else {}
    sound: dict[str, Any] = {}
    for key in CHANGE_DETAILS.get(change.action, ()):
        value = detail.get(key)
        if key in CHANGE_NUMBERS:
            ok = type(value) is int and CHANGE_NUMBERS[key] <= value <= ID_MAX
        else:
            ok = isinstance(value, str) and bool(value.strip()) and len(value) <= NAME_MAX and not has_control(value)
        if ok:
            sound[key] = value
    return sound


def roster_changes(*, db: Session, player_id: int | None = None) -> list[RosterChange]:
    """The roster's changes, oldest first (only one player's if given)."""
    query = select(RosterChange)
    if player_id is not None:
        query = query.where(RosterChange.player_id == player_id)
    return list(db.exec(query.order_by(RosterChange.id)))


def list_guests(*, db: Session) -> list[Player]:
    """The guests of earlier tournaments, by name: who may be entered again as that same guest."""
    return sorted(db.exec(select(Player).where(Player.guest == True)), key=lambda p: name_key(p.name))  # noqa: E712


def list_players(*, db: Session, active: bool = False) -> list[Player]:
    """The roster, by name (only the players not retired if ``active``); a tournament's guests are
    not on it."""
    query = select(Player).where(Player.guest == False)  # noqa: E712
    if active:
        query = query.where(Player.retired == False)  # noqa: E712
    return sorted(db.exec(query), key=lambda p: name_key(p.name))


class LooksLikeSeveral(ValueError):
    """A name that is none of the players' exactly and looks like more than one of them, or looks like
    one that another name of the same list looks like too: which one is meant is not guessed (names
    stored before today's rule may look alike: docs/using.md, "How names compare"). ``index``: the
    name's place in the list; ``players``: the players it looks like; ``other``: the list's other name
    that looks like the same one (None when it looks like several)."""

    def __init__(self, index: int, name: str, players: list[Player], other: str | None = None) -> None:
        self.index, self.name, self.players, self.other = index, name, players, other
        shown = " and ".join(f"{p.name!r} (id {p.id})" for p in players)
        if other is None:
            super().__init__(f"{name!r} looks like {shown} and is none of them exactly")
        else:
            super().__init__(f"{name!r} and {other!r} both look like {shown} and neither is that name exactly")


def match_names(players: list[Player], names: list[str]) -> list[Player | None]:
    """Each name's player among ``players``: the one of exactly that name; else the one whose name looks
    like it (:func:`name_key`), not counting a player another of ``names`` names exactly; None where
    there is none. Two names that differ (Ölfa, ölfa) are never one player: where a list names two
    players stored before today's rule under names that look alike, each is found by its own name.

    :raises LooksLikeSeveral: for a name that is none of them exactly and looks like two or more, or
        looks like the same one as another name of the list.
    """
    exact = {p.name: p for p in players}
    claimed = {id(exact[n]) for n in names if n in exact}
    alike: dict[str, list[Player]] = {}
    for p in players:
        if id(p) not in claimed:
            alike.setdefault(name_key(p.name), []).append(p)
    found: list[Player | None] = []
    by: dict[int, str] = {}  # a player found by a look-alike name: which name
    for i, name in enumerate(names):
        if name in exact:
            found.append(exact[name])
            continue
        candidates = alike.get(name_key(name), [])
        if len(candidates) > 1:
            raise LooksLikeSeveral(i, name, candidates)
        if candidates and id(candidates[0]) in by and by[id(candidates[0])] != name:
            raise LooksLikeSeveral(i, name, candidates, by[id(candidates[0])])
        if candidates:
            by[id(candidates[0])] = name
        found.append(candidates[0] if candidates else None)
    return found


def find_or_add_players(*, db: Session, people: list[dict[str, Any]]) -> list[tuple[Player, bool]]:
    """The roster's players of these names (``people``: Player's columns, checked), found as
    :func:`match_names` finds them (the exact name first, then the name that looks like it), each with
    whether it is new: the missing ones are added with their columns (an import; not committed). The
    roster's names are locked to the commit (:func:`_lock_names`).

    A name no longer on the roster is the player it was renamed to or merged into here
    (:func:`former_names`): a file written before a rename or a merge finds the same people, and
    adds nobody (docs/backup.md). Not when that player is a guest and the name a member (or the
    other way round), nor, for a rename, when the same file names that player by its name now: then
    the file's two names are two people (a merge made them one on purpose).

    :raises LooksLikeSeveral: as :func:`match_names`.
    """
    _lock_names(db)
    names = [columns["name"] for columns in people]
    matched = match_names(list(db.exec(select(Player))), names)
    named_now = {p.id for p in matched if p is not None}
    former = former_names(db)
    merged = former_names(db, renamed=False)
    found: list[tuple[Player, bool]] = []
    added: dict[str, Player] = {}  # by exact name: a name listed twice is one player
    given: set[int] = set()  # the former names' players given to a name of the list
    for columns, player in zip(people, matched, strict=True):
        name, key = columns["name"], name_key(columns["name"])
        if player is None and name in added:
            player = added[name]
        if player is None and key in former and former[key] not in given:
            then = db.get(Player, former[key])
            if then.guest == columns.get("guest", False) and (key in merged or then.id not in named_now):
                player = added[name] = then
                given.add(then.id)
        created = player is None
        if created:
            player = added[name] = Player(**columns)
            db.add(player)
        found.append((player, created))
    db.flush()
    return found


def former_names(db: Session, *, renamed: bool = True) -> dict[str, int]:
    """The names the roster's players had before (:func:`name_key`), each with the player's id now:
    renamed, the player renamed; merged, the player it was merged into (``renamed=False``: only the
    names a merge led away from); a name that is someone's name now is not among them: Anna renamed
    Anneliese and Eva merged into Dieter give ``{"anna": Anneliese's id, "eva": Dieter's id}``.
    """
    former: dict[str, tuple[int, bool]] = {}  # the name: the player now, and whether a merge led there
    for change in db.exec(select(RosterChange).order_by(RosterChange.id)):
        detail = change.detail if isinstance(change.detail, dict) else {}
        if change.action == "rename" and isinstance(detail.get("before"), str):
            former[name_key(detail["before"])] = change.player_id, False
        elif change.action == "merge" and isinstance(detail.get("merged"), str):
            merged_id = detail.get("merged_id")
            former = {key: (change.player_id, True) if to[0] == merged_id else to for key, to in former.items()}
            former[name_key(detail["merged"])] = change.player_id, True
    players = dict(db.exec(select(Player.id, Player.name)).all())
    now = {name_key(name) for name in players.values()}
    return {
        key: id_
        for key, (id_, by_merge) in former.items()
        if key not in now and id_ in players and (renamed or by_merge)
    }


def add_imported_roster_change(*, db: Session, player_id: int, columns: dict[str, Any]) -> RosterChange:
    """Keep a roster change read from a club's export file, as it was (not committed)."""
    change = RosterChange(player_id=player_id, **columns)
    db.add(change)
    return change


def look_alike_names(*, db: Session) -> list[tuple[Player, Player]]:
    """Every two players (members and guests) whose names look alike (:func:`name_key`), the lower id
    first, by ids: names stored by an older version, before today's rule, which the club fixes by
    renaming one of them or merging the two (docs/using.md, "How names compare")."""
    alike: dict[str, list[Player]] = {}
    for p in db.exec(select(Player).order_by(Player.id)):
        alike.setdefault(name_key(p.name), []).append(p)
    pairs = [(a, b) for group in alike.values() for i, a in enumerate(group) for b in group[i + 1 :]]
    return sorted(pairs, key=lambda pair: (pair[0].id, pair[1].id))
