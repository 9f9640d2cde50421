"""Workload: an LLM training job on every design with the current GPU: step time, time, energy
and cost to train, where the step's time goes, collective bandwidth, and how sure it all is."""

from __future__ import annotations

import streamlit as st

from ui import analysis_engine, views, workload_view
from ui.state import t

plan = views.require_plan("page.workload")
st.caption(t("wl.caption"))
plans = views.computed(analysis_engine.analysis_plans, plan.scenario, plan)
run = workload_view.job_and_estimates(plans)
workload_view.results_table(run, plans, plan)
workload_view.charts(run, plans)
workload_view.uncertainty(plan, plans, run)
