"""The club's history: the nights list, a player's record, the season leaderboard.

Every change to a night's hands rewrites that night's rows of ``night_result``
and ``contract_result`` (one per player, and per player and contract) from the
night's :class:`summary.Summary`, in the same transaction as the change. The
history pages then add up those few rows a night in SQL, with indexes on
``(player_id, played_on)`` and ``(game, played_on)``, instead of settling ten
years of hands on every page view.

No Flask here: everything takes a database session.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import bindparam, delete, distinct, func
from sqlmodel import Session, col, select

from scorekeeper.core.models import ContractResult, HandRecord, Night, NightResult, Player, Seat, TournamentTable
from scorekeeper.core.players import get_player
from scorekeeper.core.summary import PlayerStats, count_hand, money_lines, summarize
from scorekeeper.core.table import (
    HandRow,
    Table,
    build_table,
    get_night,
    load_table,
    read_table,
    seats,
    stored_columns,
)
from scorekeeper.core.text import name_key
from scorekeeper.engine import GAMES, Settlement

# --- writing: a night's rows ----------------------------------------------------


def night_rows(table: Table) -> tuple[list[NightResult], list[ContractResult]]:
    """The night's result rows, one per player and one per player and contract declared; none for
    a tournament's table (its points never mix with the club's money)."""
    night = table.night
    if night.tournament_id is not None:
        return [], []
    summary = summarize(table)
    results, contracts = [], []
    for line, stats in zip(summary.lines, summary.players, strict=True):
        player = table.players[line.position]
        results.append(
            NightResult(
                night_id=night.id,
                player_id=player.id,
                game=night.game,
                played_on=night.played_on,
                position=line.position,
                hands=stats.hands,
                units=line.units,
                cents=line.total,
                declared=sum(stats.declared.values()),
                won=sum(stats.won.values()),
                matzl_caught=stats.matzl,
                matzl_lost=stats.matzl_lost,
                touts=stats.touts,
                touts_won=stats.touts_won,
                games_won=stats.games_won,
                matches_won=stats.matches_won,
            )
        )
        contracts.extend(
            ContractResult(
                night_id=night.id,
                player_id=player.id,
                contract=contract,
                game=night.game,
                declared=declared,
                won=stats.won[contract],
            )
            for contract, declared in sorted(stats.declared.items())
        )
    return results, contracts


def refresh(*, db: Session, night: Night, hands: list[Any], settlement: Settlement | None = None) -> Table:
    """The table after a change to its hands, with the night's history rows rewritten (not committed).

    Every change to a night's hands goes through here, so the club's history never lags behind.
    """
    db.flush()
    if settlement is None:
        after = read_table(db=db, night=night, hands=hands)
    else:
        after = build_table(night=night, players=seats(db=db, night_id=night.id), hands=hands, settlement=settlement)
    refresh_night(db=db, table=after)
    return after


#: The counts a hand adds to a player's night row: column -> what of :class:`PlayerStats` it adds.
_COUNTS = {
    "hands": lambda s: s.hands,
    "declared": lambda s: sum(s.declared.values()),
    "won": lambda s: sum(s.won.values()),
    "matzl_caught": lambda s: s.matzl,
    "matzl_lost": lambda s: s.matzl_lost,
    "touts": lambda s: s.touts,
    "touts_won": lambda s: s.touts_won,
    "games_won": lambda s: s.games_won,
    "matches_won": lambda s: s.matches_won,
}
_NIGHT_ROW = NightResult.__table__
_CONTRACT_ROW = ContractResult.__table__
#: One statement for every player's row: the hand's counts added, the money rewritten.
_ADD_TO_NIGHT_ROW = (
    _NIGHT_ROW.update()
    .where(_NIGHT_ROW.c.evening_id == bindparam("n_id"), _NIGHT_ROW.c.player_id == bindparam("p_id"))
    .values(
        units=bindparam("n_units"),
        cents=bindparam("n_cents"),
        **{c: _NIGHT_ROW.c[c] + bindparam(f"add_{c}") for c in _COUNTS},
    )
)
_ADD_TO_CONTRACT_ROW = (
    _CONTRACT_ROW.update()
    .where(
        _CONTRACT_ROW.c.evening_id == bindparam("n_id"),
        _CONTRACT_ROW.c.player_id == bindparam("p_id"),
        _CONTRACT_ROW.c.contract == bindparam("c_name"),
    )
    .values(
        declared=_CONTRACT_ROW.c.declared + bindparam("add_declared"), won=_CONTRACT_ROW.c.won + bindparam("add_won")
    )
)


def add_hand(*, db: Session, table: Table) -> Table:
    """The night's history rows brought up to date by the hand just added at its end (not
    committed): its counts are added, and the money, which the last hand can move for everybody
    (a pot), is rewritten. ``table`` is the night after that hand (its newest hand at least, with
    the balances after it: :func:`read_table` with ``newest``). Returns the table.

    Written as statements, not ORM objects (a recorded hand is the hot path): one UPDATE for all the
    players' rows and one per contract declared. Where the rows are not there to update, they are
    rewritten from the whole night.
    """
    night = table.night
    if night.tournament_id is not None:  # a tournament's table has no history rows (night_rows): its solos
        stored = db.exec(select(TournamentTable.solos).where(TournamentTable.night_id == night.id)).first()
        if stored is None or any(s is None for s in stored):
            table = read_table(db=db, night=night)
            write_solos(db=db, table=table)
        else:
            added = solo_counts(table, len(table.hands) - 1)
            write_solos(
                db=db,
                table=table,
                counts=[[a + b for a, b in zip(*pair, strict=True)] for pair in zip(stored, added, strict=True)],
            )
        return table
    db.flush()
    conn = db.connection()
    index = len(table.hands) - 1
    game = GAMES[night.game]
    facts = game.facts(table.settlement.hands[index], table.settlement.results[index])
    stats = {p: PlayerStats(player.name) for p, player in table.players.items()}
    count_hand(stats, table.positions[index], facts)
    _, lines = money_lines(table)
    rows = []
    for line in lines:
        add = stats[line.position]
        row = {"n_id": night.id, "p_id": table.players[line.position].id, "n_units": line.units, "n_cents": line.total}
        rows.append(row | {f"add_{c}": count(add) for c, count in _COUNTS.items()})
    updated = conn.execute(_ADD_TO_NIGHT_ROW, rows).rowcount
    if not conn.dialect.supports_sane_multi_rowcount:  # (psycopg2) count them instead
        updated = db.exec(select(func.count()).where(NightResult.night_id == night.id)).one()
    if updated != len(table.players):
        table = read_table(db=db, night=night)
        refresh_night(db=db, table=table)
        return table
    for position, add in stats.items():
        player_id = table.players[position].id
        for contract, declared in add.declared.items():
            params = {"n_id": night.id, "p_id": player_id, "c_name": contract}
            params |= {"add_declared": declared, "add_won": add.won[contract]}
            if not conn.execute(_ADD_TO_CONTRACT_ROW, params).rowcount:
                db.add(
                    ContractResult(
                        night_id=night.id,
                        player_id=player_id,
                        contract=contract,
                        game=night.game,
                        declared=declared,
                        won=add.won[contract],
                    )
                )
    return table


def solo_counts(table: Table, start: int = 0) -> list[list[int]]:
    """Solos (the contracts the game counts as one) won and lost per table position in the
    table's hands from index ``start`` on: a tournament's tie-break."""
    game = GAMES[table.night.game]
    stats = {p: PlayerStats(player.name) for p, player in table.players.items()}
    for i in range(start, len(table.hands)):
        count_hand(stats, table.positions[i], game.facts(table.settlement.hands[i], table.settlement.results[i]))
    return [
        [
            sum(stats[p].won[c] for c in game.solo_contracts),
            sum(stats[p].declared[c] - stats[p].won[c] for c in game.solo_contracts),
        ]
        for p in sorted(stats)
    ]


def write_solos(*, db: Session, table: Table, counts: list[list[int]] | None = None) -> None:
    """Store a tournament table's solos per table position (all its hands counted unless ``counts``
    are given); the standings read them instead of every hand (the caller commits)."""
    db.flush()
    db.exec(
        TournamentTable.__table__.update()
        .where(TournamentTable.__table__.c.evening_id == table.night.id, TournamentTable.__table__.c.paper.is_(None))
        .values(solos=solo_counts(table) if counts is None else counts)
    )


def refresh_night(*, db: Session, table: Table) -> None:
    """Rewrite the night's result rows from its settled table (the caller commits)."""
    night_id = table.night.id
    if table.night.tournament_id is not None:
        write_solos(db=db, table=table)
    db.exec(delete(ContractResult).where(ContractResult.night_id == night_id))
    db.exec(delete(NightResult).where(NightResult.night_id == night_id))
    results, contracts = night_rows(table)
    db.add_all(results)
    db.flush()
    db.add_all(contracts)


