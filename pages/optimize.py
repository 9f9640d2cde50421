"""Optimize: the cheapest design (or the most GPUs) within the limits, beside the preset, and
the Pareto fronts whose points load a design into the app."""

from __future__ import annotations

import streamlit as st

from ui import optimize_view, views
from ui.state import t

plan = views.require_plan("page.optimize")
st.caption(t("opt.caption"))
optimize_view.loaded_message()
optimize_view.custom_fabric_note()
slots = optimize_view.form(plan)
run = optimize_view.current_run()
if run is None:
    st.info(t("opt.start"), icon=":material/lightbulb:")
    st.stop()
outcome = optimize_view.solved(run)
optimize_view.result(run, outcome, slots, plan)
optimize_view.pareto(run, outcome)
