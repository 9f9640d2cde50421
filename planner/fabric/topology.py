"""Switch counts per tier and plane for leaf-spine (Clos) and three-tier fat-tree fabrics.

Notes
-----
Per plane, with switch radix ``k`` at the port speed, leaf down ports ``d`` and up ports
``u = k - d`` (``d = u = k/2`` when non-blocking), and ``q`` ports per node on the plane:

- endpoints per plane ``E = nodes * q``;
- one switch per plane when ``E <= k``;
- two tiers while the leaves fit under one spine layer (``leaves <= k``, i.e. up to ``k*d``
  endpoints, ``k^2/2`` non-blocking); rail-optimized leaves per rail ``= ceil(nodes / d)``,
  otherwise whole nodes per leaf ``floor(d / q)``; leaf uplinks are cabled in full so the
  design ratio holds, and spread evenly: ``spines`` is the smallest divisor of ``u`` with
  ``spines >= leaves * u / k``, so every leaf has ``u / spines`` links to every spine (72
  uplinks of a 144-port leaf over 18 spines at 32 leaves, not 16);
- three tiers above that: pods of ``k/2`` leaves with ``u`` spines each (every leaf has one
  uplink to every spine of its pod), spines non-blocking upward; spine ``j`` of every pod
  reaches core group ``j`` of ``c`` cores, ``c`` the smallest divisor of ``k/2`` with
  ``sum over pods of ceil(leaves_in_pod / c) <= k`` (a spine of a partial pod rounds its up
  links to a multiple of ``c``), ``cores = u c``; at most ``k`` pods: ``k^3/4`` endpoints for
  a non-blocking k-ary fat tree;
- four tiers above that: blocks of ``k/2`` pods; in a block, spine ``j`` of every pod has one
  link to each of the ``k/2`` cores of group ``j`` (``u k/2`` cores per block, each with one
  down link per pod of its block); core ``(j, x)`` of every block reaches top group ``(j, x)``
  of ``t`` top switches, ``t`` the smallest divisor of ``k/2`` with
  ``sum over blocks of ceil(pods_in_block / t) <= k`` (the three-tier rule one level up),
  ``tops = u (k/2) t``; at most ``k`` blocks: ``k^4/8`` leaves' worth of endpoints.

References
----------
Al-Fares, Loukissas, Vahdat, "A Scalable, Commodity Data Center Network Architecture",
SIGCOMM 2008 (k-ary fat tree: k^3/4 hosts, 5k^2/4 switches). NVIDIA DGX SuperPOD reference
architectures (rail-optimized leaves, rails meeting at the spine). Leiserson, "Fat-trees:
universal networks for hardware-efficient supercomputing", IEEE Trans. Computers C-34(10), 1985
(a fat tree of any height); ``docs/model.md``, "Four tiers".
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, NamedTuple

from planner.catalog.memo import IdentityCache
from planner.design import FabricParams
from planner.errors import InputError
from planner.i18n.message import msg
from planner.units import ceil_div

TierName = Literal["leaf", "spine", "core", "top"]


@dataclass(frozen=True)
class TierCount:
    """One switch layer, summed over planes."""

    tier: TierName
    switches_per_plane: int
    switches: int
    ports_per_switch: int
    down_ports_used: int
    up_ports_used: int

    @property
    def ports_used(self) -> int:
        return self.down_ports_used + self.up_ports_used

    @property
    def ports_provisioned(self) -> int:
        return self.switches * self.ports_per_switch

    @property
    def ports_free(self) -> int:
        return self.ports_provisioned - self.ports_used


@dataclass(frozen=True)
class Topology:
    """Switch and link counts of the compute fabric (all planes)."""

    tiers: int
    planes: int
    rails: int
    ports_per_gpu: int
    port_speed_gbit_per_s: int
    oversubscription: float
    nodes: int
    gpus_per_node: int
    ports_per_node_per_plane: int
    endpoints_per_plane: int
    radix: int
    leaf_down_ports: int
    leaf_up_ports: int
    pods_per_plane: int
    tier_counts: tuple[TierCount, ...]
    links_node_leaf: int
    links_leaf_spine: int
    links_spine_core: int
    max_gpus_two_tier: int
    max_gpus_three_tier: int
    leaves_per_pod: tuple[int, ...] = ()
    """Leaves of each pod of one plane (one entry, all leaves, for two tiers) [count]."""
    cores_per_group: int = 0
    """Cores reached by spine ``j`` of every pod (three tiers) [count per plane]."""
    ports_per_server: int = 0
    """Physical network ports of one server [count]."""
    gpus_per_port: int = 1
    """GPUs sharing one port [count]."""
    planes_per_port: int = 1
    """Planes each port is split into [count]."""
    links_core_top: int = 0
    """Links between cores and top switches, all planes (four tiers) [count]."""
    max_gpus_four_tier: int = 0
    """Largest GPU count a four-tier fabric of these switches holds [count]."""
    pods_per_block: tuple[int, ...] = ()
    """Pods of each core block of one plane (four tiers) [count]."""
    tops_per_group: int = 0
    """Top switches reached by core ``(j, x)`` of every block (four tiers) [count per plane]."""

    @property
    def links_per_leaf_spine_pair(self) -> int:
        """Links from one leaf to each spine it reaches: ``u / spines`` (two tiers), 1 (three, four)."""
        if self.tiers == 2:
            return self.leaf_up_ports // (self.switches_spine // self.planes)
        return 1 if self.tiers >= 3 else 0

    def tier(self, name: TierName) -> TierCount | None:
        """The counts of one tier, or ``None`` when the fabric has no such tier."""
        for t in self.tier_counts:
            if t.tier == name:
                return t
        return None

    def _switches(self, name: TierName) -> int:
        tier = self.tier(name)
        return tier.switches if tier else 0

    @property
    def switches_leaf(self) -> int:
        return self._switches("leaf")

    @property
    def switches_spine(self) -> int:
        return self._switches("spine")

    @property
    def switches_core(self) -> int:
        return self._switches("core")

    @property
    def switches_top(self) -> int:
        return self._switches("top")

    @property
    def switches_total(self) -> int:
        return sum(t.switches for t in self.tier_counts)

    @property
    def links_total(self) -> int:
        return self.links_node_leaf + self.links_leaf_spine + self.links_spine_core + self.links_core_top

    @property
    def min_switch_hops(self) -> int:
        """Switches crossed between two GPUs on the same leaf (1; 0 without a fabric)."""
        return 1 if self.tiers else 0

    @property
    def max_switch_hops(self) -> int:
        """Switches crossed on the longest path: 1, 3, 5 or 7 for one to four tiers (0 for none)."""
        return max(0, 2 * self.tiers - 1)


def leaf_port_split(*, radix: int, oversubscription: float) -> tuple[int, int]:
    """Leaf down and up ports for a down:up ratio: ``d = floor(k r / (r + 1))``, ``u = k - d``.

    Parameters
    ----------
    radix : int
        Ports of the leaf, ``k`` [count].
    oversubscription : float
        Down:up ratio, ``r`` [dimensionless].

    Returns
    -------
    tuple of int
        ``(down ports, up ports)`` [count].

    Examples
    --------
    >>> leaf_port_split(radix=64, oversubscription=1.0)
    (32, 32)
    >>> leaf_port_split(radix=64, oversubscription=3.0)
    (48, 16)
    """
    down = int(radix * oversubscription / (oversubscription + 1.0) + 1e-9)
    return down, radix - down


@dataclass(frozen=True)
class ServerPorts:
    """A server's side of the compute fabric: GPUs, NICs, ports and the links they make."""

    gpus: int
    """GPUs in the server [count]."""
    ports: int
    """Physical network ports: ``gpus * ports_per_gpu / gpus_per_port`` [count]."""
    nics: int
    """Fabric NICs [count]."""
    ports_per_nic: int
    """Ports cabled on each NIC [count] (the largest where the default spreads them unevenly)."""
    planes_per_port: int
    """Planes each port is split into [count]."""
    port_speed_gbit_per_s: int
    """Speed of one physical port [Gb/s]."""

    @property
    def links(self) -> int:
        """Switch links of the server: ports x planes per port [count]."""
        return self.ports * self.planes_per_port

    @property
    def link_speed_gbit_per_s(self) -> int:
        """Speed of one link, the switch port it lands on: port speed / planes per port [Gb/s]."""
        return self.port_speed_gbit_per_s // self.planes_per_port

    @property
    def per_gpu_gbit_per_s(self) -> float:
        """Scale-out line rate per GPU: ports x port speed / GPUs [Gb/s]."""
        return self.ports * self.port_speed_gbit_per_s / self.gpus


