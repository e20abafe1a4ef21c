"""The browser tests' server (tests/support.py ``served_app``) closes every answer, also when the
browser resets the connection: a file left open failed whichever test the collector met it in."""

from __future__ import annotations

import contextlib
import functools
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


def _gone_after(url: str, seconds: float) -> None:
    """Ask for ``url`` and stop waiting after ``seconds``, as a page closed meanwhile."""
    with contextlib.suppress(OSError):  # the timeout: no longer waiting
        urllib.request.urlopen(url, timeout=seconds).close()


def test_a_static_file_is_closed_when_the_browser_resets_the_connection(tmp_path, sqlite_template, monkeypatch):
    left_open: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: left_open.append(repr(unraisable.exc_value)))
    with served_app(tmp_path, sqlite_template, tmp_path / "static", poll_seconds=60) as (base, _app):
        with urllib.request.urlopen(f"{base}/") as first_page:
            script = re.search(r'/static/[^"]+\.js', first_page.read().decode()).group(0)
        with urllib.request.urlopen(f"{base}{script}") as whole:
            assert whole.status == 200 and whole.read()
        port = int(base.rsplit(":", 1)[1])
        for attempt in range(60):  # the reset must meet the server's last read: a few timings
            _reset_at_once(port, script, (0, 0.0005, 0.002)[attempt % 3])
    gc.collect()  # served_app has waited for its requests to end
    assert left_open == []


def test_a_request_still_being_answered_ends_before_the_app_goes(tmp_path, sqlite_template):
    """A page closed while its request is under way: the server ends that answer before the engine is
    disposed (a connection checked out meanwhile went back to the disposed pool, and Python 3.13's
    unclosed-database warning failed a later test)."""
    started = threading.Event()
    with served_app(tmp_path, sqlite_template, tmp_path / "static", poll_seconds=60) as (base, app):
        endpoint = app.url_map.bind("127.0.0.1").match("/offline")[0]
        view = app.view_functions[endpoint]

        @functools.wraps(view)  # its access rule too
        def slow(*args, **kwargs):
            started.set()
            time.sleep(1)
            return view(*args, **kwargs)

        app.view_functions[endpoint] = slow
        phone = threading.Thread(target=_gone_after, args=(f"{base}/offline", 0.2), daemon=True)
        phone.start()
        assert started.wait(5)
        under_way = [t for t in threading.enumerate() if t.name.endswith("(process_request_thread)")]
        assert under_way and all(t.is_alive() for t in under_way)
    assert not any(t.is_alive() for t in under_way)
