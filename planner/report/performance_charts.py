"""Plotly chart builders of the Optimize, Workload and Reliability pages (pure: no Streamlit).

Engine results in, ``go.Figure`` out, in the language passed, in the house style of
:mod:`planner.report.charts` (same fonts, colours per design, legends below the plot).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from planner import Plan
from planner.i18n import tr
from planner.optimize.pareto import ParetoPoint
from planner.performance.reliability import Reliability
from planner.performance.uncertainty import MonteCarloResult, Percentiles
from planner.performance.workload import WorkloadEstimate, step_breakdown_frame
from planner.report import fmt
from planner.report.charts import (
    _FALLBACK_COLORS,
    _busbw_figure,
    _bytes,
    _nice_step,
    _stack_totals,
    _with_notes,
    category_color,
    design_color,
    separate_overlapping,
    styled,
    wrapped,
)
from planner.report.performance_tables import (
    CLASS_KEYS,
    LEVEL_KEYS,
    OUTPUT_KEYS,
    TORNADO_INPUT_KEYS,
    keyed_text,
    output_label,
    output_value,
)
from planner.report.tables import Money

CUSTOM_COLOR = _FALLBACK_COLORS[0]
PRESET_COLOR = "#7F8C8D"
OPTIMUM_COLOR = "#C0392B"
STEP_COMPONENTS = {
    "compute": "wl.step.compute",
    "moe_overhead": "wl.step.moe_overhead",
    "tp_comm": "wl.step.tp_comm",
    "cp_comm": "wl.step.cp_comm",
    "ep_comm": "wl.step.ep_comm",
    "pp_bubble": "wl.step.pp_bubble",
    "pp_comm": "wl.step.pp_comm",
    "dp_comm": "wl.step.dp_comm",
    "optimizer": "wl.step.optimizer",
    "host_offload": "wl.step.host_offload",
}
COLLECTIVE_KEYS = {"all_reduce": "word.allreduce", "all_to_all": "word.alltoall"}


def money_ticks(fig: go.Figure, low: float, high: float, lang: str) -> None:
    """A money y axis over ``[low, high]`` (not from zero) with ticks in the language's grouping.

    Parameters
    ----------
    fig : go.Figure
        The chart (changed in place).
    low, high : float
        Lowest and highest value drawn [report currency].
    lang : str
        Language of the tick grouping (``en`` or ``zh``).
    """
    span = max(high - low, abs(high) * 0.02, 1.0)
    low, high = low - span * 0.12, high + span * 0.18
    step = _nice_step(high - low)
    first = math.ceil(low / step) * step
    ticks = [first + step * i for i in range(int((high - first) / step) + 1)]
    fig.update_yaxes(
        range=[low, high], tickvals=ticks, ticktext=[fmt.compact(v, lang, 4, trim=True) for v in ticks]
    )


def color_of(design_id: str, index: int = 0) -> str:
    """A design's colour; an optimized or loaded custom fabric stands out from its preset.

    Parameters
    ----------
    design_id : str
        Design id (``-custom`` for a custom fabric).
    index : int
        Position of the design among those drawn, 0-based [count].

    Returns
    -------
    str
        Colour as ``#RRGGBB``.
    """
    return CUSTOM_COLOR if design_id.endswith("-custom") else design_color(design_id, index)


# --- optimizer ------------------------------------------------------------------------------------


def _pareto_x(p: Plan, power: bool) -> float:
    """Facility power [kW], or effective per-GPU bandwidth [Gb/s] = ports x speed / oversubscription."""
    if power:
        return p.power.facility_kw
    return p.bandwidth.per_gpu_gbit_per_s / p.topology.oversubscription


def _front_trace(
    points: Sequence[ParetoPoint], ordered: Sequence[int], power: bool, lang: str, money: Money
) -> go.Scatter:
    """The front as numbered, selectable points; ``customdata`` is each point's index."""
    texts = [
        tr(
            "opt.hover.point",
            lang,
            label=points[i].label,
            capex=fmt.money(money(points[i].capex_usd), money.currency, lang),
            kw=fmt.number(points[i].facility_kw, 1),
            bw=fmt.number(points[i].per_gpu_gbit_per_s, 1),
        )
        for i in ordered
    ]
    return go.Scatter(
        x=[points[i].facility_kw if power else points[i].per_gpu_gbit_per_s for i in ordered],
        y=[money(points[i].capex_usd) for i in ordered],
        mode="lines+markers+text",
        name=tr("opt.legend.front", lang),
        line={"color": "#2F5FD0", "width": 2, "shape": "hv" if not power else "linear"},
        marker={"size": 14, "color": "#2F5FD0", "line": {"width": 2, "color": "white"}},
        text=[str(n + 1) for n in range(len(ordered))],
        textposition="top center",
        customdata=[[i] for i in ordered],
        hovertext=texts,
        hovertemplate="%{hovertext}<extra></extra>",
        selected={"marker": {"color": OPTIMUM_COLOR, "size": 18}},
        unselected={"marker": {"opacity": 0.9}},
    )


