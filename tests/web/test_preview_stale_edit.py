"""The live preview of a stale *edit* form answers as its Save does. A phone edits hand 1 while another phone edits
it, records a hand or takes one back meanwhile: the Save is refused ("the night changed while you were editing"),
but the preview still showed the hand's figures as if the form were current. It is now refused with the save's
reason (409, no figures, nothing changed), with the script (its one line of JSON) and without (the page's summary),
at a club night and at a tournament's table (which says "table")."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import edit_hand, record_hand, undo_last
from scorekeeper.core.models import Night
from tests.support import DURCH, RUFEN_HIRSCH, fill, open_form, page_text, snapshot

CHANGED = {
    "en": "The night changed while you were editing: check the hand and edit it again",
    "de": "Der Abend hat sich beim Bearbeiten geändert: bitte das Spiel prüfen und neu ändern",
}
FIGURES = re.compile(r"<h2>(Preview|Vorschau): ")


def reason(answer) -> str:
    """What the preview's box (the JSON's line) or the page's summary says."""
    if answer.is_json:
        return answer.get_json()["error"]["message"]
    text = answer.get_data(as_text=True)
    box = re.search(r'<ul class="errors" id="preview-errors">(.*?)</ul>', text, re.S) or re.search(
        r'<div class="errors form-errors" id="error-summary".*?</h2>(.*?)</div>', text, re.S
    )
    assert box, text
    return page_text(box.group(1))


def _state(db, night_id: int) -> tuple:
    db.rollback()
    return snapshot(db), db.get(Night, night_id).version


MEANWHILE = {
    "edited": lambda db, night_id: edit_hand(db=db, night_id=night_id, number=1, hand=RUFEN_HIRSCH),
    "recorded": lambda db, night_id: record_hand(db=db, night_id=night_id, hand=DURCH),
    "undone": lambda db, night_id: undo_last(db=db, night_id=night_id),
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("fragment", [True, False], ids=["script", "page"])
@pytest.mark.parametrize("meanwhile", sorted(MEANWHILE))
def test_the_preview_of_an_edit_form_another_phone_made_stale_is_refused_as_its_save(
    client, db, night, lang, fragment, meanwhile
):
    for _ in range(2):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    path = f"/nights/{night.id}/hands/1/edit?lang={lang}"
    mine = fill(open_form(client, path), {**DURCH, "declarer": 2})
    assert FIGURES.search(client.post(path, data={**mine, "action": "preview"}).get_data(as_text=True))
    MEANWHILE[meanwhile](db, night.id)  # another phone
    before = _state(db, night.id)
    saved = client.post(path, data={**mine, "action": "save"})
    assert saved.status_code == 409
    assert reason(saved).startswith(CHANGED[lang]), reason(saved)
    preview = client.post(f"{path}&fragment=1" if fragment else path, data={**mine, "action": "preview"})
    assert preview.status_code == 409
    assert not FIGURES.search(preview.get_data(as_text=True))  # no figures of a hand the save would not keep
    assert reason(preview) == reason(saved)
    assert _state(db, night.id) == before


SAUSPIEL = {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "eichel", "points": 70}


def test_the_preview_of_a_stale_edit_form_at_a_tournament_table_says_table(client, db):
    from scorekeeper.core import tournaments as tm
    from tests.support_tournament import make_tournament

    t = make_tournament(db, 4, deals=4)
    tm.draw_round(db=db, tournament_id=t.id)
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    path = f"/nights/{night_id}/hands/1/edit?lang=en"
    mine = open_form(client, path)
    record_hand(db=db, night_id=night_id, hand={**SAUSPIEL, "declarer": 2})  # the table's phone
    preview = client.post(f"{path}&fragment=1", data={**mine, "action": "preview"})
    assert preview.status_code == 409
    assert reason(preview).startswith("The table changed while you were editing"), reason(preview)
