"""Static files are fingerprinted, cached for a year and compressed (web/assets.py); pages and JSON
are compressed when the client takes it; the garbage collector is tuned once the app is built."""

from __future__ import annotations

import gc
import gzip
import hashlib
import re
import shutil

import pytest

from scorekeeper import config, create_app
from scorekeeper.web import app as web_app
from scorekeeper.web.app import SECURITY_HEADERS
from scorekeeper.web.assets import HASH_LENGTH, IMMUTABLE, fingerprinted, plain_name, static_urls
from tests.support import ROOT, start_night

STATIC = ROOT / "static"
STATIC_URL = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_LENGTH]


def static_links(page: str) -> list[str]:
    return STATIC_URL.findall(page)


def fetch(client, url: str, encoding: str | None = None):
    """An answer read whole (a static file is streamed from disk) with its headers."""
    answer = client.get(url, headers={"Accept-Encoding": encoding} if encoding is not None else {})
    body = answer.get_data()
    answer.close()
    return answer, body


# --- fingerprints and the cache ----------------------------------------------------------


def test_the_page_links_its_styles_and_scripts_by_a_hash_of_their_content(anon):
    page = anon.get("/join").get_data(as_text=True)
    assert f"/static/style.{digest(STATIC / 'style.css')}.css" in static_links(page)
    assert f"/static/join.{digest(STATIC / 'join.js')}.js" in static_links(page)
    assert 'href="/static/style.css"' not in page and 'src="/static/join.js"' not in page


def test_every_url_for_static_in_the_templates_is_fingerprinted(client, db, night):
    pages = ["/nights/new", f"/nights/{night.id}", f"/nights/{night.id}/hands/new", "/join"]
    seen = set()
    for path in pages:
        for url in static_links(client.get(path).get_data(as_text=True)):
            assert plain_name(url.removeprefix("/static/")) is not None, (path, url)
            seen.add(url)
    assert len(seen) >= 5 and seen <= set(static_urls(client.application))


