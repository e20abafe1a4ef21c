"""The end of the night: closing locks it, reopening needs a reason, the summary and its PDF."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.hands import add_hands, edit_hand, record_hand, undo_last
from scorekeeper.core.models import AuditEntry, HandRecord, Night
from scorekeeper.core.nights import close_night, create_night, pot_moved, reopen_night
from scorekeeper.core.players import create_player
from scorekeeper.core.summary import money_lines
from scorekeeper.core.table import get_night, load_table
from tests.support import EURO, RUFEN_HIRSCH, page_text, pdf_text, start_night
from tests.support_tournament import make_tournament

# RUFEN_HIRSCH: Anna deals, Bernd declares: 6


def test_closing_a_night_locks_it_against_recording_editing_and_undoing(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    assert client.get(f"/nights/{night.id}/close").status_code == 200  # the confirmation
    assert client.post(f"/nights/{night.id}/close").status_code == 302
    db.rollback()
    db.expire_all()
    assert get_night(db=db, night_id=night.id).status == "closed"
    form = {"contract": "rufen", "partner": "4", "points": "70", "expected_hands": "1", "action": "save"}
    assert client.post(f"/nights/{night.id}/hands/new", data=form).status_code == 409
    assert client.post(f"/api/v1/sessions/{night.id}/hands", json=RUFEN_HIRSCH).status_code == 409
    assert client.put(f"/api/v1/sessions/{night.id}/hands/1", json=RUFEN_HIRSCH).status_code == 409
    assert client.delete(f"/api/v1/sessions/{night.id}/hands/1").status_code == 409
    assert len(db.exec(select(HandRecord)).all()) == 1
    page = client.get(f"/nights/{night.id}").get_data(as_text=True)
    assert 'id="record"' not in page  # no button to record a hand on a closed night


def test_reopening_needs_a_reason_which_the_audit_trail_keeps(client, db, night):
    close_night(db=db, night_id=night.id)
    refused = client.post(f"/nights/{night.id}/reopen?lang=en", data={"reason": "   "})
    assert refused.status_code == 400
    db.rollback()
    db.expire_all()
    assert get_night(db=db, night_id=night.id).status == "closed"
    assert client.post(f"/nights/{night.id}/reopen", data={"reason": "Hand 3 was entered wrong"}).status_code == 302
    db.rollback()
    db.expire_all()
    assert get_night(db=db, night_id=night.id).status == "open"
    actions = [(a.action, a.after) for a in db.exec(select(AuditEntry).order_by(AuditEntry.id))]
    assert actions == [("close", None), ("reopen", {"reason": "Hand 3 was entered wrong"})]


def test_after_reopening_a_change_is_in_the_new_settlement(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    close_night(db=db, night_id=night.id)
    reopen_night(db=db, night_id=night.id, reason="raised only to Dut")
    edit_hand(db=db, night_id=night.id, number=1, hand={**RUFEN_HIRSCH, "raises": 4})
    page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    # worth 1 + 4 = 5 at 10 cents: Anna and Clara pay 0,50 each to Bernd and Dieter
    assert "Anna</strong> pays <strong>Bernd</strong>" in page or "Anna</strong> pays <strong>Dieter</strong>" in page
    assert "0.50\u00a0EUR" in page and not re.search(r"0\.60\s+EUR", page)  # however spaced


def test_the_summary_lists_the_fewest_payments(client, db, players):
    night = start_night(db, players)  # Anna deals first
    # hand 1: Bernd declares with Dieter, worth 6: Anna and Clara pay 6 each (60 cents)
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    assert page.count("<li><strong>") == 2  # two payments: each loser pays one winner
    assert "2 payments settle the night" in page
    assert "Interim settlement" in page


def test_one_payment_is_named_in_the_singular(client, db, players):
    """Two Rufen at 6 whose sides cross: after them one player owes one other, and one payment settles
    the night (before: "1 payments settle the night")."""
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": 2, "points": 70, "raises": 5})
    page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    german = client.get(f"/nights/{night.id}/summary?lang=de").get_data(as_text=True)
    assert page.count("<li><strong>") == 1, page
    assert "1 payment settles the night" in page
    assert "1 Zahlung gleicht den Abend aus" in german


def test_a_schafkopf_pot_is_split_in_whole_cents_and_the_remainder_stays(client, db, players):
    # five players: the four who play each pay 2 units into the pot (8 units = 80 cents at 10 cents)
    night = start_night(db, players, game="schafkopf", seats=5)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    # 80 cents among five players: 16 each, nothing left over
    assert "Shared: 0.16\u00a0EUR each" in page
    assert "stay in the pot" not in page


def test_a_carried_pot_starts_the_clubs_next_schafkopf_night(db, players):
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})  # pot 8
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf")
    assert second.pot_start == 8
    table = load_table(db=db, night_id=second.id)
    assert table.settlement.pot == 8
    third = start_night(db, players, game="schafkopf")  # the pot went to the second night only
    assert third.pot_start == 0


def test_a_carried_pot_is_not_carried_again_when_its_night_is_reopened_and_closed(db, players):
    """The second night took the 8 units; the first is reopened to check a hand and closed again
    unchanged: the third night starts without them (before: it took them a second time, money out of
    nothing, as the first night's close was newer than the second night's start)."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})  # pot 8
    close_night(db=db, night_id=first.id)
    assert start_night(db, players, game="schafkopf").pot_start == 8
    reopen_night(db=db, night_id=first.id, reason="checking hand 1")
    close_night(db=db, night_id=first.id)
    assert start_night(db, players, game="schafkopf").pot_start == 0


