"""Device inventory and per-port wiring of a plan's compute fabric.

Notes
-----
The rules are those of :func:`planner.fabric.topology.build_topology`, port by port:

- server link ``t`` (``0 .. P x planes_per_port - 1``, ``P`` physical ports) is leg
  ``t mod planes_per_port`` of port ``floor(t / planes_per_port)``; it lands on plane
  ``t mod planes`` as the server's link ``u = floor(t / planes)`` of that plane (its rail when
  leaves are rail-optimized); port ``j`` belongs to GPU ``floor(j s / p)`` (``p`` ports per GPU,
  ``s`` GPUs per port), so GPU ``i``'s port ``k`` is on plane ``k`` for the NPO designs;
- servers are spread over the leaves of a rail (or of a plane) in balanced blocks: with ``n``
  servers on ``L`` leaves the first ``n mod L`` leaves take ``ceil(n / L)``, the rest
  ``floor(n / L)`` (the even spread the optics count of :func:`planner.fabric.media.units_on_devices`
  assumes);
- two tiers: leaf up port ``t`` goes to spine ``t mod S``, ``u / S`` links to every spine;
- three tiers: leaf up port ``t`` goes to spine ``t`` of its pod; spine ``j`` of a pod with
  ``m`` leaves sends ``ceil(m / c)`` links to each of the ``c`` cores of group ``j``.

Transceivers: a twin-port module serves two ports of one link class on one device (one NIC at the
server end), as the BOM counts them; NPO/CPO optics count one per port.

Auxiliary fabrics (storage, front end, in-band, out-of-band; the counts of
:func:`planner.fabric.auxiliary.aux_link_counts`), each a :class:`planner.fabric.topology.SmallClos`
of ``k``-port switches:

- endpoints in order (servers, then storage units, then, out of band, the management port of every
  switch: compute tiers, scale-up trays, storage, in-band, front-end) fill the leaves in balanced
  blocks on their ports ``1 .. k/2`` (one switch: ports ``1 .. E``);
- tier ``i`` to ``i + 1``: link ``t`` (``0 .. L_i - 1``) leaves lower switch ``a`` in balanced
  blocks from its port ``k/2 + j`` and lands on upper switch ``t mod n_(i+1)``, port
  ``floor(t / n_(i+1))``, so a leaf's uplinks spread over the switches above.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple, TypedDict

from planner.catalog import Catalog
from planner.catalog.schema import Server, Storage, Switch
from planner.fabric.media import LinkMedia
from planner.fabric.scale_up import ScaleUpDomain
from planner.fabric.topology import SmallClos, Topology
from planner.handoff import naming
from planner.handoff.sized import Sized
from planner.units import ceil_div

GROUP_OF_ROLE = {
    "gpu-server": "compute",
    "scale-up-switch": "compute",
    "leaf": "network",
    "spine": "network",
    "core": "network",
    "storage": "storage",
    "storage-switch": "storage",
    "frontend-switch": "network",
    "inband-switch": "management",
    "oob-switch": "management",
}
"""Which kind of rack a role sits in."""
ROLES = tuple(GROUP_OF_ROLE)
"""Device roles (NetBox device roles of the same slug)."""


@dataclass(frozen=True)
class Device:
    """One device of the build, named by :mod:`planner.handoff.naming`."""

    device_id: str
    role: str
    model_id: str
    model_name: str
    rack_units: int
    power_w: float
    """Maximum power with the optics plugged into it [W]."""
    interfaces: tuple[str, ...]
    """Every network port of the device (NetBox interfaces)."""
    port_speed_gbit_per_s: int
    plane: int | None = None
    """Plane (0-based) of a fabric switch."""
    rail: int | None = None
    """Rail within the plane (0-based) of a rail-optimized leaf."""
    port_speeds: tuple[tuple[str, int], ...] = ()
    """Ports whose speed is not ``port_speed_gbit_per_s`` (storage, management, BMC) [Gb/s]."""

    @property
    def group(self) -> str:
        return GROUP_OF_ROLE[self.role]

    def speed_of(self, port: str) -> int:
        """Speed of one of the device's ports [Gb/s]."""
        return dict(self.port_speeds).get(port, self.port_speed_gbit_per_s)


