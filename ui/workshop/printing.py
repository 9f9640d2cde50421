"""Print layout: what Ctrl+P on any page prints."""

from __future__ import annotations

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
