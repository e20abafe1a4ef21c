"""The club's history as its pages ask it: the seasons, the nights list, a player's record, the
season leaderboard.

Read from the rows :mod:`scorekeeper.core.history` writes with every change to a night (a few
rows a night, added up in SQL). Reads only. No Flask here: everything takes a database session.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from sqlalchemy import case, distinct, func
from sqlmodel import Session, col, select

from scorekeeper.core.models import (
    CLUB_NIGHT,
    ContractResult,
    HandRecord,
    Night,
    NightResult,
    Player,
    Seat,
    scores_units,
    takes_money,
)
from scorekeeper.core.players import get_player
from scorekeeper.core.stored import deals_played
from scorekeeper.core.summary import SEAT_COUNTS
from scorekeeper.core.text import name_key
from scorekeeper.engine import GAMES, deal

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
    first, last = db.exec(select(func.min(Night.played_on), func.max(Night.played_on)).where(CLUB_NIGHT)).one()
    if first is None:
        return []
    a, b = Season.of(first, start).year, Season.of(last, start).year
    if b - a < SEASONS_SPAN:
        return [Season.starting(year, start) for year in range(b, a - 1, -1)]
    years = {Season.of(day, start).year for day in db.exec(select(distinct(Night.played_on)).where(CLUB_NIGHT))}
    return [Season.starting(year, start) for year in sorted(years, reverse=True)]


def newest_season(*, db: Session, start: tuple[int, int], today: date) -> Season:
    """The season of the club's newest night (a tournament's table is none), or of ``today`` without one."""
    newest = db.exec(select(func.max(Night.played_on)).where(CLUB_NIGHT)).one()
    return Season.of(newest or today, start)


def places(db: Session) -> list[str]:
    """The places of the club's nights, by name: those the nights list shows (a tournament's table is none)."""
    return sorted(db.exec(select(Night.place).where(CLUB_NIGHT, Night.place != "").distinct()))


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
    hands: int  # the hands played: a redeal is none (docs/rules.md, "The club's history")
    # the night's biggest winners, every one who ties in seat order, and what each won: money where the night is
    # played for money (with a share of a pot split at the close), units at a stake of 0 (the settlement's)
    leader: tuple[tuple[str, ...], int] | None
    redeals: int = 0  # the hands dealt again (still in the night's log), as the night's summary counts them


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
    query = select(Night).where(CLUB_NIGHT)  # tournaments are listed apart
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
    # the biggest winners, all who tie: by money where the night is played for money (the settlement's, a
    # split pot's share in it), else by units where its hands score them (a stake of 0: the settlement's units);
    # a night of neither (Konter a Matt, Matt without a stake) names none (docs/rules.md, "A night's top player")
    measure = {e.id: "cents" if e.for_money else "units" if scores_units(e.game, e.rules) else None for e in nights}
    leaders: dict[int, tuple[tuple[str, ...], int]] = {}
    for night_id, name, units, cents in db.exec(
        select(NightResult.night_id, Player.name, NightResult.units, NightResult.cents)
        .join(Player, Player.id == NightResult.player_id)
        .where(NightResult.night_id.in_(ids))
        .order_by(NightResult.night_id, NightResult.position)
    ):
        value = {"cents": cents, "units": units, None: 0}[measure[night_id]]
        tied, top = leaders.get(night_id, ((), 0))
        if value > 0 and value >= top:
            leaders[night_id] = ((*tied, name) if value == top else (name,), value)
    redeals = _redeals(db, nights)
    items = [
        NightItem(e, names[e.id], hands.get(e.id, 0) - redeals.get(e.id, 0), leaders.get(e.id), redeals.get(e.id, 0))
        for e in nights
    ]
    return NightsPage(items, total, page, pages)


def _redeals(db: Session, nights: list[Night]) -> dict[int, int]:
    """How many hands of each of these nights were dealt again (``Table.dealt_again``, as the night's summary
    counts them). Only the nights whose rules deal a hand again (Schafkopf under ``all_pass: "redeal"``) are
    asked, and of their hands only those of a contract that may be dealt again (engine/deal.py ``deal_stays``,
    found in SQL: not every hand of the page read and parsed)."""
    stays: dict[int, tuple[Night, tuple[str, ...]]] = {}
    for e in nights:
        if e.game in GAMES:
            game = GAMES[e.game]
            if contracts := deal.deal_stays(game, game.parse_rules(e.rules)):
                stays[e.id] = (e, contracts)
    if not stays:
        return {}
    contracts = {c for _, cs in stays.values() for c in cs}
    hands: dict[int, list[Any]] = defaultdict(list)
    for night_id, data in db.exec(
        select(HandRecord.night_id, HandRecord.data).where(
            HandRecord.night_id.in_(list(stays)), HandRecord.data["contract"].as_string().in_(sorted(contracts))
        )
    ):
        hands[night_id].append(data)
    return {i: len(hands[i]) - deals_played(night=e, hands=hands[i]) for i, (e, _) in stays.items()}


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
    paid: int = field(default=0, compare=False)  # of the nights, those played for money (``takes_money``)
    scored: int = field(default=0, compare=False)  # of the nights, those whose hands score units (``scores_units``)
    scored_hands: int = field(default=0, compare=False)  # the hands of those

    def add(self, row: NightResult, paid: bool = True, scored: bool = True) -> None:
        self.nights += 1
        self.paid += paid
        self.scored += scored
        self.scored_hands += row.hands if scored else 0
        self.hands += row.hands
        self.units += row.units
        self.cents += row.cents if paid else 0  # money of the nights played for money in the club's currency
        self.declared += row.declared
        self.won += row.won

    @property
    def for_money(self) -> bool:
        """Whether any of the nights was played for money: else its money is no figure at all."""
        return self.paid > 0

    @property
    def shows_units(self) -> bool:
        """Whether any of the nights scored units (for money or at a stake of 0): else its units are no figure."""
        return self.scored > 0

    @property
    def units_per_hand(self) -> int | None:
        """Hundredths of a unit per hand, of the hands of the nights that score units (a hand of Konter a
        Matt without a stake scores none, and counts for none)."""
        return ratio(part=self.units, whole=self.scored_hands)

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
    paid: bool = field(default=True, compare=False)  # played for money (``takes_money``)
    units: int = field(default=0, compare=False)
    scored: bool = field(default=True, compare=False)  # its hands score units (``scores_units``)

    def value(self, in_units: bool) -> int:
        """The night's result in money (cents) or in units."""
        return self.units if in_units else self.cents


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
    in_units: bool = False  # the records (best, worst, streak) count units: the player never played for money
    # the nights played for money in another currency than the club's, left out of the money (their units count):
    # currency -> [nights, cents], by currency
    elsewhere: dict[str, list[int]] = field(default_factory=dict)

    @property
    def record_nights(self) -> list[NightLine]:
        """The nights the records and the chart count: those played for money, or, for a player who never
        played for money, those that scored units (a stake of 0); oldest first."""
        return [n for n in self.nights if (n.scored if self.in_units else n.paid)]