def test_a_carried_pot_is_the_same_money_at_a_night_of_another_stake(db, players):
    """8 units at 10 cents are 80 cents in the pot: a night at 20 cents a unit starts with 4 units and
    shares out the same 80 cents (before: 8 units, 1.60 EUR out of 0.80 paid in)."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=10)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    pot_in = money_lines(load_table(db=db, night_id=first.id))[0]
    assert (pot_in.units, pot_in.cents) == (8, 80)
    second = start_night(db, players, game="schafkopf", stake_cents=20)
    assert second.pot_start == 4
    close_night(db=db, night_id=second.id)
    assert money_lines(load_table(db=db, night_id=second.id))[0].cents == pot_in.cents


def _pot_taken_then_corrected(db, players):
    """Night 1 carries 8 units (80 cents) out; night 2 (which carries its own on) takes them in; night 1
    is reopened and a second Rundpass is added (its pot now 16 units, 1.60 EUR), and closed again.
    Returns both nights."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 13))
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    assert second.pot_start == 8
    assert pot_moved(db=db, night=first) == pot_moved(db=db, night=second) == ()
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    return get_night(db=db, night_id=first.id), get_night(db=db, night_id=second.id)


def test_a_carried_pot_corrected_after_the_next_night_took_it_is_named_on_both_nights(db, players):
    """Neither night's figures change (the next night took 80 cents; the corrected night now carries
    1.60 EUR out): both say so, with the difference to settle by hand (docs/rules.md)."""
    first, second = _pot_taken_then_corrected(db, players)
    (out,) = pot_moved(db=db, night=first)
    assert (out.gave, out.other_id, out.took, out.now, out.difference) == (
        True,
        second.id,
        80,
        160,
        80,
    )
    (into,) = pot_moved(db=db, night=second)
    assert (into.gave, into.other_id, into.took, into.now) == (False, first.id, 80, 160)
    assert second.pot_start == 8  # what the second night took stays


