"""At the table: each hand row names who played, the changes read as sentences, the join panel's address."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import edit_hand, record_hand, undo_last
from scorekeeper.core.table import load_table
from scorekeeper.web import addresses
from tests.support import page_text, start_night


def rows_who(page: str) -> dict[int, str]:
    """Hand number -> the names in its summary row."""
    out = {}
    for number, summary in re.findall(
        r'<details class="hand card" id="hand-(\d+)">\s*<summary>(.*?)</summary>', page, re.S
    ):
        who = re.search(r'<span class="who">(.*?)</span>', summary, re.S)
        out[int(number)] = page_text(who.group(1)) if who else ""
    return out


def audit_lines(page: str, number: int) -> list[str]:
    part = page.split(f'id="hand-{number}"', 1)[1].split('<details class="hand card"', 1)[0]
    box = re.search(r'<details class="audit">(.*?)</details>', part, re.S)
    return [page_text(li) for li in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)] if box else []


def record(db, night, *hands):
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)


def seat_name(db, night, number: int, seat: int) -> str:
    table = load_table(db=db, night_id=night.id)
    return table.players[table.positions[number - 1][seat - 1]].name


# --- 2. every hand row names who played ---------------------------------------------------------


def test_a_matzlfangen_row_names_the_declarer_and_the_partner_and_a_solo_the_declarer_alone(client, db, night):
    record(
        db,
        night,
        {"contract": "rufen", "declarer": 2, "partner": 4, "points": 70},
        {"contract": "durch", "declarer": 3, "won": True},
    )
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    rufen = f"{seat_name(db, night, 1, 2)} + {seat_name(db, night, 1, 4)}"
    assert rows_who(page) == {1: rufen, 2: seat_name(db, night, 2, 3)}
    assert rufen in client.get(f"/nights/{night.id}/live?lang=de").get_data(as_text=True)


def test_a_schafkopf_row_names_the_sauspiel_pair_and_a_rundpass_nobody(client, db, players):
    night = start_night(db, players, game="schafkopf")
    record(
        db,
        night,
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70},
        {"contract": "rundpass"},
    )
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert rows_who(page) == {1: f"{seat_name(db, night, 1, 1)} + {seat_name(db, night, 1, 3)}", 2: ""}


def test_a_konter_a_matt_row_names_the_trump_team_and_a_matt_row_who_gave_mate(client, db, players):
    konter = start_night(db, players, game="konter_a_matt")
    record(db, konter, {"trump_team": "B", "points_a": 10})
    page = client.get(f"/nights/{konter.id}").get_data(as_text=True)
    team_b = f"{seat_name(db, konter, 1, 2)} + {seat_name(db, konter, 1, 4)}"
    assert rows_who(page) == {1: f"Trumpf: Team B ({team_b})"}  # the row says what the names are (issue 26.1)

    matt = start_night(db, players, game="matt", seats=2)
    record(db, matt, {"mated_by": 2, "move": 7, "card": "A"}, {"mated_by": None})
    page = client.get(f"/nights/{matt.id}").get_data(as_text=True)
    assert rows_who(page) == {1: seat_name(db, matt, 1, 2), 2: ""}


def test_the_csv_has_a_played_by_column_with_the_names(client, db, night):
    record(db, night, {"contract": "rufen", "declarer": 2, "partner": 4, "points": 70})
    lines = client.get(f"/nights/{night.id}/export.csv?lang=en").get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert lines[0].split(",")[:6] == ["Hand", "Dealer", "Result", "Played by", "Marks", "Value"]
    assert lines[1].split(",")[3] == f"{seat_name(db, night, 1, 2)} + {seat_name(db, night, 1, 4)}"


# --- 7. the changes read as sentences -----------------------------------------------------------


def test_the_changes_of_a_hand_read_as_sentences_with_the_forms_words_and_players_names(client, db, night):
    record(db, night, {"contract": "rufen", "partner": 3, "points": 70})  # forehand declares
    edit_hand(db=db, night_id=night.id, number=1, hand={"contract": "rufen", "partner": 4, "points": 80})
    old, new = seat_name(db, night, 1, 3), seat_name(db, night, 1, 4)
    page = client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    lines = audit_lines(page, 1)
    assert len(lines) == 2
    assert re.fullmatch(r"\d\d:\d\d Hand 1 recorded", lines[0])
    assert re.fullmatch(
        rf"\d\d:\d\d Hand 1 changed: Partner \(called card\) {old} → {new}; Points of the declaring side 70 → 80",
        lines[1],
    )
    assert "{" not in "".join(lines)  # no raw JSON

    german = audit_lines(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True), 1)
    assert re.fullmatch(r"\d\d:\d\d Spiel 1 eingetragen", german[0])
    assert german[1].split(" ", 1)[1].startswith("Spiel 1 geändert: ")
    assert f"{old} → {new}" in german[1]


def test_an_undone_hand_says_so_after_a_new_record(client, db, night):
    record(db, night, {"contract": "durch", "declarer": 1, "won": True})
    undo_last(db=db, night_id=night.id)
    record(db, night, {"contract": "durch", "declarer": 2, "won": False})
    lines = audit_lines(client.get(f"/nights/{night.id}?lang=en").get_data(as_text=True), 1)
    assert [line.split(" ", 1)[1] for line in lines] == ["Hand 1 recorded", "Hand 1 taken back", "Hand 1 recorded"]


# --- 18. the join panel's address -----------------------------------------------------------------


def at_host(app, admin, host: str):
    """The admin's client, signed in at ``host`` (a session cookie is the host's)."""
    client = app.test_client()
    with client.session_transaction(base_url=f"http://{host}") as cookie:
        cookie["_user_id"] = admin.get_id()
        cookie["_fresh"] = True
    return client


def join_panel(client, night, host: str) -> str:
    page = client.get(f"/nights/{night.id}?lang=en", base_url=f"http://{host}")
    assert page.status_code == 200
    return page.get_data(as_text=True).split('<details class="card join">', 1)[1].split("</details>", 1)[0]


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000"])
def test_at_a_loopback_address_the_join_panel_offers_the_computers_lan_address(app, admin, night, host, monkeypatch):
    monkeypatch.setattr(addresses, "lan_address", lambda: "192.168.1.23")
    client = at_host(app, admin, host)
    panel = join_panel(client, night, host)
    assert "http://192.168.1.23:5000/join" in panel
    assert "127.0.0.1" not in panel.replace("127.0.0.1, localhost", "") and "localhost:" not in panel
    assert "--host 0.0.0.0" in panel
    svg = client.get(f"/nights/{night.id}/join.svg", base_url=f"http://{host}")
    assert svg.status_code == 200


def test_at_a_loopback_address_without_a_lan_address_the_panel_says_how_to_let_phones_in(
    app, admin, night, monkeypatch
):
    monkeypatch.setattr(addresses, "lan_address", lambda: None)
    panel = join_panel(at_host(app, admin, "127.0.0.1:5000"), night, "127.0.0.1:5000")
    assert "Other phones can't open" in panel and "--host 0.0.0.0" in panel and "manage.py run --help" in panel


def test_at_a_real_address_the_join_panel_keeps_it_and_says_nothing_more(app, admin, night, monkeypatch):
    monkeypatch.setattr(addresses, "lan_address", lambda: "192.168.1.23")
    panel = join_panel(at_host(app, admin, "10.0.0.5:8000"), night, "10.0.0.5:8000")
    assert "http://10.0.0.5:8000/join" in panel
    assert "192.168.1.23" not in panel and "--host" not in panel


def test_the_lan_address_is_none_or_not_a_loopback_address():
    address = addresses.lan_address()
    assert address is None or not address.startswith("127.")
