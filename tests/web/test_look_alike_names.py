"""Issue 22.5 on the pages and in the API: a name that only looks like a member's is refused (roster,
guests), a guest comes back (picked from earlier guests, by name, or by id in the API), and the
roster's merge page never puts a member and a guest together."""

from __future__ import annotations

from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import Entrant, Player
from scorekeeper.core.players import create_player
from tests.support import form_values, snapshot

CYRILLIC_CILLI = "Сilli"  # a Cyrillic С


def _tournament(db, name="Turnier"):
    return tm.create_tournament(db=db, name=name, game="schafkopf", rules={"preset": "turnier"}, seed=name)


def test_the_roster_page_refuses_a_look_alike_in_german(client, db):
    create_player(db=db, name="Cilli")
    before = snapshot(db)
    answer = client.post("/players/", data={"name": CYRILLIC_CILLI})
    assert answer.status_code == 400
    assert f"es gibt schon einen Spieler namens {CYRILLIC_CILLI}" in answer.get_data(as_text=True)
    assert snapshot(db) == before


def test_the_api_refuses_a_look_alike_player(client, db):
    create_player(db=db, name="Anni")
    before = snapshot(db)
    answer = client.post("/api/v1/players", json={"name": "Аnni"})  # a Cyrillic А
    assert answer.status_code == 400
    assert answer.get_json()["error"]["field"] == "name"
    assert snapshot(db) == before


def test_a_look_alike_guest_is_refused_on_the_tournament_page_and_in_the_api(client, db):
    create_player(db=db, name="Cilli")
    t = _tournament(db)
    before = snapshot(db)
    page = client.post(f"/tournaments/{t.id}/entrants", data={"guest": CYRILLIC_CILLI})
    assert page.status_code == 400
    api = client.post(f"/api/v1/tournaments/{t.id}/entrants", json={"guest": CYRILLIC_CILLI})
    assert api.status_code == 400 and api.get_json()["error"]["field"] == "guest"
    assert snapshot(db) == before


def test_a_guest_of_an_earlier_tournament_is_offered_again_and_entered_as_the_same_guest(client, db):
    first = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    later = _tournament(db, "B")
    page = client.get(f"/tournaments/{later.id}").get_data(as_text=True)
    assert f'<option value="{first.player_id}">Max Gast (Gast)</option>' in page
    answer = client.post(f"/tournaments/{later.id}/entrants", data={"player": str(first.player_id)})
    assert answer.status_code == 302
    db.rollback()
    assert db.exec(select(Entrant.player_id).where(Entrant.tournament_id == later.id)).all() == [first.player_id]


def test_a_guest_of_an_earlier_tournament_is_entered_again_by_name_on_the_page(client, db):
    first = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    later = _tournament(db, "B")
    assert client.post(f"/tournaments/{later.id}/entrants", data={"guest": "max gast"}).status_code == 302
    db.rollback()
    assert db.exec(select(Entrant.player_id).where(Entrant.tournament_id == later.id)).all() == [first.player_id]


def test_the_api_enters_a_guest_again_by_the_id_it_gave_them(client, db):
    a, b = _tournament(db, "A"), _tournament(db, "B")
    guest = client.post(f"/api/v1/tournaments/{a.id}/entrants", json={"guest": "Max Gast"}).get_json()
    assert guest["guest"] is True and guest["player_id"] is not None
    again = client.post(f"/api/v1/tournaments/{b.id}/entrants", json={"player_id": guest["player_id"]})
    assert again.status_code == 201
    assert (again.get_json()["guest"], again.get_json()["player_id"]) == (True, guest["player_id"])


def test_a_member_is_never_merged_into_a_guest_through_the_guests_merge_page(client, db):
    member = create_player(db=db, name="Cilli")
    guest = tm.add_entrant(db=db, tournament_id=_tournament(db).id, guest="Max Gast")
    before = snapshot(db)
    form = form_values(client.get(f"/players/{guest.player_id}/merge").get_data(as_text=True))
    answer = client.post(f"/players/{guest.player_id}/merge", data={**form, "other": str(member.id), "confirm": "y"})
    assert answer.status_code == 400
    assert "bleiben getrennt" in answer.get_data(as_text=True)
    assert snapshot(db) == before
    assert db.get(Player, member.id) is not None
