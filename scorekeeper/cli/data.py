"""Data in and out: a night's PDF summary, the JSON exports and imports (a night, the club, a
tournament), and ``verify``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from scorekeeper.cli.common import Command, app_db, many, read_json, write_json
from scorekeeper.core import history
from scorekeeper.core.errors import NotFound
from scorekeeper.core.exchange import club_file, night_file, tournament_file
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.nights import pots_from_nowhere, pots_gone
from scorekeeper.core.players import look_alike_names
from scorekeeper.core.table import get_night, load_table
from scorekeeper.web.pdf import summary_pdf


def _summary(args: argparse.Namespace) -> int:
    with app_db() as (app, db), app.test_request_context(f"/?lang={args.lang}"):
        try:
            table = load_table(db=db, night_id=args.id)
        except NotFound:
            print(f"there is no night {args.id}", file=sys.stderr)
            return 1
        data = summary_pdf(table)
    with open(args.output, "wb") as f:
        f.write(data)
    print(f"{args.output}: {len(data):,} bytes")
    return 0


def _export(args: argparse.Namespace) -> int:
    """A night alone; a tournament's table is marked as one, which ``import`` refuses (docs/backup.md)."""
    with app_db() as (_, db):
        try:
            data = night_file.night_file_json(db=db, night_id=args.id)
        except NotFound:
            print(f"there is no night {args.id}", file=sys.stderr)
            return 1
        tournament_id = get_night(db=db, night_id=args.id).tournament_id
    if not write_json(args.output, data):
        return 1
    mark = data.get(night_file.TABLE_MARK)
    if mark is None:
        print(f"{args.output}: night {args.id} with {many(len(data['hands']), 'hand')}")
        return 0
    print(
        f"{args.output}: table {mark['table']} of round {mark['round']} of tournament {tournament_id} "
        f"({mark['name']}) with {many(len(data['hands']), 'hand')}, marked as the tournament's table: "
        f"python manage.py import refuses it; python manage.py export-tournament {tournament_id} FILE exports "
        "the whole tournament"
    )
    return 0


def _export_all(args: argparse.Namespace) -> int:
    with app_db() as (_, db):
        data = club_file.club_json(db)
    if not write_json(args.file, data):
        return 1
    parts = [many(len(data["players"]), "player"), many(len(data["roster_changes"]), "roster change")]
    parts.append(many(len(data["nights"]), "night"))
    if data["tournaments"]:
        parts.append(many(len(data["tournaments"]), "tournament"))
    print(f"{args.file}: the club with {', '.join(parts[:-1])} and {parts[-1]}")
    return 0


def _export_tournament(args: argparse.Namespace) -> int:
    with app_db() as (_, db):
        try:
            data = tournament_file.tournament_json(db, args.id)
        except NotFound:
            print(f"there is no tournament {args.id}", file=sys.stderr)
            return 1
    if not write_json(args.file, data):
        return 1
    print(
        f"{args.file}: tournament {args.id} ({data['tournament']['name']}) with "
        f"{many(len(data['entrants']), 'participant')}, {many(len(data['rounds']), 'round')} drawn "
        f"and {many(len(data['tables']), 'table')}"
    )
    return 0


#: format -> what ``import`` calls a file of it (night and club files: ``import``; a tournament's: both)
_FILES = {night_file.FORMAT: "night", club_file.CLUB_FORMAT: "club", tournament_file.FORMAT: "tournament"}


def _kind(data: Any) -> str | None:
    """What ``import`` calls the file ``data`` (:data:`_FILES`), or None (its format no text the app writes)."""
    form = data.get("format") if isinstance(data, dict) else None
    return _FILES.get(form) if isinstance(form, str) else None


def _import_tournament(args: argparse.Namespace, data: Any = None) -> int:
    """A tournament file (of export-tournament); ``data``: the file as ``import`` read it already."""
    if data is None:
        ok, data = read_json(args.file)
        if not ok:
            return 1
    kind = _kind(data)
    if kind == "night" and night_file.TABLE_MARK in data:  # a table exported alone: refused as import refuses it
        try:
            night_file.read_night(data)
        except InvalidExport as exc:
            print(f"{args.file}: {exc}", file=sys.stderr)
            print("nothing was imported", file=sys.stderr)
            return 1
    if kind in ("night", "club"):
        print(
            f"{args.file}: this is a Scorekeeper {kind} file, not a tournament file: "
            "python manage.py import FILE imports it",
            file=sys.stderr,
        )
        print("nothing was imported", file=sys.stderr)
        return 1
    with app_db(write=True) as (app, db):
        try:  # a file written before a tournament kept its currency: the club's
            t, created = tournament_file.import_tournament(db, data, currency=app.config["CURRENCY"])
        except InvalidExport as exc:
            print(f"{args.file}: {exc}", file=sys.stderr)
            print("nothing was imported", file=sys.stderr)
            return 1
        t_id, name = t.id, t.name
    print(f"tournament {t_id} ({name}) {'imported' if created else 'was imported before: nothing changed'}")
    return 0