def _reference_trace(
    plan: Plan, key: str, symbol: str, color: str, power: bool, lang: str, money: Money
) -> go.Scatter:
    """The preset or the optimized design as one marker (not part of the selectable front)."""
    return go.Scatter(
        x=[_pareto_x(plan, power)],
        y=[money(plan.cost.capex_usd)],
        mode="markers",
        name=tr(key, lang),
        marker={"size": 15, "symbol": symbol, "color": color, "line": {"width": 1, "color": "white"}},
        hovertemplate=tr(key, lang)
        + ": "
        + fmt.money(money(plan.cost.capex_usd), money.currency, lang)
        + "<extra></extra>",
    )


def pareto(
    points: Sequence[ParetoPoint],
    kind: str,
    lang: str,
    *,
    money: Money,
    preset: Plan | None = None,
    optimized: Plan | None = None,
) -> go.Figure:
    """CAPEX against facility power (``kind="power"``) or per-GPU bandwidth (``"bandwidth"``).

    The front's points carry their index as ``customdata``, so a selection names the design to
    load; the preset and the optimized design are drawn for reference (not selectable).

    Parameters
    ----------
    points : Sequence[ParetoPoint]
        Points of the Pareto front (CAPEX [USD], facility power [kW], bandwidth [Gb/s per GPU]).
    kind : str
        ``power`` or ``bandwidth``: the x axis.
    lang : str
        Language of labels (``en`` or ``zh``).
    money : Money
        Report currency and rate [currency/USD].
    preset, optimized : Plan or None
        Reference plans drawn beside the front; ``None`` leaves one out.

    Returns
    -------
    go.Figure
        Scatter chart, CAPEX [report currency] against the chosen axis.
    """
    power = kind == "power"
    ordered = sorted(
        range(len(points)), key=lambda i: points[i].facility_kw if power else points[i].per_gpu_gbit_per_s
    )
    front = _front_trace(points, ordered, power, lang, money)
    references = [
        (plan, key, symbol, color)
        for plan, key, symbol, color in (
            (preset, "opt.legend.preset", "square", PRESET_COLOR),
            (optimized, "opt.legend.optimized", "star", OPTIMUM_COLOR),
        )
        if plan is not None
    ]
    fig = go.Figure(data=[front, *(_reference_trace(*ref, power, lang, money) for ref in references)])
    reference_plans = [ref[0] for ref in references]
    fig.update_xaxes(
        title=tr("opt.axis.facility_kw" if power else "opt.axis.per_gpu", lang),
        type="linear" if power else "log",
    )
    if not power:
        ticks = sorted({*front.x, *(_pareto_x(p, power) for p in reference_plans)})
        fig.update_xaxes(tickvals=ticks, ticktext=[fmt.significant(v) for v in ticks])
    fig.update_yaxes(title=tr("axis.amount", lang, unit=tr(f"currency.{money.currency}", lang)))
    every = [*front.y, *(money(p.cost.capex_usd) for p in reference_plans)]
    money_ticks(fig, min(every), max(every), lang)
    title = tr("opt.chart.pareto_power" if power else "opt.chart.pareto_bandwidth", lang)
    fig = styled(fig, title, height=460)
    fig.update_layout(clickmode="event+select", dragmode=False)
    return fig


