"""The hand form's live preview of a stale form answers as its save does. At a table of five, a form made for hand 1
(Anna deals and sits out) was previewed after another phone recorded hand 1 as hand 2, where Bernd sits out: the
preview showed the money of other people (Anna winning), while the save was refused. It is now refused with the
save's reason (409, no figures), for a hand recorded and for one taken back meanwhile, with and without the script;
without the script the page's new form starts empty where other people play."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand, undo_last
from tests.support import fill, form_values, open_form, page_text, snapshot, start_night

RECORDED = {
    "en": "Another phone recorded a hand meanwhile: this form was made when the night had 0 hands, now it has 1.",
    "de": "Ein anderes Handy hat inzwischen ein Spiel eingetragen",
}
TAKEN_BACK = {
    "en": "Another phone took a hand back meanwhile: this form was made when the night had 1 hand, now it has 0.",
    "de": "Ein anderes Handy hat inzwischen ein Spiel zurückgenommen",
}
OTHERS = {
    "en": "Other players play this hand, or another one declares: enter it again.",
    "de": "Dieses Spiel spielen andere Spieler, oder ein anderer sagt an: trag es neu ein.",
}
SAUSPIEL_BERND = {"contract": "sauspiel", "declarer": "1", "partner": "3", "suit": "eichel", "points": "70"}
FIGURES = re.compile(r"<h2>(Preview|Vorschau): ")


def reason(answer) -> str:
    """What the preview's box (the fragment: its list, or the JSON's line) or the page's summary says."""
    text = answer.get_data(as_text=True)
    if answer.is_json:
        return answer.get_json()["error"]["message"]
    box = re.search(r'<ul class="errors" id="preview-errors">(.*?)</ul>', text, re.S) or re.search(
        r'<div class="errors form-errors" id="error-summary".*?</h2>(.*?)</div>', text, re.S
    )
    assert box, text
    return page_text(box.group(1))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("fragment", [True, False], ids=["script", "page"])
def test_the_preview_of_a_form_made_before_another_phone_recorded_the_hand_is_refused(
    client, db, players, lang, fragment
):
    night = start_night(db, players, game="schafkopf", seats=5)
    path = f"/nights/{night.id}/hands/new?lang={lang}"
    mine = fill(open_form(client, path), SAUSPIEL_BERND)
    assert FIGURES.search(client.post(path, data={**mine, "action": "preview"}).get_data(as_text=True))
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})  # another phone: hand 1
    db.rollback()
    before = snapshot(db)
    saved = client.post(path, data={**mine, "action": "save"})
    assert saved.status_code == 409
    asked = f"{path}&fragment=1" if fragment else path
    preview = client.post(asked, data={**mine, "points": "71", "action": "preview"})
    assert preview.status_code == 409
    body = preview.get_data(as_text=True)
    assert not FIGURES.search(body), body  # no money of hand 2 (Bernd sits out) for the people of hand 1
    said = reason(preview)
    assert said.startswith(RECORDED[lang]), said
    assert OTHERS[lang] in said, said
    if not fragment:  # the page's new form: hand 2's, empty where other people play, as the save's
        again = form_values(body)
        assert not again.get("declarer"), again
        assert again["expected_hands"] == "1"
        assert reason(saved) == said
    db.rollback()
    assert snapshot(db) == before


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_preview_of_a_form_made_before_another_phone_took_a_hand_back_is_refused(client, db, players, lang):
    night = start_night(db, players, game="schafkopf", seats=5)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    path = f"/nights/{night.id}/hands/new?lang={lang}"
    mine = fill(open_form(client, path), {**SAUSPIEL_BERND, "declarer": "2"})
    undo_last(db=db, night_id=night.id)  # another phone
    preview = client.post(f"{path}&fragment=1", data={**mine, "action": "preview"})
    assert preview.status_code == 409
    assert not FIGURES.search(preview.get_data(as_text=True))
    assert reason(preview).startswith(TAKEN_BACK[lang]), reason(preview)
