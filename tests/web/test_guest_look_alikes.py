"""A tournament's guest entered by name who looks like two guests of earlier tournaments (names an older
version stored: "ölfa" and "Ölfa") is not guessed: the first of them was taken. Typed exactly, that guest
comes back; typed as neither ("ÖLFA"), the entry is refused naming both with their ids, in English and
German, and nothing changes; the roster's list tells them apart by id."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.models import Entrant, Player
from tests.support import answer_text, field_errors, snapshot
from tests.support_tournament import make_tournament


@pytest.fixture
def alike(db) -> dict[str, int]:
    """Two guests of earlier tournaments whose names look alike, as an older version stored them."""
    db.add_all([Player(name="ölfa", guest=True), Player(name="Ölfa", guest=True)])
    db.commit()
    return {p.name: p.id for p in db.exec(select(Player).where(Player.guest))}


def _entered(db, t) -> list[int]:
    db.rollback()
    return [e.player_id for e in db.exec(select(Entrant).where(Entrant.tournament_id == t.id))]


@pytest.mark.parametrize("name", ["ölfa", "Ölfa"])
def test_a_guests_name_typed_exactly_enters_that_guest_again(client, db, alike, name):
    t = make_tournament(db, n=4)
    answer = client.post(f"/tournaments/{t.id}/entrants", data={"guest": name})
    assert answer.status_code == 302, answer_text(answer)
    assert _entered(db, t)[-1] == alike[name]


SAID = {
    "en": "several look like ÖLFA: ölfa (id {a}), Ölfa (id {b}); choose the one meant from the list",
    "de": "mehrere sehen aus wie ÖLFA: ölfa (id {a}), Ölfa (id {b}); wähle aus der Liste, wer gemeint ist",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_name_that_looks_like_two_guests_and_is_neither_is_refused_naming_them(client, db, alike, lang):
    t = make_tournament(db, n=4)
    before = snapshot(db)
    answer = client.post(f"/tournaments/{t.id}/entrants?lang={lang}", data={"guest": "ÖLFA"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert SAID[lang].format(a=alike["ölfa"], b=alike["Ölfa"]) in field_errors(page, "guest")
    assert snapshot(db) == before
    guest = {"en": "guest", "de": "Gast"}[lang]
    for name, player_id in alike.items():  # the list tells them apart
        assert f"{name} ({guest}, id {player_id})" in page
    with pytest.raises(InvalidInput, match="several look like ÖLFA: ölfa"):
        tm.add_entrant(db=db, tournament_id=t.id, guest="ÖLFA")
    db.rollback()
    answer = client.post(f"/api/v1/tournaments/{t.id}/entrants", json={"guest": "ÖLFA"})
    assert answer.status_code == 400 and answer.get_json()["error"]["field"] == "guest"
    assert snapshot(db) == before
    answer = client.post(f"/tournaments/{t.id}/entrants", data={"player": str(alike["Ölfa"])})
    assert answer.status_code == 302  # chosen from the list: that one
    assert _entered(db, t)[-1] == alike["Ölfa"]
