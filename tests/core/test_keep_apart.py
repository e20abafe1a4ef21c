"""Keeping two participants apart (issue 25.1): the organiser marks pairs by start number, every draw
from then on seats them at different tables, a drawn round that has not started is drawn again where
they sit together, and the rounds say when the draw could not keep them apart."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.core.hands import record_hand
from tests.support_tournament import make_tournament

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}


def _tournament(db, n=16, rounds=4):
    return make_tournament(db, n, name="Preisschafkopf", rounds=rounds, deals=1)


def _tables(view_round):
    return [{e.number for e in table.entrants} for table in view_round.tables]


def _finish(db, view_round):
    for table in view_round.tables:
        record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)


def test_pairs_kept_apart_never_share_a_table_and_16_over_4_rounds_repeat_nobody(db):
    t = _tournament(db)
    tm.keep_apart(db=db, tournament_id=t.id, first=5, second=2)
    tm.keep_apart(db=db, tournament_id=t.id, first=9, second=10)
    assert t.keep_apart == [[2, 5], [9, 10]]
    met = set()
    for _ in range(4):
        tm.draw_round(db=db, tournament_id=t.id)
        current = tm.read_tournament(db=db, tournament_id=t.id).current
        assert current.together == []
        for table in _tables(current):
            assert not {2, 5} <= table and not {9, 10} <= table
            pairs = {(a, b) for a in table for b in table if a < b}
            assert not pairs & met
            met |= pairs
        _finish(db, current)


def test_a_drawn_round_not_started_is_drawn_again_when_a_pair_at_one_table_is_kept_apart(db):
    t = _tournament(db, n=8, rounds=2)
    tm.draw_round(db=db, tournament_id=t.id)
    first, second = sorted(_tables(tm.read_tournament(db=db, tournament_id=t.id).current)[0])[:2]
    tm.keep_apart(db=db, tournament_id=t.id, first=first, second=second)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert len(view.rounds) == 1
    assert not any({first, second} <= table for table in _tables(view.current))


def test_the_round_says_which_pairs_the_draw_could_not_keep_apart(db):
    """Eight players at two tables cannot keep three people all apart from each other."""
    t = _tournament(db, n=8, rounds=1)
    for a, b in ((1, 2), (1, 3), (2, 3)):
        tm.keep_apart(db=db, tournament_id=t.id, first=a, second=b)
    tm.draw_round(db=db, tournament_id=t.id)
    current = tm.read_tournament(db=db, tournament_id=t.id).current
    together = [(a, b) for a, b in ((1, 2), (1, 3), (2, 3)) if any({a, b} <= s for s in _tables(current))]
    assert current.together == together and len(together) == 1


def test_allowing_a_pair_together_again(db):
    t = _tournament(db, n=8)
    tm.keep_apart(db=db, tournament_id=t.id, first=1, second=2)
    tm.allow_together(db=db, tournament_id=t.id, first=2, second=1)
    assert t.keep_apart == []
    with pytest.raises(InvalidInput, match="not kept apart"):
        tm.allow_together(db=db, tournament_id=t.id, first=1, second=2)


@pytest.mark.parametrize(
    ("first", "second", "said"),
    [(1, 1, "two different"), (1, 99, "no participant"), (0, 2, "no participant"), ("1", 2, "no participant")],
)
def test_a_bad_pair_is_refused_and_nothing_changes(db, first, second, said):
    t = _tournament(db, n=8)
    version = t.version
    with pytest.raises(InvalidInput, match=said):
        tm.keep_apart(db=db, tournament_id=t.id, first=first, second=second)
    db.rollback()
    assert t.keep_apart == [] and t.version == version


def test_a_pair_twice_and_a_closed_tournament_are_refused(db):
    t = _tournament(db, n=8, rounds=1)
    tm.keep_apart(db=db, tournament_id=t.id, first=1, second=2)
    with pytest.raises(InvalidInput, match="already"):
        tm.keep_apart(db=db, tournament_id=t.id, first=2, second=1)
    tm.draw_round(db=db, tournament_id=t.id)
    _finish(db, tm.read_tournament(db=db, tournament_id=t.id).current)
    tm.close_tournament(db=db, tournament_id=t.id)
    with pytest.raises(Conflict, match="closed"):
        tm.keep_apart(db=db, tournament_id=t.id, first=3, second=4)
