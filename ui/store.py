"""The scenario store as the app uses it: one cached handle per database.

The database is the store's default (``PLANNER_DATABASE_URL``, else ``PLANNER_DB_PATH``, else the
per-user SQLite file); the handle is shared by every session of the server (the store is
thread-safe and every call is its own transaction).
"""

from __future__ import annotations

import streamlit as st

from planner.store import ScenarioStore, open_store, resolve_database_url


@st.cache_resource(show_spinner=False, max_entries=4)
def _open(url: str) -> ScenarioStore:
    return open_store(url=url)


def store() -> ScenarioStore:
    """The store of the configured database; :class:`planner.store.StoreError` when unreachable."""
    return _open(resolve_database_url())
