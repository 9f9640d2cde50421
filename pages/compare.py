"""Compare: every design on the same scenario and GPU, side by side."""

from __future__ import annotations

import streamlit as st

from planner.report import charts, tables
from ui import engine, widgets, workshop
from ui.state import lang, t
from ui.views import compare as view

plan = widgets.require_plan("page.compare")
plans = widgets.computed(engine.compare_plans, plan.scenario, plan)
names = tables.design_names(engine.catalog(), lang(), plans)
st.caption(t("compare.same_gpu", gpu=plan.gpu_name, count=len(plans)))
view.decision(plan, names)
widgets.compare_table(plans, names)
widgets.chart(charts.compare_bars(plans, lang(), names, units=workshop.units()), key="compare_bars")
left, right = st.columns([3, 2])
with left:
    widgets.chart(charts.cost_stack(plans, lang(), names), key="compare_stack")
with right:
    widgets.chart(charts.radar(plans, lang(), names), key="compare_radar")
st.caption(t("compare.radar_caption"))
widgets.chart(charts.busbw_curve(plans, lang(), names, units=workshop.units()), key="compare_busbw")
view.pools(plans, names)
view.claims(plans, names)
view.serving(plans, names)
