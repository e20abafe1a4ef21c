"""Tournaments: each reopening of a closed tournament, with its time and reason
(``tournament.reopened``; issue 24: a closed tournament is reopened by an admin, audited, visibly).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament", sa.Column("reopened", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("tournament", "reopened")
