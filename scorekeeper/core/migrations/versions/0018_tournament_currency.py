"""Tournaments: the currency of the entry fee and the prizes (``tournament.currency``). Before, a tournament's
money was shown in the club's currency of the moment (``SCOREKEEPER_CURRENCY``), and a club that changed it
relabelled every tournament's fee and prizes.

The tournaments there get the club's currency of the time this runs: the one the app was configured with
(``SCOREKEEPER_CURRENCY``, handed in by ``db.upgrade(engine, currency=...)`` as the Alembic config's attribute
``currency``: the app's start, ``manage.py init-db`` and ``restore``), else the default, EUR (a migration run
without the app's settings). A club that changed its currency after a tournament sets that tournament's
currency by hand (docs/tournaments.md, "Fees and prizes").

Revision ID: 0018
Revises: 0017
"""

import re

import sqlalchemy as sa
import sqlmodel
from alembic import context, op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

DEFAULT = "EUR"  # config.Settings' default of SCOREKEEPER_CURRENCY
_TEXT = sqlmodel.sql.sqltypes.AutoString


def club_currency() -> str:
    """The club's currency as the app's settings name it (``db.upgrade``'s ``currency``), else :data:`DEFAULT`."""
    given = context.config.attributes.get("currency")
    given = given.strip().upper() if isinstance(given, str) else ""
    return given if re.fullmatch(r"[A-Z]{3}", given) else DEFAULT


def upgrade() -> None:
    # the table keeps SQLite's AUTOINCREMENT when the batch rebuilds it (0012)
    with op.batch_alter_table("tournament", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.add_column(sa.Column("currency", _TEXT(length=3), nullable=True))
    tournament = sa.table("tournament", sa.column("currency"))
    op.execute(tournament.update().values(currency=club_currency()))
    with op.batch_alter_table("tournament", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.alter_column("currency", existing_type=_TEXT(length=3), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("tournament", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_column("currency")
