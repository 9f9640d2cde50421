"""Scaling: headline figures from 8 to 1024 GPUs per design, crossovers marked."""

from __future__ import annotations

import streamlit as st

from ui import engine, tables, views
from ui.state import lang, t

plan = views.require_plan("page.scaling")
frame = views.computed(engine.sweep_frame, plan.scenario, plan)
found = engine.crossovers_of(plan.scenario, plan)
names = tables.design_names(engine.catalog(), lang(), ())
st.caption(t("scaling.caption", gpu=plan.gpu_name, gpus=plan.gpus))
views.scaling_charts(frame, found, names, plan)
