"""A refusal of a night's or a tournament's life flashed on the page it leads to is a line of its own: it
begins with a capital letter, in German and in English (the core says it in lower case, as part of a
sentence: scorekeeper/web/messages.py ``message(..., sentence=True)``)."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import create_player
from tests.support import DURCH

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
FLASH = re.compile(r'<p class="flash flash-error"[^>]*>(.*?)</p>', re.S)

#: Each refusal in both languages, as the page says it (its beginning).
SAID = {
    "closed": {"de": "Dieser Abend ist abgeschlossen", "en": "This night is closed"},
    "tournament": {"de": "Das Turnier ist abgeschlossen", "en": "The tournament is closed"},
    "finished": {"de": "Die Turnierleitung hat diesen Tisch abgeschlossen", "en": "The organiser has finished"},
}


def _flashes(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in FLASH.findall(page)]


def _tournament(db, deals: int = 1):
    t = tm.create_tournament(
        db=db, name="Cup", game="schafkopf", rules={"preset": "turnier"}, deals=deals, rounds=1, seed="s"
    )
    for i in range(4):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    return t, tm.read_tournament(db=db, tournament_id=t.id).rounds[-1].tables[0].night


def _begins(said: list[str], start: str) -> None:
    assert said, "no refusal flashed"
    assert said[0].startswith(start), said
    assert said[0][0].isupper(), said


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_hand_form_of_a_closed_night_flashes_its_reason_as_a_sentence(client, db, night, lang):
    close_night(db=db, night_id=night.id)
    away = client.get(f"/nights/{night.id}/hands/new?lang={lang}")
    assert away.status_code == 302
    _begins(_flashes(client.get(away.location).get_data(as_text=True)), SAID["closed"][lang])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_undo_at_a_closed_night_flashes_its_reason_as_a_sentence(client, db, night, lang):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    close_night(db=db, night_id=night.id)
    away = client.post(f"/nights/{night.id}/hands/undo?lang={lang}", data={"expected_version": "2"})
    assert away.status_code == 302
    _begins(_flashes(client.get(away.location).get_data(as_text=True)), SAID["closed"][lang])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_closing_a_closed_night_flashes_its_reason_as_a_sentence(client, db, night, lang):
    close_night(db=db, night_id=night.id)
    answer = client.post(f"/nights/{night.id}/close?lang={lang}")
    assert answer.status_code == 409
    said = _flashes(answer.get_data(as_text=True))
    assert said and said[0][0].isupper(), said


@pytest.mark.parametrize("lang", ["de", "en"])
def test_reopening_a_table_of_a_closed_tournament_flashes_its_reason_as_a_sentence(client, db, lang):
    t, table = _tournament(db)
    record_hand(db=db, night_id=table.id, hand=SAUSPIEL)
    tm.close_tournament(db=db, tournament_id=t.id)
    away = client.post(f"/nights/{table.id}/reopen?lang={lang}", data={"reason": "Spiel 1 korrigieren"})
    _begins(_flashes(client.get(away.location).get_data(as_text=True)), SAID["tournament"][lang])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_hand_form_of_a_finished_tournament_table_flashes_its_reason_as_a_sentence(client, db, lang):
    _, table = _tournament(db, deals=2)
    record_hand(db=db, night_id=table.id, hand=SAUSPIEL)
    close_night(db=db, night_id=table.id, who="admin")  # the organiser finishes the table early
    away = client.get(f"/nights/{table.id}/hands/new?lang={lang}")
    assert away.status_code == 302
    _begins(_flashes(client.get(away.location).get_data(as_text=True)), SAID["finished"][lang])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refused_change_of_a_closed_tournament_is_said_as_a_sentence(client, db, lang):
    t, table = _tournament(db)
    record_hand(db=db, night_id=table.id, hand=SAUSPIEL)
    tm.close_tournament(db=db, tournament_id=t.id)
    answer = client.post(f"/tournaments/{t.id}/draw?lang={lang}")
    assert answer.status_code == 409
    said = _flashes(answer.get_data(as_text=True))
    assert len(said) == 1 and said[0][0].isupper(), said  # once: the tournament page's own box said it again


@pytest.mark.parametrize(
    ("lang", "closed", "open_", "night_word"),
    [
        ("de", "Dieser Tisch ist schon abgeschlossen", "Dieser Tisch ist schon offen", r"\bAbends?\b"),
        ("en", "This table is closed already", "This table is open already", r"\bnight\b"),
    ],
)
def test_a_tournament_tables_refusals_on_its_page_speak_of_the_table(client, db, lang, closed, open_, night_word):
    """The reasons a table's page gives (core/lifecycle.py) name the table, never a night ("Dieser Abend ist schon
    abgeschlossen" at a tournament's table), in German and in English."""
    _, table = _tournament(db, deals=2)
    record_hand(db=db, night_id=table.id, hand=SAUSPIEL)
    away = client.get(f"/nights/{table.id}/reopen?lang={lang}")  # an open table: reopened already
    assert away.status_code == 302
    said = _flashes(client.get(away.location).get_data(as_text=True))
    _begins(said, open_)
    close_night(db=db, night_id=table.id, who="admin")  # the organiser finishes it early
    answer = client.post(f"/nights/{table.id}/close?lang={lang}")  # and a second phone closes it too
    assert answer.status_code == 409
    said += _flashes(answer.get_data(as_text=True))
    _begins(said[1:], closed)
    assert not [s for s in said if re.search(night_word, s, re.I)], said