def test_a_night_that_took_a_pot_and_carried_one_on_names_both_corrections(db, players):
    """The second night took the first's 8 units and carried 16 on to the third; then both were
    corrected (another Rundpass each): the second night names the pot it took and the pot it gave."""
    first, second = _pot_taken_then_corrected(db, players)  # the first now carries 160 cents, 80 were taken
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})  # 8 + 8
    close_night(db=db, night_id=second.id)
    third = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 27))
    assert third.pot_start == 16
    reopen_night(db=db, night_id=second.id, reason="one Rundpass more")
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})  # 24
    close_night(db=db, night_id=second.id)
    second = get_night(db=db, night_id=second.id)
    found = [(m.gave, m.other_id, m.took, m.now) for m in pot_moved(db=db, night=second)]
    assert found == [(False, first.id, 80, 160), (True, third.id, 160, 240)]


def test_a_carried_pot_corrected_and_back_as_it_was_names_nothing(db, players):
    first, second = _pot_taken_then_corrected(db, players)
    reopen_night(db=db, night_id=first.id, reason="the second Rundpass was the wrong night's")
    undo_last(db=db, night_id=first.id)
    close_night(db=db, night_id=first.id)
    assert pot_moved(db=db, night=get_night(db=db, night_id=first.id)) == ()
    assert pot_moved(db=db, night=second) == ()


def test_a_corrected_pot_is_named_on_both_nights_pages_and_pdfs(client, db, players, tmp_path):
    first, second = _pot_taken_then_corrected(db, players)
    said_first = (
        "This night, corrected after the night of 2026-11-20 took its pot of 0.80 EUR, now carries 1.60 EUR "
        "out: settle the difference of 0.80 EUR by hand."
    )
    for path in (f"/nights/{first.id}?lang=en", f"/nights/{first.id}/summary?lang=en"):
        page = client.get(path).get_data(as_text=True)
        assert said_first in page_text(page), path
        assert f'href="/nights/{second.id}">2026-11-20</a>' in page, path
    said_second = (
        "The pot carried in came from the night of 2026-11-13, corrected since: it now carries 1.60 EUR "
        "out, this night took 0.80 EUR: settle the difference of 0.80 EUR by hand."
    )
    for path in (f"/nights/{second.id}?lang=en", f"/nights/{second.id}/summary?lang=en"):  # the date a link
        assert said_second in page_text(client.get(path).get_data(as_text=True)).replace(" ,", ","), path
    german = page_text(client.get(f"/nights/{second.id}/summary?lang=de").get_data(as_text=True)).replace(" ,", ",")
    assert "Der übernommene Stock kam vom Abend am 13.11.2026, der seither korrigiert wurde" in german
    assert "die Differenz von 0,80 EUR bitte von Hand ausgleichen" in german
    for night, said in ((first, "settle the difference of 0.80 EUR by hand"), (second, "0.80 EUR by hand")):
        pdf = client.get(f"/nights/{night.id}/summary.pdf?lang=en")
        assert pdf.status_code == 200
        assert said in " ".join(pdf_text(pdf.data, tmp_path).split())


def test_an_older_night_whose_pot_was_not_carried_names_no_correction(db, players):
    """The first night shared its pot out (nothing carried); the second carried 8 units, which the third
    took: the first night was never corrected and carried no pot to anybody, so it names nothing
    (before: "This night, corrected after the night of 2026-11-27 took its pot of 0.80 EUR, now carries
    0.00 EUR out", on every older night of the game, as the third was the first to take a pot after it)."""
    first = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 13))  # the pot is shared
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    assert second.pot_start == 0
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=second.id)
    third = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 27))
    assert third.pot_start == 8
    assert pot_moved(db=db, night=get_night(db=db, night_id=first.id)) == ()
    assert pot_moved(db=db, night=get_night(db=db, night_id=second.id)) == ()
    assert pot_moved(db=db, night=third) == ()


