"""The hand form's live preview (static/hand.js posts ``?fragment=1`` with ``action=preview``) answers as
saving does: once the night is closed (another phone closed it while this one entered a hand), the preview is
refused with the same reason as the save, a 409, and changes nothing; it showed the hand's preview as if the
night still took it, and only the save then said it was closed."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night
from tests.support import RUFEN_HIRSCH, fill, open_form, page_text, snapshot

CLOSED = {"en": "This night is closed", "de": "Dieser Abend ist abgeschlossen"}


def refusal(answer) -> str:
    """The reason in the preview's box (the fragment), or atop the form (the page: its summary's sentences)."""
    text = answer.get_data(as_text=True)
    box = re.search(r'<ul class="errors" id="preview-errors">(.*?)</ul>', text, re.S)
    if box:
        return page_text(box.group(1))
    summary = re.search(r'<div class="errors form-errors" id="error-summary".*?</h2>(.*?)</div>', text, re.S)
    assert summary, text
    return page_text(summary.group(1))


def state(db, night_id: int) -> tuple:
    db.rollback()
    return snapshot(db), db.get(Night, night_id).version


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("edit", [False, True], ids=["new", "edit"])
def test_the_preview_of_a_closed_night_is_refused_as_its_save_is(client, db, night, lang, edit):
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True})
    path = f"/nights/{night.id}/hands/1/edit" if edit else f"/nights/{night.id}/hands/new"
    data = fill(open_form(client, f"{path}?lang={lang}"), RUFEN_HIRSCH)  # the form opened while the night was open
    close_night(db=db, night_id=night.id)
    before = state(db, night.id)
    saved = client.post(f"{path}?lang={lang}", data={**data, "action": "save"})
    assert saved.status_code == 409
    said = refusal(saved)
    assert CLOSED[lang] in said
    for asked in (f"{path}?fragment=1&lang={lang}", f"{path}?lang={lang}"):  # the script's, and without it
        preview = client.post(asked, data={**data, "action": "preview"})
        assert preview.status_code == 409, asked
        assert refusal(preview) == said, asked
        assert not re.search(r"<h2>(Preview|Vorschau): ", preview.get_data(as_text=True)), asked  # no hand shown
    assert state(db, night.id) == before