@dataclass(frozen=True)
class Link:
    """One cable, before the layout gives it a length."""

    link_class: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    medium: str
    cable_part: str
    optic_a: str | None
    optic_b: str | None
    a_module: str
    """Transceiver slot the A port uses (ports of one twin-port module share it)."""
    b_module: str
    plane: int
    rail: int
    """The server's link index on the plane (its rail on rail-optimized leaves) for node-leaf links;
    0 above the leaves."""
    gpu: int | None = None
    """First GPU (0-based, within the server) behind the port of a node-leaf link."""


@dataclass(frozen=True)
class Wiring:
    """The inventory and the links of one plan."""

    devices: tuple[Device, ...]
    links: tuple[Link, ...]

    def device(self, device_id: str) -> Device:
        return self._by_id[device_id]

    @property
    def _by_id(self) -> dict[str, Device]:
        return {d.device_id: d for d in self.devices}

    def transceivers(self) -> dict[str, int]:
        """Optic units by part: pluggable modules, or ports for NPO/CPO [count]."""
        modules: dict[str, set[str]] = {}
        for link in self.links:
            for optic, module in ((link.optic_a, link.a_module), (link.optic_b, link.b_module)):
                if optic:
                    modules.setdefault(optic, set()).add(module)
        return {optic: len(slots) for optic, slots in sorted(modules.items())}


def ports_per_module(catalog: Catalog) -> dict[str, int]:
    """Ports one unit of each optic part serves [count]: its ``ports_per_module``, 1 for NPO/CPO
    optics (one per port).

    Parameters
    ----------
    catalog : Catalog
        Catalog of optics.

    Returns
    -------
    dict[str, int]
        Ports per unit, by optic id [count].
    """
    return {o.id: (1 if o.integrated else o.ports_per_module) for o in catalog.optics.values()}


def balanced_block(index: int, *, items: int, bins: int) -> tuple[int, int]:
    """(bin, position in bin) of item ``index`` when ``items`` fill ``bins`` in balanced blocks.

    The first ``items mod bins`` bins take one more item.

    Parameters
    ----------
    index : int
        Item, 0-based [count].
    items : int
        Items to place [count].
    bins : int
        Bins [count], above zero.

    Returns
    -------
    tuple[int, int]
        Bin and position in it, both 0-based [count].

    >>> [balanced_block(i, items=5, bins=2) for i in range(5)]
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]
    """
    base, extra = divmod(items, bins)
    big = extra * (base + 1)
    if index < big:
        return divmod(index, base + 1)
    bin_, position = divmod(index - big, base)
    return extra + bin_, position


@dataclass
class _Slots:
    """Transceiver slots: ports of one group (device, class, side) share modules in order."""

    per_module: dict[str, int]
    used: dict[tuple[str, str], int] = field(default_factory=dict)

    def take(self, group: str, optic: str | None, port_key: str, seen: dict[str, str]) -> str:
        if optic is None:
            return ""
        if port_key in seen:
            return seen[port_key]
        rank = self.used.get((group, optic), 0)
        self.used[(group, optic)] = rank + 1
        slot = f"{group}#{rank // self.per_module[optic]}"
        seen[port_key] = slot
        return slot


def build_wiring(*, plan: Sized, catalog: Catalog) -> Wiring:
    """Every device and every cable of ``plan``, port by port.

    Returns
    -------
    Wiring
        Devices in rack order of their group; links in the order node-leaf, leaf-spine,
        spine-core, then the auxiliary classes of ``plan.aux_media``. Cables equal the BOM's cable
        lines and transceivers its optics lines.

    Parameters
    ----------
    plan : Sized
        The sized cluster (nodes, topology, media, auxiliary fabrics).
    catalog : Catalog
        Catalog of servers, switches and optics (ports per module, power [W]).
    """
    fabric = FabricIds(plan)
    media: dict[str, LinkMedia] = {m.link_class: m for m in plan.media}
    slots = _Slots(ports_per_module(catalog))
    links = [
        *_node_leaf_links(plan, fabric, media, slots),
        *_switch_links(plan, fabric, media, slots),
        *_aux_links(plan, fabric, slots),
    ]
    devices = inventory(
        plan=plan, catalog=catalog, optics_w=optics_power_w(modules_by_device(links), catalog)
    )
    return Wiring(devices=tuple(devices), links=tuple(links))


