"""A tournament read: its rounds, tables and standings (the read model the pages, the PDFs and the API show),
and the tournaments a player played. Nothing here writes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, get_args

from sqlalchemy import func
from sqlmodel import Session, select

from scorekeeper.core.errors import NotFound
from scorekeeper.core.models import (
    AuditEntry,
    Entrant,
    HandRecord,
    Night,
    Player,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.core.stored import deals_played, last_hand
from scorekeeper.core.table import read_table
from scorekeeper.core.text import is_id
from scorekeeper.engine import tournament as plan

#: The audit trail's word for a table's paper points taken back (:func:`clear_paper`): its round has started.
PAPER_CLEARED = "paper cleared"


def get_tournament(*, db: Session, tournament_id: Any, lock: bool = False) -> Tournament:
    """:raises NotFound: for an unknown tournament."""
    found = (
        db.get(Tournament, tournament_id, with_for_update=lock, populate_existing=lock)
        if is_id(tournament_id)
        else None
    )
    if found is None:
        raise NotFound(f"no tournament {tournament_id}")
    return found


def list_tournaments(*, db: Session) -> list[Tournament]:
    """Every tournament, newest first."""
    return list(db.exec(select(Tournament).order_by(Tournament.played_on.desc(), Tournament.id.desc())))


@dataclass(frozen=True)
class TableView:
    """A table of a round: its players (start numbers, by table position), its night, how far it is."""

    number: int
    night: Night
    entrants: list[Entrant]  # by table position
    names: list[str]
    deals: int  # deals played (a hand dealt again does not count)
    points: list[int]  # per table position, so far
    paper: bool  # typed from a paper list
    player_ids: list[int] = field(default_factory=list)  # who sits there, by table position
    #: a paper table's solos won and lost per table position (None where its list did not say); else None
    paper_solos: list[list[int] | None] | None = None

    @property
    def done(self) -> bool:
        return not self.night.is_open


@dataclass(frozen=True)
class RoundView:
    number: int
    tables: list[TableView]
    byes: list[Entrant]
    #: pairs to keep apart (start numbers) that sit at one table of this round: the draw could not keep them apart
    together: list[tuple[int, int]] = field(default_factory=list)
    #: a table of it has or had a hand or points from paper (taken back: the audit trail keeps them): it is
    #: not drawn again, and round 1 started fixes the rules (:func:`started_rounds`)
    started: bool = False

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)


@dataclass(frozen=True)
class Line:
    """A line of the standings: the participant and their place (``plan.Standing``); ``solos_known``
    False where a paper list left their solos out (they count as 0 for the tie-break)."""

    entrant: Entrant
    name: str
    standing: plan.Standing
    solos_known: bool = True


@dataclass(frozen=True)
class Step:
    """Within a tie: what put ``upper`` right before ``lower`` (``solos_won``, ``solos_lost`` or ``lot``),
    and whether either's solos are unknown (a paper list left them out: they count as 0 there)."""

    upper: Line
    lower: Line
    by: str

    @property
    def unknown(self) -> bool:
        return not (self.upper.solos_known and self.lower.solos_known)


@dataclass(frozen=True)
class Tie:
    """Participants with equal points, in their order, and what decided each place between them
    (``steps``: one per neighbouring two; ``decided_by``: the deepest of them), and whose solos are
    unknown."""

    total: int
    lines: list[Line]
    decided_by: str
    unknown: list[Line]
    steps: list[Step] = field(default_factory=list)

    @property
    def one_step(self) -> bool:
        """Whether one step placed them all (then a note names it once)."""
        return len({step.by for step in self.steps}) == 1


def ties(lines: list[Line]) -> list[Tie]:
    """The groups of equal points in ``lines`` (standings in order), each with what decided it."""
    out: list[Tie] = []
    order = get_args(plan.DecidedBy)
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and lines[j + 1].standing.total == lines[i].standing.total:
            j += 1
        if j > i:
            group = lines[i : j + 1]
            steps = [Step(a, b, plan.separated_by(a.standing, b.standing)) for a, b in itertools.pairwise(group)]
            deepest = max((step.by for step in steps), key=order.index)
            unknown = [ln for ln in group if not ln.solos_known]
            out.append(Tie(group[0].standing.total, group, deepest, unknown, steps))
        i = j + 1
    return out


