"""The one collective model: time and busbw of NCCL-style collectives on a cluster's fabric.

Every bandwidth and collective-latency figure the product shows comes from here: the engine's
``Plan.bandwidth`` (busbw at 1 GiB, the curve over message sizes, the bounds, the 8-byte
all-reduce latency) and :mod:`planner.performance` (Workload, Reliability, uncertainty).

A fabric is a ladder of levels: the scale-up domain (NVLink, BLink, ...), then the network's
leaf, spine and core tiers. Each level has an effective bandwidth per GPU (line rate x protocol
efficiency, divided by the oversubscription above the leaf), a per-step latency alpha, a reach
(how many contiguous scale-up domains it joins) and, where its switches reduce (NVLink SHARP in
the NVSwitch, SHARP in an InfiniBand switch), the effective bandwidth of that reduction. A group
of ``n`` GPUs with ``m`` of them in each scale-up domain spans ``g = ceil(n / m)`` domains and
climbs to the lowest level that reaches ``g`` domains; its network steps pay that level's alpha,
and its network bandwidth is the smallest of the levels it crosses.

Notes
-----
alpha-beta costs for a message of ``S`` bytes (nccl-tests convention: ``S`` is the whole
buffer; for all-to-all the buffer one GPU sends), scale-up bandwidth ``B_up``, NVLS bandwidth
``B_nvls``, network bandwidth ``B_net`` and in-network (SHARP) bandwidth ``B_sharp`` per GPU,
``alpha_up``, ``alpha_nvls`` and ``alpha_net`` per step::

    all-reduce   ring          2 A_ring                    + 2(n-1)/n S / B
                 tree          2 ceil(log2 n) alpha_net    + 2 S / B
                 hierarchical  2(m-1) alpha_up + 2(g-1) alpha_net + 2(n-1)/n S / B
                 nvls          alpha_nvls + 2 ceil(log2 g) alpha_net
                               + max(S / B_nvls, tau(g) S / (m B_net))
                               (tau = 1 on two domains, else 2: the NVLS tree's double binary
                               tree, :func:`nvls_tree_shard_trips`)
                 in_network    A_up + 2 alpha_net + max(U, S / (m B_sharp))
    all-gather,  ring          A_ring                      + (n-1)/n S / B
    reduce-scat. hierarchical  (m-1) alpha_up + (g-1) alpha_net + (n-1)/n S / B
    broadcast    ring (chain)  A_ring                      + S / B
                 tree          ceil(log2 n) alpha_net      + 2 S / B
    all-to-all   direct        ceil(log2 n) alpha_net
                               + max((m-1)/n S / B_up, (n-m)/n S / B_net)

with ``A_ring = (n-g) alpha_up + (g-1) alpha_net``: a chunk pipelined round a ring of ``g``
domains crosses the network on ``g-1`` of its ``n-1`` hops and NVLink on the rest, each hop at
its own latency (NCCL's tuning model, ``src/graph/tuning.cc``: ``nInterSteps = 2(nNodes-1)`` of
an all-reduce's ``2(nRanks-1)`` steps pay the network latency, the others the intra-node one);
with ``m = 1`` (one GPU per domain) every hop is a network hop. ``B = min(B_up, m B_net)``:
chunks are pipelined through the levels, so the slowest level bounds the bandwidth term. Across
domains the NVLS tree is also held to its per-head ceiling ``C(g)``
(:func:`nvls_tree_cap_gbyte_per_s`): its NVLS term is ``max(S / B_nvls, 2(n-1)/n S / C(g))``. In-network reduction reduces inside the domain with the faster of
ring (``A_up = 2(m-1) alpha_up``, ``U = 2(n-1)/n S / B_up``) and NVLS (``A_up = alpha_nvls``,
``U = S / B_nvls``), then each GPU sends its ``1/m`` shard to the switch tree once. NVLS: each
GPU pushes its buffer into the NVSwitch once and receives the reduced result once (multicast),
so its time does not grow with ``m``; across domains the per-GPU shards go through a tree
(NCCL's NVLS_TREE). When the whole group sits in one scale-up domain the network terms vanish
and ``alpha_net`` is ``alpha_up``. ``auto`` takes the algorithm of least time, as NCCL's tuner
does. busbw = algbw x factor, with the nccl-tests factors: all-reduce ``2(n-1)/n``;
all-gather, reduce-scatter, all-to-all ``(n-1)/n``; broadcast 1. The level named as bound is
the one whose bandwidth term is the largest (ties go to the lower level); ``regime`` says
whether latency or bandwidth dominates the time.

The coefficients (scale-up ring efficiency, scale-up and NVLS step latency, NVLS and SHARP
efficiency, SerDes+FEC latency) are catalog records (``data/collectives.yaml``), overridable
with ``--catalog``; see :class:`Coefficients`.

References
----------
R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of Collective Communication Operations in
MPICH", IJHPCA 19(1), 2005 (ring and tree alpha-beta costs). P. Sanders, J. Speck, J. L. Traeff,
"Two-tree algorithms for full bandwidth broadcast, reduction and scan", Parallel Computing 35,
2009 (NCCL's double binary tree). R. L. Graham et al., "Scalable Hierarchical Aggregation
Protocol (SHArP)", COMHPC 2016 (in-network reduction: each GPU sends and receives its data
once). NVIDIA NCCL 2.17 release notes (NVLink SHARP on NVSwitch systems). NVIDIA nccl-tests
``doc/PERFORMANCE.md`` (busbw factors).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple, get_args

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.errors import InputError
from planner.i18n.message import kept_msg, msg
from planner.inputs.scenario import InSwitchReduction
from planner.units import GIB, KIB, gbit_per_s_to_gbyte_per_s

Collective = Literal["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"]
Algorithm = Literal["auto", "ring", "tree", "hierarchical", "nvls", "in_network", "direct"]
Regime = Literal["latency", "bandwidth", "none"]

COLLECTIVES: tuple[Collective, ...] = get_args(Collective)

MESSAGE_SIZES_BYTES: tuple[int, ...] = tuple(KIB * 2**i for i in range(24))
"""1 KiB ... 8 GiB in powers of two: the sizes nccl-tests sweeps."""

LEVEL_SCALE_UP = "scale-up"
LEVEL_NETWORK = "network"
"""The plan's coarse bound: any of leaf, spine and core."""
LEVEL_LEAF = "leaf"
LEVEL_SPINE = "spine"
LEVEL_CORE = "core"
LEVEL_NONE = "none"
"""Bound level of a collective on one GPU (nothing moves)."""

_APPLICABLE: dict[Collective, tuple[Algorithm, ...]] = {
    "all_reduce": ("ring", "tree", "hierarchical", "nvls", "in_network"),
    "all_gather": ("ring", "hierarchical"),
    "reduce_scatter": ("ring", "hierarchical"),
    "broadcast": ("ring", "tree"),
    "all_to_all": ("direct",),
}


# --- coefficients (catalog records) ------------------------------------------------------------

COEFFICIENT_IDS = (
    "scale_up_ring_efficiency",
    "scale_up_alpha_us",
    "nvls_efficiency",
    "nvls_alpha_us",
    "in_network_efficiency",
    "serdes_fec_ns_per_link",
    "nvls_tree_head_nvlink4_two_domains_gbyte_per_s",
    "nvls_tree_head_nvlink4_gbyte_per_s",
    "nvls_tree_head_nvlink5_two_domains_gbyte_per_s",
    "nvls_tree_head_nvlink5_gbyte_per_s",
)
"""Ids of the collective model's records in the catalog's ``sizing_rules`` family."""


NVLINK5_GBYTE_PER_S = 900.0
"""NVLink 5 line rate per GPU and direction (18 links x 50 GB/s, Blackwell) [GB/s]."""

MAX_NVLS_HEADS = 32
"""Most NVLS heads (channels of the NVLS-tree graph) per domain: NCCL's ``NCCL_MAX_NVLS_ARITY``
(``src/include/device.h``); one per GPU of the domain up to that [count]."""


