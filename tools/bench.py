"""Benchmarks that print numbers (``python manage.py bench ...``); not tests."""

from __future__ import annotations

import json
import random
import statistics
import time
from contextlib import contextmanager
from typing import Any

from scorekeeper.cli import settle_text
from scorekeeper.engine import GAMES
from scorekeeper.engine.samples import random_hands

NIGHT = 300  # hands in a long night at the table


def bench_engine(hands_per_game: int = 100_000, seed: int = 1) -> dict[str, dict[str, float]]:
    """Settle ``hands_per_game`` random valid hands per game through the ``settle`` path.

    The hands come as 300-hand nights of JSON text; each night is parsed, settled
    and its result serialised, exactly as ``python manage.py settle`` does.
    Returns hands per second and the median time of one 300-hand night per game.
    """
    figures = {}
    for name, game in GAMES.items():
        rng = random.Random(seed)
        rules = game.parse_rules(None)
        nights = []
        left = hands_per_game
        while left > 0:
            n = min(NIGHT, left)
            nights.append(json.dumps({"game": name, "hands": random_hands(name, rng, n, rules)}))
            left -= n
        per_night = []
        start = time.perf_counter()
        for text in nights:
            t0 = time.perf_counter()
            status, _ = settle_text(text)
            assert status == 0, "a random hand was rejected: the generator is wrong"
            per_night.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - start
        figures[name] = {
            "hands": hands_per_game,
            "seconds": elapsed,
            "hands_per_second": hands_per_game / elapsed,
            "night_ms": statistics.median(per_night) * 1000,
        }
    return figures


def print_engine(figures: dict[str, dict[str, float]]) -> None:
    """One line per game."""
    print(f"{'game':<15}{'hands':>9}{'seconds':>9}{'hands/s':>10}{'300-hand night':>16}")
    for name, f in figures.items():
        print(f"{name:<15}{f['hands']:>9}{f['seconds']:>9.2f}{f['hands_per_second']:>10,.0f}{f['night_ms']:>13.2f} ms")


SIZES = (50, 300, 1000)  # hands in the night a hand is recorded into


def bench_web(
    nights: int = 1000, hands_per_night: int = 200, samples: int = 60, seed: int = 7, sizes: tuple[int, ...] = SIZES
) -> dict[str, Any]:
    """Server time, in process, of recording a hand into nights of ``sizes`` hands and of
    rendering their table page, beside a floor measured in the same run.

    Builds a database of ``nights`` nights of ``hands_per_night`` hands in a temporary folder
    first (the club's history around the nights measured), then, through Flask's test client
    (the whole request, database included, no network):

    - the floor: a trivial request that commits one row to SQLite (WAL) in the same process, the
      least any recorded hand costs;
    - per size, ``samples`` times: record a fresh hand (a new random hand each time) into a night
      of that many hands minus one, render its table page, then take the hand back and delete the
      two audit entries (neither timed), so the night and its audit trail stay as they were.
    """
    import os
    import tempfile
    from datetime import date, timedelta

    from sqlalchemy import delete, func, text
    from sqlmodel import select

    from scorekeeper import create_app
    from scorekeeper.core import accounts
    from scorekeeper.core import db as database
    from scorekeeper.core.models import AuditEntry
    from scorekeeper.web.access import PUBLIC, access, client_for
    from tools.demo import make_night, roster

    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["SCOREKEEPER_INSTANCE"] = folder
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    engine = app.extensions["sk_engine"]
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE bench_floor (id INTEGER PRIMARY KEY, at REAL NOT NULL)"))

    @access(PUBLIC)
    def floor() -> tuple[str, int]:
        with database.session(engine, write=True) as db:
            db.exec(text("INSERT INTO bench_floor (at) VALUES (:at)"), params={"at": time.time()})
            db.commit()
        return "ok", 200

    app.add_url_rule("/bench-floor", "bench_floor", floor, methods=["POST"])
    rng = random.Random(seed)
    t0 = time.perf_counter()
    measured = {}
    with database.session(engine) as db:
        people = roster(db)
        games = list(GAMES)
        for i in range(nights):
            game = games[i % len(games)]
            seats = 2 if game == "matt" else 4
            make_night(
                db,
                rng,
                game,
                rng.sample(people, seats),
                hands_per_night,
                {},
                date(2016, 1, 1) + timedelta(days=i),
                "Bench",
            )
        for size in sizes:
            measured[size] = make_night(db, rng, "matzlfangen", people[:4], size - 1, {}, date(2026, 11, 21), "Bench")
    build = time.perf_counter() - t0
    with database.session(engine, write=True) as db:
        client = client_for(app, accounts.create_user(db=db, name="bench", password="bench-password", role="admin"))
    rules = GAMES["matzlfangen"].parse_rules(None)
    floor_times = []
    for _ in range(samples):
        t = time.perf_counter()
        answer = client.post("/bench-floor")
        floor_times.append(time.perf_counter() - t)
        assert answer.status_code == 200, (answer.status_code, answer.get_data(as_text=True)[:300])
    figures: dict[str, Any] = {
        "nights": nights + len(sizes),
        "hands": nights * hands_per_night + sum(sizes) - len(sizes),
        "build_seconds": build,
        "samples": samples,
        "floor_median_ms": statistics.median(floor_times) * 1000,
        "floor_p95_ms": _pct(floor_times, 0.95),
        "sizes": {},
    }
    for size, night in measured.items():
        record, render, watch = [], [], []
        for i in range(samples):
            # a new random hand each sample, valid as hand number ``size`` (dealt from seat 1 on)
            hand = random_hands("matzlfangen", random.Random(seed * 1000 + size * 100 + i), size, rules)[-1]
            with database.session(engine) as db:
                last_audit = db.exec(select(func.max(AuditEntry.id))).one() or 0
            t = time.perf_counter()
            answer = client.post(f"/api/v1/sessions/{night}/hands", json=hand)
            record.append(time.perf_counter() - t)
            assert answer.status_code == 201, answer.get_json()
            t = time.perf_counter()
            page = client.get(f"/nights/{night}")
            render.append(time.perf_counter() - t)
            assert page.status_code == 200
            # another phone's poll of the night it has seen: 304
            tag = client.get(f"/nights/{night}/live").headers["ETag"]
            t = time.perf_counter()
            polled = client.get(f"/nights/{night}/live", headers={"If-None-Match": tag})
            watch.append(time.perf_counter() - t)
            assert polled.status_code == 304
            # keep the night at size - 1 hands and its audit trail as it was (not timed)
            assert client.delete(f"/api/v1/sessions/{night}/hands/{size}").status_code == 200
            with database.session(engine, write=True) as db:
                db.exec(delete(AuditEntry).where(AuditEntry.id > last_audit))
                db.commit()
        tag = client.get(f"/nights/{night}/live").headers["ETag"]  # as the night is now
        served = wsgi_times(app, client, f"/nights/{night}/live", {"If-None-Match": tag}, samples * 5)
        figures["sizes"][size] = {
            "served_median_ms": statistics.median(served) * 1000,
            "record_median_ms": statistics.median(record) * 1000,
            "record_p95_ms": _pct(record, 0.95),
            "render_median_ms": statistics.median(render) * 1000,
            "render_p95_ms": _pct(render, 0.95),
            "watch_median_ms": statistics.median(watch) * 1000,
            "watch_p95_ms": _pct(watch, 0.95),
        }
    return figures


