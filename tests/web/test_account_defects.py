"""Defects of the accounts found by an attack: demoting one of two admins, a disabled account's guest rights,
saves that change nothing, a stale start-night form's seats."""

from __future__ import annotations

import re
import threading
import time

import pytest
from sqlmodel import select

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core.errors import Conflict
from scorekeeper.core.models import Night, User
from scorekeeper.core.players import merge_players, retire_player
from tests.support import PASSWORD, answer_text, field_errors, form_values, make_user, signed_in, start_night


def errors_of(answer) -> list[str]:
    html = answer.get_data(as_text=True)
    return [
        re.sub(r"<[^>]+>", "", e).strip()
        for e in re.findall(r'class="errors[^"]*"[^>]*>(.*?)</(?:ul|div)>', html, re.S)
    ]


def state(db, user_id: int) -> tuple[str, bool]:
    db.rollback()
    user = db.get(User, user_id)
    db.refresh(user)
    return user.role, user.active


# --- the last admin, and the one before it ---------------------------------------------------------


@pytest.mark.parametrize("change", [{"role": "admin", "active": "0"}, {"role": "scorer", "active": "1"}])
def test_one_of_two_admins_is_disabled_or_demoted(app, client, db, admin, change):
    other = make_user(app, "Admin2", "admin")
    answer = client.post(f"/users/{other.id}/role", data=change)
    assert answer.status_code == 302, errors_of(answer)
    assert state(db, other.id) == (change["role"], change["active"] == "1")
    # now Admin is the only one: refused, in the club's words
    answer = client.post(f"/users/{admin.id}/role", data=change)
    assert answer.status_code == 400
    assert errors_of(answer) == ["Admin ist der einzige Admin: mach zuerst ein anderes Konto zum Admin"]
    assert state(db, admin.id) == ("admin", True)


def test_of_three_admins_two_are_demoted_and_the_last_stays(app, client, db, admin):
    second, third = make_user(app, "Admin2", "admin"), make_user(app, "Admin3", "admin")
    assert client.post(f"/users/{second.id}/role", data={"role": "scorer", "active": "1"}).status_code == 302
    assert client.post(f"/users/{third.id}/role", data={"role": "admin", "active": "0"}).status_code == 302
    assert state(db, second.id) == ("scorer", True)
    assert state(db, third.id) == ("admin", False)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = client.post(f"/users/{admin.id}/role", data={"role": "viewer", "active": "1"})
    assert answer.status_code == 400
    assert errors_of(answer) == ["Admin is the only admin: make another account admin first"]
    assert state(db, admin.id) == ("admin", True)


def test_the_core_counts_the_other_admins_before_the_change(app, db, admin):
    other = make_user(app, "Admin2", "admin")
    accounts.update_user(db=db, user_id=other.id, active=False)
    assert state(db, other.id) == ("admin", False)
    with pytest.raises(Conflict):
        accounts.update_user(db=db, user_id=admin.id, role="scorer")
    assert state(db, admin.id) == ("admin", True)
    # a disabled admin enabled again, then the first one demoted
    accounts.update_user(db=db, user_id=other.id, active=True)
    accounts.update_user(db=db, user_id=admin.id, role="scorer")
    assert state(db, admin.id) == ("scorer", True)
    with pytest.raises(Conflict):
        accounts.update_user(db=db, user_id=other.id, role="viewer", active=False)
    assert state(db, other.id) == ("admin", True)


def test_two_admins_demoting_each_other_at_once_leave_one(app, db, admin):
    """Counted before the change, under the lock: the second to come counts the admins as the first left them."""
    other = make_user(app, "Admin2", "admin")
    engine = app.extensions["sk_engine"]
    first, second = database.session(engine, write=True), database.session(engine, write=True)
    outcome: list[object] = []

    def demote_the_first() -> None:
        try:
            accounts.update_user(db=second, user_id=admin.id, role="scorer")
            outcome.append("done")
        except Conflict as exc:
            outcome.append(exc)

    thread = threading.Thread(target=demote_the_first)
    try:
        accounts._active_admins(first, lock=True)  # the first holds the lock (SQLite: the write lock)
        thread.start()
        time.sleep(0.3)  # the second waits for the lock
        assert outcome == []
        accounts.update_user(db=first, user_id=other.id, active=False)
    finally:
        first.rollback()  # (after a failure: the lock let go, the second goes on)
        thread.join(10)
        first.close()
        second.close()
    assert len(outcome) == 1 and isinstance(outcome[0], Conflict)
    assert state(db, admin.id) == ("admin", True)
    assert state(db, other.id) == ("admin", False)


