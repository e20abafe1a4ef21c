"""Defects an attack on the running app found (issue 12): each test failed before its fix.

Dates far off, Unicode digits and lone surrogates, names that look like others, files readable by
anybody, and an admin's repair of a night started by mistake.
"""

from __future__ import annotations

import os
import stat
from datetime import date

import pytest
from sqlmodel import select

from scorekeeper import create_app
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import AuditEntry, DeletedNight, HandRecord, Night, NightResult, Player, Seat
from scorekeeper.core.nights import last_day
from scorekeeper.core.players import create_player
from tests.support import DURCH, RUFEN_HIRSCH, as_file, open_form, snapshot, start_night

# --- 1. a night dated 9999-12-31 ------------------------------------------------------------


def _date_far_off(db, night) -> None:
    """A night stored with a date far off, as the API, the form or an import took one before the fix."""
    db.rollback()
    stored = db.get(Night, night.id)
    stored.played_on = date(9999, 12, 31)
    db.add(stored)
    db.commit()
    record_hand(db=db, night_id=night.id, hand=DURCH)  # its history rows carry the date too


def test_the_api_refuses_a_night_dated_9999_and_names_the_dates_it_takes(client, db, players):
    before = snapshot(db)
    answer = client.post(
        "/api/v1/sessions",
        json={"game": "matt", "stake_cents": 5, "players": [players[0].id, players[1].id], "first_dealer": 1}
        | {"date": "9999-12-31"},
    )
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["field"] == "date"
    assert error["message"] == f"the date must be from 1900-01-01 to {last_day().isoformat()}"
    db.rollback()
    assert snapshot(db) == before


@pytest.mark.parametrize("day", ["1899-12-31", "9999-12-31"])
def test_the_start_form_refuses_a_date_out_of_range_in_the_users_language(client, db, players, day):
    form = open_form(client, "/nights/new?lang=de")
    form.update({"game": "matt", "seat_1": str(players[0].id), "seat_2": str(players[1].id), "played_on": day})
    form["start"] = "1"
    before = snapshot(db)
    answer = client.post("/nights/new?lang=de", data=form)
    assert answer.status_code == 400
    assert "das Datum muss zwischen 1900-01-01 und" in answer.get_data(as_text=True)
    db.rollback()
    assert snapshot(db) == before


def test_an_import_of_a_night_dated_9999_is_refused(db, night, other_db):
    data = as_file(night_json(db=db, night_id=night.id))
    data["evening"]["played_on"] = "9999-12-31"
    with pytest.raises(InvalidExport) as refused:
        import_night(db=other_db, data=data)
    assert refused.value.path == "evening.played_on"
    assert "from 1900-01-01 to" in refused.value.message


@pytest.mark.parametrize("path", ["/nights/", "/leaderboard", "/players/1", "/nights/?season=9999"])
def test_every_history_page_survives_a_date_far_off_already_stored(client, db, night, path):
    _date_far_off(db, night)
    answer = client.get(path)
    assert answer.status_code in (200, 400), answer.get_data(as_text=True)[:500]


def test_an_admin_corrects_a_nights_date_and_place_and_the_history_follows(client, db, night):
    _date_far_off(db, night)
    answer = client.post(f"/nights/{night.id}/change?lang=en", data={"played_on": "2026-03-14", "place": "Post"})
    assert answer.status_code == 302
    # a club night's words (a tournament's table says "the table's": tests/web/test_tournaments.py)
    assert "The night&#39;s date and place are saved." in client.get(answer.location).get_data(as_text=True)
    db.rollback()
    db.expire_all()
    assert (db.get(Night, night.id).played_on, db.get(Night, night.id).place) == (date(2026, 3, 14), "Post")
    assert {r.played_on for r in db.exec(select(NightResult).where(NightResult.night_id == night.id))} == {
        date(2026, 3, 14)
    }
    change = db.exec(select(AuditEntry).where(AuditEntry.night_id == night.id, AuditEntry.action == "change")).one()
    assert change.before["played_on"] == "9999-12-31" and change.after == {"played_on": "2026-03-14", "place": "Post"}
    assert client.get("/leaderboard?lang=en").status_code == 200


