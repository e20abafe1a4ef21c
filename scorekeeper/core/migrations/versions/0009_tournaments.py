"""Tournaments: the tournament, its entrants, its rounds and tables; a night as a tournament's
table (``evening.tournament_id``, ``evening.deals``); a guest player (``player.guest``).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_TEXT = sqlmodel.sql.sqltypes.AutoString
_TIME = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", _TEXT(length=32), nullable=False),
        sa.Column("name", _TEXT(length=80), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("place", _TEXT(length=80), nullable=False),
        sa.Column("game", _TEXT(length=20), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("entry_fee_cents", sa.Integer(), nullable=False),
        sa.Column("prizes", sa.JSON(), nullable=False),
        sa.Column("seed", _TEXT(length=32), nullable=False),
        sa.Column("status", _TEXT(length=10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", _TIME(), nullable=False),
        sa.Column("closed_at", _TIME(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    op.create_index("ix_tournament_played_on", "tournament", ["played_on"])
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("evening") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("deals", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_evening_tournament_id_tournament", "tournament", ["tournament_id"], ["id"])
        batch.create_index("ix_evening_tournament_id", ["tournament_id"])
    op.create_table(
        "tournament_entrant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "number"),
        sa.UniqueConstraint("tournament_id", "player_id"),
    )
    op.create_index("ix_tournament_entrant_tournament_id", "tournament_entrant", ["tournament_id"])
    op.create_table(
        "tournament_round",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("drawn_at", _TIME(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_table",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("paper", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.PrimaryKeyConstraint("tournament_id", "round", "number"),
        sa.UniqueConstraint("evening_id"),
    )


def downgrade() -> None:
    op.drop_table("tournament_table")
    op.drop_table("tournament_round")
    op.drop_index("ix_tournament_entrant_tournament_id", table_name="tournament_entrant")
    op.drop_table("tournament_entrant")
    with op.batch_alter_table("evening") as batch:
        batch.drop_index("ix_evening_tournament_id")
        batch.drop_constraint("fk_evening_tournament_id_tournament", type_="foreignkey")
        batch.drop_column("deals")
        batch.drop_column("tournament_id")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("guest")
    op.drop_index("ix_tournament_played_on", table_name="tournament")
    op.drop_table("tournament")
