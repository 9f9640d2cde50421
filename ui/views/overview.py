"""The Overview page: KPI cards, the scenario line, engine notes."""

from __future__ import annotations

import re

import streamlit as st

from planner import Plan
from planner.i18n import tr_enum
from planner.report import fmt, tables
from planner.scenario import PRODUCT_RANGE_GPUS
from ui import engine, state
from ui.state import t
from ui.widgets import table


def kpi_cards(plan: Plan) -> None:
    """Headline figures with units, and the change since the previous scenario."""
    previous = engine.current().previous
    cards = tables.kpis(plan, state.lang(), previous)
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
    """Warnings first (rack density, rounding, outside the tuned range), then the model's notes."""
    lang = state.lang()
    if not plan.cooling.density_feasible:
        st.warning(
            t(
                "note.density",
                kw=fmt.number(plan.cooling.max_rack_kw, 1),
                limit=f"{plan.cooling.cooling_limit_kw_per_rack:g}",
            ),
            icon="🌡️",
        )
    if plan.gpus != plan.gpus_requested:
        st.info(
            t(
                "note.rounded",
                requested=fmt.number(plan.gpus_requested),
                nodes=fmt.number(plan.nodes),
                per_node=plan.topology.gpus_per_node,
                gpus=fmt.number(plan.gpus),
            )
        )
    low, high = PRODUCT_RANGE_GPUS
    if not low <= plan.gpus <= high:
        st.info(t("note.range", gpus=fmt.number(plan.gpus), low=low, high=high))
    bw = plan.bandwidth
    st.info(
        t(
            "note.bound",
            allreduce=tr_enum("level", bw.allreduce_bound, lang),
            alltoall=tr_enum("level", bw.alltoall_bound, lang),
            scale_up=fmt.number(bw.scale_up_gbyte_per_s),
            network=fmt.number(bw.network_gbyte_per_s),
        )
    )
    others = [n for n in plan.notes if not _TRANSLATED_NOTES.search(n)]
    if others:
        with st.expander(t("note.engine_notes")):
            for text in others:
                st.markdown(f"- {text}")


_TRANSLATED_NOTES = re.compile(
    r"^all-reduce bounded by|^densest rack draws|GPUs rounded up to|range the tool is tuned for"
)
"""Engine notes that :func:`notes` redraws in the user's language from the plan's figures; any
other note is shown as the engine wrote it (English)."""
