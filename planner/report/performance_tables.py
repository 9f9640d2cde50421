"""Display tables of the Optimize, Workload, Reliability and Scenarios pages (pure: no Streamlit).

Engine results in, formatted ``pandas.DataFrame`` out, in the language passed; money arrives in
USD and leaves in the report currency of :class:`planner.report.tables.Money`. The pages stay free of
arithmetic; the PDF export may reuse these like :mod:`planner.report.tables`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pandas as pd

from planner import Catalog, Plan
from planner.i18n import tr, translate_text
from planner.optimize.pareto import ParetoPoint
from planner.performance.reliability import Reliability
from planner.performance.uncertainty import MonteCarloResult
from planner.performance.workload import WorkloadEstimate
from planner.report import fmt
from planner.report.tables import Better, Money, design_names, metric_label, metric_value
from planner.resolve import resolve
from planner.store import ScenarioDiff, ScenarioSummary, VersionInfo

STAR = " ★"

# --- text from users --------------------------------------------------------------------------

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&\"'%])")


def escape_markdown(text: str) -> str:
    r"""User text made inert for ``st.markdown``-like elements: every markup character escaped.

    Streamlit never renders raw HTML here, but names could still carry Markdown, links, colour
    directives (``:red[...]``) or LaTeX (``$...$``); a backslash before each such character
    shows it as typed. Line breaks become spaces.

    Parameters
    ----------
    text : str
        User text.

    Returns
    -------
    str
        One line of escaped text.

    >>> print(escape_markdown("**Acme** <b>x</b> :red[y] $z$"))
    \*\*Acme\*\* \<b\>x\</b\> \:red\[y\] \$z\$
    """
    flat = " ".join(text.split())
    return _MARKDOWN_SPECIAL.sub(r"\\\1", flat)


def escape_lines(text: str) -> str:
    """Multi-line user text for Markdown: each line escaped, line breaks kept.

    Parameters
    ----------
    text : str
        User text, several lines.

    Returns
    -------
    str
        Escaped lines joined by Markdown line breaks.

    >>> escape_lines("a*b\\nc")
    'a\\\\*b  \\nc'
    """
    return "  \n".join(escape_markdown(line) for line in text.splitlines())


def short_time(stamp: datetime | None) -> str:
    """A store timestamp as ``2025-11-29 18:00 UTC`` ("—" when missing).

    Parameters
    ----------
    stamp : datetime or None
        A UTC timestamp.

    Returns
    -------
    str
        Date and time to the minute, or ``—``.

    >>> from datetime import UTC
    >>> short_time(datetime(2025, 11, 29, 18, 0, 12, tzinfo=UTC))
    '2025-11-29 18:00 UTC'
    """
    if stamp is None:
        return "—"
    return stamp.strftime("%Y-%m-%d %H:%M UTC")


# --- several plans under labels of our choosing -------------------------------------------------


def relabeled(plan: Plan, design_id: str) -> Plan:
    """The same plan under another design id, so two plans of one design can stand side by side
    in :func:`planner.report.tables.compare_table` (which keys columns and winners by design id).

    Parameters
    ----------
    plan : Plan
        The plan.
    design_id : str
        The new design id.

    Returns
    -------
    Plan
        A copy with ``design_id`` replaced.
    """
    return dataclasses.replace(plan, design_id=design_id)


def design_labels(plans: Sequence[Plan], catalog: Catalog, lang: str) -> list[str]:
    """Column labels of designs in the language; a custom fabric is named after its preset.

    Unique even when two plans share a design (a second one gets ``#2``).

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans shown side by side.
    catalog : Catalog
        Catalog of designs (their names).
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    list[str]
        One unique label per plan.
    """
    names = design_names(catalog, lang, plans)
    labels: list[str] = []
    for p in plans:
        base = p.design_id.removesuffix("-custom")
        label = (
            tr("label.custom_fabric", lang, name=names.get(base, p.design_name))
            if p.design_id != base
            else names.get(p.design_id, p.design_name)
        )
        while label in labels:
            label = f"{label} #{labels.count(label) + 2}"
        labels.append(label)
    return labels


# --- optimizer ----------------------------------------------------------------------------------

STATUS_KEYS = {
    "optimal": "opt.status.optimal",
    "feasible": "opt.status.feasible",
    "infeasible": "opt.status.infeasible",
    "not solved": "opt.status.not_solved",
}
PARETO_KEYS = {"bandwidth": "opt.pareto.bandwidth", "power": "opt.pareto.power"}


def status_text(status: str, lang: str) -> str:
    """An optimizer status (``optimal``, ``feasible``, ``infeasible``, ``not solved``) in the reader's
    language; an unknown status as given.

    Parameters
    ----------
    status : str
        Solver status.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The status text.
    """
    return keyed_text(STATUS_KEYS, status, lang)


def keyed_text(keys: Mapping[str, str], value: str, lang: str) -> str:
    """``value``'s label from a table of UI keys, in the reader's language; a value the table does
    not know as given.

    Parameters
    ----------
    keys : Mapping[str, str]
        UI key per value (``STATUS_KEYS``, ``LEVEL_KEYS``, ``ELEMENT_KEYS`` ...).
    value : str
        The value shown.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The label, or ``value``.
    """
    return tr(keys[value], lang) if value in keys else value


def gap_text(gap: float | None) -> str:
    """Relative MIP gap as a percentage; "—" when the solver reported none.

    Parameters
    ----------
    gap : float or None
        Relative MIP gap [fraction].

    Returns
    -------
    str
        Percentage [%], or ``—``.

    >>> gap_text(0.0), gap_text(0.0123), gap_text(None)
    ('0 %', '1.23 %', '—')
    """
    if gap is None or not math.isfinite(gap):
        return "—"
    return fmt.percent(gap, 0 if gap == 0 else 2)


def _media_text(plan: Plan, link_class: str, catalog: Catalog, lang: str) -> str:
    for media in plan.media:
        if media.link_class != link_class:
            continue
        kind = tr(f"medium.{media.medium}", lang) if media.medium else "—"
        optic = media.upper.optic_id or media.lower.optic_id
        record = catalog.optics.get(optic) if optic else catalog.cables.get(media.cable_id)
        return f"{kind} · {translate_text(record.name, lang)}" if record is not None else kind
    return "—"


def choices_table(plans: Sequence[Plan], labels: Sequence[str], catalog: Catalog, lang: str) -> pd.DataFrame:
    """What each design is built from: switch per tier, medium per link class, cooling, racks.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans shown side by side.
    labels : Sequence[str]
        Column label per plan.
    catalog : Catalog
        Catalog of switches, media and cooling (their names).
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Rows are choices, one text column per plan.
    """
    columns: dict[str, list[str]] = {}
    rows: list[str] = []
    for plan, label in zip(plans, labels, strict=True):
        r = resolve(scenario=plan.scenario, catalog=catalog)
        tiers = plan.topology.tiers
        switches = (
            ("tier.leaf", r.switch.name),
            ("tier.spine", r.spine_switch.name),
            ("tier.core", r.core_switch.name),
        )
        cooling = plan.scenario.facility.cooling_id
        items: list[tuple[str, str]] = [(tr("opt.choice.tiers", lang), fmt.number(tiers))]
        items += [
            (
                tr("opt.choice.switch", lang, tier=tr(key, lang)),
                translate_text(name, lang) if i < tiers else "—",
            )
            for i, (key, name) in enumerate(switches)
        ]
        items += [
            (
                tr("opt.choice.medium", lang, link=tr(f"link_class.{c}", lang)),
                _media_text(plan, c, catalog, lang) if i < tiers else "—",
            )
            for i, c in enumerate(("node_leaf", "leaf_spine", "spine_core"))
        ]
        items += [
            (
                tr("opt.choice.cooling", lang),
                tr(f"cooling.{cooling}", lang) if cooling in catalog.cooling else cooling,
            ),
            (tr("opt.choice.rack_limit", lang), f"{fmt.number(plan.racks.rack_power_limit_kw)} kW"),
            (
                tr("opt.choice.racks", lang),
                tr(
                    "opt.choice.racks_value",
                    lang,
                    compute=fmt.number(plan.racks.compute_racks),
                    network=fmt.number(plan.racks.network_racks),
                ),
            ),
            (tr("opt.choice.cdus", lang), fmt.number(plan.cooling.cdus)),
            (
                tr("opt.choice.nodes", lang),
                tr("opt.choice.nodes_value", lang, nodes=fmt.number(plan.nodes), gpus=fmt.number(plan.gpus)),
            ),
        ]
        rows = rows or [k for k, _ in items]
        columns[label] = [v for _, v in items]
    frame = pd.DataFrame(columns, index=rows)
    frame.index.name = tr("col.item", lang)
    return frame


def pareto_table(points: Sequence[ParetoPoint], money: Money, lang: str) -> pd.DataFrame:
    """The front's points, cheapest first, with what each design changes.

    Parameters
    ----------
    points : Sequence[ParetoPoint]
        Points of the Pareto front.
    money : Money
        Report currency and rate [currency/USD].
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per point: number, label, CAPEX [report currency], facility power [kW], bandwidth
        [Gb/s per GPU], GPUs and switches [count], changes.
    """
    rows = [
        {
            tr("opt.col.point", lang): i + 1,
            tr("opt.col.label", lang): p.label,
            metric_label("capex_usd", money.currency, lang): metric_value(
                "capex_usd", money(p.capex_usd), lang
            ),
            tr("opt.col.facility_kw", lang): fmt.number(p.facility_kw, 1),
            tr("opt.col.per_gpu", lang): fmt.number(p.per_gpu_gbit_per_s, 1),
            tr("opt.col.gpus", lang): fmt.number(p.plan.gpus),
            tr("opt.col.switches", lang): fmt.number(p.plan.topology.switches_total),
        }
        for i, p in enumerate(sorted(points, key=lambda x: x.capex_usd))
    ]
    return pd.DataFrame(rows)


def pareto_choice(points: Sequence[ParetoPoint], selected: Sequence[Mapping[str, Any]]) -> ParetoPoint | None:
    """The front point a Plotly selection names (its ``customdata`` is the point's index).

    Parameters
    ----------
    points : Sequence[ParetoPoint]
        Points of the Pareto front, in the order the chart drew them.
    selected : Sequence[Mapping[str, Any]]
        Plotly's selected points.

    Returns
    -------
    ParetoPoint or None
        The first valid point selected; ``None`` when none is.

    >>> pareto_choice([], [{"customdata": [0]}]) is None
    True
    """
    for item in selected:
        data = item.get("customdata")
        index = data[0] if isinstance(data, list | tuple) and data else data
        if isinstance(index, int | float) and 0 <= int(index) < len(points):
            return points[int(index)]
    return None


# --- workload -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One figure of a side-by-side table: how to read it from a result and how to show it."""

    key: str
    unit: str
    """Unit shown in brackets; ``"money"`` for the report currency; ``""`` for none."""
    get: Callable[[Any], float]
    better: Better = None
    style: str = "number"
    """``number`` (with ``digits``), ``compact``, ``percent``, ``money`` or ``money_exact``."""
    digits: int = 0


WORKLOAD_ROWS: tuple[Row, ...] = (
    Row("wl.row.step_time", "s", lambda e: e.step_time_s, "lower", digits=2),
    Row("wl.row.tokens_per_s", "tokens/s", lambda e: e.tokens_per_s, "higher", "compact"),
    Row("wl.row.mfu", "", lambda e: e.end_to_end_mfu, "higher", "percent", 1),
    Row("wl.row.goodput", "", lambda e: e.goodput, "higher", "percent", 2),
    Row("wl.row.time_to_train", "days", lambda e: e.time_to_train_days, "lower", digits=1),
    Row("wl.row.gpu_hours", "GPU-h", lambda e: e.gpu_hours, "lower", "compact"),
    Row("wl.row.energy", "MWh", lambda e: e.energy_mwh, "lower", digits=0),
    Row("wl.row.cost_to_train", "money", lambda e: e.cost_to_train_usd, "lower", "money"),
    Row(
        "wl.row.cost_per_gpu_hour", "money_per_gpu_hour", lambda e: e.usd_per_gpu_hour, "lower", "money_exact"
    ),
    Row("wl.row.memory", "GB", lambda e: e.layout.memory_gbyte_per_gpu, None, digits=1),
)
RELIABILITY_ROWS: tuple[Row, ...] = (
    Row("rel.row.interruptions", "1/day", lambda r: r.interruptions_per_day, "lower", digits=2),
    Row("rel.row.mtbi", "h", lambda r: r.mtbi_hours, "higher", digits=1),
    Row("rel.row.checkpoint_size", "GB", lambda r: r.checkpoint_gbyte, None, digits=0),
    Row("rel.row.write_bandwidth", "GB/s", lambda r: r.write_bandwidth_gbyte_per_s, None, digits=0),
    Row("rel.row.checkpoint_write", "s", lambda r: r.checkpoint_write_s, "lower", digits=1),
    Row("rel.row.interval", "min", lambda r: r.checkpoint_interval_min, None, digits=1),
    Row("rel.row.restart", "min", lambda r: r.restart_s / 60.0, "lower", digits=1),
    Row("rel.row.goodput", "", lambda r: r.goodput, "higher", "percent", 2),
    Row("rel.row.lost_checkpoint", "", lambda r: r.checkpoint_fraction, "lower", "percent", 2),
    Row("rel.row.lost_rework", "", lambda r: r.rework_fraction, "lower", "percent", 2),
    Row("rel.row.lost_restart", "", lambda r: r.restart_fraction, "lower", "percent", 2),
    Row("rel.row.degradations", "1/day", lambda r: r.degradations_per_day, None, digits=2),
)


WORD_UNITS = {
    "1/day": "unit.per_day",
    "h": "unit.hours",
    "min": "unit.minutes",
    "days": "wl.unit.days",
    "tokens/s": "unit.tokens_per_s",
    "GPU-h": "unit.gpu_hours",
}
"""Units spelled in words, which Chinese writes differently (symbols such as kW or GB/s stay)."""


def _unit_text(unit: str, currency: str, lang: str) -> str:
    if unit in WORD_UNITS:
        return tr(WORD_UNITS[unit], lang)
    if unit == "money":
        return tr(f"currency.{currency}", lang)
    if unit == "money_per_gpu_hour":
        return tr("unit.money_per_gpu_hour", lang, money=tr(f"currency.{currency}", lang))
    return unit


def _value_text(row: Row, value: float, money: Money, lang: str) -> str:
    if row.style == "money":
        return fmt.grouped(money(value), lang)
    if row.style == "money_exact":
        return fmt.number(money(value), 2)
    if row.style == "percent":
        return fmt.percent(value, row.digits)
    if row.style == "compact":
        return fmt.compact(value, lang)
    return fmt.number(value, row.digits)


def side_by_side(
    rows: Sequence[Row], results: Sequence[Any], labels: Sequence[str], money: Money, lang: str
) -> pd.DataFrame:
    """Figures as rows, one column per result; the best value of each row marked with ★.

    Parameters
    ----------
    rows : Sequence[Row]
        Figures to show (how to read each, its unit and which way is better).
    results : Sequence[Any]
        One result per column.
    labels : Sequence[str]
        Column label per result.
    money : Money
        Report currency and rate [currency/USD].
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells, index the figure labels with their units.
    """
    table = []
    for row in rows:
        unit = _unit_text(row.unit, money.currency, lang)
        name = tr(row.key, lang)
        line: dict[str, str] = {tr("col.metric", lang): f"{name} [{unit}]" if unit else name}
        values = [float(row.get(r)) for r in results]
        best: float | None = None
        if row.better is not None and len(values) > 1 and len({round(v, 12) for v in values}) > 1:
            best = min(values) if row.better == "lower" else max(values)
        for label, value in zip(labels, values, strict=True):
            star = STAR if best is not None and math.isclose(value, best, rel_tol=1e-9) else ""
            line[label] = _value_text(row, value, money, lang) + star
        table.append(line)
    return pd.DataFrame(table).set_index(tr("col.metric", lang))


def layout_text(estimate: WorkloadEstimate) -> str:
    """``TP×PP×DP`` (``×EP`` when experts are spread).

    Parameters
    ----------
    estimate : WorkloadEstimate
        Training estimate (its parallel layout, degrees [count]).

    Returns
    -------
    str
        The layout text.
    """
    layout = estimate.layout
    text = f"{layout.tp}×{layout.pp}×{layout.dp}"
    return f"{text}×{layout.ep}" if layout.ep > 1 else text


def workload_table(
    estimates: Sequence[WorkloadEstimate], labels: Sequence[str], money: Money, lang: str
) -> pd.DataFrame:
    """The training estimate per design side by side (layout first, then the figures).

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        Training estimate per design.
    labels : Sequence[str]
        Column label per estimate.
    money : Money
        Report currency and rate [currency/USD].
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells: layout, data-parallel bound, then :data:`WORKLOAD_ROWS`.
    """
    frame = side_by_side(WORKLOAD_ROWS, estimates, labels, money, lang)
    layout = pd.DataFrame(
        [
            [layout_text(e) for e in estimates],
            [keyed_text(LEVEL_KEYS, e.dp_bound_level, lang) for e in estimates],
        ],
        columns=list(labels),
        index=[tr("wl.row.layout", lang), tr("wl.row.dp_bound", lang)],
    )
    layout.index.name = frame.index.name
    return pd.concat([layout, frame])


LEVEL_KEYS = {
    "scale-up": "level.scale-up",
    "leaf": "wl.level.leaf",
    "spine": "wl.level.spine",
    "core": "wl.level.core",
    "none": "wl.level.none",
}


OUTPUT_KEYS = {
    "time_to_train_days": "wl.output.time_to_train",
    "cost_to_train_usd": "wl.output.cost_to_train",
    "tco_usd": "wl.output.tco",
}
TORNADO_INPUT_KEYS = {
    "gpu_price": "wl.input.gpu_price",
    "server_price": "wl.input.server_price",
    "switch_price": "wl.input.switch_price",
    "optics_price": "wl.input.optics_price",
    "electricity_price": "wl.input.electricity_price",
    "mfu": "wl.input.mfu",
    "network_bandwidth": "wl.input.network_bandwidth",
    "failure_rate": "wl.input.failure_rate",
}


def output_label(output: str, currency: str, lang: str) -> str:
    """``Time to train [days]`` or ``Cost to train [USD]``.

    Parameters
    ----------
    output : str
        Output column (``time_to_train_days`` or a money column).
    currency : str
        Report currency code.
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        Label with unit in brackets.
    """
    unit = tr("wl.unit.days", lang) if output.endswith("_days") else tr(f"currency.{currency}", lang)
    return f"{tr(OUTPUT_KEYS[output], lang)} [{unit}]"


def output_value(output: str, value: float, money: Money, lang: str) -> str:
    """A value of a tornado or Monte Carlo output [days, or money in the report currency].

    Parameters
    ----------
    output : str
        Output column (``..._days`` or a money column [USD]).
    value : float
        The value [days or USD].
    money : Money
        Report currency and rate [currency/USD].
    lang : str
        Language of the grouping (``en`` or ``zh``).

    Returns
    -------
    str
        Formatted value.
    """
    if output.endswith("_days"):
        return fmt.number(value, 1)
    return fmt.grouped(money(value), lang)


def monte_carlo_table(
    results: Sequence[MonteCarloResult], labels: Sequence[str], money: Money, lang: str
) -> pd.DataFrame:
    """One row per design; per output the base case and ``P10 · P50 · P90``.

    Parameters
    ----------
    results : Sequence[MonteCarloResult]
        Monte Carlo result per design.
    labels : Sequence[str]
        Display label per result.
    money : Money
        Report currency and rate [currency/USD].
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per design: design, then per output base and percentiles [days or report currency].
    """
    rows = []
    for result, label in zip(results, labels, strict=True):
        row = {tr("col.design", lang): label}
        for p in result.percentiles:
            name = output_label(p.output, money.currency, lang)
            row[f"{name} · {tr('wl.col.base', lang)}"] = output_value(p.output, p.base, money, lang)
            row[f"{name} · P10 / P50 / P90"] = " / ".join(
                output_value(p.output, v, money, lang) for v in (p.p10, p.p50, p.p90)
            )
        rows.append(row)
    return pd.DataFrame(rows)


# --- reliability --------------------------------------------------------------------------------

ELEMENT_KEYS = {
    "node-leaf link": "rel.element.node_leaf_link",
    "leaf switch": "rel.element.leaf_switch",
    "leaf-spine link": "rel.element.leaf_spine_link",
    "spine switch": "rel.element.spine_switch",
    "spine-core link": "rel.element.spine_core_link",
    "core switch": "rel.element.core_switch",
    "plane": "rel.element.plane",
}
CLASS_KEYS = {
    "gpu": "rel.class.gpu",
    "software": "rel.class.software",
    "host": "rel.class.host",
    "nic": "rel.class.nic",
    "link": "rel.class.link",
    "switch": "rel.class.switch",
}


def reliability_table(results: Sequence[Reliability], labels: Sequence[str], lang: str) -> pd.DataFrame:
    """The reliability figures per design side by side (:data:`RELIABILITY_ROWS`).

    Parameters
    ----------
    results : Sequence[Reliability]
        Reliability result per design.
    labels : Sequence[str]
        Column label per result.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells, best value of each row marked with ★.
    """
    return side_by_side(RELIABILITY_ROWS, results, labels, Money("USD", 1.0), lang)


def impacts_table(results: Sequence[Reliability], labels: Sequence[str], lang: str) -> pd.DataFrame:
    """Per failed element and design: GPUs affected, their bandwidth lost, and whether the job survives.

    Parameters
    ----------
    results : Sequence[Reliability]
        Reliability result per design (impact per failed element).
    labels : Sequence[str]
        Column label per result.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Rows are failed elements, one text column per design (``—`` when not applicable).
    """
    order = list(ELEMENT_KEYS)
    cells: dict[str, dict[str, str]] = {}
    for result, label in zip(results, labels, strict=True):
        for impact in result.failure_impacts:
            text = tr(
                "rel.impact_value",
                lang,
                gpus=fmt.number(impact.gpus_affected),
                lost=fmt.percent(impact.gpu_bandwidth_lost_fraction, 1),
                outcome=tr("rel.survivable" if impact.survivable else "rel.stops_job", lang),
            )
            cells.setdefault(impact.element, {})[label] = text
    elements = sorted(cells, key=lambda e: order.index(e) if e in order else len(order))
    frame = pd.DataFrame(
        [[cells[e].get(label, "—") for label in labels] for e in elements],
        columns=list(labels),
        index=[keyed_text(ELEMENT_KEYS, e, lang) for e in elements],
    )
    frame.index.name = tr("rel.col.element", lang)
    return frame


def class_rates_table(results: Sequence[Reliability], labels: Sequence[str], lang: str) -> pd.DataFrame:
    """Interruptions per day by failure class, with the units counted and the calibrated rate.

    Parameters
    ----------
    results : Sequence[Reliability]
        Reliability result per design.
    labels : Sequence[str]
        Column label per result.
    lang : str
        Language of labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per failure class, one text column per design [1/day].
    """
    rows = []
    for name, key in CLASS_KEYS.items():
        row: dict[str, str] = {tr("rel.col.class", lang): tr(key, lang)}
        for result, label in zip(results, labels, strict=True):
            rate = next((c for c in result.by_class if c.failure_class == name), None)
            row[label] = (
                "—"
                if rate is None
                else tr(
                    "rel.class_value",
                    lang,
                    per_day=fmt.number(rate.interruptions_per_day, 3),
                    units=fmt.number(rate.units),
                    rate=fmt.significant(rate.rate_per_million_hours),
                )
            )
        rows.append(row)
    return pd.DataFrame(rows)


# --- saved scenarios ----------------------------------------------------------------------------


def scenario_list(summaries: Sequence[ScenarioSummary], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """Saved scenarios as a list shows them (user text left as plain cell text).

    Parameters
    ----------
    summaries : Sequence[ScenarioSummary]
        Saved scenarios.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per scenario: id, name, customer, tags, version, GPUs [count], design, owner,
        team, last update (UTC), state.
    """
    rows = [
        {
            tr("sc.col.id", lang): s.id,
            tr("sc.col.name", lang): s.name,
            tr("sc.col.customer", lang): s.customer,
            tr("sc.col.tags", lang): ", ".join(s.tags),
            tr("sc.col.version", lang): s.version,
            tr("sc.col.gpus", lang): s.gpus,
            tr("col.design", lang): names.get(s.design_id, s.design_id),
            tr("sc.col.owner", lang): s.owner,
            tr("sc.col.team", lang): s.team,
            tr("sc.col.updated", lang): short_time(s.updated_at),
            tr("sc.col.state", lang): tr("sc.state.trash" if s.deleted else "sc.state.active", lang),
        }
        for s in summaries
    ]
    return pd.DataFrame(rows)


def versions_table(versions: Sequence[VersionInfo], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """The saved versions of a scenario, newest first: version, time saved, author, comment, GPUs,
    design.

    Parameters
    ----------
    versions : Sequence[VersionInfo]
        Versions, oldest first.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per version (GPUs [count], time UTC).
    """
    rows = [
        {
            tr("sc.col.version", lang): v.version,
            tr("sc.col.saved_at", lang): short_time(v.saved_at),
            tr("sc.col.author", lang): v.author,
            tr("sc.col.comment", lang): v.comment,
            tr("sc.col.gpus", lang): v.gpus,
            tr("col.design", lang): names.get(v.design_id, v.design_id),
        }
        for v in reversed(versions)
    ]
    return pd.DataFrame(rows)


def _input_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def input_changes_table(diff: ScenarioDiff, before: str, after: str, lang: str) -> pd.DataFrame:
    """The inputs that differ: field (dotted path), value before and after.

    Parameters
    ----------
    diff : ScenarioDiff
        Differences of two scenario versions.
    before, after : str
        Column headers of the two sides.
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per changed input.
    """
    rows = [
        {tr("col.field", lang): c.field, before: _input_text(c.before), after: _input_text(c.after)}
        for c in diff.inputs
    ]
    return pd.DataFrame(rows, columns=[tr("col.field", lang), before, after])


def result_changes_table(
    diff: ScenarioDiff, before: str, after: str, lang: str, *, moved_only: bool
) -> pd.DataFrame:
    """Key results on both sides (USD) and the relative change.

    Parameters
    ----------
    diff : ScenarioDiff
        Differences of two scenario versions.
    before, after : str
        Column headers of the two sides.
    lang : str
        Language of headers (``en`` or ``zh``).
    moved_only : bool
        Only results that changed.

    Returns
    -------
    pd.DataFrame
        One row per result: metric, both values [USD for money], relative change [%].
    """
    money = Money("USD", 1.0)
    changes = diff.moved_results if moved_only else diff.results
    change_col = tr("sc.col.change", lang)
    rows = []
    for c in changes:
        relative = c.relative_change
        rows.append(
            {
                tr("col.metric", lang): metric_label(c.metric, money.currency, lang),
                before: metric_value(c.metric, c.before, lang),
                after: metric_value(c.metric, c.after, lang),
                change_col: "—" if relative is None else fmt.percent(relative, 1, signed=True),
            }
        )
    return pd.DataFrame(rows, columns=[tr("col.metric", lang), before, after, change_col])
