"""A tournament under load (``manage.py bench tournament``): 100 players at 25 tables of a round,
every table recording its 32 deals at once through the JSON API under gunicorn (loopback), while
50 phones watch the standings board; then checks that nothing was lost or doubled, that every
table closed itself after its 32 deals and that every table's list sums to zero.

Prints the record latency (p50/p99, as the phones measured it), the standings board's latency
under load and its server time measured in-process afterwards (a change, and a 304), the draw of
a round for 200 players, and a floor measured in the same run (sorting 200 ids 1000 times), so
that the ratios survive a slower or busier machine. Not a test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.engine import GAMES
from tools import bench_draw
from tools.loadtest import (
    ADMIN,
    THREADS,
    WORKERS,
    Client,
    Stats,
    _latency,
    api_token,
    hand_path,
    server_env,
    sign_in,
    start_gunicorn,
    watcher,
)

#: Schafkopf hands under the preset ``turnier`` valid whoever deals at a table of four (engine
#: seats), one in eight an all-pass that is dealt again and does not count.
DEALS = (
    {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70},
    {"contract": "sauspiel", "suit": "gras", "declarer": 3, "partner": 4, "points": 50},
    {"contract": "wenz", "declarer": 2, "points": 61},
    {"contract": "sauspiel", "suit": "schellen", "declarer": 4, "partner": 1, "points": 95},
    {"contract": "rundpass"},
    {"contract": "solo", "suit": "herz", "declarer": 3, "points": 40},
    {"contract": "sauspiel", "suit": "eichel", "declarer": 2, "partner": 3, "points": 61, "kontra": True},
    {"contract": "solo", "suit": "gras", "declarer": 1, "tout": True, "won": True},
)


def setup(database_url: str, players: int, deals: int) -> tuple[int, list[int]]:
    """The tournament (``players`` on the roster, entered, round 1 drawn), through the use cases on
    the server's database: its id and its tables' nights."""
    from scorekeeper.core import db as database
    from scorekeeper.core import tournaments as tm
    from scorekeeper.core.players import create_player

    engine = database.make_engine(database_url)
    try:
        with database.session(engine, write=True) as db:
            t = tm.create_tournament(
                db=db, name="Bench", game="schafkopf", rules={"preset": "turnier"}, deals=deals, rounds=2, seed="bench"
            )
            for i in range(players):
                p = create_player(db=db, name=f"Bench {i + 1:03d}")
                tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
            tm.draw_round(db=db, tournament_id=t.id)
            view = tm.read_tournament(db=db, tournament_id=t.id)
            return t.id, [table.night.id for table in view.rounds[0].tables]
    finally:
        engine.dispose()


#: Which of :data:`DEALS` the engine deals again without counting it (under the preset ``turnier``).
_TURNIER = GAMES["schafkopf"].parse_rules({"preset": "turnier"})
REDEALT = [GAMES["schafkopf"].is_redeal(_TURNIER, GAMES["schafkopf"].parse_hand(d, None, _TURNIER)) for d in DEALS]


def _table(base_url: str, token: str, night: int, deals: int, stats: Stats, counted: dict[int, int]) -> None:
    """One table's phone: records deals (an all-pass now and then) until ``deals`` have counted;
    a hand whose answer never came is sent again with its key."""
    client = Client(base_url, token)
    rng = random.Random(night)
    done = number = 0
    try:
        while done < deals:
            hand_index = rng.randrange(len(DEALS))
            hand = DEALS[hand_index]
            key = f"t{night}-{number}"
            while True:
                began = time.perf_counter()
                try:
                    status, answer = client.request("POST", hand_path(night), hand, {"Idempotency-Key": key})
                except (OSError, http.client.HTTPException) as exc:
                    stats.errors.append(f"POST {hand_path(night)}: {exc!r}")
                    stats.pending[key] = night
                    time.sleep(0.05)
                    continue
                stats.writes.append(time.perf_counter() - began)
                if status in (200, 201) and isinstance(answer, dict):
                    stats.acked[key] = (night, answer["hand"]["number"], hand)
                    stats.pending.pop(key, None)
                    stats.created += status == 201
                    break
                stats.errors.append(f"POST {hand_path(night)}: {status} {answer}")
                return
            number += 1
            done += not REDEALT[hand_index]
    finally:
        counted[night] = done
        client.close()


def check(database_url: str, tournament: int, nights: list[int], deals: int, stats: Stats) -> dict[str, Any]:
    """Lost and doubled hands by idempotency key; every table closed after ``deals`` counted deals;
    every table's list and the standings summing to zero; the stored results equal to a fresh settle."""
    from sqlalchemy import text

    from scorekeeper.core import db as database
    from scorekeeper.core import history
    from scorekeeper.core import tournaments as tm

    engine = database.make_engine(database_url)
    lost = duplicates = not_closed = wrong_deals = unbalanced = differ = 0
    try:
        with database.session(engine) as db:
            connection = db.connection()
            for night in nights:
                rows = connection.execute(
                    text("SELECT number, idempotency_key FROM handrecord WHERE evening_id = :n ORDER BY number"),
                    {"n": night},
                ).all()
                keys = [r.idempotency_key for r in rows]
                duplicates += len(keys) - len(set(keys))
                if [r.number for r in rows] != list(range(1, len(rows) + 1)):
                    lost += 1
                by_key = {r.idempotency_key: r.number for r in rows}
                for key, (t, number, _hand) in stats.acked.items():
                    if t == night and by_key.get(key) != number:
                        lost += 1
                differ += bool(history.verify_night(db=db, night_id=night))
            view = tm.read_tournament(db=db, tournament_id=tournament)
            for table in view.rounds[0].tables:
                not_closed += table.night.is_open
                wrong_deals += table.deals != deals
                unbalanced += sum(table.points) != 0
            totals = sum(line.standing.total for line in view.standings)
    finally:
        engine.dispose()
    return {
        "lost": lost,
        "duplicates": duplicates,
        "tables_not_closed": not_closed,
        "tables_with_other_deals": wrong_deals,
        "tables_not_summing_to_zero": unbalanced,
        "standings_sum": totals,
        "stored_results_differ": differ,
    }