# --- checking: stored results and rows against a fresh settle ------------------------

_RESULT_FIELDS = (
    "position",
    "hands",
    "units",
    "cents",
    "declared",
    "won",
    "matzl_caught",
    "matzl_lost",
    "touts",
    "touts_won",
    "games_won",
    "matches_won",
)


def _row_keys(results: list[NightResult], contracts: list[ContractResult]) -> tuple[list[tuple], list[tuple]]:
    return (
        sorted((r.player_id, r.game, r.played_on, *(getattr(r, f) for f in _RESULT_FIELDS)) for r in results),
        sorted((c.player_id, c.contract, c.game, c.declared, c.won) for c in contracts),
    )


def verify_night(*, db: Session, night_id: int) -> list[str]:
    """What of a night's stored results, states, sums and history rows differs from settling its
    hands afresh with the engine (nothing: an empty list).

    :raises errors.NotFound: for an unknown night.
    """
    night = get_night(db=db, night_id=night_id)
    rows = db.exec(
        select(
            HandRecord.number,
            HandRecord.dealer,
            HandRecord.data,
            HandRecord.result,
            HandRecord.state,
            HandRecord.running,
        )
        .where(HandRecord.night_id == night_id)
        .order_by(HandRecord.number)
    ).all()
    problems = []
    fresh = stored_columns(
        game=night.game,
        rules=night.rules,
        pot_start=night.pot_start,
        hands=[r.data for r in rows],
        dealers=[r.dealer for r in rows],
        seat_count=night.seat_count,
    )
    if fresh is None:
        return ["the engine refuses the night's hands"]
    fresh = json.loads(json.dumps(fresh))  # as the database gives it back
    for row, (result, state, running) in zip(rows, fresh, strict=True):
        if row.result is None:
            problems.append(f"hand {row.number}: no stored result")
        elif row.result != result:
            problems.append(f"hand {row.number}: the stored result differs")
        elif row.state != state:
            problems.append(f"hand {row.number}: the stored state differs")
        elif row.running != running:
            problems.append(f"hand {row.number}: the stored sums differ")
    hands = [HandRow(r.number, r.dealer, r.data) for r in rows]
    table = build_table(night=night, players=seats(db=db, night_id=night_id), hands=hands)  # settled afresh
    expected = _row_keys(*night_rows(table))
    stored = _row_keys(
        list(db.exec(select(NightResult).where(NightResult.night_id == night_id))),
        list(db.exec(select(ContractResult).where(ContractResult.night_id == night_id))),
    )
    if stored[0] != expected[0]:
        problems.append("the night's result rows differ")
    if stored[1] != expected[1]:
        problems.append("the night's contract rows differ")
    return problems


