"""The other phones' polling (issue 15, live): the live part carries an ETag; a poll with the ETag of
a night that has not changed is answered 304 with no body; any change answers the new live part."""

from __future__ import annotations

import re

from scorekeeper.core.hands import record_hand, undo_last
from tests.support import DURCH, RUFEN_HIRSCH


def poll(client, night, tag=None, **headers):
    if tag:
        headers["If-None-Match"] = tag
    return client.get(f"/nights/{night.id}/live", headers=headers)


def test_a_poll_of_an_unchanged_night_is_answered_304_with_no_body(client, night, db):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    first = poll(client, night)
    assert first.status_code == 200 and 'id="hand-1"' in first.get_data(as_text=True)
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = poll(client, night, tag)
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == tag


def test_a_new_an_edited_or_an_undone_hand_changes_the_answer(client, night, db):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    tag = poll(client, night).headers["ETag"]
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    changed = poll(client, night, tag)
    assert changed.status_code == 200 and 'id="hand-2"' in changed.get_data(as_text=True)
    assert changed.headers["ETag"] != tag
    undo_last(db=db, night_id=night.id)
    undone = poll(client, night, changed.headers["ETag"])
    assert undone.status_code == 200 and 'id="hand-2"' not in undone.get_data(as_text=True)


def test_the_tag_differs_by_language_and_by_what_the_reader_may_do(client, as_role, night, db):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    de = poll(client, night, **{"Accept-Language": "de"}).headers["ETag"]
    en = poll(client, night, **{"Accept-Language": "en"}).headers["ETag"]
    assert de != en
    viewer = as_role("viewer")  # may read, not change: no Edit or Undo links in its live part
    seen = poll(viewer, night, **{"Accept-Language": "de"})
    assert seen.headers["ETag"] != de and "/undo" not in seen.get_data(as_text=True)
    assert poll(viewer, night, de, **{"Accept-Language": "de"}).status_code == 200  # not the scorer's part


def test_the_table_page_hands_its_script_the_tag_of_the_live_part_it_shows(client, night, db):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    shown = re.search(r'data-etag="([^"]*)"', page).group(1).replace("&#34;", '"')
    assert poll(client, night, shown).status_code == 304


def test_a_poll_with_a_bad_or_foreign_tag_gets_the_live_part(client, night, db):
    for bad in ('W/"x"', "*x", '"' + "9" * 300 + '"', "\x7f", 'W/"1-1-de-wn", garbage'):
        answer = poll(client, night, bad)
        assert answer.status_code == 200, bad


def test_a_poll_of_a_night_that_is_not_there_is_a_404(client):
    assert client.get("/nights/987654/live", headers={"If-None-Match": 'W/"987654-0-de-wn"'}).status_code == 404
