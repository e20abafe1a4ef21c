"""The club's history: per-night results per player and per contract, retired players, roster changes.

The result tables are filled by the app on start (``history.refresh_missing``) from
the nights' hands, with the same code that keeps them current afterwards.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_TEXT = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("retired", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "roster_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", _TEXT(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("uid", _TEXT(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    op.create_index("ix_roster_change_player_id", "roster_change", ["player_id"])
    counts = ("hands", "units", "cents", "declared", "won", "matzl_caught", "matzl_lost", "touts", "touts_won")
    op.create_table(
        "night_result",
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", _TEXT(length=20), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (*counts, "games_won", "matches_won")),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("evening_id", "player_id"),
    )
    op.create_index("ix_night_result_player_played", "night_result", ["player_id", "played_on"])
    op.create_index("ix_night_result_game_played", "night_result", ["game", "played_on"])
    op.create_table(
        "contract_result",
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("contract", _TEXT(length=20), nullable=False),
        sa.Column("game", _TEXT(length=20), nullable=False),
        sa.Column("declared", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["evening_id"], ["evening.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("evening_id", "player_id", "contract"),
    )
    op.create_index("ix_contract_result_player_id", "contract_result", ["player_id"])


def downgrade() -> None:
    op.drop_table("contract_result")
    op.drop_table("night_result")
    op.drop_table("roster_change")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("retired")