def verify_nights(*, db: Session) -> list[int]:
    """The ids of the nights whose stored results, states or history rows differ from a fresh
    settle of their hands (:func:`verify_night` says what differs), oldest first. Reads only."""
    return [
        night_id for night_id in db.exec(select(Night.id).order_by(Night.id)) if verify_night(db=db, night_id=night_id)
    ]


def refresh_missing(db: Session) -> int:
    """Write the result rows of every night that has none (after the upgrade to the history schema).

    Returns how many nights were written; commits every 50 nights.
    """
    missing = select(Night.id).where(
        Night.tournament_id == None,  # noqa: E711 (a tournament's tables have no rows)
        ~select(NightResult.night_id).where(NightResult.night_id == Night.id).exists(),
    )
    uncounted = select(TournamentTable.night_id).where(
        TournamentTable.solos == None,  # noqa: E711 (tables recorded before 0011: their solos)
        TournamentTable.paper == None,  # noqa: E711
    )
    done = 0
    for night_id in sorted({*db.exec(missing), *db.exec(uncounted)}):
        refresh_night(db=db, table=load_table(db=db, night_id=night_id))
        done += 1
        if done % 50 == 0:
            db.commit()
    db.commit()
    return done


# --- seasons ------------------------------------------------------------------


def parse_season_start(text: str) -> tuple[int, int]:
    """``"MM-DD"`` as (month, day); a season may start on any day but 29 February.

    >>> parse_season_start("08-01")
    (8, 1)

    :raises ValueError: for anything else.
    """
    try:
        month, day = (int(part) for part in text.split("-"))
        date(2001, month, day)  # not a leap year: every season has its start day
    except (ValueError, TypeError):
        raise ValueError(f"a season starts on a day written MM-DD (not 02-29), not {text!r}") from None
    return month, day


