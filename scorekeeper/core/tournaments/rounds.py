"""A tournament's rounds: drawn, drawn again, and taken back (a round not started yet, when its participants
change). The draw itself is the engine's (:mod:`scorekeeper.engine.tournament`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete
from sqlmodel import Session, select

from scorekeeper.core.errors import Conflict, N_plural
from scorekeeper.core.models import (
    AuditEntry,
    ContractResult,
    Entrant,
    HandRecord,
    Night,
    NightResult,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.core.nights import add_night
from scorekeeper.core.tournaments.setup import bump_tournament, last_round, open_tournament, round_done, round_started
from scorekeeper.core.tournaments.views import former_of, seats_of
from scorekeeper.engine import tournament as plan


def draw_round(*, db: Session, tournament_id: Any) -> TournamentRound:
    """Draw the next round: its tables (each a night for one phone) and who sits out."""
    t = open_tournament(db, tournament_id)
    last = last_round(db, t)
    if last >= t.rounds:
        raise Conflict(*N_plural("the only round is drawn", "all {n} rounds are drawn"), n=t.rounds)
    if last and not round_done(db, t, last):
        raise Conflict("round {n} is not over: every table must finish its deals first", n=last)
    drawn = draw(db, t, last + 1)
    bump_tournament(db, t)
    db.commit()
    return drawn


def redraw_round(*, db: Session, tournament_id: Any) -> TournamentRound:
    """Draw the current round again, before any of its tables has started (with another lot)."""
    t = open_tournament(db, tournament_id)
    last = last_round(db, t)
    if not last:
        raise Conflict("no round is drawn yet")
    if round_started(db, t, last):
        raise Conflict("round {n} has started: it cannot be drawn again", n=last)
    attempt = undraw(db, t, last) + 1
    db.flush()
    drawn = draw(db, t, last, attempt)
    bump_tournament(db, t)
    db.commit()
    return drawn


def undraw(db: Session, t: Tournament, number: int) -> int:
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


def draw(db: Session, t: Tournament, number: int, attempt: int = 0) -> TournamentRound:
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
    seats = seats_of(db, [night_id for _, night_id in tables])
    by_player = {e.player_id: e.number for e in entrants} | {p: e.number for p, e in former_of(entrants).items()}
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
