"""Issue 24's seven defects of a night's life, each driven through the app as it happened.

1. A table phone (a guest with the table's code) closed its tournament table early.
2. An admin reopened a finished tournament table; a deal beyond the tournament's number counted.
3. A table of a closed tournament was reopened and edited: the final standings changed.
4. SQLite gave a deleted night's id to the next night, where a stale form then landed.
5. The hand form opened for a closed night and a finished table.
6. A table's numbering disagreed after a redeal ("Spiel 5 von 32" beside "Spiel 6 eintragen").
7. The API's tournament without rules got the preset ``seed``, not ``turnier``.
"""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import CLOSED, OPEN, HandRecord, Night, Tournament
from scorekeeper.core.nights import close_night, delete_night
from scorekeeper.core.players import create_player
from tests.support import RUFEN_HIRSCH, answer_text, fill, form_values, open_form, snapshot, start_night

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
RUNDPASS = {"contract": "rundpass"}


def _tournament(db, *, deals: int, rounds: int = 2, n: int = 4) -> Tournament:
    t = tm.create_tournament(
        db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=deals, rounds=rounds, seed="s"
    )
    for i in range(n):
        p = create_player(db=db, name=f"Spieler {i + 1}")
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    tm.draw_round(db=db, tournament_id=t.id)
    return t


def _table_night(db, t) -> Night:
    return tm.read_tournament(db=db, tournament_id=t.id).rounds[-1].tables[0].night


def _hands(db, night_id: int) -> int:
    db.rollback()
    return len(db.exec(select(HandRecord.id).where(HandRecord.night_id == night_id)).all())


def _status(db, night_id: int) -> str:
    db.rollback()
    return db.get(Night, night_id, populate_existing=True).status


def _guest(app, code: str):
    phone = app.test_client()
    assert phone.post("/join", data={"code": code}).status_code == 302
    return phone


# --- 1. a table phone cannot close its tournament table ---------------------------------------


def test_a_table_phone_cannot_close_its_tournament_table(app, db):
    t = _tournament(db, deals=3)
    night = _table_night(db, t)
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL)  # one good deal, then the lead locked in
    phone = _guest(app, night.join_code)
    before = snapshot(db)
    answer = phone.post(f"/nights/{night.id}/close?lang=en")
    assert answer.status_code in (403, 409)
    assert "Only the organiser" in answer.get_data(as_text=True)
    assert snapshot(db) == before
    assert _status(db, night.id) == OPEN
    assert not tm.read_tournament(db=db, tournament_id=t.id).can_draw  # the round is not over
    # and the pages do not offer it
    assert f"/nights/{night.id}/close" not in phone.get(f"/nights/{night.id}/summary").get_data(as_text=True)


# --- 2. never more counted deals than the tournament's number ---------------------------------


def test_a_reopened_finished_table_takes_no_deal_beyond_the_tournaments_number(client, db):
    t = _tournament(db, deals=3)
    night = _table_night(db, t)
    for _ in range(3):
        record_hand(db=db, night_id=night.id, hand=SAUSPIEL)
    assert _status(db, night.id) == CLOSED  # its last deal closed it
    client.post(f"/nights/{night.id}/reopen", data={"reason": "a hand was entered wrong"})
    answer = client.post(f"/api/v1/sessions/{night.id}/hands", json=SAUSPIEL)
    assert answer.status_code == 409
    assert "3 deals" in answer.get_json()["error"]["message"]
    assert _hands(db, night.id) == 3


# --- 3. a closed tournament freezes its tables ------------------------------------------------


def test_a_table_of_a_closed_tournament_cannot_be_reopened_or_changed(client, db):
    t = _tournament(db, deals=1, rounds=1)
    night = _table_night(db, t)
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL)
    tm.close_tournament(db=db, tournament_id=t.id)
    standings = [line.standing.total for line in tm.read_tournament(db=db, tournament_id=t.id).standings]
    before = snapshot(db)
    answer = client.post(f"/nights/{night.id}/reopen?lang=en", data={"reason": "correct hand 1"})
    said = client.get(answer.location).get_data(as_text=True)
    assert "The tournament is closed: an admin reopens the tournament first" in said  # a line of its own: a sentence
    edit = client.put(f"/api/v1/sessions/{night.id}/hands/1", json={**SAUSPIEL, "points": 30})
    assert edit.status_code == 409
    assert snapshot(db) == before
    assert _status(db, night.id) == CLOSED
    again = [line.standing.total for line in tm.read_tournament(db=db, tournament_id=t.id).standings]
    assert again == standings
    assert f"/nights/{night.id}/reopen" not in client.get(f"/nights/{night.id}/summary").get_data(as_text=True)


# --- 4. ids are never reused; a stale form never lands in another night -----------------------


def test_a_deleted_nights_id_is_not_given_to_the_next_night_and_its_stale_form_lands_nowhere(client, db, players):
    gone = start_night(db, players)
    stale = fill(open_form(client, f"/nights/{gone.id}/hands/new"), RUFEN_HIRSCH)
    delete_night(db=db, night_id=gone.id, reason="started by mistake", export={})
    new = start_night(db, players)
    assert new.id != gone.id
    answer = client.post(f"/nights/{gone.id}/hands/new", data={**stale, "action": "save"})
    assert answer.status_code in (404, 409)
    assert _hands(db, new.id) == 0


