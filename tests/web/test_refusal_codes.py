"""A refusal the pages' scripts act on carries a code beside its sentence (the ``Scorekeeper-Refusal`` header,
web/refusals.py): the outbox told "other players play this hand" by finding the sentence in the page's language in
the answer, so an answer in another language than the page (a page kept offline, the language switched in another
tab) was taken for a hand that could be added as the next one; and a guest's table page whose night another phone
closed polled on without a word (a guest at another night too), or said "Join the table again", which cannot work.
The codes: ``changed`` (a stale form), ``others`` (with it: other people play the hand it would be now), ``closed``
(the night takes no hand now; a guest's night closed meanwhile), with it ``spent`` (a guest's club night closed by
another phone: the guest's code is spent, its hands can no longer be recorded there), ``new-code`` (a guest's night has
a new code)."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import edit_hand, record_hand
from scorekeeper.core.nights import close_night, reopen_night
from tests.support import DURCH, RUFEN_HIRSCH, fill, open_form, start_night
from tests.support_tournament import make_tournament

HEADER = "Scorekeeper-Refusal"
SAUSPIEL_BERND = {"contract": "sauspiel", "declarer": "1", "partner": "3", "suit": "eichel", "points": "70"}
SCRIPT = {"Sec-Fetch-Mode": "cors"}  # what a page's script sends (the polling, the outbox): not a page opened


def _join(app, code: str):
    phone = app.test_client()
    assert phone.post("/join", data={"code": code}).status_code == 302
    return phone


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("fragment", [False, True], ids=["save", "preview"])
def test_a_stale_form_whose_hand_other_people_would_play_says_so_by_its_code(client, db, players, lang, fragment):
    night = start_night(db, players, game="schafkopf", seats=5)  # Anna deals hand 1 and sits out; Bernd hand 2
    path = f"/nights/{night.id}/hands/new?lang={lang}"
    mine = fill(open_form(client, path), SAUSPIEL_BERND)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})  # another phone: hand 1
    asked = f"{path}&fragment=1" if fragment else path
    answer = client.post(asked, data={**mine, "action": "preview" if fragment else "save"})
    assert answer.status_code == 409
    assert answer.headers[HEADER] == "changed others"


def test_a_stale_form_the_same_people_play_is_only_changed(client, db, night):
    path = f"/nights/{night.id}/hands/new?lang=en"
    mine = fill(open_form(client, path), DURCH)  # Anna declares: the same at hand 2
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    answer = client.post(path, data={**mine, "action": "save"})
    assert answer.status_code == 409
    assert answer.headers[HEADER] == "changed"


def test_a_stale_edit_form_is_changed(client, db, night):
    record_hand(db=db, night_id=night.id, hand=DURCH)
    path = f"/nights/{night.id}/hands/1/edit?lang=en"
    mine = open_form(client, path)
    edit_hand(db=db, night_id=night.id, number=1, hand=RUFEN_HIRSCH)
    for action in ("save", "preview"):
        answer = client.post(path, data={**mine, "action": action})
        assert (answer.status_code, answer.headers.get(HEADER)) == (409, "changed"), action


def test_a_form_of_a_night_closed_meanwhile_is_closed_not_taken(client, db, night):
    """A hand sent between the outbox's fetching the form and its post, the night closed in between: it was marked
    "another phone recorded a hand with this number" (any 409), and offered to be added as the next hand."""
    path = f"/nights/{night.id}/hands/new?lang=en"
    mine = fill(open_form(client, path), DURCH)
    close_night(db=db, night_id=night.id)
    for action in ("save", "preview"):
        answer = client.post(path, data={**mine, "action": action})
        assert (answer.status_code, answer.headers.get(HEADER)) == (409, "closed"), action


def test_a_hand_saved_or_refused_for_itself_carries_no_code(client, db, night):
    path = f"/nights/{night.id}/hands/new?lang=en"
    bad = client.post(path, data={**open_form(client, path), "contract": "durch", "action": "save"})  # no declarer
    assert bad.status_code == 400 and HEADER not in bad.headers
    saved = client.post(path, data={**fill(open_form(client, path), DURCH), "action": "save"})
    assert saved.status_code == 302 and HEADER not in saved.headers


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guests_night_closed_meanwhile_answers_its_polling_closed(app, db, players, night, lang):
    """Also for a guest still at another night (its polling got a 409 it did not understand, and went on)."""
    other = start_night(db, players)
    alone, at_two = _join(app, night.join_code), _join(app, night.join_code)
    assert at_two.post("/join", data={"code": other.join_code}).status_code == 302
    close_night(db=db, night_id=night.id)  # a member's phone
    for phone in (alone, at_two):
        for headers in (SCRIPT, {}):  # the table's polling, and the table page opened
            answer = phone.get(f"/nights/{night.id}/live?lang={lang}", headers=headers)
            assert (answer.status_code, answer.headers.get(HEADER)) == (409, "closed spent")
        form = phone.get(f"/nights/{night.id}/hands/new", headers=SCRIPT)  # the outbox's fresh form
        assert (form.status_code, form.headers.get(HEADER)) == (409, "closed spent")
    assert at_two.get(f"/nights/{other.id}/live", headers=SCRIPT).status_code == 200


def test_a_guests_night_reopened_since_answers_a_script_new_code_and_keeps_the_reason_for_the_page(app, db, night):
    """The polling followed the redirect to the join page, which took the flashed reason with it: the join page the
    guest then opened said nothing of the new code."""
    phone = _join(app, night.join_code)
    close_night(db=db, night_id=night.id)
    reopen_night(db=db, night_id=night.id, reason="Versehen")
    for path in (f"/nights/{night.id}/live", f"/nights/{night.id}/hands/new"):
        answer = phone.get(f"{path}?lang=en", headers=SCRIPT)
        assert (answer.status_code, answer.headers.get(HEADER)) == (409, "new-code"), path
    page = phone.get(f"/nights/{night.id}?lang=en")  # the guest opens the table: to joining, saying why
    # (the night named: the join page lists the hands the phone keeps for it, sent once it is joined again)
    assert (page.status_code, page.headers["Location"]) == (302, f"/join?night={night.id}")
    joining = phone.get(f"/join?night={night.id}&lang=en").get_data(as_text=True)
    assert "This night was reopened or got a new code since you joined it" in joining
    assert 'id="night-ended"' in joining and "Join the night again with its new code and they are sent" in joining
    assert "/static/outbox-store." in joining  # the hands are read from the phone's store
    assert 'id="night-ended"' not in phone.get(f"/join?night={night.id + 1}&lang=en").get_data(as_text=True)


def test_a_tournament_tables_guest_is_never_told_of_a_new_code(app, db):
    """The "new code" sentence names a night: a table's guest never meets it. Its code is printed on its card and
    kept when the organiser closes the table (its phone reads it on), when it is reopened and when a phone leaves."""
    t = make_tournament(db, 4, deals=4)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    phone = _join(app, table.join_code)
    db.rollback()
    record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=table.id)  # the organiser
    live = phone.get(f"/nights/{table.id}/live", headers=SCRIPT)
    assert (live.status_code, live.headers.get(HEADER)) == (200, None)
    reopen_night(db=db, night_id=table.id, reason="Versehen")
    leaving = _join(app, table.join_code)
    assert leaving.post("/logout").status_code == 302  # another phone leaves the table
    for answer in (phone.get(f"/nights/{table.id}/live", headers=SCRIPT), phone.get(f"/nights/{table.id}")):
        assert (answer.status_code, answer.headers.get(HEADER)) == (200, None)
