"""The paper form says every refusal of the core at once, each in the core's words (core/tournaments/paper.py
``PLAYER_SOLOS``, ``TABLE_SOLOS``; the form said them in words of its own, and only the first): two players over
the limit both get their message at their solos lost, the whole table's above the form; the API answers the
first as it did, and every one in ``problems``."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from tests.support import answer_text, field_errors, snapshot
from tests.support_tournament import make_tournament

EACH = {
    "en": "A player's solos won and lost together may not exceed 8",
    "de": "Gewonnene und verlorene Soli eines Spielers dürfen zusammen 8 nicht überschreiten",
}
TABLE = {
    "en": "The solos of all players together may not exceed 8, one per deal: these are 18",
    "de": "Die Soli aller Spieler dürfen zusammen 8 nicht überschreiten, eines pro Spiel: hier sind es 18",
}


def test_the_core_refuses_every_field_of_a_paper_list_at_once_the_first_raised(db):
    t = make_tournament(db, n=8, deals=8)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(InvalidInput) as refused:
        tm.enter_paper(
            db=db, tournament_id=t.id, round_number=1, table=1, points=[1, 0, 0, 0], solos=[None, [5, 4], "x", [5, 4]]
        )
    assert [(p.field, p.template) for p in refused.value.problems] == [
        ("points", "a table's points must add up to zero: these add up to {total}"),
        ("solos.1", tm.PLAYER_SOLOS),
        ("solos.2", "solos won and lost are whole numbers from 0 to {n} deal"),
        ("solos.3", tm.PLAYER_SOLOS),
        ("solos", tm.TABLE_SOLOS),
    ]
    assert refused.value.problems[-1].params == {"n": 8, "total": 18}  # the pairs that are counts


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_players_over_the_limit_both_get_their_message_in_the_cores_words(client, db, lang):
    t = make_tournament(db, n=8, deals=8)
    client.post(f"/tournaments/{t.id}/draw")
    before = snapshot(db)
    data = {"p1": "5", "p2": "-5", "p3": "0", "p4": "0", "w2": "5", "l2": "4", "w4": "4", "l4": "5"}
    answer = client.post(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}", data=data)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert field_errors(page, "l2") == EACH[lang]
    assert field_errors(page, "l4") == EACH[lang]
    assert not field_errors(page, "l1") and not field_errors(page, "l3")
    assert TABLE[lang] in answer_text(answer)
    assert snapshot(db) == before


def test_the_api_answers_the_first_refusal_as_before_and_every_one_in_problems(client, db):
    t = make_tournament(db, n=8, deals=8)
    tm.draw_round(db=db, tournament_id=t.id)
    body = {"points": [1, -1, 0, 0], "solos": [None, [5, 4], None, [4, 5]]}
    answer = client.post(f"/api/v1/tournaments/{t.id}/rounds/1/tables/1/paper", json=body)
    assert answer.status_code == 400
    each = "a player's solos won and lost together may not exceed 8"
    assert answer.get_json()["error"] == {
        "field": "solos.1",
        "message": each,
        "problems": [
            {"field": "solos.1", "message": each},
            {"field": "solos.3", "message": each},
            {
                "field": "solos",
                "message": "the solos of all players together may not exceed 8, one per deal: these are 18",
            },
        ],
    }