def standings_server_time(database_url: str, instance: str, tournament: int, runs: int = 30) -> dict[str, float]:
    """The standings board's time in the server itself (the app in-process, no HTTP): a full answer
    (what a change costs) and a 304 (what a poll costs while nothing changed), medians in ms."""
    import os

    os.environ["SCOREKEEPER_INSTANCE"] = instance
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.accounts import find_user
    from scorekeeper.web.access import client_for

    app = create_app({"DATABASE_URL": database_url})
    with database.session(app.extensions["sk_engine"]) as db:
        user = find_user(db=db, name=ADMIN)
    client = client_for(app, user)
    path = f"/tournaments/{tournament}/standings?board=1"
    full, unchanged = [], []
    tag = None
    for _ in range(runs):
        began = time.perf_counter()
        answer = client.get(path)
        full.append(time.perf_counter() - began)
        tag = answer.headers["ETag"]
    for _ in range(runs):
        began = time.perf_counter()
        answer = client.get(path, headers={"If-None-Match": tag})
        unchanged.append(time.perf_counter() - began)
        assert answer.status_code == 304
    app.extensions["sk_engine"].dispose()
    return {
        "full_ms": round(statistics.median(full) * 1000, 1),
        "not_modified_ms": round(statistics.median(unchanged) * 1000, 2),
    }


