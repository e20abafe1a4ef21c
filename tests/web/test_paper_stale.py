"""A paper form kept open while its round was drawn again: the table it was made for may be gone (fewer
tables after a withdrawal). The post is told so, in English and German, is led to the round's new tables
and saves nothing (it said "There is no such table", a 404); the API refuses such a post with 409."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import Night
from scorekeeper.core.nights import deleted_nights
from tests.support import answer_text, form_values, snapshot
from tests.support_tournament import make_tournament

GONE = {
    "en": "Round 1 was drawn again meanwhile: table 2 is gone. Nothing was saved. Here are the round's new tables.",
    "de": "Runde 1 wurde inzwischen neu ausgelost: Tisch 2 gibt es nicht mehr. Es wurde nichts gespeichert. "
    "Hier sind die neuen Tische der Runde.",
}


def _view(db, t) -> tm.TournamentView:
    db.rollback()
    return tm.read_tournament(db=db, tournament_id=t.id)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_paper_form_of_a_table_gone_after_the_round_was_drawn_again_leads_to_the_new_tables(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    paper = f"/tournaments/{t.id}/rounds/1/tables/2/paper"
    data = form_values(client.get(paper).get_data(as_text=True))
    assert client.post(f"/tournaments/{t.id}/entrants/8/withdraw", data={"confirm": "8"}).status_code == 302
    assert [len(table.entrants) for table in _view(db, t).rounds[0].tables] == [5]  # 7: one table of five, 2 byes
    before = snapshot(db)
    answer = client.post(f"{paper}?lang={lang}", data=data | {"p1": "20", "p2": "-20", "p3": "5", "p4": "-5"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/tournaments/{t.id}")  # its top, where the refusal is said
    shown = client.get(f"/tournaments/{t.id}?lang={lang}")
    assert shown.status_code == 200
    assert answer_text(shown).count(GONE[lang]) == 1  # once (the page's own box said it again)
    assert f"/tournaments/{t.id}/rounds/1/tables/1/paper" in shown.get_data(as_text=True)  # the new table's form
    assert snapshot(db) == before
    # a table never drawn: not found, as before; a link without its night: the round's tables now
    assert client.post(f"/tournaments/{t.id}/rounds/1/tables/9/paper", data={"p1": "1"}).status_code == 404
    assert client.get(paper).status_code == 303
    assert snapshot(db) == before


def test_a_round_drawn_again_gives_its_tables_new_nights_whose_ids_and_uids_were_never_used(client, db):
    """Why a redraw's deleted nights need no deletion record (docs/tournaments.md, "A round drawn again"):
    what a phone or a form of the old table holds (its night's id, uid, version) names no other night,
    ever: the new tables' nights have higher ids (never reused) and new uids; the old ones are simply gone,
    not listed as deleted nights (nothing to bring back: they had no hand)."""
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    old = [(table.night.id, table.night.uid) for table in _view(db, t).rounds[0].tables]
    tm.redraw_round(db=db, tournament_id=t.id)
    new = [(table.night.id, table.night.uid) for table in _view(db, t).rounds[0].tables]
    assert min(i for i, _ in new) > max(i for i, _ in old)
    assert not {u for _, u in new} & {u for _, u in old}
    assert all(db.get(Night, i) is None for i, _ in old)
    assert deleted_nights(db=db) == []
