"""Offline (issue 15): the service worker is served from the site's root with the static files it
keeps, and the offline page speaks the page's language."""

from __future__ import annotations

import json
import re

from scorekeeper.web.assets import static_urls
from scorekeeper.web.offline.routes import worker_version
from tests.support import ROOT


def worker(anon) -> str:
    answer = anon.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"  # a new deploy's worker is found at once
    return answer.get_data(as_text=True)


def test_the_service_worker_keeps_every_static_file_by_its_fingerprinted_name(app, anon):
    body = worker(anon)
    assets = json.loads(re.search(r"var ASSETS = (\[.*?\]);", body).group(1))
    with app.app_context():
        assert assets == static_urls(app)
    assert "/static/style.css" not in assets and any(
        re.fullmatch(r"/static/style\.[0-9a-f]{12}\.css", a) for a in assets
    )
    for url in assets:  # every one of them is there to fetch at install
        answer = anon.get(url)
        answer.close()  # WhiteNoise answers with the open file
        assert answer.status_code == 200, url


def test_the_workers_version_moves_with_any_static_file_and_so_drops_the_old_caches(anon):
    body = worker(anon)
    version = json.loads(re.search(r"var VERSION = (\".*?\");", body).group(1))
    urls = json.loads(re.search(r"var ASSETS = (\[.*?\]);", body).group(1))
    assert version == worker_version(urls)
    changed = [urls[0].replace(urls[0].rsplit(".", 2)[1], "0" * 12), *urls[1:]]
    assert worker_version(changed) != version
    assert 'name.indexOf("sk-static-") === 0 && name !== STATIC' in body  # activate deletes the others


def test_the_worker_keeps_a_nights_table_page_and_hand_form_only(anon):
    kept = re.compile(re.search(r"var KEPT = /(.*)/;", worker(anon)).group(1).replace("\\/", "/"))
    assert kept.match("/nights/12") and kept.match("/nights/12/hands/new")
    for other in ("/nights/", "/nights/12/summary", "/players/", "/nights/12/hands/3/edit", "/account", "/leaderboard"):
        assert not kept.match(other), other


def test_the_offline_page_speaks_the_pages_language(anon):
    de = anon.get("/offline", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Keine Verbindung" in de and "ohne Verbindung" in de
    en = anon.get("/offline", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "No connection" in en and "Nothing was saved" not in en


def test_the_offline_page_after_a_form_sent_without_a_connection_says_nothing_was_saved(anon):
    de = anon.get("/offline?unsaved=1", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Nichts wurde gespeichert" in de
    for bad in ("2", "", "ja", "\x00"):  # anything but 1: the plain offline page
        page = anon.get("/offline", query_string={"unsaved": bad}, headers={"Accept-Language": "en"})
        assert page.status_code == 200 and "Nothing was saved" not in page.get_data(as_text=True)


def test_every_page_registers_the_worker_only_where_the_browser_allows_one():
    script = (ROOT / "static" / "app.js").read_text()
    assert 'navigator.serviceWorker.register("/sw.js")' in script and "window.isSecureContext" in script
