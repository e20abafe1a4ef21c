"""A guest and the roster's forms: "Make a member" tapped twice, a member renamed to a guest's name."""

from __future__ import annotations

from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from tests.support import answer_text
from tests.support_tournament import make_tournament


def test_making_a_member_twice_says_so_on_their_page(client, db):
    t = make_tournament(db, n=4)
    sepp = tm.add_entrant(db=db, tournament_id=t.id, guest="Sepp").player_id
    assert client.post(f"/players/{sepp}/member", data={"confirm": "y"}, follow_redirects=True).status_code == 200
    again = client.post(f"/players/{sepp}/member", data={"confirm": "y"}, follow_redirects=True)
    assert again.status_code == 200  # it was a 400 error page
    assert again.request.path == f"/players/{sepp}"
    assert "Sepp ist schon Mitglied des Vereins" in answer_text(again)  # the client's German


def test_renaming_a_member_to_a_guests_name_links_the_guests_page(client, db):
    """As adding a member under a guest's name does: the refusal and the way to the guest's page."""
    t = make_tournament(db, n=4)
    sepp = tm.add_entrant(db=db, tournament_id=t.id, guest="Sepp").player_id
    irmi = create_player(db=db, name="Irmi").id
    answer = client.post(f"/players/{irmi}/rename", data={"name": "Sepp"})
    assert answer.status_code == 400
    assert "Sepp ist der Name eines Gastes eines Turniers" in answer_text(answer)
    assert f'href="/players/{sepp}"' in answer.get_data(as_text=True)
