"""Closing a night, the pot carried into a night, and a stable id for export and import.

Revision ID: 0002
Revises: 0001
"""

import uuid

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("evening") as batch:
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("pot_start", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
    evening = sa.table("evening", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    connection = op.get_bind()
    for (evening_id,) in connection.execute(sa.select(evening.c.id)).all():
        connection.execute(evening.update().where(evening.c.id == evening_id).values(uid=uuid.uuid4().hex))
    with op.batch_alter_table("evening") as batch:
        batch.alter_column("uid", existing_type=sa.String(length=32), nullable=False)
        batch.create_index("ix_evening_uid", ["uid"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("evening") as batch:
        batch.drop_index("ix_evening_uid")
        batch.drop_column("uid")
        batch.drop_column("pot_start")
        batch.drop_column("closed_at")
