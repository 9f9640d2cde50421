"""The house style sheet of every page: KPI cards, navigation, print layout, presentation mode's
large type and the uploader's texts in the reader's language."""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.workshop.language import uploader_css
from ui.workshop.navigation import NAV_CSS
from ui.workshop.present import PRESENT_CSS
from ui.workshop.printing import PRINT_CSS

KPI_CSS = """
[data-testid="stMetricValue"] { font-size: clamp(1.15rem, 1.55vw, 1.75rem); }
[data-testid="stMetricValue"] > div { white-space: normal; overflow-wrap: anywhere; overflow: visible; }
[data-testid="stMetricLabel"] p { font-size: 0.9rem; }
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * { white-space: normal !important;
  overflow: visible !important; text-overflow: clip !important; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 0.86rem; }
"""
"""KPI values shrink with the window, and values and labels wrap rather than end in "…" (a 1280-px
projector shows four or five cards per row)."""


def style() -> None:
    """House style, print style and, in presentation mode, the large type."""
    extra = PRESENT_CSS if state.present() else ""
    extra += uploader_css(state.lang())
    st.html(f"<style>{KPI_CSS}{NAV_CSS}{PRINT_CSS}{extra}</style>")  # style only: renders nothing visible