@dataclass(frozen=True)
class Season:
    """A season: from its start day (included) to the next season's (excluded).

    >>> Season.of(date(2026, 3, 1), (8, 1)).label
    '2025/26'
    >>> Season.of(date(2026, 3, 1), (1, 1)).label
    '2026'
    """

    year: int
    start: date
    end: date

    @classmethod
    def of(cls, day: date, start: tuple[int, int] = (1, 1)) -> Season:
        year = day.year if (day.month, day.day) >= start else day.year - 1
        return cls.starting(year, start)

    @classmethod
    def starting(cls, year: int, start: tuple[int, int] = (1, 1)) -> Season:
        """The season that starts in ``year``; at the ends of the calendar (a date stored before
        dates were checked) it is cut short instead of failing.

        >>> Season.starting(9999, (8, 1)).end, Season.starting(0, (8, 1)).start
        (datetime.date(9999, 12, 31), datetime.date(1, 1, 1))
        """
        first = date(year, *start) if year >= date.min.year else date.min
        end = date(year + 1, *start) if year < date.max.year else date.max
        return cls(year, first, end)

    @property
    def last(self) -> date:
        """The season's last day."""
        return self.end - timedelta(days=1)

    @property
    def label(self) -> str:
        if (self.start.month, self.start.day) == (1, 1):
            return str(self.year)
        return f"{self.year}/{(self.year + 1) % 100:02d}"


SEASONS_SPAN = 100  # beyond this many seasons between the first night and the newest, only those with nights


def seasons(*, db: Session, start: tuple[int, int]) -> list[Season]:
    """Every season from the club's first night to its newest, newest first (none without nights);
    across a span of more than a hundred seasons (a date typed wrong) only the seasons with nights."""
    first, last = db.exec(select(func.min(Night.played_on), func.max(Night.played_on))).one()
    if first is None:
        return []
    a, b = Season.of(first, start).year, Season.of(last, start).year
    if b - a < SEASONS_SPAN:
        return [Season.starting(year, start) for year in range(b, a - 1, -1)]
    years = {Season.of(day, start).year for day in db.exec(select(distinct(Night.played_on)))}
    return [Season.starting(year, start) for year in sorted(years, reverse=True)]


def places(db: Session) -> list[str]:
    """The places the club has played at, by name."""
    return sorted(db.exec(select(Night.place).where(Night.place != "").distinct()))


# --- the nights list -----------------------------------------------------------


@dataclass(frozen=True)
class NightFilter:
    """What the nights list shows: every filter is optional; ``until`` is included."""

    game: str | None = None
    player_id: int | None = None
    place: str | None = None
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True)
class NightItem:
    night: Night
    names: list[str]
    hands: int
    leader: tuple[str, int] | None  # the night's biggest winner and their money


@dataclass(frozen=True)
class NightsPage:
    items: list[NightItem]
    total: int
    page: int
    pages: int