# --- workload -------------------------------------------------------------------------------------


def _stacked_bars(
    y: Sequence[str],
    stacks: Sequence[tuple[str, str, Sequence[float]]],
    totals: Sequence[float],
    total_text: Sequence[str],
    *,
    unit: str,
) -> go.Figure:
    """Horizontal bars, one row per ``y`` (the first on top), stacked from ``stacks`` (legend name,
    colour, a value per row), each row's total written at its end; ``unit`` follows a value in the
    hover text. The caller sets the x axis."""
    fig = go.Figure()
    for name, color, values in stacks:
        fig.add_trace(
            go.Bar(
                x=values,
                y=y,
                orientation="h",
                name=name,
                marker_color=color,
                customdata=[fmt.number(v, 3) for v in values],
                hovertemplate=f"%{{y}}<br>%{{fullData.name}}: %{{customdata}}{unit}<extra></extra>",
            )
        )
    _stack_totals(fig, y, totals, total_text, horizontal=True)
    fig.update_yaxes(autorange="reversed")
    return fig


def step_breakdown(estimates: Sequence[WorkloadEstimate], labels: Sequence[str], lang: str) -> go.Figure:
    """Where a training step's time goes, per design (stacked horizontal bars) [s].

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        Training estimate per design (step time and its parts [s]).
    labels : Sequence[str]
        Display label per estimate.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Stacked horizontal bars [s].
    """
    frame = step_breakdown_frame(estimates)
    label_of = {e.design_id: label for e, label in zip(estimates, labels, strict=True)}
    stacks = []
    for component, key in STEP_COMPONENTS.items():
        rows = frame[frame["component"] == component]
        values = [float(rows[rows["design"] == e.design_id]["time_s"].sum()) for e in estimates]
        if any(v > 0 for v in values):
            stacks.append((tr(key, lang), category_color(component, "step"), values))
    totals = [e.step_time_s for e in estimates]
    fig = _stacked_bars(
        [label_of[e.design_id] for e in estimates],
        stacks,
        totals,
        [f"{fmt.number(v, 2)} s" for v in totals],
        unit=" s",
    )
    fig.update_xaxes(title=tr("wl.axis.step_time", lang), range=[0, max(totals, default=1.0) * 1.18])
    height = max(260, 120 + 55 * len(estimates))
    return styled(fig, tr("wl.chart.step_breakdown", lang), height=height, legend="right")


def collectives_busbw(frame: pd.DataFrame, labels: dict[str, str], lang: str) -> go.Figure:
    """busbw against message size per design: all-reduce solid, all-to-all dotted (tidy frame of
    :func:`planner.performance.collectives.collectives_frame`).

    Parameters
    ----------
    frame : pd.DataFrame
        Tidy collectives frame: design, collective, message size [bytes], busbw [GB/s], bound level.
    labels : dict[str, str]
        Display label per design id.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Line chart, log message size [bytes] against busbw [GB/s].
    """
    traces: list[go.Scatter] = []
    for i, (design, rows) in enumerate(frame.groupby("design", sort=False)):
        name = labels.get(str(design), str(design))
        for collective, dash in (("all_reduce", "solid"), ("all_to_all", "dot")):
            part = rows[rows["collective"] == collective]
            if part.empty:
                continue
            sizes = part["message_bytes"].tolist()
            bound = [keyed_text(LEVEL_KEYS, str(b), lang) for b in part["bound_level"]]
            traces.append(
                go.Scatter(
                    x=sizes,
                    y=part["busbw_gbyte_per_s"].tolist(),
                    name=f"{name} · {tr(COLLECTIVE_KEYS[collective], lang)}",
                    mode="lines",
                    line={"color": color_of(str(design), i), "dash": dash, "width": 2},
                    customdata=[[_bytes(s), b] for s, b in zip(sizes, bound, strict=True)],
                    hovertemplate=(
                        "%{customdata[0]}: %{y:.1f} GB/s · "
                        + tr("wl.hover.bound", lang)
                        + " %{customdata[1]}<extra>%{fullData.name}</extra>"
                    ),
                )
            )
    return _busbw_figure(traces, lang, y_title=tr("axis.busbw", lang), title=tr("wl.chart.collectives", lang))


