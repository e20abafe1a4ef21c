"""Accounts, API tokens, the rate limit's failed attempts, and a night's join code.

Revision ID: 0004
Revises: 0003
"""

import secrets

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TEXT = sqlmodel.sql.sqltypes.AutoString
_TIME = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    with op.batch_alter_table("evening") as batch:
        batch.add_column(sa.Column("join_code", _TEXT(length=8), nullable=True))
        batch.create_unique_constraint("uq_evening_join_code", ["join_code"])
    op.create_table(
        "user_account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", _TEXT(length=40), nullable=False),
        sa.Column("role", _TEXT(length=10), nullable=False),
        sa.Column("password_hash", _TEXT(length=255), nullable=False),
        sa.Column("stamp", _TEXT(length=32), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("digest", _TEXT(length=64), nullable=False),
        sa.Column("label", _TEXT(length=80), nullable=False),
        sa.Column("created_at", _TIME(), nullable=False),
        sa.Column("revoked_at", _TIME(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user_account.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )
    op.create_index("ix_api_token_user_id", "api_token", ["user_id"])
    op.create_table(
        "login_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", _TEXT(length=120), nullable=False),
        sa.Column("at", _TIME(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_login_failure_key_at", "login_failure", ["key", "at"])
    # the nights open at the upgrade get their join codes (new nights get theirs when they start)
    evening = sa.table("evening", sa.column("id", sa.Integer), sa.column("status"), sa.column("join_code"))
    connection = op.get_bind()
    taken: set[str] = set()
    for (night,) in connection.execute(sa.select(evening.c.id).where(evening.c.status == "open")).all():
        code = _code(taken)
        connection.execute(sa.update(evening).where(evening.c.id == night).values(join_code=code))


def _code(taken: set[str]) -> str:
    """A new join code (the alphabet of nights.JOIN_ALPHABET, written out: a migration stays as it was)."""
    while True:
        code = "".join(secrets.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(6))
        if code not in taken:
            taken.add(code)
            return code


def downgrade() -> None:
    op.drop_table("login_failure")
    op.drop_table("api_token")
    op.drop_table("user_account")
    with op.batch_alter_table("evening") as batch:
        batch.drop_constraint("uq_evening_join_code", type_="unique")
        batch.drop_column("join_code")