def test_a_night_corrected_after_the_night_that_took_its_pot_closed_leaves_that_nights_pot_to_the_next(db, players):
    """The first night's 8 units went to the second, which closed carrying 16; then the first is reopened,
    corrected and closed again (its close now the newest): the third night takes the second's 16 units
    (before: none, the second's pot was lost, as the newest close was the first's, whose pot was taken)."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 13))
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    assert second.pot_start == 8
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=second.id)
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    third = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 27))
    assert third.pot_start == 16
    second = get_night(db=db, night_id=second.id)
    found = [(m.gave, m.other_id, m.took, m.now) for m in pot_moved(db=db, night=second)]
    assert found == [(False, first.id, 80, 160)]
    assert pot_moved(db=db, night=third) == ()


def test_a_night_started_while_the_last_night_is_reopened_does_not_lose_that_nights_pot(db, players):
    """The first night closed carrying 8 units; it is reopened to check a hand while the next week's night is
    started: that night takes them as they stand (before: it started without them, and the first, closed
    again, carried 8 units to nobody: 80 cents paid in never shared out, and no page said so)."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 13))
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    reopen_night(db=db, night_id=first.id, reason="checking hand 1")
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    close_night(db=db, night_id=first.id)
    close_night(db=db, night_id=second.id)
    third = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 27))
    assert (second.pot_start, third.pot_start) == (8, 8)  # the first's 8 units, carried on by the second


def test_a_carried_pot_of_units_corrected_at_a_stake_of_0_is_named_on_both_nights(client, db, players):
    """Two nights for honour: the first carries 8 units to the second, then a Rundpass it missed makes its pot
    16 units. The second night's players shared out 8 units fewer than the first now gives: both nights say so,
    in units, as they say everything else (before: nothing, as 0 cents equal 0 cents)."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=0)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", stake_cents=0)
    assert second.pot_start == 8
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    assert len(pot_moved(db=db, night=get_night(db=db, night_id=first.id))) == 1
    assert len(pot_moved(db=db, night=second)) == 1
    page = page_text(client.get(f"/nights/{second.id}?lang=en").get_data(as_text=True)).replace(" ,", ",")
    assert "it now carries 16 units out, this night took 8 units: settle the difference of 8 units by hand" in page
    assert not EURO.search(page)
    german = page_text(client.get(f"/nights/{first.id}/summary?lang=de").get_data(as_text=True)).replace(" ,", ",")
    assert "seinen Stock von 8 Einheiten übernommen hatte, und gibt jetzt 16 Einheiten weiter" in german


def test_the_settlements_share_text_names_a_corrected_pot_as_the_page_does(client, db, players):
    """The Share button's text (what the table sends the players) is the settlement as the page shows it: with
    the difference to settle by hand (before: the page and the PDF said it, the shared text did not)."""
    import html
    import re

    first, second = _pot_taken_then_corrected(db, players)
    for night, said in (
        (first, "now carries 1.60 EUR out: settle the difference of 0.80 EUR by hand."),
        (second, "this night took 0.80 EUR: settle the difference of 0.80 EUR by hand."),
    ):
        page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
        shared = re.search(r'<pre class="card share-text" id="share-text" hidden>(.*?)</pre>', page, re.S)
        text = html.unescape(shared.group(1))
        assert said in " ".join(text.split()), text
        assert "<a" not in text and "href" not in text


def _pot_passed_on(db, players):
    """The first night's 8 units went to the second, which carried them and 8 of its own on to the third;
    then the second is reopened (an admin may delete an open night). Returns the three nights."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 13))
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})  # 8 + 8
    close_night(db=db, night_id=second.id)
    third = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 27))
    assert third.pot_start == 16
    reopen_night(db=db, night_id=second.id, reason="started by mistake")
    return first, second, third


