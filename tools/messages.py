"""The German catalog kept in step with the code: ``make messages`` (``python -m tools.messages``).

It extracts every text marked for translation (babel.cfg says how: the pages' ``_()``, the
refusals' templates, ``N_``) and updates ``scorekeeper/translations/de/LC_MESSAGES/messages.po``
with it: a new text comes in untranslated, a text no longer in the code goes. The catalog is
kept as this writes it (sorted by the English text, without files and line numbers: the order of
the files is not the same on every Python, Babel numbers a text's line differently from 3.12 on,
and a change elsewhere in a file should move no entry): run on an unchanged checkout, on any
Python the project claims, it changes nothing.
tests/web/test_translations.py checks that the catalog has a German text for everything
extracted, nothing that would go, and that it is as this writes it.

Babel skips folders whose names begin with ``_`` unless told which folders to skip: the pages'
macros are in ``templates/_macros``, so only hidden folders (``.venv``, ``.git``) are skipped here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po"


def _pybabel(*args: str) -> None:
    """Babel's command line, run at the top of the checkout: the catalog names files from there."""
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "--quiet", *args], cwd=ROOT, check=True)


def extract(pot: Path, *, locations: bool = False) -> None:
    """Write every marked text of the code and the pages to ``pot`` (``locations``: with the files and
    lines each is in; the catalog is kept without them)."""
    _pybabel(
        "extract",
        *(() if locations else ("--no-location",)),
        "--mapping-file",
        str(ROOT / "babel.cfg"),
        "--ignore-dirs",
        ".*",
        "--project",
        "Scorekeeper",
        "--no-wrap",
        "--sort-output",
        "--output-file",
        str(pot),
        ".",
    )


def update(pot: Path, catalog: Path = CATALOG) -> None:
    """Bring the German catalog (or a copy of it, ``catalog``) in step with ``pot``."""
    _pybabel(
        "update",
        "--input-file",
        str(pot),
        "--output-file",
        str(catalog),
        "--locale",
        "de",
        "--no-wrap",
        "--ignore-obsolete",
        "--ignore-pot-creation-date",
    )


def main() -> int:
    pot = ROOT / "build" / "messages.pot"
    pot.parent.mkdir(exist_ok=True)
    extract(pot)
    update(pot)
    print(f'{CATALOG.relative_to(ROOT)}: updated; translate its new entries (msgstr "")')
    return 0


if __name__ == "__main__":
    sys.exit(main())
