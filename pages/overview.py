"""Overview: the scenario and its headline figures, with notes and warnings."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import overview as view

plan = widgets.require_plan("page.overview")
widgets.url_problems()
view.kpi_cards(plan)
view.recommendation(plan)
view.scenario_details(plan)
view.breakdown_charts(plan)
st.subheader(t("overview.notes"))
view.notes(plan)
