"""Optimize: the cheapest design (or the most GPUs) within the limits, beside the preset, and
the Pareto fronts whose points load a design into the app."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import optimize

plan = widgets.require_plan("page.optimize")
st.caption(t("opt.caption"))
optimize.loaded_message()
optimize.custom_fabric_note()
slots = optimize.form(plan)
run = optimize.current_run()
if run is None:
    st.info(t("opt.start"), icon=":material/lightbulb:")
    st.stop()
outcome = optimize.solved(run)
optimize.result(run, outcome, slots, plan)
optimize.pareto(run, outcome)
