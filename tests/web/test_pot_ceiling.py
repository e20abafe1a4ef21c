"""Rule: a night holds at most ``engine.ledger.CEILING`` (10**9) units and cents, its pot and each one's balance
(docs/rules.md, "The pot (Stock)"). Each lost Sauspiel doubles the pot: at a pot stake of 1000 the pot passed
what a database column holds and the server answered 500 (OverflowError), its pages showing 10**17 EUR before.
A hand past the ceiling is refused, a 400 in the page's language, its figures grouped as the language groups them
(131,072,000; German 131.072.000: they were written 131072000), and nothing changes; the API says the engine's
sentence, its figures as JSON writes them."""

from __future__ import annotations

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import add_hands, edit_hand, record_hand
from scorekeeper.core.models import AuditEntry, HandRecord, Night
from scorekeeper.core.table import load_table
from scorekeeper.engine import InvalidHand
from tests.support import answer_text, as_file, start_night, submit

LOST = {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 50}  # the pot doubles
LIMIT = 10**9 // 10  # units at 10 cents a unit


def bomb(db, players):
    """A night at 10 cents with a pot stake of 1000: a Rundpass (4000 units), then 14 lost Sauspiele: the pot
    holds 4000 * 2**14 = 65,536,000 units (6,553,600 EUR); one more would make it 131,072,000, past 10**8."""
    night = start_night(db, players, game="schafkopf", rules={"pot_stake": 1000}, stake_cents=10)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    for _ in range(14):
        record_hand(db=db, night_id=night.id, hand=LOST)
    assert load_table(db=db, night_id=night.id).settlement.pot == 65_536_000
    return night


def unchanged(db, night_id):
    db.rollback()
    db.expire_all()
    hands = db.exec(select(func.count()).select_from(HandRecord).where(HandRecord.night_id == night_id)).one()
    audit = db.exec(select(func.count()).select_from(AuditEntry).where(AuditEntry.night_id == night_id)).one()
    return hands, audit, db.get(Night, night_id).version


def test_the_api_refuses_a_hand_past_the_ceiling_with_a_400(client, db, players):
    night = bomb(db, players)
    before = unchanged(db, night.id)

    answer = client.post(f"/api/v1/sessions/{night.id}/hands", json=LOST)

    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    assert answer.get_json()["error"] == {
        "hand": 15,
        "field": "pot",
        "message": f"this hand would make the pot 131072000 units, more than a night may hold ({LIMIT} units at "
        "this stake): nothing was saved",
    }
    assert unchanged(db, night.id) == before
    assert client.get(f"/api/v1/sessions/{night.id}").status_code == 200


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "This hand would make the pot 131,072,000 units, more than a night may hold (100,000,000 units at "
            "this stake): nothing was saved",
        ),
        (
            "de",
            "Dieses Spiel brächte den Stock auf 131.072.000 Einheiten, mehr als ein Abend halten kann (100.000.000 "
            "Einheiten bei diesem Einsatz): nichts wurde gespeichert",
        ),
    ],
)
def test_the_hand_form_refuses_a_hand_past_the_ceiling_in_the_pages_language(client, db, players, lang, said):
    night = bomb(db, players)
    before = unchanged(db, night.id)

    for action in ("preview", "save"):
        answer = submit(client, night.id, LOST, action=action, lang=lang)
        assert answer.status_code == 400
        assert said in answer_text(answer)
    assert unchanged(db, night.id) == before
    assert client.get(f"/nights/{night.id}?lang={lang}").status_code == 200


def test_many_hands_at_once_and_an_edit_stop_at_the_ceiling_too(db, players):
    night = bomb(db, players)
    before = unchanged(db, night.id)
    with pytest.raises(InvalidHand, match="would make the pot 131072000 units"):
        add_hands(db=db, night_id=night.id, hands=[LOST])
    assert unchanged(db, night.id) == before
    record_hand(db=db, night_id=night.id, hand={"contract": "solo", "declarer": 2, "suit": "herz", "points": 70})
    # hand 16 a solo: made a lost Sauspiel, it doubles the pot past the ceiling
    with pytest.raises(InvalidHand, match="would make the pot 131072000 units") as refused:
        edit_hand(db=db, night_id=night.id, number=16, hand=LOST)
    assert refused.value.hand == 15


def test_a_night_file_starting_with_a_pot_past_the_ceiling_is_refused(db, players):
    """The attacker's file: a pot of 10**9 units at 10 cents (100,000,000 EUR) to start with."""
    night = start_night(db, players, game="schafkopf", stake_cents=10)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    data = as_file(night_json(db=db, night_id=night.id))
    data["evening"]["uid"] = "6e01dac5506f41659e0dba815886967c"
    data["evening"]["pot_start"] = 10**9

    with pytest.raises(InvalidExport) as refused:
        import_night(db=db, data=data)

    assert str(refused.value) == (
        "evening.pot_start: a pot of 1000000000 units to start with is more than a night may hold "
        "(100000000 units at this stake)"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "This hand would make the pot 131,072,000 units, more than a night may hold"),
        ("de", "Dieses Spiel brächte den Stock auf 131.072.000 Einheiten, mehr als ein Abend halten kann"),
    ],
)
def test_the_edit_forms_preview_refuses_an_edit_past_the_ceiling_as_saving_it_does(client, db, players, lang, said):
    figure = next(word for word in said.split() if word[0].isdigit())  # the pot past the ceiling, as written
    """The edit form's preview settled the night again without the ceiling: it showed the pot at 131,072,000 units
    (13,107,200 EUR) where saving the same edit was refused."""
    night = bomb(db, players)
    record_hand(db=db, night_id=night.id, hand={"contract": "solo", "declarer": 2, "suit": "herz", "points": 70})
    before = unchanged(db, night.id)

    for action in ("preview", "save"):
        answer = submit(client, night.id, LOST, action=action, lang=lang, number=16)
        assert answer.status_code == 400, (action, answer.status_code)
        text = answer_text(answer)
        assert said in text, (action, text[:2000])
        assert text.count(figure) == 1  # said once, in the refusal: no figures of the night past it
    assert unchanged(db, night.id) == before