class FabricIds:
    """Switch ids of the compute fabric by plane, in wiring order."""

    def __init__(self, plan: Sized) -> None:
        topo = plan.topology
        self.topo = topo
        self.rail_leaves = topo.tiers >= 2 and _rail_optimized(plan)
        leaves = topo.tier("leaf")
        spines = topo.tier("spine")
        cores = topo.tier("core")
        self.leaves_per_plane = leaves.switches_per_plane if leaves else 0
        self.spines_per_plane = spines.switches_per_plane if spines else 0
        self.cores_per_plane = cores.switches_per_plane if cores else 0
        q = topo.ports_per_node_per_plane
        self.leaves_per_rail = self.leaves_per_plane // q if self.rail_leaves else self.leaves_per_plane

    def leaf(self, plane: int, index: int) -> str:
        """Leaf ``index`` of a plane (rail-major order when rail-optimized)."""
        if self.rail_leaves:
            rail, k = divmod(index, self.leaves_per_rail)
            return naming.leaf_id(plane=plane, rail=rail, index=k)
        return naming.leaf_id(plane=plane, rail=None, index=index)

    def leaf_rail(self, index: int) -> int | None:
        return index // self.leaves_per_rail if self.rail_leaves else None

    def spine(self, plane: int, index: int) -> str:
        if self.topo.tiers == 3:
            pod, j = divmod(index, self.topo.leaf_up_ports)
            return naming.spine_id(plane=plane, pod=pod, index=j)
        return naming.spine_id(plane=plane, pod=None, index=index)

    def core(self, plane: int, index: int) -> str:
        return naming.core_id(plane=plane, index=index)


def _rail_optimized(plan: Sized) -> bool:
    """Whether the leaves are per rail: ``rails = q x planes`` then, ``planes`` otherwise (with one
    link per server and plane the two wirings are the same, and the leaves are named per plane)."""
    return plan.topology.rails > plan.topology.planes


def _node_leaf_links(
    plan: Sized, ids: FabricIds, media: dict[str, LinkMedia], slots: _Slots
) -> Iterator[Link]:
    topo, ports = plan.topology, plan.server_ports
    if not topo.tiers:
        return
    m = media["node_leaf"]
    q, planes, legs = topo.ports_per_node_per_plane, topo.planes, ports.planes_per_port
    seen: dict[str, str] = {}
    number = 0
    for node in range(plan.nodes):
        server = naming.server_id(node, count=plan.nodes)
        for t in range(ports.links):
            port, leg = divmod(t, legs)
            nic, nic_port = balanced_block(port, items=ports.ports, bins=ports.nics)
            plane, u = t % planes, t // planes
            leaf_index, leaf_port = _leaf_down(ids, node=node, u=u, q=q, nodes=plan.nodes)
            leaf = ids.leaf(plane, leaf_index)
            port_name = naming.nic_port(nic, nic_port, leg if legs > 1 else None)
            number += 1
            yield _link(
                m,
                slots,
                seen,
                a=_End(server, port_name, f"{server}/nic{nic}", f"{server}/{port}"),
                b=_down_end(leaf, leaf_port),
                plane=plane,
                rail=u,
                gpu=port * topo.gpus_per_port // topo.ports_per_gpu,
            )


def _leaf_down(ids: FabricIds, *, node: int, u: int, q: int, nodes: int) -> tuple[int, int]:
    """(leaf index in its plane, down port index) of a server's link ``u`` on a plane."""
    if ids.topo.tiers == 1:
        return 0, node * q + u
    if ids.rail_leaves:
        k, position = balanced_block(node, items=nodes, bins=ids.leaves_per_rail)
        return u * ids.leaves_per_rail + k, position
    k, position = balanced_block(node, items=nodes, bins=ids.leaves_per_plane)
    return k, position * q + u


