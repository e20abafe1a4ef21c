"""The club's history, its write side: the rows every change to a night rewrites, and their check.

Every change to a night's hands rewrites that night's rows of ``night_result``
and ``contract_result`` (one per player, and per player and contract) from the
night's :class:`summary.Summary`, in the same transaction as the change (a tournament's
table: its solos instead). The history pages (:mod:`scorekeeper.core.history_pages`) then add
up those few rows a night in SQL, with indexes on ``(player_id, played_on)`` and
``(game, played_on)``, instead of settling ten years of hands on every page view.
:func:`verify_nights` compares the stored rows with a fresh settle.

No Flask here: everything takes a database session.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import bindparam, delete, func
from sqlmodel import Session, select

from scorekeeper.core.models import CLUB_NIGHT, ContractResult, HandRecord, Night, NightResult, TournamentTable
from scorekeeper.core.stored import stored_columns
from scorekeeper.core.summary import ROW_COUNTS, PlayerStats, count_hand, money_lines, night_money, summarize
from scorekeeper.core.table import HandRow, Table, build_table, get_night, load_table, read_table, seats
from scorekeeper.engine import GAMES, InvalidHand, Settlement
from scorekeeper.engine.rules import rules_to_json

# --- writing: a night's rows ----------------------------------------------------


def night_rows(table: Table) -> tuple[list[NightResult], list[ContractResult]]:
    """The night's result rows, one per player and one per player and contract declared; none for
    a tournament's table (its points never mix with the club's money)."""
    night = table.night
    if night.tournament_id is not None:
        return [], []
    summary = summarize(table)
    # the money the night pays (summary.night_money): an open night's without the share of a pot split at the
    # close (paid at the close, as its table page and the API say), a closed night's with it
    _, paid = night_money(table)
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
                units=line.units,
                cents=paid[line.position],
                **stats.row(),
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


_NIGHT_ROW = NightResult.__table__
_CONTRACT_ROW = ContractResult.__table__
#: One statement for every player's row: the hand's counts added, the money rewritten.
_ADD_TO_NIGHT_ROW = (
    _NIGHT_ROW.update()
    .where(_NIGHT_ROW.c.evening_id == bindparam("n_id"), _NIGHT_ROW.c.player_id == bindparam("p_id"))
    .values(
        units=bindparam("n_units"),
        cents=bindparam("n_cents"),
        **{c: _NIGHT_ROW.c[c] + bindparam(f"add_{c}") for c in ROW_COUNTS},
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
    count_hand(stats, table.positions[index], facts, redeal=table.dealt_again(index + 1))
    _, lines = money_lines(table)
    _, paid = night_money(table)  # an open night's: a pot split at the close is no one's yet
    rows = []
    for line in lines:
        add = stats[line.position]
        row = {"n_id": night.id, "p_id": table.players[line.position].id, "n_units": line.units}
        row["n_cents"] = paid[line.position]
        rows.append(row | {f"add_{c}": count for c, count in add.row().items()})
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

_RESULT_FIELDS = ("position", "units", "cents", *ROW_COUNTS)


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
    missing = missing_options(night.game, night.rules)
    if missing:
        problems.append(
            f"the stored rule set is not complete: {', '.join(missing)} missing (its export is refused on import)"
        )
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


def missing_options(game: str, rules: Any) -> list[str]:
    """The options a stored rule set does not write out (the engine reads their preset's or default values
    for them), as an import names them (core/exchange/checks.py ``rule_set``); none where the engine
    refuses the rule set (:func:`verify_night` says so)."""
    if game not in GAMES or not isinstance(rules, dict):
        return []
    try:
        complete = rules_to_json(GAMES[game].parse_rules(rules))
    except InvalidHand:
        return []
    return [key for key in complete if key not in rules]


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
        CLUB_NIGHT,  # a tournament's tables have no rows
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
