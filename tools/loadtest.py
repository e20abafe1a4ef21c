"""A load test over HTTP: many tables at once, several phones at each, recording hands and reading the night.

``run(base_url, token)`` drives a running server through the JSON API and checks afterwards that
nothing was lost or recorded twice; ``main(argv)`` (``manage.py bench load``) starts gunicorn on a
new database of its own for it, unless ``--url`` names a server. Standard library only (plus the
app itself for the checks in the database).
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "loadadmin"
#: What :func:`api_token` gives while the app has no accounts (the API then takes no token).
DUMMY_TOKEN = "no-accounts-yet"
#: Matzlfangen hands at a table of four that are valid whoever deals: the server numbers each hand
#: (so decides its dealer), and a phone can't know which hand its own will be.
HANDS = (
    {"contract": "durch", "declarer": 1, "won": True},
    {"contract": "treiben", "declarer": 2, "points": 80, "raises": 2},
    {"contract": "neidspiel", "declarer": 4, "points": 50},
    {"contract": "trumpf_durch", "declarer": 3, "won": False},
    {"contract": "durch", "declarer": 2, "won": False},
)
#: Workers and threads for gunicorn on the 2-core development machine (measured; see docs/production.md).
WORKERS, THREADS = 4, 4


# --- the server -------------------------------------------------------------------------------


def server_env(instance: Path | str, database_url: str | None = None) -> dict[str, str]:
    """The environment of a server (or ``manage.py``) on its own instance folder and database
    (SQLite in the instance folder unless ``database_url``): never the club's own."""
    env = dict(os.environ)
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env["SCOREKEEPER_DATABASE_URL"] = database_url or f"sqlite:///{Path(instance) / 'scorekeeper.db'}"
    return env