#: The counts on a player's page, added up over their nights.
COUNTS = tuple(SEAT_COUNTS)


def counts_money(game: str, rules: Any, stake_cents: int, night_currency: str, currency: str) -> bool:
    """Whether a night's money is in the history's money: played for money (``takes_money``) in the club's
    ``currency``. A night in another currency is no money of the club's sums (its units count as every night's):
    two currencies are never added up (docs/using.md, "The club's history").

    >>> counts_money("schafkopf", {}, 10, "EUR", "EUR"), counts_money("schafkopf", {}, 10, "USD", "EUR")
    (True, False)
    """
    return takes_money(game, rules, stake_cents) and night_currency.upper() == currency.upper()


def player_history(
    *, db: Session, player_id: int, season_start: tuple[int, int] = (1, 1), currency: str = "EUR"
) -> PlayerHistory:
    """Everything a player's page shows, from their result rows (a few per night, not per hand).

    A night counts when the player played a hand in it or it moved their money (a
    share of the pot when the dealer of a table of five sat out every hand); a night
    is won when it brought the player money; the streak is the longest run of nights
    won in a row, by date, of the nights played for money (a night played without a
    stake neither extends nor ends it). Each tally and night says whether it was
    played for money (``Tally.for_money``, ``NightLine.paid``): the page shows money
    for those only; and whether its hands scored units, with money or without
    (``Tally.shows_units``, ``NightLine.scored``): the units add up over all of those.
    A player who never played for money has records in units (``in_units``): the best
    and worst night and the streak of the nights that scored units, by their units.
    Money is the club's ``currency``'s only: a night played for money in another currency
    counts as one played without it (its units count), and its money is said apart
    (``elsewhere``), never added to the club's.

    :raises errors.NotFound: for an unknown player.
    """
    history = PlayerHistory(get_player(db=db, player_id=player_id))
    rows = db.exec(
        select(NightResult)
        .where(NightResult.player_id == player_id)
        .order_by(NightResult.played_on, NightResult.night_id)
    ).all()
    paid, scored, foreign = set(), set(), {}
    for night_id, game, rules, stake, night_currency in db.exec(
        select(Night.id, Night.game, Night.rules, Night.stake_cents, Night.currency).where(
            Night.id.in_(select(NightResult.night_id).where(NightResult.player_id == player_id))
        )
    ):
        if counts_money(game, rules, stake, night_currency, currency):
            paid.add(night_id)
        elif takes_money(game, rules, stake):
            foreign[night_id] = night_currency.upper()
        if scores_units(game, rules):
            scored.add(night_id)
    counts = dict.fromkeys(COUNTS, 0)
    by_season: dict[int, dict[str, Tally]] = defaultdict(dict)
    for row in rows:
        if not row.hands and not row.cents:
            continue  # a night without a hand for this player: not a night played (nor attended)
        money, units = row.night_id in paid, row.night_id in scored
        history.total.add(row, money, units)
        history.games.setdefault(row.game, Tally()).add(row, money, units)
        season = Season.of(row.played_on, season_start)
        by_season[season.year].setdefault(row.game, Tally()).add(row, money, units)
        for name in COUNTS:
            counts[name] += getattr(row, name)
        if row.night_id in foreign:
            other = history.elsewhere.setdefault(foreign[row.night_id], [0, 0])
            other[0] += 1
            other[1] += row.cents
        history.nights.append(NightLine(row.night_id, row.played_on, row.game, row.cents, money, row.units, units))
    # the records: of the nights played for money, by money; a player who never played for money, of the nights
    # that scored units (a stake of 0), by units. Any other night (a Matt without a stake) is neither best nor
    # worst, and the streak goes on across it.
    history.in_units = not history.total.for_money and history.total.shows_units
    run: list[NightLine] = []
    for night in history.record_nights:
        value = night.value(history.in_units)
        # the best night brought money (units), the worst cost some: a night at ±0 is neither
        if value > 0 and (history.best is None or value > history.best.value(history.in_units)):
            history.best = night
        if value < 0 and (history.worst is None or value < history.worst.value(history.in_units)):
            history.worst = night
        run = [*run, night] if value > 0 else []
        if len(run) > len(history.streak):
            history.streak = run
    history.elsewhere = dict(sorted(history.elsewhere.items()))
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


