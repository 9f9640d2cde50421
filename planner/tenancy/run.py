"""Plan a scenario, place a tenant set on it, and the same tenant set across designs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.inputs.scenario import Scenario
from planner.tenancy.fabric import fabric_view
from planner.tenancy.place import CostInputs, Placement, place
from planner.tenancy.tenants import TenantSet, check_fits
from planner.units import annuity_factor

COMPARE_DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")
"""The designs the tenancy comparison puts side by side by default."""


def cost_inputs(p: Plan) -> CostInputs:
    """The plan's CAPEX, network CAPEX, OPEX and cost per GPU-hour for the chargeback."""
    c = p.cost
    return CostInputs.of(
        by_category_usd=dict(c.by_category_usd),
        capex_usd=c.capex_usd,
        opex_usd_per_year=c.opex_usd_per_year,
        usd_per_gpu_hour=c.usd_per_gpu_hour,
        annuity=annuity_factor(rate=c.discount_rate, years=c.years),
    )


def place_on_plan(*, plan: Plan, catalog: Catalog, tenants: TenantSet, source: str = "tenants") -> Placement:
    """``tenants`` on ``plan``; :class:`InputError` naming ``source`` and ``gpus`` when they ask for
    more GPUs than the plan has."""
    check_fits(tenants, cluster_gpus=plan.gpus, source=source)
    return place(view=fabric_view(plan=plan, catalog=catalog), tenants=tenants, cost=cost_inputs(plan))


def place_scenario(
    *, scenario: Scenario, catalog: Catalog, tenants: TenantSet, source: str = "tenants"
) -> Placement:
    """Plan ``scenario`` and place ``tenants`` on it."""
    p = plan(scenario=scenario, catalog=catalog)
    return place_on_plan(plan=p, catalog=catalog, tenants=tenants, source=source)


def compare_designs(
    *,
    scenario: Scenario,
    catalog: Catalog,
    tenants: TenantSet,
    designs: Sequence[str] = COMPARE_DESIGNS,
    source: str = "tenants",
) -> tuple[Placement, ...]:
    """The same tenant set on each design (same GPU count and inputs otherwise)."""
    return tuple(
        place_scenario(
            scenario=scenario.model_copy(update={"design_id": d, "fabric": None}),
            catalog=catalog,
            tenants=tenants,
            source=source,
        )
        for d in designs
    )


TENANT_KEYS = (
    "name",
    "gpus",
    "isolation",
    "allocated_gpus",
    "servers",
    "switches",
    "planes",
    "racks",
    "groups",
    "requested_gbit_per_s_per_gpu",
    "guaranteed_gbit_per_s_per_gpu",
    "best_effort_gbit_per_s_per_gpu",
    "storage_gbyte_per_s",
    "worst_hops",
    "blast_radius_gpus",
    "capex_share_usd",
    "opex_share_usd_per_year",
    "usd_per_gpu_hour",
)


def placement_to_dict(placement: Placement) -> dict[str, Any]:
    """The JSON form ``planner tenants place --format json`` prints (docs/model.md)."""
    data = asdict(placement)
    data["tenants"] = [
        {k: list(v) if isinstance(v, tuple) else v for k, v in t.items() if k in TENANT_KEYS}
        for t in data["tenants"]
    ]
    data["unmet"] = [dict(u) for u in data["unmet"]]
    return data


def summary_rows(placement: Placement) -> list[dict[str, Any]]:
    """One row per tenant: the table the CLI and the page show."""
    return [
        {
            "tenant": t.name,
            "isolation": t.isolation,
            "gpus": t.gpus,
            "allocated_gpus": t.allocated_gpus,
            "servers": len(t.servers),
            "switches": len(t.switches),
            "planes": ",".join(t.planes),
            "racks": len(t.racks),
            "guaranteed_gbit_per_s_per_gpu": round(t.guaranteed_gbit_per_s_per_gpu, 1),
            "best_effort_gbit_per_s_per_gpu": round(t.best_effort_gbit_per_s_per_gpu, 1),
            "worst_hops": t.worst_hops,
            "blast_leaf_gpus": t.blast_radius_gpus["leaf"],
            "blast_spine_gpus": t.blast_radius_gpus["spine"],
            "blast_plane_gpus": t.blast_radius_gpus["plane"],
            "capex_share_usd": round(t.capex_share_usd),
            "usd_per_gpu_hour": round(t.usd_per_gpu_hour, 3),
        }
        for t in placement.tenants
    ]


def comparison_rows(placements: Sequence[Placement]) -> list[dict[str, Any]]:
    """One row per design and tenant, plus the cluster figures of each design."""
    return [
        {
            "design": p.design_id,
            "tenant": t.name,
            "isolation": t.isolation,
            "allocated_gpus": t.allocated_gpus,
            "guaranteed_gbit_per_s_per_gpu": round(t.guaranteed_gbit_per_s_per_gpu, 1),
            "worst_hops": t.worst_hops,
            "usd_per_gpu_hour": round(t.usd_per_gpu_hour, 3),
            "stranded_gpus": p.stranded_gpus,
            "stranded_ports": p.stranded_ports,
            "unmet": len(p.unmet),
        }
        for p in placements
        for t in p.tenants
    ]


def ownership_grid(
    placement: Placement,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Who owns each server's links on each plane: (servers, planes, rows of tenant numbers).

    Row ``p`` (plane ``p<p+1>``), column ``s`` (server) holds the index of the tenant whose GPUs on
    that server use the plane, -1 for none (free, or dark under another tenant's plane). Servers
    shared by several tenants show the first one.
    """
    servers = sorted({slot.split("/")[0] for t in placement.tenants for slot in t.gpu_slots})
    planes = sorted({p for t in placement.tenants for p in t.planes}, key=lambda p: int(p[1:]))
    column = {s: i for i, s in enumerate(servers)}
    row = {p: i for i, p in enumerate(planes)}
    grid = [[-1] * len(servers) for _ in planes]
    for index, tenant in enumerate(placement.tenants):
        for slot in tenant.gpu_slots:
            for p in tenant.planes:
                cell = grid[row[p]]
                if cell[column[slot.split("/")[0]]] == -1:
                    cell[column[slot.split("/")[0]]] = index
    return tuple(servers), tuple(planes), tuple(tuple(r) for r in grid)
