"""The hand form's words for the outbox (``?words=1``, static/outbox.js wordsForm): a closed night's form opens so,
to say a waiting hand in the page's language; without it the form leads back to the table, and a Save is refused as
ever."""

from __future__ import annotations

from scorekeeper.core.nights import close_night
from scorekeeper.core.table import load_table
from tests.support import DURCH, form_values


def test_a_closed_nights_form_gives_its_words_and_still_takes_no_hand(client, db, night):
    form = form_values(client.get(f"/nights/{night.id}/hands/new").get_data(as_text=True))
    close_night(db=db, night_id=night.id)
    assert client.get(f"/nights/{night.id}/hands/new").status_code == 302  # back to the table, as ever
    words = client.get(f"/nights/{night.id}/hands/new?words=1&lang=en")
    assert words.status_code == 200 and 'id="hand-form"' in words.get_data(as_text=True)
    data = {**form, "contract": "durch", "declarer": str(DURCH["declarer"]), "won": "1", "action": "save"}
    saved = client.post(f"/nights/{night.id}/hands/new?words=1", data=data)
    assert saved.status_code == 409
    assert load_table(db=db, night_id=night.id).hands == []
