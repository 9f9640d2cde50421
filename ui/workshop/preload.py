"""Start-up: the browser fetches Streamlit's Plotly module before the first chart arrives."""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

from ui import keys

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
