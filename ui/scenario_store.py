"""The scenario store as the app uses it: one cached handle per database, and opening a saved
scenario into the app's current scenario.

The database is the store's default (``PLANNER_DATABASE_URL``, else ``PLANNER_DB_PATH``, else the
per-user SQLite file); the handle is shared by every session of the server (the store is
thread-safe and every call is its own transaction).
"""

from __future__ import annotations

import streamlit as st

from planner.store import SavedScenario, ScenarioStore, open_store, resolve_database_url
from ui import analysis_keys, state


@st.cache_resource(show_spinner=False, max_entries=4)
def _open(url: str) -> ScenarioStore:
    return open_store(url=url)


def store() -> ScenarioStore:
    """The store of the configured database; :class:`planner.store.StoreError` when unreachable."""
    return _open(resolve_database_url())


def open_saved(saved: SavedScenario) -> None:
    """Make a saved version the app's current scenario, and the one a new version is saved to."""
    state.load_scenario(
        saved.scenario,
        origin={"kind": "saved", "id": saved.id, "version": saved.version.version, "name": saved.record.name},
    )
    state.set_opened(saved.id, saved.record.version, saved.record.name)
    st.session_state[analysis_keys.SAVE_FORM] = {
        "name": saved.record.name,
        "customer": saved.record.customer,
        "tags": ", ".join(saved.record.tags),
        "notes": saved.record.notes,
        "comment": "",
    }
