"""A table's points from paper, the defects found on tournament day: a round whose table had paper
points (cleared again too) has started; a paper form opened before its round was drawn again is
refused; solo counts no table could have are refused; clearing asks first. Every refusal is said in
English and German and changes nothing."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.core.models import AuditEntry, Night, Player
from tests.support import answer_text, field_errors, form_values, page_text, snapshot
from tests.support_tournament import make_tournament


def _paper(client, t, table, points, round_number=1, lang="en", extra=None):
    data = {f"p{i}": str(p) for i, p in enumerate(points, start=1)} | (extra or {})
    return client.post(f"/tournaments/{t.id}/rounds/{round_number}/tables/{table}/paper?lang={lang}", data=data)


def _view(db, t) -> tm.TournamentView:
    db.rollback()
    return tm.read_tournament(db=db, tournament_id=t.id)


def _cleared_round(client, db, t):
    """Round 1 drawn, table 1's paper points typed and cleared again (nothing else at any table)."""
    client.post(f"/tournaments/{t.id}/draw")
    assert _paper(client, t, 1, [12, -12, 5, -5]).status_code == 302
    tm.clear_paper(db=db, tournament_id=t.id, round_number=1, table=1)
    return _view(db, t).rounds[0].tables[0].night.id


def _audit(db, night_id) -> list[tuple[str, dict | None]]:
    db.rollback()
    return [(a.action, a.after) for a in db.exec(select(AuditEntry).where(AuditEntry.night_id == night_id))]


STARTED = {
    "redraw": {"en": "Round 1 has started: it cannot be drawn again", "de": "Runde 1 hat begonnen"},
    "rules": {
        "en": "Round 1 has started: the rules are fixed for the whole tournament",
        "de": "Runde 1 hat begonnen: die Regeln gelten fest für das ganze Turnier",
    },
    "withdraw": {"en": "Round 1 is being played", "de": "Runde 1 wird gespielt"},
}


def test_a_round_whose_paper_points_were_cleared_has_started_and_its_page_says_so(client, db):
    t = make_tournament(db, n=8)
    _cleared_round(client, db, t)
    view = _view(db, t)
    assert view.rounds[0].started and view.started
    page = client.get(f"/tournaments/{t.id}?lang=en").get_data(as_text=True)
    assert "Draw round 1 again" not in page
    assert "House rules" not in page  # the rules are fixed
    assert "Round 1 is being played." in page
    rules = client.get(f"/tournaments/{t.id}/rules?lang=en")
    assert "Round 1 has started: the rules are fixed" in answer_text(rules)
    assert "Save the rules" not in answer_text(rules)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_after_a_clear_the_round_is_not_drawn_again_and_keeps_the_audit_trail(client, db, lang):
    t = make_tournament(db, n=8)
    night_id = _cleared_round(client, db, t)
    audit = _audit(db, night_id)
    assert ("reopen", {"why": "paper cleared", "paper": [12, -12, 5, -5], "solos": [None] * 4}) in audit
    before = snapshot(db)
    answer = client.post(f"/tournaments/{t.id}/draw?lang={lang}", data={"again": "1"})
    assert answer.status_code == 409
    assert STARTED["redraw"][lang] in answer_text(answer)
    assert snapshot(db) == before
    assert _audit(db, night_id) == audit and db.get(Night, night_id) is not None


@pytest.mark.parametrize("lang", ["en", "de"])
def test_after_a_clear_a_withdrawal_does_not_draw_the_round_again(client, db, lang):
    t = make_tournament(db, n=9)  # a table of five: a withdrawal would leave tables of four
    night_id = _cleared_round(client, db, t)
    before = snapshot(db)
    answer = client.post(f"/tournaments/{t.id}/entrants/9/withdraw?lang={lang}", data={"confirm": "9"})
    assert answer.status_code == 409
    assert STARTED["withdraw"][lang] in answer_text(answer)
    assert snapshot(db) == before
    assert any(after and after.get("why") == "paper cleared" for _, after in _audit(db, night_id))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_after_a_clear_the_rules_are_fixed(client, db, lang):
    t = make_tournament(db, n=8)
    _cleared_round(client, db, t)
    rules = dict(t.rules)
    before = snapshot(db)
    with pytest.raises(Conflict, match="round 1 has started: the rules are fixed"):
        tm.set_rules(db=db, tournament_id=t.id, rules={**rules, "tariff_solo": 9})
    db.rollback()
    answer = client.post(
        f"/tournaments/{t.id}/rules?lang={lang}",
        data={"game": "schafkopf", "applied_preset": "turnier", "schafkopf__preset": "turnier"}
        | {f"schafkopf__{k}": str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.items()}
        | {"schafkopf__tariff_solo": "9"},
    )
    assert answer.status_code == 409, answer_text(answer)
    assert STARTED["rules"][lang] in answer_text(answer)
    assert snapshot(db) == before
    assert tm.get_tournament(db=db, tournament_id=t.id).rules["tariff_solo"] == rules["tariff_solo"]


