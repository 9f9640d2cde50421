"""What shapes the scenario besides the sidebar inputs, named above every page, with one reset."""

from __future__ import annotations

import streamlit as st

from planner.report.performance_tables import escape_markdown
from ui import keys, state
from ui.state import t


def reset_scenario_state() -> None:
    """Button callback: back to what the sidebar inputs alone make (no loaded design, the
    bundled catalog and its prices, no saved scenario being edited)."""
    state.drop_base()
    state.set_opened(None)
    state.set_prices({})
    state.set_catalog_override("", "")


def active_state(page: str) -> None:
    """Name what shapes the scenario beyond the sidebar: a loaded optimizer design, an opened
    or shared saved scenario, edited unit prices, an uploaded catalog; one click drops all of it.

    The Scenarios page draws its own, fuller banner for a saved scenario.
    """
    origin = state.base_origin()
    kind = origin.get("kind")
    lines: list[str] = []
    if kind == "optimizer":
        lines.append(t("active.optimizer", label=escape_markdown(str(origin.get("label", "")))))
    elif kind == "saved" and page != "scenarios":
        key = "active.shared" if origin.get("via") == "link" else "active.saved"
        lines.append(
            t(
                key,
                name=escape_markdown(str(origin.get("name", ""))),
                id=origin["id"],
                version=origin["version"],
            )
        )
    elif kind == "detached":
        lines.append(t("active.detached", label=escape_markdown(str(origin.get("label", "")))))
    if state.prices():
        lines.append(t("active.prices", count=len(state.prices())))
    if state.has_catalog_override():
        name = str(st.session_state.get(keys.CATALOG_OVERRIDE_NAME) or "")
        lines.append(t("active.catalog", name=escape_markdown(name)))
    if not lines or state.present():
        return
    _banner(lines)


def _banner(lines: list[str]) -> None:
    with st.container(border=True, key="active_state"):
        text, button = st.columns([5, 1], vertical_alignment="center")
        text.markdown("  \n".join(lines))
        button.button(
            t("active.reset"),
            key=keys.RESET_SCENARIO_STATE,
            on_click=reset_scenario_state,
            icon=":material/restart_alt:",
            help=t("help.active.reset"),
            width="stretch",
        )
