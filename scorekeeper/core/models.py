"""The database tables (SQLModel). Schema changes go through Alembic (scorekeeper/migrations)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, Column, ForeignKey, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel, col

from scorekeeper.engine import GAMES


def new_uid() -> str:
    return uuid.uuid4().hex


#: The database keeps the names of its first schema: the night's table is ``evening`` and the
#: columns that point at a night are ``evening_id`` (a storage name, like the API's ``sessions``;
#: renaming them would break backups and the SQL a club may have written against them).
NIGHT_TABLE = "evening"
POT_GONE = ""  # Night.pot_to of a pot given before where it went was recorded (migration 0016)

#: A night's status: open (hands are recorded) or closed (locked until an admin reopens it).
OPEN = "open"
CLOSED = "closed"
STATUSES = (OPEN, CLOSED)


def night_ref(*, primary_key: bool = False, index: bool = False) -> Any:
    """The ``night_id`` column of a table: stored as ``evening_id``, pointing at the night's row."""
    return Field(
        sa_column=Column(
            "evening_id",
            Integer,
            ForeignKey(f"{NIGHT_TABLE}.id"),
            primary_key=primary_key,
            index=index,
            nullable=False,
        )
    )


def utcnow() -> datetime:
    """Now, in UTC, with its time zone (SQLModel stores aware datetimes)."""
    return datetime.now(UTC)


#: SQLite never gives a deleted row's id to a new row of these tables (0012): a night, a hand, a
#: tournament and a player keep their id for good (PostgreSQL's sequences do so anyway).
NEVER_REUSED = {"sqlite_autoincrement": True}


def scores_units(game: str, rules: Any) -> bool:
    """Whether a night of ``game`` under ``rules`` scores units, for money or not (a stake of 0): not where the
    game's money option is 0 (Konter a Matt or Matt without a stake, ``Game.uses_stake``), whose units are
    none. The history pages add up these nights' units whatever the stake (docs/rules.md, "The club's
    history"); a club night's balance shows them (``Table.shows_score``).

    >>> scores_units("schafkopf", {}), scores_units("matt", {}), scores_units("matt", {"stake_per_point": 1})
    (True, False, True)
    """
    return game in GAMES and GAMES[game].uses_stake(rules or {})


def takes_money(game: str, rules: Any, stake_cents: int, tournament_id: int | None = None) -> bool:
    """Whether a night is played for money: the one answer every page, PDF and history figure asks.

    A club night (a tournament's table plays for points: docs/tournaments.md) whose rules pay units (not where
    the game's money option is 0, Konter a Matt or Matt without a stake: ``Game.uses_stake``) at a stake
    above 0 per unit. A stake of 0 is a night played for the units alone, "for honour": its units are
    shown, never money of 0.00. Matt's units are its balance (``stake_per_point`` times the points'
    difference, ``Game.hand_money``), paid at ``stake_cents`` per unit as every game's are.

    >>> takes_money("schafkopf", {}, 10), takes_money("schafkopf", {}, 0), takes_money("matt", {}, 10)
    (True, False, False)
    """
    return tournament_id is None and stake_cents > 0 and scores_units(game, rules)


class Player(SQLModel, table=True):
    """A person of the club's roster."""

    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40, unique=True, index=True)
    created_at: datetime = Field(default_factory=utcnow)
    retired: bool = Field(default=False)  # left out of the seat pickers; the history stays
    guest: bool = Field(default=False)  # a tournament's guest: a start number, never on the roster or in the history


class Night(SQLModel, table=True):
    """A night at the table: one game under one complete, frozen rule set."""

    __tablename__ = NIGHT_TABLE
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=20, index=True)
    rules: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    stake_cents: int = Field(ge=0)
    currency: str = Field(default="EUR", max_length=3)
    played_on: date = Field(index=True)
    place: str = Field(default="", max_length=80)
    seat_count: int
    first_dealer: int
    status: str = Field(default=OPEN, max_length=10)  # OPEN or CLOSED
    version: int = Field(default=0)  # bumped by every change: phones poll it
    created_at: datetime = Field(default_factory=utcnow)
    closed_at: datetime | None = None
    pot_start: int = Field(default=0)  # Schafkopf: units carried into the pot from the club's nights before
    # Schafkopf, a club night whose rules carry its pot (0016): the uid of the club night that took the pot and the
    # units it gave then. None while the pot waits: the club's next night that plays a pot takes every pot waiting
    # (core/nights.py). POT_GONE: it went before where a pot went was recorded.
    pot_to: str | None = Field(default=None, max_length=32, index=True)
    pot_given: int | None = None
    join_code: str | None = Field(default=None, max_length=8, unique=True)  # another phone joins the open night
    uid: str = Field(default_factory=new_uid, max_length=32, unique=True, index=True)  # stable across export and import
    # A table of a tournament (0009): its tournament and how many deals it plays (then it closes
    # itself); None for a club night. Its hands are points, never money, and not in the history.
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", index=True)
    deals: int | None = None

    @property
    def is_open(self) -> bool:
        """Whether hands may be recorded, edited and undone."""
        return self.status == OPEN

    @property
    def for_money(self) -> bool:
        """Whether the night is played for money (:func:`takes_money`)."""
        return takes_money(self.game, self.rules, self.stake_cents, self.tournament_id)