class _End(NamedTuple):
    """One end of a cable: device, port name, the module group its transceiver slot is taken from,
    and the key of its physical port (the ports of one twin-port module share a slot)."""

    device: str
    port: str
    group: str
    key: str


def _down_end(switch: str, port: int) -> _End:
    """Down port ``port`` of ``switch``."""
    return _End(switch, naming.switch_port(port), f"{switch}/down", f"{switch}/{port}")


def _link(
    m: LinkMedia,
    slots: _Slots,
    seen: dict[str, str],
    *,
    a: _End,
    b: _End,
    plane: int,
    rail: int = 0,
    gpu: int | None = None,
) -> Link:
    """One cable of medium ``m`` from ``a`` (its lower optic) to ``b`` (its upper optic)."""
    return Link(
        link_class=m.link_class,
        a_device=a.device,
        a_port=a.port,
        b_device=b.device,
        b_port=b.port,
        medium=m.medium,
        cable_part=m.cable_id,
        optic_a=m.lower.optic_id,
        optic_b=m.upper.optic_id,
        a_module=slots.take(a.group, m.lower.optic_id, a.key, seen),
        b_module=slots.take(b.group, m.upper.optic_id, b.key, seen),
        plane=plane,
        rail=rail,
        gpu=gpu,
    )


_SwitchPort = tuple[str, int]
"""A switch and one of its ports."""


def _uplink(
    m: LinkMedia,
    slots: _Slots,
    seen: dict[str, str],
    *,
    lower: _SwitchPort,
    upper: _SwitchPort,
    plane: int,
) -> Link:
    """One switch-to-switch link from port ``lower[1]`` of ``lower[0]`` to ``upper``."""
    (a, a_port), (b, b_port) = lower, upper
    up = _End(a, naming.switch_port(a_port), f"{a}/up", f"{a}/{a_port}")
    return _link(m, slots, seen, a=up, b=_down_end(b, b_port), plane=plane)


def _switch_links(plan: Sized, ids: FabricIds, media: dict[str, LinkMedia], slots: _Slots) -> Iterator[Link]:
    """The leaf-spine links, then the spine-core links, of every plane (the tiers the plan has)."""
    layers = (("leaf_spine", 2, _leaf_spine_ends), ("spine_core", 3, _spine_core_ends))
    for link_class, tiers, ends in layers:
        if plan.topology.tiers < tiers:
            continue
        m, seen = media[link_class], dict[str, str]()
        for plane, lower, upper in ends(plan.topology, ids):
            yield _uplink(m, slots, seen, lower=lower, upper=upper, plane=plane)