def run(players: int, deals: int, watchers: int, watch_every: float, workers: int, threads: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-tournament-") as folder:
        instance = Path(folder) / "instance"
        env = server_env(instance)
        database_url = env["SCOREKEEPER_DATABASE_URL"]
        password = secrets.token_urlsafe(18)
        token = api_token(env, password=password)
        log = Path(folder) / "gunicorn.log"
        with start_gunicorn(env, workers, threads, log=log) as server:
            tournament, nights = setup(database_url, players, deals)
            cookie = sign_in(server.url, ADMIN, password)
            stats = Stats()
            counted: dict[int, int] = {}
            stop = threading.Event()
            watching = [
                threading.Thread(
                    target=watcher,
                    args=(server.url, cookie, f"/tournaments/{tournament}/standings?board=1", watch_every, stats),
                    kwargs={"stop": stop},
                )
                for _ in range(watchers)
            ]
            tables = [
                threading.Thread(target=_table, args=(server.url, token, night, deals, stats, counted))
                for night in nights
            ]
            began = time.monotonic()
            for thread in watching + tables:
                thread.start()
            for thread in tables:
                thread.join()
            elapsed = time.monotonic() - began
            stop.set()
            for thread in watching:
                thread.join()
        result: dict[str, Any] = {
            "players": players,
            "tables": len(nights),
            "deals_per_table": deals,
            "server": f"gunicorn -w {workers} --threads {threads}, SQLite",
            "seconds": round(elapsed, 1),
            "hands": stats.created,
            "record": _latency(stats.writes),
            "watchers": watchers,
            "watch": _latency(stats.watches),
            "watch_changed": stats.watch_changed,
            "errors": len(stats.errors),
            "error_samples": stats.errors[:5],
        }
        result.update(check(database_url, tournament, nights, deals, stats))
        result["standings_server"] = standings_server_time(database_url, str(instance), tournament)
    result["draw_200_ms"] = round(bench_draw.time_draw(200, 5) * 1000, 1)
    result["floor_ms"] = round(bench_draw.floor_seconds() * 1000, 1)
    return result


def passed(result: dict[str, Any]) -> bool:
    return not (
        result["errors"]
        or result["lost"]
        or result["duplicates"]
        or result["tables_not_closed"]
        or result["tables_with_other_deals"]
        or result["tables_not_summing_to_zero"]
        or result["standings_sum"]
        or result["stored_results_differ"]
        or result["draw_200_ms"] >= 1000
    )


def report(r: dict[str, Any]) -> str:
    rec, watch, srv = r["record"], r["watch"], r["standings_server"]
    return "\n".join(
        [
            f"tournament: {r['players']} players, {r['tables']} tables x {r['deals_per_table']} deals at once, "
            f"{r['watchers']} phones watching the standings ({r['server']})",
            f"  {r['hands']} hands in {r['seconds']} s; record p50 {rec['p50_ms']} ms, p99 {rec['p99_ms']} ms, "
            f"max {rec['max_ms']} ms",
            f"  standings watched: {watch['count']} polls, p50 {watch['p50_ms']} ms, p99 {watch['p99_ms']} ms "
            f"({r['watch_changed']} changed)",
            f"  standings server time (in-process): {srv['full_ms']} ms a change, {srv['not_modified_ms']} ms a 304",
            f"  checks: errors {r['errors']}, lost {r['lost']}, doubled {r['duplicates']}, "
            f"not closed {r['tables_not_closed']}, other deal counts {r['tables_with_other_deals']}, "
            f"tables not summing to 0 {r['tables_not_summing_to_zero']}, standings sum {r['standings_sum']}, "
            f"stored results differing {r['stored_results_differ']}",
            f"  draw of a round for 200 players (after 5): {r['draw_200_ms']} ms (goal < 1000 ms); "
            f"floor (sort 200 ids x1000): {r['floor_ms']} ms",
            "  " + ("PASSED" if passed(r) else "FAILED"),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="manage.py bench tournament", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--deals", type=int, default=32)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--watch-every", type=float, default=2.0, help="seconds between a watcher's polls")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.players, args.deals, args.watchers, args.watch_every, args.workers, args.threads)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
