"""The Compare page: the pools and the claims tables."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.report import serving_section, tables
from planner.report.performance_tables import escape_markdown
from ui import engine, state
from ui.state import t, tx
from ui.widgets import table


def claims(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    frame = tables.claims_table(plans, engine.catalog(), names, state.lang())
    st.subheader(t("compare.claims"))
    if frame.empty:
        st.caption(t("compare.no_claims"))
        return
    st.caption(t("compare.claims_caption"))
    table(frame)


def pools(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    st.subheader(t("pools.title"))
    st.caption(t("pools.caption"))
    table(tables.pools_table(plans, names, state.lang()).reset_index())


def serving(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    """The scenario's serving request (Serving page) on each design; nothing without one."""
    request = plans[0].scenario.serving if plans else None
    if request is None:
        return
    run = engine.serving(plans, request)
    found = serving_section.Serving(run.request, run.estimates, run.errors)
    st.subheader(t("compare.serving", model=escape_markdown(tx(serving_section.model_line(request)))))
    st.caption(t("compare.serving_caption"))
    frame = serving_section.serving_frame(found, names, state.lang())
    if not frame.empty:
        table(frame.reset_index(names=t("col.item")))
    for line in serving_section.problem_lines(found, names, state.lang()):
        st.warning(line, icon=":material/warning:")
