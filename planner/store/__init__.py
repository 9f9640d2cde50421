"""Saved scenarios: a SQLite file per user by default, PostgreSQL for a team.

Open the store, save, version, search, compare, trash and restore, import and export::

    from planner.store import open_store
    with open_store() as store:                      # PLANNER_DATABASE_URL / PLANNER_DB_PATH / per-user file
        saved = store.create(name="Acme 1024", scenario=scenario, customer="Acme", tags=["workshop"])
        edited = store.save(scenario_id=saved.id, scenario=changed, expected_version=saved.record.version)
        store.diff(scenario_id=saved.id, from_version=1, to_version=2)

See :class:`ScenarioStore` for every operation and :mod:`planner.store.location` for where the
database lives. Saving an edit names the version it was based on; a stale save raises
:class:`ConflictError` and writes nothing (optimistic locking).
"""

from __future__ import annotations

from planner.store.diff import KEY_METRICS, InputChange, ResultChange, ScenarioDiff
from planner.store.errors import (
    ConflictError,
    ImportRejectedError,
    ScenarioDeletedError,
    ScenarioNotFoundError,
    StoreError,
)
from planner.store.exchange import EXPORT_FORMAT, EXPORT_SCHEMA_VERSION, ScenarioDocument, parse_document
from planner.store.links import ShareRef, parse_share_params, share_params, share_query
from planner.store.location import (
    ENV_DATABASE_URL,
    ENV_DB_PATH,
    default_db_path,
    resolve_database_url,
)
from planner.store.records import SavedScenario, ScenarioSummary, VersionInfo
from planner.store.repository import ScenarioState, ScenarioStore, open_store

__all__ = [
    "ENV_DATABASE_URL",
    "ENV_DB_PATH",
    "EXPORT_FORMAT",
    "EXPORT_SCHEMA_VERSION",
    "KEY_METRICS",
    "ConflictError",
    "ImportRejectedError",
    "InputChange",
    "ResultChange",
    "SavedScenario",
    "ScenarioDeletedError",
    "ScenarioDiff",
    "ScenarioDocument",
    "ScenarioNotFoundError",
    "ScenarioState",
    "ScenarioStore",
    "ScenarioSummary",
    "ShareRef",
    "StoreError",
    "VersionInfo",
    "default_db_path",
    "open_store",
    "parse_document",
    "parse_share_params",
    "resolve_database_url",
    "share_params",
    "share_query",
]