def test_correcting_a_night_to_a_date_out_of_range_is_refused_and_changes_nothing(client, db, night):
    before = snapshot(db)
    answer = client.post(f"/nights/{night.id}/change?lang=en", data={"played_on": "2999-01-01", "place": ""})
    assert answer.status_code == 400
    assert "the date must be from 1900-01-01 to" in answer.get_data(as_text=True)
    db.rollback()
    assert snapshot(db) == before


def test_an_admin_deletes_a_night_started_by_mistake_after_a_confirmation(client, db, night):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    unconfirmed = client.post(f"/nights/{night.id}/delete?lang=en", data={"reason": "a typo"})
    assert unconfirmed.status_code == 400
    assert "Tick the box to delete the night." in unconfirmed.get_data(as_text=True)
    answer = client.post(f"/nights/{night.id}/delete?lang=en", data={"reason": "started twice", "confirm": "y"})
    assert answer.status_code == 302
    db.rollback()
    assert db.exec(select(Night.id)).all() == []
    for model in (Seat, HandRecord, AuditEntry, NightResult):
        assert db.exec(select(model).where(model.night_id == night.id)).all() == []
    deleted = db.exec(select(DeletedNight)).one()
    assert (deleted.uid, deleted.reason) == (night.uid, "started twice")
    assert deleted.export["hands"][0]["data"]["contract"] == "durch"


def test_a_deleted_night_comes_back_by_importing_its_kept_export(client, db, night):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    client.post(f"/nights/{night.id}/delete", data={"reason": "wrong table", "confirm": "y"})
    db.rollback()
    db.expunge_all()  # the night this session held is gone
    kept = db.exec(select(DeletedNight)).one().export
    night_id, created = import_night(db=db, data=kept)
    assert created and db.get(Night, night_id).uid == night.uid


@pytest.mark.parametrize("action", ["change", "delete"])
def test_only_an_admin_corrects_or_deletes_a_night(as_role, db, night, action):
    scorer = as_role("scorer")
    before = snapshot(db)
    data = {"played_on": "2026-01-01", "place": "x", "reason": "r", "confirm": "y"}
    assert scorer.post(f"/nights/{night.id}/{action}", data=data).status_code == 403
    db.rollback()
    assert snapshot(db) == before


# --- 7. Unicode digits ----------------------------------------------------------------------


@pytest.mark.parametrize("digit", ["²", "³", "١", "٣"])
def test_unicode_digits_on_undo_are_refused_without_a_500_and_undo_nothing(client, db, night, digit):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    before = snapshot(db)
    answer = client.post(f"/nights/{night.id}/hands/undo?lang=en", data={"expected_version": digit})
    assert answer.status_code == 400 and "not made by this page" in answer.get_data(as_text=True)
    db.rollback()
    assert snapshot(db) == before  # the last hand is still there


@pytest.mark.parametrize("field, digit", [("partner", "³"), ("raises", "²"), ("expected_hands", "²")])
def test_unicode_digits_in_the_hand_form_are_refused_with_a_message(client, db, night, field, digit):
    form = open_form(client, f"/nights/{night.id}/hands/new?lang=en")
    form.update({"contract": "rufen", "partner": "3", "points": "70", field: digit, "action": "save"})
    before = snapshot(db)
    answer = client.post(f"/nights/{night.id}/hands/new?lang=en", data=form)
    assert answer.status_code in (400, 409)
    db.rollback()
    assert snapshot(db) == before


def test_unicode_digits_in_a_guests_hand_form_are_refused(app, db, night, anon):
    anon.post("/join", data={"code": night.join_code})
    form = open_form(anon, f"/nights/{night.id}/hands/new?lang=en")
    form.update({"contract": "rufen", "partner": "³", "points": "70", "action": "save"})
    before = snapshot(db)
    assert anon.post(f"/nights/{night.id}/hands/new?lang=en", data=form).status_code == 400
    assert snapshot(db) == before


