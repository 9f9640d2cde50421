"""The scenario store: save, version, search, diff, soft-delete, import and export scenarios.

One :class:`ScenarioStore` wraps one database (a SQLite file, or PostgreSQL shared by a team) and
is safe to share between threads; every method runs in its own short transaction and returns
frozen records. Several processes (app instances, CLI runs) may use one database at once:

- every save adds a version; nothing is ever overwritten;
- a save names the version it was based on (``expected_version``); if someone saved in between,
  :class:`ConflictError` is raised, nothing is written, and the caller still holds its edit to
  save as a new scenario or to re-apply after reloading (optimistic locking: an
  ``UPDATE ... WHERE current_version = :expected`` that matches no row);
- deleting moves a scenario to the trash; :meth:`ScenarioStore.restore` brings it back.

All SQL is built with SQLAlchemy expressions and bound parameters; no text is pasted into SQL.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast

from sqlalchemy import (
    ColumnElement,
    CursorResult,
    Engine,
    Select,
    and_,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from planner.access import (
    AccessDeniedError,
    Permission,
    may_delete,
    strip_internal_pricing,
)
from planner.catalog import Catalog
from planner.errors import InputError
from planner.i18n import error_text
from planner.i18n.message import msg
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.store.base import _check_paging, _now
from planner.store.diff import ScenarioDiff, diff_saved
from planner.store.errors import (
    ConflictError,
    ScenarioDeletedError,
    ScenarioNotFoundError,
    StoreError,
)
from planner.store.exchange import Exchange
from planner.store.fields import (
    check_scenario_id,
    check_version_number,
    clean_author,
    clean_comment,
    clean_customer,
    clean_name,
    clean_notes,
    clean_tag,
    clean_tags,
)
from planner.store.location import resolve_database_url
from planner.store.migrate import WRITE_OPTION
from planner.store.models import (
    NAME_MAX_CHARS,
    ScenarioRow,
    TagRow,
    VersionRow,
)
from planner.store.records import SavedScenario, ScenarioSummary, VersionInfo

SCENARIO_FORMAT_VERSION = 1
"""Layout of the scenario JSON in ``scenario_versions.scenario_json``."""

SQLITE_BUSY_TIMEOUT_S = 30.0
"""How long a SQLite writer waits for another process's write to finish [s]."""

POSTGRES_CONNECT_TIMEOUT_S = 10
"""How long to wait for a PostgreSQL server to answer [s]."""

ScenarioState = Literal["active", "deleted", "all"]
"""Which scenarios a list shows: live ones, the trash, or both."""


def _escape_like(text: str) -> str:
    """Escape LIKE wildcards so a search for ``50%`` matches the text ``50%`` only."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Take transactions out of pysqlite's hands (it skips BEGIN before DDL); SQLAlchemy's "begin"
    # event below emits BEGIN itself.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        _enable_wal(cursor)
    finally:
        cursor.close()


def _enable_wal(cursor: Any) -> None:
    """Switch to write-ahead logging (readers do not wait for a writer).

    Changing the journal mode needs the database to itself and SQLite does not wait for it with
    the busy handler: when several processes open a new database at once, the loser gets
    "database is locked" straight away. It retries until the busy timeout instead.
    """
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _sqlite_on_begin(connection: Any) -> None:
    # A writer takes the write lock up front, so two writers queue instead of one failing when it
    # upgrades a read lock (SQLITE_BUSY without waiting).
    write = connection.get_execution_options().get(WRITE_OPTION, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def create_store_engine(url: str) -> Engine:
    """A SQLAlchemy engine for the store's database, set up for several concurrent processes.

    SQLite: the file's folder is created; WAL journal; foreign keys on; writers wait up to
    :data:`SQLITE_BUSY_TIMEOUT_S`. ``sqlite://`` (no file) is an in-memory database shared by the
    threads of one process, for tests and demos. PostgreSQL: connections are checked before use,
    so an app survives a database restart.

    Parameters
    ----------
    url : str
        The database URL, driver pinned (:func:`planner.store.location.normalize_url`).

    Returns
    -------
    Engine
        The engine.

    Raises
    ------
    StoreError
        The SQLite file's folder cannot be created.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        in_memory = parsed.database in (None, "", ":memory:")
        if not in_memory:
            folder = Path(str(parsed.database)).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    msg(
                        "cannot create the folder of the scenario store {folder}: {reason}",
                        folder=str(folder),
                        reason=exc.strerror,
                    )
                ) from None
        engine = create_engine(
            url,
            # The pool hands a connection to one thread at a time, so any thread may use it.
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_S},
            poolclass=StaticPool if in_memory else None,
        )
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
        return engine
    return create_engine(
        url, pool_pre_ping=True, connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_S}
    )


