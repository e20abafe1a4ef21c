"""The table's main path through the pages, as a phone without JavaScript walks it."""

from sqlmodel import select

from scorekeeper.core.models import HandRecord


def test_recording_a_rufen_hand_shows_the_balance_in_units_and_money(client, night):
    # Anna deals, so Bernd (forehand) declares; partner Dieter; 70 points won, raised to Hirsch: worth 6
    form = {"contract": "rufen", "partner": "4", "points": "70", "raises": "5", "matzl": "", "expected_hands": "0"}
    preview = client.post(f"/nights/{night.id}/hands/new?lang=en", data={**form, "action": "preview"})
    assert preview.status_code == 200
    assert "Preview: value 6" in preview.get_data(as_text=True)
    saved = client.post(f"/nights/{night.id}/hands/new", data={**form, "action": "save", "idempotency_key": "a"})
    assert saved.status_code == 302
    body = client.get(f"/api/v1/sessions/{night.id}").get_json()
    assert [(t["name"], t["units"], t["cents"]) for t in body["totals"]] == [
        ("Anna", -6, -60),
        ("Bernd", 6, 60),
        ("Clara", -6, -60),
        ("Dieter", 6, 60),
    ]


def test_a_hand_the_engine_refuses_is_shown_next_to_its_field_and_nothing_is_saved(client, night, db):
    form = {"contract": "rufen", "partner": "4", "points": "131", "expected_hands": "0", "action": "save"}
    answer = client.post(f"/nights/{night.id}/hands/new?lang=en", data=form)
    assert answer.status_code == 400
    assert "Points of the declaring side: must be between 0 and 130." in answer.get_data(as_text=True)
    assert db.exec(select(HandRecord)).all() == []
