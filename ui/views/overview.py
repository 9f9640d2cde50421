"""The Overview page: KPI cards, the scenario line, engine notes."""

from __future__ import annotations

import streamlit as st

from planner import Plan
from planner.report import tables
from planner.report.performance_tables import escape_markdown
from ui import engine, state, workshop
from ui.state import t, tx
from ui.widgets import table


def kpi_cards(plan: Plan) -> None:
    """Headline figures with units, and the change since the previous scenario."""
    previous = engine.current().previous
    cards = tables.kpis(plan, state.lang(), previous, units=workshop.units())
    start = 0
    for size in tables.KPI_ROW_SIZES:
        row = cards[start : start + size]
        start += size
        for column, card in zip(st.columns(size), row, strict=True):
            column.metric(
                t(card.key, years=plan.cost.years),
                card.value,
                delta=card.delta,
                delta_color=card.delta_color,
                help=t(card.help_key) if card.help_key else None,
                border=True,
            )


def scenario_details(plan: Plan) -> None:
    with st.expander(t("scenario.details")):
        table(tables.scenario_rows(plan, engine.catalog(), state.lang()))


def notes(plan: Plan) -> None:
    """The engine's notes (rounding, the tuned range, rack density, what bounds the bandwidth ...)
    in the reader's language; a warning block when a rack cannot be cooled, since the notes then
    say why and what to change."""
    if not plan.notes:
        return
    lines = "\n".join(f"- {escape_markdown(tx(text))}" for text in plan.notes)
    if plan.cooling.density_feasible:
        st.info(lines)
    else:
        st.warning(lines, icon=":material/thermostat:")
