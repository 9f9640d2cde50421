"""Session state of the shared inputs, kept in step with the URL.

The canonical values live in ``st.session_state[keys.INPUTS]`` (a dict keyed by input name);
widgets have their own keys and copy their value back on change. The URL's query parameters
are written from the canonical values on every run, so a copied link opens the same view, and
read once when a session starts.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from planner import Scenario, scenario_from_data
from ui import inputs, keys
from ui.i18n import tr
from ui.presets import BY_ID as PRESETS
from ui.presets import PREFERENCES


def ensure_frame() -> None:
    """Make sure ``app.py`` (the frame) runs around this page.

    A folder named ``pages/`` beside the entry script puts Streamlit in its legacy multipage
    mode until ``st.navigation`` first runs in the process. If a server's very first request
    is a page URL (a shared link after a restart), Streamlit runs that page file on its own,
    without the frame. Switching the legacy mode off and rerunning sends the same URL through
    ``app.py``, whose navigation resolves it to the same page (url paths match file names).
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def init() -> None:
    """Create the session's state from the URL on its first run."""
    ss = st.session_state
    if keys.INPUTS in ss:
        return
    values, prices, problems = inputs.parse_query(st.query_params.to_dict())
    ss[keys.INPUTS] = {**inputs.defaults(), **values}
    ss[keys.PRICES] = prices
    ss[keys.URL_PROBLEMS] = problems
    ss[keys.CATALOG_OVERRIDE] = ""
    ss[keys.CATALOG_OVERRIDE_NAME] = ""
    ss[keys.BOM_EDITOR_VERSION] = 0


def values() -> dict[str, Any]:
    result: dict[str, Any] = st.session_state[keys.INPUTS]
    return result


def value(name: str) -> Any:
    return values()[name]


def set_value(name: str, new: Any) -> None:
    values()[name] = new


def lang() -> str:
    current = st.session_state.get(keys.INPUTS, {}).get("lang", "en")
    return str(current) if current in inputs.LANGS else "en"


def t(key: str, **params: Any) -> str:
    """The UI string ``key`` in the session's language."""
    return tr(key, lang(), **params)


def prices() -> dict[str, float]:
    result: dict[str, float] = st.session_state[keys.PRICES]
    return result


def set_prices(new: dict[str, float]) -> None:
    st.session_state[keys.PRICES] = dict(new)
    st.session_state[keys.BOM_EDITOR_VERSION] += 1


def catalog_override() -> str:
    """Canonical JSON of the uploaded catalog override, or ``""`` for the bundled catalog."""
    return str(st.session_state.get(keys.CATALOG_OVERRIDE, ""))


def set_catalog_override(override_json: str, name: str) -> None:
    st.session_state[keys.CATALOG_OVERRIDE] = override_json
    st.session_state[keys.CATALOG_OVERRIDE_NAME] = name


def sync_from_widget(name: str) -> None:
    """Widget callback: copy the widget's value into the canonical inputs."""
    new = st.session_state[keys.widget(name)]
    if name == "lang" and new is None:  # a segmented control can be cleared; keep the language
        return
    set_value(name, new)


def prepare_widget(name: str) -> str:
    """Set a widget's state from the canonical value before it renders; return its key."""
    key = keys.widget(name)
    st.session_state[key] = value(name)
    return key


def apply_preset(preset_id: str) -> None:
    """Button callback: load a preset (the user's language and currency stay)."""
    preset = PRESETS[preset_id]
    kept = {name: value(name) for name in PREFERENCES}
    st.session_state[keys.INPUTS] = {**inputs.defaults(), **preset.values, **kept}
    set_prices({})


def active_preset() -> str | None:
    """The preset the current inputs match, if any."""
    current = values()
    for preset_id, preset in PRESETS.items():
        expected = {**inputs.defaults(), **preset.values}
        if all(current[k] == v for k, v in expected.items() if k not in PREFERENCES) and not prices():
            return preset_id
    return None


def scenario() -> Scenario:
    """The scenario of the current inputs; :class:`planner.InputError` names a bad field."""
    return scenario_from_data(inputs.scenario_data(values(), prices()))


def write_url() -> None:
    """Put the inputs in the URL (only when they differ, to avoid needless browser updates)."""
    wanted = inputs.to_query(values(), prices())
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)
