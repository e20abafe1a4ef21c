"""The outbox (issue 15), in Chromium at 390 x 844: hands saved without a connection wait on the phone,
in order, and land once each when the server answers again; a hand another phone beat to its
number is shown to the player, never stored twice nor dropped."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from scorekeeper.core import history
from scorekeeper.core.hands import record_hand, undo_last
from scorekeeper.core.table import load_table
from tests.support import DURCH, wait_sent, wait_until, worker_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def night(matzlfangen_night):
    return matzlfangen_night


def table(live, night):
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return load_table(db=db, night_id=night)


def enter_durch(page, declarer: str, won: str = "gewonnen") -> None:
    """A Durch won by ``declarer``, saved: on the hand form (not waiting for the page that follows); ``won``: the
    page's word."""
    page.locator("#contract-group label", has_text="Durch").first.click()
    page.locator("#declarer-group label", has_text=declarer).first.click()
    page.locator("#won-group label", has_text=won).first.click()
    page.locator("#save").click(no_wait_after=True)


def save_offline(page, base: str, night: int, declarers, won: str = "gewonnen") -> None:
    """Once the service worker runs the page: the table page and hand form kept by it, then, without a connection,
    a Durch won saved for each of ``declarers``: they wait on the phone, on the table page."""
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")  # kept by the worker
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    for name in declarers:
        page.goto(f"{base}/nights/{night}/hands/new")
        enter_durch(page, name, won)
        page.wait_for_url(f"{base}/nights/{night}")
    assert len(queued(page)) == len(declarers)


def queued(page) -> list[str]:
    """What each waiting hand says (their list is collapsed to a summary line till a hand needs the player)."""
    page.wait_for_selector("#outbox:not([hidden])")
    return [t.strip() for t in page.locator("#outbox li.queued .what").all_text_contents()]


def test_five_hands_saved_offline_wait_in_order_and_land_once_each(page, live, night):
    base, app = live
    declarers = ["Anna", "Bernd", "Clara", "Dieter", "Anna"]
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")  # kept by the worker
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.goto(f"{base}/nights/{night}")  # the table page loads offline
        for i, name in enumerate(declarers, start=1):
            page.goto(f"{base}/nights/{night}/hands/new")  # and the hand form
            enter_durch(page, name)
            page.wait_for_url(f"{base}/nights/{night}")  # back at the table, the hand waiting there
            waiting = queued(page)
            assert len(waiting) == i
            assert waiting[-1].startswith(f"Spiel {i}") and name in waiting[-1], waiting
            assert page.locator("#outbox h2").inner_text().endswith(f"({i})")
            assert "wartet auf Verbindung" in page.locator("#outbox").text_content()
        assert table(live, night).hands == []  # nothing reached the server
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night, timeout=20)
    after = table(live, night)
    assert len(after.hands) == 5  # all five, once each
    seats = {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 4}
    assert [h.data["declarer"] for h in after.hands] == [seats[n] for n in declarers]  # in order
    # a Durch won is 6 from each defender: Anna declares twice, the others once each
    assert list(after.balance) == [36 - 6 * 3, 18 - 6 * 4, 18 - 6 * 4, 18 - 6 * 4]
    with database.session(app.extensions["sk_engine"]) as db:
        assert history.verify_night(db=db, night_id=night) == []  # stored as the engine settles it afresh


@pytest.fixture
def short_send_wait(live):
    """The service worker gives up on a hand's answer after 2 s, not 15: asked for before ``page``,
    whose first page fetches the worker (rendered with the wait)."""
    live[1].config["SEND_WAIT_SECONDS"] = 2


def test_a_hand_whose_answer_was_lost_is_not_stored_twice(short_send_wait, page, live, night):
    """The server stores the hand but its answer comes too late (the worker gives up after
    ``SEND_WAIT_SECONDS``, 15 in the app, 2 here): the worker keeps the hand under the form's key, and
    sending it again is answered as that hand."""
    base, app = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    inner = app.wsgi_app
    slow = []

    def answer_late(environ, start_response):  # the first save: stored at once, answered after the wait
        answer = list(inner(environ, start_response))
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/hands/new") and not slow:
            slow.append(1)
            time.sleep(4)
        return answer

    app.wsgi_app = answer_late
    try:
        enter_durch(page, "Bernd")
        page.wait_for_url(f"{base}/nights/{night}", timeout=30_000)
        assert len(table(live, night).hands) == 1  # the server has it
        wait_sent(page, night, timeout=30)  # sent again, answered
    finally:
        app.wsgi_app = inner
    assert len(table(live, night).hands) == 1  # and still once


