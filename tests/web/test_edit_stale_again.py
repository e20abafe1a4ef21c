"""An edit refused as stale could never be saved from its page: the refused form kept the night's version it was made
at, so every Save was refused again. It comes back at the night's version now, with the hand as it is stored now (as a
new hand's stale form comes back for the next hand): checked and saved again, it saves."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import edit_hand, record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.table import load_table
from scorekeeper.web import refusals
from tests.support import DURCH, fill, form_values, open_form, page_text


def _checked(page: str, name: str) -> list[str]:
    return re.findall(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"[^>]*checked', page) + re.findall(
        rf'<input[^>]*checked[^>]*name="{name}"[^>]*value="([^"]*)"', page
    )


@pytest.mark.parametrize("meanwhile", ["recorded", "edited"])
def test_an_edit_refused_as_stale_comes_back_current_and_saves_once_checked(client, db, night, meanwhile):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    path = f"/nights/{night.id}/hands/1/edit?lang=en"
    mine = fill(open_form(client, path), {"declarer": 3})
    if meanwhile == "recorded":  # another phone
        record_hand(db=db, night_id=night.id, hand=DURCH)
    else:
        edit_hand(db=db, night_id=night.id, number=1, hand={**DURCH, "declarer": 2})
    refused = client.post(path, data={**mine, "action": "save"})
    assert refused.status_code == 409
    assert refused.headers[refusals.HEADER] == refusals.CHANGED
    page = refused.get_data(as_text=True)
    assert "The form shows the hand as it is stored now." in page_text(page)
    db.rollback()
    again = form_values(page)
    assert again["expected_hands"] == str(db.get(Night, night.id).version)  # the night's version now
    assert _checked(page, "declarer") == ["1" if meanwhile == "recorded" else "2"]  # the hand as stored now
    saved = client.post(path, data={**fill(again, {"declarer": 3}), "action": "save"})  # checked, saved again
    assert saved.status_code == 302, page_text(saved.get_data(as_text=True))
    db.rollback()
    assert load_table(db=db, night_id=night.id).hands[0].data["declarer"] == 3
