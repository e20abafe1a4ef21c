"""The command line: ``python manage.py COMMAND`` (or the ``scorekeeper`` script).

``settle`` reads a session as JSON on standard input and prints the settlement;
it imports nothing of the web app, so it starts fast and works without a database.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from scorekeeper.engine import InvalidHand, settle_json


@contextmanager
def _no_cycle_collection():
    """Python's cyclic collector paused: settling makes many short-lived objects and no reference
    cycles, so the young collections (one every 700 new objects) would look for garbage in vain
    (a twentieth of the time). Reference counting frees everything as usual."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def settle_text(text: str | bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The ``settle`` contract on text: returns the exit status and the JSON answer.

    0 and the settlement, or 1 and ``{"error": {"hand", "field", "message"}}``.
    The benchmark calls this too, so it measures exactly what ``settle`` does.
    """
    with _no_cycle_collection():
        return _settle_text(text, pretty)


def _settle_text(text: str | bytes, pretty: bool) -> tuple[int, str]:
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
            # the settlement is a tree the engine just built: no cycle to look for (a tenth quicker)
            return 0, json.dumps(result, ensure_ascii=False, indent=2 if pretty else None, check_circular=False)
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


@contextmanager
def app_db(write: bool = False):
    """The app (migrating the database on the way) and a database session; both closed after.

    ``write``: the command changes the database (its transactions begin ``BEGIN IMMEDIATE`` on SQLite)."""
    from scorekeeper import create_app
    from scorekeeper.core import db as database

    app = create_app()
    try:
        with database.session(app.extensions["sk_engine"], write=write) as db:
            yield app, db
    finally:
        app.extensions["sk_engine"].dispose()


def _summary(args: argparse.Namespace) -> int:
    from scorekeeper.core.errors import NotFound
    from scorekeeper.core.table import load_table
    from scorekeeper.web.pdf import summary_pdf

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


def _write_json(path: str, data: Any) -> bool:
    """Write ``data`` as indented UTF-8 JSON; False (and a message) when the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=2)
    except OSError as exc:
        print(f"cannot write {path}: {exc}", file=sys.stderr)
        return False
    return True


def _export(args: argparse.Namespace) -> int:
    from scorekeeper.core import exports
    from scorekeeper.core.errors import NotFound

    with app_db() as (_, db):
        try:
            data = exports.night_json(db=db, night_id=args.id)
        except NotFound:
            print(f"there is no night {args.id}", file=sys.stderr)
            return 1
    if not _write_json(args.output, data):
        return 1
    print(f"{args.output}: night {args.id} with {len(data['hands'])} hands")
    return 0


def _export_all(args: argparse.Namespace) -> int:
    from scorekeeper.core import exports

    with app_db() as (_, db):
        data = exports.club_json(db)
    if not _write_json(args.file, data):
        return 1
    parts = [_many(len(data["players"]), "player"), _many(len(data["roster_changes"]), "roster change")]
    parts.append(_many(len(data["nights"]), "night"))
    if data["tournaments"]:
        parts.append(_many(len(data["tournaments"]), "tournament"))
    print(f"{args.file}: the club with {', '.join(parts[:-1])} and {parts[-1]}")
    return 0


def _export_tournament(args: argparse.Namespace) -> int:
    from scorekeeper.core.errors import NotFound
    from scorekeeper.core.tournament_exports import tournament_json

    with app_db() as (_, db):
        try:
            data = tournament_json(db, args.id)
        except NotFound:
            print(f"there is no tournament {args.id}", file=sys.stderr)
            return 1
    if not _write_json(args.file, data):
        return 1
    print(
        f"{args.file}: tournament {args.id} ({data['tournament']['name']}) with "
        f"{_many(len(data['entrants']), 'participant')}, {_many(len(data['rounds']), 'round')} drawn "
        f"and {_many(len(data['tables']), 'table')}"
    )
    return 0


