"""A phone's hand in flight while the organiser draws its round again (its table's night deleted under the
request): the phone is told its round was drawn again and led to joining its new table, as on its next page;
never "There is no such night." with a way back to the table that is gone, never a 500."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.web.hands import routes
from tests.support import SAUSPIEL_CLARA, answer_text
from tests.support_tournament import make_tournament
from tests.web.test_guest_table_redrawn import JOIN_TABLE, REDRAWN, _first_table, _way_out


@pytest.mark.parametrize("where", ["load_table", "record_hand"])  # the table read (SQLite waits there), the save
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hand_sent_as_its_round_is_drawn_again_is_told_so(app, client, db, monkeypatch, where, lang):
    engine = app.extensions["sk_engine"]
    if where == "record_hand" and engine.dialect.name == "sqlite":
        pytest.skip("SQLite's write session holds the database from its first read: the redraw comes before it")
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    old, code = _first_table(db, t)
    phone = app.test_client()
    assert phone.post("/join?table=1", data={"code": code}).status_code == 302
    real = getattr(routes, where)

    def drawn_again_meanwhile(**kwargs):
        with database.session(engine, write=True) as other:
            tm.redraw_round(db=other, tournament_id=t.id)
        return real(**kwargs)

    monkeypatch.setattr(routes, where, drawn_again_meanwhile)
    hand = {**SAUSPIEL_CLARA, "declarer": 1, "partner": 2, "action": "save"}
    answer = phone.post(f"/nights/{old}/hands/new?lang={lang}", data=hand)
    assert answer.status_code == 404
    assert REDRAWN[lang] in answer_text(answer)
    assert _way_out(answer.get_data(as_text=True)) == ("/join?table=1", JOIN_TABLE[lang])
