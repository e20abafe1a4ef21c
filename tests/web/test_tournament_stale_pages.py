"""Tournament pages kept open while another organiser changed the tournament (found on the second
tournament day): a replacement page of who was replaced meanwhile, a paper form of a table whose points
another organiser saved (it overwrote them without a word), a paper form of a table that grew (field errors
with the old points under the new names first), a forged ``players`` field; pages that open only to refuse
their post (clearing a table without paper points, a closed tournament's paper form, a table with deals);
the closing's refusal naming the rounds. Every refusal is said in English and German and changes nothing."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Player
from tests.support import answer_text, field_errors, form_values, snapshot
from tests.support_tournament import make_tournament

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}


def _view(db, t) -> tm.TournamentView:
    db.rollback()
    return tm.read_tournament(db=db, tournament_id=t.id)


def _paper_url(t, table=1, round_number=1, lang="en"):
    return f"/tournaments/{t.id}/rounds/{round_number}/tables/{table}/paper?lang={lang}"


def _points(data, points):
    return data | {f"p{i}": str(p) for i, p in enumerate(points, start=1)}


# --- 3. a replacement page of who was replaced meanwhile ------------------------------------------------

REPLACED = {
    "en": "Start number 2 was replaced meanwhile: nothing was changed, see who has the place now",
    "de": "Startnummer 2 wurde inzwischen ersetzt: nichts wurde geändert, hier steht, wer den Platz jetzt hat",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_replacement_page_of_who_was_replaced_meanwhile_is_refused_and_makes_nothing(client, db, lang):
    t = make_tournament(db, n=8)
    page = client.get(f"/tournaments/{t.id}/entrants/2/replace").get_data(as_text=True)
    data = form_values(page)
    assert data["was"] == str(_view(db, t).entrants[1].player_id)
    first = client.post(f"/tournaments/{t.id}/entrants/2/replace", data=data | {"player": "", "guest": "Erste"})
    assert first.status_code == 302
    before = snapshot(db)
    second = client.post(
        f"/tournaments/{t.id}/entrants/2/replace?lang={lang}", data=data | {"player": "", "guest": "Zweite"}
    )
    assert second.status_code == 409
    assert REPLACED[lang] in answer_text(second)
    assert "Erste" in answer_text(second)  # the tournament's page: who has the place now
    assert snapshot(db) == before
    assert db.exec(select(Player).where(Player.name == "Zweite")).first() is None
    # a forged field: refused the same
    assert (
        client.post(f"/tournaments/{t.id}/entrants/2/replace", data=data | {"was": "x", "guest": "Z"}).status_code
        == 409
    )
    assert snapshot(db) == before


def test_a_second_withdrawal_of_one_participant_is_refused(client, db):
    t = make_tournament(db, n=9)
    client.post(f"/tournaments/{t.id}/draw")
    assert client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "9"}).status_code == 302
    before = snapshot(db)
    answer = client.post(f"/tournaments/{t.id}/entrants/9/withdraw?lang=de", data={"confirm": "9"})
    assert answer.status_code == 409
    assert "Dieser Teilnehmer ist schon ausgeschieden" in answer_text(answer)
    assert snapshot(db) == before


# --- 4. a paper form of a table whose points another organiser saved --------------------------------------

CHANGED = {
    "en": "The points of table 1 were changed meanwhile by someone else: nothing was saved, the form shows them now",
    "de": "Die Punkte von Tisch 1 wurden inzwischen von jemand anderem geändert: nichts wurde gespeichert, "
    "das Formular zeigt sie jetzt",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_paper_form_of_a_table_whose_points_another_organiser_saved_is_refused_showing_them(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    first = form_values(client.get(_paper_url(t)).get_data(as_text=True))
    second = form_values(client.get(_paper_url(t)).get_data(as_text=True))
    assert first["version"] == second["version"]
    assert client.post(_paper_url(t), data=_points(first, [12, -12, 5, -5])).status_code == 302
    before = snapshot(db)
    answer = client.post(_paper_url(t, lang=lang), data=_points(second, [3, -3, 0, 0]))
    assert answer.status_code == 409
    assert CHANGED[lang] in answer_text(answer)
    assert snapshot(db) == before
    assert _view(db, t).rounds[0].tables[0].points == [12, -12, 5, -5]
    shown = form_values(answer.get_data(as_text=True))
    assert [shown[f"p{i}"] for i in range(1, 5)] == ["12", "-12", "5", "-5"]  # the points now, to correct
    assert client.post(_paper_url(t), data=_points(shown, [3, -3, 0, 0])).status_code == 302  # that form saves
    assert _view(db, t).rounds[0].tables[0].points == [3, -3, 0, 0]


def test_a_paper_list_of_the_api_for_a_table_whose_points_changed_since_is_refused(client, db):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    url = f"/api/v1/tournaments/{t.id}/rounds/1/tables/1/paper"
    table = client.get(f"/api/v1/tournaments/{t.id}").get_json()["drawn"][0]["tables"][0]
    seen = table["night_version"]
    assert client.post(url, json={"points": [12, -12, 5, -5], "night_version": seen}).status_code == 200
    before = snapshot(db)
    answer = client.post(url, json={"points": [3, -3, 0, 0], "night_version": seen})
    assert answer.status_code == 409
    error = answer.get_json()["error"]
    assert error["field"] == "night_version"
    assert "the points of table 1 were changed meanwhile by someone else: nothing was saved" in error["message"]
    assert "form" not in error["message"]
    assert snapshot(db) == before
    for bad in (-1, "1", 1.5, True):
        assert client.post(url, json={"points": [3, -3, 0, 0], "night_version": bad}).status_code == 400
    assert snapshot(db) == before


# --- 6. the API's player_ids guard, usable --------------------------------------------------------------


def test_the_api_names_each_seats_player_id_and_its_guards_speak_of_no_form(client, db):
    t = make_tournament(db, n=8)
    other = make_tournament(db, n=0, name="Anderes")
    for i in range(4):
        tm.add_entrant(db=db, tournament_id=other.id, guest=f"Gast {i}")
    client.post(f"/tournaments/{t.id}/draw")
    client.post(f"/tournaments/{other.id}/draw")
    table = client.get(f"/api/v1/tournaments/{t.id}").get_json()["drawn"][0]["tables"][0]
    view = _view(db, t).rounds[0].tables[0]
    assert [p["player_id"] for p in table["players"]] == view.player_ids
    url = f"/api/v1/tournaments/{t.id}/rounds/1/tables/1/paper"
    before = snapshot(db)
    assert client.post(url, json={"points": [3, -3, 0, 0], "player_ids": []}).status_code == 400
    foreign = client.get(f"/api/v1/tournaments/{other.id}").get_json()["drawn"][0]["tables"][0]["night_uid"]
    answer = client.post(url, json={"points": [3, -3, 0, 0], "night_uid": foreign})
    assert answer.status_code == 409
    error = answer.get_json()["error"]
    assert error["field"] == "night_uid"
    assert error["message"].startswith("table 1 was drawn again meanwhile: nothing was saved")
    assert "form" not in error["message"]
    answer = client.post(url, json={"points": [3, -3, 0, 0], "player_ids": list(reversed(view.player_ids))})
    assert answer.status_code == 409
    assert "form" not in answer.get_json()["error"]["message"]
    assert snapshot(db) == before
    ids = [p["player_id"] for p in table["players"]]
    answer = client.post(url, json={"points": [3, -3, 0, 0], "player_ids": ids, "night_uid": table["night_uid"]})
    assert answer.status_code == 200


# --- 5. a paper form of a table that grew: "drawn again" first, no field errors ---------------------------


def test_a_paper_form_of_a_table_that_grew_says_it_was_drawn_again_before_any_field_error(client, db):
    t = make_tournament(db, n=9)
    client.post(f"/tournaments/{t.id}/draw")
    client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "9"})  # 8: two tables of 4
    forms = {
        x.number: form_values(client.get(_paper_url(t, x.number)).get_data(as_text=True))
        for x in _view(db, t).rounds[0].tables
    }
    assert client.post(f"/tournaments/{t.id}/entrants/9/take-back").status_code == 302  # 9 again: drawn again
    grown = next(x for x in _view(db, t).rounds[0].tables if len(x.entrants) == 5)
    before = snapshot(db)
    answer = client.post(_paper_url(t, grown.number), data=_points(forms[grown.number], [20, -20, 5, -5]))
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert f"Table {grown.number} was drawn again meanwhile: nothing was saved" in answer_text(answer)
    assert all(field_errors(page, f"p{i}") == "" for i in range(1, 6))  # no old points under new names
    assert all(form_values(page)[f"p{i}"] == "" for i in range(1, 6))
    assert snapshot(db) == before


# --- 7. a forged players field; pages that open only to refuse -------------------------------------------


@pytest.mark.parametrize("mangle", ["last x", "x after", "first negative"])
def test_a_paper_form_with_a_mangled_players_field_is_refused_as_stale(client, db, mangle):
    """A form whose seats say something else than ids dropped the seat guard and saved."""
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    data = form_values(client.get(_paper_url(t)).get_data(as_text=True))
    ids = data["players"].split()
    players = {
        "last x": " ".join([*ids[:-1], "x"]),
        "x after": " ".join([*ids, "x"]),
        "first negative": " ".join([f"-{ids[0]}", *ids[1:]]),
    }[mangle]
    before = snapshot(db)
    answer = client.post(_paper_url(t), data=_points(data, [3, -3, 0, 0]) | {"players": players})
    assert answer.status_code == 409
    assert "The players of table 1 changed meanwhile: nothing was saved" in answer_text(answer)
    assert snapshot(db) == before


NO_PAPER = {
    "en": "This table has no points from paper to clear",
    "de": "Dieser Tisch hat keine Punkte vom Zettel, die sich löschen ließen",
}
CLOSED = {
    "en": "This tournament is closed: nothing can be changed",
    "de": "Dieses Turnier ist abgeschlossen: nichts lässt sich mehr ändern",
}
DEALS = {
    "en": "This table has deals recorded: its points come from them",
    "de": "An diesem Tisch sind Spiele eingetragen: seine Punkte kommen aus ihnen",
}


def _played(db, t, rounds):
    for number in range(1, rounds + 1):
        tm.draw_round(db=db, tournament_id=t.id)
        for table in _view(db, t).rounds[number - 1].tables:
            tm.enter_paper(db=db, tournament_id=t.id, round_number=number, table=table.number, points=[1, -1, 0, 0])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_clearing_page_of_a_table_without_paper_points_says_so_at_once(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    answer = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper/clear?lang={lang}")
    assert answer.status_code == 409
    assert NO_PAPER[lang] in answer_text(answer)
    assert 'name="confirm"' not in answer.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_paper_pages_of_a_closed_tournament_say_so_at_once(client, db, lang):
    t = make_tournament(db, n=8, rounds=1)
    _played(db, t, 1)
    tm.close_tournament(db=db, tournament_id=t.id)
    for path in ("paper", "paper/clear"):
        answer = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/{path}?lang={lang}")
        assert answer.status_code == 409
        assert CLOSED[lang] in answer_text(answer)
        assert 'name="p1"' not in answer.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_paper_form_of_a_table_with_deals_recorded_says_so_at_once(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    record_hand(db=db, night_id=_view(db, t).rounds[0].tables[0].night.id, hand=SAUSPIEL)
    answer = client.get(_paper_url(t, lang=lang))
    assert answer.status_code == 409
    assert DEALS[lang] in answer_text(answer)
    assert 'name="p1"' not in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Round 3 is not over: every table must finish its deals first"),
        ("de", "Runde 3 ist nicht vorbei: erst muss jeder Tisch seine Spiele beenden"),
    ],
)
def test_closing_with_a_table_of_the_last_round_playing_again_names_that_round(client, db, lang, said):
    t = make_tournament(db, n=8, rounds=3)
    _played(db, t, 3)
    tm.clear_paper(db=db, tournament_id=t.id, round_number=3, table=1)  # the last round's table plays again
    before = snapshot(db)
    answer = client.post(f"/tournaments/{t.id}/close?lang={lang}")
    assert answer.status_code == 409
    assert said in answer_text(answer)
    assert "is not over: 3 rounds" not in answer_text(answer) and "zu spielen" not in answer_text(answer)
    assert snapshot(db) == before


def test_closing_before_the_last_rounds_counts_the_rounds_left(db):
    t = make_tournament(db, n=8, rounds=3)
    _played(db, t, 1)
    with pytest.raises(Conflict) as refused:
        tm.close_tournament(db=db, tournament_id=t.id)
    assert refused.value.message == "the tournament is not over: 2 rounds are to be played"
    tm.draw_round(db=db, tournament_id=t.id)
    db.rollback()
    with pytest.raises(Conflict) as refused:
        tm.close_tournament(db=db, tournament_id=t.id)
    assert refused.value.message == "the tournament is not over: 2 rounds are to be played"
