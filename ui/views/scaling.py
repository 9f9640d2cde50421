"""The Scaling page: one chart per metric with crossovers, and the shared colour key."""

from __future__ import annotations

import html

import streamlit as st

from planner import Plan
from planner.compare import Crossover
from planner.report import charts, tables
from ui import state, workshop
from ui.state import t
from ui.widgets import chart, table


def scaling_charts(
    frame: object, found: dict[str, tuple[Crossover, ...]], names: dict[str, str], plan: Plan
) -> None:
    """One chart per scaling metric, two per row, crossovers marked."""
    lang = state.lang()
    money = tables.money_of(plan)
    design_legend(names, list(dict.fromkeys(frame["design"])))  # type: ignore[index]
    columns = list(tables.SCALING_METRICS)
    for start in range(0, len(columns), 2):
        cells = st.columns(2)
        for cell, column in zip(cells, columns[start : start + 2], strict=False):
            with cell:
                chart(
                    charts.scaling(
                        frame,  # type: ignore[arg-type]
                        column,
                        lang,
                        money=money,
                        names=names,
                        crossovers=found.get(column, ()),
                        current_gpus=plan.gpus,
                        units=workshop.units(),
                    )
                )
    st.subheader(t("scaling.crossovers"))
    every = [c for column in columns for c in found.get(column, ())]
    if not every:
        st.caption(t("scaling.no_crossovers"))
        return
    table(tables.crossover_table(every, names, money.currency, lang))


def design_legend(names: dict[str, str], design_ids: list[str]) -> None:
    """One colour key for a grid of charts that share it (instead of a legend on each)."""
    items = "".join(
        f'<span style="margin-right:1.6em;white-space:nowrap">'
        f'<span style="display:inline-block;width:1.6em;height:0.25em;vertical-align:middle;'
        f'background:{charts.design_color(d, i)};margin-right:0.4em"></span>{html.escape(names.get(d, d))}</span>'
        for i, d in enumerate(design_ids)
    )
    st.html(f'<div style="font-size:0.9rem;margin:0.2em 0 0.6em 0">{items}</div>')