@dataclass(frozen=True)
class Coefficients:
    """The collective model's coefficients, read from the catalog (``data/collectives.yaml``)."""

    scale_up_ring_efficiency: float
    """Achieved / line rate of a scale-up ring all-reduce [-] (calibrated: 365 of 450 GB/s)."""
    scale_up_alpha_us: float
    """Per-step latency of a scale-up collective step [us]."""
    nvls_efficiency: float
    """NVLS all-reduce algbw / scale-up line rate per direction [-] (calibrated: 480 GB/s busbw)."""
    nvls_alpha_us: float
    """Latency of one NVLS all-reduce inside a domain [us]."""
    in_network_efficiency: float
    """SHARP streaming rate / the NIC's NCCL rate [-]."""
    serdes_fec_ns_per_link: float
    """SerDes + RS-FEC latency per link [ns]."""
    nvls_tree_head_nvlink4_two_domains_gbyte_per_s: float
    """NVLS-tree busbw ceiling per NVLS head, NVLink 4 (Hopper), two domains [GB/s] (NCCL tuning)."""
    nvls_tree_head_nvlink4_gbyte_per_s: float
    """The same on three or more domains [GB/s]."""
    nvls_tree_head_nvlink5_two_domains_gbyte_per_s: float
    """NVLS-tree busbw ceiling per NVLS head, NVLink 5 (Blackwell), two domains [GB/s]."""
    nvls_tree_head_nvlink5_gbyte_per_s: float
    """The same on three or more domains [GB/s]."""

    def nvls_tree_head_gbyte_per_s(self, *, scale_up_line_gbyte_per_s: float) -> tuple[float, float]:
        """(two domains, three or more) NVLS-tree busbw ceiling per head [GB/s] of a GPU whose
        scale-up line rate per direction is given: NVLink 5 (Blackwell) at 900 GB/s and above,
        else NVLink 4 (Hopper; NCCL keys its constants on the compute capability, which the GPU
        record does not carry, and NVLink 5 ships only with Blackwell)."""
        if scale_up_line_gbyte_per_s >= NVLINK5_GBYTE_PER_S:
            return (
                self.nvls_tree_head_nvlink5_two_domains_gbyte_per_s,
                self.nvls_tree_head_nvlink5_gbyte_per_s,
            )
        return (self.nvls_tree_head_nvlink4_two_domains_gbyte_per_s, self.nvls_tree_head_nvlink4_gbyte_per_s)


def coefficients(catalog: Catalog) -> Coefficients:
    """The model's coefficients from ``catalog`` (each a ``sizing_rules`` record).

    Parameters
    ----------
    catalog : Catalog
        The catalog whose ``sizing_rules`` hold the coefficients.

    Returns
    -------
    Coefficients
        Ring and NVLS efficiencies [fraction], per-step alphas [us], the in-network efficiency
        [fraction] and the SerDes+FEC latency per link [ns].

    Raises
    ------
    CatalogError
        A coefficient record is missing; the message names it.
    """
    return Coefficients(**rule_values(catalog, COEFFICIENT_IDS, needed_by=msg("the collective model")))


# --- the fabric -------------------------------------------------------------------------------


def busbw_factor(*, collective: Collective, gpus: int) -> float:
    """nccl-tests factor from algorithm bandwidth to bus bandwidth [-].

    Parameters
    ----------
    collective : Collective
        ``all_reduce``, ``all_gather``, ``reduce_scatter``, ``all_to_all`` or ``broadcast``.
    gpus : int
        GPUs taking part, ``n`` [count].

    Returns
    -------
    float
        busbw / algbw [dimensionless]: ``2(n-1)/n`` for all-reduce, 1 for broadcast, ``(n-1)/n``
        otherwise.

    Examples
    --------
    >>> busbw_factor(collective="all_reduce", gpus=8)
    1.75
    >>> busbw_factor(collective="all_gather", gpus=8)
    0.875
    >>> busbw_factor(collective="broadcast", gpus=8)
    1.0
    """
    n = gpus
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective == "broadcast":
        return 1.0
    return (n - 1) / n


@dataclass(frozen=True)
class FabricLevel:
    """One level of the hierarchy as a collective sees it."""

    name: str
    """``scale-up``, ``leaf``, ``spine`` or ``core``."""
    reach_domains: int
    """Contiguous scale-up domains this level joins [count]."""
    bandwidth_gbyte_per_s: float
    """Effective bandwidth per GPU through this level [GB/s] (line x efficiency / oversub)."""
    alpha_us: float
    """Per-step latency of a collective step that crosses this level [us]."""
    reduction_gbyte_per_s: float = 0.0
    """Effective bandwidth per GPU of a reduction in this level's switches [GB/s]: NVLS in the
    scale-up domain, SHARP in the network; 0 where the switches cannot reduce."""


@dataclass(frozen=True)
class CollectiveFabric:
    """The levels a collective can use on one cluster; ``levels[0]`` is the scale-up domain."""

    gpus: int
    domain_gpus: int
    levels: tuple[FabricLevel, ...]
    in_network_reduction: bool = False
    """True when the switches reduce in the network (SHARP) and the user opted in."""
    label: str = ""
    nvls_alpha_us: float = 0.0
    """Latency of one NVLS all-reduce inside a domain [us] (used where the scale-up level reduces)."""
    notes: tuple[str, ...] = ()
    """Requested features the hardware lacks (shown with the workload result)."""
    nvls_tree_head_gbyte_per_s: tuple[float, float] = (math.inf, math.inf)
    """busbw ceiling per NVLS head of an NVLS tree across two domains, and across three or more
    [GB/s] (:func:`nvls_tree_cap_gbyte_per_s`); no ceiling by default."""

    def __post_init__(self) -> None:
        if not self.levels or self.levels[0].name != LEVEL_SCALE_UP:
            raise ValueError(msg("levels must start with the scale-up level"))

    @property
    def scale_up(self) -> FabricLevel:
        return self.levels[0]

    @property
    def domains(self) -> int:
        """Scale-up domains in the cluster [count]."""
        return max(1, math.ceil(self.gpus / self.domain_gpus))

    @property
    def nvls(self) -> bool:
        """True when the scale-up switches reduce (NVLink SHARP)."""
        return self.scale_up.reduction_gbyte_per_s > 0

    @property
    def in_network_capable(self) -> bool:
        """True when every network level's switches reduce (SHARP-class)."""
        network = self.levels[1:]
        return bool(network) and all(level.reduction_gbyte_per_s > 0 for level in network)

    def network_path(self, *, domains: int) -> tuple[FabricLevel, ...]:
        """Network levels crossed by a group spanning ``domains`` contiguous domains."""
        if domains <= 1:
            return ()
        path = []
        for level in self.levels[1:]:
            path.append(level)
            if level.reach_domains >= domains:
                break
        return tuple(path)

    def scaled(self, *, network_bandwidth: float = 1.0, scale_up_bandwidth: float = 1.0) -> CollectiveFabric:
        """A copy with every network (or scale-up) bandwidth multiplied by a factor [-]."""

        def factor(level: FabricLevel) -> float:
            return scale_up_bandwidth if level.name == LEVEL_SCALE_UP else network_bandwidth

        levels = tuple(
            replace(
                level,
                bandwidth_gbyte_per_s=level.bandwidth_gbyte_per_s * factor(level),
                reduction_gbyte_per_s=level.reduction_gbyte_per_s * factor(level),
            )
            for level in self.levels
        )
        return replace(self, levels=levels)


