"""Reliability: interruptions, checkpoint interval (Young/Daly), goodput and what one failed
link, switch or plane costs, per design with the current GPU."""

from __future__ import annotations

import streamlit as st

from ui import analysis_engine, reliability_view, views
from ui.state import t

plan = views.require_plan("page.reliability")
st.caption(t("rel.caption"))
params = reliability_view.params_form()
plans = views.computed(analysis_engine.analysis_plans, plan.scenario, plan)
reliability_view.results(plans, params)
