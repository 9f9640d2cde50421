"""Topology: the fabric (planes, tiers, counts, links) and the rack layout."""

from __future__ import annotations

import streamlit as st

from planner.report import charts
from ui import widgets
from ui.state import lang, t
from ui.views import topology as view

plan = widgets.require_plan("page.topology")
widgets.chart(charts.topology(plan, lang()), key="topology_diagram")
view.topology_tables(plan)
view.rail_wiring(plan)
st.subheader(t("topology.racks"))
widgets.chart(charts.rack_layout(plan, lang()), key="topology_racks")
view.rack_table(plan)
st.subheader(t("topology.latency"))
widgets.chart(charts.latency_breakdown(plan, lang()), key="topology_latency")
