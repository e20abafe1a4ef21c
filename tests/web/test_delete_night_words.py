"""The night's delete page says what goes in plain words (seams 6): no "its 0 hands" ("seine 0 Spiele") for a
night without hands, the singular for one hand, the count from two on; in German and in English."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand
from tests.support import DURCH


def _said(client, night_id: int, lang: str) -> str:
    page = client.get(f"/nights/{night_id}/delete?lang={lang}").get_data(as_text=True)
    first = re.search(r"</h1>\s*<p>(.*?)</p>", page, re.S)
    assert first, page[:500]
    return re.sub(r"\s+", " ", first.group(1))


@pytest.mark.parametrize(
    ("hands", "lang", "says", "never"),
    [
        (0, "de", "Er hat noch keine Spiele", "0 Spiele"),
        (0, "en", "It has no hands yet", "0 hands"),
        (1, "de", "sein einziges Spiel und sein Platz", "1 Spiele"),
        (1, "en", "its one hand and its place", "1 hands"),
        (2, "de", "seine 2 Spiele und sein Platz", "seine 2 Spiel "),
        (2, "en", "its 2 hands and its place", "its 2 hand "),
    ],
)
def test_the_delete_page_says_how_many_hands_go_in_plain_words(client, db, night, hands, lang, says, never):
    for _ in range(hands):
        record_hand(db=db, night_id=night.id, hand=DURCH)
    said = _said(client, night.id, lang)
    assert says in said, said
    assert never not in said, said
