"""Every text of the pages and every message of the engine has a German translation."""

from __future__ import annotations

from babel.messages.pofile import read_po

from tests.support import ROOT
from tools import messages

CATALOG = ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po"


def _catalog():
    with CATALOG.open("rb") as f:
        return read_po(f)


def _msgid(message) -> str:
    """A message's id; a text with a plural is named by its singular."""
    return message.id if isinstance(message.id, str) else message.id[0]


def _extracted(tmp_path, locations: bool = False) -> dict:
    """What ``make messages`` extracts (tools/messages.py), by id."""
    pot = tmp_path / "messages.pot"
    messages.extract(pot, locations=locations)
    with pot.open("rb") as f:
        return {_msgid(m): m for m in read_po(f) if m.id}


def _extracted_in_context(tmp_path) -> list:
    """What ``make messages`` extracts, as (id, context): a text marked with a context (``pgettext``,
    ``npgettext``) is another entry of the catalog than the same text without one."""
    pot = tmp_path / "messages.pot"
    messages.extract(pot, locations=False)
    with pot.open("rb") as f:
        return [(_msgid(m), m.context) for m in read_po(f) if m.id]


def test_every_text_of_the_pages_has_a_german_translation(tmp_path):
    wanted = _extracted_in_context(tmp_path)
    catalog = _catalog()

    def translated(msgid: str, context: str | None) -> bool:
        entry = catalog.get(msgid, context=context)
        # a fuzzy entry (``make messages`` guessed it from a similar text) is not used by the app: not translated yet
        return entry is not None and bool(entry.string) and not entry.fuzzy and all(entry.string)

    assert [m for m in wanted if not translated(*m)] == []


def test_the_macros_texts_are_extracted_too(tmp_path):
    """Babel skips folders beginning with ``_`` unless told otherwise: a new text in a macro went
    unnoticed by the test above, and ``make messages`` would have dropped the macros' texts."""
    wanted = _extracted(tmp_path, locations=True)
    assert "%(payer)s pays %(amount)s into the pot" in wanted  # templates/_macros/payments.html
    assert any(path == "templates/_macros/pot.html" for path, _line in wanted["Shared out at the close."].locations)


def test_make_messages_keeps_every_entry_of_the_catalog(tmp_path):
    """Every German text is of something the extractor finds, so ``make messages`` (``pybabel update``)
    keeps it: a refusal's template chosen by a condition, a word filled into a message and WTForms'
    messages are marked ``N_`` (babel.cfg). An entry nothing uses any more is removed."""
    wanted = _extracted(tmp_path)
    catalog = _catalog()
    in_context = set(_extracted_in_context(tmp_path))
    assert [m.id for m in catalog if m.id and (_msgid(m), m.context) not in in_context] == []
    plural = [m.id for m in catalog if m.id and isinstance(m.id, tuple)]
    assert all(isinstance(wanted[ids[0]].id, tuple) for ids in plural), "a plural kept as a plural"


def test_the_catalog_is_as_make_messages_writes_it(tmp_path):
    """``make messages`` run on this checkout changes nothing: the catalog was kept by hand in an order of
    its own, and the first run rewrote the whole file (5,900 lines), so every maintainer put new entries in
    by hand at its end instead. It holds on every Python the suite runs on (.ci/run: 3.11 and the newest):
    the catalog ordered by the files' places was another order on 3.13."""
    pot, copy = tmp_path / "messages.pot", tmp_path / "messages.po"
    copy.write_bytes(CATALOG.read_bytes())
    messages.extract(pot)
    messages.update(pot, copy)
    assert copy.read_text(encoding="utf-8") == CATALOG.read_text(encoding="utf-8")


def test_the_app_s_catalog_has_only_the_wtforms_messages_wtforms_lacks():
    from babel.support import Translations
    from flask_wtf.i18n import messages_path

    from scorekeeper.web.i18n import WTFORMS_GAPS

    theirs = Translations.load(messages_path(), ["de"], domain="wtforms")
    catalog = _catalog()
    for entry in WTFORMS_GAPS:
        if isinstance(entry, tuple):
            assert theirs.ungettext(*entry, 2) == entry[1], entry
            assert catalog[entry[0]].string[1], entry
        else:
            assert theirs.ugettext(entry) == entry, entry
            assert catalog[entry].string, entry


def test_every_engine_message_template_has_a_german_translation_with_the_same_placeholders():
    import re

    from scorekeeper.engine import errors

    templates = set()
    for path in (ROOT / "scorekeeper" / "engine").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        # the template (third argument) of each InvalidHand( ... ) call written as one literal;
        # templates composed from a caller's text (forbid, check_object) are checked through their callers
        for call in re.finditer(r"InvalidHand\(\s*[^,]+,\s*[^,]+,\s*\"((?:[^\"\\]|\\.)*)\"\s*[,)]", source):
            templates.add(call.group(1))
    assert len(templates) > 30, "the engine's message templates were not found"
    catalog = _catalog()
    missing = [t for t in templates if t not in catalog or not catalog[t].string]
    assert missing == []
    placeholders = re.compile(r"\{(\w+)\}")
    for t in templates:
        assert sorted(placeholders.findall(catalog[t].string)) == sorted(placeholders.findall(t)), t
    assert errors.InvalidHand(0, "x", "{name} is required", name="x").message == "x is required"
