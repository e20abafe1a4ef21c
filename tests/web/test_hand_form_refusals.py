"""A refused save says so where the eye is, without JavaScript: an error summary atop the form (role=alert,
"Nicht gespeichert"), focused when the page opens, that links to each field in trouble; the live preview's
fragment links to the fields too. (Issue "At the table", point 1; the browser's view is in
tests/browser/test_hand_form.py.)"""

from __future__ import annotations

import re
from datetime import date

import pytest

from scorekeeper.core.hands import record_hand
from tests.support import RUFEN_HIRSCH, fill, open_form, page_text, start_night, submit

#: the refused hand of the issue: a Rufen with 70 points, "schwarz" ticked (the defenders cannot have 60)
SCHWARZ_70 = {"contract": "rufen", "partner": 1, "points": 70, "schwarz": "y"}
#: a Sauspiel whose declarer is his own partner
OWN_PARTNER = {"contract": "sauspiel", "declarer": 1, "partner": 1, "suit": "gras", "points": 70}


def summary(page: str) -> str | None:
    """The error summary's HTML (None: the page has none)."""
    match = re.search(r'(<div class="errors form-errors" id="error-summary"[^>]*>.*?</div>)', page, re.S)
    return match.group(1) if match else None


def links(fragment: str) -> list[tuple[str, str]]:
    """(target id, text) of each link to a field."""
    return [(t, page_text(s)) for t, s in re.findall(r'<a href="#([\w-]+)"[^>]*>(.*?)</a>', fragment, re.S)]


def schafkopf(db, players, seats=4, rules=None):
    return start_night(db, players, "schafkopf", seats, rules, played_on=date(2026, 11, 21))


def test_a_refused_save_says_not_saved_atop_the_form_and_links_to_the_field(client, db, night):
    answer = submit(client, night.id, SCHWARZ_70)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    box = summary(page)
    assert box is not None
    assert 'role="alert"' in box and 'tabindex="-1"' in box and "autofocus" in box
    assert re.search(r"<h2[^>]*>Not saved</h2>", box)
    assert links(box) == [
        (
            "schwarz",
            "The losing side took no trick: The defenders took no trick, so they cannot have 60 points",
        )
    ]
    # atop the form: before its first field, right after the hidden fields
    assert page.index('id="error-summary"') < page.index('id="contract-group"')
    assert page.index('id="hand-form"') < page.index('id="error-summary"')
    # the page's title says it too (the tab, a screen reader on opening)
    assert re.search(r"<title>Not saved · Hand 1 · Scorekeeper</title>", page)
    # the message stays at its field as well
    assert 'id="schwarz-errors"' in page


def test_a_refused_save_is_not_saved_in_german_by_default(client, db, night):
    page = submit(client, night.id, SCHWARZ_70, lang="de").get_data(as_text=True)
    box = summary(page)
    assert re.search(r"<h2[^>]*>Nicht gespeichert</h2>", box)
    assert links(box) == [
        (
            "schwarz",
            "Verlierer ohne Stich (schwarz): Die Gegenspieler haben keinen Stich, also können sie keine 60 Augen haben",
        )
    ]


def test_a_schafkopf_declarer_as_his_own_partner_is_refused_in_the_pages_words(client, db, players):
    night = schafkopf(db, players)
    answer = submit(client, night.id, OWN_PARTNER)
    assert answer.status_code == 400
    box = summary(answer.get_data(as_text=True))
    assert links(box) == [("partner-group", "Partner (called ace): The declarer cannot be their own partner.")]
    page = submit(client, night.id, OWN_PARTNER, lang="de").get_data(as_text=True)
    assert links(summary(page)) == [
        ("partner-group", "Partner (gerufene Sau): Der Spieler kann nicht sein eigener Partner sein.")
    ]


def test_every_field_in_trouble_is_listed_in_the_forms_order(client, db, players):
    night = schafkopf(db, players, rules={"preset": "bavarian"})
    fields = {"contract": "ramsch", "ramsch_3": "drei", "ramsch_1": "viel"}
    page = submit(client, night.id, fields).get_data(as_text=True)
    # the rows of the Ramsch points are named by the player's name
    assert links(summary(page)) == [
        ("ramsch_1", "Anna: Not a valid integer value."),
        ("ramsch_3", "Clara: Not a valid integer value."),
    ]


