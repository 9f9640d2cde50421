"""Tenants: a tenant set placed on the planned fabric (servers, switches, planes, racks, guarantees,
blast radius, chargeback), the same set on other designs, and a job-mix simulation."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import tenants

plan = widgets.require_plan("page.tenants")
st.caption(t("tn.caption"))
tenant_set = tenants.editor(plan)
placed = tenants.placements(plan, tenant_set)
tenants.summary(placed)
tenants.cards(placed)
tenants.fabric_map(placed)
tenants.comparison(placed)
tenants.simulation(plan)
