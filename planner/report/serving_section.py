"""Serving results beside the comparison and in the proposal: the scenario's serving request
(:attr:`planner.inputs.scenario.Scenario.serving`) on each compared design.

One row per figure (layout, batch, TTFT, TPOT, tokens/s per GPU, USD per million tokens, the
expert all-to-all per decode step), one column per design: the Compare page shows the frame, the
proposal a section (before the assumptions) and a workbook sheet. The estimate is
:func:`planner.performance.serving.estimate_serving` on each plan as the document shows it, so the
cost per million tokens is at cost in the internal edition and at the offered price in the
customer edition (docs/model.md, "Inference and serving"). Pure: no Streamlit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from planner import Catalog, Plan, PlannerError
from planner.i18n import error_text, tr, translate
from planner.i18n.message import Message, msg
from planner.inputs.serving import ServingRequest
from planner.performance.serving import ServingEstimate, estimate_serving
from planner.report import tables
from planner.report.export.html import HtmlDocument, Table
from planner.report.export.xlsx import Column, Sheet

SECTION_KEY = "export.sec.serving"
"""Title key of the section (the contents lists it when the scenario has a serving request)."""
ANCHOR = "serving"


@dataclass(frozen=True)
class Serving:
    """The scenario's serving request on each design, or why a design cannot serve it."""

    request: ServingRequest
    estimates: tuple[tuple[Plan, ServingEstimate], ...]
    problems: tuple[tuple[str, str], ...]
    """(design id, the engine's message) of each design without an estimate."""


def serving_of(*, plans: Sequence[Plan], catalog: Catalog, request: ServingRequest | None) -> Serving | None:
    """``request`` on each plan; ``None`` without a request (the rows and the section are left out).

    Parameters
    ----------
    plans : Sequence[Plan]
        The designs' plans.
    catalog : Catalog
        Catalog the plans were computed with.
    request : ServingRequest or None
        The scenario's serving request.

    Returns
    -------
    Serving or None
        Estimates of the designs that can serve, the reason for the others.
    """
    if request is None:
        return None
    found, problems = [], []
    for p in plans:
        try:
            found.append((p, estimate_serving(request=request, plan=p, catalog=catalog)))
        except PlannerError as exc:
            # the engine's Message itself, so the document renders it in its own language
            problems.append((p.design_id, error_text(exc)))
    return Serving(request, tuple(found), tuple(problems))


def model_line(request: ServingRequest) -> Message:
    """``671B model (37B active), FP8 weights, 2048 input → 512 output tokens``: what the rows are about.

    Parameters
    ----------
    request : ServingRequest
        The serving request (parameters [billions], precision, tokens [count]).

    Returns
    -------
    Message
        The line, translatable.
    """
    common = {
        "params": f"{request.params_b:g}",
        "precision": request.precision.upper(),
        "input": request.input_tokens,
        "output": request.output_tokens,
    }
    if request.active_params_b is None:
        return msg("{params}B model, {precision} weights, {input} input → {output} output tokens", **common)
    return msg(
        "{params}B model ({active}B active), {precision} weights, {input} input → {output} output tokens",
        active=f"{request.active_params_b:g}",
        **common,
    )


def _layout(e: ServingEstimate) -> str:
    return " + ".join(f"{p.instances}×(TP{p.layout.tp}·EP{p.layout.ep})" for p in e.pools)


ROWS: tuple[tuple[str, Message, Callable[[ServingEstimate, tables.Money], float | str]], ...] = (
    ("layout", msg("Layout (instances × TP·EP)"), lambda e, m: _layout(e)),
    ("batch", msg("Batch per instance [sequences]"), lambda e, m: e.batch),
    ("tokens_per_s_per_gpu", msg("Output tokens/s per GPU"), lambda e, m: round(e.tokens_per_s_per_gpu, 1)),
    ("ttft_ms", msg("Time to first token [ms]"), lambda e, m: round(e.ttft_s * 1e3, 1)),
    ("tpot_ms", msg("Time per output token [ms]"), lambda e, m: round(e.tpot_s * 1e3, 2)),
    ("money_per_million_tokens", msg("Cost per million tokens [{currency}]"),
     lambda e, m: round(m(e.usd_per_million_tokens), 3)),
    ("ep_alltoall_ms_per_step", msg("Expert all-to-all per decode step [ms]"),
     lambda e, m: round(e.ep_alltoall_s_per_step * 1e3, 3)),
)  # fmt: skip
"""The rows: key, label (``{currency}`` = the report currency) and value of an estimate."""


