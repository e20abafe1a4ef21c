"""The organiser's pages: creating a tournament, entering participants and guests, drawing rounds,
the tables' pages ("Spiel 3 von 32"), paper results, the standings (and their 304), the PDFs;
every form's bad input answered with a message on the page and nothing changed."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.players import create_player
from tests.support import EURO, answer_text, pdf_text
from tests.support_tournament import make_tournament

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
WENZ = {"contract": "wenz", "declarer": 3, "points": 61}


@pytest.fixture(autouse=True)
def english(client):
    """The admin's pages in English (German is the default)."""
    client.set_cookie("lang", "en")


FORM = {
    "name": "Preisschafkopf im Löwen",
    "game": "schafkopf",
    "played_on": "2026-11-20",
    "place": "Löwen",
    "rounds": "2",
    "deals": "4",
    "entry_fee": "10",
    "prizes": "100; 50; 25,50",
    "applied_preset": "turnier",
    "schafkopf__preset": "turnier",
}


def _form_with_rules(client, **changes):
    """The new-tournament form as a browser posts it: every option as the page shows it."""
    from tests.support import form_values

    page = client.get("/tournaments/new")
    assert page.status_code == 200
    values = form_values(page.get_data(as_text=True))
    values.update(FORM)
    values.update(changes)
    return values


def _tournament(db, n=9, deals=2):
    return make_tournament(db, n, deals=deals)


def test_the_organiser_creates_a_tournament_with_the_turnier_preset(client, db):
    answer = client.post("/tournaments/new", data=_form_with_rules(client))
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    (t,) = tm.list_tournaments(db=db)
    assert t.name == "Preisschafkopf im Löwen" and t.deals == 4 and t.rounds == 2
    assert t.rules["preset"] == "turnier" and t.rules["tariff_sauspiel"] == 1 and t.rules["all_pass"] == "redeal"
    assert t.entry_fee_cents == 1000 and t.prizes == [10000, 5000, 2550]
    page = client.get(answer.location).get_data(as_text=True)
    assert "Preisschafkopf im Löwen" in page


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"name": ""}, "Give the tournament a name."),
        ({"rounds": "0"}, "Number must be between 1 and 20."),
        ({"deals": "x"}, "Not a valid integer value."),
        ({"entry_fee": "zehn"}, "Enter the entry fee as an amount such as 10,00"),
        ({"prizes": "100; viel"}, "Enter the prizes as amounts separated by ;"),
        ({"prizes": "100;;25"}, "Enter the prizes as amounts separated by ;"),  # was [100, 25]: 25 for second
        ({"schafkopf__tariff_solo": "-1"}, "between 0 and 1000"),
        ({"game": "matt"}, "Not a valid choice."),
    ],
)
def test_a_bad_tournament_form_says_what_is_wrong_and_creates_nothing(client, db, changes, said):
    answer = client.post("/tournaments/new", data=_form_with_rules(client, **changes))
    assert answer.status_code == 400
    assert said in answer.get_data(as_text=True)
    assert tm.list_tournaments(db=db) == []


def test_the_german_form_says_its_refusals_in_german(client, db):
    answer = client.post("/tournaments/new?lang=de", data=_form_with_rules(client, name=""))
    assert answer.status_code == 400
    assert "Gib dem Turnier einen Namen." in answer.get_data(as_text=True) or "Turnier" in answer.get_data(as_text=True)