def beaten_to_its_number(page, live, night):
    """A Durch of Clara saved offline on the German hand form while another phone records hand 1 (Dieter's):
    back online, the table page marks it. Returns the marked hand (the outbox's item)."""
    base, app = live
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        enter_durch(page, "Clara")
        assert len(queued(page)) == 1
        with database.session(app.extensions["sk_engine"], write=True) as db:  # another phone: hand 1
            record_hand(db=db, night_id=night, hand=dict(DURCH, declarer=4))
    finally:
        page.context.set_offline(False)
    page.goto(f"{base}/nights/{night}")
    conflict = page.locator("#outbox li.conflict")
    conflict.wait_for(timeout=20_000)
    return conflict


def test_a_hand_another_phone_beat_to_its_number_is_shown_and_can_be_added_next(page, live, night):
    conflict = beaten_to_its_number(page, live, night)
    assert "anderes Handy" in conflict.inner_text()
    assert "Inzwischen eingetragen" in conflict.inner_text() and "Dieter" in conflict.inner_text()  # side by side
    assert len(table(live, night).hands) == 1  # nothing stored twice, nothing dropped
    conflict.locator("button", has_text="Als nächstes Spiel anhängen").click()
    wait_sent(page, night, timeout=20)
    hands = table(live, night).hands
    assert [h.data["declarer"] for h in hands] == [4, 3]


def test_a_hand_whose_number_an_undo_freed_says_a_hand_was_taken_back(page, live, night_with_a_hand):
    """A Durch of Clara saved offline as hand 2 while another phone takes hand 1 back: the outbox said "Another
    phone recorded a hand with this number meanwhile" beside a table of no hands. It says a hand was taken back and
    that this one would become hand 1; added, it is hand 1."""
    base, app = live
    night = night_with_a_hand
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Clara"])
    with database.session(app.extensions["sk_engine"], write=True) as db:  # another phone: takes hand 1 back
        undo_last(db=db, night_id=night)
    page.context.set_offline(False)
    page.goto(f"{base}/nights/{night}")
    conflict = page.locator("#outbox li.conflict")
    conflict.wait_for(timeout=20_000)
    said = conflict.locator(".state").inner_text()
    assert "Ein anderes Handy hat inzwischen ein Spiel zurückgenommen: dieses wäre jetzt Spiel 1." in said, said
    assert "eingetragen" not in said, said
    conflict.locator("button", has_text="Als nächstes Spiel anhängen").click()
    wait_sent(page, night, timeout=20)
    assert [h.data["declarer"] for h in table(live, night).hands] == [3]


