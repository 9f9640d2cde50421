"""Workshop use: presentation mode, print layout, page language, the "start here" box, the
banner of what the app shows besides the sidebar inputs, undo/redo and the display units.

Everything here is offline-safe: the style sheets use the fonts Streamlit ships, and the only
script sets ``<html lang>`` so screen readers and hyphenation follow the chosen language.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner.i18n import tr
from planner.report import display
from planner.report.performance_tables import escape_markdown
from ui import auth, history, keys, state
from ui.state import t

KPI_CSS = """
[data-testid="stMetricValue"] { font-size: clamp(1.15rem, 1.55vw, 1.75rem); }
[data-testid="stMetricValue"] > div { white-space: normal; overflow-wrap: anywhere; overflow: visible; }
[data-testid="stMetricLabel"] p { font-size: 0.9rem; }
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * { white-space: normal !important;
  overflow: visible !important; text-overflow: clip !important; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 0.86rem; }
"""
"""KPI values shrink with the window, and values and labels wrap rather than end in "…" (a 1280-px
projector shows four or five cards per row)."""

PRINT_CSS = """
@media print {
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stStatusWidget"],
  [data-testid="stBaseButton-secondary"], [data-testid="stBaseButton-primary"],
  .stButton, .stDownloadButton, .st-key-welcome_box, .st-key-active_state { display: none !important; }
  [data-testid="stMain"], [data-testid="stMainBlockContainer"], .block-container {
    max-width: 100% !important; width: 100% !important; padding: 0 !important; margin: 0 !important; }
  [data-testid="stAppViewContainer"], [data-testid="stMain"] { overflow: visible !important; }
  .stPlotlyChart, [data-testid="stMetric"], [data-testid="stTable"], [data-testid="stExpander"] {
    break-inside: avoid; page-break-inside: avoid; overflow: visible !important; }
  .stPlotlyChart .js-plotly-plot, .stPlotlyChart .main-svg { max-width: 100% !important; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  h2, [data-testid="stHeadingWithActionElements"]:has(h2) { break-before: page; page-break-before: always; }
  [data-testid="stHeaderActionElements"] { display: none !important; }
}
"""
"""Printing a page (Ctrl+P): no sidebar, toolbar or buttons, the main column full width, charts
and cards never cut across pages, each section (``st.header``) on a new page."""

PRESENT_CSS = """
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stToolbar"] {
  display: none !important; }
html, [data-testid="stMain"] { font-size: 20px; }
[data-testid="stMetricValue"] { font-size: clamp(1.6rem, 2.4vw, 2.6rem); }
[data-testid="stMetricLabel"] p { font-size: 1.1rem; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 1.05rem; }
"""
"""Presentation mode: large type, the sidebar and toolbar out of sight."""


UPLOADER_CSS = """
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"],
[data-testid="stFileUploaderDropzoneInstructions"] span { display: none !important; }
[data-testid="stFileUploaderDropzone"] button [data-testid="stIconMaterial"]::after {
  content: "{button}"; font-family: inherit; font-size: 0.875rem; margin-left: 0.4rem; }
