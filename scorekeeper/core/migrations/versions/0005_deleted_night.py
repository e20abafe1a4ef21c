"""Nights deleted by an admin, kept with their reason and their whole export.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_TEXT = sqlmodel.sql.sqltypes.AutoString
_TIME = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "deleted_night",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", _TEXT(length=32), nullable=False),
        sa.Column("game", _TEXT(length=20), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("reason", _TEXT(length=200), nullable=False),
        sa.Column("export", sa.JSON(), nullable=False),
        sa.Column("at", _TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_deleted_night_uid", "deleted_night", ["uid"])


def downgrade() -> None:
    op.drop_index("ix_deleted_night_uid", table_name="deleted_night")
    op.drop_table("deleted_night")
