"""The scenario store as the app uses it: one cached handle per database, acting for the session's
user.

The database is the store's default (``PLANNER_DATABASE_URL``, else ``PLANNER_DB_PATH``, else the
per-user SQLite file); the connections are shared by every session of the server (the store is
thread-safe and every call is its own transaction). Each session sees it through
:meth:`planner.store.ScenarioStore.as_user`: its own and its teams' scenarios, owned by and audited
as the signed-in user (the local admin with sign-in off).
"""

from __future__ import annotations

import streamlit as st

from planner.store import ScenarioStore, StoreError, open_store, resolve_database_url
from ui import auth


@st.cache_resource(show_spinner=False, max_entries=4)
def _open(url: str) -> ScenarioStore:
    return open_store(url=url)


def store() -> ScenarioStore:
    """The store of the configured database, acting for this session's user;
    :class:`planner.store.StoreError` when unreachable."""
    return _open(resolve_database_url()).as_user(identity=auth.identity())


def record_export(detail: str, scenario_id: int | None = None, version: int | None = None) -> None:
    """Download callback: note the export in the audit log (who, what, when).

    A store that cannot be reached does not stop a download on a laptop; with sign-in on (a team
    deployment, whose store is its PostgreSQL) the failure shows.
    """
    try:
        store().record(action="export", detail=detail, scenario_id=scenario_id, version=version)
    except StoreError:
        if auth.sign_in_enabled():
            raise
