"""The fabric as tenant placement sees it: servers, their GPUs' links by plane and leaf, leaf
groups, pods, planes, scale-up domains and racks, named with the hand-off's device ids.

:func:`fabric_view` is the ONE place the tenancy package turns a plan into device ids: it reads
the per-port wiring of :func:`planner.handoff.build_wiring` and the racks of
:func:`planner.handoff.layout.build_layout`, so a server or switch a tenant is given is the
device of the same name in the cabling plan and the NetBox export.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.engine import Plan
from planner.errors import InputError
from planner.handoff import build_wiring, naming
from planner.handoff.layout import build_layout
from planner.i18n.message import msg
from planner.jobmix.simulate import SimCluster

MAX_VIEW_GPUS = 32_768
"""Largest cluster placed or simulated port by port [GPUs]. The view holds every link of the
wiring: measured with ``/usr/bin/time`` (maximum resident set of ``planner tenants simulate
--synthetic --jobs 1000``) 0.29 GB at 16 384 GPUs, 1.6 GB at 65 536 and 3.1 GB at 131 072, about
24 kB per GPU; 32 768 GPUs stays under the 1 GB budget of a server process."""

NETWORK_CATEGORIES = ("fabric_switches", "optics", "cables")
"""BOM categories of the compute fabric (split by server links in the chargeback)."""


@dataclass(frozen=True)
class FabricView:
    """An abstract, id-named view of one plan's compute fabric."""

    design_id: str
    gpus_per_server: int
    servers: tuple[str, ...]
    """Server ids, in wiring order (index = server number)."""
    planes: int
    tiers: int
    gpus_per_port: int
    """GPUs sharing one scale-out port: the smallest unit a shared tenant is given [count]."""
    links: tuple[tuple[tuple[tuple[int, str, str], ...], ...], ...]
    """Per server, per GPU: the (plane, leaf id, leaf port) of every link that carries its traffic."""
    leaf_group: tuple[int, ...]
    """Per server: its leaf group (servers reaching the same leaves), numbered from 0."""
    group_pod: tuple[int, ...]
    """Per leaf group: its pod (three tiers), 0 otherwise."""
    domains: tuple[tuple[int, ...], ...]
    """Servers of each scale-up domain."""
    domain_switches: tuple[tuple[str, ...], ...]
    """Scale-up switch tray ids of each domain (none for domains inside one server)."""
    plane_switches: tuple[tuple[str, ...], ...]
    """Every leaf, spine and core id of each plane."""
    leaf_spines: dict[str, tuple[str, ...]]
    """Spines each leaf has uplinks to."""
    server_rack: tuple[str, ...]
    switch_rack: dict[str, str]
    per_gpu_gbit_per_s: float
    """Scale-out bandwidth of one GPU over all planes [Gb/s]."""
    oversubscription: float
    storage_gbyte_per_s: float
    """Read bandwidth of the planned storage [GB/s]."""

    @property
    def gpus(self) -> int:
        return len(self.servers) * self.gpus_per_server

    @property
    def groups(self) -> int:
        return len(self.group_pod)

    @property
    def per_plane_gbit_per_s(self) -> float:
        """Scale-out bandwidth of one GPU on one plane [Gb/s]."""
        return self.per_gpu_gbit_per_s / self.planes if self.planes else 0.0

    def domain_of_server(self) -> tuple[int, ...]:
        owner = [0] * len(self.servers)
        for d, members in enumerate(self.domains):
            for s in members:
                owner[s] = d
        return tuple(owner)