def open_store(
    *,
    url: str | None = None,
    path: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    migrate: bool = True,
) -> ScenarioStore:
    """Open (and, by default, create or upgrade) the scenario store.

    Parameters
    ----------
    url
        Database URL (``postgresql://user:password@host:port/db`` or ``sqlite:////path``).
    path
        SQLite file, when no URL is given.
    env
        Environment to read ``PLANNER_DATABASE_URL`` / ``PLANNER_DB_PATH`` from (default
        ``os.environ``); see :mod:`planner.store.location` for the precedence.
    migrate
        Bring the schema to the newest revision (creating it in an empty database).

    Returns
    -------
    ScenarioStore
        The store, ready to use.

    Raises
    ------
    InputError
        The URL is malformed or names an unsupported database.
    StoreError
        The database cannot be reached or migrated.
    """
    engine = create_store_engine(resolve_database_url(url=url, path=path, env=env))
    try:
        return ScenarioStore(engine=engine, migrate=migrate)
    except BaseException:
        engine.dispose()
        raise


class ScenarioStore(Exchange):
    """Saved scenarios in one database. Create it with :func:`open_store`.

    Every method takes keyword arguments only, returns frozen records, and raises
    :class:`~planner.errors.InputError` for bad arguments, :class:`ScenarioNotFoundError` for
    unknown ids, :class:`ScenarioDeletedError` when editing a scenario in the trash,
    :class:`ConflictError` for a stale save, :class:`StoreError` when the database fails and
    :class:`planner.access.AccessDeniedError` when its actor (:meth:`as_user`) may not.

    Built by concern: :class:`~planner.store.base.StoreBase` (connections, transactions, the
    acting identity), :class:`~planner.store.permissions.PermissionRules`,
    :class:`~planner.store.audit.AuditTrail`, :class:`~planner.store.exchange.Exchange` (import
    and export); this class adds scenarios and their versions: save, list, search, trash, diff.
    """

    # -- saving ----------------------------------------------------------------------------------

    def create(
        self,
        *,
        name: str,
        scenario: Scenario,
        customer: str = "",
        tags: Iterable[str] = (),
        notes: str = "",
        author: str = "",
        comment: str = "",
        team: str | None = None,
    ) -> SavedScenario:
        """Save a new scenario as its version 1 ("save as new").

        Parameters
        ----------
        name
            Label shown in lists (1 to 200 characters; need not be unique).
        scenario
            The inputs to save, stored exactly as given.
        customer, tags, notes
            Who it is for, free labels (lower-cased), free notes.
        author, comment
            Who saved this version and why.
        team
            The team it is shared with (default: the actor's first team; ``""``: nobody). The
            actor (:meth:`as_user`) becomes its owner.
        """
        return self._insert(
            name=name, scenario=scenario, customer=customer, tags=tags, notes=notes, author=author,
            comment=comment, team=team, action="save",
        )  # fmt: skip

    def _insert(
        self,
        *,
        name: str,
        scenario: Scenario,
        customer: str,
        tags: Iterable[str],
        notes: str,
        author: str,
        comment: str,
        team: str | None,
        action: str,
        keep_prices: bool = False,
    ) -> SavedScenario:
        self._need(Permission.SCENARIOS, "save")
        if not isinstance(scenario, Scenario):
            raise InputError(msg("scenario: must be a planner Scenario"))
        if not keep_prices:  # a role without internal costs cannot set them
            scenario = strip_internal_pricing(identity=self._actor, scenario=scenario)
        team_ = self._team(team)
        label = clean_name(name)
        customer_ = clean_customer(customer)
        tags_ = clean_tags(tags)
        notes_ = clean_notes(notes)
        author_, comment_ = clean_author(author), clean_comment(comment)
        now = _now()
        with self._writing() as session:
            row = ScenarioRow(
                name=label,
                customer=customer_,
                notes=notes_,
                current_version=1,
                created_at=now,
                updated_at=now,
                deleted_at=None,
                owner=self._actor.user,
                team=team_,
            )
            session.add(row)
            session.flush()
            session.add(_version_row(row.id, 1, scenario, author=author_, comment=comment_, at=now))
            session.add_all(TagRow(scenario_id=row.id, tag=tag) for tag in tags_)
            self._audit(session, action=action, scenario_id=row.id, version=1, detail=comment_ or label)
            session.flush()
            return self._shown(_load(session, scenario_id=row.id, version=1))

    def save(
        self,
        *,
        scenario_id: int,
        scenario: Scenario,
        expected_version: int,
        author: str = "",
        comment: str = "",
        name: str | None = None,
        customer: str | None = None,
        notes: str | None = None,
        tags: Iterable[str] | None = None,
    ) -> SavedScenario:
        """Save an edit as the next version, if nobody saved since ``expected_version``.

        Parameters
        ----------
        scenario_id
            The scenario to add a version to.
        scenario
            The edited inputs.
        expected_version
            The latest version when the caller loaded the scenario (``record.version``).
        author, comment
            Who saved and why.
        name, customer, notes, tags
            New label fields, saved with the version; ``None`` keeps the current value.

        Raises
        ------
        ConflictError
            Someone saved after ``expected_version``; nothing was written. The error carries the
            rejected scenario and the latest version number.
        ScenarioDeletedError
            The scenario is in the trash; restore it first.
        ScenarioNotFoundError
            No scenario has this id.
        """
        check_scenario_id(scenario_id)
        check_version_number(expected_version, field="expected_version")
        if not isinstance(scenario, Scenario):
            raise InputError(msg("scenario: must be a planner Scenario"))
        author_, comment_ = clean_author(author), clean_comment(comment)
        now = _now()
        changes = _label_changes(name=name, customer=customer, notes=notes)
        tags_ = None if tags is None else clean_tags(tags)
        new_version = expected_version + 1
        with self._writing() as session:
            scenario = self._as_saved_by_actor(session, scenario_id, scenario)
            result = session.execute(
                update(ScenarioRow)
                .where(
                    ScenarioRow.id == scenario_id,
                    ScenarioRow.current_version == expected_version,
                    ScenarioRow.deleted_at.is_(None),
                )
                .values(current_version=new_version, updated_at=now, **changes)
                .execution_options(synchronize_session=False)
            )
            if cast(CursorResult[Any], result).rowcount != 1:
                raise _refusal(
                    session, scenario_id=scenario_id, expected_version=expected_version, rejected=scenario
                )
            session.add(
                _version_row(scenario_id, new_version, scenario, author=author_, comment=comment_, at=now)
            )
            try:
                session.flush()
            except IntegrityError:
                # Only reachable if the version row exists without the pointer moving: treat as a conflict.
                raise ConflictError(
                    scenario_id=scenario_id,
                    expected_version=expected_version,
                    current_version=new_version,
                    rejected=scenario,
                ) from None
            if tags_ is not None:
                _replace_tags(session, scenario_id, tags_)
            self._audit(session, action="save", scenario_id=scenario_id, version=new_version, detail=comment_)
            return self._shown(_load(session, scenario_id=scenario_id, version=new_version))

    def _as_saved_by_actor(self, session: Session, scenario_id: int, scenario: Scenario) -> Scenario:
        """Check the actor may edit the scenario; a role without internal costs never saw its
        price overrides, so its edit keeps them (an unknown id is left to the guarded update)."""
        self._need(Permission.SCENARIOS, "save")
        current = session.get(ScenarioRow, scenario_id)
        if current is None:
            return scenario
        self._writable(current)
        if self._actor.can(Permission.INTERNAL_COST):
            return scenario
        return scenario.model_copy(update={"price_overrides_usd": _price_overrides(session, current)})

    def update_details(
        self,
        *,
        scenario_id: int,
        name: str | None = None,
        customer: str | None = None,
        notes: str | None = None,
        tags: Iterable[str] | None = None,
    ) -> ScenarioSummary:
        """Change the label fields without adding a version (``None`` keeps a field).

        Labels are not inputs: the last change wins, and no version is created.
        """
        check_scenario_id(scenario_id)
        changes = _label_changes(name=name, customer=customer, notes=notes)
        tags_ = None if tags is None else clean_tags(tags)
        with self._writing() as session:
            row = self._writable(_live_row(session, scenario_id))
            for field, value in changes.items():
                setattr(row, field, value)
            row.updated_at = _now()
            if tags_ is not None:
                _replace_tags(session, scenario_id, tags_)
            session.flush()
            return _summaries(session, [row])[0]

    def rename(self, *, scenario_id: int, name: str) -> ScenarioSummary:
        """Change a scenario's name (no new version)."""
        return self.update_details(scenario_id=scenario_id, name=name)

    def set_tags(self, *, scenario_id: int, tags: Iterable[str]) -> ScenarioSummary:
        """Replace a scenario's tags (no new version)."""
        return self.update_details(scenario_id=scenario_id, tags=tags)

    def duplicate(
        self, *, scenario_id: int, version: int | None = None, name: str | None = None, author: str = ""
    ) -> SavedScenario:
        """Copy one version of a scenario into a new scenario (its version 1).

        The copy keeps the customer, tags and notes; its name defaults to ``"<name> (copy)"``.
        """
        source = self.load(scenario_id=scenario_id, version=version, include_deleted=True, audit="")
        copy_name = name if name is not None else f"{source.record.name} (copy)"[:NAME_MAX_CHARS]
        if not self._actor.can(Permission.INTERNAL_COST):  # the copy keeps the original's prices
            with self._reading() as session:
                raw = _load(session, scenario_id=scenario_id, version=version, include_deleted=True)
            source = dataclasses.replace(source, scenario=raw.scenario)
        return self._insert(
            name=copy_name,
            scenario=source.scenario,
            customer=source.record.customer,
            tags=source.record.tags,
            notes=source.record.notes,
            author=author,
            comment=f"copy of scenario {source.id} version {source.version.version}",
            team=None,
            action="save",
            keep_prices=True,
        )

    # -- trash -----------------------------------------------------------------------------------

    def delete(self, *, scenario_id: int) -> ScenarioSummary:
        """Move a scenario to the trash (soft delete; every version is kept). Idempotent.

        Only its owner or an admin may (:func:`planner.access.may_delete`)."""
        return self._set_deleted(scenario_id, _now())

    def restore(self, *, scenario_id: int) -> ScenarioSummary:
        """Bring a scenario back from the trash, with all its versions. Idempotent."""
        return self._set_deleted(scenario_id, None)

    def _set_deleted(self, scenario_id: int, stamp: datetime | None) -> ScenarioSummary:
        check_scenario_id(scenario_id)
        with self._writing() as session:
            row = self._readable(_row(session, scenario_id))
            if not may_delete(identity=self._actor, owner=row.owner):
                raise AccessDeniedError(
                    msg("scenario {id}: only its owner {owner} or an admin may delete or restore it",
                        id=scenario_id, owner=row.owner)
                )  # fmt: skip
            if (row.deleted_at is None) != (stamp is None):
                row.deleted_at = stamp
                action = "delete" if stamp is not None else "restore"
                self._audit(session, action=action, scenario_id=scenario_id, detail=row.name)
                session.flush()
            return _summaries(session, [row])[0]

    # -- reading ---------------------------------------------------------------------------------

    def load(
        self,
        *,
        scenario_id: int,
        version: int | None = None,
        include_deleted: bool = False,
        audit: str = "read",
    ) -> SavedScenario:
        """Open a scenario at ``version`` (default: the latest), noted in the audit log as
        ``audit`` (``"read"``, ``"open_share"`` for a share link; ``""``: not noted, for the
        store's own reads inside another action) with the store's acting identity.

        Raises
        ------
        ScenarioNotFoundError
            No such scenario or version.
        ScenarioDeletedError
            The scenario is in the trash and ``include_deleted`` is false.
        """
        check_scenario_id(scenario_id)
        if version is not None:
            check_version_number(version)
        with self._reading() as session:
            self._readable(_row(session, scenario_id))
            saved = _load(session, scenario_id=scenario_id, version=version, include_deleted=include_deleted)
        if audit:
            self.record(action=audit, detail="", scenario_id=saved.id, version=saved.version.version)
        return self._shown(saved)

    def get(self, *, scenario_id: int) -> ScenarioSummary:
        """The summary of one scenario, deleted or not."""
        check_scenario_id(scenario_id)
        with self._reading() as session:
            return _summaries(session, [self._readable(_row(session, scenario_id))])[0]

    def versions(self, *, scenario_id: int) -> tuple[VersionInfo, ...]:
        """Every version of a scenario, oldest first (also for a scenario in the trash)."""
        check_scenario_id(scenario_id)
        with self._reading() as session:
            self._readable(_row(session, scenario_id))
            rows = session.scalars(
                select(VersionRow).where(VersionRow.scenario_id == scenario_id).order_by(VersionRow.version)
            )
            return tuple(VersionInfo.from_row(v, saved_at=v.created_at) for v in rows)

    def list_scenarios(
        self,
        *,
        query: str = "",
        tag: str | None = None,
        customer: str | None = None,
        state: ScenarioState = "active",
        limit: int = 200,
        offset: int = 0,
    ) -> tuple[ScenarioSummary, ...]:
        """Search saved scenarios, most recently changed first.

        Parameters
        ----------
        query
            Case-insensitive text found in the name, the customer or a tag (or the id, if a
            number); empty matches everything.
        tag
            Only scenarios with exactly this tag.
        customer
            Only scenarios whose customer contains this text (case-insensitive).
        state
            ``"active"`` (default), ``"deleted"`` (the trash) or ``"all"``.
        limit, offset
            Paging (at most 1000 per call).
        """
        if state not in ("active", "deleted", "all"):
            raise InputError(msg("state: must be active, deleted or all (got {value})", value=repr(state)))
        _check_paging(limit=limit, offset=offset)
        statement: Select[tuple[ScenarioRow]] = select(ScenarioRow)
        visible = self._visible()
        if visible is not None:
            statement = statement.where(visible)
        if state == "active":
            statement = statement.where(ScenarioRow.deleted_at.is_(None))
        elif state == "deleted":
            statement = statement.where(ScenarioRow.deleted_at.is_not(None))
        text = " ".join(query.split()).lower() if isinstance(query, str) else ""
        if text:
            pattern = f"%{_escape_like(text)}%"
            matches: list[ColumnElement[bool]] = [
                func.lower(ScenarioRow.name).like(pattern, escape="\\"),
                func.lower(ScenarioRow.customer).like(pattern, escape="\\"),
                ScenarioRow.id.in_(select(TagRow.scenario_id).where(TagRow.tag.like(pattern, escape="\\"))),
            ]
            if text.isdigit():
                matches.append(ScenarioRow.id == int(text))
            statement = statement.where(or_(*matches))
        if tag is not None:
            statement = statement.where(
                ScenarioRow.id.in_(select(TagRow.scenario_id).where(TagRow.tag == clean_tag(tag)))
            )
        if customer:
            customer_pattern = f"%{_escape_like(' '.join(customer.split()).lower())}%"
            statement = statement.where(func.lower(ScenarioRow.customer).like(customer_pattern, escape="\\"))
        statement = statement.order_by(ScenarioRow.updated_at.desc(), ScenarioRow.id.desc())
        statement = statement.limit(limit).offset(offset)
        with self._reading() as session:
            return _summaries(session, list(session.scalars(statement)))

    def tags(self) -> tuple[str, ...]:
        """Every tag in use on a live scenario the actor may see, sorted (for a filter)."""
        visible = self._visible()
        with self._reading() as session:
            rows = session.scalars(
                select(TagRow.tag)
                .join(ScenarioRow, ScenarioRow.id == TagRow.scenario_id)
                .where(ScenarioRow.deleted_at.is_(None), *(() if visible is None else (visible,)))
                .distinct()
                .order_by(TagRow.tag)
            )
            return tuple(rows)

    def customers(self) -> tuple[str, ...]:
        """Every non-empty customer name of a live scenario the actor may see, sorted."""
        visible = self._visible()
        with self._reading() as session:
            rows = session.scalars(
                select(ScenarioRow.customer)
                .where(
                    ScenarioRow.deleted_at.is_(None),
                    ScenarioRow.customer != "",
                    *(() if visible is None else (visible,)),
                )
                .distinct()
                .order_by(ScenarioRow.customer)
            )
            return tuple(rows)

    # -- comparing -------------------------------------------------------------------------------

    def diff(
        self,
        *,
        scenario_id: int,
        from_version: int,
        to_version: int | None = None,
        catalog: Catalog | None = None,
    ) -> ScenarioDiff:
        """Compare two versions of one scenario (``to_version`` defaults to the latest).

        ``catalog`` defaults to the bundled catalog; results are planned on it.
        """
        return self.compare(
            left_id=scenario_id,
            left_version=from_version,
            right_id=scenario_id,
            right_version=to_version,
            catalog=catalog,
        )

    def compare(
        self,
        *,
        left_id: int,
        right_id: int,
        left_version: int | None = None,
        right_version: int | None = None,
        catalog: Catalog | None = None,
    ) -> ScenarioDiff:
        """Compare two saved scenarios side by side (each at a version; default the latest)."""
        left = self.load(scenario_id=left_id, version=left_version, include_deleted=True, audit="")
        right = self.load(scenario_id=right_id, version=right_version, include_deleted=True, audit="")
        return diff_saved(before=left, after=right, catalog=catalog or self._bundled_catalog())


