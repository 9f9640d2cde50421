"""GPU Cluster Planner web app: the frame (page config, shared sidebar, navigation).

Run with ``streamlit run app.py``. Pages live in ``pages/``; everything they share is in ``ui/``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import engine, history, sidebar, state, workshop
from ui.state import t

HERE = Path(__file__).resolve().parent

state.init()
history.follow_url()  # the browser's Back/Forward, before anything reads the inputs
history.record()
st.set_page_config(
    page_title=t("app.title"),
    # a file, not ":material/hub:": the browser fetches a Material favicon from fonts.gstatic.com
    page_icon=str(HERE / "ui" / "assets" / "icon.png"),
    layout="wide",
    initial_sidebar_state="collapsed" if state.present() else "auto",
)
workshop.style()
workshop.page_language()

SECTIONS = (
    ("nav.design", ("overview", "compare", "scaling", "topology", "bom")),
    ("nav.analyse", ("optimize", "workload", "serving", "reliability")),
    ("nav.deliver", ("scenarios", "proposal")),
    ("nav.reference", ("catalog", "assumptions", "validation")),
)
# Material Symbols ship with Streamlit's static files: no font is fetched from the internet.
ICONS = {
    "overview": ":material/dashboard:",
    "compare": ":material/compare_arrows:",
    "scaling": ":material/show_chart:",
    "topology": ":material/lan:",
    "bom": ":material/receipt_long:",
    "optimize": ":material/auto_fix_high:",
    "workload": ":material/model_training:",
    "serving": ":material/speed:",
    "reliability": ":material/health_and_safety:",
    "scenarios": ":material/folder_open:",
    "proposal": ":material/description:",
    "catalog": ":material/inventory_2:",
    "assumptions": ":material/fact_check:",
    "validation": ":material/verified:",
    "present": ":material/co_present:",
}


def page(name: str, *, default: bool = False) -> st.Page:
    return st.Page(
        HERE / "pages" / f"{name}.py",
        title=t(f"page.{name}"),
        icon=ICONS[name],
        url_path=name,
        default=default,
    )


if state.present():
    # the customer sees one page: the headline figures and the comparison
    navigation = st.navigation([page("present", default=True)], position="hidden")
else:
    navigation = st.navigation(
        {t(label): [page(name, default=name == "overview") for name in names] for label, names in SECTIONS},
        position="top",
    )
    st.sidebar.title(t("app.title"))
    workshop.sidebar_controls(st.sidebar)
slots = sidebar.render()
sidebar.show_error(slots, engine.current())
state.write_url()
history.remember_url(state.last_url())
workshop.welcome()
workshop.active_state(navigation.url_path)
navigation.run()
