"""A night closed or deleted from the very phone that keeps a hand for it in its outbox, in Chromium at 390 x 844:
the close and delete pages said nothing of it. They say how many hands of this night wait on this phone, and to
send them first."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_outbox import save_offline

pytestmark = pytest.mark.browser


def _kept_unsent(page, base: str, night: int) -> None:
    """A hand saved offline for ``night``, then the phone back online with its hand posts never getting through."""
    page.goto(f"{base}/nights/{night}")
    save_offline(page, base, night, ["Clara"])
    url = f"{base}/nights/{night}/hands/new"
    page.context.route(url, lambda r: r.abort() if r.request.method == "POST" else r.continue_())
    page.context.set_offline(False)


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("close", "Geschlossen nimmt der Abend sie nur, wenn er wieder geöffnet wird."),
        ("delete", "Gelöscht kann der Abend sie nie mehr aufnehmen"),
    ],
)
def test_the_close_and_delete_pages_say_that_hands_of_the_night_wait_on_this_phone(
    page, live, matzlfangen_night, path, says
):
    base, _ = live
    night = matzlfangen_night
    _kept_unsent(page, base, night)
    page.goto(f"{base}/nights/{night}/{path}")
    notice = page.locator("#night-waiting")
    expect(notice).to_be_visible()
    expect(notice.locator("[data-text]")).to_contain_text("noch nicht gesendet: 1.")
    expect(notice.locator("[data-text]")).to_contain_text(says)
    expect(notice.get_by_role("link", name="Zurück zum Tisch")).to_have_attribute("href", f"/nights/{night}")
    # its words start at the notice's padding, not a paragraph's margin below it (an empty band at its top before)
    box, text = notice.bounding_box(), notice.locator("[data-text]").bounding_box()
    assert text["y"] - box["y"] <= 13, (box, text)


def test_the_close_page_says_nothing_without_hands_waiting(page, live, matzlfangen_night):
    base, _ = live
    page.goto(f"{base}/nights/{matzlfangen_night}/close")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # (its script has read the store)
    expect(page.locator("#night-waiting")).to_be_hidden()
