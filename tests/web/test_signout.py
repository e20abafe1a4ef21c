"""Issue 22.3, the server's side: every answer tells the service worker whose it is (the pages it keeps are
that account's; nobody's answer makes it forget them), every page of somebody signed in has a sign-out
that is a plain form post, and a guest leaves the table from the table page."""

from __future__ import annotations

import re

import pytest

from tests.support import PASSWORD, form_values, make_user

ACCOUNT_HEADER = "Scorekeeper-Account"  # what the worker reads (web/offline/routes.py)


def whose(answer) -> str:
    """Whose the answer says it is: the header the worker reads, and the page's own data-account."""
    said = answer.headers.get(ACCOUNT_HEADER)
    body = answer.get_data(as_text=True)
    if answer.mimetype == "text/html" and not 300 <= answer.status_code < 400 and "<html" in body:
        # a page (not a redirect, nor the live part a poll gets)
        page = re.search(r'<html lang="\w+" data-account="([^"]*)"', body)
        assert page is not None and page.group(1) == said
    return said


def join(client, code: str):
    return client.post("/join", data={"code": code})


@pytest.fixture
def guest(app, night):
    phone = app.test_client()
    assert join(phone, night.join_code).status_code == 302
    return phone


# --- what the page tells the worker -------------------------------------------------------------------


def test_an_accounts_pages_and_its_scripts_answers_name_the_account(client, admin, night):
    expected = f"user:{admin.id}"
    assert whose(client.get("/nights/")) == expected
    assert whose(client.get(f"/nights/{night.id}")) == expected
    assert whose(client.get(f"/nights/{night.id}/hands/new")) == expected
    assert whose(client.get(f"/nights/{night.id}/live")) == expected  # the table page's polling, too


def test_a_guests_pages_name_the_guest_of_this_browser_also_after_joining_again(app, db, night, guest):
    first = whose(guest.get(f"/nights/{night.id}"))
    assert re.fullmatch(r"guest:[A-Za-z0-9_-]{16}", first)
    assert whose(guest.get(f"/nights/{night.id}/hands/new")) == first
    other = app.test_client()
    assert join(other, night.join_code).status_code == 302
    assert whose(other.get(f"/nights/{night.id}")) not in (first, "-")  # another phone: another guest
    assert other.post("/logout").status_code == 302  # it leaves: the night gets a new code, this guest is out
    assert whose(guest.get(f"/nights/{night.id}")) == "-"
    db.rollback()
    db.expire_all()
    assert join(guest, db.get(type(night), night.id).join_code).status_code == 302
    assert whose(guest.get(f"/nights/{night.id}")) == first  # the same guest: its hands are still its own


def test_nobodys_answers_say_so_a_redirect_to_sign_in_and_a_401(app, anon, night):
    page = anon.get(f"/nights/{night.id}")
    assert page.status_code == 302 and whose(page) == "-"
    assert whose(anon.get(page.headers["Location"])) == "-"  # the sign-in page the phone lands on
    refused = anon.post(f"/nights/{night.id}/hands/new", data={"contract": "rufen"})
    assert refused.status_code == 401 and whose(refused) == "-"
    assert whose(anon.get("/offline")) == "-"


def test_the_offline_page_the_worker_keeps_at_install_names_nobody(client, admin):
    page = client.get("/offline")
    assert whose(page) == "-"
    assert admin.name not in page.get_data(as_text=True) and signout_form(page.get_data(as_text=True)) is None


def test_the_api_says_nothing_to_the_worker(client):
    answer = client.get("/api/v1/players")
    assert answer.status_code == 200 and ACCOUNT_HEADER not in answer.headers


def test_the_account_of_a_signed_out_session_is_nobody_at_once(client, admin):
    assert whose(client.get("/nights/")) == f"user:{admin.id}"
    answer = client.post("/logout")
    assert answer.headers["Location"] == "/login" and whose(answer) == "-"