def wsgi_times(app: Any, client: Any, path: str, headers: dict[str, str], runs: int) -> list[float]:
    """Seconds the app itself takes for ``path`` (called as a WSGI app with a request prepared
    beforehand, the test ``client``'s cookies included): the server's time without the test
    client's own work around each request (which ``bench web``'s other columns include)."""
    from werkzeug.test import EnvironBuilder

    cookie = "; ".join(f"{c.key}={c.value}" for c in client._cookies.values())
    auth = client.environ_base.get("HTTP_AUTHORIZATION")
    sent = {**headers, "Cookie": cookie, **({"Authorization": auth} if auth else {})}
    times, statuses = [], set()
    for _ in range(runs):
        environ = EnvironBuilder(path=path, headers=sent).get_environ()
        began = time.perf_counter()
        body = app(environ, lambda status, headers, exc=None: statuses.add(status))
        b"".join(body)
        times.append(time.perf_counter() - began)
    assert statuses == {"304 NOT MODIFIED"}, statuses
    return times


def print_web(f: dict[str, Any]) -> None:
    print(f"database: {f['nights']} nights, {f['hands']:,} hands, built in {f['build_seconds']:.1f} s")
    floor = f["floor_median_ms"]
    print(
        f"floor (a trivial request + a SQLite WAL commit): median {floor:.2f} ms, p95 {f['floor_p95_ms']:.2f} ms"
        f"  ({f['samples']} samples each)"
    )
    print(
        f"{'hands in the night':>18}  {'record median / p95':>22}  {'x floor':>7}  {'table page median / p95':>24}"
        f"  {'poll, unchanged (304)':>22}"
    )
    first = None
    for size, s in f["sizes"].items():
        first = first or s
        print(
            f"{size:>18}  {s['record_median_ms']:>9.1f} / {s['record_p95_ms']:>6.1f} ms  "
            f"{s['record_median_ms'] / floor:>7.1f}  {s['render_median_ms']:>11.1f} / {s['render_p95_ms']:>6.1f} ms"
            f"  {s['watch_median_ms']:>9.2f} / {s['watch_p95_ms']:>6.2f} ms"
        )
    served = ", ".join(f"{size}: {s['served_median_ms']:.2f} ms" for size, s in f["sizes"].items())
    print(f"poll, unchanged (304), the app's own time (no test client), median by night size: {served}")
    sizes = list(f["sizes"])
    if len(sizes) > 1:
        last = f["sizes"][sizes[-1]]
        grow = last["record_median_ms"] / first["record_median_ms"]
        page = last["render_median_ms"] / first["render_median_ms"]
        print(f"growth from {sizes[0]} to {sizes[-1]} hands: record x{grow:.2f}, table page x{page:.2f}")


