"""The Presentation page: the customer's view on the projector, as the customer edition says it.

Money is at the offered prices (cost x (1 + margin) x (1 - discount), the commercial terms last
submitted on the Proposal page, else the proposal's defaults), so the CAPEX here is the customer
PDF's; no change badges (the last edit is the architect's business, not the customer's); the
customer and the project as the title. A recommendation sentence belongs between the headline
figures (:func:`headline`) and the comparison (:func:`comparison`).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from planner import Plan
from planner.report import charts, tables
from planner.report.export.pricing import Pricing, priced_plan
from planner.report.performance_tables import escape_markdown
from ui import engine, keys, state, widgets, workshop
from ui.state import t
from ui.views import overview


def _submitted() -> dict[str, Any]:
    return dict(st.session_state.get(keys.PROPOSAL_OPTIONS) or {})


def pricing() -> Pricing:
    """The commercial terms of the customer edition (the Proposal page's, else its defaults)."""
    return Pricing.model_validate(_submitted().get("pricing") or {})


def title() -> str:
    """ "Customer · Project" as the proposal names them (Markdown-escaped: user text is shown as
    typed), or an empty string for the page's own title."""
    options = _submitted()
    named = [str(options.get(name) or "").strip() for name in ("customer", "project")]
    return escape_markdown(" · ".join(n for n in named if n))


def offered(plan: Plan) -> Plan:
    """``plan`` with every money figure at the offered price (the customer edition's figures)."""
    return priced_plan(plan, catalog=engine.catalog(), pricing=pricing())


def headline(plan: Plan) -> None:
    """The headline figures at the offered prices, without change badges."""
    overview.kpi_cards(offered(plan), changes=False)


def comparison(plans: tuple[Plan, ...]) -> None:
    """Every design on the scenario side by side, at the offered prices: the table with its
    winners, then the bars."""
    shown = tuple(offered(p) for p in plans)
    names = tables.design_names(engine.catalog(), state.lang(), shown)
    st.subheader(t("present.comparison"))
    widgets.compare_table(shown, names)
    widgets.chart(charts.compare_bars(shown, state.lang(), names, units=workshop.units()), key="present_bars")
