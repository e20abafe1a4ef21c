"""Alembic environment: the engine comes from scorekeeper.core.db (config.attributes["engine"]).

Use db.migration_engine for it: on SQLite that engine runs the migrations in one real
transaction with foreign keys off (batch migrations rebuild tables); the references
are checked here before the commit.
"""

from alembic import context
from sqlmodel import SQLModel

from scorekeeper.core import models  # noqa: F401  (registers the tables)

config = context.config
target_metadata = SQLModel.metadata


def run_migrations() -> None:
    engine = config.attributes["engine"]
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        # transactional_ddl: on SQLite too, the whole chain is one transaction (BEGIN IMMEDIATE, taken
        # before the revision is read), so processes starting at once take turns for all of it. Alembic
        # would otherwise commit each migration on its own, and a process could go on from a revision
        # another had since left behind.
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=sqlite, transactional_ddl=True
        )
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"the migration broke references: {broken[:5]}")
        connection.commit()


run_migrations()
