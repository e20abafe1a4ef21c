"""A hand that closed its night as it was stored (a tournament table's last deal, which finishes the table), or was
stored just before the night was closed, whose answer never came (a 500, the Wi-Fi): it waited on the phone as
"closed", "sent if the night is reopened", though the server had it. The outbox posts a closed night's first
waiting hand all the same, with its key: the server finds it stored, and the phone drops it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.table import load_table
from tests.browser.outbox_phone import close, guest_phone, join_code
from tests.support import wait_sent, worker_ready

pytestmark = pytest.mark.browser

KEY = "q" + "7" * 32

#: the outbox's record of a hand (static/outbox-store.js), kept on the phone for ``a.night`` by ``a.account``
KEEP = """(a) => self.skOutbox.keep({key: a.key, night: String(a.night), account: a.account, expected: a.expected,
  fields: a.fields, entered: null, summary: "Spiel", at: Date.now(), conflict: "", why: "", table: a.table})"""


def _keep(page, key: str, night: int, expected: int, fields: list[list[str]], table: bool) -> None:
    """A hand kept on the phone for ``night`` by the page's account, as the outbox keeps one saved offline."""
    account = page.evaluate("document.documentElement.dataset.account")
    args = {"key": key, "night": night, "account": account, "expected": expected, "fields": fields, "table": table}
    page.evaluate(KEEP, args)


def _tournament_table(app) -> int:
    """A Schafkopf tournament of one deal a table, four entrants, round 1 drawn: its table's night."""
    from scorekeeper.core.players import create_player

    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, deals=1)
        for name in ("Sepp", "Resi", "Vroni", "Alois"):
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=name).id)
        tm.draw_round(db=db, tournament_id=t.id)
        return tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id


def _hands(app, night: int) -> int:
    with database.session(app.extensions["sk_engine"]) as db:
        return len(load_table(db=db, night_id=night).hands)


@pytest.mark.parametrize("who", ["member", "guest"])
def test_the_last_deal_of_a_table_stored_before_its_answer_was_lost_is_dropped_not_kept_as_closed(
    browser, page, live, who
):
    base, app = live
    night = _tournament_table(app)
    hand = {"contract": "wenz", "declarer": 3, "points": 61}
    phone = page
    if who == "guest":
        phone = guest_phone(browser, base, night, join_code(app, night), timeout=10_000)
    try:
        phone.goto(f"{base}/nights/{night}")
        worker_ready(phone)
        with database.session(app.extensions["sk_engine"], write=True) as db:  # stored: the table finishes
            record_hand(db=db, night_id=night, hand=hand, idempotency_key=KEY, expected_hands=0)
        fields = [["contract", "wenz"], ["declarer", "3"], ["points", "61"]]
        _keep(phone, KEY, night, 0, fields, table=True)
        phone.goto(f"{base}/nights/{night}")
        wait_sent(phone, night, timeout=20)  # found stored by its key: dropped
        assert _hands(app, night) == 1  # and not stored again
    finally:
        if phone is not page:
            phone.context.close()


def test_a_hand_stored_before_the_night_was_closed_is_dropped_and_one_not_stored_waits(page, live, matzlfangen_night):
    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    worker_ready(page)
    durch = {"contract": "durch", "declarer": 1, "won": True}
    with database.session(app.extensions["sk_engine"], write=True) as db:
        record_hand(db=db, night_id=night, hand=durch, idempotency_key=KEY, expected_hands=0)
    close(app, night)
    fields = [["contract", "durch"], ["declarer", "1"], ["won", "1"]]
    _keep(page, KEY, night, 0, fields, table=False)
    _keep(page, "q" + "8" * 32, night, 1, [["contract", "durch"], ["declarer", "2"], ["won", "1"]], table=False)
    page.goto(f"{base}/nights/{night}")
    item = page.locator("#outbox li.queued")
    expect(item).to_have_count(1, timeout=15_000)  # the stored one dropped; the other waits as closed
    expect(item.locator(".state")).to_contain_text("Dieser Abend nimmt keine Spiele mehr an")
    assert _hands(app, night) == 1
