"""``manage.py bench pdf-memory``: a process's memory (RSS) while it lays out one PDF after another.

Each way runs in a fresh process of its own, with the app's garbage-collector settings (``create_app``:
thresholds 50000, 20, 100 and the app frozen), and lays out a 300-hand night's summary ``runs`` times
through ``web/printing.py``'s :func:`lay_out` (the one place PDFs are made), printing the RSS as it goes:

- ``none``: nothing after a PDF (as before);
- ``collect``: ``gc.collect()`` after each PDF;
- ``trim``: ``gc.collect()`` and glibc's ``malloc_trim(0)`` after each (what :func:`lay_out` does now).

A leak grows in every way; garbage the collector reaches late grows in ``none`` only; memory freed but
kept by the allocator (fragmentation) stays up in ``collect`` and drops in ``trim``."""

from __future__ import annotations

import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WAYS = ("none", "collect", "trim")


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def child(way: str, runs: int) -> None:
    """Lay out ``runs`` PDFs in this process the ``way`` given; print one JSON line of RSS figures."""
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.table import load_table
    from scorekeeper.web import printing
    from scorekeeper.web.pdf import summary_html
    from tools.bench import NIGHT
    from tools.demo import make_night, roster

    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    os.environ["SCOREKEEPER_INSTANCE"] = folder
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "SECRET_KEY": "bench"})
    printing.RECLAIM = False  # trim: lay_out's own gc.collect() and malloc_trim(0), called here to time it
    rss, reclaim_ms = [], []
    with database.session(app.extensions["sk_engine"]) as db:
        people = roster(db)
        night = make_night(db, random.Random(11), "schafkopf", people[:4], NIGHT, {}, date(2026, 11, 21), "Bench")
        with app.test_request_context("/?lang=de"):
            rss.append(_rss_mb())
            for _ in range(runs):
                html = summary_html(load_table(db=db, night_id=night))
                printing.lay_out(html)
                db.expunge_all()  # nothing of the night kept by the benchmark's own session
                if way == "collect":
                    gc.collect()
                elif way == "trim":
                    began = time.perf_counter()
                    printing._reclaim()
                    reclaim_ms.append((time.perf_counter() - began) * 1000)
                rss.append(_rss_mb())
    print(json.dumps({"way": way, "rss": rss, "reclaim_ms": reclaim_ms}))


def run(runs: int = 40) -> list[dict[str, Any]]:
    """Each way in a process of its own: its RSS before the first PDF and after each."""
    figures = []
    for way in WAYS:
        out = subprocess.run(
            [sys.executable, "-c", f"from tools.bench_pdf_memory import child; child({way!r}, {runs})"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        figures.append(json.loads(out.strip().splitlines()[-1]))
    return figures


def report(figures: list[dict[str, Any]]) -> str:
    lines = ["RSS in MB: before the first PDF, after the 1st, 10th, 20th, ... and the last"]
    for f in figures:
        rss = f["rss"]
        marks = [rss[0], *rss[1 : len(rss) : 10]]
        if (len(rss) - 2) % 10:
            marks.append(rss[-1])
        line = f"  {f['way']:8} " + " ".join(f"{m:6.0f}" for m in marks) + f"   (max {max(rss):.0f})"
        if f["reclaim_ms"]:
            line += f", gc.collect() + malloc_trim(0): median {statistics.median(f['reclaim_ms']):.0f} ms"
        lines.append(line)
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(int(sys.argv[1]) if len(sys.argv) > 1 else 40)))
