"""The Topology page: tier and media tables, the rail wiring with one rail highlighted, the rack table."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.handoff.wiring import Wiring, build_wiring
from planner.i18n import tr
from planner.report import rail_chart, tables
from ui import engine, state, widgets
from ui.state import t
from ui.widgets import table

RAIL = "topology_rail"
"""Selectbox key: the rail highlighted in the wiring chart (None = all)."""
PLANE = "topology_plane"
"""Selectbox key: the plane whose wiring is drawn (0-based)."""
MAX_RAIL_CHART_GPUS = 8192
"""Largest plan whose port-by-port wiring the page builds (~3 s on 2 cores at 8,192 GPUs, linear
in ports); larger plans are wired the same way server group by server group."""


def topology_tables(plan: Plan) -> None:
    lang = state.lang()
    st.markdown(f"**{t('topology.tiers')}**")
    table(tables.tier_table(plan, lang))
    st.markdown(f"**{t('topology.media')}**")
    table(tables.media_table(plan, engine.catalog(), lang))


@st.cache_data(show_spinner=False, max_entries=16)
def _wiring(scenario_json: str, override_json: str) -> Wiring:
    del override_json  # part of the key: the plan below was made with it
    scenario = engine.scenario_of(scenario_json)
    return build_wiring(plan=engine.plan_for(scenario), catalog=engine.catalog())


def rail_wiring(plan: Plan) -> None:
    """The rail wiring of one plane (chosen) with a rail chosen to stand out; nothing without a fabric."""
    if plan.topology.tiers == 0:
        return
    if plan.gpus > MAX_RAIL_CHART_GPUS:
        st.caption(t("topology.rail_too_large", limit=f"{MAX_RAIL_CHART_GPUS:,}"))
        return
    wiring = widgets.computed(_wiring, engine.canonical_json(plan.scenario), state.catalog_override())
    rails = rail_chart.rails(wiring)
    if not rails:
        return
    st.subheader(t("topology.rail_wiring"))
    st.caption(t("topology.rail_caption"))
    planes = rail_chart.planes(wiring)
    lang = state.lang()  # bound when drawn: the options are labelled again on the next run
    left, right = st.columns(2)
    plane = left.selectbox(
        t("topology.plane_select"),
        planes,
        format_func=lambda p: tr("topology.plane", lang, plane=p + 1),
        key=PLANE,
    )
    if plane not in planes:
        plane = planes[0]  # a plane of an earlier design with more planes
    choice = right.selectbox(
        t("topology.rail_select"),
        [None, *rails],
        format_func=lambda r: t("topology.rail_all") if r is None else t("rail.name", rail=r + 1),
        key=RAIL,
    )
    if choice is not None and choice not in rails:
        choice = None  # a rail of an earlier, larger design
    figure = rail_chart.rail_wiring(wiring, rail=choice, plane=plane, lang=state.lang())
    widgets.chart(figure, key="topology_rails")


def rack_table(plan: Plan) -> None:
    table(tables.rack_table(plan, state.lang()))
