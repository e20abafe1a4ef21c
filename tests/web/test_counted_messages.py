"""The core's refusals that count something say 1 in the singular ("the only round is drawn", "had 1 hand"),
never "all 1 rounds" or "1 hands": each carries its plural (``Conflict(*N_plural(singular, plural), n=...)``),
the page says it with ngettext in English and German, and the API in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput
from tests.support import ROOT, answer_text, fill, open_form, submit
from tests.support_tournament import make_tournament
from tools import messages

DRAWN = {
    (1, "en"): "The only round is drawn",
    (1, "de"): "Die einzige Runde ist ausgelost",
    (2, "en"): "All 2 rounds are drawn",
    (2, "de"): "Alle 2 Runden sind ausgelost",
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("rounds", [1, 2])
def test_drawing_beyond_the_last_round_counts_the_rounds_in_words(client, db, rounds, lang):
    t = make_tournament(db, n=8, rounds=rounds)
    for _ in range(rounds):
        tm.draw_round(db=db, tournament_id=t.id)
        for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[-1].tables:
            tm.enter_paper(db=db, tournament_id=t.id, round_number=_ + 1, table=table.number, points=[1, -1, 0, 0])
    answer = client.post(f"/tournaments/{t.id}/draw?lang={lang}")
    assert answer.status_code == 409
    assert DRAWN[rounds, lang] in answer_text(answer)
    assert "1 rounds" not in answer_text(answer) and "1 Runden" not in answer_text(answer)


def test_the_english_message_picks_the_form_by_its_count():
    assert Conflict("the only round is drawn", "all {n} rounds are drawn", n=1).message == "the only round is drawn"
    assert Conflict("the only round is drawn", "all {n} rounds are drawn", n=3).message == "all 3 rounds are drawn"
    refused = InvalidInput("solos", "from 0 to {n} deal", "from 0 to {n} deals", n=1)
    assert (refused.field, refused.message, refused.plural) == ("solos", "from 0 to 1 deal", "from 0 to {n} deals")
    with pytest.raises(TypeError):
        Conflict("{n} round", "{n} rounds")  # a plural counts n


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "this form was made when the night had 1 hand, now it has 2."),
        ("de", "dieses Formular stammt von 1 Spiel, jetzt sind es 2."),
    ],
)
def test_a_stale_form_of_one_hand_says_one_hand(client, night, lang, said):
    durch = {"contract": "durch", "declarer": 1, "won": 1}
    assert submit(client, night.id, durch).status_code == 302
    mine = fill(open_form(client, f"/nights/{night.id}/hands/new?lang={lang}"), durch)
    assert submit(client, night.id, durch).status_code == 302  # another phone, meanwhile
    answer = client.post(f"/nights/{night.id}/hands/new?lang={lang}", data={**mine, "action": "save"})
    assert answer.status_code == 409
    assert said in answer_text(answer)


LITERAL = r'"((?:[^"\\]|\\.)*)"'


def _sources() -> list[tuple[Path, str]]:
    """The core's modules (its migrations aside), each literal written over several lines joined into one."""
    core = ROOT / "scorekeeper" / "core"
    return [
        (path, re.sub(r'"\s*\n\s*"', "", path.read_text(encoding="utf-8")))
        for path in sorted(core.rglob("*.py"))
        if "migrations" not in path.parts
    ]


@pytest.fixture(scope="module")
def counted(tmp_path_factory) -> list[tuple[str, str]]:
    """Every refusal of the core written with a plural, as ``make messages`` extracts it: (singular, plural)."""
    pot = tmp_path_factory.mktemp("messages") / "messages.pot"
    messages.extract(pot, locations=True)
    with pot.open("rb") as f:
        return [
            m.id
            for m in read_po(f)
            if isinstance(m.id, tuple) and any(path.startswith("scorekeeper/core/") for path, _line in m.locations)
        ]


def test_every_counted_refusal_of_the_core_has_both_german_forms_with_its_placeholders(counted):
    assert len(counted) >= 18, counted
    with (ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    for singular, plural in counted:
        entry = catalog.get(singular)
        assert entry is not None and entry.pluralizable, singular
        assert entry.id == (singular, plural), singular
        assert len(entry.string) == 2 and all(entry.string), singular
        names = set(re.findall(r"\{(\w+)\}", plural))
        for form in entry.string:
            assert set(re.findall(r"\{(\w+)\}", form)) <= names, (singular, form)
        assert "{n}" in entry.string[1], singular


def test_no_refusal_of_the_core_counts_without_a_plural(counted):
    """A refusal whose text puts a count before a noun in the plural ("{n} rounds") carries the singular too."""
    plurals = {plural for _, plural in counted}
    nouns = "rounds|deals|hands|players|participants|characters|pairs|amounts|tables|solos"
    lone = [
        text
        for _, source in _sources()
        for text in re.findall(LITERAL, source)
        if re.search(rf"\{{n\}} (?:\w+ )?(?:{nouns})\b", text) and text not in plurals
    ]
    assert lone == []
