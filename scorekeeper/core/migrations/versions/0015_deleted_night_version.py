"""A deleted night keeps the last version it had (``deleted_night.version``): a restore moves every
version past it too, so a night deleted since the backup comes back at a version no phone has seen
(core/backup.py ``_past_live``).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deleted_night", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("deleted_night", schema=None) as batch_op:
        batch_op.drop_column("version")
