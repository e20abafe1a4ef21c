"""What an attack on signing in found, pinned: a stranger's wrong passwords locking a member out
(item 3), sign-ins holding two connections and the pool running dry (item 4), password work
inside SQLite's write lock (item 5), a copied guest cookie outliving its sign-out (item 12), and
join codes in logged URLs (item 13). The concurrent attacks on a real server (items 2 and 4) are in
tests/tools/test_signin_concurrency.py."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import event, make_url
from sqlmodel import select

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import HandRecord, LoginFailure, Night
from tests.support import PASSWORD, make_user, signed_in, start_night, write_lock_free
from tests.support_tournament import make_tournament

HAND = {"contract": "rufen", "partner": 3, "points": 70}
NEW = {"password": "neu-und-lang", "confirm": "neu-und-lang"}


def from_address(app, addr: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = addr
    return client


def sign_in(client, name, password):
    return client.post("/login", data={"name": name, "password": password})


def errors_of(answer) -> list[str]:
    html = answer.get_data(as_text=True)
    return [
        re.sub(r"<[^>]+>", "", e).strip()
        for e in re.findall(r'class="errors[^"]*"[^>]*>(.*?)</(?:ul|div)>', html, re.S)
    ]


# --- item 3: a stranger can't lock a member out -----------------------------------------------


def test_a_strangers_wrong_passwords_pause_the_strangers_address_not_the_member_elsewhere(app, admin):
    stranger = from_address(app, "203.0.113.7")
    for _ in range(5):
        assert sign_in(stranger, "ADMIN", "falsch-falsch").status_code == 400
    assert sign_in(stranger, "ADMIN", PASSWORD).status_code == 429  # the stranger's address waits for the name
    member = from_address(app, "198.51.100.4")
    assert sign_in(member, "Admin", PASSWORD).status_code == 302  # the member, from anywhere else, does not


def test_wrong_passwords_for_one_name_from_many_addresses_slow_it_down_but_never_lock_it(app, db, admin):
    for i in range(4):  # 4 addresses, 5 wrong passwords each (the most one address gets): 20, the ceiling
        stranger = from_address(app, f"203.0.113.{i + 1}")
        for _ in range(5):
            assert sign_in(stranger, "admin", "falsch-falsch").status_code == 400
    member = from_address(app, "198.51.100.4")
    answer = sign_in(member, "Admin", PASSWORD)  # past the ceiling: one attempt per name every 10 seconds
    assert answer.status_code == 429
    assert errors_of(answer) == [
        "Viele falsche Versuche für diesen Namen. Warte ein paar Sekunden und versuche es dann wieder."
    ]
    db.rollback()
    for failure in db.exec(select(LoginFailure)).all():  # ten seconds later
        failure.at -= accounts.NAME_PACE + timedelta(seconds=1)
        db.add(failure)
    db.commit()
    assert sign_in(member, "Admin", PASSWORD).status_code == 302


# --- items 4 and 5: one connection at a time, none and no lock while a password is hashed or checked ---


def _password_work(app, monkeypatch):
    """Watch the pool while passwords are hashed and checked: the connections checked out at each
    hash or check, and the most a request held at once."""
    engine = app.extensions["sk_engine"]
    seen = {"out": 0, "most": 0, "during": []}

    def checkout(*_):
        seen["out"] += 1
        seen["most"] = max(seen["most"], seen["out"])

    def checkin(*_):
        seen["out"] -= 1

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)

    def watched(real):
        def work(*args, **kwargs):
            seen["during"].append(seen["out"])
            return real(*args, **kwargs)

        return work

    monkeypatch.setattr(accounts, "check_password_hash", watched(accounts.check_password_hash))
    monkeypatch.setattr(accounts, "generate_password_hash", watched(accounts.generate_password_hash))
    return seen


#: Every page that hashes or checks a password: who asks, the path, the form.
PASSWORD_PAGES = {
    "sign in": ("anon", "/login", {"name": "Admin", "password": PASSWORD}),
    "sign in wrong": ("anon", "/login", {"name": "Admin", "password": "falsch-falsch"}),
    "own password": ("viewer", "/account", {"current": PASSWORD, **NEW}),
    "own password wrong": ("viewer", "/account", {"current": "falsch-falsch", **NEW}),
    "new account": ("admin", "/users/", {"name": "Sepp", "role": "scorer", **NEW}),
    "new password": ("admin", "/users/{viewer}/password", NEW),
}


def _asker(app, admin, who: str, path: str):
    """The client and the path of a page of PASSWORD_PAGES (made before the watching begins)."""
    viewer = make_user(app, "Vera", "viewer")
    clients = {"anon": app.test_client(), "viewer": signed_in(app, viewer), "admin": signed_in(app, admin)}
    return clients[who], path.format(viewer=viewer.id)


@pytest.mark.parametrize("page", sorted(PASSWORD_PAGES))
def test_a_request_holds_one_connection_at_a_time_and_none_while_a_password_is_hashed_or_checked(
    app, admin, monkeypatch, page
):
    who, path, data = PASSWORD_PAGES[page]
    asker, path = _asker(app, admin, who, path)
    seen = _password_work(app, monkeypatch)
    answer = asker.post(path, data=data)
    assert answer.status_code in (302, 400), answer.get_data(as_text=True)
    assert seen["during"] and set(seen["during"]) == {0}  # no connection (no transaction, no lock) meanwhile
    assert seen["most"] == 1


def test_the_first_admins_setup_hashes_the_password_holding_no_connection(app, monkeypatch):
    seen = _password_work(app, monkeypatch)
    answer = app.test_client().post(app.config["SETUP_PATH"], data={"name": "Wirt", **NEW})
    assert answer.status_code == 302
    assert seen["during"] == [0] and seen["most"] == 1


def test_joining_and_signing_out_hold_one_connection_at_a_time(app, db, players, monkeypatch):
    code = start_night(db, players).join_code
    db.rollback()
    seen = _password_work(app, monkeypatch)
    guest = app.test_client()
    assert guest.post("/join", data={"code": "AAAAAA"}).status_code == 400
    assert guest.post("/join", data={"code": code}).status_code == 302
    assert guest.post("/logout").status_code == 302
    assert seen["most"] == 1


def _sqlite_file(app) -> str:
    url = make_url(app.config["DATABASE_URL"])
    if url.get_backend_name() != "sqlite":
        pytest.skip("SQLite's write lock")
    return url.database


@pytest.mark.parametrize("page", sorted(PASSWORD_PAGES))
def test_no_password_is_hashed_or_checked_holding_sqlites_write_lock(app, admin, monkeypatch, page):
    database_file = _sqlite_file(app)
    who, path, data = PASSWORD_PAGES[page]
    asker, path = _asker(app, admin, who, path)
    free = []

    def watched(real):
        def work(*args, **kwargs):
            free.append(write_lock_free(database_file))
            return real(*args, **kwargs)

        return work

    monkeypatch.setattr(accounts, "check_password_hash", watched(accounts.check_password_hash))
    monkeypatch.setattr(accounts, "generate_password_hash", watched(accounts.generate_password_hash))
    assert asker.post(path, data=data).status_code in (302, 400)
    assert free and all(free)


def test_while_the_account_page_checks_a_password_another_phone_records_a_hand_without_waiting(
    app, night, as_role, monkeypatch
):
    _sqlite_file(app)
    phone = as_role("viewer")
    checking, done = threading.Event(), threading.Event()
    real = accounts.check_password_hash

    def slow_check(*args):
        checking.set()
        done.wait(5)  # (bounded: without the fix the hand below waits for this)
        return real(*args)

    monkeypatch.setattr(accounts, "check_password_hash", slow_check)
    answers = []
    request = threading.Thread(
        target=lambda: answers.append(phone.post("/account", data={"current": PASSWORD, **NEW}).status_code)
    )
    request.start()
    try:
        assert checking.wait(10)
        began = time.monotonic()
        with database.session(app.extensions["sk_engine"], write=True) as db:
            record_hand(db=db, night_id=night.id, hand=HAND)
        waited = time.monotonic() - began
    finally:
        done.set()
        request.join(30)
    assert answers == [302]
    assert waited < 1, f"the hand waited {waited:.1f} s for the password check"


# --- item 12: signing out of a guest session ends it everywhere ---------------------------------------


def test_a_guest_who_signs_out_ends_the_guest_session_also_in_a_copy_of_its_cookie(app, db, players):
    night = start_night(db, players)
    code = night.join_code
    guest = app.test_client()
    assert guest.post("/join", data={"code": code}).status_code == 302
    copy = app.test_client()
    copy.set_cookie("session", guest.get_cookie("session").value)
    assert copy.get(f"/nights/{night.id}").status_code == 200
    assert guest.post("/logout").headers["Location"] == "/join"  # a guest leaves the table: back to joining one
    assert guest.get(f"/nights/{night.id}").status_code == 302
    # the copy is refused: its code is spent, so it is led to join again with the night's new code (never to the
    # sign-in page: docs/rules.md, guests), and a hand it sends is refused (409) and recorded by nobody
    assert copy.get(f"/nights/{night.id}").headers["Location"] == f"/join?night={night.id}"
    assert copy.post(f"/nights/{night.id}/hands/new", data={"contract": "rufen"}).status_code == 409
    assert db.exec(select(HandRecord)).all() == []
    db.rollback()
    db.expire_all()
    new_code = db.get(Night, night.id).join_code
    assert new_code not in (None, code)  # the night's new code: its other guests join again with it
    assert app.test_client().post("/join", data={"code": code}).status_code == 400
    assert app.test_client().post("/join", data={"code": new_code}).status_code == 302


def test_a_table_phone_that_leaves_its_table_leaves_the_printed_cards_code_working(app, client, db):
    """A tournament table's code is printed on its table card (and its QR code), so a phone leaving the table
    ("Abmelden / Tisch verlassen") keeps it: the next phone at that table scans the card and joins. (A
    club night's code changes, the test above.)"""
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    card = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    printed, night_id = card.join_code, card.id
    phone = app.test_client()
    assert phone.post("/join", data={"code": printed}).status_code == 302
    assert phone.get(f"/nights/{night_id}").status_code == 200
    assert phone.post("/logout").headers["Location"] == "/join"  # "Leave table" on the table page
    assert phone.get(f"/nights/{night_id}").status_code == 302  # this phone is out
    db.rollback()
    db.expire_all()
    assert db.get(Night, night_id).join_code == printed
    second = app.test_client()
    answer = second.post("/join?lang=en", data={"code": printed})
    assert answer.status_code == 302, "the code on the table's printed card no longer joins the table"
    assert second.get(f"/nights/{night_id}").status_code == 200


def test_an_account_signing_out_also_ends_the_guest_sessions_its_browser_joined(app, db, players, admin):
    night = start_night(db, players)
    phone = app.test_client()
    assert phone.post("/join", data={"code": night.join_code}).status_code == 302
    assert sign_in(phone, "Admin", PASSWORD).status_code == 302  # the night joined stays joined
    copy = app.test_client()
    copy.set_cookie("session", phone.get_cookie("session").value)
    assert phone.post("/logout").status_code == 302
    assert copy.get(f"/nights/{night.id}").status_code == 302  # neither the account nor the guest


def test_signing_out_with_an_old_code_changes_no_nights_code(app, db, players):
    night = start_night(db, players)
    first = night.join_code
    old = app.test_client()
    assert old.post("/join", data={"code": first}).status_code == 302
    leaver = app.test_client()
    leaver.set_cookie("session", old.get_cookie("session").value)
    assert leaver.post("/logout").status_code == 302
    db.rollback()
    db.expire_all()
    code = db.get(Night, night.id).join_code
    assert code != first
    assert old.post("/logout").status_code == 302  # its code is spent: nothing to end
    db.rollback()
    db.expire_all()
    assert db.get(Night, night.id).join_code == code


# --- item 13: no join code in a URL ------------------------------------------------------------------


def test_no_join_code_travels_in_a_url_where_access_logs_would_keep_it(app, client, db, players, monkeypatch):
    import segno

    night = start_night(db, players)
    code = night.join_code
    assert client.get(f"/join/{code}").status_code == 404
    assert client.get(f"/join?code={code}").get_data(as_text=True).count(code) == 0  # no code read from a URL
    encoded = []
    real = segno.make

    def spy(content, *args, **kwargs):
        encoded.append(content)
        return real(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", spy)
    assert client.get(f"/nights/{night.id}/join.svg").status_code == 200
    # after '#': never sent to the server (the host is this computer's Wi-Fi address where it has one)
    assert len(encoded) == 1 and re.fullmatch(rf"http://[^/?#]+/join#{code}", encoded[0]), encoded
    page = client.get("/join").get_data(as_text=True)
    assert 'id="code"' in page
    assert re.search(r'src="/static/join\.[0-9a-f]{12}\.js"', page)  # the script fills the code in (fingerprinted)
