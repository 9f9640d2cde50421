"""Start the app headless (Streamlit's AppTest) on a page, shared by the page test modules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from planner import i18n

APP = Path(__file__).resolve().parents[1] / "app.py"
AUTH = {
    "client_id": "planner",
    "client_secret": "not-used-by-apptest",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "a-cookie-secret-of-thirty-two-chars!",
}
"""``st.secrets["auth"]`` that turns sign-in on under AppTest (no provider is contacted: the tests
set ``at.user`` themselves)."""


def start(page: str | None = None, **query: str) -> AppTest:
    """The app opened with ``query`` as URL parameters, then switched to ``pages/<page>.py``;
    fails the test on an exception box at either step."""
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, at.exception
    return at


@contextmanager
def fresh_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Around one test: cold Streamlit caches and a scenario store of the test's own
    (``tmp_path``); after it, fails the test if a UI string was looked up without a translation.

    The catalog stays warm across AppTests: clearing Streamlit's caches drops only the app's thin
    wrapper (``ui.engine._catalog``); the parsed catalog is kept by the engine's own cache
    (``planner.catalog.load``), which no test clears, so each AppTest reloads no YAML."""
    st.cache_data.clear()
    st.cache_resource.clear()
    i18n.MISSING.clear()
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "scenarios.db"))
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


def rendered(markdown: str) -> str:
    """What a Markdown element's source shows: backslash escapes removed (user text in errors and
    warnings is escaped, so ``gpus[br100]`` is written ``gpus\\[br100\\]``)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def comparison_table(at: AppTest) -> pd.DataFrame:
    """The Compare page's design comparison (metrics by design): the table whose rows hold CAPEX,
    whatever tables the page shows above it (the cost-per-outcome ranking comes first)."""
    for table in at.table:
        frame = table.value
        if any("CAPEX" in str(label) for label in frame.index):
            return frame
    raise AssertionError(f"no comparison table among {len(at.table)} tables")
