"""Tournaments: the use cases (create, enter, withdraw, draw, paper results, close) and the read
model (rounds, tables, standings).

A tournament's table is a night (``Night.tournament_id``): its phone joins and records the deals
exactly as at a club night, under the tournament's rule set, and the night closes itself after
the tournament's number of deals (``Night.deals``; a hand dealt again does not count). Its points
are never money and never in the club's history (``history.night_rows``). The draw and the
standings are the engine's (:mod:`scorekeeper.engine.tournament`); docs/tournaments.md says how
they work.
"""

from __future__ import annotations

import itertools
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from typing import Any, get_args

from sqlalchemy import delete, func
from sqlmodel import Session, select

from scorekeeper.core import lifecycle
from scorekeeper.core.errors import N_, Conflict, InvalidInput, N_plural, NotFound, Refusal
from scorekeeper.core.models import (
    CLOSED,
    OPEN,
    AuditEntry,
    ContractResult,
    Entrant,
    HandRecord,
    Night,
    NightResult,
    Player,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
    utcnow,
)
from scorekeeper.core.nights import add_night, bump, check_date, close_locked, lock_night, touch
from scorekeeper.core.players import LooksLikeSeveral, match_names, player_named
from scorekeeper.core.stored import deals_played, last_hand
from scorekeeper.core.table import read_table
from scorekeeper.core.text import clean_name, has_control, is_id, name_key
from scorekeeper.engine import GAMES, get_game
from scorekeeper.engine import tournament as plan
from scorekeeper.engine.rules import rules_to_json

__all__ = [
    "TOURNAMENT_GAMES",
    "add_entrant",
    "allow_together",
    "clear_paper",
    "close_tournament",
    "create_tournament",
    "draw_round",
    "enter_paper",
    "get_tournament",
    "keep_apart",
    "list_tournaments",
    "paper_problems",
    "player_tournaments",
    "read_tournament",
    "redraw_round",
    "reopen_tournament",
    "replace_entrant",
    "set_rules",
    "table_of",
    "take_back_withdrawal",
    "ties",
    "withdraw_entrant",
]

#: The games a tournament can be: those played at tables of four and of five.
TOURNAMENT_GAMES = tuple(name for name, g in GAMES.items() if {4, 5} <= set(g.table_sizes))
NAME_MAX = 80
ROUNDS_MAX = 20
DEALS_MAX = 200
FEE_MAX_CENTS = 100_000
PRIZES_MAX = 50
PRIZE_MAX_CENTS = 10_000_000
ENTRANTS_MAX = 1000
#: The most pairs of participants a tournament keeps apart.
APART_MAX = 200
#: A night's uid is at most this long (``Night.uid``): what a paper list says it was made for.
UID_MAX = 32
#: What a paper list may say a player scored in a round (far beyond any real round).
PAPER_MAX = 100_000
#: The solos a paper list cannot have (one declarer per deal), the one place of the rule and of its words
#: (:func:`enter_paper`): a player's won and lost together (their field ``solos.i``, 0-based by table
#: position), and the whole table's (``solos``). The paper form says each refused at once at its field.
PLAYER_SOLOS = N_("a player's solos won and lost together may not exceed {n}")
TABLE_SOLOS = N_("the solos of all players together may not exceed {n}, one per deal: these are {total}")
#: A replacement refused: the page asked about another person than who has the place now (:func:`replace_entrant`).
REPLACED_MEANWHILE = N_("start number {n} was replaced meanwhile: nothing was changed, see who has the place now")
#: A paper form's refusals where it is stale (:func:`paper_form_refusal`): the table drawn again, another
#: person seated, its points (or anything else of it) changed since the form was made.
TABLE_REDRAWN = N_("table {n} was drawn again meanwhile: nothing was saved, its new players are on the form")
SEATS_CHANGED = N_("the players of table {n} changed meanwhile: nothing was saved, they are on the form now")
PAPER_CHANGED = N_(
    "the points of table {n} were changed meanwhile by someone else: nothing was saved, the form shows them now"
)
#: The audit trail's word for a table's paper points taken back (:func:`clear_paper`): its round has started.
PAPER_CLEARED = "paper cleared"


# --- reading ------------------------------------------------------------------------------


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
    #: not drawn again, and round 1 started fixes the rules (:func:`_started_rounds`)
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
    seats = _seats(db, [n.id for _, n in tables])
    hands = _hands(db, [n.id for tt, n in tables if tt.paper is None])
    by_player |= _former(entrants)
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
    started = _started_rounds(db, t) if byes else set()
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


def _seats(db: Session, night_ids: list[int]) -> dict[int, list[int]]:
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


def _former(entrants: list[Entrant]) -> dict[int, Entrant]:
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


# --- writing ------------------------------------------------------------------------------