@dataclass(frozen=True)
class TournamentView:
    tournament: Tournament
    entrants: list[Entrant]
    names: dict[int, str]  # start number -> name
    guests: set[int]  # start numbers of guests
    rounds: list[RoundView]
    standings: list[Line] = field(default_factory=list)
    #: each round's own standings: its points, its solos (those who played it or sat it out)
    round_standings: dict[int, list[Line]] = field(default_factory=dict)

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def started(self) -> bool:
        return bool(self.rounds) and self.rounds[0].started

    @property
    def can_draw(self) -> bool:
        """Whether the next round can be drawn now."""
        t = self.tournament
        return t.is_open and len(self.rounds) < t.rounds and (self.current is None or self.current.done)

    @property
    def can_enter(self) -> bool:
        """Whether a participant can be entered now: one entered plays from the next round drawn, so
        not once every round is drawn (:func:`add_entrant`)."""
        return self.tournament.is_open and len(self.rounds) < self.tournament.rounds

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.tournament.rounds and self.rounds[-1].done

    def playing(self, round_number: int) -> list[Entrant]:
        """The entrants not withdrawn before round ``round_number``."""
        return [e for e in self.entrants if e.withdrawn_after is None or e.withdrawn_after >= round_number]

    def can_take_back(self, entrant: Entrant) -> bool:
        """Whether a withdrawal can be taken back: until a round without them starts (a drawn round
        that has not started is then drawn again with them)."""
        if entrant.withdrawn_after is None or not self.tournament.is_open:
            return False
        drawn = len(self.rounds)
        return entrant.withdrawn_after >= drawn or (
            entrant.withdrawn_after == drawn - 1 and self.current is not None and not self.current.started
        )


@dataclass(frozen=True)
class TableOf:
    """Where a night is a tournament's table: the tournament, the round and the table's number."""

    tournament: Tournament
    round: int
    number: int


def table_of(*, db: Session, night_id: int) -> TableOf | None:
    """The tournament table this night is (None for a club night)."""
    row = db.exec(
        select(Tournament, TournamentTable.round, TournamentTable.number)
        .join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
        .where(TournamentTable.night_id == night_id)
    ).first()
    return None if row is None else TableOf(*row)


def version(*, db: Session, tournament_id: int) -> str:
    """A tag that changes with every change to the tournament or any of its tables (the standings
    board asks with it and gets 304 while nothing changed)."""
    t = db.exec(select(Tournament.version).where(Tournament.id == tournament_id)).first()
    if t is None:
        raise NotFound(f"no tournament {tournament_id}")
    tables = db.exec(
        select(func.count(), func.coalesce(func.sum(Night.version), 0)).where(Night.tournament_id == tournament_id)
    ).one()
    return f"{t}.{tables[0]}.{tables[1]}"


