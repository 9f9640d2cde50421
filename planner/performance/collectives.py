"""Collective operations on a cluster's fabric: time and busbw per algorithm, level and size.

A fabric is a ladder of levels: the scale-up domain (NVLink, BLink, ...), then the network's
leaf, spine and core tiers. Each level has an effective bandwidth per GPU (line rate x protocol
efficiency, divided by the oversubscription above the leaf), a per-step latency alpha and a
reach (how many contiguous scale-up domains it joins). A group of ``n`` GPUs with ``m`` of them
in each scale-up domain spans ``g = ceil(n / m)`` domains and climbs to the lowest level that
reaches ``g`` domains; its network steps pay that level's alpha, and its network bandwidth is
the smallest of the levels it crosses.

Notes
-----
alpha-beta costs for a message of ``S`` bytes (nccl-tests convention: ``S`` is the whole
buffer; for all-to-all the buffer one GPU sends), scale-up bandwidth ``B_up`` and network
bandwidth ``B_net`` per GPU, ``alpha_up`` and ``alpha_net`` per step::

    all-reduce   ring          2(n-1) alpha_net            + 2(n-1)/n S / B
                 tree          2 ceil(log2 n) alpha_net    + 2 S / B
                 hierarchical  2(m-1) alpha_up + 2(g-1) alpha_net + 2(n-1)/n S / B
                 in-network    2(m-1) alpha_up + 2 alpha_net
                               + max(2(n-1)/n S / B_up, S / (m B_net))
    all-gather,  ring          (n-1) alpha_net             + (n-1)/n S / B
    reduce-scat. hierarchical  (m-1) alpha_up + (g-1) alpha_net + (n-1)/n S / B
    broadcast    ring (chain)  (n-1) alpha_net             + S / B
                 tree          ceil(log2 n) alpha_net      + 2 S / B
    all-to-all   direct        ceil(log2 n) alpha_net
                               + max((m-1)/n S / B_up, (n-m)/n S / B_net)

with ``B = min(B_up, m B_net)``: chunks are pipelined through the levels, so the slowest level
bounds the bandwidth term (``docs/model.md``, "Collectives", and :mod:`planner.fabric.network`'s model, which
this one reproduces for the whole cluster). When the whole group sits in one scale-up domain
the network terms vanish and ``alpha_net`` is ``alpha_up``. busbw = algbw x factor, with the
nccl-tests factors: all-reduce ``2(n-1)/n``; all-gather, reduce-scatter, all-to-all ``(n-1)/n``;
broadcast 1. The level named as bound is the one whose bandwidth term is the largest (ties go
to the lower level); ``regime`` says whether latency or bandwidth dominates the time.

References
----------
R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of Collective Communication Operations in
MPICH", IJHPCA 19(1), 2005 (ring and tree alpha-beta costs). P. Sanders, J. Speck, J. L. Traeff,
"Two-tree algorithms for full bandwidth broadcast, reduction and scan", Parallel Computing 35,
2009 (NCCL's double binary tree). R. L. Graham et al., "Scalable Hierarchical Aggregation
Protocol (SHArP)", COMHPC 2016 (in-network reduction: each GPU sends and receives its data
once). NVIDIA nccl-tests ``doc/PERFORMANCE.md`` (busbw factors).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, get_args

import pandas as pd

from planner.catalog import Catalog
from planner.engine import Plan
from planner.errors import InputError
from planner.fabric.network import LEVEL_SCALE_UP, MESSAGE_SIZES_BYTES, SCALE_UP_ALPHA_US
from planner.i18n.message import msg
from planner.resolve import resolve
from planner.units import GIB, gbit_per_s_to_gbyte_per_s

Collective = Literal["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"]
Algorithm = Literal["auto", "ring", "tree", "hierarchical", "in_network", "direct"]
Regime = Literal["latency", "bandwidth", "none"]

COLLECTIVES: tuple[Collective, ...] = get_args(Collective)

LEVEL_LEAF = "leaf"
LEVEL_SPINE = "spine"
LEVEL_CORE = "core"
LEVEL_NONE = "none"
"""Bound level of a collective on one GPU (nothing moves)."""

_APPLICABLE: dict[Collective, tuple[Algorithm, ...]] = {
    "all_reduce": ("ring", "tree", "hierarchical", "in_network"),
    "all_gather": ("ring", "hierarchical"),
    "reduce_scatter": ("ring", "hierarchical"),
    "broadcast": ("ring", "tree"),
    "all_to_all": ("direct",),
}


def busbw_factor(*, collective: Collective, gpus: int) -> float:
    """nccl-tests factor from algorithm bandwidth to bus bandwidth [-].

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


