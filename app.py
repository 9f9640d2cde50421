"""GPU Cluster Planner web app: the frame (page config, shared sidebar, navigation).

Run with ``streamlit run app.py``. Pages live in ``pages/``; everything they share is in ``ui/``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import engine, sidebar, state, widgets
from ui.state import t

HERE = Path(__file__).resolve().parent

state.init()
st.set_page_config(page_title=t("app.title"), page_icon=":material/hub:", layout="wide")
widgets.style()

PAGES = (
    ("overview", "page.overview", ":material/dashboard:"),
    ("compare", "page.compare", ":material/compare_arrows:"),
    ("scaling", "page.scaling", ":material/show_chart:"),
    ("topology", "page.topology", ":material/lan:"),
    ("bom", "page.bom", ":material/receipt_long:"),
    ("optimize", "page.optimize", ":material/auto_fix_high:"),
    ("workload", "page.workload", ":material/model_training:"),
    ("reliability", "page.reliability", ":material/health_and_safety:"),
    ("scenarios", "page.scenarios", ":material/folder_open:"),
    ("proposal", "page.proposal", ":material/description:"),
    # reference pages last: when the top bar overflows, these are the ones under "more"
    ("catalog", "page.catalog", ":material/inventory_2:"),
    ("assumptions", "page.assumptions", ":material/fact_check:"),
    ("validation", "page.validation", ":material/verified:"),
)
navigation = st.navigation(
    [
        st.Page(
            HERE / "pages" / f"{name}.py",
            title=t(title),
            icon=icon,
            url_path=name,
            default=name == "overview",
        )
        for name, title, icon in PAGES
    ],
    position="top",
)
st.sidebar.title(t("app.title"))
slots = sidebar.render()
sidebar.show_error(slots, engine.current())
state.write_url()
navigation.run()
