"""The Overview page: KPI cards, the scenario line, engine notes."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from planner import Plan
from planner.errors import PlannerError
from planner.report import charts, recommendation_section, tables
from planner.report.performance_tables import escape_markdown
from ui import engine, keys, state, workshop
from ui.state import t, tx
from ui.widgets import chart, table


@st.cache_resource(show_spinner=False, max_entries=64)
def _figures(scenario_key: str, catalog_key: str, lang: str, _plan: Plan) -> tuple[go.Figure, go.Figure]:
    # Building the two Plotly figures was most of the server's work when a share link opened
    # a new session on a warm server (the plan itself comes from the engine's cache). Shared,
    # not copied, across sessions: nothing changes a figure once built. The key is the plan's
    # scenario and catalog; ``_plan`` (not hashed) is the plan they give.
    return charts.cost_by_category(_plan, lang), charts.power_by_category(_plan, lang)


def breakdown_charts(plan: Plan) -> None:
    """CAPEX by category and IT power by category, side by side."""
    cost, power = _figures(engine.canonical_json(plan.scenario), state.catalog_override(), state.lang(), plan)
    left, right = st.columns(2)
    with left:
        chart(cost, key="overview_cost")
    with right:
        chart(power, key="overview_power")


def kpi_cards(plan: Plan, *, changes: bool = True) -> None:
    """Headline figures with units, and (``changes``) the change since the previous scenario."""
    previous = engine.current().previous if changes else None
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
    """The scenario's inputs as a table, in an expander that starts closed. The table is sent only
    while the expander is open (opening it reruns the page): closed, it was the only table of the
    first page, and the browser of every new session fetched and ran Streamlit's 0.9 MB Arrow
    table modules for a table nobody had asked to see."""
    details = st.expander(t("scenario.details"), key=keys.SCENARIO_DETAILS, on_change="rerun")
    if details.open:
        with details:
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


def recommendation(plan: Plan) -> None:
    """The recommendation sentence (design, margin, probability) for the scenario's workload, or
    by the price per GPU-hour without one; the Compare page shows the figures behind it."""
    try:
        result = engine.decision_of(plan.scenario, plan)
    except PlannerError:  # the Compare page shows why; the headline figures stay
        return
    if result is None:  # cancelled: the line is shown
        return
    text = recommendation_section.sentence(result, catalog=engine.catalog(), lang=state.lang())
    st.info(f"**{t('overview.recommendation')}** {escape_markdown(text)}", icon=":material/recommend:")
