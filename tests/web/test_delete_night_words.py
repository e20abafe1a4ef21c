"""The night's delete page says what goes in plain words (seams 6): no "its 0 hands" ("seine 0 Spiele") for a
night without hands, the singular for one hand, the count from two on; in German and in English; and in the
game's own word for a hand (``hand_word``): a Konter a Matt night's Partien, a Matt night's Durchgänge."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core.hands import record_hand
from tests.support import DURCH, start_night


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
        (1, "de", "alles Eingetragene (bisher 1 Spiel)", "1 Spiele"),
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


#: Konter a Matt: team B has trumps and wins 30:10. Matt: Anna mates on move 3 with the ace.
PARTIE = {"trump_team": "B", "points_a": 10}
DURCHGANG = {"mated_by": 1, "move": 3, "card": "A"}


@pytest.mark.parametrize(
    ("game", "seats", "hand", "lang", "says"),
    [
        ("konter_a_matt", 4, PARTIE, "de", ["Er hat noch keine Partien;", "(bisher 1 Partie)", "seine 3 Partien und"]),
        ("konter_a_matt", 4, PARTIE, "en", ["It has no parties yet", "its one partie and", "its 3 parties and"]),
        ("matt", 2, DURCHGANG, "de", ["noch keine Durchgänge;", "(bisher 1 Durchgang)", "seine 3 Durchgänge und"]),
        ("matt", 2, DURCHGANG, "en", ["It has no Durchgänge yet", "its one Durchgang and", "its 3 Durchgänge and"]),
    ],
)
def test_the_delete_page_names_the_hands_in_the_games_own_word(client, db, players, game, seats, hand, lang, says):
    night = start_night(db, players, game=game, seats=seats)
    pages = [_said(client, night.id, lang)]  # none
    record_hand(db=db, night_id=night.id, hand=hand)
    pages.append(_said(client, night.id, lang))  # one
    for _ in range(2):
        record_hand(db=db, night_id=night.id, hand=hand)
    pages.append(_said(client, night.id, lang))  # three
    assert [s for s, page in zip(says, pages, strict=True) if s not in page] == [], pages
    assert not any(word in page for page in pages for word in ("Spiel", "hand ", "hands")), pages


@pytest.mark.parametrize(
    ("lang", "heading", "reason", "night_word"),
    [
        ("de", "Tisch löschen", "Ein Tisch eines Turniers wird nicht für sich gelöscht", r"\bAbends?\b"),
        ("en", "Delete the table", "A tournament's table is not deleted on its own", r"\bnight\b"),
    ],
)
def test_a_tournament_tables_delete_page_speaks_of_the_table_and_deletes_nothing(
    client, db, lang, heading, reason, night_word
):
    """A tournament's table is never deleted on its own (core/lifecycle.py): its delete page, reached by a post
    (its GET goes back to the table, which says why), says why in the table's words, offers no form, and the
    table stays, whatever the post holds (a reason and the tick, or nothing)."""
    from scorekeeper.core import tournaments as tm
    from tests.support import answer_text, snapshot
    from tests.support_tournament import make_tournament

    t = make_tournament(db, 4, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    away = client.get(f"/nights/{table.id}/delete?lang={lang}")
    assert away.status_code == 302
    said = [answer_text(client.get(away.location))]
    assert reason in said[0]
    before = snapshot(db)
    for data in ({"reason": "falsch ausgelost", "confirm": "y"}, {}):
        answer = client.post(f"/nights/{table.id}/delete?lang={lang}", data=data)
        assert answer.status_code == 409
        page = answer.get_data(as_text=True)
        assert f"<h1>{heading}</h1>" in page and reason in answer_text(answer)
        assert 'name="confirm"' not in page and 'name="reason"' not in page  # no form to fill in vain
        said.append(answer_text(answer))
    assert snapshot(db) == before
    assert not [re.findall(rf".{{0,40}}{night_word}.{{0,40}}", s, re.I) for s in said if re.search(night_word, s, re.I)]