STALE = {
    "drawn": {
        "en": "Table 1 was drawn again meanwhile: nothing was saved, its new players are on the form",
        "de": "Tisch 1 wurde inzwischen neu ausgelost: nichts wurde gespeichert, seine neuen Spieler",
    },
    "replaced": {
        "en": "The players of table 1 changed meanwhile: nothing was saved, they are on the form now",
        "de": "Die Spieler von Tisch 1 haben sich inzwischen geändert: nichts wurde gespeichert, sie stehen",
    },
}


def _names_on(page: str) -> list[str]:
    return [page_text(m) for m in re.findall(r"<legend>(.*?)</legend>", page, re.S)]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_paper_form_opened_before_its_round_was_drawn_again_is_refused(client, db, lang):
    t = make_tournament(db, n=9)
    client.post(f"/tournaments/{t.id}/draw")
    opened = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper")
    data = form_values(opened.get_data(as_text=True))
    assert data["night_uid"] == _view(db, t).rounds[0].tables[0].night.uid
    names = _names_on(opened.get_data(as_text=True))
    assert client.post(f"/tournaments/{t.id}/entrants/9/withdraw", data={"confirm": "9"}).status_code == 302
    table = _view(db, t).rounds[0].tables[0]  # drawn again without start number 9
    assert table.names != [n.split(" ", 1)[1] for n in names]
    before = snapshot(db)
    data |= {"p1": "20", "p2": "-20", "p3": "5", "p4": "-5"}
    answer = client.post(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}", data=data)
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert STALE["drawn"][lang] in page_text(page)
    assert snapshot(db) == before
    assert [n.split(" ", 1)[1] for n in _names_on(page)] == table.names  # the form again, its new players named
    again = form_values(page)
    assert again["night_uid"] == table.night.uid and again["p1"] == ""
    answer = client.post(
        f"/tournaments/{t.id}/rounds/1/tables/1/paper", data=again | {"p1": "2", "p2": "-2", "p3": "0", "p4": "0"}
    )
    assert answer.status_code == 302  # that form saves
    assert _view(db, t).rounds[0].tables[0].points == [2, -2, 0, 0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_paper_form_opened_before_another_person_took_a_seat_is_refused(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    data = form_values(client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper").get_data(as_text=True))
    seated = _view(db, t).rounds[0].tables[0].entrants[0].number
    answer = client.post(f"/tournaments/{t.id}/entrants/{seated}/replace", data={"player": "", "guest": "Xaver"})
    assert answer.status_code == 302
    before = snapshot(db)
    answer = client.post(
        f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang={lang}",
        data=data | {"p1": "20", "p2": "-20", "p3": "5", "p4": "-5"},
    )
    assert answer.status_code == 409
    assert STALE["replaced"][lang] in answer_text(answer)
    assert snapshot(db) == before
    assert "Xaver" in _names_on(answer.get_data(as_text=True))[0]
    with pytest.raises(Conflict, match="the players of table 1 changed meanwhile"):
        tm.enter_paper(
            db=db, tournament_id=t.id, round_number=1, table=1, points=[1, -1, 0, 0], player_ids=[1, 2, 3, 4]
        )


SOLOS = {
    "table": {
        "en": "The solos of all players together may not exceed 4, one per deal: these are 16",
        "de": "Die Soli aller Spieler dürfen zusammen 4 nicht überschreiten, eines pro Spiel: hier sind es 16",
    },
    "each": {
        "en": "A player's solos won and lost together may not exceed 8",
        "de": "Gewonnene und verlorene Soli eines Spielers dürfen zusammen 8 nicht überschreiten",
    },
    "word": {"en": "Not a valid integer value.", "de": "Keine gültige, ganze Zahl."},
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_more_solos_at_a_table_than_its_deals_are_refused(client, db, lang):
    t = make_tournament(db, n=8, deals=4)
    client.post(f"/tournaments/{t.id}/draw")
    before = snapshot(db)
    for key in "wl":
        solos = {f"{k}{i}": ("4" if k == key else "0") for i in range(1, 5) for k in "wl"}
        answer = _paper(client, t, 1, [5, -5, 0, 0], lang=lang, extra=solos)
        assert answer.status_code == 400
        assert SOLOS["table"][lang] in answer_text(answer)
    assert snapshot(db) == before
    with pytest.raises(InvalidInput, match="the solos of all players together may not exceed 4"):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[0] * 4, solos=[[1, 1]] * 4)
    db.rollback()
    assert _paper(client, t, 1, [5, -5, 0, 0], extra={"w1": "2", "l2": "1", "w3": "1"}).status_code == 302


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_players_solos_beyond_the_deals_and_a_word_as_points_are_said_once_at_their_field(client, db, lang):
    t = make_tournament(db, n=8, deals=8)
    client.post(f"/tournaments/{t.id}/draw")
    before = snapshot(db)
    answer = _paper(client, t, 1, [5, -5, 0, 0], lang=lang, extra={"w1": "5", "l1": "5"})
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "l1") == SOLOS["each"][lang]
    answer = _paper(client, t, 1, ["zwölf", -12, 0, 0], lang=lang)
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "p1") == SOLOS["word"][lang]  # no range error besides
    assert snapshot(db) == before
    with pytest.raises(InvalidInput, match="a player's solos won and lost together may not exceed 8"):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[0] * 4, solos=[[5, 5], *[None] * 3])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_clearing_a_tables_paper_points_asks_first_naming_the_table_and_its_players(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    assert _paper(client, t, 2, [12, -12, 5, -5]).status_code == 302
    table = _view(db, t).rounds[0].tables[1]
    before = snapshot(db)
    paper = f"/tournaments/{t.id}/rounds/1/tables/2/paper"
    answer = client.post(f"{paper}?lang={lang}", data={"clear": "1"})  # the paper form's button of before
    assert answer.status_code == 302 and answer.headers["Location"].startswith(f"{paper}/clear")
    assert snapshot(db) == before
    form = client.get(f"{paper}?lang={lang}").get_data(as_text=True)
    assert (
        f'href="{paper}/clear?night={table.night.uid}"' in form and 'name="clear"' not in form
    )  # a link to the question, no button
    asked = client.get(f"{paper}/clear?lang={lang}")
    words = answer_text(asked)
    assert {"en": "Clear the points of table 2?", "de": "Punkte von Tisch 2 löschen?"}[lang] in words
    assert all(name in words for name in table.names)
    assert client.post(f"{paper}/clear?lang={lang}", data={}).status_code == 400  # not this page's confirmation
    assert snapshot(db) == before
    assert _view(db, t).rounds[0].tables[1].paper
    answer = client.post(f"{paper}/clear?lang={lang}", data=form_values(asked.get_data(as_text=True)))
    assert answer.status_code == 302
    assert not _view(db, t).rounds[0].tables[1].paper


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Spieler 1 and Spieler {b} sat at one table (Turnier, round 1, table 1): they are two people"),
        ("de", "Spieler 1 und Spieler {b} saßen am selben Tisch (Turnier, Runde 1, Tisch 1): das sind zwei Personen"),
    ],
)
def test_a_merge_of_two_people_of_one_tournament_table_names_the_tournament_round_and_table(client, db, lang, said):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    table = _view(db, t).rounds[0].tables[0]
    first, other = sorted(table.player_ids)[:2]
    before = snapshot(db)
    answer = client.post(f"/players/{first}/merge?lang={lang}", data={"other": str(other), "confirm": "y"})
    assert answer.status_code == 400
    b = db.get(Player, other).name.split()[1]
    assert said.replace("Spieler 1", db.get(Player, first).name).format(b=b) in answer_text(answer)
    assert "night" not in answer_text(answer).split("they are two")[0][-120:]
    assert snapshot(db) == before