def _side_note(fig: go.Figure, text: str, *, above: bool, yshift: int) -> None:
    """A small grey note from the plot's left edge, just above it (``above``) or below it, moved
    ``yshift`` pixels (clear of the title or the axis labels)."""
    fig.add_annotation(
        text=text,
        xref="paper",
        yref="paper",
        x=0.0,
        y=1.0 if above else 0.0,
        xanchor="left",
        yanchor="bottom" if above else "top",
        yshift=yshift,
        showarrow=False,
        font={"size": 11, "color": "#5D6D7E"},
    )


def tornado(frame: pd.DataFrame, output: str, lang: str, *, money: Money) -> go.Figure:
    """One-at-a-time swings of one output (``planner.performance.uncertainty.tornado``), largest on top.

    Bars start at the base value and end at the output with the input at -s and +s.

    Parameters
    ----------
    frame : pd.DataFrame
        Tornado frame: output, input, base, low, high and swing (money [USD], time [days]).
    output : str
        The output drawn (``..._days`` or a money column).
    lang : str
        Language of labels (``en`` or ``zh``).
    money : Money
        Report currency and rate [currency/USD].

    Returns
    -------
    go.Figure
        Horizontal bars around the base value [days or report currency].
    """
    rows = frame[(frame["output"] == output) & (frame["swing"] > 0)].sort_values("swing")
    is_money = not output.endswith("_days")
    factor = money.per_usd if is_money else 1.0
    names = [tr(TORNADO_INPUT_KEYS.get(str(i), "wl.input.other"), lang) for i in rows["input"]]
    base = float(frame[frame["output"] == output]["base"].iloc[0]) * factor if not frame.empty else 0.0
    fig = go.Figure()
    for column, key, color in (("low", "wl.legend.minus", "#2F5FD0"), ("high", "wl.legend.plus", "#E3821B")):
        ends = [float(v) * factor for v in rows[column]]
        fig.add_trace(
            go.Bar(
                y=names,
                x=[end - base for end in ends],
                base=[base] * len(ends),
                orientation="h",
                name=tr(key, lang),
                marker_color=color,
                text=[_relative(end, base) for end in ends],
                textposition="outside",
                cliponaxis=False,
                textfont={"size": 10},
                customdata=[output_value(output, v / factor, money, lang) for v in ends],
                hovertemplate="%{y}: %{customdata}<extra>%{fullData.name}</extra>",
            )
        )
    fig.add_vline(x=base, line={"color": "#333", "width": 1})
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(title=output_label(output, money.currency, lang))
    if is_money and base > 0:
        low = min(
            [base, *(float(v) * factor for v in rows["low"]), *(float(v) * factor for v in rows["high"])]
        )
        high = max(
            [base, *(float(v) * factor for v in rows["low"]), *(float(v) * factor for v in rows["high"])]
        )
        span = max(high - low, base * 0.01)
        fig.update_xaxes(range=[low - span * 0.2, high + span * 0.2])
    title = tr(
        "wl.chart.tornado",
        lang,
        output=tr(OUTPUT_KEYS[output], lang),
        base=output_value(output, base / factor, money, lang),
    )
    fig = styled(fig, title, height=max(280, 130 + 42 * len(names)), legend="right")
    # the x axis is zoomed on the swings, so every bar says how large it is against the base
    _side_note(fig, tr("wl.tornado.relative_note", lang), above=True, yshift=4)
    fig.update_layout(margin={"t": 70})
    return fig


def _relative(value: float, base: float) -> str:
    """``value`` against ``base`` as a signed percentage: ``+3.2 %``, ``−0.4 %``.

    >>> _relative(103.2, 100.0), _relative(99.6, 100.0), _relative(5.0, 0.0)
    ('+3.2 %', '−0.4 %', '')
    """
    if base == 0:
        return ""
    change = (value - base) / abs(base) * 100.0
    return f"{'+' if change >= 0 else '−'}{fmt.number(abs(change), 1)} %"


