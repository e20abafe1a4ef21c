"""The history tests' nights: one night of four of ``players`` with its hands, closed or open, in a currency; the
leaderboard's money cells."""

from __future__ import annotations

import re
from datetime import date

from scorekeeper.core.hands import add_hands
from scorekeeper.core.nights import close_night, create_night
from tests.support import page_text


def night_in(db, players, hands, currency, game="matzlfangen", played_on=date(2026, 3, 1), closed=True):
    night = create_night(
        db=db,
        game=game,
        rules=None,
        stake_cents=10,
        player_ids=[p.id for p in players[:4]],
        first_dealer=1,
        played_on=played_on,
        currency=currency,
    )
    add_hands(db=db, night_id=night.id, hands=hands)
    if closed:
        close_night(db=db, night_id=night.id)
    return night


def standings(page: str) -> dict[str, str]:
    """The leaderboard's money cell of each player."""
    body = re.search(r'<table class="stats standings">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, page
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S):
        cells = [page_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows[cells[0].split()[0]] = cells[1]
    return rows