def test_participants_from_the_roster_and_guests(client, db):
    t = _tournament(db, n=2)
    anna = create_player(db=db, name="Anna")
    assert client.post(f"/tournaments/{t.id}/entrants", data={"player": str(anna.id)}).status_code == 302
    assert client.post(f"/tournaments/{t.id}/entrants", data={"guest": "Gast Gustl"}).status_code == 302
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert [view.names[e.number] for e in view.entrants] == ["Spieler 1", "Spieler 2", "Anna", "Gast Gustl"]
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Gast Gustl" in page and "guest" in page


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({}, "choose a player of the roster or type a guest"),
        ({"guest": "spieler 1"}, "there is already a player called spieler 1"),
        ({"player": "abc"}, "Not a valid choice."),
        ({"player": "99999"}, "there is no player 99999"),
        ({"guest": "x" * 41}, "Field cannot be longer than 40 characters."),
    ],
)
def test_a_bad_participant_is_refused_on_the_page(client, db, data, said):
    t = _tournament(db, n=2)
    answer = client.post(f"/tournaments/{t.id}/entrants", data=data)
    assert answer.status_code == 400
    assert said in answer.get_data(as_text=True)
    assert len(tm.read_tournament(db=db, tournament_id=t.id).entrants) == 2


def test_drawing_a_round_makes_tables_with_codes_and_their_pages_count_the_deals(client, db):
    t = _tournament(db, n=9, deals=2)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    view = tm.read_tournament(db=db, tournament_id=t.id)
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    for table in view.rounds[0].tables:
        assert table.night.join_code in page
    night_id = view.rounds[0].tables[0].night.id
    assert "Hand 1 of 2" in client.get(f"/nights/{night_id}").get_data(as_text=True)
    record_hand(db=db, night_id=night_id, hand={"contract": "rundpass"})
    assert "Hand 1 of 2" in client.get(f"/nights/{night_id}").get_data(as_text=True)  # a redeal does not count
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    assert "Hand 2 of 2" in client.get(f"/nights/{night_id}").get_data(as_text=True)
    assert "Spiel 2 von 2" in client.get(f"/nights/{night_id}?lang=de").get_data(as_text=True)
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    page = client.get(f"/nights/{night_id}?lang=en").get_data(as_text=True)
    assert "2 of 2 played" in page


def test_a_round_is_not_drawn_while_the_last_is_being_played(client, db):
    t = _tournament(db, n=8, deals=2)
    client.post(f"/tournaments/{t.id}/draw")
    answer = client.post(f"/tournaments/{t.id}/draw")
    assert answer.status_code == 409
    assert "Round 1 is not over" in answer.get_data(as_text=True)
    assert len(tm.read_tournament(db=db, tournament_id=t.id).rounds) == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A table's points must add up to zero: these add up to 5"),
        ("de", "Die Punkte eines Tisches müssen zusammen null ergeben: diese ergeben 5"),
    ],
)
def test_a_refusal_above_a_form_is_a_sentence_of_its_own(client, db, lang, said):
    """The core says a refusal in lower case, as part of a sentence; above a form it stands alone
    (templates/_macros/forms.html, form_errors): it begins with a capital letter."""
    t = _tournament(db, n=8, deals=32)
    client.post(f"/tournaments/{t.id}/draw")
    url = f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}"
    answer = client.post(url, data={"p1": "10", "p2": "-5", "p3": "0", "p4": "0"})
    above = re.search(r'<div class="errors form-errors" role="alert">(.*?)</div>', answer.get_data(as_text=True), re.S)
    assert answer.status_code == 400 and above is not None
    assert html.unescape(re.sub(r"<[^>]+>", "", above.group(1))).strip() == said


def test_paper_points_that_do_not_sum_to_zero_are_refused(client, db):
    t = _tournament(db, n=8, deals=32)
    client.post(f"/tournaments/{t.id}/draw")
    url = f"/tournaments/{t.id}/rounds/1/tables/1/paper"
    assert client.get(url).status_code == 200
    answer = client.post(url, data={"p1": "10", "p2": "-5", "p3": "0", "p4": "0"})
    assert answer.status_code == 400 and "add up to zero: these add up to 5" in answer.get_data(as_text=True)
    answer = client.post(url, data={"p1": "10", "p2": "zehn", "p3": "0", "p4": "0"})
    assert answer.status_code == 400 and "Not a valid integer value." in answer.get_data(as_text=True)
    assert tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].paper is False
    assert client.post(url, data={"p1": "10", "p2": "-5", "p3": "-5", "p4": "0"}).status_code == 302
    db.rollback()  # see what the request committed
    assert tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].points == [10, -5, -5, 0]
    assert client.get(f"/tournaments/{t.id}/rounds/1/tables/9/paper").status_code == 404