def test_unicode_digits_on_edit_are_refused(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    form = open_form(client, f"/nights/{night.id}/hands/1/edit?lang=en")
    form.update({"raises": "²", "action": "save"})
    before = snapshot(db)
    assert client.post(f"/nights/{night.id}/hands/1/edit?lang=en", data=form).status_code == 400
    assert snapshot(db) == before


def test_a_unicode_digit_for_a_seat_on_the_start_form_is_refused(client, db, players):
    form = open_form(client, "/nights/new?lang=en")
    form.update({"game": "matt", "seat_1": "²", "seat_2": str(players[1].id), "start": "1"})
    before = snapshot(db)
    answer = client.post("/nights/new?lang=en", data=form)
    assert answer.status_code == 400
    db.rollback()
    assert snapshot(db) == before


def test_a_unicode_digit_for_the_record_to_merge_is_refused(client, db, players):
    before = snapshot(db)
    answer = client.post(f"/players/{players[0].id}/merge", data={"other": "²", "confirm": "y"})
    assert answer.status_code == 400
    assert snapshot(db) == before


# --- 8. lone surrogates ---------------------------------------------------------------------


def test_a_player_name_with_a_lone_surrogate_is_a_400_not_a_500(client, db):
    before = snapshot(db)
    answer = client.post("/api/v1/players", json={"name": "X\ud800"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["field"] == "name"
    db.rollback()
    assert snapshot(db) == before


def test_a_place_with_a_lone_surrogate_is_a_400_not_a_500(client, db, players):
    body = {"game": "matt", "stake_cents": 5, "players": [players[0].id, players[1].id], "first_dealer": 1}
    before = snapshot(db)
    answer = client.post("/api/v1/sessions", json=body | {"place": "\udfff"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["field"] == "place"
    assert snapshot(db) == before


@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/sessions"])
def test_an_unknown_key_that_is_a_lone_surrogate_is_answered_in_strict_json(client, path):
    import json

    answer = client.post(path, data='{"\\ud800": 1}', content_type="application/json")
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    json.loads(text)  # a strict reader refuses "\ud800" alone; the answer says "\\ud800" as text
    assert "\\ud800" not in text.replace("\\\\ud800", "")


# --- 10. names that look the same -----------------------------------------------------------


@pytest.mark.parametrize("name", ["Anna\u200b", "A\u200fnna", "\u2060Anna", "Anna\u00ad"])
def test_a_name_with_an_invisible_character_is_refused(db, name):
    with pytest.raises(InvalidInput, match="the name must not contain invisible characters"):
        create_player(db=db, name=name)


@pytest.mark.parametrize("lookalike", ["Ａｎｎａ", "anna", "ANNA", "Anna  ", "An\u00adna"])
def test_a_name_that_looks_like_one_on_the_roster_is_refused_like_a_duplicate(db, lookalike):
    create_player(db=db, name="Anna")
    with pytest.raises(InvalidInput):
        create_player(db=db, name=lookalike)
    assert len(db.exec(select(Player)).all()) == 1


SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize("name", ["Josef 👨\u200d👩\u200d👧", f"Schors {SCOTLAND}"])
def test_emoji_sequences_with_joiners_are_still_names(db, name):
    assert create_player(db=db, name=name).name == name


def test_the_api_finds_a_roster_name_typed_in_another_case_or_form(client, db):
    create_player(db=db, name="Straße")
    create_player(db=db, name="Bernd")
    body = {"game": "matt", "stake_cents": 5, "players": ["STRASSE", "bernd"], "first_dealer": 1}
    assert client.post("/api/v1/sessions", json=body).status_code == 201


# --- 11. the live database is not world-readable --------------------------------------------


def test_the_instance_folder_and_the_database_files_are_private_on_every_start(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    database = instance / "scorekeeper.db"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    old = os.umask(0o022)
    try:
        for _ in range(2):  # the second start finds files made readable meanwhile
            app = create_app({"TESTING": True, "SECRET_KEY": "test"})
            app.extensions["sk_engine"].dispose()
            assert stat.S_IMODE(instance.stat().st_mode) == 0o700
            for path in instance.iterdir():
                if path.name.startswith("scorekeeper.db"):
                    assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
            database.chmod(0o644)
            instance.chmod(0o755)
    finally:
        os.umask(old)


def test_a_night_of_the_table_records_and_the_page_still_works_after_all_this(client, db, players):
    night = start_night(db, players, game="matt", seats=2)
    record_hand(db=db, night_id=night.id, hand={"mated_by": 1, "move": 3, "card": "A"})
    before = snapshot(db)
    assert client.get(f"/nights/{night.id}").status_code == 200
    assert snapshot(db) == before  # the page only reads