def spread_percent(p10: float, p50: float, p90: float) -> float:
    """Half the P10–P90 width relative to the median [%]: the ``±`` printed beside each range.

    spread = (P90 − P10) / 2 / P50 × 100.

    Parameters
    ----------
    p10, p50, p90 : float
        Percentiles of an output [any unit, the same for all].

    Returns
    -------
    float
        Spread [%]; 0 when the median is 0.

    >>> round(spread_percent(18.8, 19.0, 19.2), 3)
    1.053
    """
    return (p90 - p10) / 2.0 / p50 * 100.0 if p50 else 0.0


def monte_carlo_ranges(
    results: Sequence[MonteCarloResult],
    labels: Sequence[str],
    design_ids: Sequence[str],
    lang: str,
    *,
    money: Money,
) -> go.Figure:
    """P10-P90 range, P50 and the base case per design, for time to train and cost to train.

    Both axes start at zero, so a range 2 % wide looks 2 % wide, and each range is labelled with
    its relative spread (:func:`spread_percent`) so narrow ranges can still be compared.

    Parameters
    ----------
    results : Sequence[MonteCarloResult]
        Monte Carlo result per design (percentiles and base case).
    labels : Sequence[str]
        Display label per result.
    design_ids : Sequence[str]
        Design id per result (its colour).
    lang : str
        Language of labels (``en`` or ``zh``).
    money : Money
        Report currency and rate [currency/USD].

    Returns
    -------
    go.Figure
        Two panels: time to train [days] and cost to train [report currency].
    """
    outputs = ("time_to_train_days", "cost_to_train_usd")
    labels = [wrapped(label, 22) for label in labels]
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=[output_label(o, money.currency, lang) for o in outputs],
        horizontal_spacing=0.08,
        shared_yaxes=True,
    )
    for col, output in enumerate(outputs, start=1):
        factor = 1.0 if output.endswith("_days") else money.per_usd
        top = 0.0
        for i, (result, label, design) in enumerate(zip(results, labels, design_ids, strict=True)):
            p = result.percentile(output)
            top = max(top, p.p90 * factor)
            for trace in _range_traces(p, label, color_of(design, i), factor, output, money, lang):
                fig.add_trace(trace, row=1, col=col)
        high = max(top * 1.22, 1e-9)
        axis = {"range": [0, high], "title": {"text": output_label(output, money.currency, lang)}}
        if not output.endswith("_days") and top > 0:
            step = _nice_step(high, 4)
            ticks = [step * k for k in range(int(high / step) + 1)]
            axis |= {"tickvals": ticks, "ticktext": [fmt.compact(v, lang, 4, trim=True) for v in ticks]}
        fig.update_xaxes(axis, row=1, col=col)
    fig.update_yaxes(autorange="reversed")
    fig.update_annotations(font_size=13)
    fig = styled(fig, tr("wl.chart.monte_carlo", lang), height=max(280, 170 + 45 * len(results)), legend=None)
    _side_note(fig, tr("wl.mc.spread_note", lang), above=False, yshift=-44)
    fig.update_layout(margin={"t": 80, "b": 70})
    return fig


def _range_traces(
    p: Percentiles, label: str, color: str, factor: float, output: str, money: Money, lang: str
) -> tuple[go.Scatter, go.Scatter]:
    """One design's P10-P90 bar and its P10/P50/P90 markers, labelled with the relative spread."""
    bar = go.Scatter(
        x=[p.p10 * factor, p.p90 * factor],
        y=[label, label],
        mode="lines",
        line={"color": color, "width": 10},
        opacity=0.35,
        showlegend=False,
        hoverinfo="skip",
    )
    markers = go.Scatter(
        x=[p.p10 * factor, p.p50 * factor, p.p90 * factor],
        y=[label] * 3,
        mode="markers+text",
        marker={
            "color": color,
            "size": [9, 14, 9],
            "symbol": ["line-ns", "diamond", "line-ns"],
            "line": {"width": 2, "color": color},
        },
        text=["", "", f"±{fmt.number(spread_percent(p.p10, p.p50, p.p90), 1)} %"],
        textposition="middle right",
        textfont={"size": 11, "color": "#34495E"},
        cliponaxis=False,
        customdata=[
            [name, output_value(output, v, money, lang)]
            for name, v in (("P10", p.p10), ("P50", p.p50), ("P90", p.p90))
        ],
        hovertemplate="%{y} · %{customdata[0]}: %{customdata[1]}<extra></extra>",
        showlegend=False,
    )
    return bar, markers