def test_the_standings_answer_304_until_a_table_changes(client, db):
    t = _tournament(db, n=8, deals=2)
    client.post(f"/tournaments/{t.id}/draw")
    first = client.get(f"/tournaments/{t.id}/standings?board=1")
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert client.get(f"/tournaments/{t.id}/standings?board=1", headers={"If-None-Match": tag}).status_code == 304
    view = tm.read_tournament(db=db, tournament_id=t.id)
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=WENZ)
    again = client.get(f"/tournaments/{t.id}/standings?board=1", headers={"If-None-Match": tag})
    assert again.status_code == 200
    page = again.get_data(as_text=True)
    assert "+15" in page and "1/0" in page


def test_withdrawing_and_closing(client, db):
    t = _tournament(db, n=9, deals=1)
    assert client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "9"}).status_code == 302
    assert client.post(f"/tournaments/{t.id}/entrants/99/withdraw").status_code == 400
    answer = client.post(f"/tournaments/{t.id}/close")
    assert answer.status_code == 409 and "not over" in answer.get_data(as_text=True)


def test_table_cards_and_the_result_list_as_pdf(client, db, tmp_path):
    t = _tournament(db, n=9, deals=1)
    t.prizes = [5000, 2000]
    db.add(t)
    db.commit()
    assert client.get(f"/tournaments/{t.id}/cards.pdf").status_code == 409  # no round drawn
    client.post(f"/tournaments/{t.id}/draw")
    view = tm.read_tournament(db=db, tournament_id=t.id)
    for table in view.rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    cards = client.get(f"/tournaments/{t.id}/cards.pdf")
    assert cards.headers["Content-Type"] == "application/pdf"
    text = pdf_text(cards.data, tmp_path)
    assert "Table 1" in text and "Table 2" in text and "Seating list, round 1" in text
    for table in view.rounds[0].tables:
        assert table.night.join_code in text.replace(" ", "")  # kept after the table closed; spaced out in print
    results = pdf_text(client.get(f"/tournaments/{t.id}/results.pdf").data, tmp_path)
    assert "Result list" in results and "Prize list" in results and "50.00" in results.replace(",", ".")


def test_tournaments_are_listed_and_unknown_ones_are_404(client, db):
    _tournament(db, n=0)
    assert "Turnier" in client.get("/tournaments/").get_data(as_text=True)
    assert client.get("/tournaments/999").status_code == 404
    assert client.get("/tournaments/999/standings").status_code == 404


def test_a_viewer_reads_but_cannot_organise(app, db, as_role):
    t = _tournament(db, n=4)
    viewer = as_role("viewer")
    assert viewer.get(f"/tournaments/{t.id}").status_code == 200
    assert viewer.get(f"/tournaments/{t.id}/standings").status_code == 200
    assert viewer.post(f"/tournaments/{t.id}/draw").status_code == 403
    assert viewer.get("/tournaments/new").status_code == 403


def test_a_players_page_lists_the_tournaments_played_with_rank_and_points(client, db):
    t = _tournament(db, n=8, deals=1)
    client.post(f"/tournaments/{t.id}/draw")
    view = tm.read_tournament(db=db, tournament_id=t.id)
    for table in view.rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    winner = tm.read_tournament(db=db, tournament_id=t.id).standings[0]
    page = client.get(f"/players/{winner.entrant.player_id}").get_data(as_text=True)
    assert "Turnier" in page and "rank 1 of 8" in page and "+15" in page
    assert "never money" in page