# --- a session the club ended: the guest rights joined in it end with it -----------------------------------

HAND = {"contract": "treiben", "declarer": "1", "points": "70"}


@pytest.fixture
def bobs_phone(app, night):
    """A phone at the table: it joined the night with its code, then Bob (a viewer) signed in on it."""
    make_user(app, "Bob", "viewer")
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    assert phone.post("/login", data={"name": "Bob", "password": PASSWORD}).status_code == 302
    assert phone.get(f"/nights/{night.id}/hands/new").status_code == 200  # a viewer, and the night's guest
    return phone


def bob_id(db) -> int:
    return accounts.find_user(db=db, name="Bob").id


def test_disabling_an_account_ends_the_guest_rights_of_its_phone(app, client, db, night, bobs_phone):
    assert client.post(f"/users/{bob_id(db)}/role", data={"role": "viewer", "active": "0"}).status_code == 302
    for page in (f"/nights/{night.id}", f"/nights/{night.id}/hands/new"):
        answer = bobs_phone.get(page)
        assert answer.status_code == 302 and answer.headers["Location"].startswith("/login")
    assert bobs_phone.post(f"/nights/{night.id}/hands/new", data=HAND).status_code == 401
    assert bobs_phone.get(f"/nights/{night.id}/live").status_code != 200


