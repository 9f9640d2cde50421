"""Start the app headless (Streamlit's AppTest) on a page, shared by the page test modules."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from planner import i18n
from ui import keys

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


_CACHES_HOLD: list[str] = []
"""The test module whose runs filled the Streamlit caches (:func:`reset_caches`)."""


def clear_caches() -> None:
    """Empty Streamlit's caches: ``st.cache_data`` (the engine's results) and
    ``st.cache_resource`` (store handles, the progress memo, shared figures)."""
    st.cache_data.clear()
    st.cache_resource.clear()
    _CACHES_HOLD.clear()


def reset_caches() -> None:
    """Before an AppTest test: the caches as a server holds them between two visitors.

    The first test of a module starts from empty caches (:func:`clear_caches`), so what a module
    sees never depends on which modules ran before it on its worker. The later tests of the
    module keep the results the earlier ones computed, as the app's server keeps them for every
    session: the cached functions are keyed on their whole input (the scenario's and the
    catalog override's JSON, the language), so a hit gives what a fresh computation would; each
    test still runs every page script it opens. A test whose checks are about the caches
    themselves (what is computed once, what a cancel leaves) asks for empty caches with the
    ``cold_caches`` fixture. Between two tests only the store handles are dropped: each test has
    its own store (``PLANNER_DB_PATH`` in its ``tmp_path``).

    Warm caches cut the app tier's CPU: test_app_analysis.py took 51.3 s of CPU (user+sys) with
    every cache emptied before each test and 41.4 s with this (one run each, load average 2.3)."""
    from ui import store

    module = os.environ.get("PYTEST_CURRENT_TEST", "").split("::", 1)[0]
    if [module] != _CACHES_HOLD:
        clear_caches()
        _CACHES_HOLD.append(module)
    else:
        store._open.clear()


@contextmanager
def fresh_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Around one test: the caches as :func:`reset_caches` leaves them and a scenario store of
    the test's own (``tmp_path``); after it, fails the test if a UI string was looked up without
    a translation.

    The catalog stays warm across AppTests: clearing Streamlit's caches drops only the app's thin
    wrapper (``ui.engine._catalog``); the parsed catalog is kept by the engine's own cache
    (``planner.catalog.load``), which no test clears, so each AppTest reloads no YAML."""
    reset_caches()
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


@dataclass(frozen=True)
class PageVisit:
    """What one page showed when a session switched to it after a preset click."""

    exceptions: tuple[str, ...]
    """Exception boxes of the session's runs up to and including the page's (message and trace)."""
    errors: tuple[str, ...]
    """The page's error boxes (their Markdown source)."""
    title: str | None
    """The page's first title, ``None`` when it drew none."""
    inputs: Mapping[str, object]
    """The scenario inputs in the session after the page's run (``session_state[keys.INPUTS]``)."""
    missing: frozenset[str]
    """UI keys looked up without a translation in the session's runs up to the page's."""


def _exception_texts(at: AppTest) -> tuple[str, ...]:
    return tuple(f"{e.value}\n{''.join(e.stack_trace)}" for e in at.exception)


class PresetWalks:
    """``walks(preset, lang)``: every page of ``pages`` as one session saw it after clicking the
    preset, the session opened by ``begin(lang)`` (the app's first run in that language).

    A page test asserts on its own :class:`PageVisit` (each can fail alone), and the walk for a
    preset and language is made once for the module: the first run, the language and the preset
    click are the same for every page, so each page costs its own run only. The pages are visited
    in one session, one after the other, as a user switches pages (each page's run starts from the
    scenario the preset set; the store handle and caches the earlier runs warmed are kept). The
    untranslated keys the walk met are in the visits, not in ``i18n.MISSING`` (cleared after it),
    so they are reported by the page tests, not by whichever test happened to start the walk.
    """

    def __init__(self, begin: Callable[[str], AppTest], pages: Sequence[str]) -> None:
        self.begin, self.pages = begin, tuple(pages)
        self.done: dict[tuple[str, str], dict[str, PageVisit]] = {}

    def __call__(self, preset: str, lang: str) -> dict[str, PageVisit]:
        if (preset, lang) not in self.done:
            self.done[(preset, lang)] = self._walk(preset, lang)
        return self.done[(preset, lang)]

    def _walk(self, preset: str, lang: str) -> dict[str, PageVisit]:
        i18n.MISSING.clear()
        try:
            at = self.begin(lang)
            earlier = _exception_texts(at)
            at.button(key=keys.preset_button(preset)).click().run()
            earlier += _exception_texts(at)
            common = frozenset(i18n.MISSING)
            visits: dict[str, PageVisit] = {}
            for page in self.pages:
                i18n.MISSING.clear()
                at.switch_page(f"pages/{page}.py").run()
                visits[page] = PageVisit(
                    exceptions=earlier + _exception_texts(at),
                    errors=tuple(str(e.value) for e in at.error),
                    title=str(at.title[0].value) if at.title else None,
                    inputs=dict(at.session_state[keys.INPUTS]),
                    missing=common | frozenset(i18n.MISSING),
                )
            return visits
        finally:
            i18n.MISSING.clear()