def test_the_rules_change_until_round_one_starts(client, db):
    from tests.support import form_values

    t = _tournament(db, n=8, deals=2)
    page = client.get(f"/tournaments/{t.id}/rules")
    assert page.status_code == 200
    values = form_values(page.get_data(as_text=True))
    assert values["schafkopf__tariff_solo"] == "5"
    bad = client.post(f"/tournaments/{t.id}/rules", data=values | {"schafkopf__tariff_solo": "-3"})
    assert bad.status_code == 400 and "between 0 and 1000" in bad.get_data(as_text=True)
    assert client.post(f"/tournaments/{t.id}/rules", data=values | {"schafkopf__tariff_solo": "6"}).status_code == 302
    db.rollback()
    db.expire_all()  # the tournament this session holds: read again
    assert tm.get_tournament(db=db, tournament_id=t.id).rules["tariff_solo"] == 6
    client.post(f"/tournaments/{t.id}/draw")
    db.rollback()
    view = tm.read_tournament(db=db, tournament_id=t.id)
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=SAUSPIEL)
    late = client.post(f"/tournaments/{t.id}/rules", data=values)
    assert late.status_code == 409 and "the rules are fixed" in late.get_data(as_text=True)


def test_a_turnier_tables_hand_form_asks_for_no_knocks_and_no_runners(client, db):
    t = _tournament(db, n=8, deals=2)
    client.post(f"/tournaments/{t.id}/draw")
    db.rollback()
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    page = client.get(f"/nights/{night_id}/hands/new").get_data(as_text=True)
    assert 'name="klopfen"' not in page and 'name="laufende"' not in page
    assert 'name="points"' in page
    answer = client.post(
        f"/nights/{night_id}/hands/new",
        data={
            "contract": "sauspiel",
            "declarer": "1",
            "partner": "2",
            "suit": "eichel",
            "points": "70",
            "action": "save",
        },
    )
    assert answer.status_code in (302, 303)


def test_tournaments_are_listed_beside_the_nights_and_their_tables_are_not_nights(client, db):
    t = _tournament(db, n=8, deals=1)
    client.post(f"/tournaments/{t.id}/draw")
    page = client.get("/nights/").get_data(as_text=True)
    assert "Turnier" in page and f"/tournaments/{t.id}" in page and "All tournaments" in page
    db.rollback()
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    assert f'href="/nights/{night_id}"' not in page


def test_the_result_list_pdf_writes_money_as_the_standings_page_does(client, db, tmp_path):
    """Issue 25: one way to write money: the PDF's prizes read as the page's (the club's currency setting)."""
    t = _tournament(db, n=9, deals=1)
    t.prizes = [5000, 2550]
    db.add(t)
    db.commit()
    client.post(f"/tournaments/{t.id}/draw")
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    page = client.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    shown = [re.sub(r"\s+", " ", cell).strip() for cell in re.findall(r'class="num prize">([^<]+)<', page)]
    assert len(shown) == 2 and all(any(ch.isalpha() for ch in cell) for cell in shown), shown  # amount and currency
    printed = re.sub(r"\s+", " ", pdf_text(client.get(f"/tournaments/{t.id}/results.pdf").data, tmp_path))
    for cell in shown:
        assert cell in printed


def played_table(client, db) -> int:
    """A drawn Schafkopf tournament's table 1 with one deal recorded (a Sauspiel won): its night id."""
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    return night_id


