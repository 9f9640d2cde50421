"""Undo and redo of scenario changes (the history itself is :mod:`ui.history`)."""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator

from ui import history, keys
from ui.state import t


def undo_redo_buttons(sb: DeltaGenerator) -> None:
    """Undo and redo side by side, each disabled when there is nothing to undo or redo."""
    steps = (
        (t("workshop.undo"), t("help.workshop.undo"), keys.UNDO, history.undo, history.can_undo(), "undo"),
        (t("workshop.redo"), t("help.workshop.redo"), keys.REDO, history.redo, history.can_redo(), "redo"),
    )
    for column, (label, help_text, key, step, possible, icon) in zip(sb.columns(2), steps, strict=True):
        column.button(
            label,
            key=key,
            on_click=step,
            disabled=not possible,
            icon=f":material/{icon}:",
            help=help_text,
            width="stretch",
        )
