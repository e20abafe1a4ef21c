"""``manage.py bench presses``: a table recording hands while 16 people ask for the night's PDF, against
``make run``'s own server (``manage.py run``, waitress) in a process of its own.

The floor is the same table recording with nobody asking for a PDF, measured in the same run: the
ratio of the two says what the PDFs cost the table on whatever machine runs it (web/printing.py lays
out one PDF at a time per process and tells the other readers to come back)."""

from __future__ import annotations

import http.client
import secrets
import statistics
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from tools import loadtest

HANDS = ({"contract": "durch", "declarer": 1, "won": True}, {"contract": "durch", "declarer": 2, "won": False})


def _get(base_url: str, path: str, cookie: str) -> int:
    parts = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    try:
        connection.request("GET", path, headers={"Cookie": cookie})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def _record(client: loadtest.Client, night: int, records: int) -> list[float]:
    seconds = []
    for n in range(records):
        began = time.perf_counter()
        client.call("POST", loadtest.hand_path(night), HANDS[n % len(HANDS)])
        seconds.append(time.perf_counter() - began)
    return seconds


def run(hands: int = 300, readers: int = 16, records: int = 10) -> dict[str, Any]:
    """Record ``records`` hands into a night of ``hands`` hands, first alone (the floor), then while
    ``readers`` people ask for the night's summary PDF again and again."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-presses-") as folder:
        env = loadtest.server_env(Path(folder) / "instance")
        password = secrets.token_urlsafe(18)
        token = loadtest.api_token(env, password=password)
        port = loadtest.free_port()
        url = f"http://127.0.0.1:{port}"
        process = loadtest.start_make_run(env, port, Path(folder) / "server.log")
        try:
            client = loadtest.Client(url, token)
            (night,) = loadtest.start_nights(client, 1, "Presse")
            _record(client, night, hands)
            cookie = loadtest.sign_in(url, loadtest.ADMIN, password)
            floor = _record(client, night, records)
            stop = threading.Event()
            answers: list[int] = []

            def reader() -> None:
                while not stop.is_set():
                    answers.append(_get(url, f"/nights/{night}/summary.pdf", cookie))

            threads = [threading.Thread(target=reader, daemon=True) for _ in range(readers)]
            for t in threads:
                t.start()
            time.sleep(0.5)  # every reader has asked
            busy = _record(client, night, records)
            stop.set()
            for t in threads:
                t.join(300)
            client.close()
        finally:
            process.terminate()
            process.wait(30)
    return {
        "hands": hands,
        "readers": readers,
        "floor": floor,
        "busy": busy,
        "pdfs": answers.count(200),
        "come_back": answers.count(503),
        "other": [s for s in answers if s not in (200, 503)],
    }


def report(f: dict[str, Any]) -> str:
    floor, busy = statistics.median(f["floor"]), statistics.median(f["busy"])
    return (
        f"recording a hand into a {f['hands']}-hand night under make run's server (waitress):\n"
        f"  alone (the floor):               median {floor * 1000:7.1f} ms, slowest {max(f['floor']) * 1000:7.1f} ms\n"
        f"  while {f['readers']} people ask for its PDF: median {busy * 1000:7.1f} ms, "
        f"slowest {max(f['busy']) * 1000:7.1f} ms ({busy / floor:.1f}x the floor)\n"
        f"  PDFs laid out and sent: {f['pdfs']}; 'being prepared, try again': {f['come_back']}; "
        f"other answers: {len(f['other'])}"
    )