def fabric_view(*, plan: Plan, catalog: Catalog) -> FabricView:
    """The placement view of ``plan`` with the hand-off's device ids (see module notes).

    Parameters
    ----------
    plan : Plan
        The cluster, at most :data:`MAX_VIEW_GPUS` GPUs (a larger plan is an
        :class:`InputError` naming the limit, before any link is built).
    catalog : Catalog
        The catalog it was planned with.

    Returns
    -------
    FabricView
        Servers and GPUs [count], planes and tiers [count], links by plane, leaf groups, pods,
        domains, racks, bandwidth per GPU [Gb/s], oversubscription [ratio], storage [GB/s].
    """
    if plan.gpus > MAX_VIEW_GPUS:
        raise InputError(
            msg(
                "gpus: tenant placement and the job simulation go port by port up to {limit} GPUs "
                "(about 1 GB of memory); this plan has {gpus}",
                limit=f"{MAX_VIEW_GPUS:,}",
                gpus=f"{plan.gpus:,}",
            )
        )
    wiring = build_wiring(plan=plan, catalog=catalog)
    layout = build_layout(plan=plan, catalog=catalog, wiring=wiring, params=plan.scenario.layout_floor)
    where = {device: rack.name for device, (rack, _) in layout.location().items()}
    topo = plan.topology
    gpn = topo.gpus_per_node
    servers = tuple(naming.server_id(n, count=plan.nodes) for n in range(plan.nodes))
    index = {s: i for i, s in enumerate(servers)}
    per_gpu: list[list[list[tuple[int, str, str]]]] = [[[] for _ in range(gpn)] for _ in servers]
    leaf_spines: dict[str, set[str]] = {}
    for link in wiring.links:
        if link.link_class == "node_leaf":
            first = link.gpu or 0
            for g in range(first, min(gpn, first + topo.gpus_per_port)):
                per_gpu[index[link.a_device]][g].append((link.plane, link.b_device, link.b_port))
        elif link.link_class == "leaf_spine":
            leaf_spines.setdefault(link.a_device, set()).add(link.b_device)
    groups, pods = _groups(per_gpu, leaf_spines)
    scale_up = plan.scale_up
    per_domain = max(1, scale_up.servers_per_domain)
    domains = tuple(
        tuple(range(d, min(d + per_domain, plan.nodes))) for d in range(0, plan.nodes, per_domain)
    )
    trays = tuple(
        tuple(
            naming.scale_up_switch_id(d, k, domains=scale_up.domains)
            for k in range(scale_up.switches_per_domain if scale_up.switch_id else 0)
        )
        for d in range(len(domains))
    )
    plane_switches = tuple(
        tuple(d.device_id for d in wiring.devices if d.plane == p and d.role in ("leaf", "spine", "core"))
        for p in range(topo.planes if topo.tiers else 0)
    )
    storage = plan.auxiliary.storage
    return FabricView(
        design_id=plan.design_id,
        gpus_per_server=gpn,
        servers=servers,
        planes=topo.planes if topo.tiers else 0,
        tiers=topo.tiers,
        gpus_per_port=max(1, topo.gpus_per_port),
        links=tuple(tuple(tuple(sorted(set(g))) for g in s) for s in per_gpu),
        leaf_group=groups,
        group_pod=pods,
        domains=domains,
        domain_switches=trays,
        plane_switches=plane_switches,
        leaf_spines={leaf: tuple(sorted(s)) for leaf, s in leaf_spines.items()},
        server_rack=tuple(where.get(s, "") for s in servers),
        switch_rack={s: where.get(s, "") for p in plane_switches for s in p},
        per_gpu_gbit_per_s=plan.bandwidth.per_gpu_gbit_per_s if topo.tiers else 0.0,
        oversubscription=max(1.0, topo.oversubscription),
        storage_gbyte_per_s=plan.auxiliary.storage_units * storage.read_bandwidth_gbyte_per_s,
    )


def _groups(
    per_gpu: list[list[list[tuple[int, str, str]]]], leaf_spines: dict[str, set[str]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Leaf group of each server (same set of leaves) and pod of each group (same spines)."""
    group_of_key: dict[tuple[str, ...], int] = {}
    pod_of_key: dict[tuple[str, ...], int] = {}
    groups: list[int] = []
    pods: list[int] = []
    for gpus in per_gpu:
        leaves = tuple(sorted({leaf for links in gpus for _, leaf, _ in links}))
        if leaves not in group_of_key:
            group_of_key[leaves] = len(group_of_key)
            spines = tuple(sorted({s for leaf in leaves for s in leaf_spines.get(leaf, ())}))
            pods.append(pod_of_key.setdefault(spines, len(pod_of_key)))
        groups.append(group_of_key[leaves])
    return tuple(groups), tuple(pods)


def sim_cluster(view: FabricView) -> SimCluster:
    """What the job-mix simulation needs of ``view``: servers, their GPUs, leaf groups and pods.

    Parameters
    ----------
    view : FabricView
        A placement view (:func:`fabric_view`).

    Returns
    -------
    SimCluster
        GPUs per server [count], leaf group and pod of each server [index], tiers [count].
    """
    return SimCluster(view.gpus_per_server, view.leaf_group, view.group_pod, view.tiers)
