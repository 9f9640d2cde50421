"""Streamlit renderers the pages compose: headers, KPI cards, tables, charts, notes.

Each function draws one block from engine results; the arithmetic lives in :mod:`ui.tables`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner import Plan, PlannerError
from planner.compare import Crossover
from planner.scenario import PRODUCT_RANGE_GPUS
from ui import charts, engine, fmt, keys, state, tables
from ui.i18n import tr_enum
from ui.state import t

T = TypeVar("T")
PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


CSS = """
<style>
[data-testid="stMetricValue"] { font-size: 1.75rem; }
[data-testid="stMetricLabel"] p { font-size: 0.9rem; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-size: 0.86rem; }
</style>
"""


def style() -> None:
    """House style: KPI figures sized to fit five cards per row on a 1280-px projector."""
    st.html(CSS)  # style only: renders nothing visible


def chart(fig: go.Figure, key: str | None = None) -> None:
    st.plotly_chart(fig, width="stretch", config=PLOTLY_CONFIG, key=key)


def require_plan(title_key: str) -> Plan:
    """Page title, scenario line and the current plan; stop the page if there is none."""
    state.ensure_frame()
    st.title(t(title_key))
    current = engine.current()
    if current.error is not None:
        st.error(t("error.page", message=current.error), icon="⚠️")
    plan = current.plan
    if plan is None:
        st.stop()
    if current.stale:
        st.warning(t("error.stale"))
    scenario_line(plan)
    return plan


def computed(fn: Callable[..., T], *args: Any) -> T:
    """Run a cached engine call; on an engine error show it and stop this page (not the app)."""
    try:
        return fn(*args)
    except PlannerError as exc:
        st.error(t("error.page", message=str(exc)), icon="⚠️")
        st.stop()


def scenario_line(plan: Plan) -> None:
    names = tables.design_names(engine.catalog(), state.lang(), (plan,))
    st.caption(
        t(
            "scenario.line",
            gpus=fmt.number(plan.gpus),
            gpu=plan.gpu_name,
            design=names.get(plan.design_id, plan.design_name),
            nodes=fmt.number(plan.nodes),
            racks=fmt.number(plan.racks.total),
            currency=t(f"currency.{plan.cost.currency}"),
        )
    )


def url_problems() -> None:
    problems = st.session_state.get(keys.URL_PROBLEMS) or []
    if problems:
        st.warning(t("error.url", problems="; ".join(problems)), icon="🔗")


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


def claims(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    frame = tables.claims_table(plans, engine.catalog(), names, state.lang())
    st.subheader(t("compare.claims"))
    if frame.empty:
        st.caption(t("compare.no_claims"))
        return
    st.caption(t("compare.claims_caption"))
    table(frame)


def compare_table(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    lang = state.lang()
    frame = tables.compare_table(plans, names, lang)

    def highlight(cell: object) -> str:
        return "background-color: #DCF2E4; font-weight: 600" if str(cell).endswith("★") else ""

    st.table(frame.style.map(highlight))
    st.caption(t("compare.table_caption"))


def bom_summary(plan: Plan) -> None:
    """Cost by category beside the BOM's totals."""
    chart(charts.cost_by_category(plan, state.lang()))


def assumptions(plan: Plan) -> None:
    lang = state.lang()
    frame = tables.assumptions_table(plan, lang)
    kinds = {"all": t("assumptions.all"), "assumption": tr_enum("assumption_kind", "assumption", lang)}
    kinds["source"] = tr_enum("assumption_kind", "source", lang)
    choice = st.segmented_control(
        t("assumptions.filter"),
        options=list(kinds),
        format_func=kinds.__getitem__,
        default="all",
        key=keys.ASSUMPTION_KIND,
    )
    if choice in ("assumption", "source"):
        frame = frame[frame[t("col.kind")] == kinds[choice]]
    counts = tables.assumption_counts(plan)
    st.caption(t("assumptions.caption", sources=counts["source"], assumptions=counts["assumption"]))
    table(frame, wide=t("col.text"), narrow=(t("col.kind"),))


def scenario_download(plan: Plan) -> None:
    st.download_button(
        t("assumptions.download_scenario"),
        data=json.dumps(plan.scenario.model_dump(mode="json"), indent=2, ensure_ascii=False),
        file_name="scenario.json",
        mime="application/json",
    )


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


def topology_tables(plan: Plan) -> None:
    lang = state.lang()
    st.markdown(f"**{t('topology.tiers')}**")
    table(tables.tier_table(plan, lang))
    st.markdown(f"**{t('topology.media')}**")
    table(tables.media_table(plan, engine.catalog(), lang))


def rack_table(plan: Plan) -> None:
    table(tables.rack_table(plan, state.lang()))


def table(frame: pd.DataFrame, *, wide: str | None = None, narrow: tuple[str, ...] = ()) -> None:
    """A static table that shows every cell in full (text wraps; nothing is cut off).

    ``wide`` names the column that gets the room (long text); ``narrow`` columns never wrap.
    """
    styler = frame.style.hide(axis="index")
    if wide is not None:
        styler = styler.set_properties(subset=[wide], **{"min-width": "24em"})
    if narrow:
        styler = styler.set_properties(subset=list(narrow), **{"white-space": "nowrap", "min-width": "5em"})
    st.table(styler)
