"""Each hand keeps the night's sums after it (the balances without reading every hand).

Adds ``handrecord.running`` (``{"totals": per engine seat, "units": per table position}``) and
fills it for the nights whose hands have stored results, from those results (no settling). A night
whose hands have none keeps NULLs: it is settled from its hands when read, as before.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("handrecord") as batch:
        batch.add_column(sa.Column("running", sa.JSON(), nullable=True))
    fill(op.get_bind())


def fill(conn: sa.Connection) -> int:
    """Add up the stored results of every night whose hands all have one.

    Returns how many nights were filled.
    """
    from scorekeeper.core.stored import Running, running_sums
    from scorekeeper.engine import GAMES, HandResult

    night = sa.table("evening", sa.column("id"), sa.column("game"), sa.column("seat_count"))
    hand = sa.table(
        "handrecord",
        sa.column("id"),
        sa.column("evening_id"),
        sa.column("number"),
        sa.column("dealer"),
        sa.column("result", sa.JSON),
        sa.column("running", sa.JSON),
    )
    filled = 0
    for night_id, game, seat_count in conn.execute(sa.select(night.c.id, night.c.game, night.c.seat_count)).all():
        rows = conn.execute(
            sa.select(hand.c.id, hand.c.dealer, hand.c.result)
            .where(hand.c.evening_id == night_id)
            .order_by(hand.c.number)
        ).all()
        if not rows or any(r.result is None for r in rows):
            continue
        sums = running_sums(
            game=game,
            seat_count=seat_count,
            start=Running.start(GAMES[game].seats, seat_count),
            results=[HandResult.from_json(r.result) for r in rows],
            dealers=[r.dealer for r in rows],
        )
        conn.execute(
            hand.update().where(hand.c.id == sa.bindparam("hand_id")),
            [{"hand_id": r.id, "running": s.to_json()} for r, s in zip(rows, sums, strict=True)],
        )
        filled += 1
    return filled


def downgrade() -> None:
    with op.batch_alter_table("handrecord") as batch:
        batch.drop_column("running")
