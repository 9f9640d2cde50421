"""Scenarios: save the current scenario, find, open, version, diff, compare, trash and restore,
import and export saved scenarios, and share a link that opens one."""

from __future__ import annotations

import streamlit as st

from ui import widgets
from ui.state import t
from ui.views import scenarios

plan = widgets.require_plan("page.scenarios")
st.caption(t("sc.caption"))
store = scenarios.header()
scenarios.opened_banner()
scenarios.save_section(plan)
st.divider()
picked = scenarios.browse(store)
if picked is not None:
    scenarios.details(store, picked)
st.divider()
scenarios.compare_section(store)
st.divider()
scenarios.import_section()
