"""Issue 26.2 on a phone: choosing Ramsch shows no error before anything is typed; once a row of its points
is typed, the live preview says that they must add up to 120, under the rows' one label (Augen pro Spieler)."""

from __future__ import annotations

import pytest

from tests.browser.test_hand_form import night_of, phone, tap  # noqa: F401 (phone: the fixture)

pytestmark = pytest.mark.browser


def test_choosing_ramsch_shows_no_error_and_a_typed_row_the_sum_under_the_rows_label(phone, live, roster):  # noqa: F811
    base, _ = live
    night = night_of(live, roster, "schafkopf", rules={"all_pass": "ramsch"})
    page = phone("390x844")
    page.goto(f"{base}/nights/{night}/hands/new")
    with page.expect_response(lambda r: "fragment=1" in r.url):
        tap(page, "contract", "Ramsch")
    page.wait_for_timeout(200)  # the answer is read into the box
    assert page.locator("#preview").inner_text().strip() == ""  # no error before input
    assert page.locator("#points_each legend").inner_text() == "Augen pro Spieler"
    page.fill("#ramsch_1", "60")
    page.locator("#ramsch_1").press("Tab")  # the row is left: the hand is previewed
    link = page.locator("#preview-errors a")
    link.wait_for()
    assert link.inner_text() == "Augen pro Spieler: Die Augen müssen zusammen 120 ergeben, nicht 60"
    assert link.get_attribute("data-field") == "points_each"
