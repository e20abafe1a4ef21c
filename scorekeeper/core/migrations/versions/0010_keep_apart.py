"""Tournaments: the pairs of participants the draw keeps apart (``tournament.keep_apart``).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("keep_apart", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("keep_apart")
