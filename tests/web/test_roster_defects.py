"""The roster's defects found by an attack on it, through the pages: refusals in both languages,
a former tournament guest joining the club, what a guest's page offers."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.players import create_player
from tests.support import snapshot


def field_errors(page: str, field: str = "name") -> str:
    match = re.search(rf'<ul class="errors" id="{field}-errors">(.*?)</ul>', page, re.S)
    return re.sub(r"<[^>]+>", " ", match.group(1)).strip() if match else ""


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


def test_the_api_refuses_a_capital_look_alike(client, db):
    create_player(db=db, name="Bernd")
    before = snapshot(db)
    answer = client.post("/api/v1/players?lang=en", json={"name": "Вernd"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == "there is already a player called Вernd"
    assert snapshot(db) == before