@pytest.mark.parametrize("lang, which", [("de", "Runde 1 · Tisch 1"), ("en", "Round 1 · Table 1")])
def test_a_tournament_tables_page_names_its_tournament_linked_for_an_account_never_for_a_guest(
    app, client, db, lang, which
):
    """The table page's head says which table it is (templates/_macros/tournament.html, as the table's PDF and the
    score sheets do): the tournament's name links to the tournament for an account that may see it; a table's
    guest, who may not, reads the name alone."""
    night_id = played_table(client, db)
    (t,) = tm.list_tournaments(db=db)
    link = f'<a href="/tournaments/{t.id}">{html.escape(t.name, quote=False)}</a>'
    page = client.get(f"/nights/{night_id}?lang={lang}").get_data(as_text=True)
    assert f"· {link} · {which}\n" in page
    guest = app.test_client()
    code = db.get(Night, night_id).join_code
    assert guest.post("/join", data={"code": code}).status_code == 302
    page = guest.get(f"/nights/{night_id}?lang={lang}").get_data(as_text=True)
    assert f"· {html.escape(t.name, quote=False)} · {which}\n" in page and f"/tournaments/{t.id}" not in page


def test_a_tournament_tables_settlement_shows_points_never_money(client, db):
    """Never money (docs/tournaments.md): the table's settlement stands each player with points, no stake, no
    money column, no who-pays-whom, no chart of money, nor money in the text it shares."""
    night_id = played_table(client, db)
    page = answer_text(client.get(f"/nights/{night_id}/summary?lang=de"))
    assert not EURO.search(page), "the settlement of a tournament table speaks of money"
    assert "Wer zahlt wem" not in page and "Einsatz" not in page and "Geld" not in page
    # the Sauspiel, worth 1 under the turnier preset, as points
    assert "Spieler Punkte" in page and "+1" in page and "-1" in page
    assert "Punkte jedes Spielers nach jedem Spiel" in page  # the chart counts points, not money


def test_a_tournament_tables_hand_rows_show_points_never_money(client, db):
    """The table page's balance says points, and so does each hand's row, opened: "+1", never "0,00 EUR"."""
    night_id = played_table(client, db)
    page = answer_text(client.get(f"/nights/{night_id}?lang=de"))
    assert "Punkte" in page and "+1" in page
    assert not EURO.search(page), "a tournament table's hand rows speak of money"


@pytest.mark.parametrize("path", ["", "/close", "/summary", "/change"])
@pytest.mark.parametrize(
    ("lang", "table_word", "night_word"), [("de", "Tisch", r"\bAbends?\b"), ("en", "table", r"\bnight\b")]
)
def test_a_tournament_tables_pages_speak_of_the_table_not_of_a_night(client, db, path, lang, table_word, night_word):
    """A tournament's table is a "Tisch", a "table" (docs/architecture.md, one word for one thing), as its join
    page and the outbox say: its page with the join panel, its closing and its settlement never speak of a
    night ("Abend abschließen?", "bis der Abend abgeschlossen ist", "Der Abend in Zahlen", "Datum oder Ort des
    Abends berichtigen")."""
    night_id = played_table(client, db)
    page = answer_text(client.get(f"/nights/{night_id}{path}?lang={lang}"))
    assert table_word.lower() in page.lower()
    said = re.findall(rf".{{0,40}}{night_word}.{{0,40}}", page, re.I)
    assert not said, said


def test_a_closed_tournament_table_is_reopened_as_a_table(client, db):
    """The organiser closes a table early; its settlement offers "Tisch wieder öffnen", whose page and message
    speak of the table, never of a night."""
    from tests.support import form_values

    night_id = played_table(client, db)
    close = client.get(f"/nights/{night_id}/close?lang=de")
    assert (
        client.post(f"/nights/{night_id}/close?lang=de", data=form_values(close.get_data(as_text=True))).status_code
        == 302
    )
    summary = answer_text(client.get(f"/nights/{night_id}/summary?lang=de"))
    page = client.get(f"/nights/{night_id}/reopen?lang=de")
    reopened = client.post(
        f"/nights/{night_id}/reopen?lang=de",
        data={**form_values(page.get_data(as_text=True)), "reason": "Spiel 2 falsch eingetragen"},
        follow_redirects=True,
    )
    assert "Tisch wieder öffnen" in summary and not re.search(r"\bAbends?\b", summary)
    assert "Änderungen des Tisches" in answer_text(page) and not re.search(r"\bAbends?\b", answer_text(page))
    assert "Der Tisch ist wieder offen." in answer_text(reopened)


