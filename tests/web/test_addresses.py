"""Issue 22.6: the address the other phones are given (the join panel, the printed table cards and
their QR codes, ``manage.py run``'s start-up lines) is one they can open: the club's public address
when set, else this computer's Wi-Fi address when the server listens there, else a word on how to
let the other phones in; never 127.0.0.1."""

from __future__ import annotations

import pytest

from scorekeeper import config
from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from scorekeeper.web import addresses
from tests.support import pdf_text
from tests.web.test_table_words import at_host, join_panel

WIFI = "192.168.1.23"


@pytest.fixture
def wifi(monkeypatch):
    monkeypatch.setattr(addresses, "lan_address", lambda: WIFI)


def test_a_server_listening_on_loopback_only_says_how_to_let_phones_in_not_an_address_they_cannot_open(
    app, admin, night, wifi
):
    app.config["LISTEN_HOST"] = "127.0.0.1"  # manage.py run without --host
    panel = join_panel(at_host(app, admin, "127.0.0.1:5000"), night, "127.0.0.1:5000")
    assert WIFI not in panel  # the server does not answer there
    assert "--host 0.0.0.0" in panel and "Other phones can't open" in panel


def test_a_server_listening_everywhere_offers_the_wifi_address(app, admin, night, wifi):
    app.config["LISTEN_HOST"] = "0.0.0.0"
    panel = join_panel(at_host(app, admin, "127.0.0.1:5000"), night, "127.0.0.1:5000")
    assert f"http://{WIFI}:5000/join" in panel


def test_the_clubs_public_address_wins_wherever_the_page_was_opened(app, admin, night, wifi):
    app.config["PUBLIC_URL"] = "https://karten.example.org"
    for host in ("127.0.0.1:5000", "10.0.0.5:8000"):
        panel = join_panel(at_host(app, admin, host), night, host)
        assert "https://karten.example.org/join" in panel and "--host" not in panel
        assert WIFI not in panel and "10.0.0.5" not in panel


def _drawn_tournament(db):
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s")
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    return t


def test_table_cards_printed_at_loopback_carry_the_wifi_address_when_the_server_listens_there(
    app, admin, db, wifi, tmp_path
):
    t = _drawn_tournament(db)
    app.config["LISTEN_HOST"] = "0.0.0.0"
    client = at_host(app, admin, "127.0.0.1:5000")
    text = pdf_text(
        client.get(f"/tournaments/{t.id}/cards.pdf?lang=en", base_url="http://127.0.0.1:5000").data, tmp_path
    )
    assert f"http://{WIFI}:5000/join" in "".join(text.split())  # the line may break inside the address
    assert "127.0.0.1" not in text


def test_table_cards_of_a_server_on_loopback_only_say_how_to_let_phones_in(app, admin, db, wifi, tmp_path):
    t = _drawn_tournament(db)
    app.config["LISTEN_HOST"] = "127.0.0.1"
    client = at_host(app, admin, "127.0.0.1:5000")
    text = pdf_text(
        client.get(f"/tournaments/{t.id}/cards.pdf?lang=en", base_url="http://127.0.0.1:5000").data, tmp_path
    )
    flat = " ".join(text.split())
    assert "127.0.0.1:5000/join" not in flat and "--host 0.0.0.0" in flat


def test_table_cards_carry_the_public_address(app, admin, db, tmp_path):
    t = _drawn_tournament(db)
    app.config["PUBLIC_URL"] = "https://karten.example.org"
    text = pdf_text(
        at_host(app, admin, "127.0.0.1:5000")
        .get(f"/tournaments/{t.id}/cards.pdf?lang=en", base_url="http://127.0.0.1:5000")
        .data,
        tmp_path,
    )
    assert "https://karten.example.org/join" in "".join(text.split())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://karten.example.org/", "https://karten.example.org"),
        ("http://192.168.1.5:5000", "http://192.168.1.5:5000"),
        ("", None),
        ("karten.example.org", None),
        ("ftp://karten.example.org", None),
        ("https://", None),
        ("https://a b", None),
    ],
)
def test_the_public_url_setting_takes_only_an_http_address(text, expected):
    assert config.parse_public_url(text) == expected
    assert config.Settings.from_env({"SCOREKEEPER_PUBLIC_URL": text}).public_url == expected


@pytest.mark.parametrize(
    ("host", "public", "expected"),
    [
        ("127.0.0.1", None, "start it with --host 0.0.0.0"),
        ("0.0.0.0", None, f"http://{WIFI}:5000/join"),
        ("0.0.0.0", "https://karten.example.org", "https://karten.example.org/join"),
        ("192.168.1.99", None, "http://192.168.1.99:5000/join"),
    ],
)
def test_the_start_up_lines_say_where_the_other_phones_reach_the_server(app, wifi, host, public, expected):
    app.config["PUBLIC_URL"] = public
    assert expected in " ".join(addresses.reach_lines(app, host, 5000))
