"""A Schafkopf night whose pot nobody paid into says so in a sentence: no "Pot: 0 units = 0.00 EUR.
Shared: 0.00 EUR each." and no column of 0.00 shares on the settlement, its PDF and the table page
(found looking at the settlement of a night without a Rundpass)."""

from __future__ import annotations

import pytest

from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night
from tests.support import SAUSPIEL_CLARA, closed_split_night, page_text, pdf_text, start_night

EMPTY = {"en": "The pot stayed empty.", "de": "Der Stock blieb leer."}


@pytest.fixture
def quiet_night(db, players):
    """A closed Schafkopf night (pot shared out at the close) of one Sauspiel: nobody paid into the pot."""
    night = start_night(db, players, game="schafkopf", seats=4, stake_cents=10)
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL_CLARA)
    close_night(db=db, night_id=night.id)
    return night


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_settlement_of_a_night_whose_pot_stayed_empty_says_so_without_a_share_column(client, quiet_night, lang):
    page = client.get(f"/nights/{quiet_night.id}/summary?lang={lang}").get_data(as_text=True)
    assert EMPTY[lang] in page_text(page)
    assert "pot-share" not in page
    assert "0 units" not in page_text(page) and "0 Einheiten" not in page_text(page)
    table = page_text(client.get(f"/nights/{quiet_night.id}?lang={lang}").get_data(as_text=True))
    assert EMPTY[lang] in table and "Shared" not in table and "Geteilt" not in table


def test_the_pdf_of_a_night_whose_pot_stayed_empty_says_so(client, quiet_night, tmp_path):
    answer = client.get(f"/nights/{quiet_night.id}/summary.pdf?lang=de")
    assert answer.status_code == 200
    text = pdf_text(answer.data, tmp_path)
    assert EMPTY["de"] in " ".join(text.split())
    assert "Anteil am Stock" not in text


def test_a_pot_paid_into_still_shows_its_figures_and_each_ones_share(client, db, players):
    night = closed_split_night(db, players)
    page = client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True)
    assert "pot-share" in page
    assert EMPTY["en"] not in page_text(page)
    assert "Shared: 0.20\u00a0EUR each." in page