def test_a_waiting_hand_can_be_discarded_by_hand(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        enter_durch(page, "Anna")
        assert len(queued(page)) == 1
        assert "–" not in queued(page)[0].split(" · ")  # not raised: no "Erhöht auf –" in its summary
        page.once("dialog", lambda d: d.accept())
        page.locator("#outbox summary").click()  # the list opens from its summary line
        page.locator("#outbox button", has_text="Verwerfen").click()
        page.wait_for_selector("#outbox[hidden]", state="attached")
    finally:
        page.context.set_offline(False)
    page.wait_for_timeout(500)
    assert table(live, night).hands == []


def _hold_posts(page, url: str) -> list:
    """From now on the outbox's posts to ``url`` are held (their routes returned, in order) until the test lets
    each go on (``continue_()``); its other requests go as always. (The service worker makes the page's
    requests: the context's routes see them.)"""
    held = []

    def route(r):
        if r.request.method == "POST":
            held.append(r)
        else:
            r.continue_()

    page.context.route(url, route)
    return held


def _sending(page, held: list) -> None:
    """Wait until a post of the outbox is held (sent, its answer not yet back)."""
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("no hand was sent")


def _discard(page, what: str) -> None:
    """Tap Discard beside the waiting hand that says ``what``, and confirm."""
    if not page.locator("#outbox details").evaluate("d => d.open"):
        page.locator("#outbox summary").click()
    page.once("dialog", lambda d: d.accept())
    page.locator("#outbox li.queued", has_text=what).get_by_role("button", name="Verwerfen").click()
    expect(page.locator("#outbox li.queued", has_text=what)).to_have_count(0)


def _answered(page, held: list) -> None:
    """Let the held post go on, and wait until the outbox has its answer (a stored hand's redirect, taken by
    ``redirect: "manual"``, is a failed request to Playwright), and a moment for what it does then."""
    over = []
    ended = lambda r: over.append(r) if r.method == "POST" else None  # noqa: E731
    page.context.on("requestfinished", ended)
    page.context.on("requestfailed", ended)
    held.pop(0).continue_()
    for _ in range(150):
        if over:
            break
        page.wait_for_timeout(100)
    assert over, "no answer"
    page.wait_for_timeout(1_500)


def _kept_for(page, night: int) -> int:
    """How many hands the phone keeps for ``night`` (of any account)."""
    return page.evaluate(
        """(night) => new Promise((done) => { const r = indexedDB.open("scorekeeper", 1);
             r.onsuccess = () => { const q = r.result.transaction("outbox").objectStore("outbox").getAll();
               q.onsuccess = () => { r.result.close();
                 done(q.result.filter((h) => h.night === String(night)).length); }; }; })""",
        night,
    )


def test_a_hand_discarded_while_it_is_being_sent_stays_discarded_whatever_the_answer(page, live, night):
    """A hand waits; back online it is sent, and while the server's answer is on its way the player discards it.
    The answer is a refusal (another phone recorded hand 1 meanwhile): the sending marked the hand and wrote it
    back into the store, so the discarded hand came back into the list (with "Add as the next hand" beside it).
    A discarded hand stays discarded."""
    base, app = live
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna"])
    with database.session(app.extensions["sk_engine"], write=True) as db:  # another phone: hand 1
        record_hand(db=db, night_id=night, hand=dict(DURCH, declarer=4))
    held = _hold_posts(page, f"{base}/nights/{night}/hands/new")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    _sending(page, held)
    _discard(page, "Anna")
    expect(page.locator("#outbox")).to_be_hidden()
    _answered(page, held)  # 409: taken
    expect(page.locator("#outbox")).to_be_hidden()
    assert _kept_for(page, night) == 0
    page.reload()  # nor does it come back on the next load
    page.wait_for_timeout(1_000)
    expect(page.locator("#outbox")).to_be_hidden()
    assert [h.data["declarer"] for h in table(live, night).hands] == [4]  # the other phone's only


def test_a_hand_discarded_while_the_one_before_it_is_being_sent_is_not_sent(page, live, night):
    """Two hands wait; back online the first is sent, and while its answer is on its way the player discards
    both. The sending went on to send the second one, discarded. The first had reached the server: it is
    recorded, and the table page (loaded again once a hand landed) shows it, the outbox nothing."""
    base, _ = live
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Anna", "Bernd"])
    held = _hold_posts(page, f"{base}/nights/{night}/hands/new")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    _sending(page, held)
    _discard(page, "Bernd")
    _discard(page, "Anna")
    expect(page.locator("#outbox")).to_be_hidden()
    _answered(page, held)  # Anna's: stored
    page.wait_for_timeout(1_000)
    assert not held  # nothing else was sent
    assert [h.data["declarer"] for h in table(live, night).hands] == [1]  # Anna's, recorded; Bernd's not sent
    expect(page.locator("#hand-1")).to_be_visible()  # the table shows it
    expect(page.locator("#outbox")).to_be_hidden()
    assert _kept_for(page, night) == 0


def test_three_hands_saved_while_the_server_is_down_land_once_when_it_is_back(page, live, night):
    """The phone is online but the app is stopped (its proxy answers 502): the worker keeps the hands."""
    base, app = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    inner = app.wsgi_app
    down = [True]

    def stopped(environ, start_response):
        if down[0]:  # what nginx answers while the app behind it is stopped
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"502 Bad Gateway"]
        return inner(environ, start_response)

    app.wsgi_app = stopped
    try:
        for i, name in enumerate(("Anna", "Bernd", "Clara"), start=1):
            if i > 1:
                page.goto(f"{base}/nights/{night}/hands/new")  # the form kept by the worker
            enter_durch(page, name)
            page.wait_for_url(f"{base}/nights/{night}", timeout=30_000)
            wait_until(page, "n => document.querySelectorAll('#outbox li.queued').length === n", i)
        assert [w.split(" · ")[0] for w in queued(page)] == ["Spiel 1", "Spiel 2", "Spiel 3"]
        assert table(live, night).hands == []
        down[0] = False  # the server is back: the timer finds it
        wait_sent(page, night, timeout=30)
    finally:
        app.wsgi_app = inner
    assert [h.data["declarer"] for h in table(live, night).hands] == [1, 2, 3]


