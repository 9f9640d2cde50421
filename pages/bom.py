"""Bill of materials: lines by category, unit prices editable in place, CSV download."""

from __future__ import annotations

import streamlit as st

from ui import bom, charts, fmt, tables, views
from ui.state import lang, t

plan = views.require_plan("page.bom")
money = tables.money_of(plan)
left, mid, right = st.columns(3)
left.metric(t("kpi.capex"), fmt.money(money(plan.cost.capex_usd), money.currency, lang()), border=True)
mid.metric(t("bom.lines"), fmt.number(len(plan.bom)), border=True)
right.metric(t("bom.hardware"), fmt.money(money(plan.cost.hardware_usd), money.currency, lang()), border=True)
bom.actions(plan)
bom.editor(plan)
views.chart(charts.cost_by_category(plan, lang()), key="bom_categories")
