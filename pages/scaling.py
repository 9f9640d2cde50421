"""Scaling: headline figures from 8 to 1024 GPUs per design, crossovers marked."""

from __future__ import annotations

import streamlit as st

from planner.report import tables
from ui import engine, widgets
from ui.state import lang, t
from ui.views import scaling as view

plan = widgets.require_plan("page.scaling")
st.caption(t("scaling.caption", gpu=plan.gpu_name, gpus=plan.gpus))
if widgets.computed(engine.sweep_ready, plan.scenario, plan):  # false: cancelled, the line is shown
    frame = widgets.computed(engine.sweep_frame, plan.scenario, plan)
    found = engine.crossovers_of(plan.scenario, plan)
    names = tables.design_names(engine.catalog(), lang(), ())
    view.scaling_charts(frame, found, names, plan)
    skipped = engine.sweep_skipped(plan.scenario, plan)
    if len(skipped):  # sizes a design cannot build are listed, not dropped silently
        st.warning(t("scaling.skipped", sizes=int(skipped["sizes"].sum())))
        st.dataframe(skipped, hide_index=True)
view.sweep_file()  # a sweep's Parquet file (planner sweep --grid), for architects and up