def test_a_night_whose_pot_a_later_night_took_is_not_deleted_and_names_that_night(db, players):
    """Deleting the second night would leave the third holding a pot from nowhere, and the first named as
    corrected (the pot's source is found from the nights' times: before, both said the first was corrected,
    0.80 EUR to settle by hand). It is refused, naming the night that holds its pot; nothing changes."""
    from scorekeeper.core.errors import Conflict
    from scorekeeper.core.exchange.night_file import night_json
    from scorekeeper.core.nights import delete_night
    from tests.support import snapshot

    first, second, third = _pot_passed_on(db, players)
    before = snapshot(db)
    with pytest.raises(Conflict, match="this night's pot went to the night of 2026-11-27"):
        delete_night(
            db=db, night_id=second.id, reason="started by mistake", export=night_json(db=db, night_id=second.id)
        )
    db.rollback()
    assert snapshot(db) == before
    assert pot_moved(db=db, night=get_night(db=db, night_id=first.id)) == ()
    assert pot_moved(db=db, night=third) == ()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "This night's pot went to the night of 2026-11-27, which holds it: delete that night first"),
        ("de", "Der Stock dieses Abends ging in den Abend am 27.11.2026, der ihn hält: lösche zuerst jenen Abend"),
    ],
)
def test_the_delete_page_refuses_a_night_whose_pot_a_later_night_took_in_the_users_words(
    client, db, players, lang, said
):
    from tests.support import answer_text, snapshot

    _, second, _ = _pot_passed_on(db, players)
    before = snapshot(db)
    answer = client.post(f"/nights/{second.id}/delete?lang={lang}", data={"reason": "Versehen", "confirm": "y"})
    assert answer.status_code in (400, 409)
    assert said in answer_text(answer)
    assert snapshot(db) == before


@pytest.mark.parametrize(("stake_cents", "currency"), [(50, "EUR"), (30, "EUR")])
def test_a_night_at_a_stake_the_carried_pot_is_no_even_number_of_units_of_is_refused(
    db, players, stake_cents, currency
):
    """80 cents are 1.6 units at 50 cents, 2⅔ at 30: the night is refused, naming the pot and its stake, and
    nothing is started; at the pot's own stake it starts with the pot. (A night in francs leaves the euros
    waiting: test_a_pot_waits_for_a_night_of_its_kind.)"""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, stake_cents=10)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    with pytest.raises(InvalidInput, match=r"the pot carried in holds 80 cents \(8 units at 10\)") as refused:
        create_night(
            db=db,
            game="schafkopf",
            rules=None,
            stake_cents=stake_cents,
            currency=currency,
            player_ids=[p.id for p in players[:4]],
            first_dealer=1,
        )
    assert refused.value.field == "stake_cents"
    db.rollback()
    assert len(list(db.exec(select(Night)))) == 1
    assert start_night(db, players, game="schafkopf", stake_cents=10).pot_start == 8


def test_the_pdf_has_every_name_and_final_money_figure_as_the_engine_computed(client, db, tmp_path):
    names = ["Jörg Weiß", "Zoë 🎉", "<b>x</b>", "Ødegård"]
    ids = [create_player(db=db, name=n).id for n in names]
    night = create_night(db=db, game="matzlfangen", rules=None, stake_cents=25, player_ids=ids, first_dealer=1)
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    answer = client.get(f"/nights/{night.id}/summary.pdf?lang=de")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = pdf_text(answer.data, tmp_path)
    table = load_table(db=db, night_id=night.id)
    for position, player in table.players.items():
        assert player.name in text
        euros = table.money(position)  # 6 units x 25 cents = 1,50 EUR, won or lost
        assert f"{'-' if euros < 0 else ''}{abs(euros) // 100},{abs(euros) % 100:02d} EUR" in text
    assert "Seite 1 von 1" in text  # the footer in German; one hand, one page (the log ran onto a second)
    html = client.get(f"/nights/{night.id}/summary").get_data(as_text=True)
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html  # a name is text, never markup


def test_a_300_hand_night_gives_a_multi_page_pdf_with_page_numbers(client, db, players, tmp_path):
    import random

    from scorekeeper.engine import GAMES
    from scorekeeper.engine.samples import random_hands

    night = start_night(db, players, game="schafkopf")
    hands = random_hands("schafkopf", random.Random(3), 300, GAMES["schafkopf"].parse_rules(None))
    add_hands(db=db, night_id=night.id, hands=hands)
    text = pdf_text(client.get(f"/nights/{night.id}/summary.pdf?lang=en").data, tmp_path)
    pages = text.count("\f") + (0 if text.endswith("\f") else 1)
    assert pages >= 5
    assert f"page {pages} of {pages}" in text
    assert "All hands" in text and "300" in text


