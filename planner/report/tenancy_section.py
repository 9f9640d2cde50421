"""The proposal's tenancy section: the scenario's tenant set placed on the proposed design.

Shown only when the scenario has tenants (:attr:`planner.inputs.scenario.Scenario.tenants`). The
placement is :func:`planner.tenancy.run.place_on_plan` on the plan the document shows, so the
chargeback is at cost in the internal edition and at the offered price in the customer edition
(docs/model.md, "Multi-tenant supernode"). One table row per tenant (GPUs, isolation, servers,
leaves and planes, guaranteed vs best-effort bandwidth, storage, worst-case hops, blast radius,
chargeback per GPU-hour), then the cluster lines (free and stranded GPUs, stranded links,
fragmentation, CAPEX no tenant carries, unmet guarantees). Pure: no Streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from planner import Catalog, Plan, PlannerError
from planner.i18n import error_text, tr, translate
from planner.i18n.message import msg
from planner.inputs.scenario import Tenant
from planner.report import fmt, tables
from planner.report.export.html import HtmlDocument, Table
from planner.report.export.xlsx import Column, ColumnKind, Sheet, item_value_sheet
from planner.tenancy.place import Placement, TenantPlacement, Unmet
from planner.tenancy.run import place_on_plan
from planner.tenancy.tenants import TenantSet

SECTION_KEY = "export.sec.tenancy"
"""Title key of the section (the contents lists it when the scenario has tenants)."""
ANCHOR = "tenancy"

UNMET_UNITS = {
    "gpus": "GPU",
    "bandwidth_gbit_per_s_per_gpu": "Gb/s",
    "storage_gbyte_per_s": "GB/s",
    "isolation": "",
}
"""Unit of each shortfall (:class:`planner.tenancy.place.Unmet`; isolation counts planes)."""


@dataclass(frozen=True)
class Tenancy:
    """The tenant set on the shown plan, or why it could not be placed."""

    placement: Placement | None
    problem: str = ""
    """The engine's message when the tenants cannot be placed at all (e.g. more GPUs than the plan)."""


def tenancy_of(*, plan: Plan, catalog: Catalog, tenants: Sequence[Tenant]) -> Tenancy | None:
    """``tenants`` placed on ``plan``; ``None`` when there are none (the section is left out).

    Parameters
    ----------
    plan : Plan
        The plan shown.
    catalog : Catalog
        Catalog the plan was computed with.
    tenants : Sequence[Tenant]
        The scenario's tenants.

    Returns
    -------
    Tenancy or None
        The placement, or the engine's reason it failed.
    """
    if not tenants:
        return None
    try:
        placement = place_on_plan(plan=plan, catalog=catalog, tenants=TenantSet(tenants=tuple(tenants)))
    except PlannerError as exc:
        # the engine's Message itself, so the document renders it in its own language
        return Tenancy(None, error_text(exc))
    return Tenancy(placement)


def _leaves(switches: Sequence[str]) -> int:
    """Leaf switches among a tenant's switch ids (``leaf-p1-r3-01``: planner.handoff.naming)."""
    return sum(1 for s in switches if s.startswith("leaf-"))


def plane_span(planes: Sequence[str]) -> str:
    """Plane ids with consecutive runs joined: ``p1–p2, p5``.

    Parameters
    ----------
    planes : Sequence[str]
        Plane ids ``p<n>``.

    Returns
    -------
    str
        The runs, or ``–`` for none.

    >>> plane_span(("p3", "p4", "p5", "p8")), plane_span(()), plane_span(("p1",))
    ('p3–p5, p8', '–', 'p1')
    """
    numbers = sorted(int(p[1:]) for p in planes)
    if not numbers:
        return "–"
    runs: list[list[int]] = [[numbers[0], numbers[0]]]
    for n in numbers[1:]:
        if n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"p{a}" if a == b else f"p{a}–p{b}" for a, b in runs)


def _headers(currency: str, lang: str) -> list[str]:
    price_unit = tables.unit_label(tables.METRICS["usd_per_gpu_hour"], currency, lang)
    return [
        translate(msg("Tenant"), lang),
        translate(msg("GPUs given / asked"), lang),
        translate(msg("Isolation"), lang),
        translate(msg("Servers"), lang),
        translate(msg("Leaves"), lang),
        translate(msg("Planes"), lang),
        translate(msg("Guaranteed / best effort [Gb/s per GPU]"), lang),
        translate(msg("Storage [GB/s]"), lang),
        translate(msg("Worst hops"), lang),
        translate(msg("Blast radius: leaf / spine / plane [GPUs]"), lang),
        translate(msg("Chargeback [{unit}]", unit=price_unit), lang),
    ]


