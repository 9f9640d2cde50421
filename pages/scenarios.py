"""Scenarios: save the current scenario, find, open, version, diff, compare, trash and restore,
import and export saved scenarios, and share a link that opens one."""

from __future__ import annotations

import streamlit as st

from ui import scenarios_view, views
from ui.state import t

plan = views.require_plan("page.scenarios")
st.caption(t("sc.caption"))
store = scenarios_view.header()
scenarios_view.opened_banner()
scenarios_view.save_section(plan)
st.divider()
picked = scenarios_view.browse(store)
if picked is not None:
    scenarios_view.details(store, picked)
st.divider()
scenarios_view.compare_section(store)
st.divider()
scenarios_view.import_section()
