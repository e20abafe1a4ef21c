"""The roster's defects found by an attack on it, through the pages: refusals in both languages,
a former tournament guest joining the club, what a guest's page offers."""

from __future__ import annotations

import html
import re

import pytest
from sqlmodel import select

from scorekeeper.core.players import create_player
from tests.support import snapshot


def field_errors(page: str, field: str = "name") -> str:
    match = re.search(rf'<ul class="errors" id="{field}-errors">(.*?)</ul>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", match.group(1)).strip()) if match else ""


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "the name must not contain invisible characters: character 5 is U+3164, which shows as nothing"),
        ("de", "der Name darf keine unsichtbaren Zeichen enthalten: Zeichen 5 ist U+3164 und zeigt nichts an"),
    ],
)
def test_a_name_with_a_hangul_filler_is_refused_with_a_message_that_says_where(client, db, lang, message):
    create_player(db=db, name="Anna")
    before = snapshot(db)
    answer = client.post(f"/players/?lang={lang}", data={"name": "Anna\u3164"})
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True)) == message
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("lang", "name", "message"),
    [
        (
            "en",
            "J\ufffdrg",
            "the name must not contain replacement characters: character 2 is U+FFFD, which stands for a character "
            "lost on the way (a wrong encoding) and shows as a question mark in a diamond",
        ),
        (
            "de",
            "J\ufffdrg",
            "der Name darf keine Ersatzzeichen enthalten: Zeichen 2 ist U+FFFD, steht für ein unterwegs verlorenes "
            "Zeichen (eine falsche Kodierung) und zeigt ein Fragezeichen in einer Raute an",
        ),
        (
            "en",
            "Anna\ufdd0",
            "the name must not contain noncharacters: character 5 is U+FDD0, which Unicode keeps from ever being a "
            "character: no device can show it (most show a box)",
        ),
        (
            "de",
            "Anna\ufdd0",
            "der Name darf keine Nichtzeichen enthalten: Zeichen 5 ist U+FDD0, das Unicode für immer als Zeichen "
            "ausschließt: kein Gerät kann es anzeigen (die meisten zeigen ein Kästchen)",
        ),
    ],
)
def test_a_name_with_a_replacement_or_noncharacter_character_is_refused_saying_where(client, db, lang, name, message):
    before = snapshot(db)
    answer = client.post(f"/players/?lang={lang}", data={"name": name})
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True)) == message
    assert snapshot(db) == before


def test_the_api_refuses_a_capital_look_alike(client, db):
    create_player(db=db, name="Bernd")
    before = snapshot(db)
    answer = client.post("/api/v1/players?lang=en", json={"name": "Вernd"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == "there is already a player called Вernd"
    assert snapshot(db) == before


# --- 2. a former tournament's guest joins the club -----------------------------------------------


def _guest(db, name="Sepp"):
    from scorekeeper.core import tournaments as tm

    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, seed="s")
    return tm.add_entrant(db=db, tournament_id=t.id, guest=name).player_id


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Sepp is the name of a tournament's guest: to have them in the club, make them a member on their page"),
        (
            "de",
            "Sepp ist der Name eines Gastes eines Turniers: "
            "soll er in den Verein, mach ihn auf seiner Seite zum Mitglied",
        ),
    ],
)
def test_adding_a_member_named_like_a_tournaments_guest_says_so_and_links_the_guests_page(client, db, lang, message):
    guest = _guest(db)
    before = snapshot(db)
    answer = client.post(f"/players/?lang={lang}", data={"name": "sepp"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert field_errors(page) == message
    assert f'href="/players/{guest}"' in page
    assert snapshot(db) == before


def test_a_guest_made_a_member_is_on_the_roster_with_their_tournaments_and_the_change_is_shown(client, db):
    from scorekeeper.core.models import Entrant, Player

    guest = _guest(db)
    page = client.get(f"/players/{guest}?lang=en").get_data(as_text=True)
    assert "Make a member" in page
    answer = client.post(f"/players/{guest}/member?lang=en")
    assert answer.status_code == 302
    db.rollback()
    player = db.get(Player, guest)
    assert player.guest is False
    assert db.exec(select(Entrant.player_id)).all() == [guest]  # the same record: their tournament stays theirs
    assert f'href="/players/{guest}"' in client.get("/players/").get_data(as_text=True)
    page = client.get(f"/players/{guest}?lang=en").get_data(as_text=True)
    assert "made a member of the club (was a tournament&#39;s guest)" in page
    assert "Make a member" not in page
    before = snapshot(db)
    again = client.post(f"/players/{guest}/member?lang=en", follow_redirects=True)
    assert again.status_code == 200  # tapped twice: their page says so (tests/web/test_member_and_guest_forms.py)
    assert "Sepp is a member of the club already" in again.get_data(as_text=True)
    assert snapshot(db) == before


# --- 4. what a guest's page offers ---------------------------------------------------------------


def test_a_guests_page_offers_no_retire_and_their_merge_lists_the_other_guests_only(client, db):
    create_player(db=db, name="Anna")
    guest = _guest(db, "Gustl")
    other = _guest(db, "Gustav")  # another tournament's guest (a second record of the same person, say)
    page = client.get(f"/players/{guest}?lang=en").get_data(as_text=True)
    assert f"/players/{guest}/retire" not in page
    assert "Merge a duplicate" in page
    merge = client.get(f"/players/{guest}/merge?lang=en").get_data(as_text=True)
    assert re.findall(r'<option value="(\d+)"', merge) == [str(other)]
    answer = client.post(f"/players/{guest}/merge", data={"other": str(other), "confirm": "y"})
    assert answer.status_code == 302


def test_retiring_a_guest_is_refused_and_changes_nothing(client, db):
    guest = _guest(db, "Gustl")
    before = snapshot(db)
    answer = client.post(f"/players/{guest}/retire?lang=en", data={"retired": "1"})
    assert answer.status_code == 400
    assert "Gustl is a tournament&#39;s guest, on no seat picker: there is nothing to retire" in answer.get_data(
        as_text=True
    )
    assert snapshot(db) == before


def test_a_members_page_still_offers_retire_and_merges_members(client, db):
    anna = create_player(db=db, name="Anna")
    bernd = create_player(db=db, name="Bernd")
    _guest(db, "Gustl")
    page = client.get(f"/players/{anna.id}?lang=en").get_data(as_text=True)
    assert f"/players/{anna.id}/retire" in page
    assert "Make a member" not in page
    merge = client.get(f"/players/{anna.id}/merge?lang=en").get_data(as_text=True)
    assert re.findall(r'<option value="(\d+)"', merge) == [str(bernd.id)]


# --- 6. what the API's documents say about names ----------------------------------------------------


def test_the_api_documents_say_how_names_compare_as_they_do(client, db):
    from tests.support import ROOT

    create_player(db=db, name="Anna")
    assert client.post("/api/v1/players", json={"name": "An na"}).status_code == 201  # a space is not nothing
    assert client.post("/api/v1/players", json={"name": "An  na"}).status_code == 400  # a run of spaces is one
    said = "a run of spaces counts as one, but a space is not nothing"
    described = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["NewPlayer"]["description"]
    assert said in described
    assert said in " ".join((ROOT / "docs" / "api.md").read_text(encoding="utf-8").split())
    assert "ignoring case and spaces" not in (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
