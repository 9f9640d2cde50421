"""The scenario store's foundation: one database, its connections and transactions, and the
identity a handle acts for. :class:`planner.store.ScenarioStore` builds on it by concern:
:mod:`.permissions` (who may read and write what), :mod:`.audit` (the audit log),
:mod:`.exchange` (import and export documents) and :mod:`.repository` (scenarios and versions).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Self

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from planner.access import LOCAL_IDENTITY, Identity
from planner.catalog import Catalog
from planner.errors import InputError
from planner.i18n.message import msg
from planner.store.errors import StoreError
from planner.store.location import display_url
from planner.store.migrate import WRITE_OPTION, upgrade
from planner.store.rowsecurity import Credential, act_as, check_within, connection_identity

MAX_LIST_LIMIT = 1000
"""Most rows one list or audit-log page returns."""


def _now() -> datetime:
    return datetime.now(UTC)


def _first_line(error: BaseException) -> str:
    original = getattr(error, "orig", None) or error
    text = str(original).strip()
    return text.splitlines()[0] if text else type(original).__name__


def _check_paging(*, limit: int, offset: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_LIMIT:
        raise InputError(
            msg(
                "limit: must be a whole number from 1 to {max} (got {value})",
                max=MAX_LIST_LIMIT,
                value=repr(limit),
            )
        )
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InputError(msg("offset: must be a whole number >= 0 (got {value})", value=repr(offset)))


class StoreBase:
    """A database, its sessions, and the identity this handle acts for (see module notes)."""

    def __init__(self, *, engine: Engine, migrate: bool = True, actor: Identity = LOCAL_IDENTITY) -> None:
        self._engine = engine
        self._actor = actor
        self._url = display_url(engine.url.render_as_string(hide_password=False))
        self._reads = sessionmaker(engine, expire_on_commit=False)
        self._writes = sessionmaker(engine.execution_options(**{WRITE_OPTION: True}), expire_on_commit=False)
        self._catalog: Catalog | None = None
        with self._guard():
            with engine.connect() as connection:  # a login in no planner role stops here
                self._credential = connection_identity(connection)
            if migrate:
                upgrade(engine)
                with engine.connect() as connection:  # the roles exist once migrated
                    self._credential = connection_identity(connection)
        if self._credential is not None and self._credential.held is not None:
            # A login bound to one user (row-level security): it acts as that user unless told
            # to act as less.
            self._actor = self._credential.held if actor is LOCAL_IDENTITY else actor
            check_within(identity=self._actor, credential=self._credential)

    # -- lifecycle -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return self._url

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.dialect.name

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for migrations and tests)."""
        return self._engine

    @property
    def credential(self) -> Credential | None:
        """What the database makes of this store's login (PostgreSQL with row-level security);
        ``None`` on SQLite. Its ``held`` identity, when set, bounds every :meth:`as_user`."""
        return self._credential

    @property
    def actor(self) -> Identity:
        """Who this handle acts for: the owner of what it creates, the name in the audit log."""
        return self._actor

    def as_user(self, *, identity: Identity) -> Self:
        """This store (same database and connections) acting for ``identity``: it lists and
        opens only what :func:`planner.access.may_read` allows, owns what it creates, strips
        internal prices for roles without internal costs and records every save and export as
        ``identity``. Closing it closes the shared connections.

        Raises
        ------
        AccessDeniedError
            On PostgreSQL, the database login is bound to one user (not the table owner nor an
            app server) and ``identity`` claims more: another user, a higher role, another team
            (:func:`planner.store.rowsecurity.check_within`).
        """
        if self._credential is not None:
            check_within(identity=identity, credential=self._credential)
        scoped = copy.copy(self)
        scoped._actor = identity
        return scoped

    # -- lifecycle and transactions --------------------------------------------------------------

    def close(self) -> None:
        """Close the database connections."""
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn database failures into a one-line :class:`StoreError`."""
        try:
            yield
        except (DBAPIError, SQLAlchemyError) as exc:
            raise StoreError(
                msg("scenario store {url}: {detail}", url=self._url, detail=_first_line(exc))
            ) from exc

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        with self._guard(), self._reads() as session, session.begin():
            self._name_actor(session)
            yield session

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        with self._guard(), self._writes() as session, session.begin():
            self._name_actor(session)
            yield session

    def _name_actor(self, session: Session) -> None:
        """An app server's login (``planner_server``) names the user it acts for, per transaction,
        for the database's row-level security."""
        if self._credential is not None and self._credential.sets_identity:
            act_as(session, identity=self._actor)
