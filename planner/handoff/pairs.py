"""The cables of a plan per pair of devices, counted in blocks from the wiring's rules.

:func:`planner.handoff.wiring.build_wiring` lays every cable port by port (one frozen
:class:`planner.handoff.wiring.Link` each: 17,836 for 1,024 GPUs on rail8-npo, 0.15 s of CPU).
A cable's length depends only on the two devices it joins
(:func:`planner.handoff.layout.cable_length_m`), so pricing the cables at their laid-out lengths
needs only the number of cables between each pair of devices, and the layout only the devices
with the power of their optics. :func:`cable_pairs` counts both from the same rules
(:mod:`planner.handoff.wiring`, module notes), a block of ports at a time:

- node-leaf: server ``n``'s links on plane ``p`` are ``c_p = |{t < T : t mod P = p}|`` (``T``
  links, ``P`` planes); they go to leaf ``k`` of the plane (its balanced block) when the leaves
  are per plane (``c_p`` cables), to leaf ``u x L_r + k`` for each ``u < c_p`` when they are per
  rail (``L_r`` leaves per rail, one cable each), to the plane's one leaf in a one-tier fabric;
- leaf-spine, two tiers: leaf to spine ``s`` carries ``|{t < U : t mod S = s}|`` cables (``U`` up
  ports, ``S`` spines); three tiers: one cable from each leaf to each spine of its pod;
- spine-core: spine ``j`` of a pod sends ``ceil(m / c)`` cables to each core of group ``j``;
- auxiliary fabrics: a device's consecutive endpoints fill the leaves' balanced blocks in
  order; lower switch ``a`` sends its balanced block of the links ``t`` between two tiers, link
  ``t`` to upper switch ``t mod n`` (``n`` switches above).

Optic units per device: ports of one module group (device, link class, side) share units, so a
group of ``n`` distinct ports holds ``ceil(n / ports per unit)`` units; every group's ports are
distinct, except that the two-tier leaf-spine wiring lands the last cable of one leaf and the
first of the next on the same spine port when ``U mod S != 0`` (``ports on spine s`` then
``(L - 1) b + c_s``, ``b = floor(U / S)``, ``c_s`` the cables per leaf, ``L`` leaves), as the
port-by-port wiring does.

``tests/test_cable_pairs.py`` checks that the counts, the optic units and the laid-out lengths
equal the port-by-port wiring's for every design preset and a spread of sizes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from planner.catalog import Catalog
from planner.fabric.media import LinkMedia
from planner.fabric.topology import SmallClos
from planner.handoff import naming
from planner.handoff.sized import Sized
from planner.handoff.wiring import (
    FabricIds,
    aux_endpoints,
    aux_fabrics,
    ports_per_module,
    server_ids,
)
from planner.units import ceil_div

Block = tuple[tuple[str, ...], tuple[tuple[str, int], ...]]
"""(A devices, ((B device, cables) ...)): every A device sends that many cables to each B device
(the A end the lower one, as in the wiring)."""


@dataclass(frozen=True)
class ClassPairs:
    """The cables of one link class by pair of devices, in blocks."""

    media: LinkMedia
    blocks: tuple[Block, ...]

    def pairs(self) -> dict[tuple[str, str], int]:
        """Cables [count] by (A device, B device)."""
        found: dict[tuple[str, str], int] = {}
        for a_devices, targets in self.blocks:
            for a in a_devices:
                for b, cables in targets:
                    found[(a, b)] = found.get((a, b), 0) + cables
        return found


@dataclass(frozen=True)
class CablePairs:
    """Every cable of a plan by link class and pair of devices, and the optic units per device."""

    classes: tuple[ClassPairs, ...]
    """Link classes with at least one cable, in wiring order."""
    modules: Mapping[str, Mapping[str, int]]
    """Optic units [count] by device and part, as
    :func:`planner.handoff.wiring.modules_by_device` counts them from the links."""


def residue_count(items: int, step: int, residue: int) -> int:
    """How many ``t < items`` have ``t mod step == residue`` [count].

    Parameters
    ----------
    items : int
        Range length ``t = 0 .. items - 1`` [count].
    step : int
        Modulus [count], above zero.
    residue : int
        Residue to match, ``0 <= residue < step`` [count].

    Returns
    -------
    int
        Matching ``t`` [count].

    >>> [residue_count(10, 4, r) for r in range(4)]
    [3, 3, 2, 2]
    """
    return len(range(residue, items, step))


def cable_pairs(*, plan: Sized, catalog: Catalog) -> CablePairs:
    """Every cable of ``plan`` by link class and pair of devices, with the optic units on each
    device: what :func:`planner.handoff.wiring.build_wiring` wires, counted in blocks (module
    notes).

    Parameters
    ----------
    plan
        The sized cluster (topology, media, auxiliary fabrics, server ports).
    catalog
        Component catalog: ports per unit of each optic part.

    Returns
    -------
    CablePairs
        Cables [count] per link class in blocks of device pairs, and optic units [count] per
        device and part; ``sum`` of a class's cables is its ``LinkMedia.links`` as wired.
    """
    ids = FabricIds(plan)
    media: dict[str, LinkMedia] = {m.link_class: m for m in (*plan.media, *plan.aux_media)}
    counter = _Units(ports_per_module(catalog))
    classes: list[ClassPairs] = []

    def add(
        link_class: str,
        blocks: list[Block],
        *,
        a_groups: Literal["side", "nic", "port"] = "side",
        spine_ports: bool = False,
    ) -> None:
        """Record a class's cables and the optic units at both ends: the A ends' ports in one group
        per device (``side``), per NIC (``nic``) or each port its own (``port``)."""
        blocks = [(a, targets) for a, targets in blocks if a and targets]
        if not blocks:
            return
        m = media[link_class]
        classes.append(ClassPairs(media=m, blocks=tuple(blocks)))
        lower, upper = m.lower.optic_id, m.upper.optic_id
        if lower is not None and a_groups == "nic":
            counter.add_nics(lower, [a for a_devices, _ in blocks for a in a_devices], plan)
        elif lower is not None:
            counter.add(lower, _links_at_a(blocks), per_port=a_groups == "port")
        if upper is not None:
            counter.add(upper, _two_tier_spine_ports(plan, ids) if spine_ports else _links_at_b(blocks))

    topo = plan.topology
    if topo.tiers:
        add("node_leaf", _node_leaf_blocks(plan, ids), a_groups="nic")
    if topo.tiers >= 2:
        add("leaf_spine", _leaf_spine_blocks(plan, ids), spine_ports=topo.tiers == 2)
    if topo.tiers >= 3:
        add("spine_core", _spine_core_blocks(plan, ids))
    endpoints = aux_endpoints(plan, ids)
    for fabric, prefix, clos in aux_fabrics(plan):
        if not clos.switches_by_tier:
            continue
        if f"{fabric}_access" in media:
            ends = [(device, len(ports)) for device, ports in endpoints[fabric]]
            add(f"{fabric}_access", _access_blocks(prefix, clos, ends), a_groups="port")
        if f"{fabric}_uplink" in media:
            add(f"{fabric}_uplink", _uplink_blocks(prefix, clos))
    return CablePairs(classes=tuple(classes), modules=counter.modules)


class _Units:
    """Optic units per device and part, added class by class in wiring order."""

    def __init__(self, per_unit: Mapping[str, int]) -> None:
        self.per_unit = per_unit
        self.modules: dict[str, dict[str, int]] = {}

    def _put(self, device: str, optic: str, units: int) -> None:
        parts = self.modules.setdefault(device, {})
        parts[optic] = parts.get(optic, 0) + units

    def add(self, optic: str, ports: Mapping[str, int], *, per_port: bool = False) -> None:
        """``ports`` distinct ports of each device in one group (or each port its own group)."""
        per_unit = self.per_unit[optic]
        for device, n in ports.items():
            self._put(device, optic, n if per_port else ceil_div(n, per_unit))

    def add_nics(self, optic: str, servers: Iterable[str], plan: Sized) -> None:
        """The server end of node-leaf: one group per NIC, its ports in balanced blocks (the
        legs of a port share its unit)."""
        ports = plan.server_ports
        base, extra = divmod(ports.ports, ports.nics)
        per_unit = self.per_unit[optic]
        units = extra * ceil_div(base + 1, per_unit) + (ports.nics - extra) * ceil_div(base, per_unit)
        for device in servers:
            self._put(device, optic, units)


def _links_at_a(blocks: list[Block]) -> dict[str, int]:
    """Cables [count] at each A device."""
    links: dict[str, int] = {}
    for a_devices, targets in blocks:
        sent = sum(n for _, n in targets) if len(targets) > 1 else targets[0][1]
        for a in a_devices:
            links[a] = links.get(a, 0) + sent
    return links


def _links_at_b(blocks: list[Block]) -> dict[str, int]:
    """Cables [count] at each B device."""
    links: dict[str, int] = {}
    for a_devices, targets in blocks:
        for b, n in targets:
            links[b] = links.get(b, 0) + n * len(a_devices)
    return links


def _node_leaf_blocks(plan: Sized, ids: FabricIds) -> list[Block]:
    """Server to leaf cables: the servers of each balanced block ``k`` (module notes)."""
    topo, nodes = plan.topology, plan.nodes
    planes, links = topo.planes, plan.server_ports.links
    per_plane = [residue_count(links, planes, p) for p in range(planes)]
    blocks = 1 if topo.tiers == 1 else ids.leaves_per_rail if ids.rail_leaves else ids.leaves_per_plane
    servers = server_ids(nodes)
    found: list[Block] = []
    first = 0
    for k, size in enumerate(_block_sizes(nodes, blocks)):
        # every plane's leaf k (c_p cables), or leaf u x L_r + k of each rail u (one cable)
        targets = tuple(
            (ids.leaf(plane, u * blocks + k), 1) if ids.rail_leaves else (ids.leaf(plane, k), count)
            for plane, count in enumerate(per_plane)
            for u in range(count if ids.rail_leaves else min(count, 1))
        )
        found.append((tuple(servers[first : first + size]), targets))
        first += size
    return found


def _leaf_spine_blocks(plan: Sized, ids: FabricIds) -> list[Block]:
    """Leaf to spine cables: the leaves of each plane and pod (module notes)."""
    topo = plan.topology
    up, spines = topo.leaf_up_ports, ids.spines_per_plane
    per_spine = [residue_count(up, spines, s) for s in range(spines)]
    found: list[Block] = []
    for plane in range(topo.planes):
        first_leaf = 0
        for pod, pod_leaves in enumerate(topo.leaves_per_pod):
            leaves = tuple(ids.leaf(plane, first_leaf + i) for i in range(pod_leaves))
            if topo.tiers == 2:
                targets = tuple((ids.spine(plane, s), c) for s, c in enumerate(per_spine) if c)
            else:
                targets = tuple((ids.spine(plane, pod * up + t), 1) for t in range(up))
            found.append((leaves, targets))
            first_leaf += pod_leaves
    return found


def _two_tier_spine_ports(plan: Sized, ids: FabricIds) -> dict[str, int]:
    """Distinct down ports in use on each spine of a two-tier fabric [count] (module notes)."""
    topo = plan.topology
    up, spines = topo.leaf_up_ports, ids.spines_per_plane
    leaves = sum(topo.leaves_per_pod)
    ports: dict[str, int] = {}
    for plane in range(topo.planes):
        for s in range(spines):
            if residue_count(up, spines, s):
                ports[ids.spine(plane, s)] = spine_down_ports(leaves=leaves, up=up, spines=spines, spine=s)
    return ports


def spine_down_ports(*, leaves: int, up: int, spines: int, spine: int) -> int:
    """Distinct down ports of two-tier spine ``spine`` the wiring lands cables on [count]: leaf
    ``i``'s up link ``t`` (``t mod S = spine``) on port ``i b + floor(t / S)``, ``b = floor(U / S)``;
    each leaf sends it ``c`` cables, so ``L c`` ports when ``c <= b``, else consecutive leaves share
    one and ``(L - 1) b + c`` (``L`` leaves, ``U`` up ports a leaf, ``S`` spines).

    Parameters
    ----------
    leaves : int
        Leaves ``L`` of the plane [count].
    up : int
        Up ports ``U`` of a leaf [count].
    spines : int
        Spines ``S`` of the plane [count].
    spine : int
        The spine, 0-based [count].

    Returns
    -------
    int
        Down ports of ``spine`` with a cable [count].

    >>> spine_down_ports(leaves=4, up=3, spines=2, spine=0), spine_down_ports(leaves=4, up=3, spines=2, spine=1)
    (5, 4)
    """
    c, b = residue_count(up, spines, spine), up // spines
    return leaves * c if c <= b else (leaves - 1) * b + c


def _spine_core_blocks(plan: Sized, ids: FabricIds) -> list[Block]:
    """Spine to core cables of every plane (module notes)."""
    topo = plan.topology
    up, group = topo.leaf_up_ports, topo.cores_per_group
    found: list[Block] = []
    for plane in range(topo.planes):
        for pod, pod_leaves in enumerate(topo.leaves_per_pod):
            per_core = ceil_div(pod_leaves, group)
            for j in range(up):
                cores = tuple((ids.core(plane, j * group + g), per_core) for g in range(group))
                found.append(((ids.spine(plane, pod * up + j),), cores))
    return found


def _access_blocks(prefix: str, clos: SmallClos, ends: list[tuple[str, int]]) -> list[Block]:
    """Endpoint to leaf cables of an auxiliary fabric: ``ends`` (device, ports) in order fill the
    leaves in balanced blocks (one switch: all of them)."""
    tiers = clos.switches_by_tier
    leaves = tiers[0] if len(tiers) > 1 else 1
    names = [naming.aux_switch_id(prefix, 0, i) for i in range(leaves)]
    base, extra = divmod(sum(n for _, n in ends), leaves)
    found: list[Block] = []
    leaf, room = 0, base + (extra > 0)  # ports left on the leaf being filled
    for device, n in ends:
        targets = []
        while n:
            while not room:
                leaf += 1
                room = base + (leaf < extra)
            taken = min(n, room)
            targets.append((names[leaf], taken))
            n -= taken
            room -= taken
        found.append(((device,), tuple(targets)))
    return found


def _uplink_blocks(prefix: str, clos: SmallClos) -> list[Block]:
    """Cables between the tiers of an auxiliary fabric: lower switch ``a`` sends its balanced
    block of links ``t``, link ``t`` to upper switch ``t mod n``."""
    tiers = clos.switches_by_tier
    found: list[Block] = []
    for tier, links in enumerate(clos.links_by_tier):
        lower, upper = tiers[tier], tiers[tier + 1]
        names = [naming.aux_switch_id(prefix, tier + 1, i) for i in range(upper)]
        first = 0
        for a, size in enumerate(_block_sizes(links, lower)):
            counts = [len(range(first + (s - first) % upper, first + size, upper)) for s in range(upper)]
            targets = tuple((names[s], c) for s, c in enumerate(counts) if c)
            found.append(((naming.aux_switch_id(prefix, tier, a),), targets))
            first += size
    return found


def _block_sizes(items: int, bins: int) -> list[int]:
    """Items in each bin of a balanced block split [count] (the first ``items mod bins`` bins take
    one more)."""
    base, extra = divmod(items, bins)
    return [base + (b < extra) for b in range(bins)]
