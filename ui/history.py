"""Undo/redo of scenario changes, and the browser's Back and Forward buttons.

Every run records the scenario state (inputs without the language, price overrides, the loaded
scenario and the saved one being edited) when it differs from the current entry: a bounded list
in the session, with a cursor. Undo and redo move the cursor and restore that entry.

Each entry also keeps the address the app wrote for it. Streamlit pushes a browser history entry
whenever the app changes the query parameters, so Back reruns the app with an earlier address;
:func:`follow_url` sees an address the app did not write last, restores the entry that wrote it
(with what the URL cannot carry, such as an optimizer's fabric), or else reads the inputs from it.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from ui import inputs, keys, state

MAX_ENTRIES = 50
"""Undo depth: enough for a workshop session, small enough to keep in every session."""
_SCENARIO_KEYS = (keys.BASE_SCENARIO, keys.BASE_ORIGIN, keys.OPENED)
_NOT_SCENARIO = ("lang", state.PRESENT_PARAM)
"""URL parameters that are the reader's, not the scenario's: Back does not look them up."""


def snapshot() -> str:
    """The scenario state as canonical JSON (the language is the reader's, so left out)."""
    data: dict[str, Any] = {
        "inputs": {k: v for k, v in state.values().items() if k != "lang"},
        "prices": state.prices(),
        **{k: st.session_state.get(k) for k in _SCENARIO_KEYS},
    }
    return json.dumps(data, sort_keys=True, default=str)


def _restore(entry: dict[str, Any]) -> None:
    data = json.loads(entry["state"])
    st.session_state[keys.INPUTS] = {**inputs.defaults(), **data["inputs"], "lang": state.lang()}
    state.set_prices(data["prices"])
    for key in _SCENARIO_KEYS:
        st.session_state[key] = data[key]
    st.session_state[keys.URL_PROBLEMS] = []


def _entries() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = st.session_state.setdefault(keys.HISTORY, [])
    return found


def _pos() -> int:
    return int(st.session_state.get(keys.HISTORY_POS, -1))


def record() -> None:
    """Append the current state when it changed (dropping what redo could have restored)."""
    now = snapshot()
    entries, pos = _entries(), _pos()
    if 0 <= pos < len(entries) and entries[pos]["state"] == now:
        return
    kept = [*entries[: pos + 1], {"state": now, "url": {}}][-MAX_ENTRIES:]
    st.session_state[keys.HISTORY] = kept
    st.session_state[keys.HISTORY_POS] = len(kept) - 1


def remember_url(url: dict[str, str]) -> None:
    """The address written for the current entry (see :func:`follow_url`)."""
    entries, pos = _entries(), _pos()
    if 0 <= pos < len(entries):
        entries[pos]["url"] = _scenario_part(url)


def can_undo() -> bool:
    return _pos() > 0


def can_redo() -> bool:
    return _pos() < len(_entries()) - 1


def undo() -> None:
    """Button callback: back to the previous scenario state."""
    if can_undo():
        st.session_state[keys.HISTORY_POS] = _pos() - 1
        _restore(_entries()[_pos()])


def redo() -> None:
    """Button callback: forward to the state the last undo left."""
    if can_redo():
        st.session_state[keys.HISTORY_POS] = _pos() + 1
        _restore(_entries()[_pos()])


def _scenario_part(url: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in url.items() if k not in _NOT_SCENARIO}


def follow_url() -> None:
    """Follow an address the app did not write last: the browser's Back/Forward or an edit.

    An empty query (a page switch may clear it) is not a request to reset; it is rewritten.
    """
    ss = st.session_state
    if ss.pop(keys.KEEP_SCENARIO_ONCE, False):
        return  # a click's run: its address may lag the app's last write
    written = ss.get(keys.LAST_URL)
    now = st.query_params.to_dict()
    if written is None or not now or now == written:
        return
    state.set_present(now.get(state.PRESENT_PARAM) == "1")
    if "lang" in now and now["lang"] in inputs.LANGS:
        state.set_value("lang", now["lang"])
    wanted = _scenario_part(now)
    if wanted == _scenario_part(written):
        return
    entries = _entries()
    for index in range(len(entries) - 1, -1, -1):
        if entries[index]["url"] == wanted:
            ss[keys.HISTORY_POS] = index
            _restore(entries[index])
            return
    values, prices, _ = inputs.parse_query(wanted)
    kept = {"lang": state.lang()}
    ss[keys.INPUTS] = {**inputs.defaults(), **values, **kept}
    state.set_prices(prices)
    state.drop_base()
    state.set_opened(None)
