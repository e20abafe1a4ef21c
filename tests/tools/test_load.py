"""The load test (tools/loadtest.py), short: tables of four phones each recording and reading the same
night at once through gunicorn, with no error, no hand lost and none stored twice."""

from __future__ import annotations

import os

import pytest

from tests.support import BACKENDS, fresh_postgres
from tools import loadtest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", BACKENDS)
def test_ten_tables_of_four_phones_under_gunicorn_lose_nothing_and_see_no_error(backend, tmp_path):
    url = None if backend == "sqlite" else fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])
    env = loadtest.server_env(tmp_path / "instance", url)
    token = loadtest.api_token(env)
    with loadtest.start_gunicorn(env, log=tmp_path / "gunicorn.log") as server:
        result = loadtest.run(
            server.url, token, tables=10, clients_per_table=4, seconds=8, database_url=env["SCOREKEEPER_DATABASE_URL"]
        )
    report = loadtest.report(result)
    assert (result["errors"], result["lost"], result["duplicates"]) == (0, 0, 0), report
    assert result["integrity_check"] in (None, "ok"), report
    assert result["hands"] > 40 and result["read"]["count"] > 40, report  # every table recorded and read
    assert loadtest.passed(result)


def test_phones_watching_the_tables_poll_cheaply_while_others_record(tmp_path):
    """Issue 15 (live): watchers signed in through the sign-in form poll each table's live part with
    its ETag; most polls are 304s, none fails, and the recording phones lose nothing."""
    env = loadtest.server_env(tmp_path / "instance")
    token = loadtest.api_token(env, password="watch-password-1")
    with loadtest.start_gunicorn(env, log=tmp_path / "gunicorn.log") as server:
        cookie = loadtest.sign_in(server.url, loadtest.ADMIN, "watch-password-1")
        result = loadtest.run(
            server.url,
            token,
            tables=4,
            clients_per_table=2,
            seconds=6,
            pause=0.3,
            database_url=env["SCOREKEEPER_DATABASE_URL"],
            watchers=20,
            watch_every=0.25,
            cookie=cookie,
        )
    report = loadtest.report(result)
    assert loadtest.passed(result), report
    polls = result["watch"]["count"]
    assert polls > 100, report  # every watcher kept polling
    assert 0 < result["watch_changed"] < polls, report  # the changes came through, the rest were 304s
    assert "watch  p50" in report
