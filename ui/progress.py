"""Long computations in the app: a progress bar, a Cancel button, and one line when cancelled.

A Streamlit script stops only at a Streamlit call, so the engine reports between chunks
(:class:`planner.progress.Steps`) and every report redraws the bar. A click on Cancel ends the run
at the next redraw (Streamlit reruns the script); the button's callback sets this computation's
stop flag first thing in the new run, the computation starts again, its first report reads the
flag (``should_stop``) and it ends with :class:`planner.progress.CancelledError`, shown as one
translated line. What the session holds (its scenario, earlier results, saved scenarios) is left
as it was: only the run's own partial work is dropped.

:func:`run` is for a computation the user asked for (a form's button): call it while the request
is pending and clear the request after it returns. :func:`cached` is for one a page needs to draw
(the Scaling page's sweep, the Monte Carlo of the designs): its result is kept in a small shared
memo (not ``st.cache_data``, which cannot hold a function that draws on a bar made outside it), and
after a cancel the page shows the line and a "Run again" button instead of starting over.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import streamlit as st

from planner.i18n import error_text
from planner.progress import CancelledError, Steps
from ui.state import t, tx

T = TypeVar("T")

MEMO_ENTRIES = 32
"""Results :func:`cached` keeps, shared by every session, least recently used dropped first [count]."""


class _Memo:
    """A bounded, thread-safe map of finished results (least recently used dropped first)."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            if key not in self._items:
                return False, None
            self._items.move_to_end(key)
            return True, self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._entries:
                self._items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _memo() -> _Memo:
    return _Memo(MEMO_ENTRIES)


def _stop_flag(name: str) -> str:
    return f"progress_stop_{name}"


def _stopped_key(name: str) -> str:
    return f"progress_stopped_{name}"


def _ask_stop(name: str) -> None:
    st.session_state[_stop_flag(name)] = True


def _run_again(name: str) -> None:
    st.session_state.pop(_stopped_key(name), None)


class _Bar:
    """The app's :class:`planner.progress.Steps`: redraws a bar; stops on the session's flag."""

    def __init__(self, bar: Any, label: str, name: str) -> None:
        self._bar, self._label, self._name = bar, label, name

    def progress(self, *, done: int, total: int) -> None:
        fraction = min(1.0, done / total) if total > 0 else 1.0
        self._bar.progress(fraction, text=t("progress.step", what=self._label, done=done, total=total))

    def should_stop(self) -> bool:
        return bool(st.session_state.get(_stop_flag(self._name)))


def run(*, name: str, label: str, compute: Callable[[Steps], T]) -> T | None:
    """``compute(steps)`` with a progress bar and a Cancel button; ``None`` when cancelled (the
    line is shown). ``name`` identifies the computation in the session (one per page section)."""
    slot = st.empty()
    with slot.container():
        st.button(t("progress.cancel"), key=f"progress_cancel_{name}", on_click=_ask_stop, args=(name,))
        bar = st.progress(0.0, text=label)
    try:
        value = compute(_Bar(bar, label, name))
    except CancelledError as exc:
        slot.empty()
        st.session_state.pop(_stop_flag(name), None)
        st.info(t("progress.cancelled", what=label, detail=tx(error_text(exc))), icon=":material/cancel:")
        return None
    slot.empty()
    st.session_state.pop(_stop_flag(name), None)  # a click that came after the end changes nothing
    return value


def cached(*, name: str, key: Hashable, label: str, compute: Callable[[Steps], T]) -> T | None:
    """A result the page needs, from the shared memo or computed with :func:`run`; after a
    cancel (for this ``key``) the line and a "Run again" button until the user asks again."""
    found, value = _memo().get((name, key))
    if found:
        st.session_state.pop(_stop_flag(name), None)
        return value  # type: ignore[no-any-return]
    digest = hashlib.sha256(repr(key).encode()).hexdigest()
    if st.session_state.get(_stopped_key(name)) == digest:
        st.info(t("progress.stopped", what=label), icon=":material/cancel:")
        st.button(t("progress.run_again"), key=f"progress_again_{name}", on_click=_run_again, args=(name,))
        return None
    result = run(name=name, label=label, compute=compute)
    if result is None:
        st.session_state[_stopped_key(name)] = digest
        st.button(t("progress.run_again"), key=f"progress_again_{name}", on_click=_run_again, args=(name,))
        return None
    _memo().put((name, key), result)
    return result


def memo_or(*, name: str, key: Hashable, compute: Callable[[], T]) -> T:
    """The result :func:`cached` keeps for ``key``, else ``compute()`` (no bar: for callers inside
    a cached function, after the page has run :func:`cached`)."""
    found, value = _memo().get((name, key))
    if found:
        return value  # type: ignore[no-any-return]
    result = compute()
    _memo().put((name, key), result)
    return result