def server_ports(*, gpus_per_node: int, fabric: FabricParams, nic_ports: int) -> ServerPorts:
    """NICs, ports and links of one server, from the design's independent ratios.

    Parameters
    ----------
    gpus_per_node : int
        GPUs per server, ``g`` [count].
    fabric : FabricParams
        The design's fabric ratios (ports per GPU, GPUs per port, planes, NICs, port speed).
    nic_ports : int
        Ports of one NIC model [count].

    Returns
    -------
    ServerPorts
        Ports, NICs, ports per NIC, planes per port [count], port speed and per-GPU line rate
        [Gbit/s] of one server.

    Notes
    -----
    ports ``P = g p / s`` for ``g`` GPUs, ``p`` ports per GPU and ``s`` GPUs per port; links
    ``P x planes_per_port`` at ``port speed / planes_per_port``. NICs: ``nics_per_server`` when
    set, else ``P / ports_per_nic`` when that is set, else one NIC per GPU holding its ports
    (``g ceil(p / nic ports)``, the DGX layout) or, when GPUs share ports,
    ``ceil(P / nic ports)``.

    >>> sp = server_ports(gpus_per_node=8, fabric=_example(gpus_per_port=2), nic_ports=1)
    >>> (sp.ports, sp.nics, sp.per_gpu_gbit_per_s)
    (4, 4, 100.0)

    Raises
    ------
    InputError
        Naming the field whose ratio does not divide.
    """
    kept = _KEPT_SERVER_PORTS.get((fabric,), (gpus_per_node, nic_ports))
    if kept is not None:
        return kept
    ports = _port_count(gpus_per_node=gpus_per_node, fabric=fabric)
    nics, per_nic = _nics(ports=ports, gpus_per_node=gpus_per_node, fabric=fabric, nic_ports=nic_ports)
    server = ServerPorts(
        gpus_per_node, ports, nics, per_nic, fabric.planes_per_port, fabric.port_speed_gbit_per_s
    )
    return _KEPT_SERVER_PORTS.put((fabric,), (gpus_per_node, nic_ports), server)


