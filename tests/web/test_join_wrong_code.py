"""A wrong code at /join is answered in words that fit a club night and a tournament's table alike (a
table's card opens /join?table=1): one message, in both languages, and nothing is joined."""

from __future__ import annotations

import pytest

from tests.support import answer_text

WORDS = {
    "en": "No open night or tournament table has this code. Closed nights and finished tables can't be joined.",
    "de": "Kein offener Abend und kein Turniertisch hat diesen Code. "
    "Abgeschlossene Abende und fertige Tische kann niemand betreten.",
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("path", ["/join", "/join?table=1"])
def test_a_wrong_code_names_nights_and_tables(app, lang, path):
    phone = app.test_client()
    phone.set_cookie("lang", lang)
    answer = phone.post(path, data={"code": "ZZZZ-ZZZZ"})
    assert answer.status_code == 400
    assert WORDS[lang] in answer_text(answer)
    with phone.session_transaction() as cookie:
        assert not cookie.get("joined")