@pytest.mark.parametrize(
    ("rules", "fields"),
    [
        (None, {**OWN_PARTNER, "partner": 2, "ramsch_1": "1.5"}),  # no Ramsch at a pot night: no Ramsch fields
        ({"all_pass": "ramsch", "ramsch_tie": "all_lose"}, {"contract": "ramsch", "durchmarsch": 1, "loser": 9}),
    ],
    ids=["ramsch-points-at-a-pot-night", "loser-the-rules-do-not-name"],
)
def test_a_refusal_of_a_field_the_page_does_not_show_is_said_atop_the_form(client, db, players, rules, fields):
    night = schafkopf(db, players, rules=rules)
    answer = submit(client, night.id, fields)
    assert answer.status_code == 400
    box = summary(answer.get_data(as_text=True))
    assert re.findall(r"<p>(.*?)</p>", box) and links(box) == []


def test_a_refused_preview_says_no_preview(client, db, night):
    answer = submit(client, night.id, SCHWARZ_70, action="preview")
    assert answer.status_code == 400
    box = summary(answer.get_data(as_text=True))
    assert re.search(r"<h2[^>]*>No preview</h2>", box)
    assert [t for t, _ in links(box)] == ["schwarz"]


def test_a_stale_form_says_not_saved_and_why(client, db, night):
    mine = fill(open_form(client, f"/nights/{night.id}/hands/new?lang=en"), RUFEN_HIRSCH)
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True})
    answer = client.post(f"/nights/{night.id}/hands/new?lang=en", data={**mine, "action": "save"})
    assert answer.status_code == 409
    box = summary(answer.get_data(as_text=True))
    assert re.search(r"<h2[^>]*>Not saved</h2>", box)
    assert "Another phone recorded a hand meanwhile" in page_text(box)
    assert links(box) == []


def test_a_form_with_a_hand_count_that_is_no_number_says_so(client, db, night):
    form = fill(open_form(client, f"/nights/{night.id}/hands/new?lang=en"), RUFEN_HIRSCH)
    answer = client.post(
        f"/nights/{night.id}/hands/new?lang=en", data={**form, "expected_hands": "x", "action": "save"}
    )
    assert answer.status_code == 400
    assert "This form is out of date: open it again from the table." in page_text(
        summary(answer.get_data(as_text=True))
    )


def test_an_edit_refused_says_not_saved(client, db, night):
    record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": 4, "points": 70})
    page = submit(client, night.id, SCHWARZ_70 | {"partner": 4}, number=1).get_data(as_text=True)
    box = summary(page)
    assert re.search(r"<h2[^>]*>Not saved</h2>", box)
    assert [t for t, _ in links(box)] == ["schwarz"]


def test_a_page_without_a_refusal_has_no_summary(client, db, night):
    page = client.get(f"/nights/{night.id}/hands/new?lang=en").get_data(as_text=True)
    assert summary(page) is None
    assert 'id="error-summary"' not in page
    page = submit(client, night.id, RUFEN_HIRSCH, action="preview").get_data(as_text=True)
    assert summary(page) is None


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_live_previews_fragment_of_a_refused_hand_links_to_the_field(client, db, night, lang):
    data = fill(open_form(client, f"/nights/{night.id}/hands/new"), SCHWARZ_70)
    answer = client.post(f"/nights/{night.id}/hands/new?fragment=1&lang={lang}", data={**data, "action": "preview"})
    assert answer.status_code == 400
    fragment = answer.get_data(as_text=True)
    assert "<html" not in fragment and 'id="error-summary"' not in fragment
    assert re.search(r"<h2>(No preview|Keine Vorschau)</h2>", fragment)
    assert [t for t, _ in links(fragment)] == ["schwarz"]


# --- issue 26: a refusal is a sentence; a Ramsch's points are refused at their rows ---------------------


