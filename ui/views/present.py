"""The Presentation page: the comparison a customer should see (no engine notes, no controls)."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.report import charts, tables
from ui import engine, state, widgets, workshop
from ui.state import t


def comparison(plans: tuple[Plan, ...]) -> None:
    """Every design on the scenario side by side: the table with its winners, then the bars."""
    names = tables.design_names(engine.catalog(), state.lang(), plans)
    st.subheader(t("present.comparison"))
    widgets.compare_table(plans, names)
    widgets.chart(charts.compare_bars(plans, state.lang(), names, units=workshop.units()), key="present_bars")
