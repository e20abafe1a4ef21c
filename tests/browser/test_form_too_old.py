"""Issue 22.4 in the browser: a hand form whose token its session no longer knows says so in the
page's language: the live preview in one line (never a whole page nested in its box), a save by the
form shown again, filled in, above it the same sentence; nothing is saved until it is saved again."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.table import load_table

pytestmark = pytest.mark.browser

TOO_OLD = "Das Formular war zu alt, bitte noch einmal speichern."


def _hands(live, night: int) -> int:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return len(load_table(db=db, night_id=night).hands)


def test_a_stale_form_token_is_said_in_one_line_in_the_preview_and_above_the_form_on_saving(
    page, live, matzlfangen_night
):
    base, _ = live
    page.goto(f"{base}/nights/{matzlfangen_night}/hands/new")
    page.evaluate("document.querySelector('input[name=csrf_token]').value = 'a-token-of-another-session'")
    page.locator("#partner-group label", has_text=re.compile("^Anna$")).click()
    page.fill("#points", "70")
    line = page.locator("#preview p.preview-refused")
    line.wait_for()
    assert line.inner_text() == TOO_OLD
    assert page.locator("#preview header, #preview main, #preview h1").count() == 0  # no page in the box
    page.locator("#save").click()
    page.wait_for_load_state("load")
    assert TOO_OLD in page.locator("main").inner_text()
    assert page.input_value("#points") == "70"  # kept
    assert _hands(live, matzlfangen_night) == 0
    page.locator("#save").click()  # the page's new token: saved
    page.wait_for_url(f"**/nights/{matzlfangen_night}#balance")
    assert _hands(live, matzlfangen_night) == 1
