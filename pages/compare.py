"""Compare: every design on the same scenario and GPU, side by side."""

from __future__ import annotations

import streamlit as st

from ui import charts, engine, tables, views
from ui.state import lang, t

plan = views.require_plan("page.compare")
plans = views.computed(engine.compare_plans, plan.scenario, plan)
names = tables.design_names(engine.catalog(), lang(), plans)
st.caption(t("compare.same_gpu", gpu=plan.gpu_name, count=len(plans)))
views.compare_table(plans, names)
views.chart(charts.compare_bars(plans, lang(), names), key="compare_bars")
left, right = st.columns([3, 2])
with left:
    views.chart(charts.cost_stack(plans, lang(), names), key="compare_stack")
with right:
    views.chart(charts.radar(plans, lang(), names), key="compare_radar")
st.caption(t("compare.radar_caption"))
views.chart(charts.busbw_curve(plans, lang(), names), key="compare_busbw")
views.claims(plans, names)
