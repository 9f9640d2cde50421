"""The Topology page: tier and media tables, the rack table."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.report import tables
from ui import engine, state
from ui.state import t
from ui.widgets import table


def topology_tables(plan: Plan) -> None:
    lang = state.lang()
    st.markdown(f"**{t('topology.tiers')}**")
    table(tables.tier_table(plan, lang))
    st.markdown(f"**{t('topology.media')}**")
    table(tables.media_table(plan, engine.catalog(), lang))


def rack_table(plan: Plan) -> None:
    table(tables.rack_table(plan, state.lang()))
