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
    """The plan's CAPEX, network CAPEX, OPEX and cost per GPU-hour for the chargeback.

    Parameters
    ----------
    p : Plan
        A plan.

    Returns
    -------
    CostInputs
        CAPEX by category and in total [USD], OPEX [USD/year], cost per GPU-hour [USD/GPU-h] and
        the capital recovery factor of the plan's rate and years [1/year]
        (:func:`planner.units.annuity_factor`).
    """
    c = p.cost
    return CostInputs.of(
        by_category_usd=dict(c.by_category_usd),
        capex_usd=c.capex_usd,
        opex_usd_per_year=c.opex_usd_per_year,
        usd_per_gpu_hour=c.usd_per_gpu_hour,
        annuity=annuity_factor(rate=c.discount_rate, years=c.years),
    )


def place_on_plan(*, plan: Plan, catalog: Catalog, tenants: TenantSet, source: str = "tenants") -> Placement:
    """``tenants`` placed on ``plan``.

    Parameters
    ----------
    plan : Plan
        The cluster to place on.
    catalog : Catalog
        The catalog it was planned with (the hand-off's device ids).
    tenants : TenantSet
        Tenants with their GPUs [count], isolation and bandwidth [Gb/s per GPU].
    source : str
        How messages name the tenant set (its file name).

    Returns
    -------
    Placement
        Each tenant's GPUs, servers, switches, planes and racks, guaranteed and best-effort
        bandwidth [Gb/s per GPU], worst hops [count], blast radius [GPUs] and cost shares [USD,
        USD/year, USD/GPU-h]; guarantees not met in ``unmet``.

    Raises
    ------
    InputError
        Naming ``source`` and ``gpus`` when the tenants ask for more GPUs than the plan has, or a
        plan larger than the placement view takes.
    """
    check_fits(tenants, cluster_gpus=plan.gpus, source=source)
    return place(view=fabric_view(plan=plan, catalog=catalog), tenants=tenants, cost=cost_inputs(plan))


def place_scenario(
    *, scenario: Scenario, catalog: Catalog, tenants: TenantSet, source: str = "tenants"
) -> Placement:
    """Plan ``scenario`` and place ``tenants`` on it.

    Parameters
    ----------
    scenario : Scenario
        The cluster to plan.
    catalog : Catalog
        Components and prices.
    tenants : TenantSet
        The tenants to place.
    source : str
        How messages name the tenant set.

    Returns
    -------
    Placement
        As :func:`place_on_plan` returns it.

    Raises
    ------
    PlannerError
        The engine refuses the scenario, or the tenants do not fit (:func:`place_on_plan`).
    """
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
    """The same tenant set on each design (same GPU count and inputs otherwise).

    Parameters
    ----------
    scenario : Scenario
        The scenario; its design is replaced by each of ``designs``.
    catalog : Catalog
        Components and prices.
    tenants : TenantSet
        The tenants to place.
    designs : Sequence[str]
        Design ids, in the order of the result.
    source : str
        How messages name the tenant set.

    Returns
    -------
    tuple[Placement, ...]
        One placement per design (:func:`place_on_plan`).
    """
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
    """The JSON form ``planner tenants place --format json`` prints (docs/model.md).

    Parameters
    ----------
    placement : Placement
        A placement.

    Returns
    -------
    dict[str, Any]
        Plain data: per tenant the :data:`TENANT_KEYS` (units in their names: [GPUs],
        [Gb/s per GPU], [GB/s], [USD], [USD/year], [USD/GPU-h]), the unmet guarantees, and the
        cluster's figures.
    """
    data = asdict(placement)
    data["tenants"] = [
        {k: list(v) if isinstance(v, tuple) else v for k, v in t.items() if k in TENANT_KEYS}
        for t in data["tenants"]
    ]
    data["unmet"] = [dict(u) for u in data["unmet"]]
    return data


def summary_rows(placement: Placement) -> list[dict[str, Any]]:
    """One row per tenant: the table the CLI and the page show.

    Parameters
    ----------
    placement : Placement
        A placement.

    Returns
    -------
    list[dict[str, Any]]
        Tenant, isolation, GPUs asked and allocated [count], servers, switches, racks [count],
        planes, guaranteed and best-effort bandwidth [Gb/s per GPU, 0.1], worst hops [count],
        blast radius by leaf, spine and plane [GPUs], CAPEX share [USD] and cost [USD/GPU-h].
    """
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


_COMPARED = (
    "tenant",
    "isolation",
    "allocated_gpus",
    "guaranteed_gbit_per_s_per_gpu",
    "worst_hops",
    "usd_per_gpu_hour",
)
"""The columns of :func:`summary_rows` each design's tenants are compared on."""


def comparison_rows(placements: Sequence[Placement]) -> list[dict[str, Any]]:
    """One row per design and tenant, plus the cluster figures of each design.

    Parameters
    ----------
    placements : Sequence[Placement]
        One placement per design (:func:`compare_designs`).

    Returns
    -------
    list[dict[str, Any]]
        Design, tenant, isolation, allocated GPUs [count], guaranteed bandwidth [Gb/s per GPU],
        worst hops [count], cost [USD/GPU-h], and the design's stranded GPUs and ports [count]
        and unmet guarantees [count].
    """
    return [
        {
            "design": p.design_id,
            **{key: row[key] for key in _COMPARED},
            "stranded_gpus": p.stranded_gpus,
            "stranded_ports": p.stranded_ports,
            "unmet": len(p.unmet),
        }
        for p in placements
        for row in summary_rows(p)
    ]


def ownership_grid(
    placement: Placement,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Who owns each server's links on each plane: (servers, planes, rows of tenant numbers).

    Row ``p`` (plane ``p<p+1>``), column ``s`` (server) holds the index of the tenant whose GPUs on
    that server use the plane, -1 for none (free, or dark under another tenant's plane). Servers
    shared by several tenants show the first one.

    Parameters
    ----------
    placement : Placement
        A placement.

    Returns
    -------
    tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, ...], ...]]
        Server ids, plane names, and one row per plane of tenant indices [0-based, -1 for none].
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