def _counted(what: str, created: int, present: int) -> str:
    return f"{what} {created} new, {present} already there"


def _import(args: argparse.Namespace) -> int:
    """A night file, a club file or a tournament file (``format`` says which)."""
    ok, data = read_json(args.file)
    if not ok:
        return 1
    if _kind(data) == "tournament":
        return _import_tournament(args, data)
    club = isinstance(data, dict) and data.get("format") == club_file.CLUB_FORMAT
    with app_db(write=True) as (app, db):
        try:
            if club:  # a tournament of a file written before a tournament kept its currency: the club's
                done = club_file.import_club(db=db, data=data, currency=app.config["CURRENCY"])
            else:
                night_id, created = night_file.import_night(db=db, data=data)
        except InvalidExport as exc:
            print(f"{args.file}: {exc}", file=sys.stderr)
            print("nothing was imported", file=sys.stderr)
            return 1
    if not club:
        print(f"night {night_id} {'imported' if created else 'was imported before: nothing changed'}")
        return 0
    counts = "; ".join(
        [
            _counted("players", done.players_created, done.players_present),
            _counted("roster changes", done.changes_created, done.changes_present),
            _counted("nights", done.nights_created, done.nights_present),
        ]
        + (
            [_counted("tournaments", done.tournaments_created, done.tournaments_present)]
            if done.tournaments_created or done.tournaments_present
            else []
        )
    )
    print(f"club imported: {counts}" if done.changed else f"the club was imported before: nothing changed ({counts})")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Settle every night afresh and compare with what is stored: exit 1 and say what differs. Also
    name the closed nights whose carried pot went to no night (``pots_gone``: lost by the rule before the
    pots were followed) and the players whose names look alike, stored by an older version (docs/using.md,
    "How names compare"): not wrong results (the exit status is not theirs), but what the club settles or fixes."""
    with app_db() as (_, db):
        wrong = history.verify_nights(db=db)
        for night_id in wrong:
            for line in history.verify_night(db=db, night_id=night_id):
                print(f"night {night_id}: {line}", file=sys.stderr)
        nowhere = pots_from_nowhere(db=db)
        for night, gap in nowhere:
            print(
                f"night {night.id} of {night.played_on}: {gap} (docs/backup.md, 'The pot carried in')", file=sys.stderr
            )
        for night, units in pots_gone(db=db):
            print(
                f"night {night.id} of {night.played_on}: its pot of {units} units, carried to the club's next night, "
                "went to no night: the rule before the pots were followed (migration 0016) gave the next night "
                "another night's pot, or the night that took it is gone; settle it by hand "
                "(docs/backup.md, 'The pot carried in')",
                file=sys.stderr,
            )
        for a, b in look_alike_names(db=db):
            print(
                f"players {a.id} {a.name!r} and {b.id} {b.name!r}: their names look alike; rename one of them "
                "or merge the two on the player's page (docs/using.md, 'How names compare')",
                file=sys.stderr,
            )
    if wrong:
        print(f"{len(wrong)} night(s) differ from a fresh settle", file=sys.stderr)
    if nowhere:
        print(f"{len(nowhere)} night(s) hold a pot no night gave them", file=sys.stderr)
    if wrong or nowhere:
        return 1
    print(
        "every night's stored results, states and history rows equal a fresh settle; "
        "every pot carried in came from a night"
    )
    return 0


def add_parsers(sub: Any) -> dict[str, Command]:
    """The data commands' parsers; their handlers by name."""
    p = sub.add_parser("export", help="write a night as JSON (players, rules, hands, audit)")
    p.add_argument("id", type=int, help="the night's number")
    p.add_argument("-o", "--output", required=True, help="the JSON file to write")
    p = sub.add_parser(
        "export-all", help="write the whole club as JSON (roster, roster changes, every night, every tournament)"
    )
    p.add_argument("file", help="the JSON file to write")
    p = sub.add_parser("export-tournament", help="write a tournament as JSON (entrants, rounds, every table's night)")
    p.add_argument("id", type=int, help="the tournament's number")
    p.add_argument("file", help="the JSON file to write")
    p = sub.add_parser("import-tournament", help="import a tournament exported as JSON (twice is harmless)")
    p.add_argument("file", help="the JSON file (of export-tournament)")
    p = sub.add_parser(
        "import", help="import a night, the whole club or a tournament exported as JSON (twice is harmless)"
    )
    p.add_argument("file", help="the JSON file (of export or export-all)")
    p = sub.add_parser("summary", help="write a night's summary as a PDF")
    p.add_argument("id", type=int, help="the night's number")
    p.add_argument("-o", "--output", required=True, help="the PDF file to write")
    p.add_argument("--lang", choices=["de", "en"], default="de")
    sub.add_parser(
        "verify",
        help="settle every night afresh and compare with what is stored, and check that every pot carried in "
        "came from a night (exit 1 if not); name the players whose names look alike",
    )
    return {
        "export": _export,
        "export-all": _export_all,
        "export-tournament": _export_tournament,
        "import-tournament": _import_tournament,
        "import": _import,
        "summary": _summary,
        "verify": _verify,
    }
