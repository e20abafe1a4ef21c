"""The hand form's checks that need no rules (a choice made, points in range) come from the form's field
definitions (scorekeeper/web/hands/forms.py, ``Engine``), rendered as the inputs' ``required``/``min``/``max``
and the engine's own refusals in data attributes, for the page's check of a hand kept offline (issue 15,
"Previews offline"); the server's answer to the same hand says the same words."""

from __future__ import annotations

import html
import re
from datetime import date

from scorekeeper.engine import matzlfangen, schafkopf
from scorekeeper.web.hands.forms import Engine, MatzlfangenForm, SchafkopfForm
from tests.support import field_errors, start_night, submit


def new_form(client, night_id: int, lang: str = "en") -> str:
    return client.get(f"/nights/{night_id}/hands/new?lang={lang}").get_data(as_text=True)


def tag(page: str, pattern: str) -> str:
    match = re.search(pattern, page)
    assert match, pattern
    return match.group(0)


def attr(element: str, name: str) -> str | None:
    match = re.search(rf'\s{name}(?:="([^"]*)")?[\s>/]', element)
    return None if match is None else html.unescape(match.group(1) or "")


def engine_check(form_cls, name: str) -> Engine:
    return next(v for v in getattr(form_cls, name).kwargs["validators"] if isinstance(v, Engine))


def test_the_points_range_rendered_is_the_fields_validator(client, db, players):
    night = start_night(db, players, "matzlfangen", 4, played_on=date(2026, 11, 21))
    check = engine_check(MatzlfangenForm, "points")
    assert (check.lo, check.hi, check.required) == (0, matzlfangen.TOTAL_POINTS, True)
    points = tag(new_form(client, night.id), r'<input[^>]*name="points"[^>]*>')
    assert attr(points, "min") == "0"
    assert attr(points, "max") == str(matzlfangen.TOTAL_POINTS)
    assert attr(points, "required") == ""
    assert attr(points, "data-range") == "Points of the declaring side: must be between 0 and 130."


def test_a_ramsch_row_has_the_range_but_is_not_required(client, db, players):
    night = start_night(db, players, "schafkopf", 4, {"all_pass": "ramsch"}, played_on=date(2026, 11, 21))
    row = tag(new_form(client, night.id), r'<input[^>]*name="ramsch_1"[^>]*>')
    assert (attr(row, "min"), attr(row, "max")) == ("0", str(schafkopf.TOTAL_POINTS))
    assert attr(row, "required") is None


def test_required_groups_carry_the_servers_refusal_in_the_pages_language(client, db, players):
    night = start_night(db, players, "schafkopf", 4, played_on=date(2026, 11, 21))
    assert engine_check(SchafkopfForm, "partner").required
    for lang, words in (("en", "Partner (called ace)"), ("de", "Partner (gerufene Sau)")):
        page = new_form(client, night.id, lang)
        group = tag(page, r'<fieldset[^>]*id="partner-group"[^>]*>')
        said = attr(group, "data-required")
        assert said and said.startswith(words), said
        radios = re.findall(r'<input type="radio" name="partner"[^>]*>', page)
        assert radios and all(attr(r, "required") == "" for r in radios)
    # not required: no attribute, no words
    kontra = tag(page, r'<fieldset[^>]*id="klopfen-group"[^>]*>')
    assert attr(kontra, "data-required") is None


def test_the_rendered_words_are_what_the_server_answers_online(client, db, players):
    """The same hand posted online: the server's messages at the fields are the texts the page carries."""
    night = start_night(db, players, "schafkopf", 4, played_on=date(2026, 11, 21))
    for lang in ("en", "de"):
        page = new_form(client, night.id, lang)
        required = attr(tag(page, r'<fieldset[^>]*id="partner-group"[^>]*>'), "data-required")
        in_range = attr(tag(page, r'<input[^>]*name="points"[^>]*>'), "data-range")
        no_partner = {"contract": "sauspiel", "declarer": 1, "suit": "gras", "points": 70}
        answer = submit(client, night.id, no_partner, lang=lang).get_data(as_text=True)
        assert field_errors(answer, "partner") == required
        too_many = {**no_partner, "partner": 3, "points": 130}
        answer = submit(client, night.id, too_many, lang=lang).get_data(as_text=True)
        assert field_errors(answer, "points") == in_range
