"""`make run`'s server (``manage.py run``) as the process a club starts, driven over real sockets.

Issue 22.1: the server must never hang. Phones drop connections all the time (a poll aborted by
navigation, a preview superseded, the pub's Wi-Fi gone mid-request); after hundreds of connections
closed with a reset at every moment of an exchange, the server still answers at once, and 20 requests
at once all get their answer."""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper.cli import serving
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


def _answer_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sends on ``sock`` within ``seconds`` (up to its close), or b"" on a reset."""
    sock.settimeout(seconds)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        pytest.fail(f"no answer within {seconds} s; got {data[:200]!r}")
    except ConnectionResetError:
        pass
    return data


def _post_login(port: int, length: int, body: bytes) -> bytes:
    """A form posted to /login saying it is ``length`` bytes long, ``body`` of it sent; the answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        sock.sendall(
            b"POST /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n" + f"Content-Length: {length}\r\n\r\n".encode()
        )
        with contextlib.suppress(OSError):  # the server refuses it and closes the connection meanwhile
            sock.sendall(body)
        return _answer_within(sock, 5)
    finally:
        sock.close()


def test_a_body_over_the_apps_limit_is_refused_at_once_not_read(server):
    """waitress read any body up to its default 1 GiB to a temp file before the app's 1 MiB limit
    refused it (a 1000 MB post to /login: 28 s and a full disk). Now waitress refuses it after the
    head, at once, while a body of exactly 1 MiB (the app's limit) still reaches the app."""
    answer = _post_login(server.port, 1_000_000_000, b"x" * (2 * 1024 * 1024))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert _post_login(server.port, 1024 * 1024 + 1, b"x" * (1024 * 1024 + 1)).startswith(b"HTTP/1.1 413")
    at_limit = _post_login(server.port, 1024 * 1024, b"name=" + b"x" * (1024 * 1024 - 5))
    assert at_limit.startswith(b"HTTP/1.1 "), at_limit[:200]
    assert not at_limit.startswith(b"HTTP/1.1 413"), at_limit[:200]  # the app's own answer (its CSRF check)
    assert _get(server.port, timeout=5) == 200


def test_one_address_holding_hundreds_of_slow_connections_does_not_stop_the_others(server):
    """One laptop on the pub's Wi-Fi (here 127.0.0.2) opening 520 connections, each sending a request a
    byte at a time, took all of waitress's 500: nobody else got an answer. Now one address holds at
    most PER_ADDRESS_LIMIT of them, and another phone is answered at once."""
    held = []
    try:
        for _ in range(520):
            sock = socket.socket()
            sock.settimeout(5)
            sock.bind(("127.0.0.2", 0))
            try:
                sock.connect(("127.0.0.1", server.port))
                sock.send(b"G")
            except OSError:
                sock.close()
                continue
            held.append(sock)
        for sock in held:
            with contextlib.suppress(OSError):
                sock.send(b"E")
        assert _get(server.port, timeout=5) == 200  # a hung server times out here
        open_ones = 0
        for sock in held:
            sock.settimeout(0.05)
            try:
                if sock.recv(1) != b"":
                    open_ones += 1
            except TimeoutError:
                open_ones += 1  # still held by the server: nothing to read yet
            except OSError:
                pass
        assert open_ones <= serving.PER_ADDRESS_LIMIT < 500
    finally:
        for sock in held:
            sock.close()
    assert server.process.poll() is None


def test_a_request_trickling_in_is_cut_off_after_its_deadline(server):
    """A byte every 2 s keeps a connection from ever being idle for waitress's channel_timeout (60 s):
    such a request is closed once it has taken REQUEST_SECONDS (30) to arrive."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    request = b"GET /login HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40
    started = time.monotonic()
    try:
        for n in range(len(request)):
            try:
                sock.send(request[n : n + 1])
            except OSError:
                break
            sock.settimeout(2)
            try:
                if sock.recv(1) == b"":
                    break  # closed by the server
            except TimeoutError:
                pass
            except OSError:
                break
        else:
            pytest.fail("the trickling request was never cut off")
    finally:
        sock.close()
    assert 28 <= time.monotonic() - started <= 40
    assert _get(server.port, timeout=5) == 200
