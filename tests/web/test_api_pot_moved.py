"""The API says what the table page says of a carried pot corrected after the next night took it
(core/nights.py pot_moved, templates/_macros/pot.html ``moved``): both nights name it, with the figures."""

from __future__ import annotations

from datetime import date

from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night
from tests.support import start_night
from tests.web.test_reports import _pot_taken_then_corrected


def test_a_nights_answer_names_its_carried_pot_corrected_after_the_next_night_took_it(client, db, players):
    first, second = _pot_taken_then_corrected(db, players)  # 80 cents taken, 160 carried out now
    out = client.get(f"/api/v1/sessions/{first.id}").get_json()["pot_moved"]
    assert out == [
        {
            "gave": True,
            "night_id": second.id,
            "date": "2026-11-20",
            "took": 80,
            "now": 160,
            "difference": 80,
            "in_units": False,
        }
    ]
    into = client.get(f"/api/v1/sessions/{second.id}").get_json()["pot_moved"]
    assert into == [
        {
            "gave": False,
            "night_id": first.id,
            "date": "2026-11-13",
            "took": 80,
            "now": 160,
            "difference": 80,
            "in_units": False,
        }
    ]
    document = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "pot_moved" in document["Session"]["required"]
    assert set(document["PotMoved"]["required"]) == set(out[0])


def test_a_pot_of_units_is_said_in_units_and_a_night_without_a_correction_names_none(client, db, players):
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=0)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", stake_cents=0, played_on=date(2026, 11, 20))
    assert client.get(f"/api/v1/sessions/{first.id}").get_json()["pot_moved"] == []
    assert client.get(f"/api/v1/sessions/{second.id}").get_json()["pot_moved"] == []
    assert client.post(f"/nights/{first.id}/reopen", data={"reason": "a Rundpass more"}).status_code == 302
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    (moved,) = client.get(f"/api/v1/sessions/{second.id}").get_json()["pot_moved"]
    assert (moved["took"], moved["now"], moved["difference"], moved["in_units"]) == (8, 16, 8, True)


def test_a_night_that_took_two_pots_and_gave_one_names_all_three_corrections_as_its_schema_allows(client, db, players):
    """Two tables' pots went to the next night, whose own pot went to the night after; all three nights were
    corrected since: its answer names three, and the OpenAPI document allows them (it said two at most)."""
    from scorekeeper.core.nights import reopen_night

    carry = {"pot_at_close": "carry"}
    tables = [start_night(db, players, game="schafkopf", rules=carry) for _ in range(2)]
    for t in tables:
        record_hand(db=db, night_id=t.id, hand={"contract": "rundpass"})
        close_night(db=db, night_id=t.id)
    middle = start_night(db, players, game="schafkopf", rules=carry)
    close_night(db=db, night_id=middle.id)
    start_night(db, players, game="schafkopf", rules=carry)
    for night in (*tables, middle):
        reopen_night(db=db, night_id=night.id, reason="a Rundpass more")
        record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
        close_night(db=db, night_id=night.id)
    moved = client.get(f"/api/v1/sessions/{middle.id}").get_json()["pot_moved"]
    assert [(m["gave"], m["took"], m["now"]) for m in moved] == [(False, 80, 160), (False, 80, 160), (True, 160, 240)]
    schema = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["Session"]
    assert schema["properties"]["pot_moved"].get("maxItems", len(moved)) >= len(moved)
