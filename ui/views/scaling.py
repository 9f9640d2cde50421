"""The Scaling page: one chart per metric with crossovers, the shared colour key, and a sweep's
Parquet file (``planner sweep --grid``) read back: its key figures by design and GPU count."""

from __future__ import annotations

import html
from pathlib import Path

import streamlit as st

from planner import Plan
from planner.access import Permission
from planner.compare import Crossover
from planner.errors import InputError
from planner.i18n import error_text
from planner.report import charts, sweep_charts, tables
from planner.report.performance_tables import escape_markdown
from planner.sweep import results
from ui import auth, engine, state, workshop
from ui.state import t, tx
from ui.widgets import chart, csv_download, table

SWEEP_PICK = "sweep_file_pick"
SWEEP_UPLOAD = "sweep_file_upload"
SWEEP_METRIC = "sweep_file_metric"
SHOWN_ROWS = 2000
"""Rows of a sweep shown on the page [count]; the CSV download has every row."""


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


# shared, never changed: no copy per rerun; a budget of 2 files of at most
# results.MAX_SWEEP_DECODED_BYTES each, dropped 10 minutes after their last use
@st.cache_resource(show_spinner=False, max_entries=2, ttl=600)
def _read_upload(content: bytes, name: str, internal_cost: bool) -> results.SweepFile:
    return results.read_sweep(content, name=name, internal_cost=internal_cost)


@st.cache_resource(show_spinner=False, max_entries=2, ttl=600)  # the same budget as uploads
def _read_path(path: str, mtime_ns: int, internal_cost: bool) -> results.SweepFile:
    del mtime_ns  # part of the cache key only: a rewritten file is read again
    return results.read_sweep(Path(path), name=Path(path).name, internal_cost=internal_cost)


def _chosen_sweep(internal_cost: bool) -> results.SweepFile | None:
    """The sweep the user picked among recent outputs or uploaded (the upload wins)."""
    folder = results.sweep_directory()
    recent = results.recent_sweeps(folder)
    picked = ""
    if folder is not None and recent:
        picked = st.selectbox(
            t("sweep_file.recent", folder=str(folder)),
            ["", *(str(p.relative_to(folder)) for p in recent)],
            format_func=lambda option: option or t("sweep_file.none"),
            key=SWEEP_PICK,
        )
    uploaded = st.file_uploader(t("sweep_file.upload"), type=["parquet"], key=SWEEP_UPLOAD)
    if uploaded is not None:
        return _read_upload(uploaded.getvalue(), uploaded.name, internal_cost)
    if folder is not None and picked:
        path = folder / picked
        return _read_path(str(path), path.stat().st_mtime_ns, internal_cost)
    return None


def sweep_file() -> None:
    """A sweep's Parquet file: a chart of one key figure by GPU count and design, the rows, and
    their CSV. For roles with every page; costs only for roles that may see internal costs."""
    if not auth.can(Permission.ALL_PAGES):
        return
    st.subheader(t("sweep_file.title"))
    st.caption(t("sweep_file.caption", env=results.SWEEP_DIR_ENV))
    internal = auth.can(Permission.INTERNAL_COST)
    try:
        sweep = _chosen_sweep(internal)
    except InputError as exc:
        st.error(escape_markdown(tx(error_text(exc))))
        return
    if sweep is None:
        return
    lang = state.lang()
    summary = t(
        "sweep_file.summary",
        rows=len(sweep.frame),
        refused=sweep.refused,
        fields=escape_markdown(", ".join(sweep.fields)),  # column names of the uploaded file
    )
    st.caption(summary + (" " + t("sweep_file.hidden", count=sweep.hidden) if sweep.hidden else ""))
    if sweep.metrics:
        metric = st.selectbox(
            t("sweep_file.metric"),
            sweep.metrics,
            format_func=lambda m: sweep_charts.metric_label(m, lang),
            key=SWEEP_METRIC,
        )
        chart(
            sweep_charts.sweep_metric(
                sweep, metric, lang, names=tables.design_names(engine.catalog(), lang, ())
            )
        )
    rows = sweep_charts.sweep_table(sweep)
    if len(rows) > SHOWN_ROWS:
        st.caption(t("sweep_file.first_rows", shown=SHOWN_ROWS, rows=len(rows)))
    st.dataframe(rows.head(SHOWN_ROWS), hide_index=True)
    csv_download(
        st,
        t("sweep_file.download"),
        rows,
        file_name=f"{Path(sweep.name).stem}.csv",
        audit=f"sweep CSV {sweep.name}",
    )