# -- helpers on a session (one transaction) -------------------------------------------------------


def _price_overrides(session: Session, row: ScenarioRow) -> dict[str, float]:
    """The price overrides of a scenario's latest version (internal unit costs [USD])."""
    text = session.scalars(
        select(VersionRow.scenario_json).where(
            VersionRow.scenario_id == row.id, VersionRow.version == row.current_version
        )
    ).one_or_none()
    found = json.loads(text).get("price_overrides_usd") if text else None
    return {str(k): float(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _version_row(
    scenario_id: int, version: int, scenario: Scenario, *, author: str, comment: str, at: datetime
) -> VersionRow:
    return VersionRow(
        scenario_id=scenario_id,
        version=version,
        format_version=SCENARIO_FORMAT_VERSION,
        scenario_json=scenario.model_dump_json(),
        gpus=scenario.gpus,
        design_id=scenario.design_id,
        author=author,
        comment=comment,
        created_at=at,
    )


def _label_changes(*, name: str | None, customer: str | None, notes: str | None) -> dict[str, str]:
    changes: dict[str, str] = {}
    if name is not None:
        changes["name"] = clean_name(name)
    if customer is not None:
        changes["customer"] = clean_customer(customer)
    if notes is not None:
        changes["notes"] = clean_notes(notes)
    return changes


def _row(session: Session, scenario_id: int) -> ScenarioRow:
    row = session.scalars(
        select(ScenarioRow).where(ScenarioRow.id == scenario_id).execution_options(populate_existing=True)
    ).one_or_none()
    if row is None:
        raise ScenarioNotFoundError(msg("no saved scenario with id {id}", id=scenario_id))
    return row


def _live_row(session: Session, scenario_id: int) -> ScenarioRow:
    row = _row(session, scenario_id)
    if row.deleted_at is not None:
        raise ScenarioDeletedError(
            msg(
                "scenario {id} ({name}) is in the trash; restore it first",
                id=scenario_id,
                name=repr(row.name),
            )
        )
    return row


def _refusal(session: Session, *, scenario_id: int, expected_version: int, rejected: Scenario) -> Exception:
    """Why a guarded update matched no row: unknown id, in the trash, or a newer version."""
    row = _live_row(session, scenario_id)  # raises for the first two
    if expected_version > row.current_version:
        return InputError(
            msg(
                "expected_version: scenario {id} has versions 1 to {latest} (got {value})",
                id=scenario_id,
                latest=row.current_version,
                value=expected_version,
            )
        )
    return ConflictError(
        scenario_id=scenario_id,
        expected_version=expected_version,
        current_version=row.current_version,
        rejected=rejected,
    )


def _replace_tags(session: Session, scenario_id: int, tags: Sequence[str]) -> None:
    session.execute(delete(TagRow).where(TagRow.scenario_id == scenario_id))
    session.add_all(TagRow(scenario_id=scenario_id, tag=tag) for tag in tags)
    session.flush()


def _summaries(session: Session, rows: Sequence[ScenarioRow]) -> tuple[ScenarioSummary, ...]:
    """Summaries of scenario rows, with their tags and latest version's headline inputs."""
    if not rows:
        return ()
    ids = [r.id for r in rows]
    tags: dict[int, list[str]] = {i: [] for i in ids}
    for scenario_id, tag in session.execute(
        select(TagRow.scenario_id, TagRow.tag).where(TagRow.scenario_id.in_(ids)).order_by(TagRow.tag)
    ):
        tags[scenario_id].append(tag)
    heads: dict[int, tuple[int, str]] = {}
    for scenario_id, gpus, design_id in session.execute(
        select(VersionRow.scenario_id, VersionRow.gpus, VersionRow.design_id)
        .join(
            ScenarioRow,
            and_(ScenarioRow.id == VersionRow.scenario_id, ScenarioRow.current_version == VersionRow.version),
        )
        .where(VersionRow.scenario_id.in_(ids))
    ):
        heads[scenario_id] = (gpus, design_id)
    return tuple(
        ScenarioSummary.from_row(
            r,
            tags=tuple(tags[r.id]),
            version=r.current_version,
            gpus=heads[r.id][0],
            design_id=heads[r.id][1],
        )
        for r in rows
    )


def _load(
    session: Session, *, scenario_id: int, version: int | None, include_deleted: bool = False
) -> SavedScenario:
    row = _row(session, scenario_id) if include_deleted else _live_row(session, scenario_id)
    wanted = row.current_version if version is None else version
    version_row = session.scalars(
        select(VersionRow).where(VersionRow.scenario_id == scenario_id, VersionRow.version == wanted)
    ).one_or_none()
    if version_row is None:
        raise ScenarioNotFoundError(
            msg(
                "scenario {id} has no version {version} (it has versions 1 to {latest})",
                id=scenario_id,
                version=wanted,
                latest=row.current_version,
            )
        )
    source = msg("scenario {id} version {version}", id=scenario_id, version=wanted)
    try:
        scenario = scenario_from_data(json.loads(version_row.scenario_json), source=source)
    except (InputError, ValueError) as exc:
        raise StoreError(
            msg(
                "{source} no longer reads as a scenario with this planner: {problem}",
                source=source,
                problem=error_text(exc),
            )
        ) from None
    return SavedScenario(
        record=_summaries(session, [row])[0],
        version=VersionInfo.from_row(version_row, saved_at=version_row.created_at),
        scenario=scenario,
    )