# --- reliability ----------------------------------------------------------------------------------


def goodput_curves(
    curves: Sequence[pd.DataFrame], results: Sequence[Reliability], labels: Sequence[str], lang: str
) -> go.Figure:
    """Goodput against the checkpoint interval per design; Young's optimum marked (◆).

    Parameters
    ----------
    curves : Sequence[pd.DataFrame]
        Goodput against checkpoint interval per design.
    results : Sequence[Reliability]
        Reliability result per design (optimal interval [s]).
    labels : Sequence[str]
        Display label per design.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Lines of goodput [%] against interval [min], optima marked.
    """
    lines: list[go.Scatter] = []
    optima: list[go.Scatter] = []
    for i, (curve, result, label) in enumerate(zip(curves, results, labels, strict=True)):
        color = color_of(result.design_id, i)
        lines.append(
            go.Scatter(
                x=curve["checkpoint_interval_min"].tolist(),
                y=(curve["goodput"] * 100.0).tolist(),
                mode="lines",
                name=label,
                line={"color": color, "width": 2},
                hovertemplate="%{x:.1f} min: %{y:.2f} %<extra>%{fullData.name}</extra>",
            )
        )
        best_min = result.optimal_interval_s / 60.0
        best = result.goodput_at(interval_s=result.optimal_interval_s) * 100.0
        optima.append(
            go.Scatter(
                x=[best_min],
                y=[best],
                mode="markers",
                marker={
                    "symbol": "diamond",
                    "size": 13,
                    "color": color,
                    "line": {"width": 1, "color": "white"},
                },
                showlegend=False,
                hovertemplate=tr(
                    "rel.hover.optimum", lang, minutes=fmt.number(best_min, 1), goodput=fmt.number(best, 2)
                )
                + f"<extra>{label}</extra>",
            )
        )
    low = min((float(c["goodput"].min()) for c in curves), default=0.0) * 100.0
    floor = max(0.0, math.floor(low))
    # the axis is zoomed on the top of the goodput range: lines coincide within 1 % of its height
    notes = separate_overlapping(lines, lang, span=100.2 - floor)
    fig = go.Figure(data=[*lines, *optima])
    shortest = min((float(c["checkpoint_interval_min"].min()) for c in curves), default=1.0)
    longest = max((float(c["checkpoint_interval_min"].max()) for c in curves), default=100.0)
    ticks = [m * 10.0**e for e in range(-2, 6) for m in (1, 2, 5) if shortest <= m * 10.0**e <= longest]
    fig.update_xaxes(
        type="log", title=tr("rel.axis.interval", lang), tickvals=ticks, ticktext=[f"{v:g}" for v in ticks]
    )
    fig.update_yaxes(title=tr("rel.axis.goodput", lang), range=[floor, 100.2])
    return _with_notes(styled(fig, tr("rel.chart.goodput", lang), height=440), notes)


def interruptions_by_class(results: Sequence[Reliability], labels: Sequence[str], lang: str) -> go.Figure:
    """Interruptions per day, stacked by failure class, per design (horizontal bars).

    Parameters
    ----------
    results : Sequence[Reliability]
        Reliability result per design (interruptions per class [1/day]).
    labels : Sequence[str]
        Display label per design.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Stacked horizontal bars [1/day].
    """
    stacks = [
        (
            tr(key, lang),
            category_color(name, "failure_class"),
            [
                next((c.interruptions_per_day for c in r.by_class if c.failure_class == name), 0.0)
                for r in results
            ],
        )
        for name, key in CLASS_KEYS.items()
    ]
    totals = [r.interruptions_per_day for r in results]
    fig = _stacked_bars(
        [wrapped(label, 18) for label in labels], stacks, totals, [fmt.number(v, 2) for v in totals], unit=""
    )
    fig.update_xaxes(title=tr("rel.axis.per_day", lang), range=[0, max(totals, default=1.0) * 1.25])
    return styled(fig, tr("rel.chart.by_class", lang), height=440)
