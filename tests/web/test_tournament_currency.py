"""A tournament's entry fee and prizes are money in the currency it was made in (``Tournament.currency``, the
club's ``SCOREKEEPER_CURRENCY`` of then: docs/tournaments.md, "Fees and prizes"). They were shown in the club's
currency of now: a club that changed SCOREKEEPER_CURRENCY from CHF to EUR relabelled its tournament's
15.00 CHF fee as 15.00 EUR. The currency travels with the tournament's file (a file written before it: the
club's currency) and the API says it."""

from __future__ import annotations

import copy
import re

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange import club_file
from scorekeeper.core.exchange import tournament_file as tx
from scorekeeper.core.hands import record_hand
from tests.support import answer_text, form_values, pdf_text
from tests.support_tournament import make_tournament

WENZ = {"contract": "wenz", "declarer": 3, "points": 61}
FORM = {
    "name": "Preisjass",
    "game": "schafkopf",
    "played_on": "2026-11-20",
    "rounds": "1",
    "deals": "1",
    "entry_fee": "15",
    "prizes": "50; 25,50",
    "applied_preset": "turnier",
    "schafkopf__preset": "turnier",
}


def created_in_francs(app, client, db):
    """A tournament made on the page while the club plays in Swiss francs, then the club changes to euros."""
    app.config["CURRENCY"] = "CHF"
    values = form_values(client.get("/tournaments/new?lang=en").get_data(as_text=True)) | FORM
    answer = client.post("/tournaments/new?lang=en", data=values)
    assert answer.status_code == 302, answer_text(answer)[:2000]
    (t,) = tm.list_tournaments(db=db)
    app.config["CURRENCY"] = "EUR"
    return t


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "In CHF, the club's currency, as the prizes."), ("de", "In CHF, der Währung des Vereins")]
)
def test_the_new_tournament_page_says_which_currency_its_fee_and_prizes_are_typed_in(app, client, lang, said):
    app.config["CURRENCY"] = "CHF"
    assert said in answer_text(client.get(f"/tournaments/new?lang={lang}"))


def test_a_tournament_keeps_the_currency_it_was_made_in(app, client, db, tmp_path):
    t = created_in_francs(app, client, db)
    assert t.currency == "CHF"

    page = answer_text(client.get(f"/tournaments/{t.id}?lang=en"))
    assert "entry fee 15.00 CHF" in page and "EUR" not in page, page
    for i in range(1, 10):
        tm.add_entrant(db=db, tournament_id=t.id, guest=f"Gast {i}")
    assert client.post(f"/tournaments/{t.id}/draw").status_code == 302
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=WENZ)
    standings = client.get(f"/tournaments/{t.id}/standings?lang=en").get_data(as_text=True)
    prizes = [re.sub(r"\s+", " ", cell).strip() for cell in re.findall(r'class="num prize">([^<]+)<', standings)]
    assert prizes == ["50.00 CHF", "25.50 CHF"], prizes
    printed = re.sub(r"\s+", " ", pdf_text(client.get(f"/tournaments/{t.id}/results.pdf?lang=en").data, tmp_path))
    assert "50.00 CHF" in printed and "9 × 15.00 CHF = 135.00 CHF" in printed, printed
    assert "EUR" not in printed


def test_the_api_makes_it_in_the_clubs_currency_and_says_it(app, client, db):
    app.config["CURRENCY"] = "CHF"
    made = client.post("/api/v1/tournaments", json={"name": "Preisjass", "game": "schafkopf", "entry_fee_cents": 1500})
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["currency"] == "CHF"
    app.config["CURRENCY"] = "EUR"
    assert client.get(f"/api/v1/tournaments/{made.get_json()['id']}").get_json()["currency"] == "CHF"


def test_the_tournaments_file_carries_its_currency(db, other_db):
    t = make_tournament(db, 4, currency="CHF", entry_fee_cents=1500)
    data = tx.tournament_json(db, t.id)
    assert data["tournament"]["currency"] == "CHF"

    imported, _ = tx.import_tournament(other_db, copy.deepcopy(data), currency="EUR")  # a club in euros
    assert imported.currency == "CHF"
    assert tx.tournament_json(other_db, imported.id) == data


def test_a_file_written_before_the_currency_is_in_the_clubs_currency(db, other_db):
    t = make_tournament(db, 4, entry_fee_cents=1500)
    data = tx.tournament_json(db, t.id)
    del data["tournament"]["currency"]
    imported, _ = tx.import_tournament(other_db, copy.deepcopy(data), currency="CHF")
    assert imported.currency == "CHF"


def test_a_club_file_written_before_it_has_its_tournaments_in_the_clubs_currency(db, other_db):
    make_tournament(db, 4, currency="CHF", entry_fee_cents=1500)
    club = club_file.club_json(db)
    del club["tournaments"][0]["tournament"]["currency"]
    club_file.import_club(db=other_db, data=club, currency="SEK")
    (imported,) = tm.list_tournaments(db=other_db)
    assert imported.currency == "SEK"
