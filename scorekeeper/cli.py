"""The command line: ``python manage.py COMMAND`` (or the ``scorekeeper`` script).

``settle`` reads a session as JSON on standard input and prints the settlement;
it imports nothing of the web app, so it starts fast and works without a database.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from typing import TextIO

from .engine import InvalidHand, settle_json


def settle_text(text: str | bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The ``settle`` contract on text: returns the exit status and the JSON answer.

    0 and the settlement, or 1 and ``{"error": {"hand", "field", "message"}}``.
    The benchmark calls this too, so it measures exactly what ``settle`` does.
    """
    try:
        payload = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        error = InvalidHand(None, "", "the input is not valid JSON: {error}", error=str(exc))
    except RecursionError:
        error = InvalidHand(None, "", "the input is nested too deeply")
    else:
        try:
            result = settle_json(payload)
        except InvalidHand as exc:
            error = exc
        else:
            return 0, json.dumps(result, ensure_ascii=False, indent=2 if pretty else None)
    return 1, json.dumps({"error": error.to_json()}, ensure_ascii=False)


def settle(stdin: TextIO, stdout: TextIO, *, pretty: bool = False) -> int:
    """``python manage.py settle``: JSON on stdin, JSON on stdout, exit status 1 on bad input."""
    try:
        text = stdin.read()
    except UnicodeDecodeError:
        text = b"\xff"  # not UTF-8: answered as invalid JSON below
    status, answer = settle_text(text, pretty=pretty)
    _write(stdout, answer)
    return status


def _write(stdout: TextIO, text: str) -> None:
    """Write one answer; a reader that went away (``| head``) is not an error of ours."""
    try:
        stdout.write(text + "\n")
        stdout.flush()
    except BrokenPipeError:
        pass


def _bench(args: argparse.Namespace) -> int:
    from . import bench

    if args.what == "engine":
        bench.print_engine(bench.bench_engine(args.hands))
    elif args.what == "web":
        bench.print_web(bench.bench_web(nights=args.nights))
    else:
        bench.print_pdf(bench.bench_pdf())
    return 0


@contextmanager
def _app_db():
    """The app (migrating the database on the way) and a database session; both closed after."""
    from . import create_app
    from . import db as database

    app = create_app()
    try:
        with database.session(app.extensions["sk_engine"]) as db:
            yield app, db
    finally:
        app.extensions["sk_engine"].dispose()


def _demo(args: argparse.Namespace) -> int:
    from .demo import make_demo

    with _app_db() as (app, db):
        ids = make_demo(db)
    print(f"demo nights made: {', '.join(map(str, ids))} (database: {app.config['DATABASE_URL']})")
    return 0


def _summary(args: argparse.Namespace) -> int:
    from . import repository
    from .reports import summary_pdf

    with _app_db() as (app, db), app.test_request_context(f"/?lang={args.lang}"):
        try:
            table = repository.load_table(db=db, evening_id=args.id)
        except repository.NotFound:
            print(f"there is no night {args.id}", file=sys.stderr)
            return 1
        data = summary_pdf(table)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {len(data):,} bytes")
    return 0


def _export(args: argparse.Namespace) -> int:
    from . import exports, repository

    with _app_db() as (_, db):
        try:
            data = exports.night_json(db, args.id)
        except repository.NotFound:
            print(f"there is no night {args.id}", file=sys.stderr)
            return 1
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
    print(f"{args.output}: night {args.id} with {len(data['hands'])} hands")
    return 0


def _import(args: argparse.Namespace) -> int:
    from . import exports

    try:
        with open(args.file, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    with _app_db() as (_, db):
        try:
            evening_id, created = exports.import_night(db, data)
        except exports.InvalidExport as exc:
            print(f"{args.file}: {exc}", file=sys.stderr)
            return 1
    print(f"night {evening_id} {'imported' if created else 'was imported before: nothing changed'}")
    return 0


def _init_db(args: argparse.Namespace) -> int:
    with _app_db() as (app, _):
        pass
    print(f"database is at the newest schema: {app.config['DATABASE_URL']}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from . import create_app

    app = create_app()
    app.run(host=args.host, port=args.port, debug=args.debug)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="manage.py", description="Scorekeeper: scores for card games at the table")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("settle", help="settle a session: JSON on stdin, JSON on stdout (RULES.md contract)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people")
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    p.add_argument("what", choices=["engine", "web", "pdf"], help="what to measure")
    p.add_argument("--hands", type=int, default=100_000, help="hands per game (engine)")
    p.add_argument("--nights", type=int, default=1000, help="nights of 200 hands in the database (web)")
    sub.add_parser("demo", help="make a realistic demo night of each game")
    p = sub.add_parser("export", help="write a night as JSON (players, rules, hands, audit)")
    p.add_argument("id", type=int, help="the night's number")
    p.add_argument("-o", "--output", required=True, help="the JSON file to write")
    p = sub.add_parser("import", help="import a night exported as JSON (twice is harmless)")
    p.add_argument("file", help="the JSON file")
    p = sub.add_parser("summary", help="write a night's summary as a PDF")
    p.add_argument("id", type=int, help="the night's number")
    p.add_argument("-o", "--output", required=True, help="the PDF file to write")
    p.add_argument("--lang", choices=["de", "en"], default="de")
    sub.add_parser("init-db", help="create or upgrade the database schema (the app also does it on start)")
    p = sub.add_parser("run", help="serve the web app (SQLite in instance/ unless SCOREKEEPER_DATABASE_URL is set)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--debug", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "settle":
        sys.stdin.reconfigure(encoding="utf-8", errors="strict")
        sys.stdout.reconfigure(encoding="utf-8")
        return settle(sys.stdin, sys.stdout, pretty=args.pretty)
    commands = {
        "bench": _bench,
        "demo": _demo,
        "export": _export,
        "import": _import,
        "init-db": _init_db,
        "run": _run,
        "summary": _summary,
    }
    return commands[args.command](args)
