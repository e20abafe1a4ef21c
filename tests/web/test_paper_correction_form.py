"""A table's paper points typed before open in its paper form ("Correct the paper points"): the
organiser corrects them and does not type all of them again (found looking at the page at 390×844:
the form opened empty)."""

from __future__ import annotations

import re

from scorekeeper.core import tournaments as tm
from tests.support_tournament import make_tournament


def _value(page: str, name: str) -> str | None:
    field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert field, name
    value = re.search(r'value="([^"]*)"', field.group(0))
    return value.group(1) if value else None


def test_the_paper_form_of_a_table_with_points_shows_them_to_correct(client, db):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    tm.enter_paper(
        db=db, tournament_id=t.id, round_number=1, table=1, points=[10, -10, 5, -5], solos=[[1, 0], None, [0, 1], None]
    )
    page = client.get(f"/tournaments/{t.id}/rounds/1/tables/1/paper?lang=en").get_data(as_text=True)
    assert [_value(page, f"p{i}") for i in range(1, 5)] == ["10", "-10", "5", "-5"]
    assert [(_value(page, f"w{i}"), _value(page, f"l{i}")) for i in range(1, 5)] == [
        ("1", "0"),
        ("", ""),
        ("0", "1"),
        ("", ""),
    ]


def test_the_paper_form_of_a_table_without_points_is_empty(client, db):
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    page = client.get(f"/tournaments/{t.id}/rounds/1/tables/2/paper?lang=en").get_data(as_text=True)
    assert [_value(page, f"p{i}") for i in range(1, 5)] == [""] * 4