def test_a_session_ended_otherwise_ends_its_guest_rights_too(app, client, db, night, bobs_phone):
    """A new password or role ends the account's sessions, and what was joined in them (the phone may have been
    lost with the password)."""
    assert client.post(f"/users/{bob_id(db)}/password", data={"password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert bobs_phone.get(f"/nights/{night.id}").status_code == 302


def test_the_ended_phone_signs_out_without_changing_the_code_of_the_other_guests(app, client, db, night, bobs_phone):
    other = app.test_client()
    assert other.post("/join", data={"code": night.join_code}).status_code == 302
    assert client.post(f"/users/{bob_id(db)}/role", data={"role": "viewer", "active": "0"}).status_code == 302
    answer = bobs_phone.post("/logout")
    assert answer.headers["Location"] == "/login"  # Bob's, signed out: not a guest leaving the table
    assert other.get(f"/nights/{night.id}").status_code == 200
    db.rollback()
    db.expire_all()
    assert db.get(type(night), night.id).join_code == night.join_code


def test_the_ended_phone_joins_again_with_the_code_or_signs_in_afresh(app, client, db, night, players, bobs_phone):
    other_night = start_night(db, players)
    assert bobs_phone.post("/join", data={"code": other_night.join_code}).status_code == 302  # joined before it ended
    assert client.post(f"/users/{bob_id(db)}/role", data={"role": "viewer", "active": "0"}).status_code == 302
    # a new join starts afresh: this night, not the ones joined in the ended session
    assert bobs_phone.post("/join", data={"code": night.join_code}).status_code == 302
    assert bobs_phone.get(f"/nights/{night.id}/hands/new").status_code == 200
    assert bobs_phone.get(f"/nights/{other_night.id}").status_code == 302
    # signing in on a phone whose session ended carries none of its guest rights over
    phone = app.test_client()
    make_user(app, "Vera", "viewer")
    assert phone.post("/join", data={"code": other_night.join_code}).status_code == 302
    assert phone.post("/login", data={"name": "Vera", "password": PASSWORD}).status_code == 302
    db.rollback()
    accounts.end_sessions(db=db, user_id=accounts.find_user(db=db, name="Vera").id)  # signed out elsewhere
    assert phone.post("/login", data={"name": "Vera", "password": PASSWORD}).status_code == 302
    assert phone.get(f"/nights/{other_night.id}").status_code == 200  # a viewer reads it
    assert phone.get(f"/nights/{other_night.id}/hands/new").status_code == 403  # but is its guest no more


def test_a_guest_who_signs_in_keeps_the_night_joined(app, db, night):
    """(Unchanged: only a session that was ended loses what it joined.)"""
    make_user(app, "Bob", "viewer")
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    assert phone.post("/login", data={"name": "Bob", "password": PASSWORD}).status_code == 302
    assert phone.get(f"/nights/{night.id}/hands/new").status_code == 200


# --- a save that changes nothing ends nothing; one's own new password keeps this session -----------------------


def test_saving_the_role_form_unchanged_keeps_the_accounts_sessions(app, client, db, admin):
    scorer = make_user(app, "Sepp", "scorer")
    pub_phone = signed_in(app, scorer)
    own_phone = signed_in(app, admin)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = client.post(f"/users/{scorer.id}/role", data={"role": "scorer", "active": "1"}, follow_redirects=True)
    assert answer.status_code == 200
    assert "Nothing to change: Sepp keeps the role and may sign in as before." in answer_text(answer)
    assert pub_phone.get("/nights/new").status_code == 200  # still signed in, mid-night
    assert client.post(f"/users/{admin.id}/role", data={"role": "admin", "active": "1"}).status_code == 302
    assert own_phone.get("/users/").status_code == 200
    assert client.get("/users/").status_code == 200
    # a real change still ends the sessions
    assert client.post(f"/users/{scorer.id}/role", data={"role": "viewer", "active": "1"}).status_code == 302
    assert pub_phone.get("/nights/").status_code == 302


def test_the_core_keeps_the_stamp_when_nothing_changes(app, db, admin):
    scorer = make_user(app, "Sepp", "scorer")
    stamp = scorer.stamp
    assert accounts.update_user(db=db, user_id=scorer.id, role="scorer", active=True).stamp == stamp
    assert accounts.update_user(db=db, user_id=scorer.id).stamp == stamp
    assert accounts.update_user(db=db, user_id=scorer.id, role="viewer").stamp != stamp


def test_an_admin_who_sets_their_own_password_stays_signed_in_here_and_only_here(app, client, db, admin):
    other_phone = signed_in(app, admin)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    answer = client.post(f"/users/{admin.id}/password", data={"password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/users/{admin.id}"
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200  # this session goes on, as the message says
    assert "Admin has a new password; their other sessions are ended." in answer_text(page)
    assert other_phone.get("/users/").status_code == 302  # the others are ended
    # another account's new password ends all of its sessions
    scorer = make_user(app, "Sepp", "scorer")
    phone = signed_in(app, scorer)
    assert client.post(f"/users/{scorer.id}/password", data={"password": "neu-und-lang", "confirm": "neu-und-lang"})
    assert phone.get("/nights/").status_code == 302


def test_the_unchanged_save_says_so_in_german(app, client, db, admin):
    scorer = make_user(app, "Sepp", "scorer")
    answer = client.post(f"/users/{scorer.id}/role", data={"role": "scorer", "active": "1"}, follow_redirects=True)
    assert "Nichts zu ändern: Sepp behält die Rolle und darf sich anmelden wie bisher." in answer_text(answer)


# --- a stale or tampered start form: a seat's player not on the roster -----------------------------------


def start_form(client, players, seat_2: str, lang: str = "en"):
    data = form_values(client.get(f"/nights/new?lang={lang}").get_data(as_text=True))
    data.update({"game": "matzlfangen", "start": "1", "seat_2": seat_2})
    data.update({f"seat_{i}": str(players[i - 1].id) for i in (1, 3, 4)})
    return client.post(f"/nights/new?lang={lang}", data=data)


def nights_started(db) -> int:
    db.rollback()
    return len(db.exec(select(Night)).all())


@pytest.mark.parametrize("value", ["abc", "-3", str(10**20), "0", "99999", "٣"])
def test_a_seat_whose_value_is_no_player_of_the_roster_says_so(client, db, players, value):
    answer = start_form(client, players, value)
    assert answer.status_code == 400
    said = field_errors(answer.get_data(as_text=True), "seat_1")
    assert said == "The player chosen for seat 2 is not on the roster (any more): choose again."
    assert "-1" not in said and value not in said
    assert nights_started(db) == 0


def test_a_player_merged_away_since_the_form_was_opened_is_not_on_the_roster(client, db, players):
    stale = form_values(client.get("/nights/new?lang=de").get_data(as_text=True))
    merge_players(db=db, keep_id=players[4].id, merge_id=players[3].id)  # Dieter merged into Eva
    stale.update({"game": "matzlfangen", "start": "1"})
    stale.update({f"seat_{i}": str(players[i - 1].id) for i in (1, 2, 3, 4)})
    answer = client.post("/nights/new?lang=de", data=stale)
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "seat_1") == (
        "Der Spieler für Platz 4 steht nicht (mehr) auf der Spielerliste: wähle neu."
    )
    assert nights_started(db) == 0
    # chosen again, the night starts
    stale["seat_4"] = str(players[4].id)
    assert client.post("/nights/new?lang=de", data=stale).status_code == 302


def test_a_player_retired_since_the_form_was_opened_is_chosen_again(client, db, players):
    """The form offers the players who are not retired; one retired meanwhile is no longer on offer (the core would
    seat them: the form asks for a choice again, as for a player merged away)."""
    retire_player(db=db, player_id=players[1].id)
    answer = start_form(client, players, str(players[1].id))
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "seat_1") == (
        "The player chosen for seat 2 is not on the roster (any more): choose again."
    )
    assert nights_started(db) == 0