def nights_page(*, db: Session, filters: NightFilter, page: int = 1, per_page: int = 25) -> NightsPage:
    """One page of the nights that match, newest first; a page past the end shows the last one."""
    if per_page < 1:
        raise ValueError("a page holds at least one night")
    query = select(Night).where(Night.tournament_id == None)  # noqa: E711 (tournaments are listed apart)
    if filters.game:
        query = query.where(col(Night.game) == filters.game)
    if filters.player_id is not None:
        query = query.where(Night.id.in_(select(Seat.night_id).where(Seat.player_id == filters.player_id)))
    if filters.place:
        query = query.where(Night.place == filters.place)
    if filters.since:
        query = query.where(Night.played_on >= filters.since)
    if filters.until:
        query = query.where(Night.played_on <= filters.until)
    total = db.exec(select(func.count()).select_from(query.subquery())).one()
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    nights = list(
        db.exec(query.order_by(Night.played_on.desc(), Night.id.desc()).offset((page - 1) * per_page).limit(per_page))
    )
    ids = [e.id for e in nights]
    names: dict[int, list[str]] = defaultdict(list)
    for night_id, name in db.exec(
        select(Seat.night_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.night_id.in_(ids))
        .order_by(Seat.night_id, Seat.position)
    ):
        names[night_id].append(name)
    hands = dict(
        db.exec(
            select(HandRecord.night_id, func.count()).where(HandRecord.night_id.in_(ids)).group_by(HandRecord.night_id)
        ).all()
    )
    leaders: dict[int, tuple[str, int]] = {}
    for night_id, name, cents in db.exec(
        select(NightResult.night_id, Player.name, NightResult.cents)
        .join(Player, Player.id == NightResult.player_id)
        .where(NightResult.night_id.in_(ids), NightResult.cents > 0)
        .order_by(NightResult.night_id, NightResult.cents.desc(), NightResult.position)
    ):
        leaders.setdefault(night_id, (name, cents))
    items = [NightItem(e, names[e.id], hands.get(e.id, 0), leaders.get(e.id)) for e in nights]
    return NightsPage(items, total, page, pages)


# --- a player's record -----------------------------------------------------------


def ratio(part: int, whole: int, scale: int = 100) -> int | None:
    """``part / whole`` times ``scale``, rounded half away from zero, in integers; None for 0 / 0.

    >>> ratio(2, 3), ratio(-5, 4, 100), ratio(1, 0)
    (67, -125, None)
    """
    if not whole:
        return None
    value = Fraction(part * scale, whole)
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


@dataclass
class Tally:
    """Nights, hands, units and money added up (for one game, a season, or everything)."""

    nights: int = 0
    hands: int = 0
    units: int = 0
    cents: int = 0
    declared: int = 0
    won: int = 0

    def add(self, row: NightResult) -> None:
        self.nights += 1
        self.hands += row.hands
        self.units += row.units
        self.cents += row.cents
        self.declared += row.declared
        self.won += row.won

    @property
    def units_per_hand(self) -> int | None:
        """Hundredths of a unit per hand."""
        return ratio(part=self.units, whole=self.hands)

    @property
    def win_rate(self) -> int | None:
        """Per cent of the hands declared that were won."""
        return ratio(part=self.won, whole=self.declared)


@dataclass(frozen=True)
class NightLine:
    """One night of a player's: for best and worst, and the chart."""

    night_id: int
    played_on: date
    game: str
    cents: int


@dataclass(frozen=True)
class ContractLine:
    game: str
    contract: str
    declared: int
    won: int

    @property
    def win_rate(self) -> int | None:
        return ratio(part=self.won, whole=self.declared)


@dataclass
class PlayerHistory:
    player: Player
    total: Tally = field(default_factory=Tally)
    games: dict[str, Tally] = field(default_factory=dict)  # game -> everything in it
    seasons: list[tuple[Season, dict[str, Tally]]] = field(default_factory=list)  # newest first
    contracts: list[ContractLine] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # matzl_caught, matzl_lost, touts, solos ...
    best: NightLine | None = None
    worst: NightLine | None = None
    streak: list[NightLine] = field(default_factory=list)  # the longest run of nights won
    nights: list[NightLine] = field(default_factory=list)  # oldest first


#: The counts on a player's page, added up over their nights.
COUNTS = ("matzl_caught", "matzl_lost", "touts", "touts_won", "games_won", "matches_won")