#: The club's nights in a query (SQL's IS NULL): a tournament's tables are not in the club's history, seasons,
#: files of nights or carried pots (docs/tournaments.md).
CLUB_NIGHT = col(Night.tournament_id).is_(None)


class DeletedNight(SQLModel, table=True):
    """A night an admin deleted (started by mistake): when, why, and the night's whole export, so
    that importing it brings the night back."""

    __tablename__ = "deleted_night"

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(max_length=32, index=True)  # the night's uid
    game: str = Field(max_length=20)
    played_on: date
    reason: str = Field(max_length=200)
    export: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime = Field(default_factory=utcnow)
    # the night's version when it was deleted: a restore moves every version past it (core/backup.py)
    version: int = Field(default=0)


class Seat(SQLModel, table=True):
    """Who sits at which table position (1..N, clockwise) on an night."""

    night_id: int = night_ref(primary_key=True)
    position: int = Field(primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)


class HandRecord(SQLModel, table=True):
    """One recorded hand: the engine's JSON hand (engine seats) and the dealer's table position."""

    __table_args__ = (
        UniqueConstraint("evening_id", "number"),
        UniqueConstraint("evening_id", "idempotency_key"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = night_ref(index=True)
    number: int  # 1, 2, ... in the order played
    dealer: int  # table position of the dealer
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    idempotency_key: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    # The engine's output for this hand, stored with it so that a new hand is settled from the last
    # one's state, not from the start (0006): the result (``HandResult.to_json``) and what carries
    # after it (``Game.state_to_json``). NULL: not settled yet (a hand written by older code).
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    state: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    # The night's sums after this hand (0007): ``{"totals": per engine seat, "units": per table
    # position}`` (``core.stored.Running``), so the balances need no hand before it. NULL: not stored.
    running: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class AuditEntry(SQLModel, table=True):
    """Every change to an night's hands: when, what before, what after."""

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = night_ref(index=True)
    hand_number: int | None = None
    action: str = Field(max_length=20)  # record, edit, undo
    before: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    after: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    at: datetime = Field(default_factory=utcnow)
    # An undo's: the idempotency key of the hand it took back, kept so that the hand sent again with it
    # (a phone's outbox that never got its answer) is not recorded again (0014). None elsewhere.
    idempotency_key: str | None = Field(default=None, max_length=64)


class RosterChange(SQLModel, table=True):
    """Every change to the roster: a rename, a merge of two records, retiring and returning."""

    __tablename__ = "roster_change"

    id: int | None = Field(default=None, primary_key=True)
    action: str = Field(max_length=20)  # rename, merge, retire, unretire, member (a guest joined the club)
    player_id: int = Field(index=True)  # no foreign key: the record merged away is gone, its change stays
    detail: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime = Field(default_factory=utcnow)
    uid: str = Field(default_factory=new_uid, max_length=32, unique=True)  # stable across export and import


class NightResult(SQLModel, table=True):
    """One player's result of one night, written with every change to the night's hands.

    The history pages add these up in SQL (a few rows a night) instead of settling
    every hand of the club's history; ``game`` and ``played_on`` are copies of the
    night's, so the season queries need no join.
    """

    __tablename__ = "night_result"
    __table_args__ = (
        Index("ix_night_result_player_played", "player_id", "played_on"),
        Index("ix_night_result_game_played", "game", "played_on"),
    )

    night_id: int = night_ref(primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    game: str = Field(max_length=20)
    played_on: date
    position: int
    hands: int = 0  # hands played (at a table of five the dealer sits out)
    units: int = 0
    cents: int = 0  # the night's money, with a share of a split pot
    declared: int = 0  # hands on the declaring side (Konter a Matt: the trump team)
    won: int = 0  # ... of them won
    matzl_caught: int = 0
    matzl_lost: int = 0
    touts: int = 0
    touts_won: int = 0
    games_won: int = 0  # Konter a Matt: games (a team's strokes down to 0) won by the player's team
    matches_won: int = 0  # Matt: matches won


class ContractResult(SQLModel, table=True):
    """Hands one player declared and won per contract on one night (Schafkopf, Matzlfangen, Konter a Matt)."""

    __tablename__ = "contract_result"

    night_id: int = night_ref(primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True, index=True)
    contract: str = Field(max_length=20, primary_key=True)
    game: str = Field(max_length=20)
    declared: int = 0
    won: int = 0


class User(SQLModel, table=True):
    """An account: a name, a hashed password and a role (viewer, scorer or admin)."""

    __tablename__ = "user_account"  # "user" is a reserved word in PostgreSQL

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40, unique=True)
    role: str = Field(max_length=10)
    password_hash: str = Field(max_length=255)
    stamp: str = Field(
        default_factory=new_uid, max_length=32
    )  # new with every password or role change: old sessions end
    active: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow)

    # what Flask-Login asks of a user
    is_authenticated: ClassVar[bool] = True
    is_anonymous: ClassVar[bool] = False

    @property
    def is_active(self) -> bool:
        return self.active

    def get_id(self) -> str:
        """What the session cookie keeps: the id and the stamp, so a changed password ends old sessions."""
        return f"{self.id}.{self.stamp}"


class ApiToken(SQLModel, table=True):
    """A token for the JSON API, stored as its SHA-256 digest (the token is shown once)."""

    __tablename__ = "api_token"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user_account.id", index=True)
    digest: str = Field(max_length=64, unique=True)
    label: str = Field(default="", max_length=80)
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None


class LoginFailure(SQLModel, table=True):
    """A failed sign-in or join attempt, kept for the rate limit (by account name and by address)."""

    __tablename__ = "login_failure"
    __table_args__ = (Index("ix_login_failure_key_at", "key", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=120)
    at: datetime = Field(default_factory=utcnow)


class Tournament(SQLModel, table=True):
    """A tournament: rounds of a fixed number of deals at tables drawn anew each round, for points."""

    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(default_factory=new_uid, max_length=32, unique=True)  # stable across export and import
    name: str = Field(max_length=80)
    played_on: date = Field(index=True)
    place: str = Field(default="", max_length=80)
    game: str = Field(max_length=20)
    rules: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # complete; fixed once round 1 starts
    rounds: int
    deals: int  # per round, at every table (a redealt all-pass does not count)
    entry_fee_cents: int = Field(default=0)
    prizes: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))  # cents, 1st place first
    # the fee's and the prizes' currency: the club's when the tournament was made (0018)
    currency: str = Field(default="EUR", max_length=3)
    seed: str = Field(max_length=32)  # the draw and the lot are reproducible from it
    # pairs of start numbers [a, b] (a < b) the draw seats at different tables
    keep_apart: list[list[int]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=OPEN, max_length=10)
    version: int = Field(default=0)  # bumped by every change: the standings board polls it
    created_at: datetime = Field(default_factory=utcnow)
    closed_at: datetime | None = None
    # each reopening of the closed tournament (0013): {"at": ISO time, "reason": text}, oldest first
    reopened: list[dict[str, Any]] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )

    @property
    def is_open(self) -> bool:
        return self.status == OPEN