def test_a_fingerprinted_file_is_cached_for_a_year_and_keeps_the_security_headers(anon):
    url = static_links(anon.get("/login").get_data(as_text=True))[0]
    answer, body = fetch(anon, url)
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert body == (STATIC / "style.css").read_bytes()
    assert answer.mimetype == "text/css"
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers[name] == value, name
    again = anon.get(url, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


def test_the_plain_name_still_answers_and_is_asked_for_again_each_time(anon):
    answer, body = fetch(anon, "/static/style.css")
    assert answer.status_code == 200 and body == (STATIC / "style.css").read_bytes()
    assert answer.headers["Cache-Control"] == "no-cache"


def test_static_urls_lists_every_file_under_its_fingerprint(app):
    urls = static_urls(app)
    assert urls == sorted(f"/static/{fingerprinted(p.name, digest(p))}" for p in STATIC.iterdir() if p.is_file())
    client = app.test_client()
    for url in urls:
        answer, _ = fetch(client, url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == IMMUTABLE, url


@pytest.fixture
def own_static(tmp_path, monkeypatch):
    """The app built on a copy of the static folder, which the test may change."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    real = web_app._folder
    monkeypatch.setattr(web_app, "_folder", lambda name: str(folder) if name == "static" else real(name))
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}", "SECRET_KEY": "test"})
    yield app, folder
    app.extensions["sk_engine"].dispose()


def test_a_changed_file_gets_a_new_url_and_the_old_one_keeps_its_content(own_static):
    app, folder = own_static
    client = app.test_client()
    old_url = static_links(client.get("/login").get_data(as_text=True))[0]
    old_body = (folder / "style.css").read_bytes()
    (folder / "style.css").write_bytes(old_body + b"\n.changed { color: red; }\n")
    new_url = static_links(client.get("/login").get_data(as_text=True))[0]
    assert new_url != old_url and new_url == f"/static/style.{digest(folder / 'style.css')}.css"
    answer, body = fetch(client, new_url, "gzip")
    assert answer.headers["Cache-Control"] == IMMUTABLE
    assert gzip.decompress(body).endswith(b".changed { color: red; }\n")
    answer, body = fetch(client, old_url)
    assert answer.status_code == 200 and body == old_body  # a page still open keeps its styles
    answer, body = fetch(client, "/static/style.css")
    assert body.endswith(b".changed { color: red; }\n")


def test_a_new_file_is_served_under_its_fingerprint_too(own_static):
    app, folder = own_static
    (folder / "extra.js").write_text("// a new script\n")
    with app.test_request_context():
        from flask import url_for

        url = url_for("static", filename="extra.js")
    assert url == f"/static/extra.{digest(folder / 'extra.js')}.js"
    answer, body = fetch(app.test_client(), url)
    assert answer.status_code == 200 and body == b"// a new script\n"


def test_an_outdated_fingerprint_is_sent_on_to_the_current_file_and_an_unknown_name_is_a_404(anon):
    stale = anon.get("/static/style.0123456789ab.css")
    assert stale.status_code == 302
    assert stale.headers["Location"] == f"/static/style.{digest(STATIC / 'style.css')}.css"
    assert stale.headers["Cache-Control"] == "no-cache"
    for url in [
        "/static/nothing.0123456789ab.css",
        "/static/nothing.css",
        "/static/style.nothex123456.css",
        "/static/style.0123456789ab.css.gz",
        "/static/../scorekeeper/web/app.py",
        "/static/%2e%2e/pyproject.toml",
    ]:
        answer, _ = fetch(anon, url)
        assert answer.status_code == 404, url


# --- compression -------------------------------------------------------------------------


def test_a_static_file_comes_gzipped_when_the_client_takes_it_and_plain_when_not(anon):
    url = static_links(anon.get("/login").get_data(as_text=True))[0]
    source = (STATIC / "style.css").read_bytes()
    answer, body = fetch(anon, url, "gzip, deflate")
    assert answer.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer.headers["Vary"]
    assert gzip.decompress(body) == source and int(answer.headers["Content-Length"]) == len(body) < len(source)
    for encoding in (None, "identity", ""):
        answer, body = fetch(anon, url, encoding)
        assert "Content-Encoding" not in answer.headers and body == source, encoding
        assert int(answer.headers["Content-Length"]) == len(source)


def test_a_static_file_comes_in_brotli_where_the_client_takes_it(anon):
    brotli = pytest.importorskip("brotli")
    url = static_links(anon.get("/login").get_data(as_text=True))[0]
    answer, body = fetch(anon, url, "gzip, deflate, br")
    assert answer.headers["Content-Encoding"] == "br"
    assert brotli.decompress(body) == (STATIC / "style.css").read_bytes()


def test_a_page_is_gzipped_when_the_client_takes_it_and_plain_when_not(client, night):
    url = f"/nights/{night.id}"
    plain = client.get(url)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    body = packed.get_data()
    assert int(packed.headers["Content-Length"]) == len(body) < len(plain.get_data())
    html = gzip.decompress(body).decode()
    assert html.startswith("<!doctype html>") and "Matzlfangen" in html
    for name, value in SECURITY_HEADERS.items():
        assert packed.headers[name] == value, name


def test_json_is_compressed_but_tiny_answers_and_pdfs_are_not(client, db, players):
    night = start_night(db, players)
    answer = client.get("/api/v1/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.get_data()).startswith(b"{")
    tiny = client.get(f"/nights/{night.id}/version", headers={"Accept-Encoding": "gzip"})
    assert tiny.status_code == 200 and "Content-Encoding" not in tiny.headers and tiny.get_json()["version"] >= 0
    pdf = client.get(f"/nights/{night.id}/summary.pdf", headers={"Accept-Encoding": "gzip"})
    assert pdf.status_code == 200 and "Content-Encoding" not in pdf.headers
    assert pdf.get_data().startswith(b"%PDF") and int(pdf.headers["Content-Length"]) == len(pdf.get_data())


# --- the garbage collector ---------------------------------------------------------------


def test_the_app_is_frozen_and_collections_are_rarer_once_it_is_built(app):
    assert gc.get_threshold() == config.GC_THRESHOLD
    assert gc.get_freeze_count() > 10_000  # Flask, the templates' environment, SQLAlchemy, the app


def test_the_gc_setting_chooses_thresholds_or_leaves_the_interpreter_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    before = gc.get_threshold()
    try:
        monkeypatch.setenv("SCOREKEEPER_GC_THRESHOLD", "20000, 15, 50")
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}", "SECRET_KEY": "t"})
        app.extensions["sk_engine"].dispose()
        assert gc.get_threshold() == (20000, 15, 50)
        gc.set_threshold(700, 10, 10)
        monkeypatch.setenv("SCOREKEEPER_GC_THRESHOLD", "default")
        app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'b.db'}", "SECRET_KEY": "t"})
        app.extensions["sk_engine"].dispose()
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)
