"""Validation page blocks: summary in words, predicted-vs-published chart, per-area and per-case
tables. Builders live in :mod:`planner.report.validation`; this module only renders them.

The cases are evaluated with the bundled catalog, not the session's override: the published
figures check the model as shipped, and an uploaded price or part must not change that verdict.
"""

from __future__ import annotations

import streamlit as st

from planner.report import validation as report
from planner.validation.run import CaseResult, run_all
from ui import state, widgets
from ui.state import t


@st.cache_data(show_spinner=False)
def results() -> tuple[CaseResult, ...]:
    """Every case evaluated once per process (the cases and the bundled catalog are fixed)."""
    return run_all()


def summary(found: tuple[CaseResult, ...]) -> None:
    st.markdown(report.summary_text(found, state.lang()))
    st.caption(t("val.roles_caption"))


def chart(found: tuple[CaseResult, ...]) -> None:
    widgets.chart(report.scatter_chart(found, state.lang()), key="validation-scatter")
    st.caption(t("val.chart_caption"))


def tables(found: tuple[CaseResult, ...]) -> None:
    lang = state.lang()
    st.subheader(t("val.by_area"))
    st.dataframe(report.summary_frame(found, lang), hide_index=True, width="stretch")
    st.subheader(t("val.cases"))
    source = t("val.col.source")
    st.dataframe(
        report.results_frame(found, lang),
        hide_index=True,
        width="stretch",
        column_config={source: st.column_config.LinkColumn(source, display_text=t("val.link"))},
    )
