"""Ids are never reused: nights, hands, tournaments and players get SQLite's ``AUTOINCREMENT``.

Without it SQLite gives a deleted row's id (the highest) to the next row: a deleted night's id went
to the next new night, and a form or a hand kept offline for the deleted night then landed there
(issue 24). Each table is rebuilt in batch mode with ``sqlite_autoincrement``; its ids stay as
they are, and SQLite's counter starts from the highest. PostgreSQL's sequences never reuse an id:
nothing changes there.

Revision ID: 0012
Revises: 0011
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

#: the tables whose ids are never reused (the night's table keeps its first schema's name)
TABLES = ("evening", "handrecord", "tournament", "player")


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in TABLES:
        with op.batch_alter_table(table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}):
            pass


def upgrade() -> None:
    _rebuild(True)


def downgrade() -> None:
    _rebuild(False)