def field_errors(page: str, field: str) -> list[str]:
    match = re.search(rf'<ul class="errors" id="{re.escape(field)}-errors">(.*?)</ul>', page, re.S)
    return [page_text(li) for li in re.findall(r"<li>(.*?)</li>", match.group(1), re.S)] if match else []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The defenders took no trick, so they cannot have 60 points"),
        ("de", "Die Gegenspieler haben keinen Stich, also können sie keine 60 Augen haben"),
    ],
)
def test_a_refusal_begins_with_a_capital_letter_at_its_field_and_atop_the_form(client, db, night, lang, said):
    page = submit(client, night.id, SCHWARZ_70, lang=lang).get_data(as_text=True)
    assert field_errors(page, "schwarz") == [said]
    assert [m for _t, m in links(summary(page))] == [
        f"{'The losing side took no trick' if lang == 'en' else 'Verlierer ohne Stich (schwarz)'}: {said}"
    ]


#: a Ramsch whose rows add up to 60: the card points of a Ramsch must add up to 120
RAMSCH_60 = {"contract": "ramsch", "ramsch_1": 60}


@pytest.mark.parametrize(
    ("lang", "label", "said"),
    [
        ("en", "Card points per player", "The card points must add up to 120, not 60"),
        ("de", "Augen pro Spieler", "Die Augen müssen zusammen 120 ergeben, nicht 60"),
    ],
)
def test_a_ramsch_whose_points_do_not_add_up_is_refused_at_its_rows_under_their_one_label(
    client, db, players, lang, label, said
):
    night = schafkopf(db, players, rules={"all_pass": "ramsch"})
    page = submit(client, night.id, RAMSCH_60, lang=lang).get_data(as_text=True)
    assert field_errors(page, "points_each") == [said]  # in the rows' fieldset, under its legend
    assert re.search(rf'<fieldset class="field has-error" id="points_each"><legend>{label}</legend>', page)
    assert field_errors(page, "points") == []  # not at the declaring side's points (another label, not shown)
    assert links(summary(page)) == [("points_each", f"{label}: {said}")]


def test_the_live_preview_links_a_ramsch_sum_to_the_rows_so_it_waits_until_one_is_typed(client, db, players):
    """static/hand.js leaves out a problem whose field the player has not touched: choosing Ramsch touches
    none of its rows (no error before input), typing into one does (the sum is said then, not never)."""
    night = schafkopf(db, players, rules={"all_pass": "ramsch"})
    data = fill(open_form(client, f"/nights/{night.id}/hands/new"), {"contract": "ramsch"})
    answer = client.post(f"/nights/{night.id}/hands/new?fragment=1&lang=de", data={**data, "action": "preview"})
    fragment = answer.get_data(as_text=True)
    assert links(fragment) == [("points_each", "Augen pro Spieler: Die Augen müssen zusammen 120 ergeben, nicht 0")]
    assert re.search(r'<fieldset[^>]*id="points_each"[^>]*>.*id="ramsch_1"', open_form_page(client, night.id), re.S)


def open_form_page(client, night_id: int) -> str:
    return client.get(f"/nights/{night_id}/hands/new?lang=de").get_data(as_text=True)


def test_a_refused_knock_where_the_rules_play_none_is_said_atop_the_form_not_at_a_field_never_shown(
    client, db, players
):
    night = schafkopf(db, players, rules={"preset": "turnier"})  # klopfen_played false, runners never paid
    page = open_form_page(client, night.id)
    assert 'name="klopfen"' not in page and 'name="laufende"' not in page  # the engine: they do not count
    form = open_form(client, f"/nights/{night.id}/hands/new")
    sauspiel = {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70}
    answer = client.post(
        f"/nights/{night.id}/hands/new?lang=en", data={**form, **sauspiel, "klopfen": "2", "action": "save"}
    )
    assert answer.status_code == 400
    box = summary(answer.get_data(as_text=True))
    assert "Knocking is not played under these rules" in page_text(box)
    assert links(box) == []  # no link to a field the page does not show
