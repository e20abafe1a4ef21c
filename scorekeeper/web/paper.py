"""A table's paper list saved from a request: the one call of the core's ``enter_paper`` (core/tournaments/paper.py,
the one place of its rules) that the paper form's page and the API's route make, each from a mapping of the
request's values by the core's names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import TournamentTable
from scorekeeper.web import life
from scorekeeper.web.context import get_db

#: What a paper list says, by the core's names (and the API's fields): each player's points and solos, and
#: the table it was made for (its night, its players by table position, its night's version).
VALUES = ("points", "solos", "night_uid", "player_ids", "night_version")


def save_paper(tournament_id: Any, round_number: Any, table: Any, values: Mapping[str, Any]) -> TournamentTable:
    """Save table ``table``'s paper list of round ``round_number`` as the asker (``values``: by ``VALUES``'
    names, one not there is None). Its refusals are the core's."""
    return tm.enter_paper(
        db=get_db(),
        tournament_id=tournament_id,
        round_number=round_number,
        table=table,
        who=life.who(None),
        **{name: values.get(name) for name in VALUES},
    )
