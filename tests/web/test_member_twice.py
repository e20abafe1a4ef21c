"""Tapping "Make a member" twice: the second lands on the player's page saying they are a member already."""

from __future__ import annotations

from scorekeeper.core import tournaments as tm
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