@pytest.mark.parametrize(
    ("lang", "said", "night_word"),
    [
        ("de", "Datum und Ort des Tisches sind gespeichert.", r"\bAbends?\b"),
        ("en", "The table's date and place are saved.", r"\bnight\b"),
    ],
)
def test_a_tournament_tables_date_and_place_are_saved_as_the_tables(client, db, lang, said, night_word):
    """The admin corrects a table's date and place: the message that it is saved names the table."""
    from tests.support import form_values

    night_id = played_table(client, db)
    page = client.get(f"/nights/{night_id}/change?lang={lang}")
    data = {**form_values(page.get_data(as_text=True)), "played_on": "2026-11-21", "place": "Löwen, Saal"}
    answer = client.post(f"/nights/{night_id}/change?lang={lang}", data=data, follow_redirects=True)
    text = answer_text(answer)
    assert said in text
    assert not re.findall(rf".{{0,40}}{night_word}.{{0,40}}", text, re.I)
    db.rollback()
    db.expire_all()
    night = db.get(Night, night_id)
    assert (night.played_on.isoformat(), night.place) == ("2026-11-21", "Löwen, Saal")


def test_a_closed_tournaments_table_keeps_its_date_and_place(client, db):
    """A closed tournament freezes its tables: "nothing changes; reopen the tournament first"
    (docs/architecture.md, "A night's life"), their date and place included."""
    t = make_tournament(db, n=4, rounds=1, deals=1)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    record_hand(db=db, night_id=night_id, hand={"contract": "wenz", "declarer": 3, "points": 61})  # its one deal
    tm.close_tournament(db=db, tournament_id=t.id)
    db.rollback()
    before = (db.get(Night, night_id).played_on, db.get(Night, night_id).place, db.get(Night, night_id).version)
    assert "/change" not in client.get(f"/nights/{night_id}").get_data(as_text=True)  # not offered
    page = client.get(f"/nights/{night_id}/change?lang=en")
    assert page.status_code == 302  # its form does not open: back to the table, which says why
    assert "The tournament is closed: its tables are final" in answer_text(client.get(page.location))
    answer = client.post(f"/nights/{night_id}/change?lang=en", data={"played_on": "2026-01-02", "place": "Anderswo"})
    assert answer.status_code == 409
    assert "The tournament is closed: its tables are final" in answer_text(answer)
    db.rollback()
    db.expire_all()
    night = db.get(Night, night_id)
    assert (night.played_on, night.place, night.version) == before, f"a frozen table changed ({answer.status_code})"


