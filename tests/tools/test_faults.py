"""Faults: the server killed (SIGKILL) in the middle of a burst of recordings, again and again, and started again.
Afterwards every acknowledged hand is stored, none twice, the numbers have no gap and SQLite finds its file sound."""

from __future__ import annotations

import http.client
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing

import pytest

from tools import loadtest

pytestmark = pytest.mark.slow

KILLS = 5
PHONES = 3
#: The app served by Werkzeug's threaded server in a process of its own (on the port given).
SERVE = """
import sys
from werkzeug.serving import make_server
from scorekeeper import create_app
make_server("127.0.0.1", int(sys.argv[1]), create_app(), threaded=True).serve_forever()
"""


def serve(env, port: int, log) -> subprocess.Popen:
    """The server, answering."""
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(port)], env=env, cwd=loadtest.ROOT, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        loadtest.wait_until_up(f"http://127.0.0.1:{port}", process)
    except BaseException:
        process.kill()
        raise
    return process


class Phone:
    """Records hands on one night as fast as the server answers. A hand whose answer never came (the server
    died) is sent again with the same Idempotency-Key until it is acknowledged."""

    def __init__(self, url: str, token: str, night: int, name: str, stop: threading.Event) -> None:
        self.client = loadtest.Client(url, token, timeout=10)
        self.night, self.name, self.stop = night, name, stop
        self.acked: dict[str, tuple[int, int, dict]] = {}  # key: number, status, hand
        self.failures = 0  # requests without an answer
        self.refused: list[str] = []  # answers that were no 2xx
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        n = 0
        while not self.stop.is_set() and not self.refused:  # a hand once sent is sent until acknowledged
            key, hand = f"{self.name}-{n}", loadtest.HANDS[n % len(loadtest.HANDS)]
            while True:
                try:
                    status, answer = self.client.request(
                        "POST", loadtest.hand_path(self.night), hand, {"Idempotency-Key": key}
                    )
                except (OSError, http.client.HTTPException):
                    self.failures += 1
                    time.sleep(0.02)
                    continue
                break
            if status not in (200, 201):
                self.refused.append(f"{key}: {status} {answer}")
                return
            self.acked[key] = (answer["hand"]["number"], status, hand)
            n += 1


def acknowledged(phones: list[Phone]) -> int:
    return sum(len(p.acked) for p in phones)


def wait_for_hands(phones: list[Phone], more: int, timeout: float = 20) -> None:
    """Until the phones have ``more`` hands acknowledged than now."""
    goal, deadline = acknowledged(phones) + more, time.monotonic() + timeout
    while acknowledged(phones) < goal:
        assert time.monotonic() < deadline, "the phones record nothing"
        assert not any(p.refused for p in phones), [p.refused for p in phones]
        time.sleep(0.01)


def test_killing_the_server_in_the_middle_of_recording_loses_no_acknowledged_hand(tmp_path):
    path = tmp_path / "club.db"
    env = loadtest.server_env(tmp_path / "instance", f"sqlite:///{path}")
    token = loadtest.api_token(env)
    port = loadtest.free_port()
    url, log = f"http://127.0.0.1:{port}", tmp_path / "server.log"
    stop = threading.Event()
    server = serve(env, port, log)
    try:
        setup = loadtest.Client(url, token)
        (night,) = loadtest.start_nights(setup, 1, "Fault")
        setup.close()
        phones = [Phone(url, token, night, f"phone{i}", stop) for i in range(PHONES)]
        for _ in range(KILLS):
            wait_for_hands(phones, 5)
            time.sleep(random.uniform(0.05, 0.3))  # somewhere in the burst
            server.send_signal(signal.SIGKILL)
            server.wait()
            time.sleep(0.1)  # the phones find no server for a moment
            server = serve(env, port, log)
        wait_for_hands(phones, 10)  # and the hands that were cut off are through
        stop.set()
        for phone in phones:
            phone.thread.join(30)
            phone.client.close()
    finally:
        stop.set()
        server.terminate()
        server.wait(10)

    assert [p.refused for p in phones] == [[]] * PHONES, log.read_text()[-3000:]
    assert not any(p.thread.is_alive() for p in phones)
    assert sum(p.failures for p in phones) >= KILLS  # every kill was felt
    acked = {key: value for p in phones for key, value in p.acked.items()}
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        stored = db.execute(
            "SELECT number, idempotency_key, data FROM handrecord WHERE evening_id = ? ORDER BY number", (night,)
        ).fetchall()
        numbers = [number for number, _, _ in stored]
        keys = [key for _, key, _ in stored]
        assert numbers == list(range(1, len(stored) + 1))  # no gap, no number twice
        assert len(set(keys)) == len(keys)  # no hand twice
        assert set(keys) == set(acked)  # every acknowledged hand, and only those (each was sent until it was)
        for number, key, data in stored:
            assert acked[key][0] == number  # a repeat after a restart answered the hand first stored
            assert json.loads(data) | acked[key][2] == json.loads(data)
        # each hand came with its audit entry, the night's version and history rows: one transaction
        assert db.execute("SELECT version FROM evening WHERE id = ?", (night,)).fetchall() == [(len(stored),)]
        audit = db.execute("SELECT count(*) FROM auditentry WHERE evening_id = ? AND action = 'record'", (night,))
        assert audit.fetchall() == [(len(stored),)]
        hands = db.execute("SELECT hands FROM night_result WHERE evening_id = ?", (night,)).fetchall()
        assert hands == [(len(stored),)] * 4