_KEPT_SERVER_PORTS: IdentityCache[ServerPorts] = IdentityCache(max_entries=1024)
""":func:`server_ports` by the fabric, the server's GPUs and the NIC's ports: a sweep's sizes of
one design share one server."""


def _port_count(*, gpus_per_node: int, fabric: FabricParams) -> int:
    """Physical ports of a server, ``g p / s``; :class:`InputError` when ``s`` does not divide."""
    if (gpus_per_node * fabric.ports_per_gpu) % fabric.gpus_per_port:
        raise InputError(
            msg(
                "fabric.gpus_per_port: {per_port} GPUs per port do not divide the {gpus} GPUs of a server",
                per_port=fabric.gpus_per_port,
                gpus=gpus_per_node,
            )
        )
    return gpus_per_node * fabric.ports_per_gpu // fabric.gpus_per_port


def _nics(*, ports: int, gpus_per_node: int, fabric: FabricParams, nic_ports: int) -> tuple[int, int]:
    """(NICs, ports per NIC) of one server; see :func:`server_ports`."""
    nics, per_nic = fabric.nics_per_server, fabric.ports_per_nic
    if nics is None and per_nic is None:
        if fabric.gpus_per_port == 1:
            nics = gpus_per_node * ceil_div(fabric.ports_per_gpu, nic_ports)
        else:
            nics = ceil_div(ports, nic_ports)
        return nics, ceil_div(ports, nics)
    if nics is None:
        assert per_nic is not None
        if ports % per_nic:
            raise InputError(
                msg(
                    "fabric.ports_per_nic: {per_nic} ports per NIC do not divide the server's {ports} ports",
                    per_nic=per_nic,
                    ports=ports,
                )
            )
        nics = ports // per_nic
    elif per_nic is None:
        if ports % nics:
            raise InputError(
                msg(
                    "fabric.nics_per_server: {nics} NICs do not divide the server's {ports} ports",
                    nics=nics,
                    ports=ports,
                )
            )
        per_nic = ports // nics
    elif nics * per_nic != ports:
        raise InputError(
            msg(
                "fabric.nics_per_server: {nics} NICs x {per_nic} ports = {total}, "
                "the server has {ports} ports",
                nics=nics,
                per_nic=per_nic,
                total=nics * per_nic,
                ports=ports,
            )
        )
    if per_nic > nic_ports:
        raise InputError(
            msg(
                "fabric.ports_per_nic: {per_nic} ports per NIC, the NIC has {nic_ports}",
                per_nic=per_nic,
                nic_ports=nic_ports,
            )
        )
    return nics, per_nic


def _example(**changes: object) -> FabricParams:
    """A one-port-per-GPU HDR fabric with ``changes`` (for the doctests)."""
    base = {
        "family": "infiniband",
        "ports_per_gpu": 1,
        "port_speed_gbit_per_s": 200,
        "planes": 1,
        "rail_optimized": True,
        "switch_id": "qm8700_hdr",
        "nic_id": "cx6_hdr_200g",
        "optics_id": "qsfp112_200g_sr",
    }
    return FabricParams.model_validate({**base, **changes})


