"""The paper form's solos limits are the core's rule alone (core/tournaments/paper.py ``enter_paper``): the form
passes the figures to the core, and the core's refusal names the player it concerns (``solos.i``, by table
position), so the page says it at that player's field, in the page's words, in English and German."""

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


def _post(client, t, solos: dict[str, str], lang: str = "en"):
    data = {"p1": "5", "p2": "-5", "p3": "0", "p4": "0"} | solos
    return client.post(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}", data=data)


def test_the_cores_refusal_of_a_players_solos_names_that_player(db):
    t = make_tournament(db, n=8, deals=8)
    tm.draw_round(db=db, tournament_id=t.id)
    for position in range(4):
        solos = [None] * 4
        solos[position] = [5, 4]
        with pytest.raises(InvalidInput, match="a player's solos won and lost together may not exceed 8") as refused:
            tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[0] * 4, solos=solos)
        db.rollback()
        assert refused.value.field == f"solos.{position}"
    solos = [[0, 0], [0, 0], [9, 0], None]  # a count beyond the deals: that player too
    with pytest.raises(InvalidInput, match="whole numbers from 0 to 8 deals") as refused:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[0] * 4, solos=solos)
    db.rollback()
    assert refused.value.field == "solos.2"
    with pytest.raises(InvalidInput, match="the solos of all players together may not exceed 8") as refused:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[0] * 4, solos=[[3, 0]] * 4)
    assert refused.value.field == "solos"  # the whole table's: no one player to blame


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_paper_form_says_the_cores_refusal_at_the_players_field(client, db, lang, monkeypatch):
    t = make_tournament(db, n=8, deals=8)
    client.post(f"/tournaments/{t.id}/draw")
    asked = []
    enter = tm.enter_paper

    def spy(**kwargs):
        asked.append(kwargs["solos"])
        return enter(**kwargs)

    monkeypatch.setattr(tm, "enter_paper", spy)
    before = snapshot(db)
    answer = _post(client, t, {"w3": "5", "l3": "4"}, lang)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert field_errors(page, "l3") == EACH[lang]
    assert not field_errors(page, "l1") and not field_errors(page, "w3")
    assert asked == [[None, None, [5, 4], None]]  # the core decided, not the form
    answer = _post(client, t, {f"w{i}": "3" for i in range(1, 5)}, lang)
    assert answer.status_code == 400
    table = {
        "en": "The solos of all players together may not exceed 8, one per deal: these are 12",
        "de": "Die Soli aller Spieler dürfen zusammen 8 nicht überschreiten, eines pro Spiel: hier sind es 12",
    }
    assert table[lang] in answer_text(answer)
    assert len(asked) == 2
    assert snapshot(db) == before
