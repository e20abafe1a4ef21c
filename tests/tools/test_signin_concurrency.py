"""Sign-ins at once against real servers started here (loopback only, bounded in time):

- item 2: sixteen wrong passwords for one name at the same moment, under gunicorn with 4 workers of
  4 threads: the rate limit lets at most five of them be checked (it counts before it checks);
- item 4: a burst of fifty sign-ins at ``make run``'s server never makes another user's read fail
  (a request holds at most one pooled connection, and the server answers no more requests at once
  than the pool has connections).

On SQLite and, when SCOREKEEPER_TEST_POSTGRES_URL is set, on PostgreSQL.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import BACKENDS, PASSWORD, ROOT, fresh_postgres
from tools import loadtest

pytestmark = pytest.mark.slow

TIMEOUT = 60  # seconds per request: a pool running dry answers after 30


def _env(backend: str, tmp_path):
    url = None if backend == "sqlite" else fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])
    return loadtest.server_env(tmp_path / "instance", url)


def _connection(base: str) -> http.client.HTTPConnection:
    parts = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)


def login_form(base: str) -> tuple[str, str]:
    """A browser opening the sign-in page: its session cookie and the form's CSRF token."""
    connection = _connection(base)
    try:
        connection.request("GET", "/login")
        answer = connection.getresponse()
        page = answer.read().decode()
        cookie = answer.getheader("Set-Cookie", "").split(";", 1)[0]
    finally:
        connection.close()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert answer.status == 200 and cookie.startswith("session=") and token, page[:500]
    return cookie, token.group(1)


def post_login(base: str, form: tuple[str, str], name: str, password: str) -> int:
    """The form sent: the answer's status (302 signed in, 400 wrong, 429 refused before a check)."""
    cookie, token = form
    body = urllib.parse.urlencode({"csrf_token": token, "name": name, "password": password})
    connection = _connection(base)
    try:
        connection.request(
            "POST",
            "/login",
            body=body,
            headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def at_once(count: int, attempt) -> list:
    """``attempt(i)`` for i in range(count), all released at the same moment."""
    start = threading.Barrier(count)

    def run(i):
        start.wait(TIMEOUT)
        return attempt(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_sixteen_wrong_passwords_at_once_under_gunicorn_get_at_most_five_checks(backend, tmp_path):
    env = _env(backend, tmp_path)
    made = loadtest.manage(["create-admin", "Wirt"], {**env, "SCOREKEEPER_ADMIN_PASSWORD": PASSWORD})
    assert made.returncode == 0, made.stderr
    with loadtest.start_gunicorn(env, log=tmp_path / "gunicorn.log") as server:
        forms = [login_form(server.url) for _ in range(17)]
        statuses = at_once(16, lambda i: post_login(server.url, forms[i], "WIRT", f"falsch-{i:02}"))
        last = post_login(server.url, forms[16], "Wirt", PASSWORD)  # the right one, in the last slot
    checked = statuses.count(400)
    assert sorted(set(statuses)) == [400, 429], statuses
    assert checked == 5, f"{checked} passwords were checked: {statuses}"
    assert last == 429  # the pause holds, also for the right password


def _reads(base: str, token: str, until: threading.Event) -> list[tuple[int, float]]:
    """Another user reading, one request after the other, until ``until``: (status, seconds) each."""
    done = []
    while not until.is_set() or not done:
        connection = _connection(base)
        began = time.monotonic()
        try:
            connection.request("GET", "/api/v1/players", headers={"Authorization": f"Bearer {token}"})
            answer = connection.getresponse()
            answer.read()
            done.append((answer.status, time.monotonic() - began))
        except (OSError, http.client.HTTPException) as exc:
            done.append((repr(exc), time.monotonic() - began))
        finally:
            connection.close()
        time.sleep(0.05)
    return done


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_burst_of_fifty_sign_ins_at_make_runs_server_never_fails_another_users_read(backend, tmp_path):
    env = _env(backend, tmp_path)
    token = loadtest.api_token(env)
    port = loadtest.free_port()
    log = tmp_path / "run.log"
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "run", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    with loadtest.Server(process, f"http://127.0.0.1:{port}", log) as server:
        loadtest.wait_until_up(server.url, process)
        forms = [login_form(server.url) for _ in range(50)]
        burst_over = threading.Event()
        with ThreadPoolExecutor(1) as reader:
            reads = reader.submit(_reads, server.url, token, burst_over)
            time.sleep(0.2)
            try:
                statuses = at_once(50, lambda i: post_login(server.url, forms[i], f"Fremder {i}", "falsch-falsch"))
            finally:
                burst_over.set()
            reads = reads.result(timeout=2 * TIMEOUT)
    failed = [(status, round(seconds, 1)) for status, seconds in reads if status != 200 or seconds > 10]
    assert failed == [], f"reads that failed or waited: {failed} of {len(reads)}"
    assert set(statuses) <= {400, 429}, statuses  # wrong, or refused by the address's limit: never a 500
    assert statuses.count(400) == 30  # the address's limit


@pytest.mark.parametrize("backend", BACKENDS)
def test_twelve_right_passwords_at_once_from_one_address_all_sign_in(backend, tmp_path):
    """Twelve phones at one table (one address) signing in with the right password at the same moment:
    the limit counted the attempts being checked as wrong ones, and refused 7 of 12 with "Too many
    wrong attempts. Wait a quarter of an hour". Attempts under way are waited for, not counted as failures."""
    env = _env(backend, tmp_path)
    made = loadtest.manage(["create-admin", "Wirt"], {**env, "SCOREKEEPER_ADMIN_PASSWORD": PASSWORD})
    assert made.returncode == 0, made.stderr
    port = loadtest.free_port()
    log = tmp_path / "run.log"
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "run", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    with loadtest.Server(process, f"http://127.0.0.1:{port}", log) as server:
        loadtest.wait_until_up(server.url, process)
        forms = [login_form(server.url) for _ in range(13)]
        statuses = at_once(12, lambda i: post_login(server.url, forms[i], "Wirt", PASSWORD))
        after = post_login(server.url, forms[12], "Wirt", PASSWORD)
    assert statuses == [302] * 12, statuses
    assert after == 302