def test_a_form_of_another_night_with_the_same_id_is_refused(client, db, players):
    """Where an id could be reused (an imported or restored database), the night's uid tells."""
    night = start_night(db, players)
    form = fill(open_form(client, f"/nights/{night.id}/hands/new?lang=en"), RUFEN_HIRSCH)
    assert form["night_uid"] == night.uid
    before = snapshot(db)
    answer = client.post(
        f"/nights/{night.id}/hands/new?lang=en", data={**form, "night_uid": "0" * 32, "action": "save"}
    )
    assert answer.status_code == 409
    assert "another night" in answer.get_data(as_text=True)
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "Dieses Formular gehört zu einem anderen Tisch mit derselben Nummer"),
        ("en", "This form was made for another table that had the same number"),
    ],
)
def test_a_form_of_another_table_with_the_same_id_is_refused_as_a_tables(client, db, lang, said):
    """At a tournament's table the refusal names the table, never a night (core/lifecycle.py ``check_form``)."""
    table = _table_night(db, _tournament(db, deals=2))
    form = fill(open_form(client, f"/nights/{table.id}/hands/new?lang={lang}"), SAUSPIEL)
    before = snapshot(db)
    answer = client.post(
        f"/nights/{table.id}/hands/new?lang={lang}", data={**form, "night_uid": "0" * 32, "action": "save"}
    )
    assert answer.status_code == 409
    text = answer_text(answer)
    assert said in text and not re.search(r"\bAbends?\b|\bnight\b", text), text
    assert snapshot(db) == before


def test_a_redraws_tables_get_new_ids(db):
    t = tm.create_tournament(db=db, name="T", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s")
    for i in range(4):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"P{i}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    first = _table_night(db, t).id
    tm.redraw_round(db=db, tournament_id=t.id)
    assert _table_night(db, t).id > first


# --- 5. the hand form does not open where no hand can be recorded -----------------------------


def test_the_hand_form_does_not_open_for_a_closed_night(client, db, players):
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    close_night(db=db, night_id=night.id)
    answer = client.get(f"/nights/{night.id}/hands/new?lang=en")
    assert answer.status_code == 302 and answer.location.endswith(f"/nights/{night.id}")
    assert "this night is closed" in client.get(answer.location).get_data(as_text=True).lower()
    assert client.get(f"/nights/{night.id}/hands/1/edit").status_code == 302
    assert client.get(f"/nights/{night.id}/hands/undo").status_code == 302


def test_the_hand_form_does_not_open_for_a_finished_table(client, db):
    t = _tournament(db, deals=1)
    night = _table_night(db, t)
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL)
    answer = client.get(f"/nights/{night.id}/hands/new?lang=en")
    assert answer.status_code == 302
    assert "has played its 1 deal:" in client.get(answer.location).get_data(as_text=True)


# --- 6. one numbering on a table ---------------------------------------------------------------


def _numbers(page: str) -> dict[str, str]:
    return {
        "count": re.search(r'id="deal-count"><strong>Spiel (\d+) von', page).group(1),
        "button": re.search(r'id="record"[^>]*>Spiel (\d+) eintragen', page, re.S).group(1),
        "list": re.search(r'id="hands-title"[^>]*>Spiele \((\d+)', page).group(1),
    }


def test_after_a_redeal_the_count_the_button_and_the_list_agree(client, db):
    t = _tournament(db, deals=32)
    night = _table_night(db, t)
    for hand in (SAUSPIEL, RUNDPASS, SAUSPIEL, SAUSPIEL, SAUSPIEL):
        record_hand(db=db, night_id=night.id, hand=hand)
    page = client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True)
    numbers = _numbers(page)
    assert numbers == {"count": "5", "button": "5", "list": "4"}, numbers
    assert "neu gegeben" in page  # the redeal is shown as such
    form = client.get(f"/nights/{night.id}/hands/new?lang=de").get_data(as_text=True)
    assert re.search(r"<h1>Spiel 5 von 32</h1>", form)


def test_a_refused_stale_form_shows_the_number_it_will_now_record(client, db, players):
    night = start_night(db, players)
    mine = fill(open_form(client, f"/nights/{night.id}/hands/new?lang=en"), RUFEN_HIRSCH)
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True})
    answer = client.post(f"/nights/{night.id}/hands/new?lang=en", data={**mine, "action": "save"})
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert re.search(r"<h1>Hand 2</h1>", page)
    assert "Saved again, it is recorded as hand 2" in page
    assert form_values(page)["expected_hands"] == "1"  # saving it again, once checked, records hand 2
    # a Rufen, whose forehand declares, is another's in hand 2: the form starts empty and is entered again
    again = fill(form_values(page), RUFEN_HIRSCH)
    again = client.post(f"/nights/{night.id}/hands/new?lang=en", data={**again, "action": "save"})
    assert again.status_code == 302, again.get_data(as_text=True)
    assert _hands(db, night.id) == 2


# --- 7. the API's tournament defaults to the turnier preset -----------------------------------


def test_the_apis_tournament_without_rules_plays_the_turnier_preset(client, db):
    for body in ({}, {"rules": None}):
        answer = client.post("/api/v1/tournaments", json={"name": "Turnier", "game": "schafkopf", **body})
        assert answer.status_code == 201, answer.get_json()
        assert answer.get_json()["rules"]["preset"] == "turnier"
    # a game without a turnier preset plays its own default, as the form does
    answer = client.post("/api/v1/tournaments", json={"name": "Matzl", "game": "matzlfangen"})
    assert answer.status_code == 201 and answer.get_json()["rules"]["preset"] == "seed"