def ports_per_node_per_plane(*, gpus_per_node: int, fabric: FabricParams) -> int:
    """Links one node puts on each plane: ``gpus_per_node * ports_per_gpu / gpus_per_port *
    planes_per_port / planes``.

    Parameters
    ----------
    gpus_per_node : int
        GPUs per server [count].
    fabric : FabricParams
        The design's fabric ratios.

    Returns
    -------
    int
        Links per node per plane [count].

    Raises
    ------
    InputError
        ``fabric.planes`` does not divide the node's links.
    """
    total = _port_count(gpus_per_node=gpus_per_node, fabric=fabric) * fabric.planes_per_port
    if total % fabric.planes:
        raise InputError(
            msg(
                "fabric.planes: {planes} planes do not divide the {total} network ports "
                "of a {gpus_per_node}-GPU node (ports_per_gpu {ports_per_gpu})",
                planes=fabric.planes,
                total=total,
                gpus_per_node=gpus_per_node,
                ports_per_gpu=fabric.ports_per_gpu,
            )
        )
    return total // fabric.planes


def _leaves_per_plane(*, nodes: int, q: int, down: int, rail_optimized: bool) -> int:
    if rail_optimized:
        return q * ceil_div(nodes, down)
    return ceil_div(nodes, down // q)


def max_nodes(
    *,
    tiers: int,
    q: int,
    radix: int,
    down: int,
    rail_optimized: bool,
    spine_radix: int | None = None,
    core_radix: int | None = None,
) -> int:
    """Largest node count a fabric of ``tiers`` tiers holds (per plane; planes are copies).

    One switch holds ``radix // q`` nodes; one spine layer at most ``spine_radix`` leaves (each
    spine reaches every leaf); cores at most ``core_radix`` pods of ``spine_radix / 2`` leaves;
    top switches (the core model) at most ``core_radix`` blocks of ``core_radix / 2`` such pods.

    Parameters
    ----------
    tiers : int
        Switch tiers, 1 to 4 [count].
    q : int
        Ports a node puts on one plane [count].
    radix : int
        Ports of a leaf [count].
    down : int
        Down ports of a leaf [count].
    rail_optimized : bool
        Whether a leaf serves one rail of many nodes.
    spine_radix : int or None
        Ports of a spine; ``None``: ``radix`` [count].
    core_radix : int or None
        Ports of a core or top switch; ``None``: ``spine_radix`` [count].

    Returns
    -------
    int
        Nodes per plane [count].
    """
    spine_radix = spine_radix or radix
    core_radix = core_radix or spine_radix
    if tiers == 1:
        return radix // q
    max_leaves = {
        2: spine_radix,
        3: core_radix * (spine_radix // 2),
        4: core_radix * (core_radix // 2) * (spine_radix // 2),
    }[tiers]
    if rail_optimized:
        return (max_leaves // q) * down
    return max_leaves * (down // q)


def build_topology(
    *,
    nodes: int,
    gpus_per_node: int,
    fabric: FabricParams,
    radix: int,
    spine_radix: int | None = None,
    core_radix: int | None = None,
    scale_out: bool = True,
) -> Topology:
    """Count switches, ports and links per tier for ``nodes`` servers on ``fabric``.

    Parameters
    ----------
    nodes
        Servers [count], each with ``gpus_per_node`` GPUs.
    fabric
        The design's fabric parameters.
    radix
        Leaf switch ports at the fabric's port speed [count].
    spine_radix, core_radix
        Ports of the spine and core switch models when they differ from the leaf's [count].
    scale_out
        ``False`` when the cluster fits one scale-up domain and no fabric is asked for: zero
        tiers, no switches and no links (the limits are still reported).

    Returns
    -------
    Topology
        Tiers, switches, ports and links per tier [count], and the node limits of each tier count.

    Raises
    ------
    InputError
        When a node's ports on one plane do not fit a leaf, or the fabric would need more than
        four tiers (the message gives the largest GPU count the switch supports).
    """
    spine_k, core_k = spine_radix or radix, core_radix or spine_radix or radix
    q, down, up, limits, ports_per_server = _fabric_ports(fabric, gpus_per_node, radix, spine_k, core_k)
    _check_four_tier_limit(nodes, gpus_per_node, limits=limits, radix=radix, fabric=fabric)
    shape = (
        _shape(
            nodes=nodes, q=q, down=down, up=up, limits=limits, fabric=fabric, spine_k=spine_k, core_k=core_k
        )
        if scale_out
        else _NO_FABRIC
    )
    endpoints = nodes * q if scale_out else 0
    tiers, planes = shape.tiers, fabric.planes
    return Topology(
        tiers=tiers,
        planes=planes,
        rails=(q if fabric.rail_optimized else 1) * planes if tiers else 0,
        ports_per_gpu=fabric.ports_per_gpu,
        port_speed_gbit_per_s=fabric.port_speed_gbit_per_s,
        oversubscription=fabric.oversubscription if tiers > 1 else 1.0,
        nodes=nodes,
        gpus_per_node=gpus_per_node,
        ports_per_node_per_plane=q,
        endpoints_per_plane=endpoints,
        radix=radix,
        leaf_down_ports=down if tiers > 1 else radix if tiers else 0,
        leaf_up_ports=up if tiers > 1 else 0,
        pods_per_plane=shape.pods,
        tier_counts=_tier_counts(
            shape, endpoints=endpoints, planes=planes, radix=radix, spine_k=spine_k, core_k=core_k
        ),
        links_node_leaf=endpoints * planes,
        links_leaf_spine=shape.leaf_up_links * planes,
        links_spine_core=shape.spine_core_links * planes,
        max_gpus_two_tier=limits[2] * gpus_per_node,
        max_gpus_three_tier=limits[3] * gpus_per_node,
        leaves_per_pod=shape.leaves_per_pod,
        cores_per_group=shape.cores_per_group,
        ports_per_server=ports_per_server,
        gpus_per_port=fabric.gpus_per_port,
        planes_per_port=fabric.planes_per_port,
        links_core_top=shape.core_top_links * planes,
        max_gpus_four_tier=limits[4] * gpus_per_node,
        pods_per_block=shape.pods_per_block,
        tops_per_group=shape.tops_per_group,
    )


class _FabricPorts(NamedTuple):
    """What :func:`build_topology` reads off the fabric and its switches alone: the same at every
    size of a design."""

    q: int
    """Ports a node puts on one plane [count]."""
    down: int
    """Leaf down ports [count]."""
    up: int
    """Leaf up ports [count]."""
    limits: Mapping[int, int]
    """The most nodes per plane of one to four tiers [count]."""
    ports_per_server: int
    """Physical fabric ports of a server [count]."""


_KEPT_PORTS: IdentityCache[_FabricPorts] = IdentityCache(max_entries=1024)
""":func:`_fabric_ports` by the fabric and the counts it is read with: a sweep's sizes of one
design share them."""


def _fabric_ports(
    fabric: FabricParams, gpus_per_node: int, radix: int, spine_k: int, core_k: int
) -> _FabricPorts:
    """A node's ports per plane, the leaf's port split and the node limits of each tier count,
    checked that a node fits a leaf; kept per fabric and switch radices (:data:`_KEPT_PORTS`)."""
    values = (gpus_per_node, radix, spine_k, core_k)
    kept = _KEPT_PORTS.get((fabric,), values)
    if kept is not None:
        return kept
    q = ports_per_node_per_plane(gpus_per_node=gpus_per_node, fabric=fabric)
    down, up = leaf_port_split(radix=radix, oversubscription=fabric.oversubscription)
    _check_node_fits(q=q, down=down, radix=radix, fabric=fabric)
    limits = _node_limits(q=q, radix=radix, down=down, fabric=fabric, spine_k=spine_k, core_k=core_k)
    ports = _port_count(gpus_per_node=gpus_per_node, fabric=fabric)
    return _KEPT_PORTS.put((fabric,), values, _FabricPorts(q, down, up, MappingProxyType(limits), ports))


def _check_four_tier_limit(
    nodes: int, gpus_per_node: int, *, limits: Mapping[int, int], radix: int, fabric: FabricParams
) -> None:
    """The largest fabric is four tiers: more nodes are refused, naming the design's GPU limit."""
    gpus, max_gpus = nodes * gpus_per_node, limits[4] * gpus_per_node
    if nodes > limits[4]:
        raise InputError(
            msg(
                "gpus: {gpus} GPUs exceed the four-tier limit of this design "
                "({max_gpus} GPUs with {radix}-port switches at {gbit}G; allowed: 1 to {max_gpus})",
                gpus=gpus,
                max_gpus=max_gpus,
                radix=radix,
                gbit=fabric.port_speed_gbit_per_s,
            )
        )


def _node_limits(
    *, q: int, radix: int, down: int, fabric: FabricParams, spine_k: int, core_k: int
) -> dict[int, int]:
    """The most nodes (per plane) a fabric of one to four tiers holds."""
    return {
        t: max_nodes(
            tiers=t,
            q=q,
            radix=radix,
            down=down,
            rail_optimized=fabric.rail_optimized,
            spine_radix=spine_k,
            core_radix=core_k,
        )
        for t in (1, 2, 3, 4)
    }


def _check_node_fits(*, q: int, down: int, radix: int, fabric: FabricParams) -> None:
    """A node's ports on one plane must fit a leaf (its down ports unless rail-optimized)."""
    if q > down and q > radix:
        raise InputError(
            msg(
                "fabric.switch_id: a node puts {q} ports on each plane but the switch has only "
                "{radix} ports at {gbit}G; use more planes or a larger switch",
                q=q,
                radix=radix,
                gbit=fabric.port_speed_gbit_per_s,
            )
        )
    if not fabric.rail_optimized and down // q == 0:
        raise InputError(
            msg(
                "fabric.rail_optimized: a node's {q} ports per plane exceed a leaf's {down} down "
                "ports; set rail_optimized true or use more planes",
                q=q,
                down=down,
            )
        )


class _Shape(NamedTuple):
    """Switches per plane at each tier of the smallest fabric that holds the nodes (a named tuple:
    made at most sizes of a sweep, it costs less to build than a frozen dataclass)."""

    tiers: int
    leaves: int
    spines: int
    cores: int
    pods: int
    leaf_up_links: int
    spine_core_links: int = 0
    leaves_per_pod: tuple[int, ...] = ()
    cores_per_group: int = 0
    tops: int = 0
    core_top_links: int = 0
    pods_per_block: tuple[int, ...] = ()
    tops_per_group: int = 0


_NO_FABRIC = _Shape(tiers=0, leaves=0, spines=0, cores=0, pods=0, leaf_up_links=0)
"""The shape of a cluster that needs no scale-out fabric."""
_ONE_LEAF = _Shape(tiers=1, leaves=1, spines=0, cores=0, pods=0, leaf_up_links=0)
"""The shape of a fabric whose nodes fit one leaf per plane."""


def smallest_divisor_at_least(n: int, minimum: int) -> int:
    """The smallest divisor of ``n`` that is ``>= minimum`` (``n`` itself when none is smaller).

    The even-spread rule: a switch with ``n`` uplinks reaches ``s`` upper switches with ``n / s``
    links each only if ``s`` divides ``n``.

    Parameters
    ----------
    n : int
        Number to divide [count].
    minimum : int
        Least divisor accepted [count].

    Returns
    -------
    int
        The divisor [count]; ``minimum`` when it exceeds ``n``.

    Examples
    --------
    >>> smallest_divisor_at_least(72, 16)
    18
    >>> smallest_divisor_at_least(32, 8)
    8
    """
    return next(s for s in range(max(minimum, 1), n + 1) if n % s == 0) if minimum <= n else minimum


def split_pods(leaves: int, pod_leaves: int) -> tuple[int, ...]:
    """Leaves per pod: full pods of ``pod_leaves`` and one partial pod for the rest.

    Parameters
    ----------
    leaves : int
        Leaves to group [count].
    pod_leaves : int
        Leaves of a full pod [count].

    Returns
    -------
    tuple of int
        Leaves of each pod [count].
    """
    full, rest = divmod(leaves, pod_leaves)
    return (pod_leaves,) * full + ((rest,) if rest else ())


def cores_per_group(pods: tuple[int, ...], *, pod_leaves: int, core_k: int) -> int:
    """Cores under one spine index: the smallest divisor ``c`` of ``pod_leaves`` whose groups fit.

    Spine ``j`` of a pod with ``m`` leaves has ``ceil(m / c) c`` up links, ``ceil(m / c)`` to each
    of the ``c`` cores of group ``j``; a core's ports hold ``sum ceil(m / c)`` links.
    ``c = pod_leaves`` always fits while pods ``<= core_k``.

    Parameters
    ----------
    pods : tuple of int
        Leaves of each pod, ``m`` [count].
    pod_leaves : int
        Leaves of a full pod [count].
    core_k : int
        Ports of a core [count].

    Returns
    -------
    int
        Cores per group, ``c`` [count].
    """
    return next(
        c
        for c in range(1, pod_leaves + 1)
        if pod_leaves % c == 0 and sum(ceil_div(m, c) for m in pods) <= core_k
    )


def _shape(
    *,
    nodes: int,
    q: int,
    down: int,
    up: int,
    limits: Mapping[int, int],
    fabric: FabricParams,
    spine_k: int,
    core_k: int,
) -> _Shape:
    if nodes <= limits[1]:
        return _ONE_LEAF
    leaves = _leaves_per_plane(nodes=nodes, q=q, down=down, rail_optimized=fabric.rail_optimized)
    if nodes > limits[3]:
        return four_tier_shape(leaves=leaves, up=up, spine_k=spine_k, core_k=core_k)
    return clos_shape(leaves=leaves, up=up, two_tier=nodes <= limits[2], spine_k=spine_k, core_k=core_k)


def four_tier_shape(*, leaves: int, up: int, spine_k: int, core_k: int) -> _Shape:
    """Spines, cores and top switches above ``leaves`` leaves of ``up`` uplinks (four tiers).

    Pods of ``spine_k / 2`` leaves with ``up`` spines; blocks of ``core_k / 2`` pods. A spine has
    one link to each of the ``g = spine_k / 2`` cores of its group in its block (cabled in full,
    as leaf uplinks are); core ``(j, x)`` of a block with ``b`` pods has ``ceil(b / t) t`` up links,
    ``ceil(b / t)`` to each of the ``t`` top switches of group ``(j, x)``.

    Parameters
    ----------
    leaves : int
        Leaves [count].
    up : int
        Up ports of a leaf [count].
    spine_k : int
        Ports of a spine [count].
    core_k : int
        Ports of a core or top switch [count].

    Returns
    -------
    _Shape
        Switches per tier, pods, links between tiers and group sizes [count].

    Examples
    --------
    >>> s = four_tier_shape(leaves=4096, up=32, spine_k=64, core_k=64)  # 131,072 NDR endpoints
    >>> (s.spines, s.cores, s.tops, s.tops_per_group)
    (4096, 4096, 2048, 2)
    """
    pod_leaves, block_pods = spine_k // 2, core_k // 2
    pods = split_pods(leaves, pod_leaves)
    blocks = split_pods(len(pods), block_pods)
    group = spine_k // 2
    tops_per_group = cores_per_group(blocks, pod_leaves=block_pods, core_k=core_k)
    cores_per_block = up * group
    return _Shape(
        tiers=4,
        leaves=leaves,
        spines=len(pods) * up,
        cores=len(blocks) * cores_per_block,
        pods=len(pods),
        leaf_up_links=leaves * up,
        spine_core_links=len(pods) * up * group,
        leaves_per_pod=pods,
        cores_per_group=group,
        tops=cores_per_block * tops_per_group,
        core_top_links=cores_per_block * sum(ceil_div(b, tops_per_group) * tops_per_group for b in blocks),
        pods_per_block=blocks,
        tops_per_group=tops_per_group,
    )


def clos_shape(*, leaves: int, up: int, two_tier: bool, spine_k: int, core_k: int) -> _Shape:
    """Spines, cores and links above ``leaves`` leaves of ``up`` uplinks, spread evenly.

    Parameters
    ----------
    leaves : int
        Leaves [count].
    up : int
        Up ports of a leaf [count].
    two_tier : bool
        Whether one spine layer joins every leaf.
    spine_k : int
        Ports of a spine [count].
    core_k : int
        Ports of a core [count].

    Returns
    -------
    _Shape
        Switches per tier, pods, links between tiers and cores per group [count].
    """
    leaf_up_links = leaves * up
    if two_tier:
        spines = smallest_divisor_at_least(up, ceil_div(leaf_up_links, spine_k))
        return _Shape(
            tiers=2,
            leaves=leaves,
            spines=spines,
            cores=0,
            pods=0,
            leaf_up_links=leaf_up_links,
            leaves_per_pod=(leaves,),
        )
    # pods of spine_k / 2 leaves, each pod with as many spines as a leaf has up ports
    pod_leaves = spine_k // 2
    pods = split_pods(leaves, pod_leaves)
    group = cores_per_group(pods, pod_leaves=pod_leaves, core_k=core_k)
    return _Shape(
        tiers=3,
        leaves=leaves,
        spines=len(pods) * up,
        cores=up * group,
        pods=len(pods),
        leaf_up_links=leaf_up_links,
        spine_core_links=up * sum(ceil_div(m, group) * group for m in pods),
        leaves_per_pod=pods,
        cores_per_group=group,
    )


def _tier_counts(
    shape: _Shape, *, endpoints: int, planes: int, radix: int, spine_k: int, core_k: int
) -> tuple[TierCount, ...]:
    """Switches and used ports of each tier over all planes."""
    # (tier, switches per plane, radix, down links, up links): each tier's up links are the next tier's down
    layers: tuple[tuple[TierName, int, int, int, int], ...] = (
        ("leaf", shape.leaves, radix, endpoints, shape.leaf_up_links),
        ("spine", shape.spines, spine_k, shape.leaf_up_links, shape.spine_core_links),
        ("core", shape.cores, core_k, shape.spine_core_links, shape.core_top_links),
        ("top", shape.tops, core_k, shape.core_top_links, 0),
    )
    return tuple(
        TierCount(
            tier=tier,
            switches_per_plane=switches,
            switches=switches * planes,
            ports_per_switch=ports,
            down_ports_used=down * planes,
            up_ports_used=up * planes,
        )
        for tier, switches, ports, down, up in layers[: shape.tiers]
    )


@dataclass(frozen=True)
class SmallClos:
    """A non-blocking folded Clos for an auxiliary fabric (storage, management)."""

    endpoints: int
    radix: int
    switches_by_tier: tuple[int, ...]
    """Switches of each tier, leaves first [count]."""
    links_by_tier: tuple[int, ...]
    """Links between tier ``i`` and ``i + 1`` [count]."""

    @property
    def tiers(self) -> int:
        return len(self.switches_by_tier)

    def _at(self, tier: int) -> int:
        return self.switches_by_tier[tier] if tier < self.tiers else 0

    @property
    def leaves(self) -> int:
        return self._at(0)

    @property
    def spines(self) -> int:
        return self._at(1)

    @property
    def cores(self) -> int:
        """Switches above the spine layer (every upper tier of a fabric of four or more)."""
        return sum(self.switches_by_tier[2:])

    @property
    def links_leaf_spine(self) -> int:
        return self.links_by_tier[0] if self.links_by_tier else 0

    @property
    def links_spine_core(self) -> int:
        return sum(self.links_by_tier[1:])

    @property
    def switches(self) -> int:
        return sum(self.switches_by_tier)


@functools.lru_cache(maxsize=1024, typed=True)
def small_clos(*, endpoints: int, radix: int) -> SmallClos:
    """Switches for ``endpoints`` ports on ``radix``-port switches, growing a tier at a time.

    One switch if they fit; leaves of ``k/2`` down ports under the evenly spread spine and core
    rules of the compute fabric (:func:`clos_shape`) up to ``k^3/4``; above that a ``t``-tier
    k-ary fat tree (``2 (k/2)^t`` endpoints): tier ``i < t`` buys whole blocks,
    ``ceil(E / (k/2)^i) (k/2)^(i-1)`` switches, each with ``k/2`` links up, and the top tier
    ``ceil(links / k)``. So a management or storage fabric never runs out where the compute
    fabric fits: it grows a spine, core or further aggregation layer (the count a chassis of the
    same switch silicon would hold).

    Parameters
    ----------
    endpoints : int
        Ports to connect, ``E`` [count].
    radix : int
        Ports of the switch, ``k`` [count].

    Returns
    -------
    SmallClos
        Switches per tier and links between tiers [count]; the same frozen object for the same
        arguments (kept for 1,024 of them: a sweep's designs share their storage and management
        fabrics at each size).

    Examples
    --------
    >>> c = small_clos(endpoints=100, radix=64)
    >>> (c.leaves, c.spines, c.cores, c.links_leaf_spine)
    (4, 2, 0, 128)
    >>> c = small_clos(endpoints=600, radix=32)  # pods 16+16+6 leaves, c = 2 cores per group
    >>> (c.leaves, c.spines, c.cores)
    (38, 48, 32)
    >>> small_clos(endpoints=16_500, radix=32).switches_by_tier  # 8,192 < E <= 131,072
    (1032, 1040, 1280, 640)
    """
    if endpoints <= 0:
        return SmallClos(endpoints, radix, (), ())
    if endpoints <= radix:
        return SmallClos(endpoints, radix, (1,), ())
    half = radix // 2
    leaves = ceil_div(endpoints, half)
    if leaves <= radix * half:
        shape = clos_shape(
            leaves=leaves, up=radix - half, two_tier=leaves <= radix, spine_k=radix, core_k=radix
        )
        if shape.tiers == 2:
            return SmallClos(endpoints, radix, (leaves, shape.spines), (shape.leaf_up_links,))
        return SmallClos(
            endpoints,
            radix,
            (leaves, shape.spines, shape.cores),
            (shape.leaf_up_links, shape.spine_core_links),
        )
    tiers = next(t for t in range(4, 64) if endpoints <= 2 * half**t)
    below = [ceil_div(endpoints, half**i) * half ** (i - 1) for i in range(1, tiers)]
    links = [n * half for n in below]
    return SmallClos(endpoints, radix, (*below, ceil_div(links[-1], radix)), tuple(links))