def tenant_rows(placement: Placement, plan: Plan, lang: str) -> list[list[str]]:
    """One formatted row per tenant, in the columns of :func:`_headers`.

    Parameters
    ----------
    placement : Placement
        The tenants placed on the plan.
    plan : Plan
        The plan (report currency).
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    list[list[str]]
        Text cells: GPUs [count], bandwidth [Gb/s per GPU], storage [GB/s], hops and blast radius
        [count], cost [report currency].
    """
    money = tables.money_of(plan)
    return [
        [
            t.name,
            f"{fmt.number(t.allocated_gpus)} / {fmt.number(t.gpus)}",
            tr(f"tn.isolation.{t.isolation}", lang),
            fmt.number(len(t.servers)),
            fmt.number(_leaves(t.switches)),
            plane_span(t.planes),
            f"{fmt.number(t.guaranteed_gbit_per_s_per_gpu)} / {fmt.number(t.best_effort_gbit_per_s_per_gpu)}",
            fmt.number(t.storage_gbyte_per_s, 1),
            fmt.number(t.worst_hops),
            " / ".join(fmt.number(t.blast_radius_gpus[k]) for k in ("leaf", "spine", "plane")),
            fmt.number(money(t.usd_per_gpu_hour), 2),
        ]
        for t in placement.tenants
    ]


def _unmet_line(unmet: Unmet, lang: str) -> str:
    unit = UNMET_UNITS.get(unmet.field, "")
    return tr(
        "tn.unmet",
        lang,
        name=unmet.name,
        field=tr(f"tn.field.{unmet.field}", lang),
        shortfall=f"{fmt.number(unmet.shortfall, 1)} {unit}".strip(),
    )


def cluster_lines(placement: Placement, plan: Plan, lang: str) -> list[tuple[str, str]]:
    """(item, value) lines for the whole cluster: capacity, what is stranded, unmet guarantees.

    Parameters
    ----------
    placement : Placement
        The tenants placed on the plan.
    plan : Plan
        The plan (report currency).
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    list[tuple[str, str]]
        Item label and value text.
    """
    money = tables.money_of(plan)
    given = sum(t.allocated_gpus for t in placement.tenants)
    lines = [
        (
            translate(msg("GPUs in the cluster / given to tenants / free"), lang),
            " / ".join(fmt.number(n) for n in (placement.cluster_gpus, given, placement.free_gpus)),
        ),
        (tr("tn.kpi.stranded_gpus", lang), fmt.number(placement.stranded_gpus)),
        (tr("tn.kpi.stranded_ports", lang), fmt.number(placement.stranded_ports)),
        (tr("tn.kpi.fragmentation", lang), fmt.percent(placement.fragmentation)),
        (tr("tn.kpi.tenants_per_leaf", lang), fmt.number(placement.max_tenants_per_leaf)),
        (
            translate(msg("CAPEX no tenant carries"), lang),
            fmt.money(money(placement.unallocated_capex_usd), money.currency, lang),
        ),
    ]
    unmet = [_unmet_line(u, lang) for u in placement.unmet]
    lines.append(
        (
            translate(msg("Unmet guarantees"), lang),
            "; ".join(unmet) if unmet else tr("tn.all_met", lang),
        )
    )
    return lines


def write_section(doc: HtmlDocument, tenancy: Tenancy | None, plan: Plan, lang: str) -> None:
    """The section, when the scenario has tenants (``tenancy`` from :func:`tenancy_of`).

    Parameters
    ----------
    doc : HtmlDocument
        The proposal document being written (appended to).
    tenancy : Tenancy or None
        The placement; ``None`` writes nothing.
    plan : Plan
        The plan shown.
    lang : str
        Language of the text (``en`` or ``zh``).
    """
    if tenancy is None:
        return
    doc.section(tr(SECTION_KEY, lang), ANCHOR)
    doc.paragraph(
        translate(
            msg(
                "The scenario's tenants placed on the proposed design by the topology-aware allocator: "
                "each tenant's GPUs, the servers, leaf switches and planes it holds, the bandwidth it "
                "is guaranteed, what one leaf, spine or plane failure takes from it, and its share of "
                "the cost per GPU-hour it rents."
            ),
            lang,
        )
    )
    if tenancy.placement is None:
        doc.callout(
            translate(msg("The tenants cannot be placed: {problem}", problem=tenancy.problem), lang),
            warning=True,
        )
        return
    placement = tenancy.placement
    currency = tables.money_of(plan).currency
    doc.table(
        Table.of(
            _headers(currency, lang),
            tenant_rows(placement, plan, lang),
            numeric=range(1, 11),
            widths=[12.0, 9.0, 11.0, 7.0, 7.0, 9.0, 10.0, 7.0, 6.0, 12.0, 10.0],
            compact=True,
            caption=translate(
                msg(
                    "Blast radius: the most of the tenant's GPUs one failed leaf, spine or plane takes a "
                    "link or path from. Chargeback: the tenant's share of CAPEX (annualised) and OPEX per "
                    "GPU it asked for and hour."
                ),
                lang,
            ),
        )
    )
    doc.heading(translate(msg("The cluster under this tenant set"), lang))
    item, value = tr("col.item", lang), tr("col.value", lang)
    doc.table(
        Table.of(
            [item, value], [list(line) for line in cluster_lines(placement, plan, lang)], widths=[40.0, 60.0]
        )
    )
    if placement.unmet:
        doc.callout(
            translate(msg("Not every tenant's guarantee can be met on this design."), lang), warning=True
        )
    doc.paragraph(translate(JOB_MIX_SOURCE, lang))