def bench_pdf(runs: int = 3, seed: int = 11) -> dict[str, float]:
    """Seconds to make the PDF summary of a 300-hand Schafkopf night (median of ``runs``)."""
    import os
    import tempfile
    from datetime import date

    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.table import load_table
    from scorekeeper.web.pdf import summary_document
    from tools.demo import make_night, roster

    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["SCOREKEEPER_INSTANCE"] = folder
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "SECRET_KEY": "bench"})
    with database.session(app.extensions["sk_engine"]) as db:
        people = roster(db)
        night = make_night(db, random.Random(seed), "schafkopf", people[:4], NIGHT, {}, date(2026, 11, 21), "Bench")
        times = []
        with app.test_request_context("/?lang=de"):
            for _ in range(runs):
                t = time.perf_counter()
                table = load_table(db=db, night_id=night)
                document = summary_document(table)
                data = document.write_pdf()
                times.append(time.perf_counter() - t)
            pages = len(document.pages)
    return {"hands": NIGHT, "seconds": statistics.median(times), "bytes": len(data), "pages": pages}


def print_pdf(f: dict[str, float]) -> None:
    print(f"PDF of a {f['hands']}-hand night: {f['seconds']:.2f} s (median), {f['pages']} pages, {f['bytes']:,} bytes")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def bench_history(app: Any, runs: int = 30) -> dict[str, Any]:
    """Server time of the history pages on the app's own database (``demo --nights 2000`` first).

    Times, through Flask's test client (database included, no network): the nights list,
    the list filtered by a player and a game (second page), the page of the player with
    the most nights, and the leaderboard of the newest season's most played game.
    Returns the database's size and, per page, its median and p95 in milliseconds.
    """
    from sqlalchemy import func
    from sqlmodel import select

    from scorekeeper.core import db as database
    from scorekeeper.core import history_pages
    from scorekeeper.core.models import HandRecord, Night, NightResult

    with database.session(app.extensions["sk_engine"]) as db:
        nights = db.exec(select(func.count()).select_from(Night)).one()
        hands = db.exec(select(func.count()).select_from(HandRecord)).one()
        if not nights:
            return {"nights": 0, "hands": 0, "pages": {}}
        player = db.exec(
            select(NightResult.player_id).group_by(NightResult.player_id).order_by(func.count().desc())
        ).first()
        newest = db.exec(select(func.max(Night.played_on))).one()
        season = history_pages.Season.of(newest, app.config["SEASON_START"])
        game = db.exec(
            select(Night.game).where(Night.played_on >= season.start).group_by(Night.game).order_by(func.count().desc())
        ).first()
    pages = {
        "nights list": "/nights/",
        "nights of a player and game, page 2": f"/nights/?player={player}&game={game}&page=2",
        "a player's page": f"/players/{player}",
        "season leaderboard": f"/leaderboard?game={game}&season={season.year}",
    }
    figures = {}
    with temporary_viewer(app) as client:
        for name, url in pages.items():
            figures[name] = _time_page(client, url, runs)
    return {"nights": nights, "hands": hands, "pages": figures}


@contextmanager
def temporary_viewer(app: Any):
    """A client of a viewer account made for the benchmark and removed after it (with its token)."""
    import secrets

    from sqlmodel import delete

    from scorekeeper.core import accounts
    from scorekeeper.core import db as database
    from scorekeeper.core.models import ApiToken, User
    from scorekeeper.web.access import client_for

    engine = app.extensions["sk_engine"]
    with database.session(engine, write=True) as db:
        user = accounts.create_user(
            db=db, name=f"bench-{secrets.token_hex(4)}", password=secrets.token_hex(16), role="viewer"
        )
    try:
        yield client_for(app, user)
    finally:
        with database.session(engine, write=True) as db:
            db.exec(delete(ApiToken).where(ApiToken.user_id == user.id))
            db.exec(delete(User).where(User.id == user.id))
            db.commit()


def _time_page(client: Any, url: str, runs: int) -> dict[str, Any]:
    """One page's median and p95 over ``runs`` requests (after one to warm up and check)."""
    assert client.get(url).status_code == 200, url  # warm up, and check
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        answer = client.get(url)
        times.append(time.perf_counter() - t)
        assert answer.status_code == 200, url
    return {"url": url, "median_ms": statistics.median(times) * 1000, "p95_ms": _pct(times, 0.95)}


def print_history(f: dict[str, Any]) -> None:
    if not f["nights"]:
        print("the database has no nights: make some first with `python manage.py demo --nights 2000`")
        return
    print(f"database: {f['nights']:,} nights, {f['hands']:,} hands")
    for name, page in f["pages"].items():
        print(f"{name:38} median {page['median_ms']:6.1f} ms, p95 {page['p95_ms']:6.1f} ms  {page['url']}")
