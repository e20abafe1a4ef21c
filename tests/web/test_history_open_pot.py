"""An open night's pot to be shared out at the close is nobody's yet (docs/using.md, "The club's history": "An
open night"): the history says what its table page and the API say, the close adds each one's share and a
reopening takes it back out.

``SPLIT`` (Schafkopf, the pot split at the close; Anna deals first at a table of four: Anna, Bernd, Clara,
Dieter; 10 cents a unit): a Rundpass (-2 each, the pot 8), Clara's Sauspiel with Dieter won (+2 each and 4 each
from the pot), a Rundpass (-2 each, the pot 8): Anna -6, Bernd -6, Clara +2, Dieter +2 units; Clara and Dieter
+0.20 EUR each, and at the close 0.20 EUR each of the pot's 0.80: +0.40 each.
"""

from __future__ import annotations

from scorekeeper.core import history_pages
from scorekeeper.core.history import verify_night
from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night, reopen_night
from tests.support import SAUSPIEL_CLARA, answer_text
from tests.support_history import night_in, standings

SPLIT = [{"contract": "rundpass"}, SAUSPIEL_CLARA, {"contract": "rundpass"}]


def test_an_open_nights_pot_to_share_out_is_nobodys_yet(client, db, players):
    night = night_in(db, players, SPLIT, "EUR", game="schafkopf", closed=False)
    clara = players[2]

    def figures():
        db.rollback()
        top = history_pages.nights_page(db=db, filters=history_pages.NightFilter()).items[0].leader
        record = history_pages.player_history(db=db, player_id=clara.id)
        return top, record.total.cents

    assert figures() == ((("Clara", "Dieter"), 20), 20)  # as its table page says: +0.20 EUR each
    totals = client.get(f"/api/v1/sessions/{night.id}").get_json()["totals"]
    assert [t["cents"] for t in totals] == [-60, -60, 20, 20]  # the table page's and the API's figures
    listed = answer_text(client.get("/nights/?lang=en"))
    assert "top: Clara, Dieter 0.20 EUR each" in listed, listed
    assert "0.20 EUR net" in answer_text(client.get(f"/players/{clara.id}?lang=en"))
    board = standings(client.get("/leaderboard?lang=en&game=schafkopf&season=2026").get_data(as_text=True))
    assert board["Clara"].startswith("0.20 EUR"), board
    assert verify_night(db=db, night_id=night.id) == []
    close_night(db=db, night_id=night.id)
    assert figures() == ((("Clara", "Dieter"), 40), 40)  # the settlement's: with the 0.20 EUR share of the pot
    assert verify_night(db=db, night_id=night.id) == []
    reopen_night(db=db, night_id=night.id, reason="a hand was missing")
    assert figures() == ((("Clara", "Dieter"), 20), 20)
    assert verify_night(db=db, night_id=night.id) == []
    assert db.get(Night, night.id).is_open
