"""Undo and redo of scenario changes (the history itself is :mod:`ui.history`)."""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator

from ui import history, keys
from ui.state import t


def undo_redo_buttons(sb: DeltaGenerator) -> None:
    """Undo and redo side by side, each disabled when there is nothing to undo or redo."""
    left, right = sb.columns(2)
    left.button(
        t("workshop.undo"),
        key=keys.UNDO,
        on_click=history.undo,
        disabled=not history.can_undo(),
        icon=":material/undo:",
        help=t("help.workshop.undo"),
        width="stretch",
    )
    right.button(
        t("workshop.redo"),
        key=keys.REDO,
        on_click=history.redo,
        disabled=not history.can_redo(),
        icon=":material/redo:",
        help=t("help.workshop.redo"),
        width="stretch",
    )
