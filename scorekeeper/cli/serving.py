"""Serving: ``init-db`` and ``run`` (``make run``: waitress, docs/production.md)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

import waitress

from scorekeeper import create_app
from scorekeeper.cli.common import Command, app_db
from scorekeeper.web.addresses import listening_everywhere, reach_lines

#: ``manage.py run``'s threads: each request holds at most one database connection at a time, so
#: fewer threads than the pool has connections (``core/db.py``) never wait for one; more would not be
#: quicker on the two cores of a club's laptop (docs/production.md, "Which server where").
RUN_THREADS = 8


def _init_db(args: argparse.Namespace) -> int:
    with app_db() as (app, _):
        pass
    print(f"database is at the newest schema: {app.config['DATABASE_URL']}")
    return 0


def _run(args: argparse.Namespace) -> int:
    """Serve the app with waitress, a production WSGI server in pure Python (``make run``).

    waitress reads each request whole before a thread sees it and owns every connection: a phone that
    drops its connection at any moment costs a closed socket, never a thread or a slot. ``--debug``
    serves with Flask's development server instead (the debugger and reloader; never at the pub)."""
    app = create_app()
    app.config["LISTEN_HOST"] = args.host
    base = f"http://{'127.0.0.1' if listening_everywhere(args.host) else args.host}:{args.port}"
    if app.config.get("SETUP_PATH"):
        print(f"No admin yet. Open {base}{app.config['SETUP_PATH']} to create the first one")
        print("(or stop the server and run: python manage.py create-admin NAME)")
    if args.debug:
        app.run(host=args.host, port=args.port, debug=True, threaded=True)
        return 0

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
        app.extensions["sk_engine"].dispose()
    return 0


def add_parsers(sub: Any) -> dict[str, Command]:
    """The serving commands' parsers; their handlers by name."""
    sub.add_parser("init-db", help="create or upgrade the database schema (the app also does it on start)")
    p = sub.add_parser("run", help="serve the web app (SQLite in instance/ unless SCOREKEEPER_DATABASE_URL is set)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--debug", action="store_true")
    return {"init-db": _init_db, "run": _run}