[data-testid="stFileUploaderDropzone"] button [data-testid="stIconMaterial"] { display: inline-flex; width: auto; }
[data-testid="stFileUploaderDropzoneInstructions"] > div::after { content: "{limit}"; font-size: 0.875rem; }
"""
"""The file uploader in a language Streamlit does not speak: its own button text ("Upload") and
size limit ("2MB per file • YAML") are English with no parameter to change them, so they are
hidden and the reader's text is drawn in their place (``{button}``, ``{limit}``; CSS content is
not in the document's text, so the page's own text carries no English either)."""


def uploader_css(lang: str) -> str:
    """:data:`UPLOADER_CSS` in ``lang``; nothing in English (Streamlit's own texts are English)."""
    if lang == "en":
        return ""
    limit = tr("upload.limit", lang, size=st.get_option("server.maxUploadSize"))
    return UPLOADER_CSS.replace("{button}", tr("upload.button", lang)).replace("{limit}", limit)


def style() -> None:
    """House style, print style and, in presentation mode, the large type."""
    extra = PRESENT_CSS if state.present() else ""
    extra += uploader_css(state.lang())
    st.html(f"<style>{KPI_CSS}{NAV_CSS}{PRINT_CSS}{extra}</style>")  # style only: renders nothing visible


HTML_LANG = {"en": "en", "zh": "zh-CN"}

CHART_MODULE_JS = """(() => {
  const index = document.querySelector('script[type="module"][src*="/static/js/index."]');
  if (index) import(index.src.replace(/index\\.[^/]*\\.js$/, "{chunk}")).catch(() => {});
})();"""
"""Start loading Streamlit's Plotly module as soon as the page's first elements arrive.

Streamlit fetches and evaluates its 4.7 MB Plotly module only when the first chart element
arrives; that took 1.5-2.5 s of the browser's main thread on the 2-core reference machine and
held back everything drawn with it (a share link's KPI cards too). Started with the page's first
elements, it runs while the browser would otherwise wait for the server to compute the page.
The same URL as Streamlit's own import, so the module is evaluated once."""


@functools.cache
def chart_module() -> str | None:
    """File name of Streamlit's Plotly module (content-hashed per release), if it ships one."""
    found = sorted((Path(st.__file__).parent / "static" / "static" / "js").glob("PlotlyChart.*.js"))
    return found[0].name if found else None


def preload_charts() -> str:
    """The script that asks the browser for the Plotly module (:data:`CHART_MODULE_JS`), on a
    session's first run only (the module then stays loaded in the page); else nothing."""
    chunk = chart_module()
    if chunk is None or st.session_state.get(keys.CHARTS_PRELOADED):
        return ""
    st.session_state[keys.CHARTS_PRELOADED] = True
    return CHART_MODULE_JS.replace("{chunk}", chunk)


def page_language() -> None:
    """Set ``<html lang>`` to the reader's language (Streamlit's page says ``en`` whatever the
    content); a one-line script, since the document element is outside any element's reach.
    On a session's first run the same script starts loading the chart module
    (:func:`preload_charts`)."""
    code = HTML_LANG[state.lang()]
    st.session_state[keys.HTML_LANG] = code
    st.html(
        f'<script>document.documentElement.lang = "{code}";{preload_charts()}</script>',
        unsafe_allow_javascript=True,
    )


NAV_CSS = """
.st-key-nav_bar { margin-top: -2.5rem; }
.st-key-nav_bar [data-testid="stPageLink"] a { padding: 0 0.4rem; }
.st-key-nav_bar [data-testid="stMarkdown"] p { font-size: 0.78rem; letter-spacing: 0.04em;
  text-transform: uppercase; color: rgba(49, 51, 63, 0.65); margin: 0; }
@media print { .st-key-nav_bar { display: none !important; } }
"""
"""The navigation bar: compact links, section names in small capitals, pulled up into the
space Streamlit keeps for its own top bar (hidden here), never printed."""

NAV_LABEL_WIDTH_PX = 100
"""Section names in one column ("REFERENCE" in small capitals is about 85 px wide)."""


def navigation_bar(sections: Mapping[str, Sequence[st.Page]]) -> None:
    """Every page one click away: one row per section, its name then all its page links, so a
    1280-px projector shows every page at once (a row wraps only on a narrower screen).

    Streamlit's top bar turns sections into drop-down menus (two clicks) and a flat top bar
    hides pages under "N more"; its sidebar list would push the scenario inputs below the fold.

    Only the pages the signed-in role may open are listed (the server refuses the others, see
    :func:`ui.auth.may_open`); a section left empty is not drawn. Each link carries the
    scenario's address: Streamlit clears the query on a page switch, and the app writing it back
    made a second browser-history entry, so Back stayed on the page instead of returning to
    the previous one.
    """
    query = state.last_url()
    shown = {
        label: [p for p in pages if p.visibility != "hidden" and auth.may_open(p.url_path)]
        for label, pages in sections.items()
    }
    with st.container(gap=None, key="nav_bar"):
        for index, (label, pages) in enumerate((k, v) for k, v in shown.items() if v):
            with st.container(
                horizontal=True, gap="small", vertical_alignment="center", key=f"nav_section_{index}"
            ):
                st.markdown(label, width=NAV_LABEL_WIDTH_PX)
                for page in pages:
                    st.page_link(page, query_params=query)


# --- the sidebar's workshop controls -------------------------------------------------------------


def sidebar_controls(sb: DeltaGenerator) -> None:
    """Presentation mode, then undo and redo of scenario changes."""
    sb.button(
        t("workshop.present"),
        key=keys.PRESENT_TOGGLE,
        on_click=state.toggle_present,
        icon=":material/co_present:",
        help=t("help.workshop.present"),
        width="stretch",
    )
    left, right = sb.columns(2)
    left.button(
        t("workshop.undo"),
        key=keys.UNDO,
        on_click=history.undo,
        disabled=not history.can_undo(),
        icon=":material/undo:",
        help=t("help.workshop.undo"),
        width="stretch",
    )
    right.button(
        t("workshop.redo"),
        key=keys.REDO,
        on_click=history.redo,
        disabled=not history.can_redo(),
        icon=":material/redo:",
        help=t("help.workshop.redo"),
        width="stretch",
    )


def units() -> display.DisplayUnits:
    """The reader's display units (the engine's own units until chosen)."""
    chosen = dict(st.session_state.get(keys.UNITS) or {})
    default = display.DisplayUnits()
    return display.DisplayUnits(
        bandwidth=chosen.get("bandwidth", default.bandwidth),
        power=chosen.get("power", default.power),
        money=chosen.get("money", default.money),
    )


def _set_unit(name: str) -> None:
    picked = st.session_state.get(f"{keys.UNITS}_{name}")
    if picked is not None:
        st.session_state[keys.UNITS] = {**(st.session_state.get(keys.UNITS) or {}), name: picked}


UNIT_CHOICES: dict[str, tuple[str, dict[str, str]]] = {
    "bandwidth": (
        "units.bandwidth",
        {"native": "units.bandwidth.native", "GB/s": "units.bandwidth.gbyte", "Gb/s": "units.bandwidth.gbit"},
    ),
    "power": ("units.power", {"kW": "units.power.kw", "BTU/h": "units.power.btu"}),
    "money": ("units.money", {"myriad": "units.money.myriad", "million": "units.money.million"}),
}
"""Display unit -> (label key, option -> option label key)."""


def _option_label(labels: dict[str, str]) -> Callable[[str], str]:
    lang = state.lang()  # bound when drawn, as the sidebar's option labels are
    return lambda option: tr(labels[option], lang)


def units_controls(sb: DeltaGenerator) -> None:
    """Bandwidth in GB/s or Gb/s, power in kW or BTU/h and, in Chinese, money in 万/亿 or M."""
    current = units()
    shown = ["bandwidth", "power", *(["money"] if state.lang() == "zh" else [])]
    with sb.expander(t("units.title")):
        for name in shown:
            label_key, options = UNIT_CHOICES[name]
            key = f"{keys.UNITS}_{name}"
            st.session_state[key] = getattr(current, name)
            st.segmented_control(
                t(label_key),
                options=list(options),
                format_func=_option_label(options),
                key=key,
                required=True,
                on_change=_set_unit,
                args=(name,),
            )


# --- above every page: start here, and what is active besides the inputs -------------------------


WELCOME_COOKIE = "planner_welcome"
"""Cookie that remembers the "start here" box was closed, in this browser, for a year.

A cookie, not the URL (a share link would carry the reader's choice to the customer) nor the
scenario store (a visitor without sign-in has no account to keep it in). Streamlit reads the
browser's cookies when a session starts (``st.context.cookies``); the app sets it with a
one-line script, like ``<html lang>``."""
WELCOME_COOKIE_SCRIPT = (
    f'<script>document.cookie = "{WELCOME_COOKIE}=closed; max-age=31536000; path=/; SameSite=Lax";</script>'
)


def _dismiss_welcome() -> None:
    st.session_state[keys.WELCOME_DISMISSED] = True


def welcome_remembered() -> bool:
    """Whether this browser closed the "start here" box in an earlier session."""
    try:
        return st.context.cookies.get(WELCOME_COOKIE) == "closed"
    except (AttributeError, RuntimeError):  # no browser request behind the session (tests)
        return False


def welcome() -> None:
    """A short "start here" on the first visit, closed with one click for good (in this browser)."""
    if state.present():
        return
    remembered = welcome_remembered()
    if st.session_state.get(keys.WELCOME_DISMISSED):
        if not remembered:
            st.html(WELCOME_COOKIE_SCRIPT, unsafe_allow_javascript=True)  # renders nothing visible
        return
    if remembered:
        return
    with st.container(border=True, key="welcome_box"):
        st.markdown(f"**{t('welcome.title')}**")
        st.markdown(t("welcome.body"))
        st.button(
            t("welcome.close"), key=keys.WELCOME_CLOSE, on_click=_dismiss_welcome, icon=":material/close:"
        )


def reset_scenario_state() -> None:
    """Button callback: back to what the sidebar inputs alone make (no loaded design, the
    bundled catalog and its prices, no saved scenario being edited)."""
    state.drop_base()
    state.set_opened(None)
    state.set_prices({})
    state.set_catalog_override("", "")


def active_state(page: str) -> None:
    """Name what shapes the scenario beyond the sidebar: a loaded optimizer design, an opened
    or shared saved scenario, edited unit prices, an uploaded catalog; one click drops all of it.

    The Scenarios page draws its own, fuller banner for a saved scenario.
    """
    origin = state.base_origin()
    kind = origin.get("kind")
    lines: list[str] = []
    if kind == "optimizer":
        lines.append(t("active.optimizer", label=escape_markdown(str(origin.get("label", "")))))
    elif kind == "saved" and page != "scenarios":
        key = "active.shared" if origin.get("via") == "link" else "active.saved"
        lines.append(
            t(
                key,
                name=escape_markdown(str(origin.get("name", ""))),
                id=origin["id"],
                version=origin["version"],
            )
        )
    elif kind == "detached":
        lines.append(t("active.detached", label=escape_markdown(str(origin.get("label", "")))))
    if state.prices():
        lines.append(t("active.prices", count=len(state.prices())))
    if state.has_catalog_override():
        name = str(st.session_state.get(keys.CATALOG_OVERRIDE_NAME) or "")
        lines.append(t("active.catalog", name=escape_markdown(name)))
    if not lines or state.present():
        return
    _banner(lines)


def _banner(lines: list[str]) -> None:
    with st.container(border=True, key="active_state"):
        text, button = st.columns([5, 1], vertical_alignment="center")
        text.markdown("  \n".join(lines))
        button.button(
            t("active.reset"),
            key=keys.RESET_SCENARIO_STATE,
            on_click=reset_scenario_state,
            icon=":material/restart_alt:",
            help=t("help.active.reset"),
            width="stretch",
        )


def exit_present_button(where: Any = st) -> None:
    """Leave presentation mode (the sidebar, with its toggle, is hidden in it)."""
    where.button(
        t("workshop.present_exit"), key="present_exit", on_click=state.toggle_present, icon=":material/close:"
    )
