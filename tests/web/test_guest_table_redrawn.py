"""A phone at a tournament's table whose round was drawn again (its table's night deleted, a new one drawn
in its place) is told so, plainly, and led to joining its new table with the new code: on the table's
pages, when it sends a hand, and in the table page's notice; never the sign-in wall."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import Night
from tests.support import RUFEN_HIRSCH, answer_text, page_text
from tests.support_tournament import make_tournament

REDRAWN = {
    "en": "The round of this table was drawn again: this table is gone. "
    "Join your new table with the code on its new card.",
    "de": "Die Runde dieses Tisches wurde neu ausgelost: diesen Tisch gibt es nicht mehr. "
    "Tritt deinem neuen Tisch mit dem Code auf seiner neuen Karte bei.",
}
JOIN_TABLE = {"en": "Join your new table with its code", "de": "Mit Code dem neuen Tisch beitreten"}
SIGN_IN = {"en": "Sign in", "de": "Anmelden"}


def _way_out(page: str) -> tuple[str, str]:
    main = page[page.index("<main>") : page.index("</main>")]
    found = re.findall(r'<p><a class="button" href="([^"]+)">([^<]+)</a></p>', main)
    assert len(found) == 1, main
    return found[0][0].replace("&amp;", "&"), found[0][1]


def _main(answer) -> str:
    """The words of the page's own part (the menu's "Sign in" aside)."""
    page = answer.get_data(as_text=True)
    return page_text(page[page.index("<main>") : page.index("</main>")])


def _first_table(db, t) -> tuple[int, str]:
    db.rollback()
    night = tm.read_tournament(db=db, tournament_id=t.id).rounds[-1].tables[0].night
    return night.id, night.join_code


@pytest.fixture
def redrawn(app, client, db):
    """A phone that joined table 1 of round 1, whose round the organiser then drew again."""
    t = make_tournament(db, n=8)
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    old, code = _first_table(db, t)
    phone = app.test_client()
    assert phone.post("/join?table=1", data={"code": code}).status_code == 302
    assert client.post(f"/tournaments/{t.id}/draw", data={"again": "1"}).status_code == 302
    db.rollback()
    assert db.get(Night, old) is None
    return t, old, phone


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tables_pages_say_its_round_was_drawn_again_and_lead_to_joining_a_table(redrawn, lang):
    _t, old, phone = redrawn
    for path in (f"/nights/{old}", f"/nights/{old}/hands/new"):
        page = phone.get(f"{path}?lang={lang}")
        assert page.status_code == 404, path
        assert REDRAWN[lang] in answer_text(page), path
        assert _way_out(page.get_data(as_text=True)) == ("/join?table=1", JOIN_TABLE[lang])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hand_sent_to_the_table_drawn_again_is_told_so_never_asked_to_sign_in(redrawn, lang):
    _t, old, phone = redrawn
    answer = phone.post(f"/nights/{old}/hands/new?lang={lang}", data={**RUFEN_HIRSCH, "action": "save"})
    assert answer.status_code == 404
    said = _main(answer)
    assert REDRAWN[lang] in said
    assert SIGN_IN[lang] not in said
    assert answer.headers["Scorekeeper-Account"].startswith("guest:")  # still the same guest (its kept hands)
    assert _way_out(answer.get_data(as_text=True)) == ("/join?table=1", JOIN_TABLE[lang])


def test_once_at_its_new_table_the_phone_is_led_back_to_it(redrawn, db):
    t, old, phone = redrawn
    new, code = _first_table(db, t)
    assert phone.post("/join?table=1", data={"code": code}).status_code == 302
    page = phone.get(f"/nights/{old}?lang=en")
    assert page.status_code == 404
    assert _way_out(page.get_data(as_text=True)) == (f"/nights/{new}", "Back to the table")
    # the new table's page: were it drawn again too, its notice says why and leads to joining a table
    table_page = phone.get(f"/nights/{new}?lang=de").get_data(as_text=True)
    assert f'data-gone="{REDRAWN["de"]}"' in table_page
    assert f'data-gone-link="{JOIN_TABLE["de"]}" data-gone-href="/join?table=1"' in table_page
