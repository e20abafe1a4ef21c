"""A redeal is no hand played (docs/rules.md, "The club's history"): the result rows of the club nights
whose rules deal a hand again (Schafkopf under ``all_pass: "redeal"``) were written counting each redeal
as a hand. They are removed here, and the app writes them again at its start from the nights' hands
(``history.refresh_missing``, as after 0003), counted as now.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    forget(op.get_bind())


def forget(conn: sa.Connection) -> int:
    """Remove the result rows of every club night whose rules deal a hand again; how many nights."""
    night = sa.table(
        "evening", sa.column("id"), sa.column("game"), sa.column("rules", sa.JSON), sa.column("tournament_id")
    )
    redealt = [
        night_id
        for night_id, rules in conn.execute(
            sa.select(night.c.id, night.c.rules).where(night.c.game == "schafkopf", night.c.tournament_id.is_(None))
        )
        if (rules or {}).get("all_pass") == "redeal"
    ]
    for name in ("night_result", "contract_result"):
        rows = sa.table(name, sa.column("evening_id"))
        for start in range(0, len(redealt), 500):
            conn.execute(sa.delete(rows).where(rows.c.evening_id.in_(redealt[start : start + 500])))
    return len(redealt)


def downgrade() -> None:
    pass  # the rows the app writes again are those of 0016's app less the redeals: nothing to undo
