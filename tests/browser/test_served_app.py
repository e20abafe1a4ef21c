"""The browser tests' server (tests/support.py ``served_app``) closes every answer, also when the
browser resets the connection: a file left open failed whichever test the collector met it in."""

from __future__ import annotations

import gc
import re
import socket
import struct
import sys
import threading
import time
import urllib.request

from tests.support import served_app


def _reset_at_once(port: int, path: str, wait: float) -> None:
    """Ask for ``path`` and reset the connection (RST, not FIN) after ``wait`` seconds, as a closing page."""
    with socket.create_connection(("127.0.0.1", port)) as phone:
        phone.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: br, gzip\r\n\r\n".encode())
        time.sleep(wait)
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_static_file_is_closed_when_the_browser_resets_the_connection(tmp_path, sqlite_template, monkeypatch):
    left_open: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: left_open.append(repr(unraisable.exc_value)))
    threads_before = set(threading.enumerate())
    with served_app(tmp_path, sqlite_template, tmp_path / "static", poll_seconds=60) as (base, _app):
        with urllib.request.urlopen(f"{base}/") as first_page:
            script = re.search(r'/static/[^"]+\.js', first_page.read().decode()).group(0)
        with urllib.request.urlopen(f"{base}{script}") as whole:
            assert whole.status == 200 and whole.read()
        port = int(base.rsplit(":", 1)[1])
        for attempt in range(60):  # the reset must meet the server's last read: a few timings
            _reset_at_once(port, script, (0, 0.0005, 0.002)[attempt % 3])
        for thread in set(threading.enumerate()) - threads_before:
            if thread.name.endswith("(process_request_thread)"):
                thread.join(5)
    gc.collect()
    assert left_open == []