def _label(label: Message, currency: str, lang: str) -> str:
    return translate(msg(label.template, currency=tr(f"currency.{currency}", lang)), lang)


def _labels(serving: Serving, lang: str) -> dict[str, str]:
    """The label of each row of :data:`ROWS` by key, money in the first design's report currency
    (the designs compared share the scenario's currency)."""
    currency = tables.money_of(serving.estimates[0][0]).currency
    return {key: _label(label, currency, lang) for key, label, _ in ROWS}


def _values(serving: Serving) -> list[tuple[str, dict[str, float | str]]]:
    """Each design that can serve, by id, with its value of each row of :data:`ROWS` by key (money
    in its plan's report currency)."""
    return [
        (p.design_id, {key: value(e, tables.money_of(p)) for key, _, value in ROWS})
        for p, e in serving.estimates
    ]


def serving_frame(serving: Serving, names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """One row per figure (formatted text), one column per design that can serve the request.

    Parameters
    ----------
    serving : Serving
        Serving estimates per design.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Index the figure labels with units; empty when no design can serve.

    >>> serving_frame(Serving(ServingRequest(params_b=7), (), ()), {}, "en").empty
    True
    """
    if not serving.estimates:
        return pd.DataFrame()
    return pd.DataFrame(
        {names.get(d, d): [_cell(v) for v in values.values()] for d, values in _values(serving)},
        index=list(_labels(serving, lang).values()),
    )


def problem_lines(serving: Serving, names: Mapping[str, str], lang: str) -> list[str]:
    """``design: why`` for each design that cannot serve the request, in the language.

    Parameters
    ----------
    serving : Serving
        Serving estimates and problems per design.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of the reasons (``en`` or ``zh``).

    Returns
    -------
    list[str]
        One line per design that cannot serve.
    """
    return [f"{names.get(d, d)}: {translate(m, lang)}" for d, m in serving.problems]


def write_section(doc: HtmlDocument, serving: Serving | None, names: Mapping[str, str], lang: str) -> None:
    """The section, when the scenario has a serving request (``serving`` from :func:`serving_of`).

    Parameters
    ----------
    doc : HtmlDocument
        The proposal document being written (appended to).
    serving : Serving or None
        Serving estimates; ``None`` writes nothing.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of the text (``en`` or ``zh``).
    """
    if serving is None:
        return
    doc.section(tr(SECTION_KEY, lang), ANCHOR)
    doc.paragraph(
        translate(
            msg(
                "The scenario's serving request on each compared design with the same GPU: {model}. "
                "Layout and batch are the planner's choice within the KV cache and the latency targets; "
                "time to first token excludes queueing; the cost per million output tokens is the "
                "design's cost per GPU-hour over its tokens per GPU-hour.",
                model=model_line(serving.request),
            ),
            lang,
        )
    )
    frame = serving_frame(serving, names, lang)
    if not frame.empty:
        item = tr("col.item", lang)
        doc.table(
            Table.of(
                [item, *map(str, frame.columns)],
                [
                    [str(label), *(_cell(v) for v in row)]
                    for label, row in zip(frame.index, frame.values, strict=True)
                ],
                numeric=range(1, len(frame.columns) + 1),
                compact=True,
            )
        )
    for line in problem_lines(serving, names, lang):
        doc.callout(line, warning=True)


def _cell(value: float | str) -> str:
    """A figure as shown: thousands separated, at most three decimals, none from 100 up.

    >>> _cell(1234.5), _cell(12.3456), _cell(3), _cell("1×(TP8·EP8)")
    ('1,234', '12.346', '3', '1×(TP8·EP8)')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3f}".rstrip("0").rstrip(".") if abs(value) < 100 else f"{value:,.0f}"


def serving_sheets(serving: Serving | None, names: Mapping[str, str], lang: str) -> list[Sheet]:
    """The workbook's serving sheet (one row per design, numbers as numbers); none without a request.

    Parameters
    ----------
    serving : Serving or None
        Serving estimates per design.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    list[Sheet]
        One sheet, or none.
    """
    if serving is None or not serving.estimates:
        return []
    design = translate(msg("Design"), lang)
    columns = (
        Column("design", design),
        *(
            Column(key, label, "text" if key == "layout" else "number")
            for key, label in _labels(serving, lang).items()
        ),
    )
    rows = tuple({"design": names.get(d, d), **values} for d, values in _values(serving))
    return [Sheet(title=translate(msg("Serving"), lang), columns=columns, rows=rows)]
