"""Issue 22.2: a PDF cannot stall the table. Every PDF (a night's summary, a tournament's table cards
and result list) is laid out at most one at a time per process, kept while what it shows is
unchanged, and a request that finds the press busy is told so at once in the page's language."""

from __future__ import annotations

import gc
import threading

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.nights import new_join_code
from scorekeeper.core.players import create_player
from scorekeeper.web import printing
from tests.support import pdf_text
from tests.support_tournament import make_tournament
from tests.web.test_table_words import at_host

DURCH = {"contract": "durch", "declarer": 1, "won": True}
WENZ = {"contract": "wenz", "declarer": 3, "points": 61}


@pytest.fixture
def laid_out(monkeypatch):
    """Every PDF WeasyPrint lays out, by its first bytes' owner: a list that grows with each."""
    calls: list[int] = []
    real = printing.lay_out

    def counting(html: str) -> bytes:
        calls.append(len(html))
        return real(html)

    monkeypatch.setattr(printing, "lay_out", counting)
    return calls


def test_a_nights_pdf_is_laid_out_once_while_the_night_is_unchanged(client, db, night, laid_out):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    first = client.get(f"/nights/{night.id}/summary.pdf")
    again = client.get(f"/nights/{night.id}/summary.pdf")
    assert first.status_code == again.status_code == 200
    assert first.data == again.data and first.data.startswith(b"%PDF")
    assert len(laid_out) == 1


def test_a_nights_pdf_is_laid_out_again_after_a_change_and_per_language(client, db, night, laid_out):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    client.get(f"/nights/{night.id}/summary.pdf")
    client.get(f"/nights/{night.id}/summary.pdf?lang=en")
    assert len(laid_out) == 2  # each language its own
    record_hand(db=db, night_id=night.id, hand=DURCH)
    client.get(f"/nights/{night.id}/summary.pdf?lang=en")
    assert len(laid_out) == 3  # the night changed


def test_a_pdfs_garbage_is_collected_once_it_is_laid_out(app):
    """A PDF's layout leaves its objects in reference cycles; under the app's collector thresholds
    (create_app: 50000, 20, 100) they stayed, and a server grew by megabytes with every PDF (docs/
    production.md; ``manage.py bench pdf-memory`` measures it). lay_out now collects them at once."""
    kept = gc.get_threshold()
    gc.set_threshold(50000, 20, 100)
    try:
        with app.test_request_context("/?lang=de"):
            html = "<h1>Abrechnung</h1>" + "<table>" + "<tr><td>Anna</td><td>12</td></tr>" * 400 + "</table>"
            printing.lay_out(html)  # the fonts and caches WeasyPrint keeps for good
            gc.collect()
            before = len(gc.get_objects())
            assert printing.lay_out(html).startswith(b"%PDF")
            grown = len(gc.get_objects()) - before
    finally:
        gc.set_threshold(*kept)
    assert grown < 2000, grown  # without the collection: 63,843 objects of this small PDF


def test_while_the_press_is_busy_a_pdf_request_is_told_so_at_once_in_german(app, client, db, night, laid_out):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    with app.app_context():
        press = printing.presses()
    assert press.slots.acquire(blocking=False)  # another PDF is being laid out
    try:
        answer = client.get(f"/nights/{night.id}/summary.pdf?lang=de")
        page = answer.get_data(as_text=True)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == str(printing.RETRY_SECONDS)
        assert "Das PDF wird gerade erstellt" in page and 'http-equiv="refresh"' in page
        assert laid_out == []
        assert client.get(f"/nights/{night.id}").status_code == 200  # the table is answered meanwhile
    finally:
        press.slots.release()
    assert client.get(f"/nights/{night.id}/summary.pdf").status_code == 200  # and then the PDF


