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
    record_event("export", detail, scenario_id, version)


SIGNED_IN = "audit_signed_in"
"""Session key: the user this session's sign-in was noted for."""


def record_sign_in() -> None:
    """Note a signed-in user's first page of a session in the audit log (nothing with sign-in
    off: the laptop's one local user)."""
    if not auth.sign_in_enabled():
        return
    who = auth.identity().user
    if st.session_state.get(SIGNED_IN) != who:
        record_event("sign_in", "")
        st.session_state[SIGNED_IN] = who


def record_refusal(what: str) -> None:
    """Note a refusal (a page or an edition the role may not open) in the audit log."""
    if auth.sign_in_enabled():
        record_event("refused", what)


def record_event(
    action: str, detail: str, scenario_id: int | None = None, version: int | None = None
) -> None:
    """A line of the audit log, written by the store as the session's server-side identity."""
    try:
        store().record(action=action, detail=detail, scenario_id=scenario_id, version=version)
    except StoreError:
        if auth.sign_in_enabled():
            raise
