"""`make run`'s server (``manage.py run``) as the process a club starts, driven over real sockets.

Issue 22.1: the server must never hang. Phones drop connections all the time (a poll aborted by
navigation, a preview superseded, the pub's Wi-Fi gone mid-request); after hundreds of connections
closed with a reset at every moment of an exchange, the server still answers at once, and 20 requests
at once all get their answer."""

from __future__ import annotations

import http.client
import re
import socket
import struct
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tools import loadtest

pytestmark = pytest.mark.slow


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    env = loadtest.server_env(tmp_path / "instance")
    port = loadtest.free_port()
    log = tmp_path / "server.log"
    process = loadtest.start_make_run(env, port, log)
    try:
        yield Server(port, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close() sends a reset
    return sock


def _read_answer(sock: socket.socket, bodiless: bool = False) -> bytes:
    """The whole answer to one request (headers, then Content-Length bytes or up to the end; only the
    headers when ``bodiless``, the answer to a HEAD)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    match = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    if bodiless or head.split(b" ", 2)[1] in (b"304", b"204"):
        return data
    length = int(match.group(1)) if match else None
    while length is None or len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def _static_path(port: int) -> tuple[str, str]:
    """A fingerprinted stylesheet's path and its ETag (for 304s)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/login")
    page = connection.getresponse().read().decode()
    path = re.search(r'href="(/static/[^"]+\.css)"', page).group(1)
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return path, answer.getheader("ETag") or ""


def _rude_exchanges(port: int, count: int) -> None:
    """``count`` connections, each closed with a reset at another moment of its exchange."""
    static, etag = _static_path(port)
    exchanges = [
        (b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n", True),  # the answer read whole, then a reset
        (f"GET {static} HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\n\r\n".encode(), True),  # a 304 poll
        (b"HEAD /login HTTP/1.1\r\nHost: x\r\n\r\n", True),
        (b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n", False),  # reset before the answer is read
        (
            b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 400\r\n\r\nname=anna&pass",
            False,
        ),  # a body cut short
        (
            b"POST /nights/1/hands/new?fragment=1 HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 20\r\n\r\ncontract=rufen&a=1&b",
            True,
        ),  # a preview (refused: no session), answered
        (b"GET /login HTTP/1.1\r\nHost: x\r\n\r\nGET /login HTTP/1.1\r\nHost: x\r\n\r\n", True),  # pipelined
        (b"GET /log", False),  # a request line cut short
    ]
    for n in range(count):
        request, read = exchanges[n % len(exchanges)]
        sock = _connect(port)
        try:
            sock.sendall(request)
            if read:
                _read_answer(sock, bodiless=request.startswith(b"HEAD"))
        except TimeoutError:
            pytest.fail(f"no answer within 5 s after {n} rude connections: the server hangs")
        except OSError:
            pass  # the server may close a connection it finds broken first
        finally:
            sock.close()


def _get(port: int, path: str = "/login", timeout: float = 10) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def test_after_hundreds_of_connections_reset_at_every_moment_the_server_still_answers(server):
    _rude_exchanges(server.port, 240)
    assert _get(server.port, timeout=5) == 200  # at once: a hung server times out here
    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(lambda _: _get(server.port, timeout=20), range(20)))
    assert statuses == [200] * 20
    assert server.process.poll() is None


def test_normal_traffic_mixed_with_resets_is_answered_in_full(server):
    with ThreadPoolExecutor(6) as pool:
        rude = [pool.submit(_rude_exchanges, server.port, 40) for _ in range(3)]
        polite = [pool.submit(_get, server.port, "/login", 20) for _ in range(60)]
        assert [f.result() for f in polite] == [200] * 60
        for f in rude:
            f.result()
    assert _get(server.port, timeout=5) == 200


def test_the_start_lines_name_the_setup_address_and_the_server(server):
    output = server.output()
    assert re.search(rf"http://127\.0\.0\.1:{server.port}/setup/\S+", output), output
    assert "waitress" in output.lower(), output  # the production WSGI server, not Flask's development server
    assert "development server" not in output.lower(), output
