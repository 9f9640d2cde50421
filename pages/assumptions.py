"""Assumptions: every assumption and source behind the current numbers."""

from __future__ import annotations

import streamlit as st

from ui import views
from ui.state import t

plan = views.require_plan("page.assumptions")
st.caption(t("assumptions.intro"))
views.assumptions(plan)
views.scenario_download(plan)