def player_history(*, db: Session, player_id: int, season_start: tuple[int, int] = (1, 1)) -> PlayerHistory:
    """Everything a player's page shows, from their result rows (a few per night, not per hand).

    A night counts when the player played a hand in it or it moved their money (a
    share of the pot when the dealer of a table of five sat out every hand); a night
    is won when it brought the player money; the streak is the longest run of nights
    won in a row, by date.

    :raises errors.NotFound: for an unknown player.
    """
    history = PlayerHistory(get_player(db=db, player_id=player_id))
    rows = db.exec(
        select(NightResult)
        .where(NightResult.player_id == player_id)
        .order_by(NightResult.played_on, NightResult.night_id)
    ).all()
    counts = dict.fromkeys(COUNTS, 0)
    by_season: dict[int, dict[str, Tally]] = defaultdict(dict)
    run: list[NightLine] = []
    for row in rows:
        if not row.hands and not row.cents:
            continue  # a night without a hand for this player: not a night played (nor attended)
        history.total.add(row)
        history.games.setdefault(row.game, Tally()).add(row)
        season = Season.of(row.played_on, season_start)
        by_season[season.year].setdefault(row.game, Tally()).add(row)
        for name in COUNTS:
            counts[name] += getattr(row, name)
        night = NightLine(row.night_id, row.played_on, row.game, row.cents)
        history.nights.append(night)
        # the best night brought money, the worst cost some: a night without (a Matt without a stake) is neither
        if night.cents > 0 and (history.best is None or night.cents > history.best.cents):
            history.best = night
        if night.cents < 0 and (history.worst is None or night.cents < history.worst.cents):
            history.worst = night
        run = [*run, night] if night.cents > 0 else []
        if len(run) > len(history.streak):
            history.streak = run
    history.seasons = [
        (Season.starting(year, season_start), dict(sorted(games.items())))
        for year, games in sorted(by_season.items(), reverse=True)
    ]
    history.contracts = [
        ContractLine(game, contract, declared, won)
        for game, contract, declared, won in db.exec(
            select(
                ContractResult.game,
                ContractResult.contract,
                func.sum(ContractResult.declared),
                func.sum(ContractResult.won),
            )
            .where(ContractResult.player_id == player_id)
            .group_by(ContractResult.game, ContractResult.contract)
            .order_by(ContractResult.game, ContractResult.contract)
        )
    ]
    solos = [c for c in history.contracts if c.contract in GAMES[c.game].solo_contracts]
    counts["solos"] = sum(c.declared for c in solos)
    counts["solos_won"] = sum(c.won for c in solos)
    history.counts = counts
    return history


# --- the leaderboard -------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    tally: Tally
    attendance: int | None  # per cent of the season's nights of the game


SORTS = ("money", "per_hand", "win_rate", "attendance")


def leaderboard(
    *, db: Session, game: str, season: Season, min_declared: int = 20, sort: str = "money"
) -> tuple[list[Standing], int]:
    """The season's standings in one game, and how many nights of it were played.

    A win rate counts only with at least ``min_declared`` hands declared; below
    that it is None and sorts last.
    """
    if sort not in SORTS:
        raise ValueError(f"sort by one of {', '.join(SORTS)}, not {sort!r}")
    in_season = (
        col(NightResult.game) == game,
        NightResult.played_on >= season.start,
        NightResult.played_on < season.end,
        (NightResult.hands > 0) | (NightResult.cents != 0),  # as on the player's page
    )
    nights = db.exec(select(func.count(distinct(NightResult.night_id))).where(*in_season)).one()
    rows = db.exec(
        select(
            NightResult.player_id,
            Player.name,
            func.count(),
            func.sum(NightResult.hands),
            func.sum(NightResult.units),
            func.sum(NightResult.cents),
            func.sum(NightResult.declared),
            func.sum(NightResult.won),
        )
        .join(Player, Player.id == NightResult.player_id)
        .where(*in_season)
        .group_by(NightResult.player_id, Player.name)
    ).all()
    standings = []
    for player_id, name, count, hands, units, cents, declared, won in rows:
        tally = Tally(count, hands, units, cents, declared, won)
        standings.append(Standing(player_id, name, tally, ratio(part=count, whole=nights)))

    def rate(s: Standing) -> int | None:
        return s.tally.win_rate if s.tally.declared >= min_declared else None

    def key(s: Standing) -> tuple:
        value = {
            "money": s.tally.cents,
            "per_hand": s.tally.units_per_hand,
            "win_rate": rate(s),
            "attendance": s.attendance,
        }[sort]
        return (value is None, -(value or 0), -s.tally.cents, name_key(s.name))

    standings.sort(key=key)
    return standings, nights
