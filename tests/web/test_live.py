"""The other phones' polling (issue 15, live): the live part carries an ETag; a poll with the ETag of
a night that has not changed is answered 304 with no body; any change answers the new live part."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from scorekeeper.core import backup
from scorekeeper.core.hands import record_hand, undo_last
from scorekeeper.core.models import HandRecord, Night
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


def test_a_phone_polling_across_a_restore_is_not_told_an_other_hand_is_the_one_it_has(app, client, db, night, tmp_path):
    """A backup is taken after hand 1; hand 2 (Anna's Durch) is recorded and a phone's table page shows it.
    The club restores the backup while the app runs (docs/backup.md), and the table records the real hand 2
    (Clara's Durch). The night was back at the version the phone had seen: its poll was answered 304 and it
    kept showing Anna's hand that is gone. A restore moves every version past any served before."""
    url = app.config["DATABASE_URL"]
    if not url.startswith("sqlite"):
        pytest.skip("backup and restore are SQLite's")
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    saved = tmp_path / "saved.db"
    backup.backup(url=url, target=saved)
    record_hand(db=db, night_id=night.id, hand=DURCH)  # Anna's Durch
    phone = poll(client, night)
    assert phone.status_code == 200
    seen = db.get(Night, night.id).version
    db.rollback()
    db.close()
    backup.restore(url=url, source=saved, backups=tmp_path / "kept")
    record_hand(db=db, night_id=night.id, hand=dict(DURCH, declarer=3))  # the real hand 2: Clara's
    db.rollback()
    db.expire_all()
    hands = db.exec(select(HandRecord).where(HandRecord.night_id == night.id).order_by(HandRecord.number)).all()
    assert [h.data.get("declarer") for h in hands] == [None, 3]  # restored, then Clara's hand
    assert db.get(Night, night.id).version > seen  # the API's and the hand form's version too
    answer = poll(client, night, phone.headers["ETag"])
    assert answer.status_code == 200, "the phone is told nothing changed and keeps the hand that is gone"


def test_a_phone_on_the_night_that_took_a_pot_sees_its_correction_without_reloading(client, db, players):
    """The second night took the first's 8 units; its phone polls. The first is reopened and a Rundpass added
    (its pot 16 units), closed again, then the Rundpass taken back: each time the second night's poll gets
    the live part anew, with the correction named and then gone (before: 304, the note only on reload, as the
    tag went by the second night's own version). The second night's own version stays: a form or an API
    client holding it may still edit or undo its hands."""
    from scorekeeper.core.nights import close_night, reopen_night
    from tests.support import start_night

    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf")
    assert second.pot_start == 8
    version = second.version
    said = "corrected since"
    seen = poll(client, second, **{"Accept-Language": "en"})
    assert seen.status_code == 200 and said not in seen.get_data(as_text=True)
    tag = seen.headers["ETag"]
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    for change, named in (
        (lambda: record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"}), True),
        (lambda: close_night(db=db, night_id=first.id), True),
        (lambda: reopen_night(db=db, night_id=first.id, reason="it was right"), True),
        (lambda: undo_last(db=db, night_id=first.id), False),
    ):
        change()
        answer = poll(client, second, tag, **{"Accept-Language": "en"})
        assert answer.status_code == 200
        assert (said in answer.get_data(as_text=True)) is named
        tag = answer.headers["ETag"]
        assert poll(client, second, tag, **{"Accept-Language": "en"}).status_code == 304
    db.expire_all()
    assert db.get(Night, second.id).version == version


def test_a_phone_on_the_night_that_gave_a_pot_sees_its_note_end_when_the_taking_night_is_deleted(client, db, players):
    """The first night, corrected after the second took its pot, names the second in its note; the second is
    deleted (an admin's mistake undone): the first night's poll gets the live part anew, without the note (it
    answered 304 and the phone kept a note linking to a night that is no more)."""
    from scorekeeper.core.exchange.night_file import night_json
    from scorekeeper.core.nights import close_night, delete_night, reopen_night
    from tests.support import start_night

    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf")
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    said = "now carries"
    seen = poll(client, first, **{"Accept-Language": "en"})
    assert seen.status_code == 200 and said in seen.get_data(as_text=True)
    delete_night(db=db, night_id=second.id, reason="started by mistake", export=night_json(db=db, night_id=second.id))
    answer = poll(client, first, seen.headers["ETag"], **{"Accept-Language": "en"})
    assert answer.status_code == 200 and said not in answer.get_data(as_text=True)