def two_level_fabric(
    *,
    gpus: int,
    domain_gpus: int,
    scale_up_gbyte_per_s: float,
    network_gbyte_per_s: float,
    alpha_up_us: float = 1.0,
    alpha_net_us: float = 5.0,
    in_network_reduction: bool = False,
    nvls_gbyte_per_s: float = 0.0,
    nvls_alpha_us: float = 10.0,
) -> CollectiveFabric:
    """A scale-up domain plus one flat network level that reaches every domain.

    The smallest fabric worth computing by hand; tests and examples use it. With
    ``in_network_reduction`` the leaf reduces at its full bandwidth.

    Parameters
    ----------
    gpus : int
        GPUs of the fabric [count].
    domain_gpus : int
        GPUs per scale-up domain [count].
    scale_up_gbyte_per_s : float
        Per-GPU bandwidth inside a domain [GB/s].
    network_gbyte_per_s : float
        Per-GPU bandwidth of the network level [GB/s].
    alpha_up_us : float
        Per-step latency inside a domain [us].
    alpha_net_us : float
        Per-step latency across the network [us].
    in_network_reduction : bool
        Whether the leaf reduces in the network (SHARP), at ``network_gbyte_per_s``.
    nvls_gbyte_per_s : float
        NVLS reduction bandwidth of the scale-up switches [GB/s]; 0 for none.
    nvls_alpha_us : float
        Per-step latency of an NVLS collective [us].

    Returns
    -------
    CollectiveFabric
        A ``scale-up`` level and a ``leaf`` level reaching every domain.

    Examples
    --------
    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    >>> [level.name for level in f.levels], f.domains
    (['scale-up', 'leaf'], 2)
    """
    domains = max(1, math.ceil(gpus / domain_gpus))
    return CollectiveFabric(
        gpus=gpus,
        domain_gpus=domain_gpus,
        levels=(
            FabricLevel(LEVEL_SCALE_UP, 1, scale_up_gbyte_per_s, alpha_up_us, nvls_gbyte_per_s),
            FabricLevel(
                LEVEL_LEAF,
                domains,
                network_gbyte_per_s,
                alpha_net_us,
                network_gbyte_per_s if in_network_reduction else 0.0,
            ),
        ),
        in_network_reduction=in_network_reduction,
        nvls_alpha_us=nvls_alpha_us,
    )


