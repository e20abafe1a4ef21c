"""Schafkopf's stored results gain the pot's steps (paid in, taken out, what the pot holds).

The engine's steps for a Schafkopf hand now show the pot, so the results stored with each hand
(``handrecord.result``, the engine's own output) are stored again: every Schafkopf night whose
hands all have results is settled once from its hands. No money moves: the balances, the pot and
the running sums come out as they were; only the steps are new. A night the engine refuses keeps
what it has (it is settled when read, as before).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: The games whose steps changed with this revision.
GAMES = ("schafkopf",)


def upgrade() -> None:
    fill(op.get_bind())


def fill(conn: sa.Connection, games: tuple[str, ...] = GAMES) -> int:
    """Store the results, states and sums of every night of ``games`` again, settled afresh.

    Returns how many nights were stored again.
    """
    from scorekeeper.core.stored import stored_columns

    night = sa.table(
        "evening",
        sa.column("id"),
        sa.column("game"),
        sa.column("rules", sa.JSON),
        sa.column("pot_start"),
        sa.column("seat_count"),
    )
    hand = sa.table(
        "handrecord",
        sa.column("id"),
        sa.column("evening_id"),
        sa.column("number"),
        sa.column("dealer"),
        sa.column("data", sa.JSON),
        sa.column("result", sa.JSON),
        sa.column("state", sa.JSON),
        sa.column("running", sa.JSON),
    )
    stored = 0
    nights = conn.execute(
        sa.select(night.c.id, night.c.game, night.c.rules, night.c.pot_start, night.c.seat_count).where(
            night.c.game.in_(games)
        )
    ).all()
    for night_id, game, rules, pot_start, seat_count in nights:
        rows = conn.execute(
            sa.select(hand.c.id, hand.c.dealer, hand.c.data, hand.c.result)
            .where(hand.c.evening_id == night_id)
            .order_by(hand.c.number)
        ).all()
        if not rows or any(r.result is None for r in rows):
            continue  # never stored: settled when read, stored whole with its next change
        columns = stored_columns(
            game=game,
            rules=rules,
            pot_start=pot_start,
            hands=[r.data for r in rows],
            dealers=[r.dealer for r in rows],
            seat_count=seat_count,
        )
        if columns is None:
            continue
        conn.execute(
            hand.update().where(hand.c.id == sa.bindparam("hand_id")),
            [
                {"hand_id": r.id, "result": c[0], "state": c[1], "running": c[2]}
                for r, c in zip(rows, columns, strict=True)
            ],
        )
        stored += 1
    return stored


def downgrade() -> None:
    """Nothing to undo: the older code reads the new steps as any other (a step it has no text
    for shows the engine's English ``what``)."""
