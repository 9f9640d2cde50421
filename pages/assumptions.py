"""Assumptions: every assumption and source behind the current numbers."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import assumptions as view

plan = widgets.require_plan("page.assumptions")
st.caption(t("assumptions.intro"))
view.assumptions(plan)
view.scenario_download(plan)
