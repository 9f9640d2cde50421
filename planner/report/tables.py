"""Display tables and derived figures for the pages (pure: pandas only, no Streamlit).

Everything a page shows that needs a little arithmetic (winners, normalised scores, deltas,
claim comparisons, rack contents) is computed here, so pages stay free of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from planner import Catalog, Plan
from planner.compare import Crossover
from planner.engine import price_of
from planner.i18n import tr, tr_enum, translate, translate_text
from planner.i18n.message import msg
from planner.outputs import bom_frame, plan_summary_row
from planner.report import display, fmt

Better = Literal["lower", "higher"] | None


@dataclass(frozen=True)
class Metric:
    """A headline figure: a column of ``planner.outputs.summary_frame`` and how to show it."""

    column: str
    unit: str
    """``"money"`` (in the report currency), ``"money_per_gbyte_per_s"``, ``"money_per_gpu_hour"``,
    ``""`` for counts, or a unit symbol (kW, Gb/s, GB/s, ns)."""
    better: Better = None
    digits: int = 0

    @property
    def is_money(self) -> bool:
        return self.unit.startswith("money")


COMPARE_METRICS: tuple[Metric, ...] = (
    Metric("gpus", ""),
    Metric("nodes", ""),
    Metric("racks", "", "lower"),
    Metric("tiers", "", "lower"),
    Metric("switches", "", "lower"),
    Metric("transceivers", "", "lower"),
    Metric("per_gpu_gbit_per_s", "Gb/s", "higher"),
    Metric("allreduce_busbw_gbyte_per_s", "GB/s", "higher", 1),
    Metric("alltoall_busbw_gbyte_per_s", "GB/s", "higher", 1),
    Metric("gpu_to_gpu_ns", "ns", "lower"),
    Metric("it_kw", "kW", "lower", 1),
    Metric("facility_kw", "kW", "lower", 1),
    Metric("kw_per_gpu", "kW", "lower", 3),
    Metric("capex_usd", "money", "lower"),
    Metric("usd_per_gpu", "money", "lower"),
    Metric("network_capex_usd", "money", "lower"),
    Metric("opex_usd_per_year", "money_per_year", "lower"),
    Metric("tco_usd", "money", "lower"),
    Metric("usd_per_gpu_hour", "money_per_gpu_hour", "lower", 2),
    Metric("usd_per_alltoall_gbyte_per_s", "money_per_gbyte_per_s", "lower"),
)
METRICS: dict[str, Metric] = {m.column: m for m in COMPARE_METRICS}

SCALING_METRICS: tuple[str, ...] = (
    "usd_per_gpu",
    "kw_per_gpu",
    "allreduce_busbw_gbyte_per_s",
    "alltoall_busbw_gbyte_per_s",
    "gpu_to_gpu_ns",
    "switches",
    "usd_per_alltoall_gbyte_per_s",
)
RADAR_METRICS: tuple[str, ...] = (
    "capex_usd",
    "tco_usd",
    "facility_kw",
    "allreduce_busbw_gbyte_per_s",
    "alltoall_busbw_gbyte_per_s",
    "gpu_to_gpu_ns",
    "switches",
    "usd_per_gpu_hour",
)


@dataclass(frozen=True)
class Money:
    """The report currency of a plan and its rate per USD."""

    currency: str
    per_usd: float

    def __call__(self, amount_usd: float) -> float:
        return amount_usd * self.per_usd


def money_of(plan: Plan) -> Money:
    """Report currency and conversion of a plan (the engine's ``Cost.in_currency``).

    Parameters
    ----------
    plan : Plan
        A computed plan (its cost in the scenario's report currency).

    Returns
    -------
    Money
        Currency code and its rate [currency/USD].
    """
    return Money(plan.cost.currency, plan.cost.in_currency(1.0))


def unit_label(metric: Metric, currency: str, lang: str) -> str:
    """The unit shown with a metric, e.g. ``"USD"``, ``"美元/GPU·小时"``, ``"kW"``.

    Parameters
    ----------
    metric : Metric
        The metric (its engine unit and whether it is money).
    currency : str
        Report currency code (``USD``, ``CNY``, ...).
    lang : str
        Language of the label (``en`` or ``zh``).

    Returns
    -------
    str
        Unit text; a money unit names the currency in ``lang``.
    """
    if metric.is_money:
        return tr(f"unit.{metric.unit}", lang, money=tr(f"currency.{currency}", lang))
    return metric.unit


def metric_label(column: str, currency: str, lang: str, units: display.DisplayUnits | None = None) -> str:
    """``"CAPEX [USD]"``, ``"交换机 [台]"``-style label of a summary column, bandwidth and
    power in the reader's ``units``.

    Parameters
    ----------
    column : str
        Summary column, a key of ``METRICS``.
    currency : str
        Report currency code.
    lang : str
        Language of the label (``en`` or ``zh``).
    units : DisplayUnits or None
        The reader's bandwidth and power units; ``None`` keeps the engine's.

    Returns
    -------
    str
        Metric name with its unit in brackets (name alone when unitless).
    """
    metric = METRICS[column]
    unit = unit_label(metric, currency, lang)
    if units is not None and not metric.is_money:
        unit = display.scale(unit, units)[1]
    name = tr_enum("metric", column, lang)
    return f"{name} [{unit}]" if unit else name


def metric_value(column: str, value: float, lang: str, units: display.DisplayUnits | None = None) -> str:
    """A value of a summary column formatted for a table (money already converted), bandwidth
    and power in the reader's ``units`` (BTU/h grouped like money: ``4.14 M``).

    Parameters
    ----------
    column : str
        Summary column, a key of ``METRICS``.
    value : float
        The value in the engine's unit (money in the report currency).
    lang : str
        Language of the number grouping (``en`` or ``zh``).
    units : DisplayUnits or None
        The reader's bandwidth, power and money units; ``None`` keeps the engine's.

    Returns
    -------
    str
        The formatted value, without unit.

    >>> metric_value("it_kw", 1213.5, "en"), metric_value("it_kw", 1213.5, "zh", display.DisplayUnits(power="BTU/h"))
    ('1,213.5', '414万')
    >>> metric_value("allreduce_busbw_gbyte_per_s", 204.4, "en", display.DisplayUnits(bandwidth="Gb/s"))
    '1,635.2'
    >>> metric_value("capex_usd", 47_151_667, "zh"), metric_value("capex_usd", 47_151_667, "zh", display.DisplayUnits(money="million"))
    ('4,715万', '47.2 M')
    """
    metric = METRICS[column]
    shown = units or display.DisplayUnits()
    if metric.is_money and metric.digits == 0:
        grouping = display.money_grouping_lang(lang, shown)
        return fmt.grouped(value, grouping)
    factor, unit = display.scale(metric.unit, shown)
    if unit == "BTU/h":
        return fmt.grouped(value * factor, lang)
    return fmt.number(value * factor, metric.digits)


def design_names(catalog: Catalog, lang: str, plans: Sequence[Plan] = ()) -> dict[str, str]:
    """Display name of every design id, in the language; a custom design (an optimizer's result,
    ``rail8-npo-custom``) is named after its preset in the language too (the engine's name,
    "8-rail RoCE with NPO optics (custom)", in English), any other unknown id by the engine's name.

    Parameters
    ----------
    catalog : Catalog
        Catalog of designs (English and Chinese names).
    lang : str
        Language of the names (``en`` or ``zh``).
    plans : Sequence[Plan]
        Plans whose design ids (custom ones included) must have a name.

    Returns
    -------
    dict[str, str]
        Display name per design id.
    """
    names = {d.id: (d.name_zh if lang == "zh" else d.name) for d in catalog.designs.values()}
    for p in plans:
        base = p.design_id.removesuffix("-custom")
        if p.design_id != base and base in names:
            names.setdefault(p.design_id, translate(msg("{name} (custom)", name=names[base]), lang))
        names.setdefault(p.design_id, p.design_name)
    return names


def summary(plans: Sequence[Plan], money: Money) -> pd.DataFrame:
    """Headline figures, one row per plan, money columns converted to the report currency.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared.
    money : Money
        Report currency and rate [currency/USD].

    Returns
    -------
    pd.DataFrame
        One row per plan, columns of :func:`plan_summary_row` (money in the report currency).
    """
    frame = pd.DataFrame([plan_summary_row(p) for p in plans])
    return convert_money(frame, money)


def convert_money(frame: pd.DataFrame, money: Money) -> pd.DataFrame:
    """A copy of a summary or sweep frame with USD columns in the report currency.

    Parameters
    ----------
    frame : pd.DataFrame
        Summary or sweep frame with money columns [USD].
    money : Money
        Report currency and rate [currency/USD].

    Returns
    -------
    pd.DataFrame
        A copy, money columns multiplied by the rate [report currency].
    """
    out = frame.copy()
    for metric in COMPARE_METRICS:
        if metric.is_money and metric.column in out:
            out[metric.column] = out[metric.column] * money.per_usd
    return out


TIE_TOLERANCE = 0.01
"""Relative difference [-] within which two designs tie on a metric (1 %): model figures such
as 205.7 vs 205.4 GB/s or a 0.2 % cost gap are not differences a customer should act on."""


def winners(frame: pd.DataFrame, *, tolerance: float = TIE_TOLERANCE) -> dict[str, tuple[str, ...]]:
    """Per metric with a direction, the design(s) ahead of the rest by more than ``tolerance``.

    The leading group is every design within ``tolerance`` (relative, ``|v - best| <= tolerance
    x |best|``) of the best value; its members share the mark. When the group holds every
    design the metric is a tie and nobody is marked.

    Parameters
    ----------
    frame : pd.DataFrame
        Summary frame, one row per design (column ``design`` and the metric columns).
    tolerance : float
        Relative tie tolerance [fraction].

    Returns
    -------
    dict[str, tuple[str, ...]]
        Design ids of the leading group per metric column; tied metrics left out.
    """
    result: dict[str, tuple[str, ...]] = {}
    for metric in COMPARE_METRICS:
        if metric.better is None or len(frame) < 2:
            continue
        values = frame[metric.column].astype(float)
        best = values.min() if metric.better == "lower" else values.max()
        leading = [abs(v - best) <= tolerance * abs(best) + 1e-12 for v in values]
        if all(leading):
            continue
        result[metric.column] = tuple(frame.loc[leading, "design"])
    return result


def compare_table(
    plans: Sequence[Plan],
    names: Mapping[str, str],
    lang: str,
    *,
    units: display.DisplayUnits | None = None,
) -> pd.DataFrame:
    """Metrics as rows, designs as columns (formatted, with units); winners marked with ★.

    ``units``: the reader's bandwidth, power and money grouping (the engine's units without).

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared (the first sets the report currency).
    names : Mapping[str, str]
        Display name per design id (:func:`design_names`).
    lang : str
        Language of labels and numbers (``en`` or ``zh``).
    units : DisplayUnits or None
        The reader's bandwidth, power and money units; ``None`` keeps the engine's.

    Returns
    -------
    pd.DataFrame
        Formatted text cells: index the metric labels, one column per design name.
    """
    money = money_of(plans[0])
    frame = summary(plans, money)
    best = winners(frame)
    rows = []
    for metric in COMPARE_METRICS:
        label = metric_label(metric.column, money.currency, lang, units)
        row: dict[str, Any] = {tr("col.metric", lang): label}
        for _, item in frame.iterrows():
            star = " ★" if item["design"] in best.get(metric.column, ()) else ""
            row[names[item["design"]]] = metric_value(metric.column, item[metric.column], lang, units) + star
        rows.append(row)
    return pd.DataFrame(rows).set_index(tr("col.metric", lang))


def radar_scores(plans: Sequence[Plan]) -> pd.DataFrame:
    """Each radar metric scaled to (0, 1], 1 = the best design (lower-is-better inverted).

    score = best / value when lower is better, value / best when higher is better.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared.

    Returns
    -------
    pd.DataFrame
        Column ``design`` and one score column per radar metric [fraction, 0 to 1].
    """
    frame = pd.DataFrame([plan_summary_row(p) for p in plans])
    out = pd.DataFrame({"design": frame["design"]})
    for column in RADAR_METRICS:
        values = frame[column].astype(float)
        if METRICS[column].better == "lower":
            out[column] = values.min() / values.where(values > 0, float("nan"))
        else:
            out[column] = values / values.max() if values.max() > 0 else 0.0
    return out.fillna(0.0)


def infiniband_baseline(plans: Sequence[Plan], catalog: Catalog) -> Plan | None:
    """The plan whose design is an InfiniBand fabric: what the vendor claims compare against.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared.
    catalog : Catalog
        Catalog of designs (their fabric family).

    Returns
    -------
    Plan or None
        The first InfiniBand plan; ``None`` when there is none.
    """
    for p in plans:
        design = catalog.designs.get(p.scenario.design_id)
        fabric = p.scenario.fabric or (design.fabric if design else None)
        if fabric is not None and fabric.family == "infiniband":
            return p
    return None


def claims_table(
    plans: Sequence[Plan], catalog: Catalog, names: Mapping[str, str], lang: str
) -> pd.DataFrame:
    """Vendor claims of each design beside what this model computes for the same comparison.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared (each with its vendor claims).
    catalog : Catalog
        Catalog of designs (finds the InfiniBand baseline).
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per claim: design, claim text, claimed change [%], computed change, status.
    """
    baseline = infiniband_baseline(plans, catalog)
    rows = []
    for p in plans:
        for claim in p.claims:
            computed = _computed_for_claim(claim.metric, p, baseline, lang)
            rows.append(
                {
                    tr("col.design", lang): names[p.design_id],
                    tr("col.claim", lang): claim.text_zh if lang == "zh" else claim.text_en,
                    tr("col.claimed", lang): "—"
                    if claim.value_pct is None
                    else fmt.percent(claim.value_pct / 100, signed=True),
                    tr("col.computed", lang): computed,
                    tr("col.status", lang): tr_enum("claim_status", claim.status, lang),
                }
            )
    return pd.DataFrame(rows)


def _computed_for_claim(metric: str, plan: Plan, baseline: Plan | None, lang: str) -> str:
    """This model's figure for a claim: the change against the InfiniBand baseline."""
    if metric == "per_lane_bandwidth":
        return tr(
            "claim.computed.port_speed",
            lang,
            speed=fmt.number(plan.topology.port_speed_gbit_per_s),
            base=fmt.number(baseline.topology.port_speed_gbit_per_s) if baseline else "—",
        )
    getters: dict[str, Callable[[Plan], float]] = {
        "latency_vs_infiniband": lambda p: p.latency.gpu_to_gpu_ns,
        "power_vs_infiniband": lambda p: p.power.it_kw,
    }
    if metric not in getters:
        return tr("claim.computed.not_modelled", lang)
    if baseline is None or baseline is plan:
        return tr("claim.computed.no_baseline", lang)
    ours, theirs = getters[metric](plan), getters[metric](baseline)
    change = fmt.percent(ours / theirs - 1, signed=True)
    key = "claim.computed.latency" if metric == "latency_vs_infiniband" else "claim.computed.power"
    return tr(key, lang, change=change, ours=fmt.number(ours), theirs=fmt.number(theirs))


KPI_ROW_SIZES = (4, 4, 5)
"""Overview rows: size (GPUs, nodes, racks, switches), network, then power and money."""


@dataclass(frozen=True)
class Kpi:
    key: str
    value: str
    delta: str | None = None
    delta_color: Literal["normal", "inverse", "off"] = "off"
    help_key: str | None = None


def _delta(
    now: float, before: float | None, text: Callable[[float], str], better: Better
) -> tuple[str | None, Any]:
    if before is None or math.isclose(now, before, rel_tol=1e-9, abs_tol=1e-12):
        return None, "off"
    change = now - before
    shown = text(abs(change))
    if not any(ch in "123456789" for ch in shown):
        return None, "off"  # a change that rounds to nothing ("+$0.00", "+0.0 GB/s") is no change
    color = "normal" if better == "higher" else "inverse" if better == "lower" else "off"
    return ("+" if change > 0 else "-") + shown, color


def kpis(
    plan: Plan, lang: str, previous: Plan | None = None, *, units: display.DisplayUnits | None = None
) -> list[Kpi]:
    """The overview cards: value in the reader's ``units``, and the change since the previous scenario.

    Parameters
    ----------
    plan : Plan
        The plan shown.
    lang : str
        Language of the values (``en`` or ``zh``).
    previous : Plan or None
        The previous scenario's plan; ``None`` shows no change.
    units : DisplayUnits or None
        The reader's bandwidth, power and money units; ``None`` keeps the engine's.

    Returns
    -------
    list[Kpi]
        One card per figure: label key, value text, change text and its colour rule, help key.
    """
    shown = units or display.DisplayUnits()
    money = money_of(plan)
    cur = money.currency

    def m(v: float) -> str:
        return display.money(v, cur, lang, shown.money)

    def exact(v: float) -> str:
        return fmt.money(v, cur, lang, exact=True)

    def prev(getter: Callable[[Plan], float]) -> float | None:
        return getter(previous) if previous is not None else None

    specs: list[tuple[str, Callable[[Plan], float], Callable[[float], str], Better, str | None]] = [
        ("kpi.gpus", lambda p: p.gpus, lambda v: fmt.number(v), None, "help.gpus"),
        ("kpi.nodes", lambda p: p.nodes, lambda v: fmt.number(v), None, None),
        ("kpi.racks", lambda p: p.racks.total, lambda v: fmt.number(v), "lower", "help.racks"),
        (
            "kpi.switches",
            lambda p: p.topology.switches_total,
            lambda v: fmt.number(v),
            "lower",
            "help.switches",
        ),
        (
            "kpi.per_gpu_bw",
            lambda p: p.bandwidth.per_gpu_gbit_per_s,
            lambda v: display.link_rate(v, shown.bandwidth),
            "higher",
            "help.per_gpu_bw",
        ),
        (
            "kpi.allreduce",
            lambda p: p.bandwidth.allreduce_busbw_gbyte_per_s,
            lambda v: display.bandwidth(v, shown.bandwidth),
            "higher",
            "help.busbw",
        ),
        (
            "kpi.alltoall",
            lambda p: p.bandwidth.alltoall_busbw_gbyte_per_s,
            lambda v: display.bandwidth(v, shown.bandwidth),
            "higher",
            "help.alltoall",
        ),
        (
            "kpi.latency",
            lambda p: p.latency.gpu_to_gpu_ns,
            lambda v: f"{fmt.number(v)} ns",
            "lower",
            "help.latency",
        ),
        (
            "kpi.it_power",
            lambda p: p.power.it_kw,
            lambda v: display.power(v, shown.power, lang),
            "lower",
            "help.it_power",
        ),
        (
            "kpi.facility_power",
            lambda p: p.power.facility_kw,
            lambda v: display.power(v, shown.power, lang),
            "lower",
            "help.facility_power",
        ),
        ("kpi.capex", lambda p: money(p.cost.capex_usd), m, "lower", "help.capex"),
        ("kpi.tco", lambda p: money(p.cost.tco_usd), m, "lower", "help.tco"),
        ("kpi.gpu_hour", lambda p: money(p.cost.usd_per_gpu_hour), exact, "lower", "help.gpu_hour"),
    ]
    cards = []
    for key, getter, text, better, help_key in specs:
        now = getter(plan)
        delta, color = _delta(now, prev(getter), text, better)
        cards.append(Kpi(key=key, value=text(now), delta=delta, delta_color=color, help_key=help_key))
    return cards


def bom_table(plan: Plan, lang: str) -> pd.DataFrame:
    """The BOM with a translated category column and the report-currency total; descriptions
    and the engine's source notes ("assumption: ...") in ``lang``, cited sources as published.

    Parameters
    ----------
    plan : Plan
        The plan (its BOM lines [USD] and report currency).
    lang : str
        Language of categories, descriptions and notes (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        :func:`bom_frame` with ``category_label``, ``total_report`` [report currency] and
        ``editable`` (the unit price can be overridden).
    """
    frame = bom_frame(plan)
    money = money_of(plan)
    frame.insert(1, "category_label", [tr_enum("bom_category", c, lang) for c in frame["category"]])
    frame["description"] = [translate_text(line.description, lang) for line in plan.bom]
    frame["source"] = [translate_text(line.source, lang) for line in plan.bom]
    frame["total_report"] = frame["total_usd"] * money.per_usd
    frame["editable"] = [
        _price_editable(plan, i, c) for i, c in zip(frame["id"], frame["category"], strict=True)
    ]
    return frame


def _price_editable(plan: Plan, record_id: str, category: str) -> bool:
    # Services are percentages, and a cooling record prices two lines (per kW and per CDU)
    # under one id, so a single override cannot express either edit.
    return category not in ("services", "cooling") and record_id in price_of(plan)


def price_changes(before: pd.DataFrame, after: pd.DataFrame) -> dict[str, float]:
    """Unit prices [USD] edited in the BOM editor, by catalog id (non-editable rows ignored).

    Parameters
    ----------
    before, after : pd.DataFrame
        The BOM table (:func:`bom_table`) before and after editing, rows in the same order.

    Returns
    -------
    dict[str, float]
        New unit price per catalog id [USD], at least 0.
    """
    changes: dict[str, float] = {}
    for (_, old), (_, new) in zip(before.iterrows(), after.iterrows(), strict=True):
        price = new["unit_cost_usd"]
        if not old["editable"] or price is None or pd.isna(price):
            continue
        if not math.isclose(float(price), float(old["unit_cost_usd"]), rel_tol=1e-12, abs_tol=1e-9):
            changes[str(old["id"])] = max(0.0, float(price))
    return changes


def tier_table(plan: Plan, lang: str) -> pd.DataFrame:
    """Switches, ports and links per tier, and the medium of each link class.

    Parameters
    ----------
    plan : Plan
        The plan (its topology's tiers).
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per tier: switches per plane and in all, ports used and free [count], as text.
    """
    topo = plan.topology
    rows = []
    for tier in topo.tier_counts:
        rows.append(
            {
                tr("col.tier", lang): tr_enum("tier", tier.tier, lang),
                tr("col.per_plane", lang): fmt.number(tier.switches_per_plane),
                tr("col.switches", lang): fmt.number(tier.switches),
                tr("col.ports_used", lang): fmt.number(tier.ports_used),
                tr("col.ports_free", lang): fmt.number(tier.ports_free),
            }
        )
    return pd.DataFrame(rows)


def media_table(plan: Plan, catalog: Catalog, lang: str) -> pd.DataFrame:
    """One row per link class: links, length, medium, cable and optics (record names in the
    language: a descriptive name is translated, a product name kept, see
    ``tools/extract_translations.py``).

    Parameters
    ----------
    plan : Plan
        The plan (its media per link class).
    catalog : Catalog
        Catalog of cables and optics (their names).
    lang : str
        Language of the labels and names (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per link class: links [count], length [m], medium, cable, optics at each end with
        units [count], as text.
    """

    def optic_name(optic_id: str | None) -> str:
        if not optic_id or optic_id not in catalog.optics:
            return "—"
        return translate_text(catalog.optics[optic_id].name, lang)

    rows = []
    for m in plan.media:
        rows.append(
            {
                tr("col.link_class", lang): tr_enum("link_class", m.link_class, lang),
                tr("col.links", lang): fmt.number(m.links),
                tr("col.length_m", lang): f"{m.length_m:g}",
                tr("col.medium", lang): tr_enum("medium", m.medium, lang),
                tr("col.cable", lang): translate_text(catalog.cables[m.cable_id].name, lang)
                if m.cable_id in catalog.cables
                else m.cable_id,
                tr("col.optics_lower", lang): f"{optic_name(m.lower.optic_id)} × {fmt.number(m.lower.units)}",
                tr("col.optics_upper", lang): f"{optic_name(m.upper.optic_id)} × {fmt.number(m.upper.units)}",
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class RackGroup:
    kind: str
    count: int
    kw: float
    nodes: int
    """Servers in each rack of the group (0 for network racks)."""


def rack_groups(plan: Plan) -> tuple[RackGroup, ...]:
    """The engine's rack layout with the servers in each rack made explicit.

    Parameters
    ----------
    plan : Plan
        The plan (its rack layout and server count).

    Returns
    -------
    tuple[RackGroup, ...]
        Per layout group: kind, racks [count], power per rack [kW], servers per rack [count].
    """
    groups = []
    per_rack = plan.racks.nodes_per_rack
    placed = 0
    for kind, count, kw in plan.racks.layout:
        if kind == "compute":
            nodes = per_rack if placed + per_rack * count <= plan.nodes else plan.nodes - placed
            placed += nodes * count
        else:
            nodes = 0
        groups.append(RackGroup(kind=kind, count=count, kw=kw, nodes=nodes))
    return tuple(groups)


def rack_table(plan: Plan, lang: str) -> pd.DataFrame:
    """What is in each kind of rack, its power and the limit.

    Parameters
    ----------
    plan : Plan
        The plan (racks, topology, auxiliary devices).
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per rack group: kind, racks [count], contents, power per rack and limit [kW],
        within-limit mark, as text.
    """
    aux = plan.auxiliary
    per_node = plan.topology.gpus_per_node
    infra = tr(
        "rack.network_contents",
        lang,
        switches=fmt.number(plan.topology.switches_total),
        storage=fmt.number(aux.storage_units),
        storage_switches=fmt.number(aux.storage_fabric.switches),
        mgmt=fmt.number(aux.inband_fabric.switches + aux.oob_fabric.switches),
    )
    rows = []
    for g in rack_groups(plan):
        contents = (
            tr("rack.compute_contents", lang, nodes=g.nodes, gpus=fmt.number(g.nodes * per_node))
            if g.kind == "compute"
            else infra
        )
        rows.append(
            {
                tr("col.rack_kind", lang): tr_enum("rack_kind", g.kind, lang),
                tr("col.count", lang): fmt.number(g.count),
                tr("col.contents", lang): contents,
                tr("col.kw_per_rack", lang): fmt.number(g.kw, 1),
                tr("col.limit_kw", lang): f"{plan.racks.rack_power_limit_kw:g}",
                tr("col.within_limit", lang): "✓" if g.kw <= plan.racks.rack_power_limit_kw + 1e-9 else "✗",
            }
        )
    return pd.DataFrame(rows)


def crossover_table(
    found: Sequence[Crossover], names: Mapping[str, str], currency: str, lang: str
) -> pd.DataFrame:
    """Crossovers in words: from which GPU count which design becomes the better one.

    Parameters
    ----------
    found : Sequence[Crossover]
        Crossovers of a sweep.
    names : Mapping[str, str]
        Display name per design id (unknown ids shown as they are).
    currency : str
        Report currency code (for the metric's unit).
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per crossover: metric, the two designs, GPU counts before and after [count], the
        better design after.
    """
    rows = [
        {
            tr("col.metric", lang): metric_label(c.metric, currency, lang),
            tr(
                "col.between", lang
            ): f"{names.get(c.design_a, c.design_a)} / {names.get(c.design_b, c.design_b)}",
            tr("col.gpus_range", lang): f"{fmt.number(c.gpus_before)} → {fmt.number(c.gpus_after)}",
            tr("col.better_after", lang): names.get(c.better_after, c.better_after),
        }
        for c in found
    ]
    return pd.DataFrame(rows)


def assumptions_table(plan: Plan, lang: str) -> pd.DataFrame:
    """The plan's cited sources and assumptions, one row each: kind, topic, text, source.

    Parameters
    ----------
    plan : Plan
        The plan (its assumptions list).
    lang : str
        Language of kinds, texts and sources (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per assumption; the source is ``—`` for an assumed figure.
    """
    return pd.DataFrame(
        [
            {
                tr("col.kind", lang): tr_enum("assumption_kind", a.kind, lang),
                tr("col.topic", lang): a.topic,
                tr("col.text", lang): translate_text(a.text, lang),
                tr("col.source", lang): "—" if a.kind == "assumption" else translate_text(a.source, lang),
            }
            for a in plan.assumptions
        ]
    )


def assumption_counts(plan: Plan) -> dict[str, int]:
    """How many figures are cited and how many are assumed.

    Parameters
    ----------
    plan : Plan
        The plan (its assumptions list).

    Returns
    -------
    dict[str, int]
        Figures per kind, ``source`` and ``assumption`` [count].
    """
    counts = {"source": 0, "assumption": 0}
    for a in plan.assumptions:
        counts[a.kind] = counts.get(a.kind, 0) + 1
    return counts


def scenario_rows(plan: Plan, catalog: Catalog, lang: str) -> pd.DataFrame:
    """The scenario behind a plan, item by item, as the engine resolved it (catalog defaults filled).

    Parameters
    ----------
    plan, catalog
        The plan (its resolved scenario) and its catalog (energy prices, cooling, servers, designs).
    lang : str
        Language of the labels and values (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        One row per scenario item: label and value text (units in the value).
    """
    facility = plan.scenario.facility
    price = facility.electricity_usd_per_kwh
    price_origin = "scenario.set"
    if price is None:
        record = catalog.energy_prices.get(facility.energy_price_id)
        price, price_origin = (record.usd_per_kwh if record else float("nan")), "scenario.catalog"
    cooling = tr(f"cooling.{facility.cooling_id}", lang) if facility.cooling_id in catalog.cooling else "—"
    server = catalog.servers.get(plan.server_id)
    names = design_names(catalog, lang, (plan,))
    items = [
        ("scenario.design", names.get(plan.design_id, plan.design_name)),
        ("scenario.gpu", plan.gpu_name),
        (
            "scenario.server",
            tr(
                "scenario.server_value",
                lang,
                name=translate_text(server.name, lang) if server else plan.server_id,
                nodes=fmt.number(plan.nodes),
                per_node=plan.topology.gpus_per_node,
            ),
        ),
        (
            "scenario.cooling",
            tr("scenario.cooling_value", lang, cooling=cooling, pue=f"{plan.power.pue:.2f}"),
        ),
        ("scenario.rack_limit", f"{facility.rack_power_limit_kw:g} kW"),
        (
            "scenario.electricity",
            translate(
                msg("{price} USD/kWh ({origin})", price=f"{price:.3f}", origin=tr(price_origin, lang)), lang
            ),
        ),
        (
            "scenario.finance",
            tr(
                "scenario.finance_value",
                lang,
                years=plan.cost.years,
                rate=fmt.percent(plan.cost.discount_rate, 1),
            ),
        ),
        (
            "scenario.usage",
            tr(
                "scenario.usage_value",
                lang,
                load=fmt.percent(facility.load_factor),
                util=fmt.percent(facility.utilization),
            ),
        ),
        (
            "scenario.currency",
            tr(
                "scenario.currency_value",
                lang,
                currency=tr(f"currency.{plan.cost.currency}", lang),
                rate=f"{plan.cost.usd_to_cny:.4g}",
            ),
        ),
    ]
    return pd.DataFrame(
        [(tr(k, lang), v) for k, v in items], columns=[tr("col.item", lang), tr("col.value", lang)]
    )


POOL_BOUND_KEYS = {
    "write": "pools.bound.write",
    "read": "pools.bound.read",
    "capacity": "pools.bound.capacity",
    "minimum": "pools.bound.minimum",
}
"""The storage target that sets the unit count -> its label key."""


def pools_table(plans: Sequence[Plan], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """The three pools of each design, side by side: compute, storage (units, the target that
    sets their number, bandwidth and capacity provided) and the front-end (north-south) network.

    Rows are pools, columns are designs; the figures come from :mod:`planner.fabric.pools`.

    Parameters
    ----------
    plans : Sequence[Plan]
        Plans of the designs compared.
    names : Mapping[str, str]
        Display name per design id.
    lang : str
        Language of the labels (``en`` or ``zh``).

    Returns
    -------
    pd.DataFrame
        Text cells: GPUs and servers [count], storage units [count] and their bound, write/read
        bandwidth [GB/s], capacity [TB], front-end kind, rate [Gb/s per node] and switches [count].
    """
    rows: dict[str, dict[str, str]] = {}
    for p in plans:
        pool, fe = p.auxiliary.storage_pool, p.auxiliary.frontend
        column = names[p.design_id]
        frontend_kind = tr("pools.frontend.dedicated" if fe.dedicated else "pools.frontend.inband", lang)
        switches = fe.fabric.switches if fe.dedicated else p.auxiliary.inband_fabric.switches
        values = {
            "pools.row.compute": tr("pools.value.compute", lang, gpus=fmt.number(p.gpus), nodes=fmt.number(p.nodes)),
            "pools.row.storage_units": tr(
                "pools.value.storage_units", lang, units=fmt.number(pool.units), bound=tr(POOL_BOUND_KEYS[pool.bound], lang)
            ),
            "pools.row.storage_bandwidth": f"{fmt.number(pool.write_gbyte_per_s)} / {fmt.number(pool.read_gbyte_per_s)}",
            "pools.row.storage_capacity": fmt.number(pool.capacity_tbyte),
            "pools.row.frontend": tr(
                "pools.value.frontend", lang, kind=frontend_kind, gbit=fmt.number(fe.gbit_per_s_per_node),
                switches=fmt.number(switches),
            ),
        }  # fmt: skip
        for key, value in values.items():
            rows.setdefault(tr(key, lang), {})[column] = value
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = tr("pools.col.pool", lang)
    return frame
