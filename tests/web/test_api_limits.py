"""How much of a body the app reads: the API at most 1 MiB (answered 413 in its JSON error shape,
the body not read when its length says so, a chunked body read no further than the limit, and before
the write transaction begins); the pages' forms are refused with a 413 page. A refusal changes nothing;
a body just under the limit is read as usual."""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from scorekeeper.web.api.limits import MAX_BODY, TOO_LARGE
from tests.support import RUFEN_HIRSCH, snapshot


class Upload(io.BytesIO):
    """A request body that counts how many of its bytes the server read, and can look at the
    database while it is being read (``on_read``)."""

    def __init__(self, data: bytes, on_read=None) -> None:
        super().__init__(data)
        self.taken = 0
        self.on_read = on_read

    def _took(self, n: int) -> None:
        self.taken += n
        if self.on_read is not None and n:
            self.on_read()

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self._took(len(data))
        return data

    def readinto(self, buffer) -> int:
        n = super().readinto(buffer)
        self._took(n)
        return n

    def readline(self, size: int | None = -1) -> bytes:
        data = super().readline(size)
        self._took(len(data))
        return data


def padded(body: dict, size: int) -> bytes:
    """``body`` as JSON, padded with spaces (still the same JSON) to exactly ``size`` bytes."""
    data = json.dumps(body).encode()
    assert len(data) <= size
    return data + b" " * (size - len(data))


def send(client, method: str, path: str, data: bytes, *, chunked: bool = False, content_type="application/json"):
    """Send ``data`` as the body: with its Content-Length, or (``chunked``) as a server hands on a
    ``Transfer-Encoding: chunked`` body: no length (the header says chunked), a stream the server ends
    (``wsgi.input_terminated``). Returns the answer and the upload."""
    upload = Upload(data)
    if chunked:
        extra = {"headers": {"Transfer-Encoding": "chunked"}, "environ_overrides": {"wsgi.input_terminated": True}}
    else:
        extra = {"content_length": len(data)}
    answer = client.open(path, method=method, input_stream=upload, content_type=content_type, **extra)
    assert (answer.request.content_length is None) == chunked
    return answer, upload


def api_error(answer, status: int) -> dict:
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    body = answer.get_json()
    assert set(body) == {"error"}
    return body["error"]


#: (method, path, a valid body) for every API route that reads a body.
BODIES = [
    ("POST", "/api/v1/players", {"name": "Franz"}),
    (
        "POST",
        "/api/v1/sessions",
        {"game": "matzlfangen", "stake_cents": 10, "players": [1, 2, 3, 4], "first_dealer": 1},
    ),
    ("POST", "/api/v1/sessions/{night}/hands", RUFEN_HIRSCH),
    ("PUT", "/api/v1/sessions/{night}/hands/1", {**RUFEN_HIRSCH, "points": 60}),
]


@pytest.fixture
def one_hand(client, db, night):
    """The fixture's night with one hand (PUT has something to replace)."""
    assert client.post(f"/api/v1/sessions/{night.id}/hands", json=RUFEN_HIRSCH).status_code == 201
    return night


def test_the_limit_fits_the_largest_body_the_api_takes_many_times_over():
    largest = {
        "game": "schafkopf",
        "rules": {"preset": "bavarian", "tariff_solo": 6, "laufende_max": 8},
        "stake_cents": 100_000,
        "players": ["x" * 40] * 5,
        "first_dealer": 5,
        "currency": "EUR",
        "date": "2026-11-21",
        "place": "P" * 80,
    }
    assert len(json.dumps(largest, ensure_ascii=False).encode()) * 100 < MAX_BODY


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize(("method", "path", "body"), BODIES, ids=[f"{m} {p}" for m, p, _ in BODIES])
def test_a_body_over_the_limit_is_refused_with_413_as_json_and_changes_nothing(
    client, db, players, one_hand, method, path, body, chunked
):
    before = snapshot(db)
    answer, upload = send(client, method, path.format(night=one_hand.id), padded(body, MAX_BODY + 1), chunked=chunked)
    assert api_error(answer, 413) == {"field": "", "message": TOO_LARGE}
    assert answer.mimetype == "application/json"
    assert snapshot(db) == before
    if not chunked:
        assert upload.taken == 0  # its Content-Length said enough: not a byte of it was read


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize(("method", "path", "body"), BODIES, ids=[f"{m} {p}" for m, p, _ in BODIES])
def test_a_body_just_under_the_limit_is_read_and_answered_as_usual(
    client, db, players, one_hand, method, path, body, chunked
):
    answer, upload = send(client, method, path.format(night=one_hand.id), padded(body, MAX_BODY), chunked=chunked)
    assert answer.status_code in (200, 201), answer.get_data(as_text=True)[:300]
    assert upload.taken == MAX_BODY
    if path.endswith("/players"):
        assert answer.get_json()["name"] == "Franz"


