"""An edit form of a hand another phone took back meanwhile: saved, it ended on a bare 404 "There is no such hand"
with a way back to the nights list. It is a 409 saying the hand was taken back, with the code of a form made before
the night changed (``changed``, web/refusals.py), and leads back to the night's table. A hand that never was stays a
404."""

from __future__ import annotations

import pytest

from scorekeeper.core.hands import record_hand, undo_last
from scorekeeper.web import refusals
from tests.support import DURCH, fill, open_form, page_text

SAYS = {
    "en": "Hand 2 was taken back meanwhile: there is nothing left to change.",
    "de": "Spiel 2 wurde inzwischen zurückgenommen: Es gibt nichts mehr zu ändern.",
}
BACK = {"en": "Back to the table", "de": "Zurück zum Tisch"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_saving_an_edit_of_a_hand_taken_back_meanwhile_says_so_and_leads_back_to_the_table(client, db, night, lang):
    for _ in range(2):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    path = f"/nights/{night.id}/hands/2/edit?lang={lang}"
    mine = fill(open_form(client, path), {**DURCH, "declarer": 2})
    undo_last(db=db, night_id=night.id)  # another phone takes hand 2 back
    answer = client.post(path, data={**mine, "action": "save"})
    assert answer.status_code == 409
    assert answer.headers[refusals.HEADER] == refusals.CHANGED
    text = page_text(answer.get_data(as_text=True))
    assert SAYS[lang] in text
    assert f'href="/nights/{night.id}"' in answer.get_data(as_text=True)
    assert BACK[lang] in text
    again = client.get(path)  # the form asked again: the same
    assert again.status_code == 409
    assert SAYS[lang] in page_text(again.get_data(as_text=True))


def test_the_preview_of_an_edit_of_a_hand_taken_back_says_so_in_its_line(client, db, night):
    for _ in range(2):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    path = f"/nights/{night.id}/hands/2/edit?lang=en"
    mine = fill(open_form(client, path), {**DURCH, "declarer": 2})
    undo_last(db=db, night_id=night.id)
    answer = client.post(path + "&fragment=1", data={**mine, "action": "preview"})
    assert answer.status_code == 409
    assert answer.get_json()["error"]["message"] == SAYS["en"]


def test_a_hand_that_never_was_is_still_not_found(client, db, night):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    assert client.get(f"/nights/{night.id}/hands/5/edit").status_code == 404
