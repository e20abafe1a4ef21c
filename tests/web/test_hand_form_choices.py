"""The hand form offers only what the rules allow for the choices made, shows no control whose value would
be ignored, and the server still refuses what is not allowed, in the page's words. At a table of five the
form says who sits out. (Issue "At the table", points 4 and 12; what JavaScript hides as choices change is
in tests/browser/test_hand_form.py.)"""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlmodel import select

from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import HandRecord
from tests.support import field_errors, open_form, start_night, submit

SAUSPIEL = {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70}


def stored(db, night_id: int) -> list[dict]:
    db.rollback()
    db.expire_all()
    query = select(HandRecord).where(HandRecord.night_id == night_id).order_by(HandRecord.number)
    return [h.data for h in db.exec(query)]


def schafkopf(db, players, seats=4, rules=None):
    return start_night(db, players, "schafkopf", seats, rules, played_on=date(2026, 11, 21))


def new_form(client, night_id: int, lang: str = "en") -> str:
    return client.get(f"/nights/{night_id}/hands/new?lang={lang}").get_data(as_text=True)


def offered(page: str, field: str) -> list[str]:
    """The values a segmented field offers."""
    return re.findall(rf'<input type="radio" name="{field}" id="{field}-\d+" value="([^"]*)"', page)


def choice_attr(page: str, field: str, value: str, attr: str) -> str | None:
    tag = re.search(rf'<input type="radio" name="{field}" id="{field}-\d+" value="{value}"[^>]*>', page).group(0)
    match = re.search(rf'{attr}="([^"]*)"', tag)
    return match.group(1) if match else None


def wrapper_of(page: str, marker: str) -> str:
    """The opening tag of the innermost ``<div data-...="...">`` still open where ``marker`` is."""
    before = page[: page.index(marker)]
    for m in reversed(list(re.finditer(r'<div data-[\w-]+="[^"]*">', before))):
        rest = before[m.end() :]
        if rest.count("</div>") <= rest.count("<div"):
            return m.group(0)
    return ""


# --- Schafkopf: the called ace, the partner, the runners, the tout -----------------------


def test_a_sauspiel_calls_eichel_gras_or_schellen_never_herz_and_a_solo_has_all_four(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    assert offered(page, "suit") == ["eichel", "gras", "schellen"]
    assert offered(page, "solo_suit") == ["eichel", "gras", "herz", "schellen"]
    assert 'data-contracts="sauspiel"' in wrapper_of(page, 'id="suit-group"')
    assert 'data-contracts="solo"' in wrapper_of(page, 'id="solo_suit-group"')


def test_a_herz_sauspiel_posted_anyway_is_refused_in_the_pages_words(client, db, players):
    night = schafkopf(db, players)
    answer = submit(client, night.id, {**SAUSPIEL, "suit": "herz"})
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "suit") == (
        "Herz is trumps: its ace cannot be called. Call Eichel, Gras or Schellen."
    )
    assert stored(db, night.id) == []


def test_a_herz_solo_is_recorded_and_edited_with_its_suit(client, db, players):
    night = schafkopf(db, players)
    fields = {"contract": "solo", "declarer": 3, "solo_suit": "herz", "points": 95, "laufende": 3}
    assert submit(client, night.id, fields).status_code == 302
    assert stored(db, night.id) == [{"contract": "solo", "declarer": 3, "suit": "herz", "points": 95, "laufende": 3}]
    form = open_form(client, f"/nights/{night.id}/hands/1/edit")
    assert form["solo_suit"] == "herz" and "suit" not in form


