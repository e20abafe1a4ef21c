"""A change on the tournament's page leads back to its section (``#round-2``, ``#entrants``, ``#apart``), and its
message was said at the page's top, above that section: the page opened at the section, so on a phone the message
was scrolled off the screen and never seen ("The points of table 2 are entered."). The message is now said at
the section the page opens at, under its heading, in English and German; a refusal (no section to open at) stays
at the top."""

from __future__ import annotations

import re

import pytest

from tests.support import form_values, page_text
from tests.support_tournament import make_tournament

ENTERED = {"en": "The points of table 2 are entered.", "de": "Die Punkte von Tisch 2 sind eingetragen."}


def _section(page: str, anchor: str) -> str:
    """The words of the page's section ``anchor``."""
    match = re.search(rf'<section [^>]*id="{anchor}">(.*?)</section>', page, re.S)
    assert match, anchor
    return page_text(match.group(1))


def _top(page: str) -> str:
    """The words of the page above its first section."""
    return page_text(page.split("<section", 1)[0])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_points_entered_are_said_at_the_round_the_page_opens_at(client, db, lang):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    paper = f"/tournaments/{t.id}/rounds/1/tables/2/paper"
    data = form_values(client.get(paper).get_data(as_text=True)) | {"p1": "3", "p2": "-3", "p3": "0", "p4": "0"}
    answer = client.post(f"{paper}?lang={lang}", data=data)
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location.endswith("#round-1")  # the page opens at the round, as before
    page = client.get(f"{location.split('#')[0]}&lang={lang}").get_data(as_text=True)
    said = _section(page, "round-1")
    assert said.index(ENTERED[lang]) < said.index("2")  # under the round's heading, above its tables
    assert ENTERED[lang] not in _top(page)  # said once, where it is seen


@pytest.mark.parametrize(
    ("post", "data", "anchor", "said"),
    [
        ("entrants", {"guest": "Xaver"}, "entrants", "Start number 9 is entered."),
        ("apart", {"first": "1", "second": "2"}, "apart", "1 and 2 are kept apart from the next draw on."),
        ("entrants/3/withdraw", {"confirm": "3"}, "entrants", "(start number 3) has withdrawn"),
        ("draw", {}, "round-1", "Round 1 is drawn."),
    ],
)
def test_each_change_leading_to_a_section_is_said_there(client, db, post, data, anchor, said):
    t = make_tournament(db, n=8)
    answer = client.post(f"/tournaments/{t.id}/{post}?lang=en", data=data)
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"#{anchor}")
    page = client.get(f"{answer.headers['Location'].split('#')[0]}&lang=en").get_data(as_text=True)
    assert said in _section(page, anchor)
    assert said not in _top(page)


def test_a_section_the_page_no_longer_has_or_a_refusal_is_said_at_the_top(client, db):
    t = make_tournament(db, n=8)
    client.post(f"/tournaments/{t.id}/draw")
    client.get(f"/tournaments/{t.id}")  # the draw's message said
    answer = client.post(f"/tournaments/{t.id}/draw?lang=en")  # round 1 is not over: refused, the page at once
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert 'class="flash flash-error"' in page.split("<section", 1)[0]
    client.post(f"/tournaments/{t.id}/apart", data={"first": "1", "second": "2"})
    page = client.get(f"/tournaments/{t.id}?said=round-7&lang=en").get_data(as_text=True)  # no round 7
    assert "1 and 2 are kept apart from the next draw on." in _top(page)
