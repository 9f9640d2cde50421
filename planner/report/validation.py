"""Validation results as tables, a chart, text and Markdown (pure: no Streamlit).

Results of :func:`planner.validation.run.run_all` in, in the language passed: the table of cases
with their sources, the scatter of predicted vs published, a summary in words, the plain-text
table of ``planner validate`` and the Markdown of ``docs/validation.md`` and the README.
Calibration cases are always labelled and counted apart from validation cases (see
``validation/README.md``: a figure a coefficient was fitted to is not evidence of accuracy).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pandas as pd
import plotly.graph_objects as go

from planner.i18n import tr, translate
from planner.report import fmt
from planner.report.charts import styled
from planner.validation.cases import AREAS
from planner.validation.run import CaseResult, Summary, summarize

STATUS_COLORS = {"pass": "#1E8449", "fail": "#C0392B", "not_modelled": "#95A5A6"}
AREA_SYMBOLS = {
    "topology": "square",
    "collectives": "diamond",
    "training": "circle",
    "memory": "triangle-up",
    "power": "star",
    "reliability": "hexagon",
    "serving": "cross",
    "tenancy": "x",
}
AREA_KEYS = {
    "topology": "val.area.topology",
    "collectives": "val.area.collectives",
    "training": "val.area.training",
    "memory": "val.area.memory",
    "power": "val.area.power",
    "reliability": "val.area.reliability",
    "serving": "val.area.serving",
    "tenancy": "val.area.tenancy",
}
ROLE_KEYS = {"validation": "val.role.validation", "calibration": "val.role.calibration"}
STATUS_KEYS = {
    "pass": "val.status.pass",
    "fail": "val.status.fail",
    "not_modelled": "val.status.not_modelled",
}
WIDE_RANGE_RATIO = 100.0
"""Published values spanning more than this ratio get log axes."""


def number(value: float | None) -> str:
    """A figure with three significant digits; an em dash when there is none.

    Parameters
    ----------
    value : float or None
        A figure, any unit.

    Returns
    -------
    str
        The text.

    >>> number(0.00057), number(418.54), number(None)
    ('0.000570', '419', '—')
    """
    if value is None:
        return "—"
    return fmt.significant(value, 3)


def signed_percent(value: float | None) -> str:
    """A signed relative error in percent with one decimal; an em dash when there is none.

    Parameters
    ----------
    value : float or None
        Relative error [fraction].

    Returns
    -------
    str
        Percentage [%].

    >>> signed_percent(-0.1018), signed_percent(0.0), signed_percent(None)
    ('-10.2 %', '0.0 %', '—')
    """
    if value is None:
        return "—"
    return f"{value * 100:+.1f} %" if value else "0.0 %"


def published_text(r: CaseResult) -> str:
    """The published figure as the source gives it: a value, or ``low–high``.

    Parameters
    ----------
    r : CaseResult
        A validation case result.

    Returns
    -------
    str
        The published figure [case unit].
    """
    if r.published_low == r.published_high:
        return number(r.published_low)
    return f"{number(r.published_low)}–{number(r.published_high)}"


LABEL_KEYS = {"area": AREA_KEYS, "role": ROLE_KEYS, "status": STATUS_KEYS}
"""The label keys of each case attribute that has labels."""


def case_label(attribute: str, value: str, lang: str) -> str:
    """A case's area, role or status in the reader's language.

    Parameters
    ----------
    attribute : str
        ``area``, ``role`` or ``status`` (a key of ``LABEL_KEYS``).
    value : str
        The attribute's value (``collectives``, ``calibration``, ``pass`` ...).
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The label.
    """
    return tr(LABEL_KEYS[attribute][value], lang)


def results_frame(results: Sequence[CaseResult], lang: str) -> pd.DataFrame:
    """One row per case: id, area, role, quantity, predicted, published, error, status, note, the
    cases of identical inputs it contradicts, source.

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.
    lang : str
        Language of headers and labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells, one row per case.
    """
    rows = [
        {
            tr("val.col.case", lang): r.id,
            tr("val.col.area", lang): case_label("area", r.area, lang),
            tr("val.col.role", lang): case_label("role", r.role, lang),
            tr("val.col.quantity", lang): r.quantity,
            tr("val.col.predicted", lang): number(r.predicted),
            tr("val.col.published", lang): published_text(r),
            tr("val.col.unit", lang): r.unit,
            tr("val.col.error", lang): signed_percent(r.error_fraction),
            tr("val.col.tolerance", lang): f"± {r.tolerance * 100:g} %",
            tr("val.col.status", lang): case_label("status", r.status, lang),
            tr("val.col.reason", lang): translate(r.reason, lang),
            tr("val.col.contradicts", lang): ", ".join(r.contradicted_by),
            tr("val.col.source", lang): r.url,
        }
        for r in results
    ]
    return pd.DataFrame(rows)


def summary_frame(results: Sequence[CaseResult], lang: str) -> pd.DataFrame:
    """Per area: validation pass / fail / not modelled and median |error|; calibration apart.

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.
    lang : str
        Language of headers and labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per area and one for all: counts [count] and median error [%].
    """
    rows = []
    for area, v, c in _area_summaries(results):
        if not v.total and not c.total:
            continue
        rows.append(
            {
                tr("val.col.area", lang): case_label("area", area, lang)
                if area
                else tr("val.all_areas", lang),
                tr("val.col.pass", lang): v.passed,
                tr("val.col.fail", lang): v.failed,
                tr("val.col.not_modelled", lang): v.not_modelled,
                tr("val.col.median_error", lang): _median_text(v),
                tr("val.col.calibration", lang): c.total,
            }
        )
    return pd.DataFrame(rows)


def _area_summaries(results: Sequence[CaseResult]) -> Iterator[tuple[str, Summary, Summary]]:
    """Each area of :data:`AREAS`, then all of them (``""``), with its validation and its
    calibration summary: calibration cases are never counted as validation."""
    for area in (*AREAS, ""):
        yield (
            area,
            summarize(results, role="validation", area=area),
            summarize(results, role="calibration", area=area),
        )


def _median_text(s: Summary) -> str:
    return "—" if s.median_abs_error is None else f"{s.median_abs_error * 100:.1f} %"


def summary_text(results: Sequence[CaseResult], lang: str) -> str:
    """The result in words: validation counts (with those a case of identical inputs contradicts) and
    median error, calibration counted apart.

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        One sentence.
    """
    v = summarize(results, role="validation")
    c = summarize(results, role="calibration")
    return tr(
        "val.summary",
        lang,
        total=v.total,
        passed=v.passed,
        failed=v.failed,
        not_modelled=v.not_modelled,
        contradicted=sum(r.role == "validation" and bool(r.contradicted_by) for r in results),
        median=_median_text(v),
        calibration=c.total,
        c_passed=c.passed,
    )


def scatter_chart(results: Sequence[CaseResult], lang: str) -> go.Figure:
    """Predicted vs published, one series per area and role, coloured by status.

    Each point carries the acceptance interval ``[low (1 - t), high (1 + t)]`` as an error bar
    on the predicted axis, so a point is green exactly when its bar crosses the diagonal.
    Calibration cases are open markers, labelled as calibration. Cases without a positive
    prediction (not modelled, or a "does not fit" 0) are left out of the chart, not the table.

    Parameters
    ----------
    results, lang : Sequence[CaseResult], str
        Validation case results; language of labels (``en`` or ``zh``).

    Returns
    -------
    go.Figure
        Log-log scatter, predicted against published [case unit].
    """
    shown = [r for r in results if r.predicted is not None and r.predicted > 0 and r.published_low > 0]
    fig = go.Figure()
    for role in ("validation", "calibration"):
        for area in AREAS:
            points = [r for r in shown if r.area == area and r.role == role]
            if not points:
                continue
            symbol = AREA_SYMBOLS[area] + ("-open" if role == "calibration" else "")
            name = case_label("area", area, lang)
            if role == "calibration":
                name = tr("val.chart.calibration_series", lang, area=name)
            fig.add_trace(
                go.Scatter(
                    x=[r.published for r in points],
                    y=[r.predicted for r in points],
                    mode="markers",
                    name=name,
                    marker={
                        "symbol": symbol,
                        "size": 11,
                        "color": [STATUS_COLORS[r.status] for r in points],
                        "line": {"width": 1.5, "color": [STATUS_COLORS[r.status] for r in points]},
                    },
                    error_y={
                        "type": "data",
                        "symmetric": False,
                        "array": [
                            max(0.0, r.published_high * (1 + r.tolerance) - (r.predicted or 0.0))
                            for r in points
                        ],
                        "arrayminus": [
                            max(0.0, (r.predicted or 0.0) - r.published_low * (1 - r.tolerance))
                            for r in points
                        ],
                        "thickness": 1,
                        "width": 3,
                        "color": "#B0B7BF",
                    },
                    text=[
                        f"{r.id}<br>{case_label('status', r.status, lang)} {signed_percent(r.error_fraction)}"
                        for r in points
                    ],
                    hovertemplate="%{text}<br>%{x:.3g} → %{y:.3g}<extra></extra>",
                )
            )
    values = [v for r in shown for v in (r.published, r.predicted or 0.0)] or [1.0]
    low, high = min(values) / 1.5, max(values) * 1.5
    wide = high / low > WIDE_RANGE_RATIO
    fig.add_trace(
        go.Scatter(
            x=[low, high],
            y=[low, high],
            mode="lines",
            name=tr("val.chart.diagonal", lang),
            line={"color": "#5D6D7E", "dash": "dot", "width": 1},
            hoverinfo="skip",
        )
    )
    axis = {"type": "log"} if wide else {}
    fig.update_xaxes(title=tr("val.chart.published", lang), **axis)
    fig.update_yaxes(title=tr("val.chart.predicted", lang), **axis)
    return styled(fig, tr("val.chart.title", lang), height=520, legend="right")


# --- plain text and Markdown (English: CLI, docs/validation.md, README) ---------------------------

TEXT_COLUMNS = ("case", "role", "predicted", "published", "unit", "error", "status")


def _text_row(r: CaseResult) -> tuple[str, ...]:
    role = "calib." if r.role == "calibration" else "valid."
    status = r.status.replace("_", " ")
    return (
        r.id,
        role,
        number(r.predicted),
        published_text(r),
        r.unit,
        signed_percent(r.error_fraction),
        status,
    )


def text_table(results: Sequence[CaseResult]) -> str:
    """Aligned plain-text table of ``planner validate``: one line per case, reasons below it.

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.

    Returns
    -------
    str
        The table text.
    """
    rows = [TEXT_COLUMNS, *(_text_row(r) for r in results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(TEXT_COLUMNS))]
    lines = []
    for index, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if index and results[index - 1].status != "pass" and results[index - 1].reason:
            lines.append(f"    {results[index - 1].reason}")
    return "\n".join(lines)


def _role_text(result: CaseResult) -> str:
    """The role, with the calibration case it repeats on paper and the cases it contradicts."""
    notes = []
    if result.calibration_twin:
        notes.append(f"same run as calibration {result.calibration_twin}")
    if result.contradicted_by:
        notes.append(f"contradicts {', '.join(result.contradicted_by)}: identical inputs")
    return f"{result.role} ({'; '.join(notes)})" if notes else result.role


def markdown_table(results: Sequence[CaseResult]) -> str:
    """Every case as a Markdown table with its source link (``docs/validation.md``).

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.

    Returns
    -------
    str
        Markdown table.
    """
    head = (
        "| Case | Area | Role | Predicted | Published | Unit | Error | Tolerance | Status | Note |\n"
        "|---|---|---|---:|---:|---|---:|---:|---|---|"
    )
    lines = [head]
    for r in results:
        lines.append(
            f"| [{r.id}]({r.url}) | {r.area} | {_role_text(r)} | {number(r.predicted)} | {published_text(r)} | "
            f"{fmt.markdown_cell(r.unit)} | {signed_percent(r.error_fraction)} | ± {r.tolerance * 100:g} % | "
            f"{r.status.replace('_', ' ')} | {fmt.markdown_cell(r.reason)} |"
        )
    return "\n".join(lines)


def markdown_summary(results: Sequence[CaseResult]) -> str:
    """Per area: validation pass / fail / not modelled, median |error|; calibration counted apart.

    Parameters
    ----------
    results : Sequence[CaseResult]
        Validation case results.

    Returns
    -------
    str
        Markdown table.
    """
    lines = [
        "| Area | Validation pass | Fail | Not modelled | Median \\|error\\| | Calibration cases (not evidence) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for area, v, c in _area_summaries(results):
        label = area or "**all**"
        lines.append(
            f"| {label} | {v.passed} | {v.failed} | {v.not_modelled} | {_median_text(v)} | {c.total} |"
        )
    return "\n".join(lines)