def test_sixteen_readers_at_once_get_one_pdf_laid_out_and_never_wait_for_it(app, client, db, night, monkeypatch):
    """The readers who find the press busy are answered 503 at once; the table keeps being answered."""
    record_hand(db=db, night_id=night.id, hand=DURCH)
    started, finish = threading.Event(), threading.Event()
    real = printing.lay_out

    def slow(html: str) -> bytes:
        started.set()
        finish.wait(30)
        return real(html)

    monkeypatch.setattr(printing, "lay_out", slow)
    cookie = client.get_cookie("session").value
    statuses: list[int] = []

    def reader() -> None:
        c = app.test_client()
        c.set_cookie("session", cookie)
        statuses.append(c.get(f"/nights/{night.id}/summary.pdf").status_code)

    first = threading.Thread(target=reader)
    first.start()
    assert started.wait(30)
    others = [threading.Thread(target=reader) for _ in range(15)]
    for t in others:
        t.start()
    for t in others:
        t.join(30)
    assert sorted(statuses) == [503] * 15  # answered while the first is still being laid out
    record_hand(db=db, night_id=night.id, hand=DURCH)  # a hand recorded meanwhile
    finish.set()
    first.join(30)
    assert sorted(statuses) == [200] + [503] * 15


def test_a_tournaments_result_list_is_kept_until_a_table_records_a_deal(client, db, laid_out):
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s")
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    view = tm.draw_round(db=db, tournament_id=t.id)
    assert client.get(f"/tournaments/{t.id}/results.pdf").status_code == 200
    assert client.get(f"/tournaments/{t.id}/results.pdf").status_code == 200
    assert client.get(f"/tournaments/{t.id}/cards.pdf").status_code == 200
    assert len(laid_out) == 2  # the result list once, the cards once
    view = tm.read_tournament(db=db, tournament_id=t.id)
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=WENZ)
    assert client.get(f"/tournaments/{t.id}/results.pdf").status_code == 200
    assert len(laid_out) == 3


def test_a_tournaments_pdf_asked_with_a_trackers_query_is_the_kept_one(client, db, laid_out):
    """The key held the whole query string: ?utm=... or a messenger's ?fbclid=... laid the PDF out anew
    each time (17.8 s for a large round's score sheets, holding the one press). Only what changes the
    PDF counts: the sheets' ``table`` and the language."""
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s")
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    for query in ("", "?utm=1", "?fbclid=abc", "?utm=2&fbclid=x"):
        assert client.get(f"/tournaments/{t.id}/results.pdf{query}").status_code == 200
        assert client.get(f"/tournaments/{t.id}/sheets.pdf{query}").status_code == 200
        assert client.get(f"/tournaments/{t.id}/cards.pdf{query}").status_code == 200
    assert len(laid_out) == 3  # each once
    assert client.get(f"/tournaments/{t.id}/sheets.pdf?table=1").status_code == 200
    assert client.get(f"/tournaments/{t.id}/sheets.pdf?table=1&utm=3").status_code == 200
    assert client.get(f"/tournaments/{t.id}/sheets.pdf?table=2").status_code == 200
    assert client.get(f"/tournaments/{t.id}/results.pdf?lang=en&fbclid=y").status_code == 200
    assert len(laid_out) == 6  # table 1's sheet, table 2's, the result list in English


def test_table_cards_printed_again_after_a_tables_code_changed_carry_its_new_code(app, admin, client, db, tmp_path):
    """The cards are kept per version of the tournament, and a table's code is no part of that version:
    they are kept per the codes they print as well, so a table whose code changed (whatever changed it)
    gets cards with its new code, not the kept ones with the dead code."""
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    night = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    old = night.join_code
    app.config["PUBLIC_URL"] = "https://karten.example.org"  # where the phones reach it: the cards carry the codes
    club = "http://127.0.0.1:5000"
    organiser = at_host(app, admin, "127.0.0.1:5000")
    printed = pdf_text(organiser.get(f"/tournaments/{t.id}/cards.pdf?lang=en", base_url=club).data, tmp_path)
    assert old in "".join(printed.split())
    row = db.get(Night, night.id)
    row.join_code = new = new_join_code(db)
    db.add(row)
    db.commit()
    again = pdf_text(organiser.get(f"/tournaments/{t.id}/cards.pdf?lang=en", base_url=club).data, tmp_path)
    reprinted = "".join(again.split())
    assert new in reprinted and old not in reprinted, "the reprinted cards carry the dead code"
