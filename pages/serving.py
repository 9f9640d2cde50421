"""Serving: a model served on every design with the current GPU: TTFT, TPOT, tokens/s per GPU and
per MW, cost per million tokens, the expert all-to-all per decode step, and the reverse sizing."""

from __future__ import annotations

import streamlit as st

from ui import engine, widgets
from ui.state import t
from ui.views import serving

plan = widgets.require_plan("page.serving")
st.caption(t("sv.caption"))
plans = widgets.computed(engine.analysis_plans, plan.scenario, plan)
run = serving.request_and_estimates(plans, plan.scenario.serving)
serving.kpis(run, plan)
serving.results_table(run, plans)
serving.charts(run, plans)
serving.sizing(run, plan, plans)