def test_the_summary_command_writes_the_pdf(app, db, night, tmp_path, monkeypatch):
    from scorekeeper import cli

    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    out = tmp_path / "night.pdf"
    assert cli.main(["summary", str(night.id), "-o", str(out), "--lang", "en"]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "Settlement" in pdf_text(out.read_bytes(), tmp_path) or "Interim settlement" in pdf_text(
        out.read_bytes(), tmp_path
    )
    assert cli.main(["summary", "999", "-o", str(tmp_path / "x.pdf")]) == 1


@pytest.mark.parametrize("path", ["summary", "summary.pdf", "close", "reopen"])
def test_the_end_of_night_pages_of_an_unknown_night_are_not_found(client, path):
    assert client.get(f"/nights/999/{path}").status_code == 404


def test_the_summary_of_a_night_without_hands_renders(client, night):
    page = client.get(f"/nights/{night.id}/summary?lang=en")
    assert page.status_code == 200
    assert "Nobody owes anybody anything." in page.get_data(as_text=True)


def test_the_csv_and_json_exports_download(client, db, night):
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    csv = client.get(f"/nights/{night.id}/export.csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    assert csv.get_data(as_text=True).splitlines()[0].endswith("Anna;Bernd;Clara;Dieter")  # German: ";" (issue 26.4)
    data = client.get(f"/nights/{night.id}/export.json").get_json()
    assert data["format"] == "scorekeeper-night" and len(data["hands"]) == 1


def test_a_tournament_tables_json_download_is_marked_as_the_tournaments_table(client, db):
    """The table's summary page offers the same JSON as ``manage.py export ID``: it says whose table it
    is, so ``manage.py import`` refuses it rather than make it a club night."""
    t = make_tournament(db, name="Herbstturnier")
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[1]
    data = client.get(f"/nights/{table.night.id}/export.json").get_json()
    assert data["format"] == "scorekeeper-night"
    assert data["tournament"] == {"uid": t.uid, "name": "Herbstturnier", "round": 1, "table": 2}


def test_export_and_import_commands_round_trip_and_a_second_import_changes_nothing(
    app, db, night, tmp_path, capsys, monkeypatch
):
    import json as jsonlib

    from scorekeeper import cli

    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    record_hand(db=db, night_id=night.id, hand=RUFEN_HIRSCH)
    out = tmp_path / "night.json"
    assert cli.main(["export", str(night.id), "-o", str(out)]) == 0
    assert cli.main(["import", str(out)]) == 0  # the same database: it is there already
    assert "nothing changed" in capsys.readouterr().out
    assert jsonlib.loads(out.read_text(encoding="utf-8"))["evening"]["uid"] == night.uid
    out.write_text("{not json", encoding="utf-8")
    assert cli.main(["import", str(out)]) == 1


def test_the_pdf_is_also_at_the_sessions_path(client, night):
    answer = client.get(f"/sessions/{night.id}/summary.pdf")
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/nights/{night.id}/summary.pdf")


def test_the_preview_counts_the_pot_a_night_started_with_as_saving_does(client, db, players):
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})  # 8 units carried
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf")
    form = {"contract": "sauspiel", "declarer": "1", "partner": "3", "suit": "gras", "points": "70"}
    page = client.post(
        f"/nights/{second.id}/hands/new?lang=en", data={**form, "expected_hands": "0", "action": "preview"}
    ).get_data(as_text=True)
    # a won sauspiel worth 2 takes the 8 carried units: Anna and Clara +2 + 4 = +6, Bernd and Dieter -2
    assert '<td>Anna</td><td class="num">+6</td>' in page
    assert '<td>Bernd</td><td class="num">-2</td>' in page