#: The leaderboard's orders: "units" is the balance of a season played for units alone (a stake of 0), as
#: "money" is a season's played for money.
SORTS = ("money", "units", "per_hand", "win_rate", "attendance")


def _in_season(game: str, season: Season) -> tuple:
    """The season's result rows of ``game`` that count: a night the player played a hand in or that moved
    their money."""
    return (
        col(NightResult.game) == game,
        NightResult.played_on >= season.start,
        NightResult.played_on < season.end,
        (NightResult.hands > 0) | (NightResult.cents != 0),  # as on the player's page
    )


@dataclass(frozen=True)
class SeasonKind:
    """What a season's nights of one game on the leaderboard were played for."""

    for_money: bool  # any of them for money in the club's currency (``counts_money``): the leaderboard shows money
    scored: frozenset[int]  # those whose hands score units (``scores_units``), with money or at a stake of 0
    paid: frozenset[int] = frozenset()  # those whose money counts: for money, in the club's currency
    # the nights played for money in another currency, by currency: their money is in no sum (their units are)
    elsewhere: tuple[tuple[str, int], ...] = ()

    @property
    def shows_units(self) -> bool:
        """Whether the leaderboard has units to show (their balance, per hand): else it is played for honour."""
        return bool(self.scored)


def season_kind(*, db: Session, game: str, season: Season, currency: str = "EUR") -> SeasonKind:
    """What the season's nights of ``game`` on the leaderboard were played for; money in ``currency``, the
    club's, only (:func:`counts_money`)."""
    counted = select(NightResult.night_id).where(*_in_season(game, season))
    nights = db.exec(
        select(Night.id, Night.game, Night.rules, Night.stake_cents, Night.currency).where(Night.id.in_(counted))
    ).all()
    paid = frozenset(i for i, g, r, stake, c in nights if counts_money(g, r, stake, c, currency))
    elsewhere: dict[str, int] = defaultdict(int)
    for i, g, r, stake, c in nights:
        if i not in paid and takes_money(g, r, stake):
            elsewhere[c.upper()] += 1
    return SeasonKind(
        bool(paid),
        frozenset(night_id for night_id, g, r, _stake, _c in nights if scores_units(g, r)),
        paid,
        tuple(sorted(elsewhere.items())),
    )