def test_a_hand_sent_after_its_forms_token_expired_still_lands(page, live, night):
    base, app = live
    app.config["WTF_CSRF_TIME_LIMIT"] = 1  # the form's token is good for a second
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        enter_durch(page, "Dieter")
        assert len(queued(page)) == 1
        page.wait_for_timeout(2_000)  # the token it was made with has expired
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night, timeout=20)
    assert [h.data["declarer"] for h in table(live, night).hands] == [4]


def test_a_hand_entered_without_a_connection_says_its_value_waits_for_the_server(page, live, night):
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()  # the live preview is asked for
        note = page.locator("#preview .offline-note")
        note.wait_for(timeout=5_000)
        assert "sobald das Spiel beim Server ankommt" in note.inner_text()
    finally:
        page.context.set_offline(False)


# --- offline, the form checks what needs no rules (issue 15, "Previews offline") -------------------------


def waiting_count(page, night) -> int:
    return page.evaluate(
        "n => self.skOutbox.waiting(n, document.documentElement.dataset.account).then(h => h.length)", str(night)
    )


def test_offline_a_hand_without_partner_or_with_points_out_of_range_is_not_kept(page, live, night):
    """The checks come from the form's field definitions (forms.py Engine): the partner group's
    data-required and the points' min/max and data-range, in the page's language (German)."""
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")  # a Rufen: forehand declares, a partner is called
    said = page.locator("#partner-group").get_attribute("data-required")
    out_of_range = page.locator("#points").get_attribute("data-range")
    assert "fehlt" in said and "zwischen 0 und 130" in out_of_range  # the server's words, in German
    page.context.set_offline(True)
    try:
        page.fill("#points", "131")  # a Matzlfangen has 130 card points
        page.locator("#save").click()
        partner_error = page.locator("#partner-group .offline-error")
        assert partner_error.inner_text() == said
        at_points = "el => el.closest('.field').querySelector('.offline-error').textContent"
        assert page.locator("#points").evaluate(at_points) == out_of_range
        assert page.locator("#points").get_attribute("aria-invalid") == "true"
        assert page.locator("#outbox").is_hidden() and waiting_count(page, night) == 0  # not kept
        # a partner, but still too many points: still not kept, only the points are wrong
        page.locator("#partner-group label", has_text="Clara").first.click()
        page.fill("#points", "-1")
        page.locator("#save").click()
        assert page.locator("#partner-group .offline-error").count() == 0
        assert page.locator(".offline-error").inner_text() == out_of_range
        assert waiting_count(page, night) == 0
        page.fill("#points", "70")  # put right: kept
        page.locator("#save").click(no_wait_after=True)
        assert len(queued(page)) == 1
        assert page.locator(".offline-error").count() == 0
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night, timeout=20)
    stored = table(live, night).hands
    assert [(h.data["contract"], h.data["partner"], h.data["points"]) for h in stored] == [("rufen", 3, 70)]


def test_offline_a_group_the_contract_does_not_show_is_not_required(page, live, night):
    """A Durch has no partner: its hidden partner group does not keep the hand; the result it shows does."""
    base, _ = live
    page.goto(f"{base}/nights/{night}/hands/new")
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Durch").first.click()
        page.locator("#declarer-group label", has_text="Anna").first.click()
        page.locator("#save").click()
        assert page.locator("#won-group .offline-error").inner_text() == page.locator("#won-group").get_attribute(
            "data-required"
        )
        assert page.locator("#partner-group .offline-error").count() == 0
        assert waiting_count(page, night) == 0
        page.locator("#won-group label", has_text="gewonnen").first.click()
        page.locator("#save").click(no_wait_after=True)
        assert len(queued(page)) == 1
    finally:
        page.context.set_offline(False)


# --- the form kept offline names the deal of the hand it will be -----------------------------------------