def _text(value: Any, name: str, most: int, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput(name, "must be text")
    value = unicodedata.normalize("NFC", value).strip()
    if required and not value:
        raise InvalidInput(name, "give the tournament a name")
    if len(value) > most or has_control(value):
        raise InvalidInput(
            name,
            *N_plural(
                "at most {n} character and no control characters", "at most {n} characters and no control characters"
            ),
            n=most,
        )
    return value


def _count(value: Any, name: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidInput(name, "must be a whole number from {lo} to {hi}", lo=lo, hi=hi)
    return value


def _prizes(value: Any) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or len(value) > PRIZES_MAX:
        raise InvalidInput(
            "prizes",
            *N_plural(
                "the prizes are a list of at most {n} amount in cents",
                "the prizes are a list of at most {n} amounts in cents",
            ),
            n=PRIZES_MAX,
        )
    for amount in value:
        if type(amount) is not int or not 0 <= amount <= PRIZE_MAX_CENTS:
            raise InvalidInput("prizes", "each prize must be a whole number of cents from 0 to {n}", n=PRIZE_MAX_CENTS)
    return list(value)


def _complete_rules(game: str, rules: Any) -> dict[str, Any]:
    g = get_game(game)
    if g.name not in TOURNAMENT_GAMES:
        raise InvalidInput(
            "game", "a tournament is played at tables of four and five: {games}", games=", ".join(TOURNAMENT_GAMES)
        )
    return rules_to_json(g.parse_rules(rules))


def create_tournament(
    *,
    db: Session,
    name: Any,
    game: Any,
    rules: Any,
    played_on: date | None = None,
    place: Any = "",
    rounds: Any = 2,
    deals: Any = 32,
    entry_fee_cents: Any = 0,
    prizes: Any = None,
    seed: str | None = None,
    currency: Any = "EUR",
) -> Tournament:
    """Create a tournament (no entrants, no round yet). ``rules``: the game's rule set, e.g.
    ``{"preset": "turnier"}``, completed and stored. ``currency``: the fee's and the prizes', the club's
    (``SCOREKEEPER_CURRENCY``: the pages and the API hand it in), kept as the tournament's whatever the club's
    becomes later.

    :raises InvalidInput: for a bad name, place, count, fee, prize or currency; :raises InvalidHand: for bad rules.
    """
    complete = _complete_rules(game, rules)
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isascii() or not currency.isalpha():
        raise InvalidInput("currency", "the currency must be a three-letter code such as EUR")
    t = Tournament(
        name=_text(name, "name", NAME_MAX, required=True),
        place=_text(place, "place", NAME_MAX, required=False),
        played_on=date.today() if played_on is None else check_date(played_on),
        game=get_game(game).name,
        rules=complete,
        rounds=_count(rounds, "rounds", 1, ROUNDS_MAX),
        deals=_count(deals, "deals", 1, DEALS_MAX),
        entry_fee_cents=_count(entry_fee_cents, "entry_fee_cents", 0, FEE_MAX_CENTS),
        prizes=_prizes(prizes),
        currency=currency.upper(),
        seed=seed if seed is not None else secrets.token_hex(8),
    )
    db.add(t)
    db.commit()
    return t


def _bump(db: Session, t: Tournament) -> None:
    """Every change to a tournament bumps its version (the standings board polls it)."""
    t.version += 1
    db.add(t)


def _people(db: Session, tournament_id: Any, people: tuple[Any, ...]) -> set[int]:
    """The ids of a tournament's people as they are now: ``people``, its participants and those they replaced
    (still seated at earlier tables)."""
    ids = {i for i in people if is_id(i)}
    if is_id(tournament_id):
        for player_id, former in db.exec(
            select(Entrant.player_id, Entrant.former).where(Entrant.tournament_id == tournament_id)
        ):
            ids.add(player_id)
            ids |= {f["player_id"] for f in former or () if is_id(f.get("player_id"))}
    return ids


def _lock_people(
    db: Session, tournament_id: Any, people: tuple[Any, ...] = (), ids: set[int] | None = None
) -> set[int]:
    """Hold the players' rows a change to the tournament may write or lock against a merge or a guest made a
    member, before the tournament's row: the app's one order of locks (docs/architecture.md, "The order of
    locks"). Its participants', the people they replaced (``Entrant.former``: still seated at the earlier
    rounds' tables, whose nights a paper correction locks, and ``lock_night`` holds a night's players), and
    ``people``, who enter or take a place (``ids``: them as read already, :func:`_people`). ``FOR KEY
    SHARE``, in id order: two tournaments' changes never wait for each other here; a merge waits for them, or
    they for it (and then find the merged record gone: no such player). Returns the ids held."""
    ids = _people(db, tournament_id, people) if ids is None else ids
    if ids:
        query = select(Player.id).where(Player.id.in_(sorted(ids))).order_by(Player.id)
        db.exec(query.with_for_update(read=True, key_share=True)).all()
    return ids


def _open_tournament(db: Session, tournament_id: Any, people: tuple[Any, ...] = ()) -> Tournament:
    """The tournament for a change to it, its row locked to the end of the transaction, after its people's
    (:func:`_lock_people`).

    The people are read before their locks, so a replacement committed in between (or a merge moving a
    participant to another record) would leave a person unheld, held later out of the order of locks
    (``lock_night``'s players, after the tournament's and the night's rows): a merge of them at that instant
    waited for the change while the change waited for it, a deadlock. So they are read again under the
    tournament's lock, where they no longer change (every change of the participants holds it: an entry, a
    replacement, a merge bumps the tournament); where the set grew, the locks are given back (a savepoint
    rolled back releases its row locks) and taken again, in order, with the new people. SQLite's ``BEGIN
    IMMEDIATE`` serialises the writers: one pass there.

    :raises NotFound: for an unknown one; :raises Conflict: for a closed one.
    """
    ids = _people(db, tournament_id, people)
    while True:
        held = db.begin_nested()
        try:
            _lock_people(db, tournament_id, people, ids)
            t = get_tournament(db=db, tournament_id=tournament_id, lock=True)
            now = _people(db, tournament_id, people)
        except BaseException:
            held.rollback()
            raise
        if now <= ids:
            held.commit()  # the savepoint released, its locks kept to the transaction's end
            break
        held.rollback()
        ids |= now
    if not t.is_open:
        raise Conflict("this tournament is closed: nothing can be changed")
    return t


def set_rules(*, db: Session, tournament_id: Any, rules: Any) -> Tournament:
    """Change the rule set before round 1 starts (a table of round 1 drawn already plays it too);
    from then on it is fixed."""
    t = _open_tournament(db, tournament_id)
    if _round_started(db, t, 1):
        raise Conflict("round 1 has started: the rules are fixed for the whole tournament")
    t.rules = _complete_rules(t.game, rules)
    for night_id in db.exec(select(Night.id).where(Night.tournament_id == t.id).order_by(Night.id)).all():
        night = lock_night(db=db, night_id=night_id)
        night.rules = t.rules
        bump(db=db, night=night)  # a table's phone open on it reloads its form for the new rules
    _bump(db, t)
    db.commit()
    return t


def _last_round(db: Session, t: Tournament) -> int:
    return db.exec(select(func.max(TournamentRound.number)).where(TournamentRound.tournament_id == t.id)).one() or 0


def _round_done(db: Session, t: Tournament, number: int) -> bool:
    return (
        db.exec(
            select(Night.id)
            .join(TournamentTable, TournamentTable.night_id == Night.id)
            .where(TournamentTable.tournament_id == t.id, TournamentTable.round == number, Night.status == OPEN)
            .limit(1)
        ).first()
        is None
    )


def _round_started(db: Session, t: Tournament, number: int) -> bool:
    """Whether round ``number`` has started (:func:`_started_rounds`).

    The round's table nights are locked first (the lock a hand takes, in id order: docs/architecture.md,
    "The order of locks"), so that the answer holds to the end of the transaction: a hand saved at the same
    moment either is counted here or waits, and then finds its table drawn again (gone)."""
    nights = select(TournamentTable.night_id).where(
        TournamentTable.tournament_id == t.id, TournamentTable.round == number
    )
    db.exec(select(Night.id).where(Night.id.in_(nights)).order_by(Night.id).with_for_update()).all()
    return number in _started_rounds(db, t, number)


def _started_rounds(db: Session, t: Tournament, number: int | None = None) -> set[int]:
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


def _new_entrant_player(db: Session, t: Tournament, player_id: Any, guest: Any) -> Player:
    """The player of the roster or the new guest who enters (or takes a place); not entered yet."""
    if (player_id is None) == (guest is None or guest == ""):
        raise InvalidInput("player", "choose a player of the roster or type a guest's name")
    if player_id is not None:  # a member, or a guest of an earlier tournament entered again
        player = db.get(Player, player_id, populate_existing=True) if is_id(player_id) else None
        if player is None:  # none, or merged away meanwhile
            raise InvalidInput("player", "there is no player {id}", id=player_id)
    else:
        name = clean_name(guest)
        player = _person_named(db, name)  # a guest who comes back is the same guest (their name, as it looks)
        if player is not None and not player.guest:
            raise InvalidInput(
                "guest", "there is already a player called {name}: choose them from the roster", name=name
            )
        if player is None:
            player = Player(name=name, guest=True)
            db.add(player)
            db.flush()
    for e in db.exec(select(Entrant).where(Entrant.tournament_id == t.id)):
        if e.player_id == player.id or any(f["player_id"] == player.id for f in e.former or ()):
            raise InvalidInput("player", "{name} is entered already", name=player.name)
    return player


def _person_named(db: Session, name: str) -> Player | None:
    """The player (a member or a guest) a name typed for a guest means: the one of exactly that name, else
    the one whose name looks like it (core/text.py ``name_key``); None: nobody. The roster's names are
    locked to the commit (:func:`scorekeeper.core.players.player_named`).

    :raises InvalidInput: where it is none of them exactly and looks like two or more (names stored before
        today's rule may look alike): which one is meant is not guessed, the refusal names them with their
        ids (the entrant form's list marks them so)."""
    if player_named(db, name) is None:  # takes the names' lock; nobody looks like it
        return None
    key = name_key(name)
    alike = [p for p in db.exec(select(Player).order_by(Player.id)) if name_key(p.name) == key]
    try:
        (player,) = match_names(alike, [name])
    except LooksLikeSeveral as err:
        raise InvalidInput(
            "guest",
            "several look like {name}: {choices}; choose the one meant from the list",
            name=name,
            choices=", ".join(f"{p.name} (id {p.id})" for p in err.players),
        ) from None
    return player


def add_entrant(*, db: Session, tournament_id: Any, player_id: Any = None, guest: Any = None) -> Entrant:
    """Enter a player of the roster (``player_id``), a guest of an earlier tournament again (``player_id``),
    or a new guest (``guest``: a name; a start number, never on the roster or in the club's history). The
    next start number is theirs; a player entered after a round was drawn plays from the next round on.

    :raises Conflict: once every round is drawn (they would play none).
    """
    t = _open_tournament(db, tournament_id, (player_id,))
    if _last_round(db, t) >= t.rounds:
        raise Conflict(
            *N_plural(
                "the only round is drawn: a participant entered now would play none",
                "all {n} rounds are drawn: a participant entered now would play none",
            ),
            n=t.rounds,
        )
    player = _new_entrant_player(db, t, player_id, guest)
    count = db.exec(select(func.count()).where(Entrant.tournament_id == t.id)).one()
    if count >= ENTRANTS_MAX:
        raise InvalidInput(
            "player",
            *N_plural("a tournament has at most {n} participant", "a tournament has at most {n} participants"),
            n=ENTRANTS_MAX,
        )
    number = (db.exec(select(func.max(Entrant.number)).where(Entrant.tournament_id == t.id)).one() or 0) + 1
    entrant = Entrant(tournament_id=t.id, number=number, player_id=player.id)
    db.add(entrant)
    _bump(db, t)
    db.commit()
    return entrant


def withdraw_entrant(*, db: Session, tournament_id: Any, number: Any) -> Entrant:
    """Withdraw a participant between rounds: not drawn again; their points so far stay. During a
    drawn round that has not started, the round is drawn again without them."""
    t = _open_tournament(db, tournament_id)
    entrant = _entrant(db, t, number)
    if entrant.withdrawn_after is not None:
        raise Conflict("this participant has withdrawn already")
    last = _last_round(db, t)
    redraw = False
    if last and not _round_done(db, t, last):
        if _round_started(db, t, last):
            raise Conflict("round {n} is being played: withdraw the participant when it is over", n=last)
        redraw = True
        entrant.withdrawn_after = last - 1
    else:
        entrant.withdrawn_after = last
    db.add(entrant)
    _bump(db, t)
    if redraw:  # drawn again without them, its count of draws kept (only "draw again" counts one more)
        attempt = _undraw(db, t, last)
        db.flush()
        _draw(db, t, last, attempt)
    db.commit()
    return entrant


def _numbers(db: Session, t: Tournament, first: Any, second: Any) -> tuple[int, int]:
    """Two participants' start numbers, smaller first. :raises InvalidInput: for an unknown or the same one."""
    numbers = set(db.exec(select(Entrant.number).where(Entrant.tournament_id == t.id)))
    for name, value in (("first", first), ("second", second)):
        if type(value) is not int or value not in numbers:
            raise InvalidInput(name, "there is no participant {n}", n=value)
    if first == second:
        raise InvalidInput("second", "choose two different participants")
    return (first, second) if first < second else (second, first)


def keep_apart(*, db: Session, tournament_id: Any, first: Any, second: Any) -> Tournament:
    """Seat two participants (start numbers) at different tables in every round drawn from now on (the
    draw honours it before it avoids repeated table-mates, and says when it cannot). A drawn round that
    has not started and seats them together is drawn again."""
    t = _open_tournament(db, tournament_id)
    a, b = _numbers(db, t, first, second)
    if [a, b] in t.keep_apart:
        raise InvalidInput("second", "{a} and {b} are kept apart already", a=a, b=b)
    if len(t.keep_apart) >= APART_MAX:
        raise InvalidInput(
            "second",
            *N_plural("a tournament keeps at most {n} pair apart", "a tournament keeps at most {n} pairs apart"),
            n=APART_MAX,
        )
    t.keep_apart = sorted([*t.keep_apart, [a, b]])
    last = _last_round(db, t)
    if last and not _round_started(db, t, last) and _together(db, t, last, a, b):
        attempt = _undraw(db, t, last)
        db.flush()
        _draw(db, t, last, attempt)
    _bump(db, t)
    db.commit()
    return t


def allow_together(*, db: Session, tournament_id: Any, first: Any, second: Any) -> Tournament:
    """No longer keep two participants apart (from the next draw on)."""
    t = _open_tournament(db, tournament_id)
    a, b = _numbers(db, t, first, second)
    if [a, b] not in t.keep_apart:
        raise InvalidInput("second", "{a} and {b} are not kept apart", a=a, b=b)
    t.keep_apart = [pair for pair in t.keep_apart if pair != [a, b]]
    _bump(db, t)
    db.commit()
    return t


def _together(db: Session, t: Tournament, number: int, a: int, b: int) -> bool:
    """Whether participants ``a`` and ``b`` sit at one table of round ``number``."""
    rows = db.exec(
        select(TournamentTable.night_id, Entrant.number)
        .join(Seat, Seat.night_id == TournamentTable.night_id)
        .join(Entrant, (Entrant.player_id == Seat.player_id) & (Entrant.tournament_id == t.id))
        .where(TournamentTable.tournament_id == t.id, TournamentTable.round == number, Entrant.number.in_([a, b]))
    ).all()
    return len(rows) == 2 and rows[0][0] == rows[1][0]


def _entrant(db: Session, t: Tournament, number: Any) -> Entrant:
    """A participant, read afresh after the tournament's lock (``t`` locked): a page read them before it
    waited for the lock, and another organiser's withdrawal or replacement may have come in between."""
    query = select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == number)
    entrant = db.exec(query.execution_options(populate_existing=True)).first() if is_id(number) else None
    if entrant is None:
        raise NotFound(f"no participant {number}")
    return entrant


def take_back_withdrawal(*, db: Session, tournament_id: Any, number: Any) -> Entrant:
    """Take a withdrawal back until a round without them starts: before the next round is drawn,
    or while it has not started (it is then drawn again with them, as a withdrawal draws it again
    without them)."""
    t = _open_tournament(db, tournament_id)
    entrant = _entrant(db, t, number)
    if entrant.withdrawn_after is None:
        raise Conflict("this participant has not withdrawn")
    last = _last_round(db, t)
    redraw = entrant.withdrawn_after == last - 1 and not _round_started(db, t, last)
    if entrant.withdrawn_after < last and not redraw:
        raise Conflict(
            "round {n} has started without them: the withdrawal can no longer be taken back",
            n=entrant.withdrawn_after + 1,
        )
    entrant.withdrawn_after = None
    db.add(entrant)
    _bump(db, t)
    if redraw:
        attempt = _undraw(db, t, last)
        db.flush()
        _draw(db, t, last, attempt)
    db.commit()
    return entrant


def replace_entrant(
    *, db: Session, tournament_id: Any, number: Any, player_id: Any = None, guest: Any = None, was: Any = None
) -> Entrant:
    """Another person takes a participant's place: the start number and the points so far stay, the
    earlier tables stay the earlier person's (``Entrant.former`` keeps who and when). Between rounds,
    or in a drawn round that has not started (the new person takes the seat); refused while a round
    is being played, once every round is played (the new person would play none and take the place, the
    points and the prize of who played), and for a participant who has withdrawn. ``was`` (optional): the
    player whose place is taken, as the page asking showed them: refused where another organiser replaced
    them meanwhile (nothing is made, no guest either)."""
    t = _open_tournament(db, tournament_id, (player_id,))
    entrant = _entrant(db, t, number)
    if was is not None and entrant.player_id != was:
        raise Conflict(REPLACED_MEANWHILE, n=entrant.number)
    if entrant.withdrawn_after is not None:
        raise Conflict("this participant has withdrawn: take the withdrawal back first")
    last = _last_round(db, t)
    running = bool(last) and not _round_done(db, t, last)
    if running and _round_started(db, t, last):
        raise Conflict("round {n} is being played: replace the participant when it is over", n=last)
    if last >= t.rounds and not running:  # the replacement would play none and stand in the place of who played
        raise Conflict("all rounds are played: a participant replaced now would play none")
    player = _new_entrant_player(db, t, player_id, guest)
    before = db.get(Player, entrant.player_id)
    former = [
        *(entrant.former or ()),
        {
            "player_id": before.id,
            "name": before.name,
            "after_round": last - 1 if running else last,
            "at": utcnow().isoformat(timespec="seconds"),
        },
    ]
    entrant.former = former
    entrant.player_id = player.id
    db.add(entrant)
    if running:  # the drawn round's seat is the new person's
        nights = select(TournamentTable.night_id).where(
            TournamentTable.tournament_id == t.id, TournamentTable.round == last
        )
        for seat in db.exec(select(Seat).where(Seat.night_id.in_(nights), Seat.player_id == before.id)):
            seat.player_id = player.id
            db.add(seat)
            bump(db=db, night=lock_night(db=db, night_id=seat.night_id))  # its phone names the new person at once
    _bump(db, t)
    db.commit()
    return entrant


def draw_round(*, db: Session, tournament_id: Any) -> TournamentRound:
    """Draw the next round: its tables (each a night for one phone) and who sits out."""
    t = _open_tournament(db, tournament_id)
    last = _last_round(db, t)
    if last >= t.rounds:
        raise Conflict(*N_plural("the only round is drawn", "all {n} rounds are drawn"), n=t.rounds)
    if last and not _round_done(db, t, last):
        raise Conflict("round {n} is not over: every table must finish its deals first", n=last)
    drawn = _draw(db, t, last + 1)
    _bump(db, t)
    db.commit()
    return drawn


def redraw_round(*, db: Session, tournament_id: Any) -> TournamentRound:
    """Draw the current round again, before any of its tables has started (with another lot)."""
    t = _open_tournament(db, tournament_id)
    last = _last_round(db, t)
    if not last:
        raise Conflict("no round is drawn yet")
    if _round_started(db, t, last):
        raise Conflict("round {n} has started: it cannot be drawn again", n=last)
    attempt = _undraw(db, t, last) + 1
    db.flush()
    drawn = _draw(db, t, last, attempt)
    _bump(db, t)
    db.commit()
    return drawn


def _undraw(db: Session, t: Tournament, number: int) -> int:
    """Take a round's draw back (its tables have no hands); returns how many times it was drawn before."""
    round_row = db.get(TournamentRound, (t.id, number))
    attempt = round_row.attempt if round_row is not None else 0
    night_ids = list(
        db.exec(
            select(TournamentTable.night_id).where(
                TournamentTable.tournament_id == t.id, TournamentTable.round == number
            )
        )
    )
    db.exec(delete(TournamentTable).where(TournamentTable.tournament_id == t.id, TournamentTable.round == number))
    for model in (ContractResult, NightResult, AuditEntry, HandRecord, Seat):
        db.exec(delete(model).where(model.night_id.in_(night_ids)))
    db.exec(delete(Night).where(Night.id.in_(night_ids)))
    if round_row is not None:
        db.delete(round_row)
    return attempt


def _draw(db: Session, t: Tournament, number: int, attempt: int = 0) -> TournamentRound:
    entrants = list(db.exec(select(Entrant).where(Entrant.tournament_id == t.id).order_by(Entrant.number)))
    playing = [e for e in entrants if e.withdrawn_after is None or e.withdrawn_after >= number]
    if len(playing) < 4:
        raise Conflict("a round needs at least 4 participants, not {n}", n=len(playing))
    history: list[list[list[int]]] = []
    tables = db.exec(
        select(TournamentTable.round, TournamentTable.night_id)
        .where(TournamentTable.tournament_id == t.id, TournamentTable.round < number)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    seats = _seats(db, [night_id for _, night_id in tables])
    by_player = {e.player_id: e.number for e in entrants} | {p: e.number for p, e in _former(entrants).items()}
    for round_number, night_id in tables:
        while len(history) < round_number:
            history.append([])
        history[round_number - 1].append([by_player[p] for p in seats.get(night_id, [])])
    byes_so_far: dict[int, int] = {}
    for r in db.exec(select(TournamentRound).where(TournamentRound.tournament_id == t.id)):
        for b in r.byes:
            byes_so_far[b] = byes_so_far.get(b, 0) + 1
    seed = t.seed if attempt == 0 else f"{t.seed}/{attempt}"
    drawn = plan.draw_round(
        [e.number for e in playing], history, seed, number, byes_so_far, rounds=t.rounds, keep_apart=t.keep_apart
    )
    player_of = {e.number: e.player_id for e in entrants}
    for table_number, table in enumerate(drawn.tables, start=1):
        night = add_night(
            db=db,
            game=t.game,
            rules=t.rules,
            stake_cents=0,
            player_ids=[player_of[n] for n in table],
            first_dealer=1,
            played_on=t.played_on,
            place=t.place,
            tournament_id=t.id,
            deals=t.deals,
        )
        db.add(
            TournamentTable(
                tournament_id=t.id,
                round=number,
                number=table_number,
                night_id=night.id,
                solos=[[0, 0] for _ in table],
            )
        )
    round_row = TournamentRound(tournament_id=t.id, number=number, byes=list(drawn.byes), attempt=attempt)
    db.add(round_row)
    return round_row


def enter_paper(
    *,
    db: Session,
    tournament_id: Any,
    round_number: Any,
    table: Any,
    points: Any,
    solos: Any = None,
    who: str | None = lifecycle.SYSTEM,
    night_uid: Any = None,
    player_ids: Any = None,
    night_version: Any = None,
) -> TournamentTable:
    """A table's final points per player typed from its paper list (by table position) instead of
    recorded deal by deal: refused unless they sum to zero, or when the table has deals recorded.
    ``solos``: each player's solos won and lost, ``[won, lost]`` or None where the list does not say
    (the standings then call them unknown). The table is then done.

    ``night_uid`` and ``player_ids`` (optional): the table's night and its players (by table position)
    the form was made for. The points go by position, so where the round was drawn again meanwhile (a
    new night, or no such table any more) or another person took a seat, they are refused: they were
    typed for other people. ``night_version`` (optional): the table's night's version the form was made at:
    where its points were entered, corrected or cleared since (another organiser's form), or anything else
    of the table changed, they are refused (:func:`paper_form_refusal`). Each of the three in a wrong shape
    (a uid that is no text, ids that are no list of whole numbers, a version that is no whole number) is
    refused naming it (``InvalidInput``), before anything is looked up: the one check of the paper form and
    the API alike (the form says its own hidden fields' refusal as stale)."""
    refused = _made_for_refusal(night_uid, player_ids, night_version)
    if refused is not None:
        raise refused
    try:
        t, row, night = _paper_table(db, tournament_id, round_number, table, who)
    except NotFound:  # a table of the night it names gone: its round was drawn again with fewer tables
        if night_uid is None or not is_id(tournament_id) or not is_id(round_number):
            raise
        if db.get(TournamentRound, (tournament_id, round_number)) is None:
            raise
        raise Conflict(
            "round {r} was drawn again meanwhile: table {n} is gone and nothing was saved", r=round_number, n=table
        ) from None
    refused = paper_form_refusal(
        row.number,
        night,
        _seat_players(db, night.id),
        night_uid=night_uid,
        player_ids=player_ids,
        night_version=night_version,
    )
    if refused is not None:
        raise refused
    if solos is None:
        solos = [None] * night.seat_count
    problems = paper_problems(points, solos, seats=night.seat_count, deals=t.deals)
    if problems:  # every field's at once (a form says each at its field), the first raised
        problems[0].also = tuple(problems[1:])
        raise problems[0]
    row.paper = list(points)
    row.solos = [None if pair is None else list(pair) for pair in solos]
    db.add(row)
    if night.is_open:
        close_locked(db=db, night=night, why="paper")
    else:
        bump(db=db, night=night)
    _bump(db, t)
    db.commit()
    return row


def paper_problems(points: Any, solos: Any, *, seats: int, deals: int) -> list[InvalidInput]:
    """Everything wrong with a paper list's figures at a table of ``seats`` players playing ``deals`` deals, in
    the order found (none: they may be entered): the one place of their ranges and rules, which
    :func:`enter_paper` asks under its locks and the paper form's page asks of a post its fields could not all
    read (a word typed where a number belongs: only the form knows that), so that the page says every problem
    at once. Each names its field: a player's points ``points.i`` and solos ``solos.i`` (0-based by table
    position), the whole list's ``points`` (their number, their sum) and ``solos``."""
    return [*_points_refusals(points, seats), *_solos_refusals(solos, seats, deals)]


def _points_refusals(points: Any, seats: int) -> list[InvalidInput]:
    """What is wrong with a paper list's ``points``: each player's out of range (``points.i``), else their
    sum (``points``: a sum of figures out of range says nothing more)."""
    if not isinstance(points, list | tuple) or len(points) != seats:
        return [
            InvalidInput(
                "points",
                *N_plural("give the points of the one player", "give the points of each of the {n} players"),
                n=seats,
            )
        ]
    refused = [
        InvalidInput(f"points.{i}", "each player's points are a whole number from -{n} to {n}", n=PAPER_MAX)
        for i, p in enumerate(points)
        if type(p) is not int or not -PAPER_MAX <= p <= PAPER_MAX
    ]
    if refused:
        return refused
    if sum(points) != 0:
        return [
            InvalidInput("points", "a table's points must add up to zero: these add up to {total}", total=sum(points))
        ]
    return []


def _solos_refusals(solos: Any, seats: int, deals: int) -> list[InvalidInput]:
    """What is wrong with a paper list's ``solos``: each player's refusal (``solos.i``, 0-based by table
    position: the one place of their rules, ``PLAYER_SOLOS``), then the whole table's (``solos``,
    ``TABLE_SOLOS``: one declarer per deal, counted over the players' solos that are whole numbers in range)."""
    if not isinstance(solos, list | tuple) or len(solos) != seats:
        return [
            InvalidInput(
                "solos",
                *N_plural("give the solos of the one player", "give the solos of each of the {n} players"),
                n=seats,
            )
        ]
    refused: list[InvalidInput] = []
    total = 0
    for i, pair in enumerate(solos):
        if pair is None:
            continue
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or any(type(c) is not int or not 0 <= c <= deals for c in pair)
        ):
            refused.append(
                InvalidInput(
                    f"solos.{i}",
                    *N_plural(
                        "solos won and lost are whole numbers from 0 to {n} deal",
                        "solos won and lost are whole numbers from 0 to {n} deals",
                    ),
                    n=deals,
                )
            )
            continue
        total += sum(pair)
        if sum(pair) > deals:
            refused.append(InvalidInput(f"solos.{i}", PLAYER_SOLOS, n=deals))
    if total > deals:  # a table has at most as many solos as deals
        refused.append(InvalidInput("solos", TABLE_SOLOS, n=deals, total=total))
    return refused


def paper_form_refusal(
    number: int, night: Night, seated: list[int], *, night_uid: Any, player_ids: Any, night_version: Any
) -> Refusal | None:
    """Why a paper form made for table ``number`` (its night's uid, its players by table position, the
    night's version: each None where the form does not say) is stale now that the table is ``night`` with
    ``seated`` (by table position), or None. One of them in a wrong shape is refused naming it
    (``InvalidInput``, :func:`_made_for_refusal`), never taken for stale. The core asks under the night's
    lock; the form's page asks it first, before it reads the form's fields (old points under new names are
    not worth a word)."""
    refused = _made_for_refusal(night_uid, player_ids, night_version)
    if refused is not None:
        return refused
    if night_uid is not None and night_uid != night.uid:
        return Conflict(TABLE_REDRAWN, n=number)
    if player_ids is not None and list(player_ids) != list(seated):
        return Conflict(SEATS_CHANGED, n=number)
    if night_version is not None and night_version != night.version:
        return Conflict(PAPER_CHANGED, n=number)
    return None


def _made_for_refusal(night_uid: Any, player_ids: Any, night_version: Any) -> InvalidInput | None:
    """What a paper list says it was made for, in a wrong shape, refused naming the field; None where each is
    None (not said) or of its shape: the one check of the form and the API (:func:`enter_paper`)."""
    if night_uid is not None and not (isinstance(night_uid, str) and 0 < len(night_uid) <= UID_MAX):
        return InvalidInput("night_uid", "night_uid must be the uid of the table's night (a text)")
    if player_ids is not None and not (
        isinstance(player_ids, list | tuple) and player_ids and all(type(i) is int for i in player_ids)
    ):
        return InvalidInput("player_ids", "player_ids must be a list of player ids (whole numbers), one per seat")
    if night_version is not None and not (type(night_version) is int and night_version >= 0):
        return InvalidInput("night_version", "night_version must be the table's night_version (a whole number)")
    return None


def _seat_players(db: Session, night_id: int) -> list[int]:
    """The players of a night by table position."""
    return list(db.exec(select(Seat.player_id).where(Seat.night_id == night_id).order_by(Seat.position)))


def _paper_table(
    db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None
) -> tuple[Tournament, TournamentTable, Night]:
    """The open tournament, its table of that round and the table's night, locked, where ``who`` may
    enter (or clear) paper points there (:mod:`scorekeeper.core.lifecycle`)."""
    t = _open_tournament(db, tournament_id)
    row = db.get(TournamentTable, (t.id, round_number, table)) if is_id(round_number) and is_id(table) else None
    if row is None:
        raise NotFound(f"no table {table} in round {round_number}")
    night = lock_night(db=db, night_id=row.night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.PAPER, who)
    return t, row, night


def _clear_refusal(db: Session, t: Tournament, row: TournamentTable) -> Conflict | None:
    if row.paper is None:
        return Conflict("this table has no points from paper to clear")
    if _last_round(db, t) > row.round:
        return Conflict(
            "round {n} is drawn: the points of an earlier round's table are corrected, not cleared", n=row.round + 1
        )
    return None


def paper_refusal(
    *, db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None, clear: bool = False
) -> Conflict | None:
    """Why ``who`` may not enter (``clear``: clear) a table's paper points now, or None: what the form's page
    (the clearing's page) asks before it is shown, so that it is not filled in for nothing. Read as it is
    now, without locks: :func:`enter_paper` and :func:`clear_paper` ask again under theirs.

    :raises NotFound: for an unknown tournament or table."""
    t = get_tournament(db=db, tournament_id=tournament_id)
    row = db.get(TournamentTable, (t.id, round_number, table)) if is_id(round_number) and is_id(table) else None
    night = db.get(Night, row.night_id) if row is not None else None
    if row is None or night is None:
        raise NotFound(f"no table {table} in round {round_number}")
    if not t.is_open:
        return Conflict("this tournament is closed: nothing can be changed")
    refused = lifecycle.refusal(lifecycle.life_of(db=db, night=night), lifecycle.PAPER, who)
    if refused is None and clear:
        refused = _clear_refusal(db, t, row)
    return refused


def clear_paper(
    *, db: Session, tournament_id: Any, round_number: Any, table: Any, who: str | None = lifecycle.SYSTEM
) -> TournamentTable:
    """Take a table's paper points back (typed into the wrong table): the table is playing again, its
    phone records its deals with the code on its card, and the standings count nothing from it. The
    organiser's, as entering them is, until the next round is drawn (its players have moved on: their
    points are then corrected on the paper form). The audit trail keeps the points taken back.

    :raises Conflict: for a table without paper points, a round that is not the last drawn, or who
        may not enter paper points (:mod:`scorekeeper.core.lifecycle`).
    """
    t, row, night = _paper_table(db, tournament_id, round_number, table, who)
    refused = _clear_refusal(db, t, row)
    if refused is not None:
        raise refused
    cleared = {"why": PAPER_CLEARED, "paper": list(row.paper), "solos": row.solos}
    row.paper = None
    row.solos = [[0, 0] for _ in range(night.seat_count)]
    db.add(row)
    night.status = OPEN
    night.closed_at = None
    touch(db=db, night=night, action="reopen", number=None, before=None, after=cleared)
    _bump(db, t)
    db.commit()
    return row


def close_tournament(*, db: Session, tournament_id: Any) -> Tournament:
    """Close the tournament when every round is over: it is locked, its standings final."""
    t = _open_tournament(db, tournament_id)
    last = _last_round(db, t)
    playing = db.exec(  # the first round with a table open: the last, or one reopened to correct it
        select(func.min(TournamentTable.round))
        .join(Night, TournamentTable.night_id == Night.id)
        .where(TournamentTable.tournament_id == t.id, Night.status == OPEN)
    ).one()
    if last < t.rounds:  # the rounds not drawn yet, and the last drawn while it is played
        raise Conflict(
            *N_plural(
                "the tournament is not over: {n} round is to be played",
                "the tournament is not over: {n} rounds are to be played",
            ),
            n=t.rounds - last + (playing == last),
        )
    if playing is not None:
        raise Conflict("round {n} is not over: every table must finish its deals first", n=playing)
    t.status = CLOSED
    t.closed_at = utcnow()
    _bump(db, t)
    db.commit()
    return t


#: The most characters of a reason for reopening a tournament.
REASON_MAX = 200


def reopen_tournament(
    *, db: Session, tournament_id: Any, reason: Any, who: str | None = lifecycle.SYSTEM
) -> Tournament:
    """Open a closed tournament again (an admin, with a reason kept on the tournament and shown on
    its page): its standings are no longer final and its tables are no longer frozen, so that an
    admin can then reopen a table to correct it (:mod:`scorekeeper.core.lifecycle`).

    :raises InvalidInput: without a reason (1-200 characters, no control characters).
    :raises Conflict: for an open tournament, or ``who`` not an admin.
    """
    t = get_tournament(db=db, tournament_id=tournament_id, lock=True)
    refused = lifecycle.tournament_refusal(t, lifecycle.REOPEN, who)
    if refused is not None:
        raise refused
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("reason", "give a reason for reopening the tournament")
    reason = _text(reason, "reason", REASON_MAX, required=True)
    t.status = OPEN
    t.closed_at = None
    t.reopened = [*(t.reopened or ()), {"at": utcnow().isoformat(timespec="seconds"), "reason": reason}]
    _bump(db, t)
    db.commit()
    return t


def check_name(value: Any) -> str:
    """A tournament's name as it is stored (for forms that check before they create)."""
    return _text(value, "name", NAME_MAX, required=True)