def build_fabric(
    *,
    gpus: int,
    gpus_per_node: int,
    domain_gpus: int,
    nodes: int,
    tiers: int,
    radix: int,
    leaf_down_ports: int,
    ports_per_node_per_plane: int,
    rail_optimized: bool,
    oversubscription: float,
    per_gpu_gbit_per_s: float,
    nccl_efficiency: float,
    nic_alpha_us: float,
    scale_up_line_gbyte_per_s: float,
    nvls_capable: bool,
    switch_reduces: tuple[bool, ...],
    path_min_ns: float,
    path_max_ns: float,
    max_switch_hops: int,
    coefficients: Coefficients,
    label: str = "",
) -> CollectiveFabric:
    """The levels of a planned cluster: scale-up, leaf, and spine/core when the fabric has them.

    Parameters
    ----------
    gpus : int
        GPUs of the cluster [count].
    gpus_per_node : int
        GPUs per server [count].
    domain_gpus : int
        GPUs per scale-up domain [count].
    nodes : int
        GPU servers [count].
    tiers : int
        Switch tiers of the scale-out fabric (0: none) [count].
    radix : int
        Ports of a leaf switch at the fabric's port speed [count].
    leaf_down_ports : int
        Down ports of a leaf [count].
    ports_per_node_per_plane : int
        Links one node puts on each plane [count].
    rail_optimized : bool
        Whether the fabric is rail-optimized (a leaf per rail).
    oversubscription : float
        Leaf down:up ratio [dimensionless].
    per_gpu_gbit_per_s : float
        Network line rate per GPU [Gbit/s].
    nccl_efficiency : float
        Share of the line rate NCCL reaches on the network [fraction].
    nic_alpha_us : float
        Per-step latency of a network collective on a short path [us].
    scale_up_line_gbyte_per_s : float
        Scale-up line rate per GPU [GB/s].
    nvls_capable : bool
        Whether the GPU's scale-up switches reduce (NVLS).
    switch_reduces : tuple of bool
        Per network tier (leaf first), whether its switch reduces in the network (SHARP).
    path_min_ns : float
        Latency of the shortest path, one switch hop [ns].
    path_max_ns : float
        Latency of the longest path, ``max_switch_hops`` hops [ns].
    max_switch_hops : int
        Switch hops of the longest path [count].
    coefficients : Coefficients
        The collective model's coefficients (:func:`coefficients`).
    label : str
        Design name shown in notes [dimensionless].

    Returns
    -------
    CollectiveFabric
        The scale-up level and one level per network tier, each with its reach [domains],
        bandwidth [GB/s], alpha [us] and reduction bandwidth [GB/s].

    Notes
    -----
    - scale-up domain: ``domain_gpus`` GPUs (the plan's domain: at most a server's GPUs, or
      whole servers joined by scale-up switches); bandwidth = line x ring efficiency; NVLS =
      line x NVLS efficiency where the GPU's switch reduces; no network level when ``tiers``
      is 0 (the cluster is one domain);
    - network: leaf = ports x speed x NCCL efficiency per GPU; spine and core = leaf /
      oversubscription (spines are non-blocking upward, see :mod:`planner.fabric.topology`);
      SHARP = that x the in-network efficiency where ``switch_reduces`` says the tier's
      switch reduces; reach: :func:`_reach_nodes` in domains (nodes x domains per node, or
      nodes / nodes per domain for a domain across servers);
    - alpha: leaf = the NIC's alpha (NCCL's per-step cost, measured on a short path); each
      higher level adds the extra switch and link latency of its longer path, interpolated on
      switch hops between ``path_min_ns`` (1 hop) and ``path_max_ns`` (``max_switch_hops``).
    """
    domain = max(1, domain_gpus)
    domains_per_node = max(1, gpus_per_node // domain)
    nodes_per_domain = max(1, domain // gpus_per_node)
    c = coefficients
    leaf_gbyte_per_s = gbit_per_s_to_gbyte_per_s(per_gpu_gbit_per_s) * nccl_efficiency
    ns_per_extra_hop = (path_max_ns - path_min_ns) / max(1, max_switch_hops - 1)
    reach = (
        ()
        if tiers == 0
        else _reach_nodes(
            tiers=tiers,
            nodes=nodes,
            radix=radix,
            leaf_down_ports=leaf_down_ports,
            ports_per_node_per_plane=ports_per_node_per_plane,
            rail_optimized=rail_optimized,
        )
    )
    scale_up = FabricLevel(
        LEVEL_SCALE_UP,
        1,
        scale_up_line_gbyte_per_s * c.scale_up_ring_efficiency,
        c.scale_up_alpha_us,
        scale_up_line_gbyte_per_s * c.nvls_efficiency if nvls_capable else 0.0,
    )
    domains_reached = [max(1, n * domains_per_node // nodes_per_domain) for n in reach]
    network = _network_levels(
        domains_reached=domains_reached, leaf_gbyte_per_s=leaf_gbyte_per_s,
        oversubscription=oversubscription, switch_reduces=switch_reduces, alpha_us=nic_alpha_us,
        us_per_extra_hop=ns_per_extra_hop / 1000.0, in_network_efficiency=c.in_network_efficiency,
    )  # fmt: skip
    return CollectiveFabric(
        gpus=gpus, domain_gpus=domain, levels=(scale_up, *network), label=label, nvls_alpha_us=c.nvls_alpha_us,
        nvls_tree_head_gbyte_per_s=c.nvls_tree_head_gbyte_per_s(scale_up_line_gbyte_per_s=scale_up_line_gbyte_per_s),
    )  # fmt: skip


def _network_levels(
    *, domains_reached: Sequence[int], leaf_gbyte_per_s: float, oversubscription: float,
    switch_reduces: tuple[bool, ...], alpha_us: float, us_per_extra_hop: float, in_network_efficiency: float,
) -> list[FabricLevel]:  # fmt: skip
    """Leaf, spine and core levels (:func:`build_fabric` notes): above the leaf the
    oversubscription divides; a tier crossed at hop h costs its extra latency."""
    levels = []
    for tier, (name, domains) in enumerate(
        zip((LEVEL_LEAF, LEVEL_SPINE, LEVEL_CORE), domains_reached, strict=False)
    ):
        bandwidth_gbyte_per_s = leaf_gbyte_per_s if tier == 0 else leaf_gbyte_per_s / oversubscription
        reduces = tier < len(switch_reduces) and switch_reduces[tier]
        levels.append(
            FabricLevel(
                name,
                domains,
                bandwidth_gbyte_per_s,
                alpha_us + 2 * tier * us_per_extra_hop,
                bandwidth_gbyte_per_s * in_network_efficiency if reduces else 0.0,
            )
        )
    return levels


def _reach_nodes(
    *,
    tiers: int,
    nodes: int,
    radix: int,
    leaf_down_ports: int,
    ports_per_node_per_plane: int,
    rail_optimized: bool,
) -> tuple[int, ...]:
    """Nodes joined by the leaf, and by the spine and core where present [count].

    A leaf joins ``floor(d / q)`` nodes (``d`` leaf down ports, ``q`` ports per node on a
    plane), or ``d`` nodes when rail-optimized (NCCL's PXN keeps traffic on its rail); a spine
    joins a pod of ``k/2`` leaves in a three-tier fabric, else every node.
    """
    q = ports_per_node_per_plane
    if tiers == 1:
        return (nodes,)
    nodes_per_leaf = min(leaf_down_ports if rail_optimized else max(1, leaf_down_ports // q), nodes)
    if tiers == 2:
        return (nodes_per_leaf, nodes)
    leaves_per_pod = radix // 2
    if rail_optimized:
        nodes_per_pod = max(1, leaves_per_pod // q) * leaf_down_ports
    else:
        nodes_per_pod = leaves_per_pod * nodes_per_leaf
    return (nodes_per_leaf, min(nodes_per_pod, nodes), nodes)


def with_options(
    fabric: CollectiveFabric, *, in_network_reduction: bool = False, nvls: bool | None = None
) -> CollectiveFabric:
    """The fabric with SHARP switched on (where every network switch reduces) and NVLS
    on (``True``, where the GPU supports it), off (``False``) or as the hardware allows (``None``).

    A requested feature the hardware lacks adds a note to ``fabric.notes`` (shown with the
    workload result) instead of being dropped silently.

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric as the hardware builds it.
    in_network_reduction : bool
        Switch SHARP on (only where every network switch reduces).
    nvls : bool or None
        ``True``: NVLS on; ``False``: off; ``None``: as the hardware allows.

    Returns
    -------
    CollectiveFabric
        A copy with the options set and a note for each requested feature the hardware lacks.
    """
    notes = list(fabric.notes)
    if in_network_reduction and not fabric.in_network_capable:
        notes.append(
            msg(
                "in-network reduction (SHARP) requested, but the {design} fabric's switches do not "
                "reduce in the network: all-reduce uses ring, tree or NVLS",
                design=fabric.label,
            )
        )
    if nvls and not fabric.nvls:
        notes.append(
            msg(
                "NVLink SHARP (NVLS) requested, but the {design} scale-up domain does not reduce in "
                "its switches: all-reduce inside the domain uses a ring",
                design=fabric.label,
            )
        )
    levels = fabric.levels
    if nvls is False and fabric.nvls:
        levels = (replace(fabric.scale_up, reduction_gbyte_per_s=0.0), *levels[1:])
    return replace(
        fabric,
        levels=levels,
        in_network_reduction=(in_network_reduction or fabric.in_network_reduction)
        and fabric.in_network_capable,
        notes=tuple(notes),
    )


def part_of_fabric(fabric: CollectiveFabric, *, gpus: int) -> CollectiveFabric:
    """The fabric as a job on ``gpus`` of its GPUs sees it: spread evenly over the fewest scale-up
    domains that hold it (512 GPUs on 576-GPU NVL72 racks: 64 in each of 8 domains), so no
    tensor-parallel group straddles two domains; the whole fabric when ``gpus`` covers it.

    Parameters
    ----------
    fabric : CollectiveFabric
        The whole fabric.
    gpus : int
        GPUs of the job [count].

    Returns
    -------
    CollectiveFabric
        ``fabric`` with ``gpus`` GPUs and the GPUs per domain [count] the job uses; ``fabric``
        itself when ``gpus`` covers it.

    Examples
    --------
    >>> f = two_level_fabric(gpus=576, domain_gpus=72, scale_up_gbyte_per_s=900, network_gbyte_per_s=50)
    >>> g = part_of_fabric(f, gpus=512)
    >>> g.gpus, g.domain_gpus, g.domains
    (512, 64, 8)
    """
    if gpus >= fabric.gpus:
        return fabric
    domains = math.ceil(gpus / fabric.domain_gpus)
    per_domain = gpus // domains if gpus % domains == 0 else fabric.domain_gpus
    return replace(fabric, gpus=gpus, domain_gpus=per_domain)


IN_SWITCH_REDUCTIONS: tuple[InSwitchReduction, ...] = get_args(InSwitchReduction)


def with_reduction(fabric: CollectiveFabric, mode: InSwitchReduction) -> CollectiveFabric:
    """The fabric with the in-switch reduction a scenario asks for (``Scenario.in_switch_reduction``).

    ``auto``: NVLS (and the NVLS tree across domains) where the GPU's scale-up switches reduce, no
    SHARP; ``none``: rings and trees only; ``nvls``: NVLS asked for (a note where the GPU lacks it);
    ``sharp``: NVLS where possible and SHARP where every network switch reduces (a note where they
    do not). ``auto`` chooses per message size among what the hardware offers, like the rest of
    the model (:func:`collective_time`).

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric as the hardware builds it.
    mode : InSwitchReduction
        ``auto``, ``none``, ``nvls`` or ``sharp``.

    Returns
    -------
    CollectiveFabric
        The fabric with NVLS and SHARP set for ``mode`` (:func:`with_options`).

    Examples
    --------
    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50,
    ...                      nvls_gbyte_per_s=250)
    >>> with_reduction(f, "none").nvls, with_reduction(f, "sharp").in_network_reduction
    (False, False)
    """
    if mode == "auto":
        return fabric
    if mode == "none":
        return with_options(fabric, nvls=False)
    if mode == "nvls":
        return with_options(fabric, nvls=True)
    return with_options(fabric, in_network_reduction=True)


# --- one collective ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CollectiveTime:
    """Time and bandwidth of one collective call."""

    collective: Collective
    algorithm: str
    gpus: int
    gpus_per_domain: int
    domains: int
    message_bytes: float
    latency_s: float
    """alpha part of the time [s]."""
    bandwidth_s: float
    """beta part of the time [s]."""
    bound_level: str
    """Level whose bandwidth term is the largest (``none`` on one GPU)."""
    top_level: str
    """Highest level the group crosses."""

    @property
    def time_s(self) -> float:
        return self.latency_s + self.bandwidth_s

    @property
    def time_us(self) -> float:
        return self.time_s * 1e6

    @property
    def algbw_gbyte_per_s(self) -> float:
        """Algorithm bandwidth S / T [GB/s]."""
        return self.message_bytes / self.time_s / 1e9 if self.time_s > 0 else 0.0

    @property
    def busbw_gbyte_per_s(self) -> float:
        """nccl-tests bus bandwidth [GB/s]."""
        if self.gpus == 1:
            return 0.0
        return self.algbw_gbyte_per_s * busbw_factor(collective=self.collective, gpus=self.gpus)

    @property
    def regime(self) -> Regime:
        if self.time_s == 0:
            return "none"
        return "latency" if self.latency_s > self.bandwidth_s else "bandwidth"


class _Group(NamedTuple):
    """A group of ``n`` GPUs, ``m`` in each of ``g`` domains, and the levels it crosses (a
    tuple: made once per group and question, it costs less to build than a frozen dataclass)."""

    n: int
    m: int
    g: int
    alpha_up_s: float
    alpha_net_s: float
    alpha_nvls_s: float
    b_up: float
    """[B/s]"""
    b_nvls: float
    """[B/s]; 0 without NVLS."""
    b_net: float
    """[B/s] per GPU; inf when the group stays in one domain."""
    b_sharp: float
    """[B/s] per GPU of the slowest reducing network level; 0 when one cannot reduce."""
    net_level: str
    top_level: str
    nvls_tree_cap: float = math.inf
    """busbw ceiling of the NVLS tree over this group [B/s] (:func:`nvls_tree_cap_gbyte_per_s`)."""


def _group(fabric: CollectiveFabric, n: int, m: int) -> _Group:
    g = math.ceil(n / m)
    up = fabric.scale_up
    alpha_up_s = up.alpha_us * 1e-6
    b_up = up.bandwidth_gbyte_per_s * 1e9
    b_nvls = up.reduction_gbyte_per_s * 1e9
    alpha_nvls_s = fabric.nvls_alpha_us * 1e-6
    path = fabric.network_path(domains=g)
    if not path:
        return _Group(
            n,
            m,
            g,
            alpha_up_s,
            alpha_up_s,
            alpha_nvls_s,
            b_up,
            b_nvls,
            math.inf,
            0.0,
            LEVEL_SCALE_UP,
            LEVEL_SCALE_UP,
        )
    slowest = min(path, key=lambda level: level.bandwidth_gbyte_per_s)  # first (lowest) on ties
    cap = nvls_tree_cap_gbyte_per_s(fabric, domains=g, gpus_per_domain=m)
    return _Group(
        nvls_tree_cap=cap * 1e9,
        n=n,
        m=m,
        g=g,
        alpha_up_s=alpha_up_s,
        alpha_net_s=path[-1].alpha_us * 1e-6,
        alpha_nvls_s=alpha_nvls_s,
        b_up=b_up,
        b_nvls=b_nvls,
        b_net=slowest.bandwidth_gbyte_per_s * 1e9,
        b_sharp=min(level.reduction_gbyte_per_s for level in path) * 1e9,
        net_level=slowest.name,
        top_level=path[-1].name,
    )


def _bandwidth_term(g: _Group, up_s: float, net_s: float) -> tuple[float, str]:
    """The slower of the pipelined phases and the level it belongs to (ties: the lower)."""
    if g.g == 1 or up_s >= net_s:
        return up_s, LEVEL_SCALE_UP
    return net_s, g.net_level


def _cost(collective: Collective, algorithm: Algorithm, g: _Group, size: float) -> tuple[float, float, str]:
    """(alpha part [s], beta part [s], bound level) of one algorithm."""
    n, m = g.n, g.m
    log_n = math.ceil(math.log2(n))
    if collective == "all_to_all":
        up_s = (m - 1) / n * size / g.b_up
        net_s = (n - m) / n * size / g.b_net if g.g > 1 else 0.0
        beta, level = _bandwidth_term(g, up_s, net_s)
        return log_n * g.alpha_net_s, beta, level
    if collective == "all_reduce":
        factor, steps = 2 * (n - 1) / n, 2
    elif collective == "broadcast":
        factor, steps = 1.0, 1
    else:
        factor, steps = (n - 1) / n, 1
    if algorithm == "tree":
        # a pipelined binary tree moves the whole buffer through each inner node twice
        factor = 2.0
    up_s = factor * size / g.b_up
    net_s = factor * size / (m * g.b_net) if g.g > 1 else 0.0
    if algorithm == "ring":
        # a chunk crosses the network on g - 1 of a traversal's n - 1 hops (NCCL's nInterSteps)
        alpha = steps * ((n - g.g) * g.alpha_up_s + (g.g - 1) * g.alpha_net_s)
    elif algorithm == "tree":
        alpha = steps * log_n * g.alpha_net_s
    elif algorithm == "hierarchical":
        alpha = steps * (m - 1) * g.alpha_up_s + steps * (g.g - 1) * g.alpha_net_s
    elif algorithm == "nvls":
        # one push into the NVSwitch and one multicast back, whatever m; shards cross domains by tree
        alpha = g.alpha_nvls_s + 2 * math.ceil(math.log2(g.g)) * g.alpha_net_s
        # across domains the NVLS-tree kernel's per-head ceiling may bind before NVLink does
        up_s = max(size / g.b_nvls, factor * size / g.nvls_tree_cap)
        net_s = nvls_tree_shard_trips(g.g) * size / (m * g.b_net) if g.g > 1 else 0.0
    else:  # in_network: reduce in the domain (ring or NVLS), one trip up and down the switch tree
        ring_up = (2 * (m - 1) * g.alpha_up_s, up_s)
        nvls_up = (g.alpha_nvls_s, size / g.b_nvls) if g.b_nvls > 0 else ring_up
        net_s = size / (m * g.b_sharp)
        alpha_up, up_s = min((ring_up, nvls_up), key=lambda a_b: a_b[0] + max(a_b[1], net_s))
        alpha = alpha_up + 2 * g.alpha_net_s
    beta, level = _bandwidth_term(g, up_s, net_s)
    return alpha, beta, level


def nvls_tree_cap_gbyte_per_s(fabric: CollectiveFabric, *, domains: int, gpus_per_domain: int) -> float:
    """busbw ceiling of an NVLS-tree all-reduce over ``domains`` domains [GB/s]; inf on one.

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric (its per-head ceilings ``nvls_tree_head_gbyte_per_s``).
    domains : int
        Scale-up domains (nodes) the all-reduce spans [count].
    gpus_per_domain : int
        GPUs of the group in each domain [count].

    Returns
    -------
    float
        The busbw ceiling [GB/s]; ``inf`` on one domain (no network leg).

    Notes
    -----
    ``C = h x c(g)`` with ``h = min(m, 32)`` NVLS heads (NCCL builds one NVLS-tree channel per
    GPU of the domain, at most ``NCCL_MAX_NVLS_ARITY`` = 32) and ``c(g)`` the per-head ceiling on
    two domains or on three and more (``CollectiveFabric.nvls_tree_head_gbyte_per_s``). Each head
    runs the NVLS reduce, the network send and receive and the multicast on the same SMs, so a
    head moves less than NVLink and its NIC each allow. NCCL's tuning model caps the NVLS tree the
    same way (``src/graph/tuning.cc``, ``perChMaxNVLSTreeBws``: Hopper 57.7 GB/s on two nodes,
    45.5 on more; Blackwell 96 and 80; NCCL 2.28 on).

    >>> f = two_level_fabric(gpus=32, domain_gpus=8, scale_up_gbyte_per_s=364.5, network_gbyte_per_s=47)
    >>> nvls_tree_cap_gbyte_per_s(f, domains=2, gpus_per_domain=8)
    inf
    """
    if domains <= 1:
        return math.inf
    two, more = fabric.nvls_tree_head_gbyte_per_s
    return min(gpus_per_domain, MAX_NVLS_HEADS) * (two if domains <= 2 else more)


def nvls_tree_shard_trips(domains: int) -> float:
    """Times each GPU's ``1/m`` shard crosses its network port per direction in an NVLS tree [-].

    NCCL's NVLS tree reduces inside each domain with NVLS and joins the domains' heads by two
    binary trees, each carrying half of the data. On two domains each is the root of one tree and
    the leaf of the other: it sends and receives its shard once. On three or more, a node is inner
    in one tree (two children: twice its half up and down) and a leaf in the other (once): twice
    (Sanders, Speck, Traeff 2009; NCCL issue 1649: NVLS tree peaks at constant intra-node cost and
    the ring's network bandwidth at scale).

    Parameters
    ----------
    domains : int
        Scale-up domains the tree joins [count].

    Returns
    -------
    float
        Crossings per direction, ``tau`` [dimensionless]: 1 on up to two domains, else 2.

    Examples
    --------
    >>> nvls_tree_shard_trips(2), nvls_tree_shard_trips(16)
    (1.0, 2.0)
    """
    return 1.0 if domains <= 2 else 2.0


def algorithms_for(
    *, fabric: CollectiveFabric, collective: Collective, gpus: int | None = None
) -> tuple[Algorithm, ...]:
    """Algorithms that apply to ``collective`` on ``fabric``: NVLS where the scale-up switches
    reduce, in-network where enabled and the group crosses the network.

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric the collective runs on.
    collective : Collective
        The collective operation.
    gpus : int or None
        GPUs of the group [count]; ``None`` for the whole fabric.

    Returns
    -------
    tuple of Algorithm
        The applicable algorithms, in the model's order.
    """
    n = fabric.gpus if gpus is None else gpus
    spans_network = math.ceil(n / min(n, fabric.domain_gpus)) > 1
    return _applicable(collective, fabric.in_network_reduction and spans_network, fabric.nvls)


@functools.lru_cache(maxsize=64)
def _applicable(collective: Collective, in_network: bool, nvls: bool) -> tuple[Algorithm, ...]:
    """:func:`algorithms_for` once the fabric is read: in-network where it reduces and the group
    crosses the network, NVLS where the scale-up switches reduce (made once per answer)."""

    def applies(a: Algorithm) -> bool:
        if a == "in_network":
            return in_network
        if a == "nvls":
            return nvls
        return True

    return tuple(a for a in _APPLICABLE[collective] if applies(a))


def collective_time(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    message_bytes: float,
    gpus: int | None = None,
    gpus_per_domain: int | None = None,
    algorithm: Algorithm = "auto",
) -> CollectiveTime:
    """Time of one collective on a group of GPUs (see the module notes for the equations).

    Parameters
    ----------
    fabric
        The cluster's levels (``Plan.bandwidth.fabric``, or
        :func:`planner.performance.collectives.fabric_from_plan`).
    collective
        ``all_reduce``, ``all_gather``, ``reduce_scatter``, ``all_to_all`` or ``broadcast``.
    message_bytes
        Buffer size [B] (nccl-tests convention; per GPU for all-to-all).
    gpus
        Group size [count]; default every GPU of the fabric.
    gpus_per_domain
        Group members in each scale-up domain [count]; default ``min(gpus, domain size)``
        (a contiguous group). A data-parallel group beside 8-way tensor parallelism has 1.
    algorithm
        ``auto`` takes the fastest applicable algorithm, as NCCL's tuner does.

    Returns
    -------
    CollectiveTime
        Time [s], algbw and busbw [GB/s], the bounding level and the regime.

    Examples
    --------
    Ring all-reduce of 1 GB on 16 GPUs in two domains of 8, 300 GB/s scale-up, 50 GB/s per GPU
    network (5 us per network hop, 1 us per NVLink hop): B = min(300, 8 x 50) = 300 GB/s; each of the
    two traversals crosses the network on g - 1 = 1 of its 15 hops, so
    T = 2 (1 x 5 + 14 x 1) us + 2*15/16 * 1e9 / 300e9 s = 38 + 6250 us.

    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    >>> t = collective_time(fabric=f, collective="all_reduce", message_bytes=1e9, algorithm="ring")
    >>> round(t.time_us, 1), t.bound_level
    (6288.0, 'scale-up')
    """
    n = fabric.gpus if gpus is None else gpus
    m = _check_request(
        fabric=fabric,
        collective=collective,
        message_bytes=message_bytes,
        n=n,
        gpus_per_domain=gpus_per_domain,
    )
    if n == 1:
        return CollectiveTime(
            collective, "none", 1, 1, 1, message_bytes, 0.0, 0.0, LEVEL_NONE, LEVEL_SCALE_UP
        )
    if algorithm == "auto":
        return _costs(fabric, collective, n, m).time(message_bytes)
    group = _group(fabric, n, m)
    candidates = _candidates(fabric=fabric, collective=collective, n=n, algorithm=algorithm)
    name, alpha, beta, level = _fastest(collective, candidates, group, message_bytes)
    return CollectiveTime(
        collective=collective,
        algorithm=name,
        gpus=n,
        gpus_per_domain=m,
        domains=group.g,
        message_bytes=message_bytes,
        latency_s=alpha,
        bandwidth_s=beta,
        bound_level=level,
        top_level=group.top_level,
    )


def _fastest(
    collective: Collective, candidates: tuple[Algorithm, ...], group: _Group, size: float
) -> tuple[Algorithm, float, float, str]:
    """(algorithm, alpha [s], beta [s], bound level) of the fastest candidate; the first of
    equals wins, so ties keep the order of ``_APPLICABLE``."""
    best: tuple[Algorithm, float, float, str] | None = None
    for name in candidates:
        alpha, beta, level = _cost(collective, name, group, size)
        if best is None or alpha + beta < best[1] + best[2]:
            best = (name, alpha, beta, level)
    assert best is not None  # every collective has an applicable algorithm
    return best


def busbw_sweep_gbyte_per_s(
    *, fabric: CollectiveFabric, collective: Collective, sizes_bytes: tuple[int, ...]
) -> tuple[float, ...]:
    """busbw [GB/s] of ``auto`` :func:`collective_time` on the whole fabric at each size.

    The same costs as :func:`collective_time`, with the group, the candidate algorithms and their
    costs per byte worked out once for the sweep (the plan's curve is 24 sizes x 2 collectives).

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric; the group is all of its GPUs.
    collective : Collective
        The collective operation.
    sizes_bytes : tuple of int
        Message sizes [B].

    Returns
    -------
    tuple of float
        busbw at each size [GB/s]; 0 on a single GPU.
    """
    n = fabric.gpus
    if n == 1:
        return tuple(0.0 for _ in sizes_bytes)
    return _costs(fabric, collective, n, min(n, fabric.domain_gpus)).busbw_gbyte_per_s(sizes_bytes)


def _power_of_two(size: float) -> bool:
    """True when ``size`` [B] is ``2**k`` (a float times it is then exact, every bit)."""
    return size > 0 and math.frexp(size)[0] == 0.5


@functools.lru_cache(maxsize=64)
def _powers_of_two(sizes_bytes: tuple[int, ...]) -> bool:
    """True when every size [B] is a power of two (checked once per tuple of sizes)."""
    return all(_power_of_two(size) for size in sizes_bytes)


_Choice = tuple[Algorithm, float, float, str]
"""(algorithm, alpha [s], beta [s], bound level) of one algorithm at one size (:func:`_cost`)."""


class _Costs(NamedTuple):
    """One collective on one group, its ``auto`` candidates costed once for many sizes.

    Every term of :func:`_cost` but in-network's is a size-free alpha plus a beta that is ``S``
    times a chain of products and quotients of constants, so at ``S = 2**k`` beta is the beta of
    1 byte times ``S``, every bit the same (scaling by a power of two rounds alike, IEEE 754;
    no beta comes near the subnormal range). In-network, whose inner choice depends on ``S``, and
    any size not a power of two are costed in full.
    """

    collective: Collective
    group: _Group
    candidates: tuple[Algorithm, ...]
    per_byte: tuple[_Choice | None, ...]
    """:func:`_cost` at 1 B per candidate; ``None`` for in-network."""
    factor: float
    """busbw / algbw [-] (:func:`busbw_factor`)."""

    def fastest(self, size: float) -> _Choice:
        """:func:`_fastest` at ``size`` [B], every bit the same."""
        if not _power_of_two(size):
            return _fastest(self.collective, self.candidates, self.group, size)
        best: _Choice | None = None
        for name, linear in zip(self.candidates, self.per_byte, strict=True):
            if linear is None:
                alpha, beta, level = _cost(self.collective, name, self.group, size)
            else:
                _, alpha, beta, level = linear
                beta *= size
            if best is None or alpha + beta < best[1] + best[2]:
                best = (name, alpha, beta, level)
        assert best is not None  # every collective has an applicable algorithm
        return best

    def busbw_gbyte_per_s(self, sizes_bytes: tuple[int, ...]) -> tuple[float, ...]:
        """busbw [GB/s] of the fastest candidate at each size [B] (:func:`busbw_sweep_gbyte_per_s`).

        The fastest time is the least ``alpha + beta`` over the candidates in their order, the
        first of equals (what :func:`_fastest` keeps, as ``min`` does).
        """
        if None in self.per_byte or (
            sizes_bytes is not MESSAGE_SIZES_BYTES and not _powers_of_two(sizes_bytes)
        ):
            times = [alpha + beta for _, alpha, beta, _ in map(self.fastest, sizes_bytes)]
        else:
            first, *others = (c for c in self.per_byte if c is not None)  # all of them
            times = [first[1] + first[2] * size for size in sizes_bytes]
            for _, alpha, beta, _ in others:  # a later candidate wins only when strictly faster
                times = [
                    x if (x := alpha + beta * size) < t else t
                    for t, size in zip(times, sizes_bytes, strict=True)
                ]
        factor = self.factor
        return tuple(
            [factor * size / t / 1e9 if t > 0 else 0.0 for size, t in zip(sizes_bytes, times, strict=True)]
        )

    def time(self, size: float) -> CollectiveTime:
        """:func:`collective_time` at ``size`` [B] with ``auto``."""
        name, alpha, beta, level = self.fastest(size)
        g = self.group
        return CollectiveTime(self.collective, name, g.n, g.m, g.g, size, alpha, beta, level, g.top_level)


_KEPT_COSTS: dict[tuple[int, Collective, int, int], tuple[CollectiveFabric, _Costs]] = {}
"""``(id(fabric), collective, n, m) -> (fabric, its costs)`` (:func:`_costs`); a hit must be that
very fabric, so no fabric is hashed and an id reused after the first is collected never matches."""
_KEPT_GROUPS: dict[tuple[int, int, int], tuple[CollectiveFabric, _Group]] = {}
"""``(id(fabric), n, m) -> (fabric, its group)``, the same way."""
KEPT_MAX = 256
"""Entries each keeps before it starts over [count]: a sweep's plans, each on its own fabric, push
one another out, so memory stays small and a repeated sweep costs what the first did."""


def _costs(fabric: CollectiveFabric, collective: Collective, n: int, m: int) -> _Costs:
    """The ``auto`` costs of ``collective`` on ``n`` GPUs, ``m`` in each domain (more than one
    GPU), kept for the fabric's next question (a plan asks five; the workload search many)."""
    key = (id(fabric), collective, n, m)
    hit = _KEPT_COSTS.get(key)
    if hit is not None and hit[0] is fabric:
        return hit[1]
    kept = _KEPT_GROUPS.get(key_group := (id(fabric), n, m))
    group = kept[1] if kept is not None and kept[0] is fabric else _group(fabric, n, m)
    candidates = algorithms_for(fabric=fabric, collective=collective, gpus=n)
    per_byte = tuple(
        None if name == "in_network" else (name, *_cost(collective, name, group, 1.0)) for name in candidates
    )
    costs = _Costs(collective, group, candidates, per_byte, busbw_factor(collective=collective, gpus=n))
    for cache in (_KEPT_COSTS, _KEPT_GROUPS):
        if len(cache) >= KEPT_MAX:
            cache.clear()
    _KEPT_COSTS[key] = (fabric, costs)
    _KEPT_GROUPS[key_group] = (fabric, group)
    return costs


def _check_request(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    message_bytes: float,
    n: int,
    gpus_per_domain: int | None,
) -> int:
    """Validate a collective request; return its GPUs per domain [count]."""
    if not 1 <= n <= fabric.gpus:
        raise InputError(
            msg(
                "gpus: group of {n} GPUs on a {total}-GPU fabric (allowed: 1 to {total})",
                n=n,
                total=fabric.gpus,
            )
        )
    m_max = min(n, fabric.domain_gpus)
    m = m_max if gpus_per_domain is None else gpus_per_domain
    if not 1 <= m <= m_max:
        raise InputError(msg("gpus_per_domain: {m} (allowed: 1 to {m_max})", m=m, m_max=m_max))
    if message_bytes < 0:
        raise InputError(msg("message_bytes: {size} (allowed: 0 to inf)", size=message_bytes))
    if collective not in _APPLICABLE:
        raise InputError(
            msg(
                "collective: {collective!r} (allowed: {allowed})",
                collective=collective,
                allowed=", ".join(COLLECTIVES),
            )
        )
    return m


def _candidates(
    *, fabric: CollectiveFabric, collective: Collective, n: int, algorithm: Algorithm
) -> tuple[Algorithm, ...]:
    """The algorithms to time: every applicable one for ``auto``, else the one asked for."""
    allowed = algorithms_for(fabric=fabric, collective=collective, gpus=n)
    if algorithm == "auto":
        return allowed
    if algorithm in allowed:
        return (algorithm,)
    raise InputError(
        msg(
            "algorithm: {algorithm!r} does not apply to {collective} here (allowed: auto, {allowed})",
            algorithm=algorithm,
            collective=collective,
            allowed=", ".join(allowed),
        )
    )


def send_recv_time_s(*, fabric: CollectiveFabric, message_bytes: float, domains_apart: int) -> float:
    """Point-to-point transfer time [s] between GPUs ``domains_apart`` domains apart.

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric the transfer crosses.
    message_bytes : float
        Message size ``S`` [B].
    domains_apart : int
        Scale-up domains between sender and receiver (0: the same domain) [count].

    Returns
    -------
    float
        Transfer time ``T`` [s].

    Notes
    -----
    T = alpha(level) + S / B(level), where the level is the one that joins ``domains_apart + 1``
    contiguous domains (0 = inside one scale-up domain). Pipeline stages use it.

    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    >>> round(send_recv_time_s(fabric=f, message_bytes=50e6, domains_apart=1) * 1e6)  # 5 + 1000 us
    1005
    """
    path = fabric.network_path(domains=domains_apart + 1)
    if not path:
        level = fabric.scale_up
        return level.alpha_us * 1e-6 + message_bytes / (level.bandwidth_gbyte_per_s * 1e9)
    slowest = min(level.bandwidth_gbyte_per_s for level in path)
    return path[-1].alpha_us * 1e-6 + message_bytes / (slowest * 1e9)


# --- the plan's bandwidth figures ---------------------------------------------------------------


def allreduce_level_bounds_gbyte_per_s(*, fabric: CollectiveFabric) -> tuple[float, float]:
    """Large-message all-reduce busbw each level allows over the whole fabric [GB/s].

    Parameters
    ----------
    fabric : CollectiveFabric
        The whole fabric.

    Returns
    -------
    tuple of float
        ``(scale-up bound, network bound)`` of all-reduce busbw [GB/s]; the network bound is
        infinite when the fabric has no network level.

    Notes
    -----
    scale-up = ``max(B_up, min(2(n-1)/n B_nvls, C))`` (ring, or NVLS where the switches reduce,
    within the NVLS tree's ceiling ``C`` across domains, :func:`nvls_tree_cap_gbyte_per_s`);
    network = ``m x B_net`` of the slowest network level (a domain's egress), or, with SHARP
    on, ``max(m B_net, 2(n-1)/n m B_sharp)``; where the scale-up switches reduce (NVLS), also
    ``2(n-1)/n m B_net / tau(g)`` over ``g`` domains: the NVLS tree sends each GPU's shard across
    the network ``tau`` times (:func:`nvls_tree_shard_trips`), where a ring sends ``2(n-1)/n`` of
    the buffer. The busbw of any all-reduce stays below both.
    """
    n, m = fabric.gpus, min(fabric.domain_gpus, fabric.gpus)
    factor = busbw_factor(collective="all_reduce", gpus=n) if n > 1 else 1.0
    up = fabric.scale_up
    nvls_tree = nvls_tree_cap_gbyte_per_s(fabric, domains=fabric.domains, gpus_per_domain=m)
    scale_up = max(up.bandwidth_gbyte_per_s, min(factor * up.reduction_gbyte_per_s, nvls_tree))
    network_levels = fabric.levels[1:]
    if not network_levels:
        return scale_up, math.inf
    network = m * min(level.bandwidth_gbyte_per_s for level in network_levels)
    if fabric.nvls:
        network = max(network, factor * network / nvls_tree_shard_trips(fabric.domains))
    if fabric.in_network_reduction:
        sharp = m * min(level.reduction_gbyte_per_s for level in network_levels)
        network = max(network, factor * sharp)
    return scale_up, network


@dataclass(frozen=True)
class Bandwidth:
    """Bandwidth figures of one plan, all from its :class:`CollectiveFabric`."""

    per_gpu_gbit_per_s: float
    bisection_tbit_per_s: float
    allreduce_busbw_gbyte_per_s: float
    """busbw of a 1 GiB all-reduce over all GPUs [GB/s]."""
    allreduce_bound: str
    """``scale-up`` or ``network``."""
    alltoall_busbw_gbyte_per_s: float
    """busbw of a 1 GiB-per-GPU all-to-all over all GPUs [GB/s]."""
    alltoall_bound: str
    scale_up_gbyte_per_s: float
    """All-reduce busbw the scale-up level allows (ring, or NVLS where available) [GB/s]."""
    network_gbyte_per_s: float
    """All-reduce busbw the network allows: a domain's egress [GB/s]."""
    allreduce_algorithm: str
    """Algorithm the model picks for the 1 GiB all-reduce (``ring``, ``nvls``, ...)."""
    fabric: CollectiveFabric
    """The levels every figure above comes from (Workload and Reliability use it too)."""

    @functools.cached_property
    def curve(self) -> tuple[tuple[int, float, float], ...]:
        """(message size [B], all-reduce busbw [GB/s], all-to-all busbw [GB/s]) per size of
        :data:`MESSAGE_SIZES_BYTES`: ``auto`` :func:`collective_time` on the whole fabric
        (:func:`busbw_sweep_gbyte_per_s`), worked out when first read (a sweep's plans never
        read it, a plan's chart does) and kept."""
        sizes = MESSAGE_SIZES_BYTES
        allreduce = busbw_sweep_gbyte_per_s(fabric=self.fabric, collective="all_reduce", sizes_bytes=sizes)
        alltoall = busbw_sweep_gbyte_per_s(fabric=self.fabric, collective="all_to_all", sizes_bytes=sizes)
        return tuple(zip(sizes, allreduce, alltoall, strict=True))

    @property
    def explanation(self) -> str:
        if len(self.fabric.levels) == 1:
            return kept_msg(
                "all-reduce and all-to-all stay inside the scale-up domain ({scale_up:.0f} GB/s): "
                "the cluster has no scale-out fabric",
                scale_up=self.scale_up_gbyte_per_s,
            )
        return kept_msg(
            "all-reduce bounded by the {allreduce} level (scale-up {scale_up:.0f} GB/s vs network "
            "{network:.0f} GB/s); all-to-all bounded by the {alltoall} level",
            allreduce=_level_name(self.allreduce_bound),
            scale_up=self.scale_up_gbyte_per_s,
            network=self.network_gbyte_per_s,
            alltoall=_level_name(self.alltoall_bound),
        )


@functools.lru_cache(maxsize=16)
def _level_name(level: str) -> str:
    """A bound level as a word in a sentence (translatable), made once per level."""
    if level == LEVEL_SCALE_UP:
        return msg("scale-up")
    if level == LEVEL_NETWORK:
        return msg("network")
    return level


def _coarse(level: str) -> str:
    """``scale-up`` or ``network`` (leaf, spine and core are the network)."""
    return LEVEL_SCALE_UP if level in (LEVEL_SCALE_UP, LEVEL_NONE) else LEVEL_NETWORK


def bandwidth(*, fabric: CollectiveFabric, per_gpu_gbit_per_s: float, oversubscription: float) -> Bandwidth:
    """Injection, bisection and busbw figures (1 GiB messages); the busbw curve on first reading.

    Parameters
    ----------
    fabric : CollectiveFabric
        The whole fabric.
    per_gpu_gbit_per_s : float
        Network line rate per GPU [Gbit/s].
    oversubscription : float
        Leaf down:up ratio [dimensionless].

    Returns
    -------
    Bandwidth
        Line rate [Gbit/s], bisection [Tbit/s], all-reduce and all-to-all busbw at 1 GiB [GB/s]
        with their bound levels and algorithm, the level bounds [GB/s]; its ``curve`` (busbw per
        message size) is worked out from the fabric when first read.

    Notes
    -----
    bisection [Tb/s] = GPUs x per-GPU line rate / 2 / oversubscription / 1000; every busbw is
    :func:`collective_time` on the whole fabric with ``auto`` (NVLS on where the hardware has
    it, SHARP off: NCCL's defaults).
    """
    n = fabric.gpus
    allreduce_busbw, allreduce_level, allreduce_algorithm = _busbw_at(fabric, "all_reduce", GIB)
    alltoall_busbw, alltoall_level, _ = _busbw_at(fabric, "all_to_all", GIB)
    scale_up, network = allreduce_level_bounds_gbyte_per_s(fabric=fabric)
    if not math.isfinite(network):
        network = 0.0  # no network level: the JSON and tables carry 0, the explanation says why
    return Bandwidth(
        per_gpu_gbit_per_s=per_gpu_gbit_per_s,
        bisection_tbit_per_s=n * per_gpu_gbit_per_s / 2 / oversubscription / 1000,
        allreduce_busbw_gbyte_per_s=allreduce_busbw,
        allreduce_bound=_coarse(allreduce_level),
        alltoall_busbw_gbyte_per_s=alltoall_busbw,
        alltoall_bound=_coarse(alltoall_level),
        scale_up_gbyte_per_s=scale_up,
        network_gbyte_per_s=network,
        allreduce_algorithm=allreduce_algorithm,
        fabric=fabric,
    )


def _busbw_at(fabric: CollectiveFabric, collective: Collective, size: float) -> tuple[float, str, str]:
    """(busbw [GB/s], bound level, algorithm) of ``auto`` :func:`collective_time` on the whole
    fabric at ``size`` [B]: the same numbers as its :class:`CollectiveTime` (algbw x factor),
    without building one."""
    n = fabric.gpus
    if n == 1:
        one = collective_time(fabric=fabric, collective=collective, message_bytes=size)
        return one.busbw_gbyte_per_s, one.bound_level, one.algorithm
    costs = _costs(fabric, collective, n, min(n, fabric.domain_gpus))
    algorithm, alpha, beta, level = costs.fastest(size)
    time_s = alpha + beta
    algbw = size / time_s / 1e9 if time_s > 0 else 0.0
    return algbw * costs.factor, level, algorithm


def auto_time_us(*, fabric: CollectiveFabric, collective: Collective, message_bytes: float) -> float:
    """Time [us] of ``auto`` :func:`collective_time` over every GPU of the fabric, without building
    its :class:`CollectiveTime` (a plan asks for the 8-byte all-reduce).

    Parameters
    ----------
    fabric : CollectiveFabric
        The whole fabric.
    collective : Collective
        The collective operation.
    message_bytes : float
        Buffer size ``S`` [B].

    Returns
    -------
    float
        ``collective_time(...).time_us`` [us], every bit the same.

    Raises
    ------
    InputError
        As :func:`collective_time` (a negative size, an unknown collective).
    """
    n = fabric.gpus
    m = _check_request(
        fabric=fabric, collective=collective, message_bytes=message_bytes, n=n, gpus_per_domain=None
    )
    if n == 1:
        return collective_time(fabric=fabric, collective=collective, message_bytes=message_bytes).time_us
    _, alpha, beta, _ = _costs(fabric, collective, n, m).fastest(message_bytes)
    return (alpha + beta) * 1e6
