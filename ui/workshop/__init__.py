"""Workshop use, one module per concern; this front door names what pages and the app call.

- :mod:`~ui.workshop.present`: presentation mode (its large type, the switch in and out);
- :mod:`~ui.workshop.printing`: the print layout (Ctrl+P);
- :mod:`~ui.workshop.style`: the house style sheet that combines them;
- :mod:`~ui.workshop.language`: ``<html lang>`` and the uploader's texts in the reader's language;
- :mod:`~ui.workshop.preload`: the chart module fetched before the first chart;
- :mod:`~ui.workshop.navigation`: the navigation bar;
- :mod:`~ui.workshop.onboarding`: the "start here" box;
- :mod:`~ui.workshop.active`: the banner of what is active besides the sidebar inputs;
- :mod:`~ui.workshop.undo`: undo and redo;
- :mod:`~ui.workshop.display_units`: the reader's display units.

Everything here is offline-safe: the style sheets use the fonts Streamlit ships, and the only
scripts set ``<html lang>``, the "start here" cookie and the chart module's preload.
"""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator

from ui.workshop.active import active_state, reset_scenario_state
from ui.workshop.display_units import UNIT_CHOICES, units, units_controls
from ui.workshop.language import HTML_LANG, page_language, uploader_css
from ui.workshop.navigation import NAV_CSS, navigation_bar
from ui.workshop.onboarding import WELCOME_COOKIE, welcome
from ui.workshop.preload import chart_module
from ui.workshop.present import PRESENT_CSS, exit_present_button, present_button
from ui.workshop.printing import PRINT_CSS
from ui.workshop.style import KPI_CSS, style
from ui.workshop.undo import undo_redo_buttons

__all__ = [
    "HTML_LANG",
    "KPI_CSS",
    "NAV_CSS",
    "PRESENT_CSS",
    "PRINT_CSS",
    "UNIT_CHOICES",
    "WELCOME_COOKIE",
    "active_state",
    "chart_module",
    "exit_present_button",
    "navigation_bar",
    "page_language",
    "reset_scenario_state",
    "sidebar_controls",
    "style",
    "units",
    "units_controls",
    "uploader_css",
    "welcome",
]


def sidebar_controls(sb: DeltaGenerator) -> None:
    """The sidebar's workshop controls: presentation mode, then undo and redo of scenario changes."""
    present_button(sb)
    undo_redo_buttons(sb)
