"""Presentation mode: the customer's view on the projector (large type, no sidebar, no toolbar)."""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui import keys, state
from ui.state import t

PRESENT_CSS = """
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stToolbar"] {
  display: none !important; }
html, [data-testid="stMain"] { font-size: 20px; }
[data-testid="stMetricValue"] { font-size: clamp(1.6rem, 2.4vw, 2.6rem); }
[data-testid="stMetricLabel"] p { font-size: 1.1rem; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 1.05rem; }
"""
"""Presentation mode: large type, the sidebar and toolbar out of sight."""


def present_button(sb: DeltaGenerator) -> None:
    """The sidebar's switch into presentation mode."""
    sb.button(
        t("workshop.present"),
        key=keys.PRESENT_TOGGLE,
        on_click=state.toggle_present,
        icon=":material/co_present:",
        help=t("help.workshop.present"),
        width="stretch",
    )


def exit_present_button(where: Any = st) -> None:
    """Leave presentation mode (the sidebar, with its toggle, is hidden in it)."""
    where.button(
        t("workshop.present_exit"), key="present_exit", on_click=state.toggle_present, icon=":material/close:"
    )
