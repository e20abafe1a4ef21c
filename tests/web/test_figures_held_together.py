"""A figure and its word stay on one line on a phone: money ("0.40 EUR") and a count of units ("17 units") are
written with a no-break space (U+00A0) on every page and in the PDF, by the one function that formats each
(web/view.py ``money``, ``unit_count``); the exports and the API, which machines read, keep their plain format."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand
from scorekeeper.core.table import load_table
from scorekeeper.web.pdf import summary_html
from scorekeeper.web.view import plain_text
from tests.support import closed_split_night, start_night
from tests.support_tournament import make_tournament

NBSP = "\u00a0"
#: A figure parted from its word by a space a line may break at: "0.40 EUR", "8 units", "8 Einheiten".
PARTED = re.compile(r"\d[ \t\r\n]+(EUR|units?\b|Einheit)")


def parted(page: str) -> list[str]:
    """Each figure of ``page`` written apart from its word, with what stands before it."""
    return [page[max(0, m.start() - 30) : m.end()] for m in PARTED.finditer(page)]


@pytest.mark.parametrize(
    "lang, money, units, one",
    [("en", "-3.50\xa0EUR", "17\xa0units", "1\xa0unit"), ("de", "-3,50\xa0EUR", "17\xa0Einheiten", "1\xa0Einheit")],
)
def test_money_and_units_are_formatted_with_a_no_break_space(app, lang, money, units, one):
    from scorekeeper.web import view

    with app.test_request_context(f"/?lang={lang}"):
        assert (view.money(-350, "EUR"), view.unit_count(17), view.unit_count(1)) == (money, units, one)


@pytest.mark.parametrize(
    "lang, stake, pot",
    [("en", "0.10\xa0EUR", "8\xa0units (0.80\xa0EUR)"), ("de", "0,10\xa0EUR", "8\xa0Einheiten (0,80\xa0EUR)")],
)
def test_the_table_pages_stake_and_pot_line_hold_each_figure_to_its_word(client, db, players, lang, stake, pot):
    night = start_night(db, players, game="schafkopf", stake_cents=10)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})  # the pot: 8 units
    page = client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
    assert stake in plain_text(page) and pot in plain_text(page)  # the words as they read, without the tags
    assert parted(page) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_settlement_its_payments_and_its_pdf_hold_each_figure_to_its_word(app, client, db, players, lang):
    night = closed_split_night(db, players)
    page = client.get(f"/nights/{night.id}/summary?lang={lang}&bank=1").get_data(as_text=True)
    decimal = "." if lang == "en" else ","
    assert f"0{decimal}20{NBSP}EUR" in page  # the pot's share, in the payments too
    assert parted(page) == []
    with app.test_request_context(f"/?lang={lang}"):
        pdf = summary_html(load_table(db=db, night_id=night.id))
    assert f"0{decimal}20{NBSP}EUR" in pdf and parted(pdf) == []


@pytest.mark.parametrize("lang, fee", [("en", "15.00\xa0EUR"), ("de", "15,00\xa0EUR")])
def test_a_tournaments_entry_fee_holds_its_figure_to_its_currency(client, db, lang, fee):
    t = make_tournament(db, entry_fee_cents=1500)
    page = client.get(f"/tournaments/{t.id}?lang={lang}").get_data(as_text=True)
    assert fee in page and parted(page) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_exports_and_the_api_keep_their_plain_format(client, db, players, lang):
    """Machines read these: no no-break space in them, their numbers numbers."""
    night = closed_split_night(db, players)
    for path in (
        f"/nights/{night.id}/export.csv",
        f"/nights/{night.id}/export.json",
        f"/api/v1/sessions/{night.id}",
    ):
        answer = client.get(f"{path}?lang={lang}")
        assert answer.status_code == 200, path
        body = answer.get_data(as_text=True)
        assert NBSP not in body and "\\u00a0" not in body.lower(), path  # nor escaped in JSON
    summary = client.get(f"/api/v1/sessions/{night.id}").get_json()
    assert (summary["stake_cents"], summary["currency"]) == (10, "EUR")
