"""Overview: the scenario and its headline figures, with notes and warnings."""

from __future__ import annotations

import streamlit as st

from ui import charts, views
from ui.state import lang, t

plan = views.require_plan("page.overview")
views.url_problems()
views.kpi_cards(plan)
views.scenario_details(plan)
left, right = st.columns(2)
with left:
    views.chart(charts.cost_by_category(plan, lang()), key="overview_cost")
with right:
    views.chart(charts.power_by_category(plan, lang()), key="overview_power")
st.subheader(t("overview.notes"))
views.notes(plan)
