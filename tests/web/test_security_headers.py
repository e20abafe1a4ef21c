"""Every answer carries the security headers; the Content-Security-Policy allows no inline script,
and no page of the app needs one."""

from __future__ import annotations

import re

import pytest

from scorekeeper.web.app import SECURITY_HEADERS


@pytest.mark.parametrize(
    "path",
    ["/nights/", "/players/", "/leaderboard", "/nights/new", "/api/v1/players", "/nights/999", "/static/style.css"],
)
def test_every_answer_has_the_security_headers(client, path):
    answer = client.get(path)
    headers = dict(answer.headers)
    answer.close()  # a static file is streamed from disk
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value, (path, name)


def test_the_content_security_policy_allows_scripts_only_from_the_app_itself(client):
    policy = client.get("/nights/").headers["Content-Security-Policy"]
    script = re.search(r"script-src ([^;]+)", policy).group(1)
    assert script == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy


def test_no_page_has_an_inline_script_or_an_inline_event_handler(client, db, night):
    pages = [
        "/nights/",
        "/players/",
        "/leaderboard",
        "/nights/new",
        f"/nights/{night.id}",
        f"/nights/{night.id}/hands/new",
        f"/nights/{night.id}/summary",
        f"/players/{night.id}",
    ]
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], path
        assert re.findall(r"\son[a-z]+=", html) == [], path
        assert "style=" not in html, path
