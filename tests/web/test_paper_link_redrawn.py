"""A saved link to a table's paper form, opened after the round was drawn again
without that table (fewer tables after a withdrawal), leads to the round's new tables, saying it was drawn
again, in English and German, as a post of such a form does (it was "There is no such table", a 404). Every
link to a table's pages names its night (``night``); a link given out before they did, to a table number the
round no longer has, leads there too, saying the round has no such table now (it was a 404: it cannot tell a
table gone from one never drawn); a table number no draw could give stays not found."""

from __future__ import annotations

import re

import pytest

from tests.support import answer_text, form_values, snapshot
from tests.support_tournament import make_tournament

GONE = {
    "en": "Round 1 was drawn again meanwhile: table 3 is gone. Here are the round's new tables.",
    "de": "Runde 1 wurde inzwischen neu ausgelost: Tisch 3 gibt es nicht mehr. Hier sind die neuen Tische der Runde.",
}


def _links(page: str, t, end: str) -> list[str]:
    """The links of a page to round 1's tables' pages ending in ``end`` (``paper``, ``paper/clear``)."""
    found = re.findall(rf'href="(/tournaments/{t.id}/rounds/1/tables/\d+/{end}(?:\?[^"]*)?)"', page)
    return [link.replace("&amp;", "&") for link in found]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_saved_link_to_a_table_gone_after_a_redraw_leads_to_the_new_tables(client, db, lang):
    t = make_tournament(db, n=12)
    client.post(f"/tournaments/{t.id}/draw")  # 12: three tables of four
    links = _links(client.get(f"/tournaments/{t.id}").get_data(as_text=True), t, "paper")
    assert len(links) == 3 and all("night=" in link for link in links)
    saved = links[2]
    assert client.get(saved).status_code == 200
    assert client.post(f"/tournaments/{t.id}/entrants/12/withdraw", data={"confirm": "12"}).status_code == 302
    before = snapshot(db)
    answer = client.get(f"{saved}&lang={lang}")
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/tournaments/{t.id}")  # its top, where the refusal is said
    shown = client.get(f"/tournaments/{t.id}?lang={lang}")
    assert answer_text(shown).count(GONE[lang]) == 1  # once (the page's own box said it again)
    new = _links(shown.get_data(as_text=True), t, "paper")
    assert len(new) == 2 and not set(new) & set(links)  # 11: two tables of five, a bye; new nights
    assert all(client.get(link).status_code == 200 for link in new)
    assert snapshot(db) == before


NO_TABLE = {
    "en": "Round 1 has no table 3 now. Here are the round's tables.",
    "de": "Runde 1 hat jetzt keinen Tisch 3. Hier sind die Tische der Runde.",
}
NO_TABLE_POSTED = {
    "en": "Round 1 has no table 3 now. Nothing was changed. Here are the round's tables.",
    "de": "Runde 1 hat jetzt keinen Tisch 3. Es wurde nichts geändert. Hier sind die Tische der Runde.",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_link_of_before_without_its_night_to_a_table_gone_leads_to_the_rounds_tables(client, db, lang):
    t = make_tournament(db, n=12)
    client.post(f"/tournaments/{t.id}/draw")
    links = _links(client.get(f"/tournaments/{t.id}").get_data(as_text=True), t, "paper")
    client.post(f"/tournaments/{t.id}/entrants/12/withdraw", data={"confirm": "12"})
    before = snapshot(db)
    for old in (links[2].split("?")[0], links[2].split("?")[0] + "/clear"):  # links given out before ?night=
        answer = client.get(f"{old}?lang={lang}")
        assert answer.status_code == 303
        assert answer.headers["Location"].endswith(f"/tournaments/{t.id}")  # its top, where it is said
        shown = client.get(f"/tournaments/{t.id}?lang={lang}")
        assert answer_text(shown).count(NO_TABLE[lang]) == 1
        assert len(_links(shown.get_data(as_text=True), t, "paper")) == 2  # the round's tables now
    answer = client.post(f"{links[2].split('?')[0]}/clear?lang={lang}", data={"confirm": "3"})
    assert answer.status_code == 303
    assert answer_text(client.get(f"/tournaments/{t.id}?lang={lang}")).count(NO_TABLE_POSTED[lang]) == 1
    assert snapshot(db) == before


def test_a_table_no_draw_could_give_or_of_a_round_not_drawn_is_not_found(client, db):
    t = make_tournament(db, n=12)
    client.post(f"/tournaments/{t.id}/draw")
    client.post(f"/tournaments/{t.id}/entrants/12/withdraw", data={"confirm": "12"})
    assert client.get(f"/tournaments/{t.id}/rounds/1/tables/4/paper").status_code == 404  # 12: three tables at most
    assert client.get(f"/tournaments/{t.id}/rounds/1/tables/0/paper").status_code == 404
    assert client.get(f"/tournaments/{t.id}/rounds/2/tables/1/paper?night=x").status_code == 404  # no round 2
    assert client.get(f"/tournaments/{t.id}/rounds/2/tables/1/paper").status_code == 404


OTHERS = {
    "en": "Round 1 was drawn again meanwhile: table 1 has other players now. Here are the round's new tables.",
    "de": "Runde 1 wurde inzwischen neu ausgelost: Tisch 1 hat jetzt andere Spieler. Hier sind die neuen Tische der "
    "Runde.",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_saved_link_to_a_table_number_drawn_again_with_other_players_says_so_and_clears_nothing(client, db, lang):
    """Nine: tables of four and five; one withdraws, eight: two tables of four, table 1 a new night with other
    players. Its saved link opened the new table 1's form without a word, and its clearing page, confirmed, cleared
    the points of the new table 1, which its organiser never saw."""
    t = make_tournament(db, n=9)
    client.post(f"/tournaments/{t.id}/draw")
    saved = _links(client.get(f"/tournaments/{t.id}").get_data(as_text=True), t, "paper")[0]
    clear_saved = saved.replace("/paper?", "/paper/clear?")
    assert client.post(f"/tournaments/{t.id}/entrants/1/withdraw", data={"confirm": "1"}).status_code == 302
    new = _links(client.get(f"/tournaments/{t.id}").get_data(as_text=True), t, "paper")[0]
    assert new.split("?")[0] == saved.split("?")[0] and new != saved  # table 1 still, another night
    form = form_values(client.get(new).get_data(as_text=True))
    assert (
        client.post(new.split("?")[0], data=form | {"p1": "20", "p2": "-20", "p3": "5", "p4": "-5"}).status_code == 302
    )
    before = snapshot(db)
    answer = client.get(f"{saved}&lang={lang}")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/tournaments/{t.id}")
    assert answer_text(client.get(f"/tournaments/{t.id}?lang={lang}")).count(OTHERS[lang]) == 1
    answer = client.post(f"{clear_saved}&lang={lang}", data={"confirm": "1"})
    assert answer.status_code == 303
    assert snapshot(db) == before  # the new table's points stay
