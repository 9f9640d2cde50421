"""The Compare page: the pools and the claims tables."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.report import tables
from ui import engine, state
from ui.state import t
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