# --- the sign-out: a plain form post, on every page of somebody signed in ------------------------------


def signout_form(page: str) -> str | None:
    found = re.search(r'<form id="signout" method="post" action="/logout" data-signout[^>]*>(.*?)</form>', page, re.S)
    return found.group(1) if found else None


def test_every_page_of_an_account_has_the_sign_out_in_its_menu(client, night):
    for path in ("/nights/", f"/nights/{night.id}", "/players/", "/account"):
        page = client.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
        form = signout_form(page)
        assert form is not None and 'name="csrf_token"' in form, path
        menu = page[page.index('<details class="menu">') : page.index("</details>")]
        assert '<button type="submit" form="signout" class="signout">Abmelden</button>' in menu, path
        assert "Tisch verlassen" not in page  # the guest's control: not an account's


def test_nobody_has_a_sign_out(anon):
    for path in ("/login", "/join", "/offline"):
        page = anon.get(path).get_data(as_text=True)
        assert signout_form(page) is None and 'form="signout"' not in page, path


def test_a_guest_has_leave_table_on_the_table_page_in_the_pages_language(guest, night):
    de = guest.get(f"/nights/{night.id}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    main = de[de.index("<main>") : de.index("</main>")]
    assert '<button type="submit" form="signout" class="signout danger">Abmelden / Tisch verlassen</button>' in main
    assert signout_form(de) is not None
    en = guest.get(f"/nights/{night.id}?lang=en").get_data(as_text=True)
    main = en[en.index("<main>") : en.index("</main>")]
    assert ">Leave table</button>" in main


def test_the_account_page_signs_out_with_the_same_form(client):
    page = client.get("/account", headers={"Accept-Language": "en"}).get_data(as_text=True)
    main = page[page.index("<main>") : page.index("</main>")]
    assert '<button type="submit" form="signout" class="signout">Sign out</button>' in main
    assert "/logout" not in main  # one sign-out form, the page's


def test_a_guest_who_leaves_the_table_is_out_and_back_at_joining_in_the_pages_language(guest, night):
    answer = guest.post("/logout", headers={"Accept-Language": "de"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/join"
    assert whose(answer) == "-"
    page = guest.get("/join", headers={"Accept-Language": "de"})
    assert "Du hast den Tisch verlassen." in page.get_data(as_text=True) and whose(page) == "-"
    assert guest.get(f"/nights/{night.id}").status_code == 302  # asked to sign in: the guest is out


def test_signing_out_needs_its_form_token_and_changes_nothing_without_it(app, admin, night):
    app.config["WTF_CSRF_ENABLED"] = True
    guest = app.test_client()
    page = guest.get("/join").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert guest.post("/join", data={"code": night.join_code, "csrf_token": token}).status_code == 302
    refused = guest.post("/logout", headers={"Accept-Language": "de"})
    assert refused.status_code == 400
    assert guest.get(f"/nights/{night.id}").status_code == 200  # still a guest: nothing changed
    table = guest.get(f"/nights/{night.id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', signout_form(table)).group(1)
    assert guest.post("/logout", data={"csrf_token": token}).headers["Location"] == "/join"
    assert guest.get(f"/nights/{night.id}").status_code == 302
    assert guest.get("/logout").status_code == 405  # a plain form post, never a link


def test_an_account_signs_out_with_the_form_of_its_pages(app, admin):
    app.config["WTF_CSRF_ENABLED"] = True
    phone = app.test_client()
    login = phone.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login).group(1)
    answer = phone.post("/login", data={"name": "Admin", "password": PASSWORD, "csrf_token": token})
    assert answer.status_code == 302
    page = phone.get("/nights/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', signout_form(page)).group(1)
    answer = phone.post("/logout", data={"csrf_token": token})
    assert answer.headers["Location"] == "/login" and whose(answer) == "-"
    assert phone.get("/nights/").status_code == 302


# --- two tabs of one phone: a poll's late answer keeps the account signed in since ---------------------


def test_a_polls_answer_does_not_send_the_session_cookie_again_but_an_opened_page_does(app, client, night):
    """The table page's poll left as the admin; another account signed in on another tab meanwhile. The
    poll's answer came later and, carrying the cookie of its request, put the admin back on the phone (a
    browser test saw the table polling on as the admin). An answer to a page's script whose session did not
    change sends no cookie; a page the browser opens still does (the session's 60 days count from there)."""
    name = app.config["SESSION_COOKIE_NAME"]
    client.get(f"/nights/{night.id}")  # the table page opened: the session as its polls send it
    poll = client.get(f"/nights/{night.id}/live", headers={"Sec-Fetch-Mode": "cors"})
    assert poll.status_code == 200 and poll.headers.get("Scorekeeper-Account", "").startswith("user:")
    assert not any(c.startswith(f"{name}=") for c in poll.headers.getlist("Set-Cookie"))
    page = client.get(f"/nights/{night.id}", headers={"Sec-Fetch-Mode": "navigate"})
    assert any(c.startswith(f"{name}=") for c in page.headers.getlist("Set-Cookie"))


def test_a_late_poll_of_the_account_before_leaves_the_phone_to_the_account_signed_in_since(app, db, client, night):
    from scorekeeper.core import accounts

    accounts.create_user(db=db, name="Resi", password=PASSWORD, role="viewer")
    name = app.config["SESSION_COOKIE_NAME"]
    client.get(f"/nights/{night.id}")  # the table page opened
    before = client.get_cookie(name).value  # the admin's cookie, as the poll that left took it
    signed_in = client.post("/login", data={"name": "Resi", "password": PASSWORD})
    assert signed_in.status_code == 302
    late = app.test_client()  # the poll's request, answered only now
    late.set_cookie(name, before)
    answer = late.get(f"/nights/{night.id}/live", headers={"Sec-Fetch-Mode": "cors"})
    for cookie in answer.headers.getlist("Set-Cookie"):  # what the phone's browser takes from the answer
        if cookie.startswith(f"{name}="):
            client.set_cookie(name, cookie.split(";", 1)[0].split("=", 1)[1])
    resi = accounts.find_user(db=db, name="Resi")
    assert whose(client.get("/nights/")) == f"user:{resi.id}"


def test_a_scripts_request_without_a_session_starts_none_and_the_sign_in_form_opened_meanwhile_holds(app):
    """A phone whose session ended keeps a hand waiting; opening the sign-in page, its outbox tries the hand
    form in the background, is sent to the sign-in page (a script's fetch follows the redirect) and got a
    session of its own there, its cookie overwriting the one of the sign-in page the member was filling in:
    "the form was too old" at the first try (a browser test failed so about one run in four). A script's
    request that came without a session starts none: only a page the browser opens does."""
    app.config["WTF_CSRF_ENABLED"] = True  # the form's token is what goes wrong
    name = app.config["SESSION_COOKIE_NAME"]
    member = make_user(app, "Resi", "scorer")
    phone = app.test_client()
    form = phone.get("/login", headers={"Sec-Fetch-Mode": "navigate"})  # the page the member fills in
    assert any(c.startswith(f"{name}=") for c in form.headers.getlist("Set-Cookie"))
    token = form_values(form.get_data(as_text=True))["csrf_token"]
    behind = app.test_client()  # the outbox's fetch, which left before the page's cookie came
    tried = behind.get("/nights/1/hands/new", headers={"Sec-Fetch-Mode": "cors"}, follow_redirects=True)
    assert tried.request.path == "/login"  # the sign-in page, its form and token made for nobody
    assert not any(c.startswith(f"{name}=") for c in tried.headers.getlist("Set-Cookie"))
    signed_in = phone.post("/login", data={"name": member.name, "password": PASSWORD, "csrf_token": token})
    assert signed_in.status_code == 302 and whose(phone.get("/nights/")) == f"user:{member.id}"
