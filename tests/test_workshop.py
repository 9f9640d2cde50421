"""What a customer sees in a workshop must not be wrong or misleading.

Presets leave no link warning; the proposal proposes the scenario's design; the optimizer's
explanations count what they say; near-ties get no star; the Scenarios page never shows the
store's address.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from planner import i18n
from ui import keys
from ui.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """``st.cache_data`` outlives an AppTest; start every test from cold caches."""
    st.cache_data.clear()
    st.cache_resource.clear()
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


def start(page: str | None = None, **query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, at.exception
    return at


# --- presets: no false link warning ---------------------------------------------------------------


def test_clicking_every_preset_twice_leaves_no_link_warning() -> None:
    """A preset's "design default GPU" (``None``) was flagged as ``gpu=None``, one more per click."""
    at = start()
    for preset in [*PRESETS, *PRESETS]:
        at.button(key=keys.preset_button(preset.id)).click().run()
        assert not at.exception, at.exception
        assert not at.warning, [w.value for w in at.warning]
        assert at.session_state[keys.URL_PROBLEMS] == []
        assert at.button(key=keys.preset_button(preset.id)).proto.type == "primary", "active preset marked"
    at.run()  # a rerun without a click keeps it clean and marked
    assert not at.warning
    assert at.button(key=keys.preset_button(PRESETS[-1].id)).proto.type == "primary"


def test_a_preset_clears_a_bad_links_warning() -> None:
    at = start(years="99")
    assert at.warning, "the bad link parameter is reported"
    at.button(key=keys.preset_button(PRESETS[0].id)).click().run()
    assert not at.warning, [w.value for w in at.warning]
