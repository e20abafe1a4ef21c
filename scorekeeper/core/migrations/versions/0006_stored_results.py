"""Each hand keeps its result and the state after it (incremental settling).

Adds ``handrecord.result`` and ``handrecord.state`` and fills them for the hands already
recorded by settling each night once with the engine. A night the engine refuses (stored
before a rule was checked) keeps NULLs: it is settled from its hands when read, as before.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("handrecord") as batch:
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("state", sa.JSON(), nullable=True))
    fill(op.get_bind())


def fill(conn: sa.Connection) -> int:
    """Settle every night that has hands once and store each hand's result and state.

    Returns how many nights were filled.
    """
    from scorekeeper.core.stored import stored_columns

    night = sa.table("evening", sa.column("id"), sa.column("game"), sa.column("rules", sa.JSON), sa.column("pot_start"))
    hand = sa.table(
        "handrecord",
        sa.column("id"),
        sa.column("evening_id"),
        sa.column("number"),
        sa.column("data", sa.JSON),
        sa.column("result", sa.JSON),
        sa.column("state", sa.JSON),
    )
    filled = 0
    nights = conn.execute(sa.select(night.c.id, night.c.game, night.c.rules, night.c.pot_start)).all()
    for night_id, game, rules, pot_start in nights:
        rows = conn.execute(
            sa.select(hand.c.id, hand.c.data).where(hand.c.evening_id == night_id).order_by(hand.c.number)
        ).all()
        if not rows:
            continue
        columns = stored_columns(game=game, rules=rules, pot_start=pot_start, hands=[r.data for r in rows])
        if columns is None:
            continue
        conn.execute(
            hand.update().where(hand.c.id == sa.bindparam("hand_id")),
            [{"hand_id": r.id, "result": c[0], "state": c[1]} for r, c in zip(rows, columns, strict=True)],
        )
        filled += 1
    return filled


def downgrade() -> None:
    with op.batch_alter_table("handrecord") as batch:
        batch.drop_column("state")
        batch.drop_column("result")
