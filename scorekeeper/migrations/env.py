"""Alembic environment: the engine comes from scorekeeper.db (config.attributes["engine"])."""

from alembic import context
from sqlmodel import SQLModel

from scorekeeper import models  # noqa: F401  (registers the tables)

config = context.config
target_metadata = SQLModel.metadata


def run_migrations() -> None:
    engine = config.attributes["engine"]
    with engine.begin() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        context.run_migrations()


run_migrations()
