"""A round's count of draws (``TournamentRound.attempt``: the lot of each draw again is the seed with it) survives
every change that draws the round again without being asked to: a withdrawal, a withdrawal taken back, a pair
kept apart. Only "draw again" counts one more; a withdrawal that set it back to 0 drew the first lot again."""

from __future__ import annotations

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import TournamentRound
from tests.support_tournament import make_tournament


def _attempt(db, t) -> int:
    db.rollback()
    return db.get(TournamentRound, (t.id, 1)).attempt


def test_a_withdrawal_during_a_drawn_round_keeps_its_count_of_draws(db):
    t = make_tournament(db, n=9)
    tm.draw_round(db=db, tournament_id=t.id)
    tm.redraw_round(db=db, tournament_id=t.id)
    tm.redraw_round(db=db, tournament_id=t.id)
    assert _attempt(db, t) == 2
    tm.withdraw_entrant(db=db, tournament_id=t.id, number=9)
    assert _attempt(db, t) == 2
    tm.take_back_withdrawal(db=db, tournament_id=t.id, number=9)
    assert _attempt(db, t) == 2
    tm.redraw_round(db=db, tournament_id=t.id)
    assert _attempt(db, t) == 3