JOB_MIX_SOURCE = msg(
    "Job-mix simulations (the Tenants page, planner tenants simulate) draw synthetic jobs whose sizes, "
    "run times and arrival rate are fitted to the SenseTime Helios trace's 1,022-GPU Venus cluster "
    "(Hu et al., SC '21; April to September 2020, 125,303 GPU jobs)."
)
"""Where the simulated job mix comes from, stated under the tenancy section."""


SHEET_COLUMNS: tuple[tuple[str, ColumnKind], ...] = (
    ("tenant", "text"),
    ("allocated_gpus", "integer"),
    ("gpus", "integer"),
    ("isolation", "text"),
    ("servers", "integer"),
    ("leaves", "integer"),
    ("planes", "text"),
    ("guaranteed_gbit_per_s_per_gpu", "number"),
    ("best_effort_gbit_per_s_per_gpu", "number"),
    ("storage_gbyte_per_s", "number"),
    ("worst_hops", "integer"),
    ("blast_leaf_gpus", "integer"),
    ("blast_spine_gpus", "integer"),
    ("blast_plane_gpus", "integer"),
    ("usd_per_gpu_hour", "money"),
)
"""Columns of the workbook's tenant sheet and their cell kinds."""


def _sheet_labels(currency: str, lang: str) -> dict[str, str]:
    headers = _headers(currency, lang)
    return {
        "tenant": headers[0],
        "allocated_gpus": translate(msg("GPUs given"), lang),
        "gpus": translate(msg("GPUs asked"), lang),
        "isolation": headers[2],
        "servers": headers[3],
        "leaves": headers[4],
        "planes": headers[5],
        "guaranteed_gbit_per_s_per_gpu": translate(msg("Guaranteed [Gb/s per GPU]"), lang),
        "best_effort_gbit_per_s_per_gpu": translate(msg("Best effort [Gb/s per GPU]"), lang),
        "storage_gbyte_per_s": headers[7],
        "worst_hops": headers[8],
        "blast_leaf_gpus": translate(msg("Blast radius of a leaf [GPUs]"), lang),
        "blast_spine_gpus": translate(msg("Blast radius of a spine [GPUs]"), lang),
        "blast_plane_gpus": translate(msg("Blast radius of a plane [GPUs]"), lang),
        "usd_per_gpu_hour": headers[10],
    }


def _sheet_row(t: TenantPlacement, money: tables.Money, lang: str) -> dict[str, Any]:
    return {
        "tenant": t.name,
        "allocated_gpus": t.allocated_gpus,
        "gpus": t.gpus,
        "isolation": tr(f"tn.isolation.{t.isolation}", lang),
        "servers": len(t.servers),
        "leaves": _leaves(t.switches),
        "planes": plane_span(t.planes),
        "guaranteed_gbit_per_s_per_gpu": t.guaranteed_gbit_per_s_per_gpu,
        "best_effort_gbit_per_s_per_gpu": t.best_effort_gbit_per_s_per_gpu,
        "storage_gbyte_per_s": t.storage_gbyte_per_s,
        "worst_hops": t.worst_hops,
        "blast_leaf_gpus": t.blast_radius_gpus["leaf"],
        "blast_spine_gpus": t.blast_radius_gpus["spine"],
        "blast_plane_gpus": t.blast_radius_gpus["plane"],
        "usd_per_gpu_hour": money(t.usd_per_gpu_hour),
    }


def tenancy_sheets(tenancy: Tenancy | None, plan: Plan, lang: str) -> list[Sheet]:
    """The workbook's tenant sheet (numbers as numbers) and cluster sheet; none without tenants.

    Parameters
    ----------
    tenancy : Tenancy or None
        The placement.
    plan : Plan
        The plan shown (report currency).
    lang : str
        Language of headers (``en`` or ``zh``).

    Returns
    -------
    list[Sheet]
        Tenant and cluster sheets, or none.
    """
    if tenancy is None or tenancy.placement is None:
        return []
    placement = tenancy.placement
    money = tables.money_of(plan)
    labels = _sheet_labels(money.currency, lang)
    tenants_sheet = Sheet(
        title=translate(msg("Tenants"), lang),
        columns=tuple(Column(key, labels[key], kind) for key, kind in SHEET_COLUMNS),
        rows=tuple(_sheet_row(t, money, lang) for t in placement.tenants),
    )
    item, value = tr("col.item", lang), tr("col.value", lang)
    cluster_sheet = item_value_sheet(
        title=translate(msg("Tenancy (cluster)"), lang),
        headers=(item, value),
        lines=cluster_lines(placement, plan, lang),
        widths=(40, 70),
    )
    return [tenants_sheet, cluster_sheet]
