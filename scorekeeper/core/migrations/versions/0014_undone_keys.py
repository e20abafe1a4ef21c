"""Audit entries: an undo keeps the idempotency key of the hand it took back
(``auditentry.idempotency_key``), so that the hand sent again with that key is not recorded again.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("auditentry", sa.Column("idempotency_key", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auditentry", schema=None) as batch_op:
        batch_op.drop_column("idempotency_key")
