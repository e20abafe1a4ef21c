"""Every text of the pages and every message of the engine has a German translation."""

from __future__ import annotations

import subprocess
import sys

from babel.messages.pofile import read_po

from tests.support import ROOT

CATALOG = ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po"


def _catalog():
    with CATALOG.open("rb") as f:
        return read_po(f)


def test_every_text_of_the_pages_has_a_german_translation(tmp_path):
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "_l",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        wanted = [m.id for m in read_po(f) if m.id]
    catalog = _catalog()
    assert [m for m in wanted if m not in catalog or not catalog[m].string] == []


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