@dataclass(frozen=True)
class CollectiveFabric:
    """The levels a collective can use on one cluster; ``levels[0]`` is the scale-up domain."""

    gpus: int
    domain_gpus: int
    levels: tuple[FabricLevel, ...]
    in_network_reduction: bool = False
    """True when the switches reduce in the network (SHARP) and the user opted in."""
    label: str = ""

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
        levels = tuple(
            replace(
                level,
                bandwidth_gbyte_per_s=level.bandwidth_gbyte_per_s
                * (scale_up_bandwidth if level.name == LEVEL_SCALE_UP else network_bandwidth),
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
    alpha_up_us: float = SCALE_UP_ALPHA_US,
    alpha_net_us: float = 5.0,
    in_network_reduction: bool = False,
) -> CollectiveFabric:
    """A scale-up domain plus one flat network level that reaches every domain.

    The smallest fabric worth computing by hand; tests and examples use it.

    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    >>> [level.name for level in f.levels], f.domains
    (['scale-up', 'leaf'], 2)
    """
    domains = max(1, math.ceil(gpus / domain_gpus))
    return CollectiveFabric(
        gpus=gpus,
        domain_gpus=domain_gpus,
        levels=(
            FabricLevel(LEVEL_SCALE_UP, 1, scale_up_gbyte_per_s, alpha_up_us),
            FabricLevel(LEVEL_LEAF, domains, network_gbyte_per_s, alpha_net_us),
        ),
        in_network_reduction=in_network_reduction,
    )


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


@dataclass(frozen=True)
class _Group:
    n: int
    m: int
    g: int
    alpha_up_s: float
    alpha_net_s: float
    b_up: float
    """[B/s]"""
    b_net: float
    """[B/s] per GPU; inf when the group stays in one domain."""
    net_level: str
    top_level: str


def _group(fabric: CollectiveFabric, n: int, m: int) -> _Group:
    g = math.ceil(n / m)
    up = fabric.scale_up
    path = fabric.network_path(domains=g)
    if not path:
        alpha_s = up.alpha_us * 1e-6
        b_up = up.bandwidth_gbyte_per_s * 1e9
        return _Group(n, m, g, alpha_s, alpha_s, b_up, math.inf, LEVEL_SCALE_UP, LEVEL_SCALE_UP)
    slowest = min(path, key=lambda level: level.bandwidth_gbyte_per_s)  # first (lowest) on ties
    return _Group(
        n=n,
        m=m,
        g=g,
        alpha_up_s=up.alpha_us * 1e-6,
        alpha_net_s=path[-1].alpha_us * 1e-6,
        b_up=up.bandwidth_gbyte_per_s * 1e9,
        b_net=slowest.bandwidth_gbyte_per_s * 1e9,
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
        alpha = steps * (n - 1) * g.alpha_net_s
    elif algorithm == "tree":
        alpha = steps * log_n * g.alpha_net_s
    elif algorithm == "hierarchical":
        alpha = steps * (m - 1) * g.alpha_up_s + steps * (g.g - 1) * g.alpha_net_s
    else:  # in_network: one trip up and down the switch tree, each GPU sends its shard once
        alpha = 2 * (m - 1) * g.alpha_up_s + 2 * g.alpha_net_s
        net_s = size / (m * g.b_net)
    beta, level = _bandwidth_term(g, up_s, net_s)
    return alpha, beta, level


def algorithms_for(
    *, fabric: CollectiveFabric, collective: Collective, gpus: int | None = None
) -> tuple[Algorithm, ...]:
    """Algorithms that apply to ``collective`` on ``fabric`` (in-network only where enabled)."""
    n = fabric.gpus if gpus is None else gpus
    spans_network = math.ceil(n / min(n, fabric.domain_gpus)) > 1
    return tuple(
        a
        for a in _APPLICABLE[collective]
        if a != "in_network" or (fabric.in_network_reduction and spans_network)
    )


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
        The cluster's levels (:func:`fabric_from_plan`).
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
    network: B = min(300, 8 x 50) = 300 GB/s; T = 2*15*5 us + 2*15/16 * 1e9 / 300e9 s.

    >>> f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    >>> t = collective_time(fabric=f, collective="all_reduce", message_bytes=1e9, algorithm="ring")
    >>> round(t.time_us, 1), t.bound_level
    (6400.0, 'scale-up')
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
    group = _group(fabric, n, m)
    results = []
    for name in _candidates(fabric=fabric, collective=collective, n=n, algorithm=algorithm):
        alpha, beta, level = _cost(collective, name, group, message_bytes)
        result = CollectiveTime(
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
        results.append(result)
    # the first of equals wins, so ties keep the order of _APPLICABLE
    return min(results, key=lambda t: t.time_s)


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


def fabric_from_plan(*, plan: Plan, catalog: Catalog, in_network_reduction: bool = False) -> CollectiveFabric:
    """The levels of a planned cluster: scale-up, leaf, and spine/core when the fabric has them.

    Parameters
    ----------
    plan
        A plan from :func:`planner.engine.plan`.
    catalog
        The catalog the plan was made with (for the NIC's efficiency and alpha and the switch's
        in-network reduction).
    in_network_reduction
        Use in-network reduction (SHARP) for all-reduce where the switch supports it.

    Notes
    -----
    - bandwidth: scale-up = the plan's effective scale-up busbw; leaf = ports x speed x NCCL
      efficiency per GPU; spine and core = leaf / oversubscription (spines are non-blocking
      upward, see :mod:`planner.fabric.topology`);
    - reach: a leaf joins ``floor(d / q)`` nodes (``d`` leaf down ports, ``q`` ports per node
      on a plane), or ``d`` nodes when rail-optimized (NCCL's PXN keeps traffic on its rail);
      a spine joins a pod of ``k/2`` leaves in a three-tier fabric, else every node;
    - alpha: scale-up :data:`planner.fabric.network.SCALE_UP_ALPHA_US`; leaf = the NIC's alpha (NCCL's
      per-step cost, measured on a short path); each higher level adds the extra switch and link
      latency of its longer path, interpolated on switch hops between the plan's shortest
      (1 hop) and longest (``2 tiers - 1`` hops) GPU-to-GPU latency.
    """
    r = resolve(scenario=plan.scenario, catalog=catalog)
    topo = plan.topology
    gpus_per_node = r.server.gpus_per_node
    domain = max(1, min(r.fabric.scale_up_domain_gpus, gpus_per_node))
    domains_per_node = max(1, gpus_per_node // domain)
    q = topo.ports_per_node_per_plane
    if topo.tiers == 1:
        nodes_per_leaf = topo.nodes
    elif r.fabric.rail_optimized:
        nodes_per_leaf = topo.leaf_down_ports
    else:
        nodes_per_leaf = max(1, topo.leaf_down_ports // q)
    nodes_per_leaf = min(nodes_per_leaf, topo.nodes)
    leaf_gbyte_per_s = gbit_per_s_to_gbyte_per_s(plan.bandwidth.per_gpu_gbit_per_s) * r.nic.nccl_efficiency
    upper_gbyte_per_s = leaf_gbyte_per_s / topo.oversubscription
    hops_span = max(1, topo.max_switch_hops - 1)
    ns_per_extra_hop = (plan.latency.gpu_to_gpu_ns - plan.latency.gpu_to_gpu_min_ns) / hops_span

    def alpha(hops: int) -> float:
        return r.nic.alpha_us + (hops - 1) * ns_per_extra_hop / 1000.0

    all_domains = topo.nodes * domains_per_node
    levels = [
        FabricLevel(LEVEL_SCALE_UP, 1, plan.bandwidth.scale_up_gbyte_per_s, SCALE_UP_ALPHA_US),
        FabricLevel(LEVEL_LEAF, nodes_per_leaf * domains_per_node, leaf_gbyte_per_s, alpha(1)),
    ]
    if topo.tiers == 2:
        levels.append(FabricLevel(LEVEL_SPINE, all_domains, upper_gbyte_per_s, alpha(3)))
    elif topo.tiers == 3:
        leaves_per_pod = topo.radix // 2
        if r.fabric.rail_optimized:
            nodes_per_pod = max(1, leaves_per_pod // q) * topo.leaf_down_ports
        else:
            nodes_per_pod = leaves_per_pod * nodes_per_leaf
        pod_domains = min(nodes_per_pod, topo.nodes) * domains_per_node
        levels.append(FabricLevel(LEVEL_SPINE, pod_domains, upper_gbyte_per_s, alpha(3)))
        levels.append(FabricLevel(LEVEL_CORE, all_domains, upper_gbyte_per_s, alpha(5)))
    return CollectiveFabric(
        gpus=plan.gpus,
        domain_gpus=domain,
        levels=tuple(levels),
        in_network_reduction=in_network_reduction and r.switch.in_network_reduction,
        label=plan.design_id,
    )


CURVE_COLUMNS = (
    "design",
    "collective",
    "algorithm",
    "gpus",
    "message_bytes",
    "time_us",
    "algbw_gbyte_per_s",
    "busbw_gbyte_per_s",
    "bound_level",
    "regime",
)


def _row(fabric: CollectiveFabric, t: CollectiveTime) -> dict[str, object]:
    return {
        "design": fabric.label,
        "collective": t.collective,
        "algorithm": t.algorithm,
        "gpus": t.gpus,
        "message_bytes": t.message_bytes,
        "time_us": t.time_us,
        "algbw_gbyte_per_s": t.algbw_gbyte_per_s,
        "busbw_gbyte_per_s": t.busbw_gbyte_per_s,
        "bound_level": t.bound_level,
        "regime": t.regime,
    }


def busbw_curve(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    algorithm: Algorithm = "auto",
    gpus: int | None = None,
    gpus_per_domain: int | None = None,
    sizes_bytes: Sequence[float] = MESSAGE_SIZES_BYTES,
) -> pd.DataFrame:
    """Time and busbw against message size (default 1 KiB ... 8 GiB): one row per size."""
    rows = [
        _row(
            fabric,
            collective_time(
                fabric=fabric,
                collective=collective,
                message_bytes=size,
                gpus=gpus,
                gpus_per_domain=gpus_per_domain,
                algorithm=algorithm,
            ),
        )
        for size in sizes_bytes
    ]
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS))


def default_gpu_counts(*, gpus: int) -> tuple[int, ...]:
    """Powers of two from 2 up to ``gpus``, and ``gpus`` itself.

    >>> default_gpu_counts(gpus=24)
    (2, 4, 8, 16, 24)
    """
    counts = [2**i for i in range(1, gpus.bit_length()) if 2**i < gpus]
    return (*counts, gpus) if gpus > 1 else (1,)


def busbw_vs_gpus(
    *,
    fabric: CollectiveFabric,
    collective: Collective,
    message_bytes: float = GIB,
    algorithm: Algorithm = "auto",
    gpu_counts: Sequence[int] | None = None,
) -> pd.DataFrame:
    """Time and busbw of contiguous groups of growing size on one fabric: one row per count."""
    counts = default_gpu_counts(gpus=fabric.gpus) if gpu_counts is None else tuple(gpu_counts)
    rows = [
        _row(
            fabric,
            collective_time(
                fabric=fabric, collective=collective, message_bytes=message_bytes, gpus=n, algorithm=algorithm
            ),
        )
        for n in counts
    ]
    return pd.DataFrame(rows, columns=list(CURVE_COLUMNS))


def collectives_frame(
    *,
    plans: Sequence[Plan],
    catalog: Catalog,
    collectives: Sequence[Collective] = ("all_reduce", "all_to_all"),
    sizes_bytes: Sequence[float] = MESSAGE_SIZES_BYTES,
    in_network_reduction: bool = False,
) -> pd.DataFrame:
    """busbw against message size for several designs and collectives, side by side (tidy)."""
    frames = []
    for p in plans:
        fabric = fabric_from_plan(plan=p, catalog=catalog, in_network_reduction=in_network_reduction)
        for collective in collectives:
            frames.append(busbw_curve(fabric=fabric, collective=collective, sizes_bytes=sizes_bytes))
    if not frames:
        return pd.DataFrame(columns=list(CURVE_COLUMNS))
    return pd.concat(frames, ignore_index=True)