def test_a_table_phone_is_told_when_the_organiser_changes_the_rules_of_its_drawn_table(client, db):
    """Round 1 is drawn; the phone of table 1 has its table open (the hand form offers no Ramsch: the
    turnier preset deals an all-pass again) and polls it. Before the first deal the organiser changes
    the rules to play a Ramsch (allowed: round 1 has not started; its drawn tables play the new rules):
    the table's version moves, so the phone's poll brings the change. Before: the version stayed, the
    live part answered 304 and the phone kept a form for the old rules."""
    t = make_tournament(db, 8, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    page = client.get(f"/nights/{night_id}/hands/new?lang=en").get_data(as_text=True)
    assert 'value="ramsch"' not in page
    seen = client.get(f"/nights/{night_id}/version").get_json()["version"]
    live = client.get(f"/nights/{night_id}/live")
    tag = live.headers["ETag"]

    tm.set_rules(db=db, tournament_id=t.id, rules={"preset": "turnier", "all_pass": "ramsch"})

    assert 'value="ramsch"' in client.get(f"/nights/{night_id}/hands/new?lang=en").get_data(
        as_text=True
    )  # the rules did change
    assert client.get(f"/nights/{night_id}/live", headers={"If-None-Match": tag}).status_code == 200
    assert client.get(f"/nights/{night_id}/version").get_json()["version"] > seen


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "the only round is drawn: a participant entered now would play none"),
        ("de", "die einzige Runde ist ausgelost: wer jetzt angemeldet wird, spielt keine mehr"),
    ],
)
def test_once_every_round_is_drawn_the_page_offers_no_entry_and_a_late_one_is_refused(client, db, lang, refusal):
    t = make_tournament(db, 8, rounds=1)
    assert 'action="/tournaments/1/entrants"' in client.get(f"/tournaments/{t.id}?lang={lang}").get_data(as_text=True)
    tm.draw_round(db=db, tournament_id=t.id)
    page = client.get(f"/tournaments/{t.id}?lang={lang}").get_data(as_text=True)
    assert f'action="/tournaments/{t.id}/entrants"' not in page
    late = create_player(db=db, name="Zu Spät")
    answer = client.post(f"/tournaments/{t.id}/entrants?lang={lang}", data={"player": str(late.id)})
    assert answer.status_code == 409
    assert refusal[0].upper() + refusal[1:] in html.unescape(answer.get_data(as_text=True))
    db.rollback()
    assert len(tm.read_tournament(db=db, tournament_id=t.id).entrants) == 8


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A tournament's table carries its pot to no night."),
        ("de", "Der Tisch eines Turniers gibt seinen Stock an keinen Abend weiter."),
    ],
)
def test_a_tournament_tables_pot_is_carried_to_no_club_night(client, db, lang, said):
    """A tournament played with the pot carried: its table's pot goes to no night (core/nights.py: a table takes
    no pot and gives none), and its settlement says so (it said "Carried to the club's next night")."""
    rules = {"preset": "turnier", "all_pass": "pot", "pot_at_close": "carry"}
    t = tm.create_tournament(db=db, name="Stock", game="schafkopf", rules=rules, deals=2, seed="s")
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    record_hand(db=db, night_id=night_id, hand={"contract": "rundpass"})
    page = answer_text(client.get(f"/nights/{night_id}/summary?lang={lang}"))
    assert said in page
    assert "Carried to the club's next night." not in page and "Geht in den nächsten Abend des Vereins." not in page


@pytest.mark.parametrize(
    ("lang", "said", "wrong"), [("en", "1 deal each", "1 deals each"), ("de", "je 1 Spiel", "je 1 Spiele")]
)
def test_a_tournament_of_one_deal_a_table_says_it_in_the_singular(client, db, lang, said, wrong):
    t = make_tournament(db, n=8, deals=1)
    for path in (f"/tournaments/{t.id}", "/tournaments/"):
        page = answer_text(client.get(f"{path}?lang={lang}"))
        assert said in page and wrong not in page, path


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [("en", "Round 1 · Table 1", "Round 1 · Table 2"), ("de", "Runde 1 · Tisch 1", "Runde 1 · Tisch 2")],
)
def test_a_phone_at_two_tables_names_each_in_its_menu_by_its_round_and_number(
    app, client, db, players, lang, first, second
):
    """The menu of a phone that joined tables listed "Night" once per table ("Abend Abend"): a table is named as
    its page names it; a club night joined too stays "Night"."""
    from tests.support import start_night

    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    db.rollback()
    tables = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables
    club = start_night(db, players)
    phone = app.test_client()
    for code in (tables[0].night.join_code, tables[1].night.join_code, club.join_code):
        assert phone.post("/join", data={"code": code}).status_code == 302
    page = phone.get(f"/nights/{tables[0].night.id}?lang={lang}").get_data(as_text=True)
    menu = re.findall(r'<a href="/nights/(\d+)">([^<]+)</a>', page[page.index("<nav") : page.index("</nav>")])
    night = "Night" if lang == "en" else "Abend"
    assert menu == [(str(tables[0].night.id), first), (str(tables[1].night.id), second), (str(club.id), night)]
