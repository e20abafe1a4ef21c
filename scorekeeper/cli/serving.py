"""Serving: ``init-db`` and ``run`` (``make run``: waitress, docs/production.md)."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from scorekeeper import create_app
from scorekeeper.cli.common import Command, app_db
from scorekeeper.web.addresses import listening_everywhere, reach_lines
from scorekeeper.web.api.limits import MAX_BODY

#: ``manage.py run``'s threads: each request holds at most one database connection at a time, so
#: fewer threads than the pool has connections (``core/db.py``) never wait for one; more would not be
#: quicker on the two cores of a club's laptop (docs/production.md, "Which server where").
RUN_THREADS = 8

#: Connections ``manage.py run`` holds open at once, from everybody together.
CONNECTION_LIMIT = 500
#: Connections one address may hold at once (the machine's own loopback excepted). A phone's browser
#: opens at most 6 to a server, and keeps one or two open between its polls; behind a router's one
#: address (a server outside the pub: every phone on the pub's Wi-Fi comes from the pub's address) a
#: tournament's thirty phones hold some 60. 96 leave them room, while one address holds at most 96 of
#: the 500: a laptop on the pub's Wi-Fi that opens hundreds and keeps them busy no longer makes the
#: server answer nobody.
PER_ADDRESS_LIMIT = 96
#: Addresses without that limit: a proxy on the same machine (TLS for the offline pages) brings every
#: phone's requests from there, and sees to its own clients.
LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
#: Seconds a request may take to arrive whole (its head and its body of at most 1 MiB) from its first
#: byte: a connection that trickles a request in (a byte every few seconds keeps it from being idle
#: for ``channel_timeout``) is closed after it. A phone's request arrives in well under a second; the
#: service worker gives up on an answer after 15 s anyway (``SEND_WAIT_SECONDS``).
REQUEST_SECONDS = 30
#: The largest body waitress reads: the app's own limit (``MAX_CONTENT_LENGTH`` for a page's form, the
#: API's ``MAX_BODY``: 1 MiB; nothing is uploaded over the web, imports go by ``manage.py import``).
#: waitress refuses a body of this size or more (``>=``), hence the one byte more: a body of exactly
#: 1 MiB still reaches the app, a longer one is answered 413 at once, before it is read to a temp file.
MAX_REQUEST_BODY = MAX_BODY + 1


class _Channel(HTTPChannel):
    """waitress's connection, knowing when the request it is receiving began to arrive."""

    request_began = 0.0

    def received(self, data: bytes) -> bool:
        before = self.request
        result = super().received(data)
        if self.request is not None and self.request is not before:
            self.request_began = time.time()
        return result


class _GuardedServer(TcpWSGIServer):
    """waitress's TCP server with a limit of connections per address and a deadline for a request to
    arrive (waitress has only a limit for all connections together, and an idle timeout)."""

    channel_class = _Channel

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        host = addr[0] if isinstance(addr, tuple) else addr
        if host not in LOOPBACK:
            held = sum(
                1 for ch in list(self._map.values()) if isinstance(ch, HTTPChannel) and ch.addr and ch.addr[0] == host
            )
            if held >= PER_ADDRESS_LIMIT:
                conn.close()  # refused at once: the address's other connections go on
                return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        cutoff = now - REQUEST_SECONDS
        for channel in list(self.active_channels.values()):
            if channel.request is not None and not channel.requests and channel.request_began < cutoff:
                channel.will_close = True


def make_server(app: Any, **settings: Any) -> Any:
    """waitress's ``create_server`` with :class:`_GuardedServer` (one per address listened on)."""
    adj = Adjustments(**settings)
    socket_map: dict = {}
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    servers = [_GuardedServer(app, socket_map, dispatcher=dispatcher, adj=adj, sockinfo=info) for info in adj.listen]
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher, servers[-1].log_info)


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

    server = make_server(
        app,
        host=args.host,
        port=args.port,
        threads=RUN_THREADS,
        connection_limit=CONNECTION_LIMIT,  # phones keep their connection open between polls
        channel_timeout=60,  # an idle connection is closed after a minute (a polling phone asks every 2 s)
        cleanup_interval=5,  # how often idle and trickling connections are looked for
        max_request_body_size=MAX_REQUEST_BODY,
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
