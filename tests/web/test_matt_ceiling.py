"""Rule: a night holds at most ``engine.ledger.CEILING`` (10**9) units and cents (docs/rules.md, "The pot
(Stock)"), Matt's too, whose money is not its points but ``stake_per_point`` times their difference. The ceiling
checked the points alone: at 1000 units a point and 1000 EUR a unit one Durchgang of 77 points paid 77,000 units
(77,000,000 EUR), stored past the ceiling and past what PostgreSQL's integer columns hold (a 500 there).
Such a Durchgang is refused, a 400 in the page's language and in the API, and nothing changes."""

from __future__ import annotations

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import add_hands, edit_hand, record_hand
from scorekeeper.core.models import AuditEntry, HandRecord, Night, NightResult
from scorekeeper.engine import InvalidHand
from tests.support import answer_text, as_file, start_night, submit

MATE = {"mated_by": 1, "move": 7, "card": "A"}  # 7 x 11 = 77 points for seat 1
SMALL = {"mated_by": 2, "move": 1, "card": "Q"}  # 3 points for seat 2
RULES = {"stake_per_point": 1000}
STAKE = 100_000  # 1000 EUR a unit: the ceiling is 10**9 // 10**5 = 10,000 units
ENGINE = (
    "this Durchgang would make a player's money 77000 units (the points' difference times the stake per point), more "
    "than a night may hold (10000 units at this stake): nothing was saved"
)


def matt_night(db, players):
    return start_night(db, players, game="matt", seats=2, rules=RULES, stake_cents=STAKE)


def unchanged(db, night_id):
    db.rollback()
    db.expire_all()
    hands = db.exec(select(func.count()).select_from(HandRecord).where(HandRecord.night_id == night_id)).one()
    audit = db.exec(select(func.count()).select_from(AuditEntry).where(AuditEntry.night_id == night_id)).one()
    rows = db.exec(select(func.count()).select_from(NightResult).where(NightResult.night_id == night_id)).one()
    return hands, audit, rows, db.get(Night, night_id).version


def test_the_api_refuses_a_durchgang_whose_money_passes_the_ceiling(client, db, players):
    night = matt_night(db, players)
    before = unchanged(db, night.id)

    answer = client.post(f"/api/v1/sessions/{night.id}/hands", json=MATE)

    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    assert answer.get_json()["error"] == {"hand": 0, "field": "", "message": ENGINE}
    assert unchanged(db, night.id) == before
    assert client.post(f"/api/v1/sessions/{night.id}/hands", json=SMALL).status_code == 201


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "This Durchgang would make a player's money 77,000 units (the points' difference times the stake per "
            "point), more than a night may hold (10,000 units at this stake): nothing was saved",
        ),
        (
            "de",
            "Dieser Durchgang brächte das Geld eines Spielers auf 77.000 Einheiten (die Differenz der Punkte mal "
            "Einsatz je Punkt), mehr als ein Abend halten kann (10.000 Einheiten bei diesem Einsatz): nichts wurde "
            "gespeichert",
        ),
    ],
)
def test_the_hand_form_refuses_it_in_the_pages_language(client, db, players, lang, said):
    night = matt_night(db, players)
    before = unchanged(db, night.id)

    for action in ("preview", "save"):
        answer = submit(client, night.id, MATE, action=action, lang=lang)
        assert answer.status_code == 400
        assert said in answer_text(answer), answer_text(answer)[:2000]
    assert unchanged(db, night.id) == before


def test_many_hands_an_edit_and_an_import_stop_at_it_too(db, players):
    night = matt_night(db, players)
    before = unchanged(db, night.id)
    with pytest.raises(InvalidHand, match="would make a player's money 74000 units") as refused:
        add_hands(db=db, night_id=night.id, hands=[SMALL, MATE])  # 77 - 3 = 74 points' difference
    assert refused.value.hand == 1
    assert unchanged(db, night.id) == before
    record_hand(db=db, night_id=night.id, hand=SMALL)
    record_hand(db=db, night_id=night.id, hand=SMALL)
    before = unchanged(db, night.id)
    with pytest.raises(InvalidHand, match="would make a player's money 77000 units") as refused:
        edit_hand(db=db, night_id=night.id, number=1, hand=MATE)
    assert refused.value.hand == 0
    assert unchanged(db, night.id) == before

    data = as_file(night_json(db=db, night_id=night.id))
    data["evening"]["uid"] = "6e01dac5506f41659e0dba815886967c"
    data["hands"][1]["data"] = MATE
    refused = r"^hands\[1\]\.data: this Durchgang would make a player's money 74000 units"
    with pytest.raises(InvalidExport, match=refused):
        import_night(db=db, data=data)


def test_the_edit_forms_preview_refuses_it_as_saving_the_edit_does(client, db, players):
    night = matt_night(db, players)
    record_hand(db=db, night_id=night.id, hand=SMALL)
    record_hand(db=db, night_id=night.id, hand=SMALL)
    before = unchanged(db, night.id)

    for action in ("preview", "save"):
        answer = submit(client, night.id, MATE, action=action, lang="en", number=1)
        assert answer.status_code == 400, (action, answer.status_code)
        assert "This Durchgang would make a player's money 77,000 units" in answer_text(answer)
    assert unchanged(db, night.id) == before