def leaderboard(
    *,
    db: Session,
    game: str,
    season: Season,
    min_declared: int = 20,
    sort: str = "money",
    kind: SeasonKind | None = None,
    currency: str = "EUR",
) -> tuple[list[Standing], int]:
    """The season's standings in one game, and how many nights of it were played.

    A win rate counts only with at least ``min_declared`` hands declared; below
    that it is None and sorts last. ``kind``: the season's :func:`season_kind`, where the caller has it.
    The money is the nights' played for money in ``currency``, the club's (:func:`counts_money`).
    """
    if sort not in SORTS:
        raise ValueError(f"sort by one of {', '.join(SORTS)}, not {sort!r}")
    in_season = _in_season(game, season)
    nights = db.exec(select(func.count(distinct(NightResult.night_id))).where(*in_season)).one()
    kind = kind or season_kind(db=db, game=game, season=season, currency=currency)
    scored = kind.scored
    # money: of the nights played for money in the club's currency (another currency's is never added to it)
    paid_cents = func.sum(case((NightResult.night_id.in_(kind.paid), NightResult.cents), else_=0))
    # units per hand: of the hands of the nights that score units (a Konter a Matt without a stake scores none)
    is_scored = NightResult.night_id.in_(scored)
    scored_hands = func.sum(case((is_scored, NightResult.hands), else_=0))
    scored_nights = func.sum(case((is_scored, 1), else_=0))
    rows = db.exec(
        select(
            NightResult.player_id,
            Player.name,
            func.count(),
            func.sum(NightResult.hands),
            func.sum(NightResult.units),
            paid_cents,
            func.sum(NightResult.declared),
            func.sum(NightResult.won),
            scored_nights,
            scored_hands,
        )
        .join(Player, Player.id == NightResult.player_id)
        .where(*in_season)
        .group_by(NightResult.player_id, Player.name)
    ).all()
    standings = []
    for player_id, name, count, hands, units, cents, declared, won, scored_count, scored_hands_count in rows:
        tally = Tally(count, hands, units, cents, declared, won, scored=scored_count, scored_hands=scored_hands_count)
        standings.append(Standing(player_id, name, tally, ratio(part=count, whole=nights)))

    def rate(s: Standing) -> int | None:
        return s.tally.win_rate if s.tally.declared >= min_declared else None

    def key(s: Standing) -> tuple:
        value = {
            "money": s.tally.cents,
            "units": s.tally.units,
            "per_hand": s.tally.units_per_hand,
            "win_rate": rate(s),
            "attendance": s.attendance,
        }[sort]
        return (value is None, -(value or 0), -s.tally.cents, -s.tally.units, name_key(s.name))

    standings.sort(key=key)
    return standings, nights