def _leaf_spine_ends(topo: Topology, ids: FabricIds) -> Iterator[tuple[int, _SwitchPort, _SwitchPort]]:
    """(plane, leaf up port, spine down port) of every leaf-spine link."""
    down, up = topo.leaf_down_ports, topo.leaf_up_ports
    spines = ids.spines_per_plane
    for plane in range(topo.planes):
        first_leaf = 0
        for pod, pod_leaves in enumerate(topo.leaves_per_pod):
            for position in range(pod_leaves):
                leaf = ids.leaf(plane, first_leaf + position)
                for t in range(up):
                    if topo.tiers == 2:
                        spine, spine_port = t % spines, (first_leaf + position) * (up // spines) + t // spines
                    else:
                        spine, spine_port = pod * up + t, position
                    yield plane, (leaf, down + t), (ids.spine(plane, spine), spine_port)
            first_leaf += pod_leaves


def _spine_core_ends(topo: Topology, ids: FabricIds) -> Iterator[tuple[int, _SwitchPort, _SwitchPort]]:
    """(plane, spine up port, core down port) of every spine-core link."""
    up, group = topo.leaf_up_ports, topo.cores_per_group
    spine_tier = topo.tier("spine")
    assert spine_tier is not None
    half = spine_tier.ports_per_switch // 2
    for plane in range(topo.planes):
        core_offset = 0
        for pod, pod_leaves in enumerate(topo.leaves_per_pod):
            per_core = ceil_div(pod_leaves, group)
            for j in range(up):
                spine = ids.spine(plane, pod * up + j)
                for r in range(per_core * group):
                    g, k = r % group, r // group
                    yield plane, (spine, half + r), (ids.core(plane, j * group + g), core_offset + k)
            core_offset += per_core


def _aux_links(plan: Sized, ids: FabricIds, slots: _Slots) -> Iterator[Link]:
    """The cables of the storage, front-end, in-band and out-of-band fabrics (module notes)."""
    media: dict[str, LinkMedia] = {m.link_class: m for m in plan.aux_media}
    endpoints = aux_endpoints(plan, ids)
    for fabric, prefix, clos in aux_fabrics(plan):
        access, uplink = media.get(f"{fabric}_access"), media.get(f"{fabric}_uplink")
        ports = [(device, port) for device, names in endpoints[fabric] for port in names]
        yield from _clos_links(access, uplink, slots, prefix=prefix, clos=clos, endpoints=ports)


def aux_endpoints(plan: Sized, ids: FabricIds) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The endpoints of each auxiliary fabric in wiring order (module notes): (device, its ports on
    the fabric) by fabric (``storage``, ``frontend``, ``inband``, ``oob``).

    Parameters
    ----------
    plan : Sized
        The sized cluster (nodes, storage units, auxiliary port counts).
    ids : FabricIds
        Device ids of the compute fabric's switches.

    Returns
    -------
    dict[str, list[tuple[str, tuple[str, ...]]]]
        Per fabric: ``(device id, its port names)`` in wiring order.
    """
    aux, nodes = plan.auxiliary, plan.nodes
    servers = server_ids(nodes)
    units = [naming.storage_id(i, count=aux.storage_units) for i in range(aux.storage_units)]

    def on_servers(kind: str, per_node: int) -> list[tuple[str, tuple[str, ...]]]:
        names = tuple(naming.aux_port(kind, k) for k in range(per_node))
        return [(s, names) for s in servers] if names else []

    unit_ports = tuple(f"eth{p + 1}" for p in range(aux.storage.network_ports))
    fe = aux.frontend
    switches = [
        *compute_switch_ids(plan, ids),
        *(d for _, d in aux_switch_ids(plan) if not d.startswith("oob-")),
    ]
    return {
        "storage": on_servers("stor", aux.storage_pool.ports_per_node)
        + ([(u, unit_ports) for u in units] if unit_ports else []),
        "frontend": on_servers("fe", fe.ports_per_node) if fe.dedicated else [],
        "inband": on_servers("mgmt", aux.inband_ports_per_node)
        + [(u, (naming.aux_port("mgmt", 0),)) for u in units],
        "oob": on_servers("bmc", aux.oob_ports_per_node)
        + [(u, (naming.aux_port("bmc", 0),)) for u in units]
        + [(s, (naming.SWITCH_MGMT_PORT,)) for s in switches],
    }


def aux_fabrics(plan: Sized) -> tuple[tuple[str, str, SmallClos], ...]:
    """(fabric, device-name prefix, its Clos) of every auxiliary fabric, in wiring order.

    Parameters
    ----------
    plan : Sized
        The sized cluster (its auxiliary fabrics).

    Returns
    -------
    tuple[tuple[str, str, SmallClos], ...]
        ``(fabric, prefix, Clos)`` for storage, frontend, inband and oob.
    """
    aux = plan.auxiliary
    return (
        ("storage", "stor", aux.storage_fabric),
        ("frontend", "fe", aux.frontend.fabric),
        ("inband", "inband", aux.inband_fabric),
        ("oob", "oob", aux.oob_fabric),
    )


def _clos_links(
    access: LinkMedia | None,
    uplink: LinkMedia | None,
    slots: _Slots,
    *,
    prefix: str,
    clos: SmallClos,
    endpoints: list[tuple[str, str]],
) -> Iterator[Link]:
    """Endpoints to the leaves of ``clos``, then every link between its tiers (module notes)."""
    tiers = clos.switches_by_tier
    if not tiers:
        return
    half, seen = clos.radix // 2, dict[str, str]()
    if access is not None:
        for e, (device, port) in enumerate(endpoints):
            leaf, leaf_port = (
                (0, e) if len(tiers) == 1 else balanced_block(e, items=len(endpoints), bins=tiers[0])
            )
            switch = naming.aux_switch_id(prefix, 0, leaf)
            yield _link(
                access,
                slots,
                seen,
                a=_End(device, port, f"{device}/{port}", f"{device}/{port}"),
                b=_down_end(switch, leaf_port),
                plane=0,
            )
    if uplink is None:
        return
    for tier, links in enumerate(clos.links_by_tier):
        lower, upper = tiers[tier], tiers[tier + 1]
        for t in range(links):
            a, j = balanced_block(t, items=links, bins=lower)
            yield _uplink(
                uplink,
                slots,
                seen,
                lower=(naming.aux_switch_id(prefix, tier, a), half + j),
                upper=(naming.aux_switch_id(prefix, tier + 1, t % upper), t // upper),
                plane=0,
            )


def compute_switch_ids(plan: Sized, ids: FabricIds) -> list[str]:
    """Compute fabric switches (tier by tier, plane by plane) and scale-up trays, in device order.

    Parameters
    ----------
    plan : Sized
        The sized cluster (tier counts, planes, scale-up domains).
    ids : FabricIds
        Namer of the compute fabric's switches.

    Returns
    -------
    list[str]
        Device ids (dimensionless).
    """
    name_of = {"leaf": ids.leaf, "spine": ids.spine, "core": ids.core}
    found = [
        name_of[tier.tier](plane, index)
        for tier in plan.topology.tier_counts
        for plane in range(plan.topology.planes)
        for index in range(tier.switches_per_plane)
    ]
    if plan.scale_up.switch_id:
        found += _tray_ids(plan.scale_up)
    return found


def _tray_ids(scale_up: ScaleUpDomain) -> list[str]:
    """The scale-up switch trays, domain by domain, in device order (the inventory and the
    switch list name them alike)."""
    return [
        naming.scale_up_switch_id(d, k, domains=scale_up.domains)
        for d in range(scale_up.domains)
        for k in range(scale_up.switches_per_domain)
    ]


def aux_switch_ids(plan: Sized) -> list[tuple[str, str]]:
    """(fabric, device id) of every auxiliary switch, fabric by fabric, tier by tier.

    Parameters
    ----------
    plan : Sized
        The sized cluster (switches per tier of each auxiliary fabric).

    Returns
    -------
    list[tuple[str, str]]
        ``(fabric, device id)`` per switch.
    """
    return [
        (fabric, naming.aux_switch_id(prefix, tier, index))
        for fabric, prefix, clos in aux_fabrics(plan)
        for tier, count in enumerate(clos.switches_by_tier)
        for index in range(count)
    ]


def modules_by_device(links: Iterable[Link]) -> dict[str, dict[str, int]]:
    """Optic units plugged into each device by part [count] (a twin-port module counted once).

    Parameters
    ----------
    links : Iterable[Link]
        Links with their optic part and module slot at each end.

    Returns
    -------
    dict[str, dict[str, int]]
        Per device id: units per optic part [count].
    """
    slots: dict[tuple[str, str], str] = {}
    for link in links:
        if link.optic_a:
            slots[(link.a_device, link.a_module)] = link.optic_a
        if link.optic_b:
            slots[(link.b_device, link.b_module)] = link.optic_b
    modules: dict[str, dict[str, int]] = {}
    for (device, _), optic in slots.items():
        parts = modules.setdefault(device, {})
        parts[optic] = parts.get(optic, 0) + 1
    return modules


def optics_power_w(modules: Mapping[str, Mapping[str, int]], catalog: Catalog) -> dict[str, float]:
    """Power of the optics plugged into each device [W]: sum over its parts (by part id, so the
    sum does not depend on the order they were counted in) of units x the part's ``power_w``
    (``modules`` from :func:`modules_by_device`).

    Parameters
    ----------
    modules : Mapping[str, Mapping[str, int]]
        Per device id: units per optic part [count].
    catalog : Catalog
        Catalog of optics (``power_w`` [W] per unit).

    Returns
    -------
    dict[str, float]
        Optics power per device id [W].
    """
    power: dict[str, float] = {}
    for device, parts in modules.items():
        total = 0.0
        for optic, units in sorted(parts.items()):
            total += units * catalog.optics[optic].power_w
        power[device] = total
    return power


def inventory(*, plan: Sized, catalog: Catalog, optics_w: Mapping[str, float]) -> list[Device]:
    """Every device of ``plan`` in wiring order, switches and storage with the power of the optics
    ``optics_w`` [W] plugged into them (:func:`optics_power_w`).

    Parameters
    ----------
    plan : Sized
        The sized cluster.
    catalog : Catalog
        Catalog of servers, switches and storage (height [U], power [W]).
    optics_w : Mapping[str, float]
        Optics power per device id [W].

    Returns
    -------
    list[Device]
        Devices: compute (servers and scale-up trays), fabric switches, then auxiliary devices.
    """
    ids = FabricIds(plan)
    return [
        *_compute_devices(plan, catalog),
        *_fabric_switches(plan, catalog, ids, optics_w),
        *_auxiliary_devices(plan, optics_w),
    ]


class _Model(TypedDict):
    """A device's catalog part, as :class:`Device` names it."""

    model_id: str
    model_name: str
    rack_units: int


def _model(part: Server | Switch | Storage) -> _Model:
    """The ``model_id``, ``model_name`` and ``rack_units`` [U] of a device of catalog part ``part``."""
    return {"model_id": part.id, "model_name": part.name, "rack_units": part.rack_units}


def _server_aux_ports(plan: Sized) -> tuple[tuple[str, int], ...]:
    """A GPU server's storage, front-end, in-band and BMC ports with their speeds [Gb/s]."""
    aux = plan.auxiliary
    fe = aux.frontend
    kinds = (
        ("stor", aux.storage_pool.ports_per_node, aux.storage.port_speed_gbit_per_s),
        ("fe", fe.ports_per_node if fe.dedicated else 0, fe.port_speed_gbit_per_s),
        ("mgmt", aux.inband_ports_per_node, aux.inband_speed_gbit_per_s),
        ("bmc", aux.oob_ports_per_node, aux.oob_speed_gbit_per_s),
    )
    return tuple((naming.aux_port(kind, k), speed) for kind, count, speed in kinds for k in range(count))


def _mgmt_port(plan: Sized) -> tuple[tuple[str, int], ...]:
    """A switch's out-of-band management port and its speed."""
    return ((naming.SWITCH_MGMT_PORT, plan.auxiliary.oob_speed_gbit_per_s),)


def _compute_devices(plan: Sized, catalog: Catalog) -> list[Device]:
    """Servers (with GPUs, NICs and node-end optics) and the scale-up switch trays."""
    server = catalog.servers[plan.server_id]
    scale_up = plan.scale_up
    tray = catalog.switches[scale_up.switch_id] if scale_up.switch_id else None
    tray_w = scale_up.switches * tray.power_max_w if tray else 0.0
    # the plan's node power carries the trays' share; the trays are listed with their own
    server_w = plan.power.node_kw * 1000.0 - tray_w / plan.nodes
    ports = plan.server_ports
    interfaces = (
        tuple(
            naming.nic_port(
                *balanced_block(j, items=ports.ports, bins=ports.nics),
                leg if ports.planes_per_port > 1 else None,
            )
            for j in range(ports.ports)
            for leg in range(ports.planes_per_port)
        )
        if plan.topology.tiers
        else ()
    )
    aux_ports = _server_aux_ports(plan)
    interfaces += tuple(name for name, _ in aux_ports)
    devices = [
        Device(
            device_id=device_id,
            role="gpu-server",
            **_model(server),
            power_w=server_w,
            interfaces=interfaces,
            port_speed_gbit_per_s=ports.link_speed_gbit_per_s,
            port_speeds=aux_ports,
        )
        for device_id in server_ids(plan.nodes)
    ]
    if tray is not None:
        mgmt_port = _mgmt_port(plan)
        devices += [
            Device(
                device_id=device_id,
                role="scale-up-switch",
                **_model(tray),
                power_w=tray.power_max_w,
                interfaces=(naming.SWITCH_MGMT_PORT,),
                port_speed_gbit_per_s=scale_up.link_gbit_per_s,
                port_speeds=mgmt_port,
            )
            for device_id in _tray_ids(scale_up)
        ]
    return devices


@lru_cache(maxsize=64)
def server_ids(count: int) -> tuple[str, ...]:
    """Ids of ``count`` servers in order (:func:`planner.handoff.naming.server_id`)."""
    return tuple(naming.server_id(n, count=count) for n in range(count))


@cache
def switch_ports(count: int) -> tuple[str, ...]:
    """Names of a switch's ``count`` ports (one tuple per port count, shared)."""
    return tuple(naming.switch_port(i) for i in range(count))


def _fabric_switches(
    plan: Sized, catalog: Catalog, ids: FabricIds, optics_w: Mapping[str, float]
) -> list[Device]:
    """Leaves, spines and cores of every plane, with the optics on their ports."""
    topo, models = plan.topology, plan.switch_models
    model_of = {"leaf": models.leaf_id, "spine": models.spine_id, "core": models.core_id}
    name_of = {"leaf": ids.leaf, "spine": ids.spine, "core": ids.core}
    devices, mgmt_port, speed = [], _mgmt_port(plan), plan.server_ports.link_speed_gbit_per_s
    for tier in topo.tier_counts:
        model_id = model_of[tier.tier]
        assert model_id is not None
        switch = catalog.switches[model_id]
        interfaces = (*switch_ports(tier.ports_per_switch), naming.SWITCH_MGMT_PORT)
        for plane in range(topo.planes):
            for index in range(tier.switches_per_plane):
                device_id = name_of[tier.tier](plane, index)
                devices.append(
                    Device(
                        device_id=device_id,
                        role=tier.tier,
                        **_model(switch),
                        power_w=switch.power_max_w + optics_w.get(device_id, 0.0),
                        interfaces=interfaces,
                        port_speed_gbit_per_s=speed,
                        plane=plane,
                        rail=ids.leaf_rail(index) if tier.tier == "leaf" else None,
                        port_speeds=mgmt_port,
                    )
                )
    return devices


def _auxiliary_devices(plan: Sized, optics_w: Mapping[str, float]) -> list[Device]:
    """Storage units, and the storage, front-end, in-band and out-of-band switches by tier, with
    the optics on their ports."""
    aux = plan.auxiliary
    storage = aux.storage
    mgmt = (naming.aux_port("mgmt", 0), aux.inband_speed_gbit_per_s)
    bmc = (naming.aux_port("bmc", 0), aux.oob_speed_gbit_per_s)
    devices = []
    for i in range(aux.storage_units):
        device_id = naming.storage_id(i, count=aux.storage_units)
        devices.append(
            Device(
                device_id=device_id,
                role="storage",
                **_model(storage),
                power_w=storage.power_w + optics_w.get(device_id, 0.0),
                interfaces=(*(f"eth{p + 1}" for p in range(storage.network_ports)), mgmt[0], bmc[0]),
                port_speed_gbit_per_s=storage.port_speed_gbit_per_s,
                port_speeds=(mgmt, bmc),
            )
        )
    fe, mgmt_port = aux.frontend, _mgmt_port(plan)
    models = {
        "storage": ("storage-switch", aux.storage_switch, storage.port_speed_gbit_per_s),
        "frontend": ("frontend-switch", fe.switch, fe.port_speed_gbit_per_s),
        "inband": ("inband-switch", aux.inband_switch, aux.inband_speed_gbit_per_s),
        "oob": ("oob-switch", aux.oob_switch, aux.oob_speed_gbit_per_s),
    }
    for fabric, device_id in aux_switch_ids(plan):
        role, switch, speed = models[fabric]
        assert switch is not None  # a front-end fabric has switches only when it has a model
        ports = switch_ports(switch.radix_by_speed[speed])
        managed = fabric != "oob"
        devices.append(
            Device(
                device_id=device_id,
                role=role,
                **_model(switch),
                power_w=switch.power_max_w + optics_w.get(device_id, 0.0),
                interfaces=(*ports, naming.SWITCH_MGMT_PORT) if managed else ports,
                port_speed_gbit_per_s=speed,
                port_speeds=mgmt_port if managed else (),
            )
        )
    return devices