def test_the_partner_leaves_out_the_declarer(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    # which partner is left out follows the declarer tapped: the page's script reads this
    assert 'id="partner-group" data-differs-from="declarer"' in page


@pytest.mark.parametrize(
    ("contract", "most"), [("sauspiel", 14), ("solo", 14), ("wenz", 4)], ids=["sauspiel", "solo", "wenz"]
)
def test_the_runners_go_as_high_as_the_contract_allows(client, db, players, contract, most):
    page = new_form(client, schafkopf(db, players).id)
    assert offered(page, "laufende") == [str(n) for n in range(15)]
    for n in range(15):
        contracts = choice_attr(page, "laufende", str(n), "data-contracts")
        allowed = (contracts or "sauspiel solo wenz").split()
        assert (contract in allowed) == (n <= most), n


def test_fourteen_runners_in_a_sauspiel_are_recorded(client, db, players):
    night = schafkopf(db, players)
    assert submit(client, night.id, {**SAUSPIEL, "points": 120, "laufende": 14}).status_code == 302
    assert stored(db, night.id)[0]["laufende"] == 14


def test_won_or_lost_is_shown_only_with_a_tout_and_points_only_without(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    assert wrapper_of(page, 'id="won-group"') == '<div data-unless-empty="tout">'
    assert wrapper_of(page, 'id="points"') == '<div data-if-empty="tout">'
    assert wrapper_of(page, 'id="schwarz"') == '<div data-if-empty="tout">'


@pytest.mark.parametrize("contract", ["solo", "wenz"])
def test_won_without_a_tout_is_refused_not_ignored(client, db, players, contract):
    night = schafkopf(db, players)
    fields = {"contract": contract, "declarer": 2, "solo_suit": "gras", "points": 40, "won": 1}
    answer = submit(client, night.id, fields)
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "won") == "Result: only in a Tout."
    assert stored(db, night.id) == []


def test_points_with_a_tout_are_refused_not_ignored(client, db, players):
    night = schafkopf(db, players)
    fields = {"contract": "wenz", "declarer": 2, "tout": "y", "won": 1, "points": 40}
    answer = submit(client, night.id, fields)
    assert answer.status_code == 400
    assert "not in a Tout" in field_errors(answer.get_data(as_text=True), "points")
    assert submit(client, night.id, {**fields, "points": None}).status_code == 302
    assert stored(db, night.id) == [{"contract": "wenz", "declarer": 2, "tout": True, "won": True}]


def test_re_is_shown_after_kontra(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    assert wrapper_of(page, 'id="re"') == '<div data-unless-empty="kontra">'


def test_a_pot_night_shows_no_ramsch_fields(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    assert offered(page, "contract") == ["sauspiel", "wenz", "solo", "rundpass"]
    assert 'id="ramsch_1"' not in page and 'id="durchmarsch-group"' not in page


def test_after_a_durchmarsch_the_points_are_not_shown_and_given_anyway_are_refused(client, db, players):
    night = schafkopf(db, players, rules={"preset": "bavarian"})
    page = new_form(client, night.id)
    assert wrapper_of(page, 'id="ramsch_1"') == '<div data-if-empty="durchmarsch">'
    fields = {"contract": "ramsch", "durchmarsch": 2, "ramsch_1": 50, "ramsch_2": 70}
    answer = submit(client, night.id, fields)
    assert answer.status_code == 400
    assert stored(db, night.id) == []
    answer = submit(client, night.id, {"contract": "ramsch", "durchmarsch": 2, "jungfrau_1": "y"})
    assert answer.status_code == 400
    assert submit(client, night.id, {"contract": "ramsch", "durchmarsch": 2}).status_code == 302
    assert stored(db, night.id) == [{"contract": "ramsch", "durchmarsch": 2}]


# --- Matzlfangen: the raises the night allows ----------------------------------------------


def test_the_raises_offered_are_those_the_nights_rules_allow(client, db, players):
    night = start_night(db, players, rules={"max_raises": 3})
    page = new_form(client, night.id)
    assert offered(page, "raises") == ["0", "1", "2", "3"]
    answer = submit(client, night.id, {"contract": "rufen", "partner": 4, "points": 70, "raises": 4})
    assert answer.status_code == 400
    assert "between 0 and 3" in field_errors(answer.get_data(as_text=True), "raises")


def test_without_raises_there_is_no_raise_field(client, db, players):
    page = new_form(client, start_night(db, players, rules={"max_raises": 0}).id)
    assert 'id="raises-group"' not in page


def test_a_matzlfangen_partner_posted_as_forehand_is_refused_in_the_pages_words(client, db, night):
    answer = submit(client, night.id, {"contract": "rufen", "partner": 2, "points": 70}, lang="en")
    assert answer.status_code == 400
    assert field_errors(answer.get_data(as_text=True), "partner") == "The declarer cannot be their own partner."


# --- a table of five: who sits out ----------------------------------------------------------


def test_at_a_schafkopf_table_of_five_the_form_says_who_sits_out_and_who_plays(client, db, players):
    night = schafkopf(db, players, seats=5)
    page = new_form(client, night.id)
    line = re.search(r'<p class="sits-out-line" id="sits-out">(.*?)</p>', page, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", line) == "Anna sits out · Playing: Bernd, Clara, Dieter, Eva"
    # each seat to tap says it in words, and Anna is no choice
    for group in ("declarer", "partner"):
        block = re.search(rf'id="{group}-group".*?</fieldset>', page, re.S).group(0)
        assert '<span class="sits-out">Anna sits out</span>' in block
        assert re.findall(r'<label for="[\w-]+">(\w+)</label>', block) == ["Bernd", "Clara", "Dieter", "Eva"]
        assert "disabled" not in block
    # the deal moves on: Bernd deals and sits out next
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    page = new_form(client, night.id, lang="de")
    assert "<strong>Bernd setzt aus</strong>" in page
    assert '<span class="sits-out">Bernd setzt aus</span>' in page


def test_at_a_ramsch_table_of_five_the_points_say_who_sits_out(client, db, players):
    page = new_form(client, schafkopf(db, players, seats=5, rules={"preset": "bavarian"}).id)
    block = re.search(r"<legend>Card points per player</legend>.*?</fieldset>", page, re.S).group(0)
    assert '<p class="hint">Anna sits out</p>' in block
    assert '<span class="sits-out">Anna sits out</span>' in re.search(
        r'id="durchmarsch-group".*?</fieldset>', page, re.S
    ).group(0)


def test_at_a_table_of_four_nobody_sits_out(client, db, players):
    page = new_form(client, schafkopf(db, players).id)
    assert "sits-out" not in page and "sits out" not in page
