"""A guest's hands kept on the phone since another phone closed its club night ("ended": the guest's code spent), the
night reopened since, in Chromium at 360 x 640: the night's page led to the join page ("new code"), which listed them
nowhere; joined again with the new code, the table page still said they could no longer be recorded, though the night
was open and the guest at it, with nothing but Discard. The join page lists them; joined again, they wait as any hand
of the phone (a hand the table entered meanwhile with the same number asks for the usual decision: no duplicates),
and the guest is told. A member who took them over on the phone sees them follow the night too: open, none says
"takes no more hands"."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from tests.browser.outbox_phone import close, guest_phone, join_code
from tests.browser.test_outbox import save_offline, table
from tests.browser.test_outbox_seams import _back_online, _reopen_table
from tests.browser.tournament_steps import join_table
from tests.support import wait_until

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
STATES = "() => self.skOutbox.all().then(hs => hs.sort((a, b) => a.at - b.at).map(h => h.conflict))"


def _states_are(phone, states, timeout=20) -> None:
    """Wait until the hands kept on the phone, in the order they were saved, are in ``states`` (their ``conflict``)."""
    wanted = json.dumps(json.dumps(states, separators=(",", ":")))
    wait_until(phone, f"() => ({STATES})().then(s => JSON.stringify(s) === {wanted})", timeout=timeout)


def _another_phone_records(app, night: int, declarer: int) -> None:
    """Another phone (a member's) records a Durch won by ``declarer`` (a seat) as the night's next hand."""
    from scorekeeper.core.hands import record_hand
    from scorekeeper.core.table import load_table

    with database.session(app.extensions["sk_engine"], write=True) as db:
        count = len(load_table(db=db, night_id=night).hands)
        record_hand(
            db=db, night_id=night, hand={"contract": "durch", "declarer": declarer, "won": True}, expected_hands=count
        )


def _ended_then_reopened(browser, live, night, locale, won):
    """A guest's phone that saved two hands (Anna's, Bernd's) offline; another phone closes the night, the phone comes
    back online (both "ended"); the night is reopened, and another phone records a hand (Clara's) meanwhile."""
    base, app = live
    phone = guest_phone(browser, base, night, join_code(app, night), size=SMALL, locale=locale, timeout=20_000)
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"), won)
        close(app, night)
        _back_online(phone)
        _states_are(phone, ["ended", "ended"])
        _reopen_table(app, night)
        _another_phone_records(app, night, 3)
    except BaseException:
        phone.context.close()
        raise
    return phone


@pytest.mark.parametrize(
    ("locale", "won", "kept", "told", "behind"),
    [
        (
            "de-DE",
            "gewonnen",
            "Auf diesem Handy behalten, noch nicht eingetragen: 2.",
            "wurde noch einmal gesendet. Hat der Tisch inzwischen ein Spiel mit derselben Nummer eingetragen, wartet",
            "wartet, bis du über Spiel 1 entschieden hast",
        ),
        (
            "en-GB",
            "won",
            "Kept on this phone, not recorded yet: 2.",
            "(2) was sent again. Where the table entered a hand with the same number meanwhile, this phone's waits",
            "waits until you decide on hand 1",
        ),
    ],
)
def test_a_guests_ended_hands_are_listed_at_joining_again_and_wait_again_once_joined(
    browser, live, matzlfangen_night, locale, won, kept, told, behind
):
    base, app = live
    night = matzlfangen_night
    phone = _ended_then_reopened(browser, live, night, locale, won)
    try:
        phone.goto(f"{base}/nights/{night}")  # the night's page: to joining it again (a new code), with the hands
        phone.wait_for_url(f"{base}/join?night={night}")
        box = phone.locator("#night-ended")
        expect(box).to_be_visible()
        expect(box).to_contain_text(kept)
        expect(box.locator("li")).to_have_count(2)
        expect(box.locator("button")).to_be_visible()  # Discard them all
        assert phone.evaluate(STATES) == ["ended", "ended"]
        join_table(phone, base, night, join_code(app, night))  # joined again: they wait as any hand of the phone
        _states_are(phone, ["taken", ""])  # the first beaten to its number by Clara's hand; the second behind it
        assert [h.data["declarer"] for h in table(live, night).hands] == [3]  # no duplicate, nothing sent ahead
        items = phone.locator("#outbox li.queued")
        expect(items).to_have_count(2)
        expect(items.first.locator("button[data-action=add]")).to_be_visible()  # the usual decision
        expect(items.nth(1).locator(".state")).to_contain_text(behind, ignore_case=True)
        expect(phone.locator("#outbox-resumed")).to_contain_text(told)
        items.first.locator("button[data-action=add]").click()  # added as the next hand: both go, in order
        wait_until(phone, "() => self.skOutbox.all().then(hs => hs.length === 0)", timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [3, 1, 2]
    finally:
        phone.context.close()


def test_a_guests_ended_hands_land_once_joined_again_and_the_table_page_says_so(browser, live, matzlfangen_night):
    """Nothing recorded meanwhile: joined again, both land, once each, and the table page (loaded again) says why."""
    base, app = live
    night = matzlfangen_night
    phone = guest_phone(browser, base, night, join_code(app, night), size=SMALL, locale="en-GB", timeout=20_000)
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"), "won")
        close(app, night)
        _back_online(phone)
        _states_are(phone, ["ended", "ended"])
        _reopen_table(app, night)
        join_table(phone, base, night, join_code(app, night))
        wait_until(phone, "() => self.skOutbox.all().then(hs => hs.length === 0)", timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [1, 2]
        resumed = phone.locator("#outbox-resumed")  # (said on the table page loaded again once they landed)
        expect(resumed).to_have_text(
            "This night was reopened: what this phone kept for it since it was closed on another phone (2)"
            " was sent again."
        )  # nothing left to decide
    finally:
        phone.context.close()


def test_a_member_who_took_over_a_guests_ended_hands_sees_them_follow_the_night(
    browser, sign_in, live, matzlfangen_night
):
    """A member signs in on the guest's phone; the night is reopened and another phone records two hands: the first
    kept hand asks for the decision, the second said "This night takes no more hands now" on an open night, with no
    way to add it. It waits behind the first."""
    base, app = live
    night = matzlfangen_night
    phone = guest_phone(browser, base, night, join_code(app, night), size=SMALL, locale="en-GB", timeout=20_000)
    try:
        phone.goto(f"{base}/nights/{night}")
        save_offline(phone, base, night, ("Anna", "Bernd"), "won")
        close(app, night)
        _back_online(phone)
        _states_are(phone, ["ended", "ended"])
        sign_in(phone)
        _reopen_table(app, night)
        _another_phone_records(app, night, 3)
        _another_phone_records(app, night, 4)
        phone.goto(f"{base}/nights/{night}")
        _states_are(phone, ["taken", ""])
        items = phone.locator("#outbox li.queued")
        expect(items).to_have_count(2)
        expect(items.nth(1).locator(".state")).to_contain_text("waits until you decide on hand 1", ignore_case=True)
        assert "no more hands" not in phone.locator("#outbox").inner_text()
        items.first.locator("button[data-action=add]").click()
        wait_until(phone, "() => self.skOutbox.all().then(hs => hs.length === 0)", timeout=20)
        assert [h.data["declarer"] for h in table(live, night).hands] == [3, 4, 1, 2]
    finally:
        phone.context.close()
