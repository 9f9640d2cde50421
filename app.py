"""GPU Cluster Planner web app: the frame (page config, shared sidebar, navigation).

Run with ``streamlit run app.py``. Pages live in ``pages/``; everything they share is in ``ui/``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import auth, engine, history, sidebar, state, store, workshop
from ui.state import t

HERE = Path(__file__).resolve().parent

auth.gate(state.lang())  # with sign-in configured, nothing runs for a visitor who is not signed in
state.init()
store.record_sign_in()  # the audit log: who signed in, when
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

# Sections of the navigation bar, at most five pages each, all links shown (one click to any
# page at 1280 px). The icons are Material Symbols, shipped in Streamlit's static files. No bare
# string literals in this script: Streamlit's "magic" would draw them on every page.
SECTIONS = (
    (
        "nav.design",
        (
            ("overview", "page.overview", ":material/dashboard:"),
            ("compare", "page.compare", ":material/compare_arrows:"),
            ("scaling", "page.scaling", ":material/show_chart:"),
            ("topology", "page.topology", ":material/lan:"),
            ("bom", "page.bom", ":material/receipt_long:"),
        ),
    ),
    (
        "nav.analyse",
        (
            ("optimize", "page.optimize", ":material/auto_fix_high:"),
            ("workload", "page.workload", ":material/model_training:"),
            ("serving", "page.serving", ":material/speed:"),
            ("reliability", "page.reliability", ":material/health_and_safety:"),
            ("tenants", "page.tenants", ":material/groups:"),
        ),
    ),
    (
        "nav.deliver",
        (
            ("scenarios", "page.scenarios", ":material/folder_open:"),
            ("proposal", "page.proposal", ":material/description:"),
            ("layout", "page.layout", ":material/view_column:"),
            ("measurements", "page.measurements", ":material/rule:"),
        ),
    ),
    (
        "nav.reference",
        (
            ("catalog", "page.catalog", ":material/inventory_2:"),
            ("assumptions", "page.assumptions", ":material/fact_check:"),
            ("validation", "page.validation", ":material/verified:"),
        ),
    ),
)
PRESENT = ("present", "page.present", ":material/co_present:")


def page(name: str, title: str, icon: str, *, default: bool = False, hidden: bool = False) -> st.Page:
    return st.Page(
        HERE / "pages" / f"{name}.py",
        title=t(title),
        icon=icon,
        url_path=name,
        default=default,
        visibility="hidden" if hidden else "visible",
    )


pages = {
    t(label): [page(*entry, default=entry[0] == "overview") for entry in entries]
    for label, entries in SECTIONS
}
# the presentation page is always known (so entering or leaving the mode never meets "page not
# found"), never listed: the mode is a toggle, and the URL says present=1
presentation = page(*PRESENT, hidden=True)
pages[t(SECTIONS[-1][0])].append(presentation)
# the app draws its own bar (workshop.navigation_bar): every page one click away at 1280 px
navigation = st.navigation(pages, position="hidden")
if state.present() and navigation.url_path != PRESENT[0]:
    st.switch_page(presentation)  # the customer sees the headline figures and the comparison
if not state.present() and navigation.url_path == PRESENT[0]:
    st.switch_page(pages[t(SECTIONS[0][0])][0])
if not state.present():
    st.sidebar.title(t("app.title"))
    workshop.sidebar_controls(st.sidebar)
    auth.user_box(st.sidebar, state.lang())
slots = sidebar.render()
sidebar.show_error(slots, engine.current())
state.write_url()
history.remember_url(state.last_url())
if not state.present():
    workshop.navigation_bar(pages)
workshop.welcome()
workshop.active_state(navigation.url_path)
if not auth.may_open(navigation.url_path):
    store.record_refusal(f"page {navigation.url_path}")  # the audit log: who was refused what
auth.guard_page(navigation.url_path, state.lang())  # a role's pages, checked on the server
navigation.run()
