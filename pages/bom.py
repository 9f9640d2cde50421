"""Bill of materials: lines by category, unit prices editable in place, CSV download."""

from __future__ import annotations

import streamlit as st

from planner.report import charts, fmt, tables
from ui import widgets
from ui.state import lang, t
from ui.views import bom

plan = widgets.require_plan("page.bom")
money = tables.money_of(plan)
left, mid, right = st.columns(3)
left.metric(t("kpi.capex"), fmt.money(money(plan.cost.capex_usd), money.currency, lang()), border=True)
mid.metric(t("bom.lines"), fmt.number(len(plan.bom)), border=True)
right.metric(t("bom.hardware"), fmt.money(money(plan.cost.hardware_usd), money.currency, lang()), border=True)
bom.actions(plan)
bom.editor(plan)
widgets.chart(charts.cost_by_category(plan, lang()), key="bom_categories")