def _read_json(path: str) -> tuple[bool, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            return True, json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return False, None


def _import_tournament(args: argparse.Namespace) -> int:
    """A tournament file (of export-tournament)."""
    from scorekeeper.core.exports import InvalidExport
    from scorekeeper.core.tournament_exports import import_tournament

    ok, data = _read_json(args.file)
    if not ok:
        return 1
    with app_db(write=True) as (_, db):
        try:
            t, created = import_tournament(db, data)
        except InvalidExport as exc:
            print(f"{args.file}: {exc}", file=sys.stderr)
            print("nothing was imported", file=sys.stderr)
            return 1
        t_id, name = t.id, t.name
    print(f"tournament {t_id} ({name}) {'imported' if created else 'was imported before: nothing changed'}")
    return 0


def _many(count: int, thing: str) -> str:
    """``1 night``, ``2 nights``."""
    return f"{count:,} {thing}{'' if count == 1 else 's'}"


def _counted(what: str, created: int, present: int) -> str:
    return f"{what} {created} new, {present} already there"


def _import(args: argparse.Namespace) -> int:
    """A night file or a club file (``format`` says which)."""
    from scorekeeper.core import exports

    ok, data = _read_json(args.file)
    if not ok:
        return 1
    club = isinstance(data, dict) and data.get("format") == exports.CLUB_FORMAT
    with app_db(write=True) as (_, db):
        try:
            if club:
                done = exports.import_club(db=db, data=data)
            else:
                night_id, created = exports.import_night(db=db, data=data)
        except exports.InvalidExport as exc:
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


def _database() -> tuple[str, Path]:
    """The database URL and the instance folder the app uses (without starting it: no migration)."""
    from scorekeeper import config

    settings = config.Settings.from_env()
    return settings.database(), settings.instance


def _backup(args: argparse.Namespace) -> int:
    from scorekeeper.core import backup

    url, instance = _database()
    target = Path(args.path) if args.path else backup.default_target(directory=instance / "backups")
    if target.is_dir():
        target = backup.default_target(directory=target)
    try:
        info = backup.backup(url=url, target=target)
    except backup.BackupError as exc:
        print(f"no backup written: {exc}", file=sys.stderr)
        return 1
    print(f"backup written: {info.path} ({info.size:,} bytes, {_many(info.nights, 'night')}, integrity check ok)")
    return 0


def _confirm(question: str) -> bool:
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _restore(args: argparse.Namespace) -> int:
    from scorekeeper.core import backup

    url, instance = _database()
    source = Path(args.path)
    try:
        live = backup.restore_target(url)
        info = backup.check_backup(source)  # the quick check before the question; restore checks it whole
    except backup.BackupError as exc:
        print(f"nothing restored: {exc}", file=sys.stderr)
        return 1
    question = (
        f"Replace the database {live} by the backup {source} ({_many(info.nights, 'night')})? "
        "Everything recorded since that backup is lost."
    )
    if not args.yes and not _confirm(question):
        print("restore cancelled: nothing changed", file=sys.stderr)
        return 1
    try:  # migrated, its history filled in and checked before it replaces the database
        done = backup.restore(url=url, source=source, backups=instance / "backups")
    except backup.RestoreFailed as exc:
        print(f"restore failed: {exc}", file=sys.stderr)
        return 1
    except backup.BackupError as exc:
        print(f"nothing restored: {exc}", file=sys.stderr)
        return 1
    print(f"restored {source} into {live} ({_many(done.nights, 'night')}); the database is at the newest schema")
    if done.safety is not None:
        damaged = "" if done.safety_checked else " (it was damaged: its files are kept as they were)"
        print(f"the database as it was before the restore is kept in {done.safety}{damaged}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Settle every night afresh and compare with what is stored: exit 1 and say what differs."""
    from scorekeeper.core import history

    with app_db() as (_, db):
        wrong = history.verify_nights(db=db)
        for night_id in wrong:
            for line in history.verify_night(db=db, night_id=night_id):
                print(f"night {night_id}: {line}", file=sys.stderr)
    if wrong:
        print(f"{len(wrong)} night(s) differ from a fresh settle", file=sys.stderr)
        return 1
    print("every night's stored results, states and history rows equal a fresh settle")
    return 0


def _init_db(args: argparse.Namespace) -> int:
    with app_db() as (app, _):
        pass
    print(f"database is at the newest schema: {app.config['DATABASE_URL']}")
    return 0


def _ask_password() -> str | None:
    """The new password: from ``SCOREKEEPER_ADMIN_PASSWORD`` (scripts), else asked twice at the terminal."""
    import getpass

    from scorekeeper import config

    password = config.Settings.from_env().admin_password
    if password:
        return password
    try:
        first = getpass.getpass("Password (at least 8 characters): ")
        second = getpass.getpass("The password again: ")
    except (EOFError, KeyboardInterrupt):
        return None
    if first != second:
        print("the two passwords are not the same: no account made", file=sys.stderr)
        return None
    return first


def _create_user(args: argparse.Namespace) -> int:
    from scorekeeper import config
    from scorekeeper.core import accounts
    from scorekeeper.core.errors import InvalidInput

    role = getattr(args, "role", "admin")
    password = _ask_password()
    if password is None:
        print("no password given (type it, or set SCOREKEEPER_ADMIN_PASSWORD): no account made", file=sys.stderr)
        return 1
    with app_db(write=True) as (app, db):
        try:
            user = accounts.create_user(db=db, name=args.name, password=password, role=role)
        except InvalidInput as exc:
            print(f"no account made: {exc.message}", file=sys.stderr)
            return 1
        if role == "admin":
            config.remove_setup_token(app.instance_path)
    print(f"account {user.name} ({user.role}) made; sign in at /login")
    return 0


def _create_token(args: argparse.Namespace) -> int:
    from scorekeeper.core import accounts
    from scorekeeper.core.errors import InvalidInput

    with app_db(write=True) as (_, db):
        user = accounts.find_user(db=db, name=args.user)
        if user is None:
            print(f"there is no account {args.user!r}", file=sys.stderr)
            return 1
        try:
            record, token = accounts.create_token(db=db, user=user, label=args.label)
        except InvalidInput as exc:
            print(f"no token made: {exc.message}", file=sys.stderr)
            return 1
    print(f"token #{record.id} for {user.name} ({user.role}); it is shown only now:", file=sys.stderr)
    print(token)
    return 0


def _tokens(args: argparse.Namespace) -> int:
    from scorekeeper.core import accounts

    with app_db() as (_, db):
        names = {u.id: u.name for u in accounts.list_users(db)}
        for t in accounts.tokens(db=db):
            state = f"revoked {t.revoked_at:%Y-%m-%d}" if t.revoked_at else "active"
            print(f"#{t.id}\t{names.get(t.user_id, '?')}\t{t.created_at:%Y-%m-%d}\t{state}\t{t.label}")
    return 0


def _revoke_token(args: argparse.Namespace) -> int:
    from scorekeeper.core import accounts
    from scorekeeper.core.errors import NotFound

    with app_db(write=True) as (_, db):
        try:
            accounts.revoke_token(db=db, token_id=args.id)
        except NotFound:
            print(f"there is no token #{args.id}", file=sys.stderr)
            return 1
    print(f"token #{args.id} revoked")
    return 0


#: ``manage.py run``'s threads: each request holds at most one database connection at a time, so
#: fewer threads than the pool has connections (``core/db.py``) never wait for one; more would not be
#: quicker on the two cores of a club's laptop (docs/production.md, "Which server where").
RUN_THREADS = 8


def _run(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server in pure Python (``make run``).

    waitress reads each request whole before a thread sees it and owns every connection: a phone that
    drops its connection at any moment costs a closed socket, never a thread or a slot. ``--debug``
    serves with Flask's development server instead (the debugger and reloader; never at the pub)."""
    from scorekeeper import create_app
    from scorekeeper.web.addresses import listening_everywhere, reach_lines

    app = create_app()
    app.config["LISTEN_HOST"] = args.host
    base = f"http://{'127.0.0.1' if listening_everywhere(args.host) else args.host}:{args.port}"
    if app.config.get("SETUP_PATH"):
        print(f"No admin yet. Open {base}{app.config['SETUP_PATH']} to create the first one")
        print("(or stop the server and run: python manage.py create-admin NAME)")
    if args.debug:
        app.run(host=args.host, port=args.port, debug=True, threaded=True)
        return 0
    import logging

    import waitress

    server = waitress.create_server(
        app,
        host=args.host,
        port=args.port,
        threads=RUN_THREADS,
        connection_limit=500,  # phones keep their connection open between polls: a tournament's worth
        channel_timeout=60,  # an idle connection is closed after a minute (a polling phone asks every 2 s)
        asyncore_use_poll=True,  # poll(), not select(): no limit of 1024 descriptors
        ident="Scorekeeper",
    )
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # requests waiting a moment are no fault
    print(f"Scorekeeper on {base} (waitress, {RUN_THREADS} threads); Ctrl+C stops it")
    for line in reach_lines(app, args.host, args.port):
        print(line)
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, Any]:
    """The command line's parser and its subcommands (to which ``manage.py`` adds the development tools')."""
    parser = argparse.ArgumentParser(prog="manage.py", description="Scorekeeper: scores for card games at the table")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("settle", help="settle a session: JSON on stdin, JSON on stdout (the contract of docs/rules.md)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people")
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
    p = sub.add_parser("import", help="import a night or the whole club exported as JSON (twice is harmless)")
    p.add_argument("file", help="the JSON file (of export or export-all)")
    p = sub.add_parser("backup", help="copy the SQLite database, also while the app runs (PostgreSQL: pg_dump)")
    p.add_argument(
        "path", nargs="?", help="the file (or folder) to write; default instance/backups/scorekeeper-DATE-TIME.db"
    )
    p = sub.add_parser(
        "restore", help="replace the SQLite database by a backup and migrate it (PostgreSQL: pg_restore)"
    )
    p.add_argument("path", help="the backup file")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p = sub.add_parser("summary", help="write a night's summary as a PDF")
    p.add_argument("id", type=int, help="the night's number")
    p.add_argument("-o", "--output", required=True, help="the PDF file to write")
    p.add_argument("--lang", choices=["de", "en"], default="de")
    p = sub.add_parser(
        "create-admin", help="make an admin account (asks for the password, or reads SCOREKEEPER_ADMIN_PASSWORD)"
    )
    p.add_argument("name")
    p = sub.add_parser(
        "create-user", help="make an account (asks for the password, or reads SCOREKEEPER_ADMIN_PASSWORD)"
    )
    p.add_argument("name")
    p.add_argument("--role", choices=["viewer", "scorer", "admin"], default="scorer")
    p = sub.add_parser("create-token", help="make an API token for an account and print it (shown only once)")
    p.add_argument("user", help="the account's name")
    p.add_argument("--label", default="", help="what the token is for")
    sub.add_parser("tokens", help="list the API tokens (not the tokens themselves)")
    p = sub.add_parser("revoke-token", help="revoke an API token for good")
    p.add_argument("id", type=int, help="the token's number (see tokens)")
    sub.add_parser("init-db", help="create or upgrade the database schema (the app also does it on start)")
    sub.add_parser("verify", help="settle every night afresh and compare with what is stored (exit 1 if any differ)")
    p = sub.add_parser("run", help="serve the web app (SQLite in instance/ unless SCOREKEEPER_DATABASE_URL is set)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--debug", action="store_true")
    return parser, sub


#: Commands added by whoever starts the command line: ``{name: (add its parser, run it)}``.
Extra = dict[str, tuple[Callable[[Any], None], Callable[[argparse.Namespace], int]]]


def main(argv: list[str] | None = None, extra: Extra | None = None) -> int:
    """Run one command; ``extra`` adds commands (``manage.py`` adds the development tools')."""
    argv = sys.argv[1:] if argv is None else argv
    parser, sub = build_parser()
    for add, _ in (extra or {}).values():
        add(sub)
    args = parser.parse_args(argv)
    if args.command == "settle":
        sys.stdin.reconfigure(encoding="utf-8", errors="strict")
        sys.stdout.reconfigure(encoding="utf-8")
        return settle(sys.stdin, sys.stdout, pretty=args.pretty)
    commands: dict[str, Callable[[argparse.Namespace], int]] = {name: run for name, (_, run) in (extra or {}).items()}
    commands |= {
        "backup": _backup,
        "create-admin": _create_user,
        "create-user": _create_user,
        "create-token": _create_token,
        "tokens": _tokens,
        "revoke-token": _revoke_token,
        "export": _export,
        "export-all": _export_all,
        "export-tournament": _export_tournament,
        "import-tournament": _import_tournament,
        "import": _import,
        "init-db": _init_db,
        "verify": _verify,
        "restore": _restore,
        "run": _run,
        "summary": _summary,
    }
    return commands[args.command](args)
