"""Topology: the fabric (planes, tiers, counts, links) and the rack layout."""

from __future__ import annotations

import streamlit as st

from ui import charts, views
from ui.state import lang, t

plan = views.require_plan("page.topology")
views.chart(charts.topology(plan, lang()), key="topology_diagram")
views.topology_tables(plan)
st.subheader(t("topology.racks"))
views.chart(charts.rack_layout(plan, lang()), key="topology_racks")
views.rack_table(plan)
st.subheader(t("topology.latency"))
views.chart(charts.latency_breakdown(plan, lang()), key="topology_latency")
