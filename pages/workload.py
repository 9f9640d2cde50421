"""Workload: an LLM training job on every design with the current GPU: step time, time, energy
and cost to train, where the step's time goes, collective bandwidth, and how sure it all is."""

from __future__ import annotations

import streamlit as st

from ui import engine, widgets
from ui.state import t
from ui.views import workload

plan = widgets.require_plan("page.workload")
st.caption(t("wl.caption"))
plans = widgets.computed(engine.analysis_plans, plan.scenario, plan)
run = workload.job_and_estimates(plans)
workload.results_table(run, plans, plan)
workload.charts(run, plans)
workload.uncertainty(plan, plans, run)