class Entrant(SQLModel, table=True):
    """A participant of a tournament: a start number and a player of the roster or a guest."""

    __tablename__ = "tournament_entrant"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        UniqueConstraint("tournament_id", "player_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    number: int  # the start number, 1, 2, ...
    player_id: int = Field(foreign_key="player.id")
    withdrawn_after: int | None = None  # the last round played; not drawn after it
    # the people this start number had before (0011): each replacement, oldest first, as
    # {"player_id", "name", "after_round", "at"}; the earlier tables' seats are theirs
    former: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=True))


class TournamentRound(SQLModel, table=True):
    """A round as drawn: who sits out (a bye scores 0, a round's average)."""

    __tablename__ = "tournament_round"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    number: int = Field(primary_key=True)
    byes: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))  # start numbers
    attempt: int = Field(default=0)  # 0: drawn from the seed; n: drawn again n times (another lot)
    drawn_at: datetime = Field(default_factory=utcnow)


class TournamentTable(SQLModel, table=True):
    """A table of a round: its night (where its phone records the deals), or its points from paper."""

    __tablename__ = "tournament_table"

    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    round: int = Field(primary_key=True)
    number: int = Field(primary_key=True)
    night_id: int = Field(
        sa_column=Column("evening_id", Integer, ForeignKey(f"{NIGHT_TABLE}.id"), nullable=False, unique=True)
    )
    # typed from a paper list by the organiser: points per table position (they sum to zero)
    paper: list[int] | None = Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=True))
    # solos won and lost per table position (0011): counted as each hand is recorded
    # (history.add_hand), or typed from the paper list; an entry null where the paper list left them out
    solos: list[list[int] | None] | None = Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=True))
