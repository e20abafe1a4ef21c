"""Issue 25, points 2 and 3: paper that counts (solos from paper, the score sheet, a standings list per
round) and an organiser who cannot slip (a confirmed withdrawal that can be taken back, start numbers
that stay with a person and a replacement, the keyboard, the phone's standings, one meaning of
"Soli 1/0", a table's /join page, the club's currency in the PDFs, solos counted as hands are recorded)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from sqlmodel import select
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.hands import record_hand, undo_last
from scorekeeper.core.models import Night, TournamentTable
from scorekeeper.core.players import create_player
from scorekeeper.core.table import load_table
from tests.support import EURO, answer_text, form_values, make_user, pdf_text, signed_in
from tests.support_tournament import make_tournament

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
WENZ = {"contract": "wenz", "declarer": 3, "points": 61}
LOST_WENZ = {"contract": "wenz", "declarer": 1, "points": 40}


@pytest.fixture(autouse=True)
def english(client):
    client.set_cookie("lang", "en")


_tournament = make_tournament


def _table(db, t, round_number=1, number=1):
    view = tm.read_tournament(db=db, tournament_id=t.id)
    return next(table for table in view.rounds[round_number - 1].tables if table.number == number)


def _line(view, number, lines=None):
    return next(line for line in (lines or view.standings) if line.entrant.number == number)


# --- 2a: solos from paper ---------------------------------------------------------------------


def _paper(client, t, table, points, solos):
    data = {f"p{i}": str(p) for i, p in enumerate(points, start=1)}
    for i, pair in enumerate(solos, start=1):
        if pair is not None:
            data[f"w{i}"], data[f"l{i}"] = (str(c) for c in pair)
    return client.post(f"/tournaments/{t.id}/rounds/1/tables/{table}/paper", data=data)


def test_the_paper_form_takes_solos_and_they_break_ties(client, db):
    t = _tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    first, second = _table(db, t, 1, 1), _table(db, t, 1, 2)
    assert _paper(client, t, 1, [12, -12, 5, -5], [[0, 0], [1, 0], [0, 1], None]).status_code == 302
    assert _paper(client, t, 2, [12, -12, 5, -5], [[2, 0], None, [0, 0], [0, 0]]).status_code == 302
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    a, b = first.entrants[0].number, second.entrants[0].number  # both +12: b won 2 solos, a none
    assert _line(view, b).standing.rank == 1 and _line(view, a).standing.rank == 2
    assert _line(view, b).standing.decided_by == "solos_won"
    unknown = first.entrants[3].number
    assert not _line(view, unknown).solos_known and _line(view, a).solos_known
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    assert "? = solos unknown" in page
    # the tie of -12 (first.entrants[1] won 1 solo, second.entrants[1] unknown): said in words, not only a letter
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert f"placed by more solos won; the solos of {second.names[1]} are unknown" in said


def test_a_tie_of_three_says_which_step_placed_each_of_them(client, db):
    """Three players on +7: the first won more solos, the second and third won as many and the second
    lost fewer; the note says both steps, not only the deepest. A tie among unknown solos says so."""
    t = _tournament(db, n=12)
    client.post(f"/tournaments/{t.id}/draw")
    tables = [_table(db, t, 1, n) for n in (1, 2, 3)]
    _paper(client, t, 1, [7, -7, 1, -1], [[2, 0], [0, 0], None, [0, 0]])
    _paper(client, t, 2, [7, -7, 1, -1], [[1, 0], [0, 0], None, [0, 0]])
    _paper(client, t, 3, [7, -7, 1, -1], [[1, 1], [0, 0], None, [0, 0]])
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    first, second, third = (table.names[0] for table in tables)
    assert (
        f"{first}, {second}, {third}, each +7: {first} before {second} by more solos won, "
        f"{second} before {third} by fewer solos lost." in said
    )
    # the three on +1 gave no solos: placed by lot, and the note says their solos are unknown
    ones = [table.names[2] for table in tables]
    note = next(line for line in said.split(".") if "each +1" in line)
    assert "placed by lot; the solos of" in note and all(name in note for name in ones)
    german = client.get(f"/tournaments/{t.id}/standings?lang=de").get_data(as_text=True)
    assert f"{first} vor {second} durch mehr gewonnene Soli" in re.sub(r"\s+", " ", german)


@pytest.mark.parametrize(
    ("solos", "said"),
    [
        ({"w1": "-1"}, "Solos won and lost are whole numbers from 0 to 2 deals"),  # the core's range
        ({"w1": "3"}, "Solos won and lost are whole numbers from 0 to 2 deals"),
        ({"w1": "2", "l1": "1"}, "A player's solos won and lost together may not exceed 2"),  # at the field
        ({"l2": "eins"}, "Not a valid integer value."),
    ],
)
def test_bad_solos_on_the_paper_form_are_refused_and_change_nothing(client, db, solos, said):
    t = _tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    data = {"p1": "1", "p2": "-1", "p3": "0", "p4": "0", **solos}
    answer = client.post(f"/tournaments/{t.id}/rounds/1/tables/1/paper", data=data)
    assert answer.status_code == 400 and said in answer_text(answer)
    assert _table(db, t).paper is False


# --- 2b: the score sheet ----------------------------------------------------------------------


def test_the_score_sheet_has_a_line_per_deal_with_its_dealer_the_sums_and_the_tariff(client, db, tmp_path):
    t = _tournament(db, n=9, deals=6)
    assert client.get(f"/tournaments/{t.id}/sheets.pdf").status_code == 409  # no round drawn
    client.post(f"/tournaments/{t.id}/draw")
    view = tm.read_tournament(db=db, tournament_id=t.id)
    answer = client.get(f"/tournaments/{t.id}/sheets.pdf")
    assert answer.headers["Content-Type"] == "application/pdf"
    text = pdf_text(answer.data, tmp_path)
    assert text.count("Turnier · Round 1 · Table") == len(view.rounds[0].tables)
    for table in view.rounds[0].tables:
        assert f"Table {table.number}" in text
        for e, name in zip(table.entrants, table.names, strict=True):
            assert f"No. {e.number} {name}" in text
    five = next(table for table in view.rounds[0].tables if len(table.entrants) == 5)
    one = pdf_text(client.get(f"/tournaments/{t.id}/sheets.pdf?table={five.number}").data, tmp_path)
    dealers = [five.names[(k - 1) % 5] for k in range(1, 7)]  # seat 1 deals first, then clockwise
    for k, dealer in enumerate(dealers, start=1):
        assert re.search(rf"^\s*{k} {re.escape(dealer)}\s*$", one, re.M), (k, dealer)
    assert "Sum: must be 0" in one and "Solos won / lost" in one and "The dealer sits out" in one
    assert "Solo tariff: 5" in one and "Sauspiel tariff: 1" in one
    assert client.get(f"/tournaments/{t.id}/sheets.pdf?table=9").status_code == 404
    assert f"/tournaments/{t.id}/sheets.pdf" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)


def test_the_score_sheets_tariff_lists_only_what_the_rules_play_and_its_sum_line_is_one_line(client, db, tmp_path):
    """Under ``turnier`` an all-pass is dealt again and runners are never paid: no pot, no Ramsch and
    no runners-from lines in the box. The sum line and the solos line each stay on one line, at a
    table of four and of five."""
    t = _tournament(db, n=9, deals=4)
    client.post(f"/tournaments/{t.id}/draw")
    text = pdf_text(client.get(f"/tournaments/{t.id}/sheets.pdf").data, tmp_path)
    for label in ("Into the pot", "The pot at the end", "Ramsch", "Jungfrau", "Durchmarsch", "Runners from"):
        assert label not in text, label
    assert "Solo tariff: 5" in text and "Runners at most: 0" in text and "When everybody passes: dealt again" in text
    assert len(re.findall(r"^\s*Sum: must be 0\s", text, re.M)) == 2  # the label whole, on its line
    assert len(re.findall(r"^\s*Solos won / lost\s", text, re.M)) == 2
    german = pdf_text(client.get(f"/tournaments/{t.id}/sheets.pdf?lang=de").data, tmp_path)
    assert len(re.findall(r"^\s*Summe: muss 0 ergeben\s", german, re.M)) == 2  # it wrapped before
    assert len(re.findall(r"^\s*Soli gewonnen / verloren\s", german, re.M)) == 2
    client.set_cookie("lang", "en")
    bavarian = tm.create_tournament(
        db=db, name="Zwei", game="schafkopf", rules={"preset": "bavarian"}, deals=4, seed="s"
    )  # an all-pass is a Ramsch: its lines, and no pot
    for e in tm.read_tournament(db=db, tournament_id=t.id).entrants[:8]:
        tm.add_entrant(db=db, tournament_id=bavarian.id, player_id=e.player_id)
    client.post(f"/tournaments/{bavarian.id}/draw")
    text = pdf_text(client.get(f"/tournaments/{bavarian.id}/sheets.pdf").data, tmp_path)
    assert "Ramsch tariff" in text and "Into the pot" not in text


# --- 2c: a standings list per round -----------------------------------------------------------


def test_each_round_has_its_own_standings_on_the_page_and_in_the_result_list(client, db, tmp_path):
    t = _tournament(db, n=8, deals=1)
    client.post(f"/tournaments/{t.id}/draw")
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    client.post(f"/tournaments/{t.id}/draw")
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[1].tables:
        record_hand(db=db, night_id=table.night.id, hand=LOST_WENZ)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    second = view.round_standings[2]
    assert [line.standing.total for line in second] == sorted(
        (line.standing.points[1] for line in view.standings), reverse=True
    )
    top = second[0]
    assert top.standing.points == (top.standing.total,)  # its own round only
    page = client.get(f"/tournaments/{t.id}/standings?round=2").get_data(as_text=True)
    assert "Round 2 on its own" in page and top.name in page
    assert f'href="/tournaments/{t.id}/standings?round=1"' in page
    assert client.get(f"/tournaments/{t.id}/standings?round=3").status_code == 404
    assert client.get(f"/tournaments/{t.id}/standings?round=x").status_code == 404
    results = pdf_text(client.get(f"/tournaments/{t.id}/results.pdf").data, tmp_path)
    assert "Round 1 on its own" in results and "Round 2 on its own" in results


# --- 3a: a withdrawal is confirmed and can be taken back ---------------------------------------


def test_withdrawing_asks_on_a_page_that_names_the_person_and_can_be_taken_back(client, db):
    t = _tournament(db, n=9, deals=1)
    show = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert f'<a class="button small quiet" href="/tournaments/{t.id}/entrants/9/withdraw">' in show  # a link, no form
    ask = client.get(f"/tournaments/{t.id}/entrants/9/withdraw")
    assert ask.status_code == 200 and "Withdraw Spieler 9 (start number 9)?" in ask.get_data(as_text=True)
    # the heading names the person; the button says the step in one word (a long name wrapped it to four lines)
    assert '<button type="submit" class="danger" autofocus>Withdraw</button>' in ask.get_data(as_text=True)
    assert client.get(f"/tournaments/{t.id}/entrants/99/withdraw").status_code == 404
    one_tap = client.post(f"/tournaments/{t.id}/entrants/9/withdraw")  # the old button's post: not confirmed
    assert one_tap.status_code == 400 and "Confirm the withdrawal on this page." in one_tap.get_data(as_text=True)
    wrong = client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "8"})
    assert wrong.status_code == 400
    assert _line(tm.read_tournament(db=db, tournament_id=t.id), 9).entrant.withdrawn_after is None
    done = client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "9"}, follow_redirects=True)
    assert "Spieler 9 (start number 9) has withdrawn" in done.get_data(as_text=True)
    assert "Take back" in done.get_data(as_text=True)
    db.rollback()
    assert _line(tm.read_tournament(db=db, tournament_id=t.id), 9).entrant.withdrawn_after == 0
    back = client.post(f"/tournaments/{t.id}/entrants/9/take-back", follow_redirects=True)
    assert "Spieler 9 (start number 9) plays again." in back.get_data(as_text=True)
    db.rollback()
    assert len(tm.read_tournament(db=db, tournament_id=t.id).playing(1)) == 9
    again = client.post(f"/tournaments/{t.id}/entrants/9/take-back")
    assert again.status_code == 409 and "has not withdrawn" in again.get_data(as_text=True)


def test_a_withdrawal_is_taken_back_until_a_round_without_them_starts(client, db):
    t = _tournament(db, n=9, deals=1)
    client.post(f"/tournaments/{t.id}/draw")
    client.post(f"/tournaments/{t.id}/entrants/4/withdraw", data={"confirm": "4"})  # round 1 drawn, not started
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert 4 not in {e.number for table in view.rounds[0].tables for e in table.entrants}
    assert view.can_take_back(_line(view, 4).entrant)
    assert client.post(f"/tournaments/{t.id}/entrants/4/take-back").status_code == 302  # drawn again with them
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert 4 in {e.number for table in view.rounds[0].tables for e in table.entrants}
    for table in view.rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    client.post(f"/tournaments/{t.id}/entrants/4/withdraw", data={"confirm": "4"})
    client.post(f"/tournaments/{t.id}/draw")  # round 2 without them: until it starts, taking back draws it again
    record_hand(db=db, night_id=_table(db, t, 2, 1).night.id, hand=SAUSPIEL)
    answer = client.post(f"/tournaments/{t.id}/entrants/4/take-back")
    assert answer.status_code == 409 and "can no longer be taken back" in answer.get_data(as_text=True)
    assert "Take back" not in client.get(f"/tournaments/{t.id}").get_data(as_text=True)


# --- 3b: start numbers stay with a person; a replacement ---------------------------------------


def test_start_numbers_never_move_and_a_replacement_keeps_the_number_and_the_points(client, db):
    t = _tournament(db, n=8, deals=1)
    before = {e.number: e.player_id for e in tm.read_tournament(db=db, tournament_id=t.id).entrants}
    client.post(f"/tournaments/{t.id}/draw")
    db.rollback()
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    client.post(f"/tournaments/{t.id}/entrants/2/withdraw", data={"confirm": "2"})
    client.post(f"/tournaments/{t.id}/entrants", data={"guest": "Spät Kommer"})
    db.rollback()
    points = _line(tm.read_tournament(db=db, tournament_id=t.id), 5).standing.total
    page = client.get(f"/tournaments/{t.id}/entrants/5/replace").get_data(as_text=True)
    assert "Who takes the place of Spieler 5 (start number 5)?" in page
    answer = client.post(f"/tournaments/{t.id}/entrants/5/replace", data={"guest": "Resi"}, follow_redirects=True)
    assert "Resi takes the place of Spieler 5: start number 5, the points so far stay." in answer.get_data(as_text=True)
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    numbers = {e.number: e.player_id for e in view.entrants}
    assert {n: p for n, p in numbers.items() if n not in (5, 9)} == {n: p for n, p in before.items() if n != 5}
    assert view.names[9] == "Spät Kommer" and view.names[5] == "Resi"
    assert _line(view, 9).solos_known  # a round not played has no solos: none unknown
    assert _line(view, 5).standing.total == points and _line(view, 5).name == "Resi"
    assert "Spieler 5" in [n for table in view.rounds[0].tables for n in table.names]
    assert "in the place of Spieler 5 after round 1" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    client.post(f"/tournaments/{t.id}/draw")  # round 2 seats Resi with start number 5
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert 5 in {e.number for table in view.rounds[1].tables for e in table.entrants}
    assert "Resi" in [n for table in view.rounds[1].tables for n in table.names]


def test_the_replace_page_offers_nobody_who_was_entered_before(client, db):
    """Spieler 5, replaced by Resi, keeps the tables played: the Replace page of another participant offered
    Spieler 5 from the roster, a choice always refused ("Spieler 5 is entered already"); Sepp is offered."""
    t, former_id, _resi, sepp = _replaced(client, db)
    page = client.get(f"/tournaments/{t.id}/entrants/6/replace").get_data(as_text=True)
    offered = re.findall(r'<option value="(\d+)"', page)
    assert str(sepp.id) in offered and str(former_id) not in offered


def _replaced(client, db):
    """A tournament of 8 members after round 1; Spieler 5 replaced by Resi (a member); Sepp, not entered."""
    t = _tournament(db, n=8, deals=1)
    client.post(f"/tournaments/{t.id}/draw")
    db.rollback()
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    resi, sepp = create_player(db=db, name="Resi"), create_player(db=db, name="Sepp")
    answer = client.post(f"/tournaments/{t.id}/entrants/5/replace", data={"player": str(resi.id)})
    assert answer.status_code == 302
    db.rollback()
    db.expire_all()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert view.names[5] == "Resi"
    return t, view.entrants[4].former[0]["player_id"], resi, sepp


def test_a_replaced_person_merged_into_somebody_not_entered_keeps_the_pages_whole(client, db):
    """Merging the record of the person replaced into another record: their earlier table is the kept
    record's now (the same person), and the tournament's pages and standings still show everyone."""
    t, replaced, _, sepp = _replaced(client, db)
    points = _line(tm.read_tournament(db=db, tournament_id=t.id), 5).standing.total
    answer = client.post(f"/players/{sepp.id}/merge", data={"other": str(replaced), "confirm": "y"})
    assert answer.status_code == 302, re.sub(r"<[^>]+>", "", answer.get_data(as_text=True))[-1500:]
    db.rollback()
    for path in ("", "/standings", "/standings?round=1", "/results.pdf"):
        assert client.get(f"/tournaments/{t.id}{path}").status_code == 200, path
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert "Sepp" in [n for table in view.rounds[0].tables for n in table.names]
    assert _line(view, 5).standing.total == points and view.names[5] == "Resi"
    assert "in the place of Sepp after round 1" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    client.post(f"/tournaments/{t.id}/draw")
    assert client.get(f"/tournaments/{t.id}").status_code == 200


def test_a_replaced_person_is_not_merged_into_another_participant_of_the_tournament(client, db):
    """The person replaced and their replacement, or another participant, are two people of one
    tournament: merging them is refused by name and changes nothing."""
    t, replaced, resi, _ = _replaced(client, db)
    other = tm.read_tournament(db=db, tournament_id=t.id).entrants[0].player_id
    for keep, merged in ((resi.id, replaced), (other, replaced), (replaced, other)):
        answer = client.post(f"/players/{keep}/merge", data={"other": str(merged), "confirm": "y"})
        assert answer.status_code == 400
        assert ": they are two people" in answer.get_data(as_text=True)  # a shared table or the tournament
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert view.entrants[4].former[0]["player_id"] == replaced and view.names[5] == "Resi"


def test_a_bad_replacement_is_refused_and_changes_nothing(client, db):
    t = _tournament(db, n=8, deals=2)
    for data, said in (
        ({}, "choose a player of the roster or type a guest"),
        ({"guest": "spieler 1"}, "there is already a player called spieler 1"),
        ({"player": "abc"}, "Not a valid choice."),
    ):
        answer = client.post(f"/tournaments/{t.id}/entrants/5/replace", data=data)
        assert answer.status_code == 400 and said in answer.get_data(as_text=True)
    client.post(f"/tournaments/{t.id}/draw")
    record_hand(db=db, night_id=_table(db, t).night.id, hand=SAUSPIEL)
    answer = client.post(f"/tournaments/{t.id}/entrants/5/replace", data={"guest": "Resi"})
    assert answer.status_code == 409 and "Round 1 is being played" in answer.get_data(as_text=True)
    assert client.get(f"/tournaments/{t.id}/entrants/99/replace").status_code == 404
    db.rollback()
    assert tm.read_tournament(db=db, tournament_id=t.id).names[5] == "Spieler 5"


@pytest.mark.parametrize("reopened", [False, True])
def test_once_every_round_is_played_nobody_is_replaced(client, db, reopened):
    """A replacement after the final round took the winner's place, points and prize on the result list (the
    person who played was on it nowhere); it is refused, as a late entry is, also in a tournament reopened."""
    t = _tournament(db, n=8, rounds=1)
    client.post(f"/tournaments/{t.id}/draw")
    assert _paper(client, t, 1, [30, -10, -10, -10], [None] * 4).status_code == 302
    assert _paper(client, t, 2, [12, -12, 5, -5], [None] * 4).status_code == 302
    if reopened:
        assert client.post(f"/tournaments/{t.id}/close").status_code == 302
        assert client.post(f"/tournaments/{t.id}/reopen", data={"reason": "a typo"}).status_code == 302
    db.rollback()
    winner = _table(db, t, 1, 1).entrants[0].number
    answer = client.post(f"/tournaments/{t.id}/entrants/{winner}/replace?lang=de", data={"guest": "Zenzi"})
    assert answer.status_code == 409
    said = answer_text(answer)
    assert "Alle Runden sind gespielt: wer jetzt ersetzt wird, spielt keine mehr" in said, said
    db.rollback()
    assert tm.read_tournament(db=db, tournament_id=t.id).names[winner] == f"Spieler {winner}"


# --- 3c: the keyboard ---------------------------------------------------------------------------


def test_the_organisers_forms_work_from_the_keyboard(client, db):
    t = _tournament(db, n=8)
    answer = client.post(f"/tournaments/{t.id}/entrants", data={"guest": "Gustl"})
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert re.search(r'<select[^>]*autofocus[^>]*name="player"|<select[^>]*name="player"[^>]*autofocus', page)
    client.post(f"/tournaments/{t.id}/draw")
    paper = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper").get_data(as_text=True)
    fields = re.findall(r'<input[^>]*name="([pwl]\d)"', paper)
    assert fields == [f"{k}{i}" for i in range(1, 5) for k in "pwl"]  # one player's line after another
    assert re.search(r'<input[^>]*autofocus[^>]*name="p1"|<input[^>]*name="p1"[^>]*autofocus', paper)
    assert paper.index('type="submit"') < paper.index(">Cancel<")  # Enter and Tab reach saving first


# --- 3d, 3e: the standings on a phone; one meaning of "Soli 1/0" ------------------------------


def test_the_standings_say_solos_won_lost_and_give_a_phone_a_line_below_each_player(client, db):
    t = _tournament(db, n=8, deals=1, prizes=[5000])
    client.post(f"/tournaments/{t.id}/draw")
    record_hand(db=db, night_id=_table(db, t).night.id, hand=WENZ)
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    assert "won/lost" in page
    assert page.count('class="standings-detail') == 8 and "Solos won/lost 1/0" in page
    board = client.get(f"/tournaments/{t.id}/standings?board=1").get_data(as_text=True)
    assert "standings-detail" not in board  # the big screen as it was


def test_a_nights_summary_counts_won_and_lost_as_the_standings_do(client, db, players):
    from tests.support import start_night

    night = start_night(db, players, game="schafkopf", rules={"preset": "turnier"})
    record_hand(db=db, night_id=night.id, hand=WENZ)
    record_hand(db=db, night_id=night.id, hand={"contract": "wenz", "declarer": 3, "points": 40})
    page = client.get(f"/nights/{night.id}/summary").get_data(as_text=True)
    assert "won/lost" in page and ">1/1<" in page and ">1/2<" not in page


# --- 3f: a table's /join ---------------------------------------------------------------------------


def test_a_tournament_tables_join_page_and_message_speak_of_a_table(app, db, anon):
    t = _tournament(db, n=8)
    admin = make_user(app, "orga", "admin")
    signed_in(app, admin).post(f"/tournaments/{t.id}/draw")
    table = _table(db, t)
    anon.set_cookie("lang", "de")
    page = anon.get("/join?table=1").get_data(as_text=True)
    assert "Einem Tisch beitreten" in page and "Abend" not in page.split("<main", 1)[-1]
    answer = anon.post("/join?table=1", data={"code": table.night.join_code}, follow_redirects=True)
    said = answer.get_data(as_text=True)
    assert "Du bist Tisch 1 von Turnier (Runde 1) beigetreten" in said and "dem Abend beigetreten" not in said


def test_the_table_cards_qr_code_opens_the_tables_join_page(client, db, tmp_path):
    t = _tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    text = pdf_text(client.get(f"/tournaments/{t.id}/cards.pdf").data, tmp_path)
    assert "/join?table=1" in text.replace(" ", "")


def test_the_table_cards_join_address_is_never_broken_across_lines(client, db, app, tmp_path):
    app.config["PUBLIC_URL"] = "http://192.168.178.24:8000"
    t = _tournament(db, n=9)
    client.post(f"/tournaments/{t.id}/draw")
    text = pdf_text(client.get(f"/tournaments/{t.id}/cards.pdf").data, tmp_path)
    assert text.count("http://192.168.178.24:8000/join?table=1") == 2  # each card's address on one line


# --- 3g: the PDFs print money as the pages do ---------------------------------------------------


def test_the_tournament_pages_and_pdfs_print_the_clubs_currency(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'chf.db'}",
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "CURRENCY": "CHF",
        }
    )
    try:
        from scorekeeper.core import db as database

        with database.session(app.extensions["sk_engine"]) as db:
            # made in the club's currency, as the new-tournament page makes it (the core stores what it is given)
            t = _tournament(db, n=8, prizes=[5000], entry_fee_cents=1000, currency=app.config["CURRENCY"])
            client = signed_in(app, make_user(app, "orga", "admin"))
            client.set_cookie("lang", "en")
            assert "10.00\u00a0CHF" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
            assert "50.00\u00a0CHF" in client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
            results = pdf_text(client.get(f"/tournaments/{t.id}/results.pdf").data, tmp_path)
            assert "50.00 CHF" in results and not EURO.search(results)
    finally:
        app.extensions["sk_engine"].dispose()


# --- 3h: solos counted as each hand is recorded -----------------------------------------------------


def test_the_solos_are_stored_as_hands_are_recorded_and_the_standings_read_them(client, db):
    from scorekeeper.core import history

    t = _tournament(db, n=8, deals=4)
    client.post(f"/tournaments/{t.id}/draw")
    night_id = _table(db, t).night.id
    for hand in (WENZ, LOST_WENZ, SAUSPIEL):
        record_hand(db=db, night_id=night_id, hand=hand)

    def stored():
        db.rollback()
        return db.exec(select(TournamentTable.solos).where(TournamentTable.night_id == night_id)).one()

    assert stored() == [[0, 1], [0, 0], [1, 0], [0, 0]]
    assert stored() == history.solo_counts(load_table(db=db, night_id=night_id))
    undo_last(db=db, night_id=night_id)
    assert stored() == [[0, 1], [0, 0], [1, 0], [0, 0]]
    undo_last(db=db, night_id=night_id)
    assert stored() == [[0, 0], [0, 0], [1, 0], [0, 0]]
    # the standings read the stored counts, not the hands
    row = db.exec(select(TournamentTable).where(TournamentTable.night_id == night_id)).one()
    row.solos = [[7, 0], [0, 0], [0, 3], [0, 0]]
    db.add(row)
    db.commit()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    first = _table(db, t).entrants[0].number
    assert (_line(view, first).standing.solos_won, _line(view, first).standing.solos_lost) == (7, 0)


class _PostedPairs(HTMLParser):
    """Every (name, value) a browser posts for the first post form of a page, in order, repeats kept."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pairs: list[tuple[str, str]] = []
        self.state = "before"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.state == "before" and (a.get("method") or "").lower() == "post":
            self.state = "in"
        elif tag == "input" and self.state == "in" and a.get("name"):
            self.pairs.append((a["name"], a.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "form" and self.state == "in":
            self.state = "after"


def test_the_withdraw_page_posts_its_confirmation_once_and_withdraws(client, db):
    """Issue 25.3 (found by the browser test of a tournament day): the page's form posted ``confirm``
    twice, first empty, so the withdrawal confirmed on it was always refused."""
    t = _tournament(db, n=9, deals=1)
    reader = _PostedPairs()
    reader.feed(client.get(f"/tournaments/{t.id}/entrants/9/withdraw").get_data(as_text=True))
    assert [v for k, v in reader.pairs if k == "confirm"] == ["9"]
    done = client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data=MultiDict(reader.pairs))
    assert done.status_code == 302, done.get_data(as_text=True)
    db.rollback()
    assert _line(tm.read_tournament(db=db, tournament_id=t.id), 9).entrant.withdrawn_after == 0


# --- issue 24: a closed tournament is reopened by an admin, audited and visibly -------------------


def _closed(client, db):
    """A tournament of 8 over one round of one deal, every table done, closed."""
    t = _tournament(db, n=8, deals=1, rounds=1)
    client.post(f"/tournaments/{t.id}/draw")
    db.rollback()
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    assert client.post(f"/tournaments/{t.id}/close").status_code == 302
    db.expire_all()
    return t, tm.read_tournament(db=db, tournament_id=t.id)


def test_a_closed_tournament_freezes_its_tables_until_an_admin_reopens_it_with_a_reason(client, db):
    t, view = _closed(client, db)
    night = view.rounds[0].tables[0].night.id
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Reopen the tournament" in page and f"/tournaments/{t.id}/reopen" in page
    # a table of the closed tournament: reopening it is refused, the tournament first
    answer = client.post(f"/nights/{night}/reopen", data={"reason": "Tippfehler"}, follow_redirects=True)
    assert "the tournament is closed: an admin reopens the tournament first" in answer.get_data(as_text=True).lower()
    # no reason: refused in the page's words, nothing changes
    answer = client.post(f"/tournaments/{t.id}/reopen", data={"reason": "  "})
    assert answer.status_code == 400 and "give a reason" in answer.get_data(as_text=True).lower()
    answer = client.post(f"/tournaments/{t.id}/reopen", data={"reason": "x" * 201})
    assert answer.status_code == 400 and "at most 200 characters" in answer.get_data(as_text=True)
    db.expire_all()
    assert tm.get_tournament(db=db, tournament_id=t.id).status == "closed"
    answer = client.post(f"/tournaments/{t.id}/reopen", data={"reason": "Tisch 1 falsch abgeschrieben"})
    assert answer.status_code == 302
    db.rollback()
    reopened = tm.get_tournament(db=db, tournament_id=t.id)
    assert reopened.status == "open" and reopened.closed_at is None
    assert [r["reason"] for r in reopened.reopened] == ["Tisch 1 falsch abgeschrieben"]
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Reopened " in page and "Tisch 1 falsch abgeschrieben" in page and "Reopen the tournament" not in page
    german = client.get(f"/tournaments/{t.id}?lang=de").get_data(as_text=True)
    assert "Wieder geöffnet" in german
    # now a table can be reopened and corrected; an open tournament is not reopened again
    assert client.post(f"/nights/{night}/reopen", data={"reason": "Tippfehler"}).status_code == 302
    again = client.post(f"/tournaments/{t.id}/reopen?lang=en", data={"reason": "noch mal"})
    assert again.status_code == 409 and "The tournament is open" in again.get_data(as_text=True)


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_only_an_admin_reopens_a_tournament(client, db, as_role, role):
    t, _ = _closed(client, db)
    other = as_role(role)
    assert other.get(f"/tournaments/{t.id}/reopen").status_code == 403
    assert other.post(f"/tournaments/{t.id}/reopen", data={"reason": "weil"}).status_code == 403
    assert "Reopen the tournament" not in other.get(f"/tournaments/{t.id}").get_data(as_text=True)
    db.expire_all()
    assert tm.get_tournament(db=db, tournament_id=t.id).status == "closed"
    with pytest.raises(Conflict, match="only an admin"):
        tm.reopen_tournament(db=db, tournament_id=t.id, reason="weil", who=role)


def test_a_table_phone_polling_its_table_sees_the_replacement_in_the_drawn_seat(app, client, db):
    """Round 1 is drawn, the table's phone has joined and shows its table; before the first deal the organiser
    replaces a no-show by a guest, who takes the seat there. The phone's poll asks with the tag it last saw:
    the table's version moves with the seat, so it gets the live part naming the new person (not a 304)."""
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    table, *others = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables
    night_id, gone, name = table.night.id, table.entrants[0], table.names[0]
    untouched = {o.night.id: o.night.version for o in others}
    phone = app.test_client()
    assert phone.post("/join", data={"code": table.night.join_code}).status_code == 302
    seen = phone.get(f"/nights/{night_id}/live?lang=en")
    assert name in seen.get_data(as_text=True)
    form = form_values(client.get(f"/tournaments/{t.id}/entrants/{gone.number}/replace").get_data(as_text=True))
    form.update(player="", guest="Gustl Gast")
    assert client.post(f"/tournaments/{t.id}/entrants/{gone.number}/replace", data=form).status_code == 302
    poll = phone.get(f"/nights/{night_id}/live?lang=en", headers={"If-None-Match": seen.headers["ETag"]})
    assert poll.status_code == 200, "the phone is told nothing changed"
    assert "Gustl Gast" in poll.get_data(as_text=True)
    db.rollback()
    db.expire_all()
    assert {i: db.get(Night, i).version for i in untouched} == untouched  # no seat changed at the other tables
