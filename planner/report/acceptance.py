"""The acceptance report of a built cluster (``planner accept --pdf/--csv``, the Measurements page).

CSV: one row per check, text cells made formula-safe
(:mod:`planner.sheets`). PDF: the verdict, the plan's and the
measured curve per collective and node group, every check with its status, the suspects and the
commands to re-run on them, printed from HTML by the browser the proposal uses. English or
Chinese (``lang``); user text (file and host names) is escaped, never markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from planner.i18n import tr, translate
from planner.measure.accept import Acceptance, Check
from planner.report.export.safety import escape_html
from planner.sheets import csv_bytes

COLUMNS = (
    "collective",
    "gpus",
    "hosts",
    "size_bytes",
    "measured_busbw_gbyte_per_s",
    "planned_busbw_gbyte_per_s",
    "shortfall_fraction",
    "tolerance_fraction",
    "status",
    "file",
    "line",
)


def _cells(c: Check) -> list[object]:
    return [
        c.collective,
        c.gpus,
        " ".join(c.hosts),
        c.size_bytes,
        round(c.measured_busbw_gbyte_per_s, 3),
        round(c.planned_busbw_gbyte_per_s, 3),
        round(c.shortfall_fraction, 4),
        c.tolerance_fraction,
        c.status,
        c.file,
        c.line,
    ]


def acceptance_csv(result: Acceptance, *, lang: str = "en") -> bytes:
    """The checks as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese), written by
    the one formula-safe table writer (:mod:`planner.sheets`).

    Parameters
    ----------
    result : Acceptance
        The acceptance checks of a measured cluster against its plan.
    lang : str
        Language of headings and reasons (``en`` or ``zh``).

    Returns
    -------
    bytes
        CSV, UTF-8 with byte-order mark: one row per check, then the verdict and the suspect hosts.
    """
    rows: list[list[object]] = [list(_cells(check)) for check in result.checks]
    rows += [[], [tr("acc.verdict", lang), result.verdict]]
    rows += [[tr("acc.suspect", lang), s.host, translate(s.reason, lang)] for s in result.suspects]
    return csv_bytes([tr(f"acc.col.{c}", lang) for c in COLUMNS], rows, bom=True)


def _curve_svg(checks: Sequence[Check]) -> str:
    """A small log-log chart of measured and planned busbw over size (inline SVG)."""
    import math

    points = [c for c in checks if c.measured_busbw_gbyte_per_s > 0 and c.planned_busbw_gbyte_per_s > 0]
    if len(points) < 2:
        return ""
    xs = [math.log2(c.size_bytes) for c in points]
    ys = [math.log10(v) for c in points for v in (c.measured_busbw_gbyte_per_s, c.planned_busbw_gbyte_per_s)]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    w, h = 520, 200

    def xy(size: float, value: float) -> str:
        x = 40 + (math.log2(size) - x0) / max(1e-9, x1 - x0) * (w - 60)
        y = h - 20 - (math.log10(value) - y0) / max(1e-9, y1 - y0) * (h - 40)
        return f"{x:.1f},{y:.1f}"

    measured = " ".join(xy(c.size_bytes, c.measured_busbw_gbyte_per_s) for c in points)
    planned = " ".join(xy(c.size_bytes, c.planned_busbw_gbyte_per_s) for c in points)
    return (
        f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">'
        f'<polyline points="{planned}" fill="none" stroke="#888" stroke-dasharray="4 3"/>'
        f'<polyline points="{measured}" fill="none" stroke="#1f77b4" stroke-width="2"/>'
        f'<text x="40" y="12" font-size="10">{10**y1:.0f} GB/s</text>'
        f'<text x="40" y="{h - 4}" font-size="10">{2**x0:.0f} B</text>'
        f'<text x="{w - 80}" y="{h - 4}" font-size="10">{2**x1:.0f} B</text></svg>'
    )


def acceptance_html(result: Acceptance, *, lang: str = "en") -> str:
    """The report as one HTML document.

    Parameters
    ----------
    result : Acceptance
        The acceptance checks of a measured cluster against its plan.
    lang : str
        Language of the text (``en`` or ``zh``).

    Returns
    -------
    str
        HTML text: verdict, then per file, collective and hosts a busbw curve (SVG) and its checks.
    """
    e = escape_html
    groups: dict[tuple[str, str, str], list[Check]] = {}
    for c in result.checks:
        groups.setdefault((c.file, c.collective, " ".join(c.hosts)), []).append(c)
    parts = [
        f'<html lang="{e(lang)}"><head><meta charset="utf-8"><style>'
        "body{font-family:'Noto Sans CJK SC','Noto Sans',sans-serif;font-size:10pt}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        ".fail{color:#b00}.warn{color:#a60}</style></head><body>",
        f"<h1>{e(tr('acc.title', lang))}</h1>",
        f"<p>{e(tr('acc.plan', lang))}: {e(result.design_id)}, {result.gpus} x {e(result.gpu_id)}</p>",
        f"<h2>{e(tr('acc.verdict', lang))}: {e(tr('acc.status.' + result.verdict, lang))}</h2>",
        f"<p>{e(tr('acc.legend', lang))}</p>",
    ]
    for (file, collective, hosts), checks in groups.items():
        parts.append(f"<h3>{e(collective)} · {e(PurePath(file).name)} · {e(hosts)}</h3>{_curve_svg(checks)}")
        head = "".join(f"<th>{e(tr(f'acc.col.{c}', lang))}</th>" for c in COLUMNS[3:9])
        rows = "".join(
            f'<tr class="{c.status}">'
            + "".join(f"<td>{e(str(v))}</td>" for v in _cells(c)[3:8])
            + f"<td>{e(tr('acc.status.' + c.status, lang))}</td></tr>"
            for c in checks
        )
        parts.append(f"<table><tr>{head}</tr>{rows}</table>")
    parts.append(f"<h2>{e(tr('acc.suspects', lang))}</h2>")
    if result.suspects:
        parts.append(
            "<ul>"
            + "".join(f"<li>{e(s.host or '-')}: {e(translate(s.reason, lang))}</li>" for s in result.suspects)
            + "</ul>"
        )
    else:
        parts.append(f"<p>{e(tr('acc.no_suspects', lang))}</p>")
    if result.commands:
        parts.append(
            f"<h2>{e(tr('acc.commands', lang))}</h2><pre>"
            + "\n".join(e(c) for c in result.commands)
            + "</pre>"
        )
    parts.append("</body></html>")
    return "".join(parts)


def acceptance_pdf(result: Acceptance, *, lang: str = "en") -> bytes:
    """The report printed to PDF (headless Chromium, as the proposal).

    Parameters
    ----------
    result : Acceptance
        The acceptance checks of a measured cluster against its plan.
    lang : str
        Language of the text (``en`` or ``zh``).

    Returns
    -------
    bytes
        The PDF file of :func:`acceptance_html`.
    """
    from planner.report.export.browser import shared_browser

    return shared_browser().print_pdf(acceptance_html(result, lang=lang))


def curves_figure(
    result: Acceptance, *, lang: str = "en", fitted: Sequence[tuple[str, int, float]] = ()
) -> Any:
    """Measured and planned busbw over message size per collective and node group (log-log), with
    the calibrated model's curve where ``fitted`` gives it ((file, size, busbw) triples).

    Parameters
    ----------
    result : Acceptance
        The acceptance checks (measured and planned busbw [GB/s] per size [bytes]).
    lang : str
        Language of labels (``en`` or ``zh``).
    fitted : Sequence[tuple[str, int, float]]
        Calibrated model points: file, message size [bytes], busbw [GB/s].

    Returns
    -------
    Any
        A Plotly figure (``go.Figure``), log-log [bytes, GB/s].
    """
    import plotly.graph_objects as go

    from planner.report.charts import styled

    fig = go.Figure()
    groups: dict[tuple[str, str, int], list[Check]] = {}
    for c in result.checks:
        if c.gpus > 1:
            groups.setdefault((c.file, c.collective, c.gpus), []).append(c)
    for (file, collective, gpus), checks in groups.items():
        label = f"{collective} · {gpus} GPUs · {file}"
        sizes = [c.size_bytes for c in checks]
        fig.add_scatter(
            x=sizes, y=[c.measured_busbw_gbyte_per_s for c in checks], mode="lines+markers",
            name=f"{tr('acc.measured', lang)}: {label}",
        )  # fmt: skip
        fig.add_scatter(
            x=sizes, y=[c.planned_busbw_gbyte_per_s for c in checks], mode="lines",
            line={"dash": "dash"}, name=f"{tr('acc.planned', lang)}: {label}",
        )  # fmt: skip
        mine = sorted((s, v) for f, s, v in fitted if f == file and s in sizes)
        if mine:
            fig.add_scatter(
                x=[s for s, _ in mine], y=[v for _, v in mine], mode="lines",
                line={"dash": "dot"}, name=f"{tr('acc.fitted', lang)}: {label}",
            )  # fmt: skip
    fig.update_xaxes(type="log", title=tr("acc.col.size_bytes", lang))
    fig.update_yaxes(type="log", title=tr("acc.busbw_axis", lang))
    return styled(fig, tr("acc.chart_title", lang), height=420)
