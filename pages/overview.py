"""Overview: the scenario and its headline figures, with notes and warnings."""

from __future__ import annotations

import streamlit as st

from planner.report import charts
from ui import widgets
from ui.state import lang, t
from ui.views import overview as view

plan = widgets.require_plan("page.overview")
widgets.url_problems()
view.kpi_cards(plan)
view.scenario_details(plan)
left, right = st.columns(2)
with left:
    widgets.chart(charts.cost_by_category(plan, lang()), key="overview_cost")
with right:
    widgets.chart(charts.power_by_category(plan, lang()), key="overview_power")
st.subheader(t("overview.notes"))
view.notes(plan)
