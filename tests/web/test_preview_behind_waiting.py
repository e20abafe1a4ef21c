"""The hand form's preview of a hand behind hands waiting on the phone (the outbox's ``outbox_waiting``: their
fields, in order): the server settles them first, unsaved, and previews the deal after them, which the form names
(static/outbox.js); at a table of five, who sits out moves on. A waiting hand the night would not take gives no
preview (never one of another deal), and nothing is saved."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.table import load_table
from tests.support import open_form, page_text, start_night

DURCH_BERND = [["contract", "durch"], ["declarer", "2"], ["won", "1"]]
DURCH_CLARA = [["contract", "durch"], ["declarer", "3"], ["won", "1"]]


@pytest.fixture
def five(db, players):
    return start_night(db, players, seats=5)


def _preview(client, night: int, waiting) -> str:
    data = open_form(client, f"/nights/{night}/hands/new?lang=en")
    data.update(contract="durch", declarer="4", won="1", action="preview")
    data["outbox_waiting"] = waiting if isinstance(waiting, str) else json.dumps(waiting)
    answer = client.post(f"/nights/{night}/hands/new?fragment=1&lang=en", data=data)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return page_text(answer.get_data(as_text=True))


def _sits_out(said: str) -> str:
    """The player the preview's payments give nothing (at a table of five: who sits out)."""
    return next(name for name in ("Anna", "Bernd", "Clara", "Dieter", "Eva") if f"{name} +0 " in said + " ")


@pytest.mark.parametrize(
    ("waiting", "out"), [([], "Anna"), ([DURCH_BERND], "Bernd"), ([DURCH_BERND, DURCH_CLARA], "Clara")]
)
def test_the_preview_is_of_the_deal_after_the_hands_waiting(client, db, five, waiting, out):
    said = _preview(client, five.id, waiting)
    assert said.startswith("Preview"), said
    assert _sits_out(said) == out, said
    assert load_table(db=db, night_id=five.id).hands == []  # nothing saved


@pytest.mark.parametrize(
    "waiting",
    [
        [[["contract", "durch"]]],
        [DURCH_BERND, [["contract", "nonsense"]]],
        "not json",
        json.dumps({"a": 1}),
        [[1, 2]],
        "[" * 5000 + "]" * 5000,  # nested deeper than the JSON reader goes: a 500 before
    ],
)
def test_a_waiting_hand_the_night_would_not_take_gives_no_preview(client, db, five, waiting):
    said = _preview(client, five.id, waiting)
    assert said.startswith("No preview: a hand waiting on this phone before this one can't be settled"), said
    assert "Anna +0" not in said
    assert load_table(db=db, night_id=five.id).hands == []


@pytest.mark.parametrize(("after", "stale"), [(None, True), (1, False), (0, True)])
def test_the_hands_the_phone_sent_meanwhile_are_its_own_not_another_phones(client, db, five, after, stale):
    """The form made before any hand was stored; the first of two waiting hands landed since (here: recorded), the
    second still waits. Told that the waiting one was entered after 1 hand (``outbox_after``), the preview is of the
    deal after it; without (or told 0), the stored hand is another phone's: "recorded meanwhile", as before."""
    from scorekeeper.core.hands import record_hand

    data = open_form(client, f"/nights/{five.id}/hands/new?lang=en")  # expected_hands 0
    record_hand(db=db, night_id=five.id, hand={"contract": "durch", "declarer": 2, "won": True}, expected_hands=0)
    db.commit()
    data.update(contract="durch", declarer="4", won="1", action="preview", outbox_waiting=json.dumps([DURCH_CLARA]))
    if after is not None:
        data["outbox_after"] = str(after)
    answer = client.post(f"/nights/{five.id}/hands/new?fragment=1&lang=en", data=data)
    said = page_text(answer.get_data(as_text=True))
    if stale:
        assert answer.status_code == 409 and "recorded a hand meanwhile" in said, said
    else:
        assert answer.status_code == 200 and said.startswith("Preview"), said
        assert _sits_out(said) == "Clara", said  # hand 3: behind the stored one and the one waiting


@pytest.mark.parametrize(
    ("lang", "made"),
    [("en", "made when the night had 0 hands, now it has 2"), ("de", "stammt von 0 Spielen, jetzt sind es 2")],
)
def test_another_phones_hand_behind_the_phones_own_says_when_the_form_was_made(client, db, five, lang, made):
    """The form made at 0 hands; the first of two waiting hands landed (the phone's own), and another phone recorded a
    hand since: the preview is stale, as it should be, but said "this form was made when the night had 1 hand": it
    counted the phone's own landed hand as the form's. It says the count the form was made with."""
    from scorekeeper.core.hands import record_hand

    data = open_form(client, f"/nights/{five.id}/hands/new?lang={lang}")  # expected_hands 0
    for declarer, expected in ((2, 0), (1, 1)):  # the phone's own (landed), then another phone's
        record_hand(
            db=db,
            night_id=five.id,
            hand={"contract": "durch", "declarer": declarer, "won": True},
            expected_hands=expected,
        )
        db.commit()
    data.update(contract="durch", declarer="4", won="1", action="preview", outbox_waiting=json.dumps([DURCH_CLARA]))
    data["outbox_after"] = "1"
    answer = client.post(f"/nights/{five.id}/hands/new?fragment=1&lang={lang}", data=data)
    said = page_text(answer.get_data(as_text=True))
    assert answer.status_code == 409, said
    assert made in said, said
