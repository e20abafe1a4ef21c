"""What the tournament tests share (tests/core, tests/web): a tournament of numbered players."""

from __future__ import annotations

from typing import Any

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import Tournament
from scorekeeper.core.players import create_player


def make_tournament(db, n: int = 8, *, name: str = "Turnier", deals: int = 2, **kwargs: Any) -> Tournament:
    """A Schafkopf tournament under the ``turnier`` preset (seed ``s``) with ``n`` players of the roster,
    ``Spieler 1`` .. ``Spieler n``, entered in that order (start numbers 1..n)."""
    t = tm.create_tournament(
        db=db, name=name, game="schafkopf", rules={"preset": "turnier"}, deals=deals, seed="s", **kwargs
    )
    for i in range(n):
        p = create_player(db=db, name=f"Spieler {i + 1}")
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    return t
