"""Reliability: interruptions, checkpoint interval (Young/Daly), goodput and what one failed
link, switch or plane costs, per design with the current GPU."""

from __future__ import annotations

import streamlit as st

from ui import engine, widgets
from ui.state import t
from ui.views import reliability

plan = widgets.require_plan("page.reliability")
st.caption(t("rel.caption"))
params = reliability.params_form()
plans = widgets.computed(engine.analysis_plans, plan.scenario, plan)
reliability.results(plans, params)
