"""Topology-aware placement of a tenant set onto a plan's fabric, with its guarantees, failure
blast radius, stranded capacity and chargeback.

Notes
-----
Order (docs/model.md, "Multi-tenant supernode"): ``leaf`` tenants first (they need whole leaf
groups), then ``plane`` and ``domain`` tenants (whole scale-up domains; a plane tenant also
claims ``k = max(1, ceil(B / b_plane))`` planes, ``B`` its per-GPU guarantee and ``b_plane`` one
plane's per-GPU bandwidth, leaving at least one plane to the other tenants), then ``shared``
tenants (port-sized GPU groups, holes in partly used servers first). Within a class larger tenants
go first. Every choice of units is best fit over leaf groups: the group with the fewest free
units that still holds the tenant, else the fullest groups first, so a tenant spans as few leaves
(and hops) as it can.

A GPU is given to at most one tenant, and so are its links (the server port and the leaf down port
at the other end). Guaranteed bandwidth per GPU is ``b_plane x planes usable / s`` with ``s`` the
oversubscription when the tenant spans more than one leaf group (its traffic then crosses the
uplinks, shared by QoS weight in proportion to down ports) and 1 otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from planner.tenancy.fabric import NETWORK_CATEGORIES, FabricView
from planner.tenancy.tenants import Tenant, TenantSet

FREE = -1


@dataclass(frozen=True)
class Unmet:
    """A guarantee the placement cannot give, and by how much it falls short."""

    name: str
    field: str
    """``gpus`` [GPUs], ``bandwidth_gbit_per_s_per_gpu`` [Gb/s], ``storage_gbyte_per_s`` [GB/s] or
    ``isolation`` [planes]."""
    shortfall: float


@dataclass(frozen=True)
class TenantPlacement:
    """Where one tenant lands and what it is guaranteed and charged."""

    name: str
    gpus: int
    isolation: str
    allocated_gpus: int
    """GPUs reserved for the tenant, whole units of its isolation [count]."""
    servers: tuple[str, ...]
    switches: tuple[str, ...]
    planes: tuple[str, ...]
    racks: tuple[str, ...]
    groups: int
    """Leaf groups the tenant spans [count]."""
    requested_gbit_per_s_per_gpu: float
    guaranteed_gbit_per_s_per_gpu: float
    best_effort_gbit_per_s_per_gpu: float
    """What the fabric can carry per GPU for this tenant (the guarantee's ceiling) [Gb/s]."""
    storage_gbyte_per_s: float
    """Guaranteed storage read bandwidth [GB/s]."""
    worst_hops: int
    """Switch hops of the longest scale-out path between two of its GPUs."""
    blast_radius_gpus: dict[str, int]
    """Most of its GPUs that one failed ``leaf``, ``spine`` or ``plane`` takes a link or path from."""
    capex_share_usd: float
    opex_share_usd_per_year: float
    usd_per_gpu_hour: float
    """Its yearly cost share per GPU it asked for [USD/GPU-hour]."""
    gpu_slots: tuple[str, ...] = ()
    """Its GPUs, ``<server id>/gpu<n>`` (n from 0)."""
    ports: tuple[str, ...] = ()
    """Leaf down ports its guarantee rests on, ``<leaf id>:<port>`` (links on its usable planes)."""


@dataclass(frozen=True)
class Placement:
    """The whole tenant set on one plan."""

    design_id: str
    cluster_gpus: int
    tenants: tuple[TenantPlacement, ...]
    free_gpus: int
    stranded_gpus: int
    """GPUs reserved beyond what their tenant asked for, plus free GPUs no plane serves [count]."""
    stranded_ports: int
    """Server links no tenant can use: dark under another tenant's plane, or of stranded GPUs."""
    fragmentation: float
    """Share of the free GPUs sitting on partly used servers [-]."""
    max_tenants_per_leaf: int
    """Most tenants one leaf failure touches [count]."""
    unallocated_capex_usd: float
    unmet: tuple[Unmet, ...]


@dataclass
class _State:
    view: FabricView
    owner: list[list[int]]
    group_owner: list[int]
    plane_owner: list[int]
    slots: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Per tenant: its (server, GPU) slots in the order given."""
    unmet: list[Unmet] = field(default_factory=list)

    def server_free(self, s: int) -> bool:
        return self.group_owner[self.view.leaf_group[s]] == FREE and all(o == FREE for o in self.owner[s])

    def give(self, tenant: int, slots: Iterable[tuple[int, int]]) -> None:
        for s, g in slots:
            assert self.owner[s][g] == FREE, "a GPU given twice"
            self.owner[s][g] = tenant
            self.slots.setdefault(tenant, []).append((s, g))


def place(*, view: FabricView, tenants: TenantSet, cost: CostInputs) -> Placement:
    """Place ``tenants`` on ``view`` (see module notes); guarantees not met are in ``unmet``.

    Parameters
    ----------
    view : FabricView
        The cluster's servers, leaves, planes and links (:func:`planner.tenancy.fabric.fabric_view`).
    tenants : TenantSet
        Tenants with their GPUs [count], isolation and bandwidth asked [Gb/s per GPU].
    cost : CostInputs
        The plan's costs (:func:`planner.tenancy.run.cost_inputs`) for the chargeback.

    Returns
    -------
    Placement
        Each tenant's GPUs, servers, switches, planes and racks, bandwidth [Gb/s per GPU], worst
        hops [count], blast radius [GPUs] and cost shares [USD, USD/year, USD/GPU-h]; stranded
        GPUs and ports [count]; unmet guarantees.
    """
    state = _State(
        view=view,
        owner=[[FREE] * view.gpus_per_server for _ in view.servers],
        group_owner=[FREE] * view.groups,
        plane_owner=[FREE] * view.planes,
    )
    ts = tenants.tenants
    rank = {"leaf": 0, "plane": 1, "domain": 1, "shared": 2}
    order = sorted(range(len(ts)), key=lambda i: (rank[ts[i].isolation], -ts[i].gpus, i))
    others = [i for i in order if ts[i].isolation != "plane"]
    for i in order:
        tenant = ts[i]
        if tenant.isolation == "leaf":
            _place_leaf(state, i, tenant)
        elif tenant.isolation == "plane":
            if _claim_planes(state, i, tenant, keep=1 if others else 0):
                _place_domains(state, i, tenant)
        elif tenant.isolation == "domain":
            _place_domains(state, i, tenant)
        else:
            _place_shared(state, i, tenant)
    return _summarise(state, ts, cost)


def _best_fit(units_by_group: dict[int, list[int]], need: int) -> list[int]:
    """Units from as few groups as possible: the tightest group that holds ``need``, else the
    fullest groups first (``need`` units or all there are)."""
    fitting = [g for g, units in units_by_group.items() if len(units) >= need]
    if fitting:
        best = min(fitting, key=lambda g: (len(units_by_group[g]), g))
        return units_by_group[best][:need]
    chosen: list[int] = []
    for g in sorted(units_by_group, key=lambda g: (-len(units_by_group[g]), g)):
        chosen += units_by_group[g][: need - len(chosen)]
        if len(chosen) == need:
            break
    return chosen


def _short(state: _State, tenant: Tenant, given: int) -> None:
    if given < tenant.gpus:
        state.unmet.append(Unmet(tenant.name, "gpus", float(tenant.gpus - given)))


def _place_leaf(state: _State, i: int, tenant: Tenant) -> None:
    """Whole leaf groups: the fewest that hold the tenant's servers."""
    view = state.view
    members: dict[int, list[int]] = {}
    for s, g in enumerate(view.leaf_group):
        members.setdefault(g, []).append(s)
    free = [g for g, servers in members.items() if all(state.server_free(s) for s in servers)]
    need = math.ceil(tenant.gpus / view.gpus_per_server)
    fits = [g for g in free if len(members[g]) >= need]
    if fits and view.planes:
        chosen = [min(fits, key=lambda g: (len(members[g]), g))]
    else:
        chosen = []
        for g in sorted(free, key=lambda g: (-len(members[g]), g)) if view.planes else ():
            if sum(len(members[c]) for c in chosen) >= need:
                break
            chosen.append(g)
    for g in chosen:
        state.group_owner[g] = i
        state.give(i, ((s, k) for s in members[g] for k in range(view.gpus_per_server)))
    _short(state, tenant, sum(len(members[g]) for g in chosen) * view.gpus_per_server)


def _claim_planes(state: _State, i: int, tenant: Tenant, *, keep: int) -> bool:
    """Give a plane tenant its planes; ``False`` (isolation unmet) when none can be spared."""
    view = state.view
    per_plane = view.per_plane_gbit_per_s
    want = max(1, math.ceil(tenant.bandwidth_gbit_per_s_per_gpu / per_plane)) if per_plane else 1
    free = [p for p, o in enumerate(state.plane_owner) if o == FREE]
    spare = len(free) - keep
    if spare < 1:
        # without a plane of its own the tenant is not placed at all (no weaker isolation in its place)
        state.unmet.append(Unmet(tenant.name, "isolation", float(want)))
        state.unmet.append(Unmet(tenant.name, "gpus", float(tenant.gpus)))
        return False
    for p in free[: min(want, spare)]:
        state.plane_owner[p] = i
    return True


def _place_domains(state: _State, i: int, tenant: Tenant) -> None:
    """Whole scale-up domains, packed into as few leaf groups as possible."""
    view = state.view
    by_group: dict[int, list[int]] = {}
    for d, servers in enumerate(view.domains):
        if all(state.server_free(s) for s in servers):
            by_group.setdefault(view.leaf_group[servers[0]], []).append(d)
    domain_gpus = len(view.domains[0]) * view.gpus_per_server if view.domains else 1
    chosen = _best_fit(by_group, math.ceil(tenant.gpus / domain_gpus))
    state.give(i, ((s, k) for d in chosen for s in view.domains[d] for k in range(view.gpus_per_server)))
    _short(state, tenant, sum(len(view.domains[d]) for d in chosen) * view.gpus_per_server)


def _place_shared(state: _State, i: int, tenant: Tenant) -> None:
    """Port-sized GPU groups: holes in partly used servers first, then whole servers."""
    view = state.view
    unit = view.gpus_per_port
    by_group: dict[int, list[tuple[int, int, int]]] = {}
    for s in range(len(view.servers)):
        if state.group_owner[view.leaf_group[s]] != FREE:
            continue
        whole = all(o == FREE for o in state.owner[s])
        for k in range(0, view.gpus_per_server, unit):
            if all(state.owner[s][g] == FREE for g in range(k, k + unit)):
                by_group.setdefault(view.leaf_group[s], []).append((int(whole), s, k))
    starts = {g: [s * view.gpus_per_server + k for _, s, k in sorted(units)] for g, units in by_group.items()}
    chosen = _best_fit(starts, math.ceil(tenant.gpus / unit))
    slots = [divmod(start, view.gpus_per_server) for start in chosen]
    state.give(i, ((s, k + j) for s, k in slots for j in range(unit)))
    _short(state, tenant, len(slots) * unit)


@dataclass(frozen=True)
class CostInputs:
    """The plan's cost figures the chargeback splits."""

    capex_usd: float
    network_capex_usd: float
    opex_usd_per_year: float
    yearly_usd: float
    """CAPEX annuity plus OPEX [USD/year]."""
    usd_per_gpu_hour: float
    annuity: float
    """Annuity factor of the plan's rate and years [1/year]."""

    @classmethod
    def of(
        cls,
        *,
        by_category_usd: dict[str, float],
        capex_usd: float,
        opex_usd_per_year: float,
        usd_per_gpu_hour: float,
        annuity: float,
    ) -> CostInputs:
        network = sum(by_category_usd.get(c, 0.0) for c in NETWORK_CATEGORIES)
        return cls(
            capex_usd,
            network,
            opex_usd_per_year,
            capex_usd * annuity + opex_usd_per_year,
            usd_per_gpu_hour,
            annuity,
        )


def _usable_planes(state: _State, i: int, tenant: Tenant) -> tuple[int, ...]:
    owned = tuple(p for p, o in enumerate(state.plane_owner) if o == i)
    if tenant.isolation == "plane":
        return owned
    return tuple(p for p, o in enumerate(state.plane_owner) if o == FREE)


def _worst_hops(view: FabricView, slots: Sequence[tuple[int, int]]) -> int:
    """0 inside one scale-up domain (or without a scale-out fabric), 1 under one leaf group, 3
    across leaf groups of one pod (or two tiers), 5 across pods."""
    servers = {s for s, _ in slots}
    domain_of = view.domain_of_server()
    if view.tiers == 0 or len({domain_of[s] for s in servers}) <= 1:
        return 0
    groups = {view.leaf_group[s] for s in servers}
    if len(groups) == 1:
        return 1
    if view.tiers <= 2 or len({view.group_pod[g] for g in groups}) == 1:
        return 3
    return 5


def _switch_gpus(view: FabricView, slots: Sequence[tuple[int, int]], planes: set[int]) -> dict[str, set[int]]:
    """GPUs (slot numbers) with a link or path through each leaf, spine and plane (``p<n>``)."""
    touched: dict[str, set[int]] = {}
    for n, (s, g) in enumerate(slots):
        for p, leaf, _ in view.links[s][g]:
            if p in planes:
                touched.setdefault(leaf, set()).add(n)
                touched.setdefault(f"p{p + 1}", set()).add(n)
    for leaf in [k for k in touched if k in view.leaf_spines]:
        for spine in view.leaf_spines[leaf]:
            touched.setdefault(spine, set()).update(touched[leaf])
    return touched


def _summarise(state: _State, ts: Sequence[Tenant], cost: CostInputs) -> Placement:
    view = state.view
    charged, stranded_ports, total_links = _charge_links(state, ts)
    storage_left = view.storage_gbyte_per_s
    results: list[TenantPlacement] = []
    leaf_tenants: dict[str, set[int]] = {}
    for i, tenant in enumerate(ts):
        slots = state.slots.get(i, [])
        planes = _usable_planes(state, i, tenant)
        touched = _switch_gpus(view, slots, set(planes))
        for name in touched:
            if name in view.leaf_spines or name.startswith("leaf"):
                leaf_tenants.setdefault(name, set()).add(i)
        groups = len({view.leaf_group[s] for s, _ in slots})
        spread = view.oversubscription if groups > 1 else 1.0
        ceiling = view.per_plane_gbit_per_s * len(planes) / spread if slots else 0.0
        guaranteed = min(tenant.bandwidth_gbit_per_s_per_gpu, ceiling)
        if tenant.bandwidth_gbit_per_s_per_gpu > ceiling + 1e-9:
            state.unmet.append(
                Unmet(
                    tenant.name, "bandwidth_gbit_per_s_per_gpu", tenant.bandwidth_gbit_per_s_per_gpu - ceiling
                )
            )
        storage = min(tenant.storage_gbyte_per_s, storage_left)
        storage_left -= storage
        if tenant.storage_gbyte_per_s > storage + 1e-9:
            state.unmet.append(
                Unmet(tenant.name, "storage_gbyte_per_s", tenant.storage_gbyte_per_s - storage)
            )
        results.append(
            _tenant_result(
                state,
                i,
                tenant,
                slots,
                planes,
                touched,
                cost,
                charged,
                total_links,
                groups=groups,
                guaranteed=guaranteed,
                ceiling=ceiling,
                storage=storage,
            )
        )
    allocated = sum(len(v) for v in state.slots.values())
    free_gpus = view.gpus - allocated
    no_plane = view.planes > 0 and all(o != FREE for o in state.plane_owner)
    stranded = sum(r.allocated_gpus - min(r.gpus, r.allocated_gpus) for r in results) + (
        free_gpus if no_plane else 0
    )
    whole_free = sum(view.gpus_per_server for s in range(len(view.servers)) if state.server_free(s))
    return Placement(
        design_id=view.design_id,
        cluster_gpus=view.gpus,
        tenants=tuple(results),
        free_gpus=free_gpus,
        stranded_gpus=stranded,
        stranded_ports=stranded_ports,
        fragmentation=1.0 - whole_free / free_gpus if free_gpus else 0.0,
        max_tenants_per_leaf=max((len(t) for t in leaf_tenants.values()), default=0),
        unallocated_capex_usd=cost.capex_usd - sum(r.capex_share_usd for r in results),
        unmet=tuple(sorted(state.unmet, key=lambda u: ([t.name for t in ts].index(u.name), u.field))),
    )


def _tenant_result(
    state: _State,
    i: int,
    tenant: Tenant,
    slots: Sequence[tuple[int, int]],
    planes: tuple[int, ...],
    touched: dict[str, set[int]],
    cost: CostInputs,
    charged: list[int],
    total_links: int,
    *,
    groups: int,
    guaranteed: float,
    ceiling: float,
    storage: float,
) -> TenantPlacement:
    view = state.view
    server_ids = sorted({s for s, _ in slots})
    domain_of = view.domain_of_server()
    trays = {t for s in server_ids for t in view.domain_switches[domain_of[s]]}
    if tenant.isolation == "plane":
        switches = {sw for p in planes for sw in view.plane_switches[p]}
    else:
        switches = {k for k in touched if k.startswith(("leaf", "spine", "core"))}
    switches |= trays
    blast = {
        kind: max((len(v) for k, v in touched.items() if _kind(k) == kind), default=0)
        for kind in ("leaf", "spine", "plane")
    }
    share_gpus = len(slots) / view.gpus
    network = cost.network_capex_usd * charged[i] / total_links if total_links else 0.0
    capex = (cost.capex_usd - cost.network_capex_usd) * share_gpus + network
    opex = cost.opex_usd_per_year * share_gpus
    yearly = capex * cost.annuity + opex
    rate = cost.usd_per_gpu_hour * (yearly / cost.yearly_usd) * (view.gpus / tenant.gpus) if slots else 0.0
    return TenantPlacement(
        name=tenant.name,
        gpus=tenant.gpus,
        isolation=tenant.isolation,
        allocated_gpus=len(slots),
        servers=tuple(view.servers[s] for s in server_ids),
        switches=tuple(sorted(switches)),
        planes=tuple(f"p{p + 1}" for p in planes) if slots else (),
        racks=tuple(sorted({view.server_rack[s] for s in server_ids} - {""})),
        groups=groups,
        requested_gbit_per_s_per_gpu=tenant.bandwidth_gbit_per_s_per_gpu,
        guaranteed_gbit_per_s_per_gpu=guaranteed,
        best_effort_gbit_per_s_per_gpu=ceiling,
        storage_gbyte_per_s=storage,
        worst_hops=_worst_hops(view, slots),
        blast_radius_gpus=blast,
        capex_share_usd=capex,
        opex_share_usd_per_year=opex,
        usd_per_gpu_hour=rate,
        gpu_slots=tuple(f"{view.servers[s]}/gpu{g}" for s, g in slots),
        ports=tuple(
            sorted({f"{leaf}:{port}" for s, g in slots for p, leaf, port in view.links[s][g] if p in planes})
        ),
    )


def _kind(name: str) -> str:
    if name.startswith("leaf"):
        return "leaf"
    if name.startswith("spine"):
        return "spine"
    return "plane" if name.startswith("p") else "other"


def _charge_links(state: _State, ts: Sequence[Tenant]) -> tuple[list[int], int, int]:
    """Server links charged to each tenant, stranded links, and all links.

    A link is charged to the tenant that uses it or that makes it dark: the owner of the plane it
    is on when that is another tenant's dedicated plane, else the owner of its GPU (a plane
    tenant's links on other planes are dark at its own cost). Free GPUs' links are not charged.
    """
    view = state.view
    charged = [0] * len(ts)
    idle = _idle_slots(state, ts)
    stranded = total = 0
    for s, gpus in enumerate(view.links):
        for g, links in enumerate(gpus):
            owner = state.owner[s][g]
            for p, _, _ in links:
                total += 1
                plane_owner = state.plane_owner[p]
                dark = plane_owner != FREE and plane_owner != owner
                own_dark = owner != FREE and ts[owner].isolation == "plane" and plane_owner != owner
                payer = plane_owner if dark and not own_dark else owner
                if payer != FREE:
                    charged[payer] += 1
                if dark or own_dark or (s, g) in idle:
                    stranded += 1
    return charged, stranded, total


def _idle_slots(state: _State, ts: Sequence[Tenant]) -> set[tuple[int, int]]:
    """Reserved GPUs beyond each tenant's request (the last ones given)."""
    return {slot for i, slots in state.slots.items() for slot in slots[ts[i].gpus :]}