def test_a_chunked_body_of_megabytes_is_read_no_further_than_the_limit(client, db, night):
    before = snapshot(db)
    answer, upload = send(client, "POST", f"/api/v1/sessions/{night.id}/hands", b"[" * (50 * MAX_BODY), chunked=True)
    assert api_error(answer, 413) == {"field": "", "message": TOO_LARGE}
    assert MAX_BODY < upload.taken <= MAX_BODY + 64 * 1024  # read as it came, to the limit and one buffer more
    assert snapshot(db) == before


def test_an_oversized_body_is_refused_before_the_token_is_looked_at(anon, db, night):
    before = snapshot(db)
    answer, _ = send(anon, "POST", f"/api/v1/sessions/{night.id}/hands", padded(RUFEN_HIRSCH, MAX_BODY + 1))
    assert api_error(answer, 413)["message"] == TOO_LARGE
    assert snapshot(db) == before


def test_a_body_is_read_before_the_request_takes_the_databases_write_lock(app, client, db, night):
    """On SQLite a POST's session begins ``BEGIN IMMEDIATE`` when the token is looked up: a slow
    upload read after that would hold the write lock (and stall every other phone) while it trickles in."""
    url = app.config["DATABASE_URL"]
    if not url.startswith("sqlite:///"):
        pytest.skip("the write lock is SQLite's")
    free = []

    def try_to_write():
        other = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            free.append(True)
        except sqlite3.OperationalError:  # database is locked
            free.append(False)
        finally:
            other.close()

    data = json.dumps(RUFEN_HIRSCH).encode()
    upload = Upload(data, on_read=try_to_write)
    answer = client.post(
        f"/api/v1/sessions/{night.id}/hands",
        input_stream=upload,
        content_length=len(data),
        content_type="application/json",
    )
    assert answer.status_code == 201
    assert free and all(free)


def test_reading_the_api_needs_no_body_and_a_get_reads_none(client, players):
    answer, upload = send(client, "GET", "/api/v1/players", padded({}, MAX_BODY + 1))
    assert answer.status_code == 200
    assert upload.taken == 0


# --- the pages' forms -------------------------------------------------------------------------


@pytest.fixture
def page_limit(app):
    """The pages' limit: ``MAX_CONTENT_LENGTH`` of the app's configuration (create_app sets it)."""
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if limit is None:
        pytest.skip("create_app sets no MAX_CONTENT_LENGTH: the pages' forms have no size limit yet")
    return limit


FORM = "application/x-www-form-urlencoded"


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_page_form_over_the_limit_is_refused_with_a_413_page_and_changes_nothing(client, db, page_limit, chunked):
    before = snapshot(db)
    data = b"name=Franz&padding=" + b"x" * page_limit
    answer, upload = send(client, "POST", "/players/", data, chunked=chunked, content_type=FORM)
    # a body without a length would be cut short at the limit, not refused: a browser always sends one
    assert answer.status_code == (411 if chunked else 413)
    assert answer.mimetype == "text/html"
    assert "<h1>" in answer.get_data(as_text=True)
    assert snapshot(db) == before
    if not chunked:
        assert upload.taken == 0


def test_a_page_form_just_under_the_limit_is_read_as_usual(client, db, page_limit):
    head = b"name=Franz&padding="
    answer, _ = send(client, "POST", "/players/", head + b"x" * (page_limit - len(head)), content_type=FORM)
    assert answer.status_code in (200, 302, 303)
    assert "Franz" in client.get("/api/v1/players").get_data(as_text=True)
