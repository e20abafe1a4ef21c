"""Tournaments: each table's solos won and lost per player, stored as each hand is recorded or
typed from the paper list (``tournament_table.solos``); the people a start number had before a
replacement (``tournament_entrant.former``).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_table") as batch:
        batch.add_column(sa.Column("solos", sa.JSON(), nullable=True))
    with op.batch_alter_table("tournament_entrant") as batch:
        batch.add_column(sa.Column("former", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrant") as batch:
        batch.drop_column("former")
    with op.batch_alter_table("tournament_table") as batch:
        batch.drop_column("solos")