def manage(args: list[str], env: Mapping[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python manage.py ARGS`` in ``env``."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=dict(env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def api_token(env: Mapping[str, str], user: str = ADMIN, password: str | None = None) -> str:
    """An API token of a new admin account ``user`` on the database of ``env`` (see :func:`server_env`),
    made with ``manage.py create-admin`` and ``manage.py create-token`` (which prints it last).

    While the app has no accounts (``create-admin`` is an "invalid choice"), :data:`DUMMY_TOKEN`:
    the API then ignores the ``Authorization`` header.

    :raises RuntimeError: when a command fails otherwise.
    """
    env = {**env, "SCOREKEEPER_ADMIN_PASSWORD": password or secrets.token_urlsafe(18)}
    made = manage(["create-admin", user], env)
    if made.returncode != 0:
        if "invalid choice" in made.stderr:
            return DUMMY_TOKEN
        raise RuntimeError(f"manage.py create-admin {user} failed: {(made.stderr or made.stdout).strip()}")
    token = manage(["create-token", user], env)
    lines = token.stdout.strip().splitlines()
    if token.returncode != 0 or not lines:
        raise RuntimeError(f"manage.py create-token {user} failed: {(token.stderr or token.stdout).strip()}")
    return lines[-1].strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_make_run(env: Mapping[str, str], port: int, log: Path) -> subprocess.Popen:
    """``manage.py run`` (make run's server, waitress) on ``port`` in ``env``, its output in ``log``;
    answering when this returns (the caller stops it)."""
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "run", "--port", str(port)],
            env=dict(env),
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
    except BaseException:
        process.kill()
        raise
    return process


def wait_until_up(base_url: str, process: subprocess.Popen | None = None, timeout: float = 30) -> None:
    """Until the server at ``base_url`` answers HTTP (any status).

    :raises RuntimeError: when ``process`` ends first, or after ``timeout`` seconds.
    """
    parts = urllib.parse.urlsplit(base_url)
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server ended with status {process.returncode} before it answered")
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
        try:
            connection.request("GET", (parts.path.rstrip("/") or "") + "/api/v1/players")
            connection.getresponse().read()
            return
        except (OSError, http.client.HTTPException):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no answer from {base_url} within {timeout:.0f} s") from None
            time.sleep(0.05)
        finally:
            connection.close()


@dataclass
class Server:
    """A server process started by :func:`start_gunicorn` (in its own process group)."""

    process: subprocess.Popen
    url: str
    log: Path | None = None

    def stop(self, timeout: float = 30) -> None:
        """A graceful stop (SIGTERM: requests under way are finished), a kill after ``timeout`` seconds."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def start_gunicorn(
    env: Mapping[str, str],
    workers: int = WORKERS,
    threads: int = THREADS,
    port: int | None = None,
    log: Path | None = None,
) -> Server:
    """``python -m gunicorn -w WORKERS --threads THREADS -b 127.0.0.1:PORT 'scorekeeper:create_app()'``
    in ``env``, after ``manage.py init-db``; returns once it answers. Stop it with :meth:`Server.stop`
    (or use it in ``with``).

    :raises RuntimeError: when the database can't be migrated or the server doesn't start.
    """
    migrated = manage(["init-db"], env)
    if migrated.returncode != 0:
        raise RuntimeError(f"manage.py init-db failed: {(migrated.stderr or migrated.stdout).strip()[-2000:]}")
    port = port or free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "-b",
        f"127.0.0.1:{port}",
        "--keep-alive",
        "30",  # the phones (and a proxy) keep their connection between requests
        "--log-level",
        "warning",
        "scorekeeper:create_app()",
    ]
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 (the child keeps it open)
    try:
        process = subprocess.Popen(
            command, env=dict(env), cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    finally:
        if log:
            out.close()
    server = Server(process, f"http://127.0.0.1:{port}", log)
    try:
        wait_until_up(server.url, process)
    except BaseException:
        server.stop(5)
        raise
    return server


# --- the phones -------------------------------------------------------------------------------


class Client:
    """One phone: one keep-alive HTTP connection (opened again after a failure), JSON in and out."""

    def __init__(self, base_url: str, token: str, timeout: float = 60) -> None:
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port, self.prefix = parts.hostname, parts.port, parts.path.rstrip("/")
        self.timeout = timeout
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None):
        """``(status, JSON answer or None)``.

        :raises OSError, http.client.HTTPException: when the connection fails (it is closed then).
        """
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        sent = {**self.headers, **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            self.connection.request(method, self.prefix + path, body=data, headers=sent)
            answer = self.connection.getresponse()
            raw = answer.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        if answer.will_close:
            self.close()
        try:
            return answer.status, json.loads(raw) if raw else None
        except ValueError:
            return answer.status, None

    def call(self, method: str, path: str, body: Any = None, expect: Iterable[int] = (200, 201)) -> Any:
        """The JSON answer of a request that must succeed (setting up and checking).

        :raises RuntimeError: for any other status.
        """
        status, answer = self.request(method, path, body)
        if status not in tuple(expect):
            raise RuntimeError(f"{method} {path} answered {status}: {answer}")
        return answer

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def hand_path(night: int) -> str:
    return f"/api/v1/sessions/{night}/hands"


def start_nights(client: Client, count: int, label: str) -> list[int]:
    """``count`` Matzlfangen nights at tables of four, with four new players (named after ``label``)."""
    ids = [client.call("POST", "/api/v1/players", {"name": f"{label} {seat}"})["id"] for seat in range(1, 5)]
    body = {"game": "matzlfangen", "stake_cents": 10, "players": ids, "first_dealer": 1, "place": label}
    return [client.call("POST", "/api/v1/sessions", body)["id"] for _ in range(count)]


@dataclass
class Stats:
    """What the phones measured; appended to from many threads (list.append is atomic)."""

    writes: list[float] = field(default_factory=list)  # seconds per POST
    reads: list[float] = field(default_factory=list)  # seconds per GET
    errors: list[str] = field(default_factory=list)
    acked: dict[str, tuple[int, int, dict[str, Any]]] = field(default_factory=dict)  # key: night, number, hand
    pending: dict[str, int] = field(default_factory=dict)  # sent, never acknowledged: key -> night
    created: int = 0  # acknowledged with 201 (200: a repeat of a key)
    watches: list[float] = field(default_factory=list)  # seconds per poll of a watching phone
    watch_changed: int = 0  # polls answered 200 (the live part, changed since the last poll)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _rest(seconds: float, until: float) -> None:
    """Wait ``seconds``, but not past ``until``."""
    time.sleep(max(0.0, min(seconds, until - time.monotonic())))


def _phone(
    base_url: str, token: str, night: int, name: str, until: float, reads_per_write: int, pause: float, stats: Stats
) -> None:
    """Record a hand, read the night (``reads_per_write`` times), and again, until ``until``;
    about ``pause`` seconds after each answer (a person at the table; the phones start at random
    moments of the first pause, and each pause is 0.5 to 1.5 of it), none: as fast as it can.

    A hand whose answer was an error or never came is sent again with the same key
    (a hand the server saved but could not acknowledge is then answered as a repeat).
    """
    client = Client(base_url, token)
    number = 0
    key = f"{name}-{number}"
    _rest(random.uniform(0, pause), until)
    try:
        while time.monotonic() < until:
            hand = HANDS[number % len(HANDS)]
            began = time.perf_counter()
            try:
                status, answer = client.request("POST", hand_path(night), hand, {"Idempotency-Key": key})
            except (OSError, http.client.HTTPException) as exc:
                stats.writes.append(time.perf_counter() - began)
                stats.errors.append(f"POST {hand_path(night)}: {exc!r}")
                stats.pending[key] = night
                time.sleep(0.05)
                continue
            stats.writes.append(time.perf_counter() - began)
            _rest(pause * random.uniform(0.5, 1.5), until)
            if status in (200, 201) and isinstance(answer, dict):
                with stats.lock:
                    stats.acked[key] = (night, answer["hand"]["number"], hand)
                    stats.pending.pop(key, None)
                    stats.created += status == 201
                number += 1
                key = f"{name}-{number}"
            else:
                stats.errors.append(f"POST {hand_path(night)}: {status} {answer}")
                stats.pending[key] = night
                time.sleep(0.05)
                continue
            for _ in range(reads_per_write):
                if time.monotonic() >= until:
                    break
                began = time.perf_counter()
                try:
                    status, answer = client.request("GET", f"/api/v1/sessions/{night}")
                except (OSError, http.client.HTTPException) as exc:
                    stats.errors.append(f"GET /api/v1/sessions/{night}: {exc!r}")
                    continue
                finally:
                    stats.reads.append(time.perf_counter() - began)
                    _rest(pause * random.uniform(0.5, 1.5), until)
                if status != 200:
                    stats.errors.append(f"GET /api/v1/sessions/{night}: {status} {answer}")
    finally:
        client.close()


def sign_in(base_url: str, user: str, password: str, timeout: float = 60) -> str:
    """The ``Cookie`` header of a session signed in through the sign-in form (as a phone does)."""
    parts = urllib.parse.urlsplit(base_url)
    prefix = parts.path.rstrip("/")
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("GET", prefix + "/login")
        answer = connection.getresponse()
        page = answer.read().decode()
        cookies = _cookies(answer)
        found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
            r'name="csrf_token" value="([^"]+)"', page
        )
        if answer.status != 200 or found is None:
            raise RuntimeError(f"GET /login answered {answer.status} without a form to sign in with")
        body = urllib.parse.urlencode({"name": user, "password": password, "csrf_token": found.group(1)})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": _cookie_header(cookies)}
        connection.request("POST", prefix + "/login", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 302:
            raise RuntimeError(f"signing in as {user} answered {answer.status}")
        return _cookie_header(cookies | _cookies(answer))
    finally:
        connection.close()


def _cookies(answer: http.client.HTTPResponse) -> dict[str, str]:
    pairs = (header.split(";", 1)[0].split("=", 1) for header in answer.headers.get_all("Set-Cookie") or [])
    return {name.strip(): value for name, value in pairs}


def _cookie_header(cookies: Mapping[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def watcher(
    base_url: str,
    cookie: str,
    path: str,
    every: float,
    stats: Stats,
    until: float = math.inf,
    stop: threading.Event | None = None,
) -> None:
    """A phone that watches a page (a table's live part, a tournament's standings): asks for
    ``path`` every ``every`` seconds (0.8 to 1.2 of it, starting at a random moment of the first),
    sending the ETag it has (``If-None-Match``): an unchanged page answers 304 without a body, a
    changed one itself and its new ETag. Stops at ``until`` (monotonic time) or when ``stop`` is
    set, having asked at least once."""
    parts = urllib.parse.urlsplit(base_url)
    path = f"{parts.path.rstrip('/')}{path}"
    connection: http.client.HTTPConnection | None = None
    tag = None

    def rest(seconds: float) -> bool:
        """Wait; whether it is time to stop."""
        seconds = max(0.0, min(seconds, until - time.monotonic()))
        if stop is not None:
            return stop.wait(seconds) or time.monotonic() >= until
        time.sleep(seconds)
        return time.monotonic() >= until

    rest(random.uniform(0, every))
    try:
        while True:
            headers = {"Cookie": cookie, **({"If-None-Match": tag} if tag else {})}
            began = time.perf_counter()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                connection.request("GET", path, headers=headers)
                answer = connection.getresponse()
                answer.read()
            except (OSError, http.client.HTTPException) as exc:
                stats.errors.append(f"GET {path}: {exc!r}")
                if connection is not None:
                    connection.close()
                connection = None
            else:
                stats.watches.append(time.perf_counter() - began)
                if answer.status == 200:
                    tag = answer.headers.get("ETag")
                    stats.watch_changed += 1
                elif answer.status != 304:
                    stats.errors.append(f"GET {path}: {answer.status}")
                if answer.will_close:
                    connection.close()
                    connection = None
            if rest(every * random.uniform(0.8, 1.2)):
                break
    finally:
        if connection is not None:
            connection.close()


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``, 0 for none.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50), percentile([4.0, 1.0, 3.0, 2.0], 99)
    (2.0, 4.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def _latency(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 50) * 1000, 1),
        "p99_ms": round(percentile(values, 99) * 1000, 1),
        "max_ms": round(max(values, default=0) * 1000, 1),
    }


# --- checking what was saved ------------------------------------------------------------------


def check_api(client: Client, nights: list[int], stats: Stats) -> dict[str, int]:
    """Lost and doubled hands, as the API shows the nights: every acknowledged hand at the number it was
    acknowledged with and as it was sent; numbers 1..N; no hand nobody sent (N at most what was sent)."""
    lost = duplicates = 0
    for night in nights:
        hands = client.call("GET", f"/api/v1/sessions/{night}")["hands"]
        numbers = [h["number"] for h in hands]
        duplicates += len(numbers) - len(set(numbers))
        if sorted(set(numbers)) != list(range(1, len(set(numbers)) + 1)):
            lost += 1  # a gap
        stored = {h["number"]: h["hand"] for h in hands}
        acked = [(n, hand) for (t, n, hand) in stats.acked.values() if t == night]
        seen: set[int] = set()
        for number, hand in acked:
            if number in seen:
                duplicates += 1  # two acknowledgements for one stored hand: the other one is missing
            seen.add(number)
            if any(stored.get(number, {}).get(k) != v for k, v in hand.items()):
                lost += 1
        sent = len(acked) + sum(1 for t in stats.pending.values() if t == night)
        duplicates += max(0, len(numbers) - sent)
    return {"lost": lost, "duplicates": duplicates}


def check_database(database_url: str, nights: list[int], stats: Stats) -> dict[str, Any]:
    """The same in the database itself, by idempotency key: every acknowledged key stored once, with the
    number it was acknowledged with; no key twice; numbers 1..N; SQLite's integrity check."""
    from sqlalchemy import text

    from scorekeeper.core import db as database

    engine = database.make_engine(database_url)
    lost = duplicates = 0
    integrity = None
    try:
        with engine.connect() as connection:
            for night in nights:
                rows = connection.execute(
                    text("SELECT number, idempotency_key FROM handrecord WHERE evening_id = :night ORDER BY number"),
                    {"night": night},
                ).all()
                numbers = [r.number for r in rows]
                keys = [r.idempotency_key for r in rows]
                duplicates += len(keys) - len(set(keys)) + len(numbers) - len(set(numbers))
                if numbers != list(range(1, len(numbers) + 1)):
                    lost += 1
                by_key = {r.idempotency_key: r.number for r in rows}
                for key, (t, number, _hand) in stats.acked.items():
                    if t == night and by_key.get(key) != number:
                        lost += 1
                unknown = set(by_key) - set(stats.acked) - set(stats.pending)
                duplicates += len(unknown)
            if engine.dialect.name == "sqlite":
                integrity = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
    finally:
        engine.dispose()
    return {"lost": lost, "duplicates": duplicates, "integrity_check": integrity}


# --- the load test ----------------------------------------------------------------------------


def run(
    base_url: str,
    token: str,
    tables: int = 50,
    clients_per_table: int = 4,
    seconds: float = 60,
    reads_per_write: int = 1,
    pause: float = 0,
    database_url: str | None = None,
    watchers: int = 0,
    watch_every: float = 2.0,
    cookie: str | None = None,
) -> dict[str, Any]:
    """Start ``tables`` Matzlfangen nights through the API, then run ``clients_per_table`` phones at each
    (threads, one keep-alive connection each) for ``seconds``: each records a hand (with an
    ``Idempotency-Key``), reads the night (``reads_per_write`` times), and again, as fast as it can
    or ``pause`` seconds after each answer. Every request's time is measured.

    Afterwards the nights are checked through the API (and in the database at ``database_url``,
    if given): ``errors`` counts every answer that was no 2xx and every failed connection,
    ``lost`` acknowledged hands that are not stored as acknowledged, ``duplicates`` hands stored twice.

    ``watchers`` more phones (signed in with the session ``cookie``, see :func:`sign_in`) watch the
    tables meanwhile, spread over them, each polling its table's live part every ``watch_every`` seconds.
    """
    label = f"Load {secrets.token_hex(3)}"
    setup = Client(base_url, token)
    try:
        nights = start_nights(setup, tables, label)
        setup.close()  # idle through the run, the server would close it: a new connection checks afterwards
        stats = Stats()
        began = time.monotonic()
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        until = began + seconds
        threads = [
            threading.Thread(
                target=_phone,
                args=(base_url, token, night, f"{label}-{night}-{phone}", until, reads_per_write, pause, stats),
                daemon=True,
            )
            for night in nights
            for phone in range(clients_per_table)
        ]
        if watchers and not cookie:
            raise ValueError("watchers need a signed-in session's cookie")
        threads += [
            threading.Thread(
                target=watcher,
                args=(base_url, cookie, f"/nights/{nights[i % len(nights)]}/live", watch_every, stats, until),
                daemon=True,
            )
            for i in range(watchers)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        used = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
        result: dict[str, Any] = {
            "tables": tables,
            "clients": tables * clients_per_table,
            "pause_s": pause,
            "seconds": round(elapsed, 1),
            "requests": len(stats.writes) + len(stats.reads),
            "hands": stats.created,
            "requests_per_s": round((len(stats.writes) + len(stats.reads)) / elapsed, 1),
            "hands_per_s": round(stats.created / elapsed, 1),
            "write": _latency(stats.writes),
            "read": _latency(stats.reads),
            "watchers": watchers,
            "watch": _latency(stats.watches),
            "watch_changed": stats.watch_changed,
            "errors": len(stats.errors),
            "error_samples": stats.errors[:10],
            "unacknowledged": len(stats.pending),
            "client_cpu_s": round(client_cpu, 1),  # the phones' own share of the machine
        }
        result.update(check_api(setup, nights, stats))
    finally:
        setup.close()
    if database_url:
        in_db = check_database(database_url, nights, stats)
        result["lost"] = max(result["lost"], in_db["lost"])
        result["duplicates"] = max(result["duplicates"], in_db["duplicates"])
        result["integrity_check"] = in_db["integrity_check"]
    return result


def report(result: dict[str, Any]) -> str:
    """The result as a few lines of text."""
    server = f" ({result['server']}, {result['database']})" if "server" in result else ""
    lines = [
        f"{result['tables']} tables, {result['clients']} clients"
        + (f" pausing {result['pause_s']} s" if result["pause_s"] else "")
        + f", {result['seconds']} s{server}",
        f"requests  {result['requests']:>8,}  {result['requests_per_s']:>8,.1f}/s",
        f"hands     {result['hands']:>8,}  {result['hands_per_s']:>8,.1f}/s",
    ]
    for kind in ("write", "read"):
        t = result[kind]
        lines.append(f"{kind:<6} p50 {t['p50_ms']:>7.1f} ms  p99 {t['p99_ms']:>7.1f} ms  max {t['max_ms']:>7.1f} ms")
    if result.get("watchers"):
        t = result["watch"]
        lines.append(
            f"watch  p50 {t['p50_ms']:>7.1f} ms  p99 {t['p99_ms']:>7.1f} ms  max {t['max_ms']:>7.1f} ms"
            f"  ({result['watchers']} phones, {t['count']:,} polls, {result['watch_changed']:,} with a change)"
        )
    lines.append(f"the clients used {result['client_cpu_s']} s of CPU")
    lines.append(f"errors {result['errors']}, lost hands {result['lost']}, duplicates {result['duplicates']}")
    if result.get("integrity_check"):
        lines.append(f"integrity check: {result['integrity_check']}")
    lines.extend(f"  {e}" for e in result["error_samples"])
    return "\n".join(lines)


def passed(result: dict[str, Any]) -> bool:
    return (
        result["errors"] == 0
        and result["lost"] == 0
        and result["duplicates"] == 0
        and result.get("integrity_check") in (None, "ok")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="manage.py bench load",
        description="Many tables at once over HTTP: throughput, latency, and nothing lost or doubled. "
        "Without --url it starts gunicorn on a new database of its own (SQLite in a temporary folder, "
        "or --database-url: give it an empty scratch database, never the club's).",
    )
    parser.add_argument("--url", help="a running server (then give --token)")
    parser.add_argument("--token", help="an API token of a scorer or admin of that server")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--clients-per-table", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--reads-per-write", type=int, default=1, help="GETs of the night after each hand")
    parser.add_argument("--pause", type=float, default=0, help="seconds a client waits after each answer (0: none)")
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn workers (own server)")
    parser.add_argument("--threads", type=int, default=THREADS, help="gunicorn threads per worker (own server)")
    parser.add_argument(
        "--watchers", type=int, default=200, help="phones watching the tables (with --url: give --user and --password)"
    )
    parser.add_argument("--user", default=ADMIN, help="the account the watchers sign in as (with --url)")
    parser.add_argument("--password", help="its password (with --url)")
    parser.add_argument("--watch-every", type=float, default=2.0, help="seconds between a watcher's polls")
    parser.add_argument("--database-url", help="the own server's database (default: SQLite in a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    options = {
        "tables": args.tables,
        "clients_per_table": args.clients_per_table,
        "seconds": args.seconds,
        "reads_per_write": args.reads_per_write,
        "pause": args.pause,
    }
    if args.url:
        if not args.token:
            parser.error("--url needs --token")
        watch = {"watchers": args.watchers if args.password else 0, "watch_every": args.watch_every}
        if watch["watchers"]:
            watch["cookie"] = sign_in(args.url, args.user, args.password)
        result = run(args.url, args.token, **options, **watch)
    else:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as folder:
            env = server_env(Path(folder) / "instance", args.database_url)
            password = secrets.token_urlsafe(18)
            token = api_token(env, password=password)
            log = Path(folder) / "gunicorn.log"
            with start_gunicorn(env, args.workers, args.threads, log=log) as server:
                watch = {"watchers": args.watchers, "watch_every": args.watch_every}
                if args.watchers:
                    watch["cookie"] = sign_in(server.url, ADMIN, password)
                result = run(server.url, token, database_url=env["SCOREKEEPER_DATABASE_URL"], **options, **watch)
            if result["errors"]:  # the server's side of them, before the folder goes
                errors = [line for line in log.read_text(errors="replace").splitlines() if "Error" in line]
                print("\n".join(errors[-10:]), file=sys.stderr)
            result["server"] = f"gunicorn -w {args.workers} --threads {args.threads}"
            result["database"] = env["SCOREKEEPER_DATABASE_URL"].split(":", 1)[0]
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