def read_tournament(*, db: Session, tournament_id: Any) -> TournamentView:
    """The tournament with its entrants, rounds, tables and standings."""
    t = get_tournament(db=db, tournament_id=tournament_id)
    rows = db.exec(
        select(Entrant, Player).join(Player, Player.id == Entrant.player_id).where(Entrant.tournament_id == t.id)
    ).all()
    entrants = sorted((e for e, _ in rows), key=lambda e: e.number)
    names = {e.number: p.name for e, p in rows}
    guests = {e.number for e, p in rows if p.guest}
    by_player = {e.player_id: e for e in entrants}
    by_number = {e.number: e for e in entrants}
    tables = db.exec(
        select(TournamentTable, Night)
        .join(Night, Night.id == TournamentTable.night_id)
        .where(TournamentTable.tournament_id == t.id)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    seats = seats_of(db, [n.id for _, n in tables])
    hands = _hands(db, [n.id for tt, n in tables if tt.paper is None])
    by_player |= former_of(entrants)
    points: dict[int, dict[int, int]] = {e.number: {} for e in entrants}  # number -> round -> points
    solos: dict[int, dict[int, list[int] | None]] = {e.number: {} for e in entrants}  # number -> round -> won, lost
    rounds: dict[int, list[TableView]] = {}
    # who sat there: a table before a replacement is the earlier person's
    sat = {e.player_id: names[e.number] for e in entrants} | {
        f["player_id"]: f["name"] for e in entrants for f in e.former or ()
    }
    for tt, night in tables:
        at = [by_player[p] for p in seats.get(night.id, [])]
        if tt.paper is not None:
            units = list(tt.paper)
            played = 0
        else:
            units = _units(db, night)
            played = deals_played(night=night, hands=hands.get(night.id, []))
        counted = tt.solos or [[0, 0]] * len(at)  # none stored: no hand yet (or before 0011, until the app starts)
        for entrant, u, c in zip(at, units, counted, strict=True):
            points[entrant.number][tt.round] = u
            solos[entrant.number][tt.round] = None if c is None else list(c)
        rounds.setdefault(tt.round, []).append(
            TableView(
                tt.number,
                night,
                at,
                [sat[p] for p in seats.get(night.id, [])],
                played,
                units,
                tt.paper is not None,
                list(seats.get(night.id, [])),
                None if tt.paper is None else [None if c is None else list(c) for c in counted],
            )
        )
    byes = {r.number: r.byes for r in db.exec(select(TournamentRound).where(TournamentRound.tournament_id == t.id))}
    views = []
    started = started_rounds(db, t) if byes else set()
    for number in sorted(byes):
        for b in byes[number]:
            points[b][number] = 0  # a bye scores 0: the average of a round, every table's list sums to zero
            solos[b][number] = [0, 0]
        round_tables = rounds.get(number, [])
        table_of_number = {e.number: tv.number for tv in round_tables for e in tv.entrants}
        together = [
            (a, b) for a, b in plan.apart_pairs(t.keep_apart) if table_of_number.get(a, 0) == table_of_number.get(b, -1)
        ]
        views.append(RoundView(number, round_tables, [by_number[b] for b in byes[number]], together, number in started))
    view = TournamentView(t, entrants, names, guests, views)
    drawn = len(views)
    view.standings.extend(_ranked(entrants, names, points, solos, range(1, drawn + 1), t.seed))
    for number in range(1, drawn + 1):
        played_it = [e for e in entrants if number in points[e.number]]
        view.round_standings[number] = _ranked(played_it, names, points, solos, (number,), t.seed)
    return view


def _ranked(
    entrants: list[Entrant], names: dict[int, str], points: dict, solos: dict, rounds: Any, seed: str
) -> list[Line]:
    """The standings of ``entrants`` over ``rounds``: their points and solos there (unknown solos count 0)."""
    by_number = {e.number: e for e in entrants}
    entries, known = [], {}
    for e in entrants:
        played = solos[e.number]  # round -> [won, lost], None where a paper list left them out
        counts = [played[r] for r in rounds if r in played]  # a round not played has no solos, none unknown
        known[e.number] = all(c is not None for c in counts)
        entries.append(
            plan.Entry(
                e.number,
                tuple(points[e.number].get(r) for r in rounds),
                sum(c[0] for c in counts if c),
                sum(c[1] for c in counts if c),
            )
        )
    ranked = plan.standings(entries, seed) if entries else []
    return [Line(by_number[s.player], names[s.player], s, known[s.player]) for s in ranked]


@dataclass(frozen=True)
class Played:
    """A tournament a player played: their place and points (points, never money)."""

    tournament: Tournament
    rank: int
    total: int
    entrants: int


def player_tournaments(*, db: Session, player_id: int) -> list[Played]:
    """The tournaments a player entered, newest first, with their rank and points."""
    ids = db.exec(
        select(Entrant.tournament_id)
        .join(Tournament, Tournament.id == Entrant.tournament_id)
        .where(Entrant.player_id == player_id)
        .order_by(Tournament.played_on.desc(), Tournament.id.desc())
    ).all()
    played = []
    for tournament_id in ids:
        view = read_tournament(db=db, tournament_id=tournament_id)
        line = next(line for line in view.standings if line.entrant.player_id == player_id)
        played.append(Played(view.tournament, line.standing.rank, line.standing.total, len(view.entrants)))
    return played


def seats_of(db: Session, night_ids: list[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    if night_ids:
        for night_id, _, player_id in db.exec(
            select(Seat.night_id, Seat.position, Seat.player_id)
            .where(Seat.night_id.in_(night_ids))
            .order_by(Seat.night_id, Seat.position)
        ):
            out.setdefault(night_id, []).append(player_id)
    return out


def _hands(db: Session, night_ids: list[int]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    if night_ids:
        for night_id, data in db.exec(
            select(HandRecord.night_id, HandRecord.data)
            .where(HandRecord.night_id.in_(night_ids))
            .order_by(HandRecord.night_id, HandRecord.number)
        ):
            out.setdefault(night_id, []).append(data)
    return out


def former_of(entrants: list[Entrant]) -> dict[int, Entrant]:
    """The people start numbers had before a replacement: their earlier tables' seats are the entrant's."""
    return {f["player_id"]: e for e in entrants for f in e.former or ()}


def _units(db: Session, night: Night) -> list[int]:
    """A table's points per table position so far: the sums stored with its last hand."""
    last = last_hand(db=db, night_id=night.id)
    if last is None:
        return [0] * night.seat_count
    if last.running is None:  # not stored (cannot happen for a table recorded by this version)
        return list(read_table(db=db, night=night).balance)
    return list(last.running.units)


def started_rounds(db: Session, t: Tournament, number: int | None = None) -> set[int]:
    """The rounds (or only round ``number``) of which a table has a hand, or ever had one (all taken back
    after a reopening: the audit trail keeps them, and drawing the round again would delete it), or has
    points from paper, or had them (cleared: the audit trail keeps the points taken back, the same)."""
    of = [TournamentTable.tournament_id == t.id] + ([] if number is None else [TournamentTable.round == number])
    rounds = select(TournamentTable.round).where(*of).distinct()
    started = set(db.exec(rounds.where(TournamentTable.paper.is_not(None))).all())
    started |= set(db.exec(rounds.join(HandRecord, HandRecord.night_id == TournamentTable.night_id)).all())
    audit = AuditEntry.night_id == TournamentTable.night_id
    started |= set(db.exec(rounds.join(AuditEntry, audit).where(AuditEntry.action.in_(("record", "import")))).all())
    reopened = select(TournamentTable.round, AuditEntry.after).join(AuditEntry, audit).where(*of)
    for round_number, after in db.exec(reopened.where(AuditEntry.action == "reopen")).all():
        if isinstance(after, dict) and after.get("why") == PAPER_CLEARED:
            started.add(round_number)
    return started
