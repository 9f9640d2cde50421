"""Proposal assembly: one scenario in, a PDF proposal and its CSV/XLSX/JSON files out (pure: no Streamlit).

The package keeps the document model (:mod:`~planner.report.proposal.model`), its HTML sections
(:mod:`~.summary`, :mod:`~.body`, :mod:`~.assumptions`, put together by :mod:`~.document`) and the
table writers (:mod:`~.files`) apart; this front door names what the app, the CLI and tests use.

A proposal compares designs on the scenario, recommends one by a stated rule, and details the
proposed design (the scenario's own design unless the author names another; the rule's pick,
when it differs, is stated beside it as a recommendation): cover with the contents (the page of
each section, learnt from a first print: :func:`render_pdf`), executive summary, design
comparison (table and charts), topology and cabling, bill of materials by category, power and
cooling, cost and TCO, assumptions, sources and vendor claims. The charts are the app's own
Plotly figures (:mod:`planner.report.charts`), drawn by one long-lived Chromium
(:func:`planner.report.export.browser.shared_browser`).

Editions
--------
- *customer*: every money figure is the offered price (cost x (1 + margin) x (1 - discount));
  the charts and tables are built from :func:`planner.report.export.pricing.priced_plan`, so the cost
  plan never reaches the document; sources and assumptions are stripped of price references
  (:func:`planner.report.export.pricing.redact_prices`) and of the repository's paths and file
  names (:func:`planner.report.export.redact.redact_paths`), and the coefficients of analyses
  the document does not contain are left out (:data:`ANALYSIS_TOPICS`);
- *internal*: figures at cost, plus the commercial terms (cost, margin, list price, discount,
  offered price, gross profit).

Recommendation rule: among the compared designs whose racks the chosen cooling can handle, the
lowest cost of the scenario's workload (USD per million trained or served tokens, at the offered
prices; :mod:`planner.report.recommendation_section`), with its margin and the probability that it
is the cheapest; without a workload, the lowest price per GPU-hour, and the summary says so. The
customer edition may leave the comparison with the other designs out (``compare_designs``).
"""

from __future__ import annotations

from planner.report.proposal.assumptions import ANALYSIS_TOPICS
from planner.report.proposal.contents import SECTION_KEYS, SECTIONS, sections
from planner.report.proposal.document import page_setup, proposal_html, render_pdf
from planner.report.proposal.figures import (
    CHART_FORMAT,
    CHART_WIDTH_PX,
    PNG_SCALE,
    chart_figures,
    chart_images,
    chart_images_and_alt_texts,
)
from planner.report.proposal.files import (
    WRITERS,
    FileKind,
    bom_csv,
    file_name,
    scenario_json,
    workbook,
    workbook_sheets,
)
from planner.report.proposal.model import (
    Lang,
    Proposal,
    ProposalOptions,
    build_proposal,
    date_text,
    options_from_data,
)
from planner.report.proposal.summary import GLANCE_COLUMNS

__all__ = [
    "ANALYSIS_TOPICS",
    "CHART_FORMAT",
    "CHART_WIDTH_PX",
    "GLANCE_COLUMNS",
    "PNG_SCALE",
    "SECTIONS",
    "SECTION_KEYS",
    "WRITERS",
    "FileKind",
    "Lang",
    "Proposal",
    "ProposalOptions",
    "bom_csv",
    "build_proposal",
    "chart_figures",
    "chart_images",
    "chart_images_and_alt_texts",
    "date_text",
    "file_name",
    "options_from_data",
    "page_setup",
    "proposal_html",
    "render_pdf",
    "scenario_json",
    "sections",
    "workbook",
    "workbook_sheets",
]