def test_the_form_kept_offline_names_the_dealer_of_the_hand_behind_those_waiting(page, live, night):
    """Anna deals hand 1 (Bernd is forehand and declares a Rufen). The form kept at hand 1, opened again
    behind it, is hand 2: Bernd deals, Clara is forehand, declares, and is not offered as partner."""
    base, _ = live
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    page.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/new")
    assert page.locator(".hand-head .meta").inner_text() == "Anna gibt · Bernd ist Vorhand"
    page.context.set_offline(True)
    try:
        enter_durch(page, "Anna")
        page.wait_for_url(f"{base}/nights/{night}")
        page.goto(f"{base}/nights/{night}/hands/new")  # the page kept at hand 1
        wait_until(page, "() => document.querySelector('.hand-head h1').textContent.includes('2')")
        assert page.locator(".hand-head h1").inner_text() == "Spiel 2"
        assert page.locator(".hand-head .meta").inner_text() == "Bernd gibt · Clara ist Vorhand"
        assert page.locator("p.forehand").inner_text() == "Spieler: Clara (Vorhand)"
        partners = page.locator("#partner-group label").all_inner_texts()
        assert sorted(p.strip() for p in partners) == ["Anna", "Bernd", "Dieter"]
        page.locator("#partner-group label", has_text="Anna").first.click()
        page.fill("#points", "70")
        page.locator("#save").click(no_wait_after=True)
        page.wait_for_url(f"{base}/nights/{night}")
        assert [w.split(" · ")[0] for w in queued(page)] == ["Spiel 1", "Spiel 2"]
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night, timeout=20)
    second = table(live, night).hands[1].data  # Bernd (seat 2) dealt: Clara, forehand, declared with Anna
    assert (second["contract"], second["partner"], second["dealer"]) == ("rufen", 1, 2)


# --- a table of five: a hand added as the next one keeps its players or is refused -------------------------


@pytest.fixture
def five(live, roster) -> int:
    """A Schafkopf night of Anna, Bernd, Clara, Dieter and Eva (Anna deals first and sits out)."""
    from sqlmodel import select

    from scorekeeper.core.models import Player
    from tests.support import start_night

    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        return start_night(db, list(db.exec(select(Player).order_by(Player.id))), "schafkopf", 5).id


def enter_sauspiel(page, declarer: str, partner: str) -> None:
    page.locator("#declarer-group label", has_text=declarer).first.click()
    page.locator("#partner-group label", has_text=partner).first.click()
    page.locator("#suit-group label").first.click()
    page.fill("#points", "70")
    page.locator("#save").click(no_wait_after=True)


def test_at_a_table_of_five_a_hand_others_would_play_next_is_not_offered_as_the_next_one(
    browser, page, live, five, sign_in
):
    """Two phones record hand 1 offline (Anna sits out). The first lands; the second, as the next hand, would be
    hand 2, where Bernd sits out and Anna plays. It offered "Add as the next hand", which the server then refused:
    the phone says the hand must be entered again and offers only Discard, and keeps it till then; nothing is
    stored with other players."""
    base, _ = live
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE").new_page()
    try:
        sign_in(other)
        for phone in (page, other):
            phone.goto(f"{base}/nights/{five}/hands/new")
            assert "Anna setzt aus" in phone.locator("#sits-out").inner_text()
            phone.context.set_offline(True)
        enter_sauspiel(page, "Bernd", "Clara")
        enter_sauspiel(other, "Dieter", "Eva")
        assert len(queued(page)) == 1 and len(queued(other)) == 1
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        wait_sent(page, five, timeout=20)
        other.context.set_offline(False)
        other.goto(f"{base}/nights/{five}")
        conflict = other.locator("#outbox li.conflict")
        conflict.wait_for(timeout=20_000)
        said = conflict.inner_text()
        assert "Dieses Spiel spielen andere Spieler, oder ein anderer sagt an: trag es neu ein." in said, said
        assert conflict.locator("button", has_text="Als nächstes Spiel anhängen").count() == 0  # discard only
        assert conflict.locator("button", has_text="Verwerfen").count() == 1
        assert (
            other.evaluate(
                "n => self.skOutbox.waiting(n, document.documentElement.dataset.account).then(h => h.length)", str(five)
            )
            == 1
        )  # kept
    finally:
        other.context.close()
    hands = table(live, five).hands
    assert [(h.data["declarer"], h.data["partner"]) for h in hands] == [(1, 2)]  # Bernd with Clara, only


