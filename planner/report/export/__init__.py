"""Exports: BOM CSV, XLSX workbooks, scenario JSON, and the HTML/PDF document primitives.

Pure writers: plans and tables in, bytes out. They know nothing of the web app or its strings;
:mod:`planner.report.proposal` assembles a proposal from them. Modules:

- :mod:`planner.report.export.pricing`: selling prices (margin, discount), the customer's view of a plan;
- :mod:`planner.report.export.csv`: the BOM as CSV with stable, documented columns;
- :mod:`planner.report.export.xlsx`: workbooks of typed sheets with number formats;
- :mod:`planner.report.export.scenario_json`: scenario export and import that round-trip exactly;
- :mod:`planner.report.export.html`: print-ready HTML (cover, sections, tables, figures, footer);
- :mod:`planner.report.export.browser`: one long-lived headless Chromium (plotly.js, choreographer) that draws
  chart images and prints HTML to PDF;
- :mod:`planner.report.export.safety` and :mod:`planner.report.export.names`: escaping, formula-injection
  neutralisation and safe file names.
"""

from __future__ import annotations

from planner.report.export.csv import bom_records, read_bom_csv, write_bom_csv
from planner.report.export.names import safe_filename
from planner.report.export.pricing import EDITIONS, Edition, Pricing, priced_plan, pricing_from_data
from planner.report.export.safety import escape_html
from planner.report.export.scenario_json import export_scenario_json, import_scenario_json
from planner.report.export.xlsx import Column, Sheet, read_xlsx, write_xlsx
from planner.sheets import neutralize_cell, restore_cell

__all__ = [
    "EDITIONS",
    "Column",
    "Edition",
    "Pricing",
    "Sheet",
    "bom_records",
    "escape_html",
    "export_scenario_json",
    "import_scenario_json",
    "neutralize_cell",
    "priced_plan",
    "pricing_from_data",
    "read_bom_csv",
    "read_xlsx",
    "restore_cell",
    "safe_filename",
    "write_bom_csv",
    "write_xlsx",
]
