"""Charts and tables of a grid sweep's Parquet file (``planner sweep --grid``), for the Scaling
page: one key figure over GPU count, a line per design, with the spread over the grid's other
fields (prices, cooling, ...) as a band."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go

from planner.i18n import tr, tr_enum
from planner.report import tables
from planner.report.charts import _alpha, design_color, styled
from planner.report.tables import METRICS
from planner.sweep.results import DESIGN, GPUS, SweepFile, by_design_and_size


def metric_label(metric: str, lang: str, *, unit: bool = True) -> str:
    """The name of a sweep figure (``cost.capex_usd`` as the Compare page names ``capex_usd``),
    with its unit; the dotted name itself for a figure the report does not know.

    Parameters
    ----------
    metric : str
        Dotted sweep figure name.
    lang : str
        Language (``en`` or ``zh``).
    unit : bool
        Append the unit in brackets.

    Returns
    -------
    str
        The label.
    """
    leaf = metric.rsplit(".", 1)[-1]
    if leaf not in METRICS:
        return metric
    return tables.metric_label(leaf, "USD", lang) if unit else tr_enum("metric", leaf, lang)


def sweep_metric(
    sweep: SweepFile, metric: str, lang: str, *, names: Mapping[str, str] | None = None
) -> go.Figure:
    """``metric`` over GPU count per design: the median over the sweep's other fields as a line,
    their minimum to maximum as a band (flat when nothing else varies). Money in USD, as the
    sweep was planned.

    Parameters
    ----------
    sweep : SweepFile
        A sweep's rows.
    metric : str
        Dotted figure name drawn.
    lang : str
        Language of labels (``en`` or ``zh``).
    names : Mapping[str, str] or None
        Display name per design id.

    Returns
    -------
    go.Figure
        Lines and bands over GPU count [count] in the figure's unit (money [USD]).
    """
    stats = by_design_and_size(sweep, metric)
    label_of = dict(names or {})
    traces: list[go.Scatter] = []
    for i, (design, rows) in enumerate(stats.groupby(DESIGN, sort=False)):
        color = design_color(str(design), i)
        label = label_of.get(str(design), str(design))
        x = rows[GPUS].tolist()
        traces.append(
            go.Scatter(
                x=x + x[::-1],
                y=rows["max"].tolist() + rows["min"].tolist()[::-1],
                fill="toself",
                fillcolor=_alpha(color, 0.15),
                line={"width": 0},
                hoverinfo="skip",
                showlegend=False,
                legendgroup=label,
            )
        )
        traces.append(
            go.Scatter(
                x=x,
                y=rows["median"].tolist(),
                name=label,
                mode="lines+markers",
                legendgroup=label,
                line={"color": color, "width": 2},
                customdata=rows[["min", "max", "points"]].to_numpy(),
                hovertemplate=(
                    f"{label}<br>{tr('axis.gpus', lang)} %{{x}}: %{{y:,.4g}}"
                    f"<br>%{{customdata[0]:,.4g}} – %{{customdata[1]:,.4g}} (%{{customdata[2]}})<extra></extra>"
                ),
            )
        )
    fig = go.Figure(
        data=traces,
        layout={
            "xaxis": {"type": "log", "title": {"text": tr("axis.gpus", lang)}},
            "yaxis": {"title": {"text": metric_label(metric, lang)}, "rangemode": "tozero"},
        },
    )
    return styled(
        fig, tr("sweep_file.chart_title", lang, metric=metric_label(metric, lang, unit=False)), height=380
    )


def sweep_table(sweep: SweepFile) -> pd.DataFrame:
    """The rows shown and downloaded: the grid's fields, design, GPU count, the engine's refusal
    (if any) and the key figures; the columns a role may not see are not in ``sweep`` at all.

    Parameters
    ----------
    sweep : SweepFile
        A sweep's rows.

    Returns
    -------
    pd.DataFrame
        The sweep frame without its ``point`` column.
    """
    return sweep.frame.drop(columns=[c for c in ("point",) if c in sweep.frame.columns])