def test_behind_a_rundpass_dealt_again_the_form_names_the_same_dealer(page, live, roster):
    """Where the rules deal an all-pass hand again (all_pass redeal), the deal stays with its dealer: the
    form behind a waiting Rundpass names the same dealer, behind a Sauspiel the next one, as the server does."""
    from sqlmodel import select

    from scorekeeper.core.models import Player
    from tests.support import start_night

    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        players = list(db.exec(select(Player).order_by(Player.id)))
        night = start_night(db, players, "schafkopf", 4, {"all_pass": "redeal"}).id
    page.goto(f"{base}/nights/{night}/hands/new")
    meta = page.locator(".hand-head .meta")
    assert meta.inner_text().startswith("Anna gibt")
    page.context.set_offline(True)
    try:
        page.locator("#contract-group label", has_text="Rundpass").first.click()
        page.locator("#save").click(no_wait_after=True)
        wait_until(page, "() => document.querySelectorAll('#outbox li.queued').length === 1")
        assert page.locator(".hand-head h1").inner_text() == "Spiel 2"
        assert meta.inner_text().startswith("Anna gibt")  # dealt again by Anna
        page.locator("#contract-group label", has_text="Sauspiel").first.click()
        enter_sauspiel(page, "Bernd", "Clara")
        wait_until(page, "() => document.querySelectorAll('#outbox li.queued').length === 2")
        assert page.locator(".hand-head h1").inner_text() == "Spiel 3"
        assert meta.inner_text().startswith("Bernd gibt")
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_sent(page, night, timeout=20)
    after = table(live, night)
    assert [h.data["contract"] for h in after.hands] == ["rundpass", "sauspiel"]
    assert [after.dealer_for(n) for n in (1, 2, 3)] == [1, 1, 2]  # what the form said


def test_a_waiting_hands_words_follow_the_language_the_phone_switched_to(page, live, matzlfangen_night):
    """A hand saved offline on the German page, beaten to its number by another phone: the outbox marks it
    in German. The phone then switches to English: the waiting hand says so in English too, its summary
    included (its words were stored with the hand, German and English mixed on one page)."""
    base, _ = live
    night = matzlfangen_night
    conflict = beaten_to_its_number(page, live, night)
    assert "anderes Handy" in conflict.inner_text() and "gewonnen" in conflict.inner_text()  # on the German page
    page.goto(f"{base}/nights/{night}?lang=en")
    page.locator("h2", has_text="Hands").wait_for()  # the page is English now
    said = page.locator("#outbox li.conflict").inner_text()
    assert "Handy" not in said and "gewonnen" not in said, said
    assert "Another phone recorded" in said and "won" in said and "Clara" in said, said


def test_hands_stored_by_an_earlier_version_of_the_outbox_are_still_shown_and_can_be_discarded(
    page, live, matzlfangen_night
):
    """Phones may hold hands the outbox stored before it kept its reasons as data: their words of the moment in
    ``conflict``, no ``entered``. The page reads them: a hand beaten to its number says so in the page's words,
    a refused one keeps its stored words (the server's reasons are in them); each can be discarded."""
    base, _ = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}?lang=en")
    page.evaluate(
        """([night, account]) => Promise.all([
          self.skOutbox.keep({key: "qold1", night: String(night), account: account, expected: 0, at: 1,
            fields: [["contract", "durch"], ["declarer", "1"], ["won", "1"]], summary: "Durch · Anna · gewonnen",
            conflict: "Ein anderes Handy hat inzwischen ein Spiel mit dieser Nummer eingetragen."}),
          self.skOutbox.keep({key: "qold2", night: String(night), account: account, expected: 1, at: 2,
            fields: [["contract", "durch"]], summary: "Durch", refused: true,
            conflict: "Der Server hat dieses Spiel abgelehnt: verwirf es oder gib es neu ein. Wähle den Spieler."}),
        ])""",
        [night, page.evaluate("document.documentElement.dataset.account")],
    )
    page.reload()
    items = page.locator("#outbox li.conflict")
    items.first.wait_for(timeout=10_000)
    assert items.count() == 2
    first, second = items.nth(0).inner_text(), items.nth(1).inner_text()
    assert "Another phone recorded a hand with this number meanwhile." in first and "Handy" not in first, first
    assert "Durch · Anna" in first and "Add as the next hand" in first
    assert "Wähle den Spieler." in second and "Add as the next hand" not in second, second
    page.on("dialog", lambda d: d.accept())
    items.nth(1).locator("button", has_text="Discard").click()
    wait_until(page, "() => document.querySelectorAll('#outbox li.conflict').length === 1")
