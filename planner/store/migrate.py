"""Schema migrations: Alembic, run from code when a store opens.

The migration scripts live in ``planner/store/migrations/versions``; :func:`upgrade` brings any
database, an empty one included, to the newest revision. It holds a lock while it works
(PostgreSQL: a transaction-level advisory lock; SQLite: ``BEGIN IMMEDIATE``), so several app
instances starting at once against one database migrate it exactly once.

To write a new revision after changing :mod:`planner.store.models`::

    from alembic import command
    from planner.store.migrate import alembic_config
    command.revision(alembic_config(url="sqlite:////tmp/dev.db"), message="...", autogenerate=True)

(upgrade the scratch database first), then review the generated file by hand.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Engine, func, select

from planner.i18n.message import msg
from planner.store.errors import StoreError

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")

MIGRATION_LOCK_KEY = 7_240_531_902
"""PostgreSQL advisory lock key held while migrating (any constant unique to this application)."""

WRITE_OPTION = "planner_store_write"
"""Connection execution option: on SQLite, begin the transaction with ``BEGIN IMMEDIATE``."""


def alembic_config(*, url: str | None = None) -> Config:
    """An Alembic configuration pointing at this package's migration scripts.

    Parameters
    ----------
    url : str or None
        The database URL; ``None`` leaves it unset.

    Returns
    -------
    Config
        The Alembic configuration.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest migration revision shipped with this code.

    Returns
    -------
    str
        The revision id.
    """
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships at least one revision
        raise RuntimeError("no migration scripts found")
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or ``None`` for an empty (never migrated) database.

    Parameters
    ----------
    engine : Engine
        The store's engine.

    Returns
    -------
    str or None
        The revision id; ``None`` when never migrated.
    """
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, *, revision: str = "head") -> None:
    """Migrate the database to ``revision`` (default: the newest), in one locked transaction.

    Parameters
    ----------
    engine : Engine
        The store's engine.
    revision : str
        The target revision id, or ``head``.

    Raises
    ------
    StoreError
        The database is at a revision this code does not know (written by a newer planner).
    """
    with engine.execution_options(**{WRITE_OPTION: True}).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK_KEY)))
        config = alembic_config()
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, revision)
        except CommandError as exc:
            found = MigrationContext.configure(connection).get_current_revision()
            raise StoreError(
                msg(
                    "the scenario store's schema is at revision {found}, which this planner does not know "
                    "(newest known: {newest}); it was probably upgraded by a newer planner: upgrade this "
                    "one ({detail})",
                    found=repr(found),
                    newest=repr(head_revision()),
                    detail=str(exc),
                )
            ) from None


def downgrade(engine: Engine, *, revision: str) -> None:
    """Migrate the database down to ``revision`` (``"base"`` drops every table of the store).

    Parameters
    ----------
    engine : Engine
        The store's engine.
    revision : str
        The target revision id, or ``base``.
    """
    with engine.execution_options(**{WRITE_OPTION: True}).begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
