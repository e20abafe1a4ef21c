"""The development tools' commands, which ``manage.py`` adds to the command line: ``bench`` and
``demo``. They are not part of the installed package (``scorekeeper`` has the club's commands only)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scorekeeper.cli import Extra, app_db


def _add_bench(sub: Any) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument(
        "what",
        choices=["engine", "web", "pdf", "pdf-memory", "presses", "history", "load", "tournament", "draw"],
        help="what to measure (presses: a table recording while 16 people ask for its PDF, under make run; "
        "history: on the app's database; load: gunicorn under 50 tables; tournament: 25 "
        "tables of a tournament at once; both: see --help after it; draw: a round's table draw)",
    )
    p.add_argument("--hands", type=int, default=100_000, help="hands per game (engine)")
    p.add_argument("--nights", type=int, default=1000, help="nights of 200 hands in the database (web)")
    p.add_argument("--runs", type=int, default=30, help="requests per page (history), PDFs per way (pdf-memory)")


def _bench(args: argparse.Namespace) -> int:
    from tools import bench

    if args.what == "engine":
        bench.print_engine(bench.bench_engine(args.hands))
    elif args.what == "history":
        with app_db() as (app, _):
            bench.print_history(bench.bench_history(app, runs=args.runs))
    elif args.what == "web":
        bench.print_web(bench.bench_web(nights=args.nights))
    elif args.what == "pdf-memory":
        from tools import bench_pdf_memory

        print(bench_pdf_memory.report(bench_pdf_memory.run(args.runs)))
    elif args.what == "presses":
        from tools import bench_presses

        print(bench_presses.report(bench_presses.run()))
    else:
        bench.print_pdf(bench.bench_pdf())
    return 0


def _add_demo(sub: Any) -> None:
    p = sub.add_parser("demo", help="make a realistic demo night of each game, or --nights N of a busy club")
    p.add_argument("--nights", type=int, help="make this many nights of a busy club (about 200 hands each) instead")
    p.add_argument("--seed", type=int, default=2016, help="the random seed of --nights")


def _demo(args: argparse.Namespace) -> int:
    import time

    from tools.demo import make_club, make_demo

    if args.nights is not None and not 1 <= args.nights <= 100_000:
        print("--nights must be from 1 to 100000", file=sys.stderr)
        return 1
    with app_db(write=True) as (app, db):
        if args.nights is None:
            ids = make_demo(db)
            print(f"demo nights made: {', '.join(map(str, ids))} (database: {app.config['DATABASE_URL']})")
            return 0
        started = time.perf_counter()

        def progress(done: int, hands: int) -> None:
            if done % 100 == 0 or done == args.nights:
                print(f"\r{done:,} nights, {hands:,} hands, {time.perf_counter() - started:.0f} s", end="", flush=True)

        hands = make_club(db, args.nights, seed=args.seed, progress=progress)
    print(f"\nmade {args.nights:,} nights with {hands:,} hands in {time.perf_counter() - started:.1f} s")
    return 0


COMMANDS: Extra = {"bench": (_add_bench, _bench), "demo": (_add_demo, _demo)}


def main(argv: list[str] | None = None) -> int:
    """``manage.py``: the club's commands and the development tools'."""
    from scorekeeper import cli

    argv = sys.argv[1:] if argv is None else argv
    if argv[:2] == ["bench", "load"]:  # the load test has options of its own
        from tools import loadtest

        return loadtest.main(argv[2:])
    if argv[:2] == ["bench", "tournament"]:  # so has the tournament's
        from tools import bench_tournament

        return bench_tournament.main(argv[2:])
    if argv[:2] == ["bench", "draw"]:
        from tools import bench_draw

        bench_draw.print_draw()
        return 0
    return cli.main(argv, extra=COMMANDS)
