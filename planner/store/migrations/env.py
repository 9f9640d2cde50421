"""Alembic environment: migrate the connection handed over by :func:`planner.store.migrate.upgrade`.

Run by the ``alembic`` command line instead (a developer writing a new revision), it opens the
database named by ``sqlalchemy.url`` or, failing that, the one the planner would use.

Alembic executes this file as a script; imported as ``planner.store.migrations.env`` (doctest
collection, type checking) it does nothing, because Alembic's ``context`` exists only while
Alembic runs it.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from planner.store.location import resolve_database_url
from planner.store.models import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things in place; batch mode rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_environment() -> None:
    """Migrate the handed-over connection, or open the configured database and migrate it."""
    if context.is_offline_mode():
        raise SystemExit("offline (--sql) migrations are not supported; migrate a live database")
    handed_over = context.config.attributes.get("connection")
    if handed_over is not None:
        _run(handed_over)
        return
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or resolve_database_url())
    try:
        with engine.begin() as connection:
            _run(connection)
    finally:
        engine.dispose()


if __name__ != "planner.store.migrations.env":  # executed by Alembic, not imported
    run_environment()
