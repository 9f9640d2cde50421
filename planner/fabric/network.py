"""Bandwidth, collective (alpha-beta) and latency models of the compute fabric.

Notes
-----
busbw is NCCL's bus bandwidth: algorithm bandwidth x 2(n-1)/n for all-reduce and (n-1)/n for
all-to-all (nccl-tests ``doc/PERFORMANCE.md``). Large-message all-reduce busbw is bounded by the
slowest level of the hierarchy: ``min(scale-up bandwidth x efficiency, node network egress x
NCCL efficiency / oversubscription)``; this is the model SimAI uses (busbw = min(NVLink
bandwidth, NIC bandwidth x NICs per node)). All-to-all has no hierarchical shortcut: traffic to
GPUs outside the scale-up domain leaves at the GPU's own injection rate.

Time of an all-reduce of ``S`` bytes on ``n`` GPUs in ``g`` scale-up domains of ``m`` GPUs::

    T(S) = 2(m-1) alpha_up + A_net(g) + 2(n-1)/n * S / busbw_max
    A_net(g) = 2(g-1) alpha_net (ring)   or   2 ceil(log2 g) alpha_net (tree)

The faster of ring and tree is taken, as NCCL's tuner does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.i18n.message import msg
from planner.units import GIB, KIB, gbit_per_s_to_gbyte_per_s

SCALE_UP_RING_EFFICIENCY = 0.81
"""Achieved / line rate of an NVLink ring all-reduce: 365 / 450 GB/s on an H100 8-GPU node
(NVIDIA/nccl-tests issue 212). Applied to every GPU's scale-up links (an assumption for
non-NVIDIA parts: no public figure)."""

SCALE_UP_ALPHA_US = 1.0
"""Per-step latency of a scale-up (NVLink/BLink) collective step [us]. Assumption: NCCL's
intra-node LL protocol steps are of the order of a microsecond; no vendor figure."""

SERDES_FEC_NS_PER_LINK = 100.0
"""SerDes + RS-FEC latency per link at 100-200G/lane PAM4 [ns]. Assumption: order of magnitude
of IEEE 802.3ck RS(544,514) FEC decode; no per-product figure found."""

MESSAGE_SIZES_BYTES: tuple[int, ...] = tuple(KIB * 2**i for i in range(24))
"""1 KiB ... 8 GiB in powers of two: the sizes nccl-tests sweeps."""

LEVEL_SCALE_UP = "scale-up"
LEVEL_NETWORK = "network"


@dataclass(frozen=True)
class CollectiveModel:
    """Parameters of the hierarchical alpha-beta model for one cluster."""

    gpus: int
    domain_gpus: int
    scale_up_gbyte_per_s: float
    """Effective scale-up busbw per GPU [GB/s] (line rate x ring efficiency)."""
    network_gbyte_per_s: float
    """Effective network busbw bound [GB/s]: node egress x NCCL efficiency / oversubscription."""
    injection_gbyte_per_s: float
    """Effective network bandwidth of one GPU [GB/s] (ports x speed x efficiency / oversub)."""
    alpha_up_us: float
    alpha_net_us: float

    @property
    def domains(self) -> int:
        return max(1, math.ceil(self.gpus / self.domain_gpus))

    @property
    def allreduce_bound_gbyte_per_s(self) -> float:
        """Large-message all-reduce busbw [GB/s]: the slowest level."""
        if self.domains == 1:
            return self.scale_up_gbyte_per_s
        return min(self.scale_up_gbyte_per_s, self.network_gbyte_per_s)

    @property
    def allreduce_bound_level(self) -> str:
        if self.domains == 1 or self.scale_up_gbyte_per_s <= self.network_gbyte_per_s:
            return LEVEL_SCALE_UP
        return LEVEL_NETWORK

    def allreduce_time_s(self, *, message_bytes: float) -> float:
        """All-reduce time [s] of ``message_bytes`` [B] (faster of hierarchical ring and tree)."""
        n, m, g = self.gpus, min(self.domain_gpus, self.gpus), self.domains
        if n == 1:
            return 0.0
        alpha_up = 2 * (m - 1) * self.alpha_up_us
        if g > 1:
            ring = 2 * (g - 1) * self.alpha_net_us
            tree = 2 * math.ceil(math.log2(g)) * self.alpha_net_us
            alpha_total_us = alpha_up + min(ring, tree)
        else:
            alpha_total_us = alpha_up
        beta_s = 2 * (n - 1) / n * message_bytes / (self.allreduce_bound_gbyte_per_s * 1e9)
        return alpha_total_us * 1e-6 + beta_s

    def allreduce_busbw_gbyte_per_s(self, *, message_bytes: float) -> float:
        """nccl-tests busbw [GB/s] of an all-reduce of ``message_bytes`` [B]."""
        if self.gpus == 1:
            return 0.0
        time_s = self.allreduce_time_s(message_bytes=message_bytes)
        return 2 * (self.gpus - 1) / self.gpus * message_bytes / time_s / 1e9

    @property
    def alltoall_bound_gbyte_per_s(self) -> float:
        """Large-message all-to-all busbw [GB/s].

        Of the (n-1)/n share a GPU sends, (m-1)/n stays in the scale-up domain and (n-m)/n
        crosses the network at the GPU's injection rate; both run at once, the slower wins.
        """
        n, m = self.gpus, min(self.domain_gpus, self.gpus)
        if n == 1:
            return 0.0
        intra_s = (m - 1) / n / self.scale_up_gbyte_per_s
        inter_s = (n - m) / n / self.injection_gbyte_per_s
        return (n - 1) / n / max(intra_s, inter_s)

    @property
    def alltoall_bound_level(self) -> str:
        n, m = self.gpus, min(self.domain_gpus, self.gpus)
        intra_s = (m - 1) / n / self.scale_up_gbyte_per_s
        inter_s = (n - m) / n / self.injection_gbyte_per_s
        return LEVEL_NETWORK if inter_s > intra_s else LEVEL_SCALE_UP

    def alltoall_busbw_gbyte_per_s(self, *, message_bytes: float) -> float:
        """busbw [GB/s] of an all-to-all of ``message_bytes`` [B] per GPU.

        Latency term: ``ceil(log2 n)`` network steps (an assumption: pairwise exchanges are
        issued concurrently, so the cost grows with the number of scheduling rounds).
        """
        n = self.gpus
        if n == 1:
            return 0.0
        alpha_s = math.ceil(math.log2(n)) * self.alpha_net_us * 1e-6
        beta_s = (n - 1) / n * message_bytes / (self.alltoall_bound_gbyte_per_s * 1e9)
        return (n - 1) / n * message_bytes / (alpha_s + beta_s) / 1e9


def collective_model(
    *,
    gpus: int,
    gpus_per_node: int,
    domain_gpus: int,
    ports_per_gpu: int,
    port_speed_gbit_per_s: float,
    nccl_efficiency: float,
    oversubscription: float,
    scale_up_gbyte_per_s: float,
    alpha_net_us: float,
) -> CollectiveModel:
    """Build the hierarchical model from fabric and GPU parameters (units in the names)."""
    injection_line = gbit_per_s_to_gbyte_per_s(ports_per_gpu * port_speed_gbit_per_s)
    per_gpu_net = injection_line * nccl_efficiency / oversubscription
    return CollectiveModel(
        gpus=gpus,
        domain_gpus=max(1, min(domain_gpus, gpus_per_node)),
        scale_up_gbyte_per_s=scale_up_gbyte_per_s * SCALE_UP_RING_EFFICIENCY,
        network_gbyte_per_s=per_gpu_net * gpus_per_node,
        injection_gbyte_per_s=per_gpu_net,
        alpha_up_us=SCALE_UP_ALPHA_US,
        alpha_net_us=alpha_net_us,
    )


@dataclass(frozen=True)
class Bandwidth:
    """Bandwidth figures of one plan."""

    per_gpu_gbit_per_s: float
    bisection_tbit_per_s: float
    allreduce_busbw_gbyte_per_s: float
    """busbw of a 1 GiB all-reduce over all GPUs [GB/s]."""
    allreduce_bound: str
    alltoall_busbw_gbyte_per_s: float
    """busbw of a 1 GiB-per-GPU all-to-all over all GPUs [GB/s]."""
    alltoall_bound: str
    scale_up_gbyte_per_s: float
    network_gbyte_per_s: float
    curve: tuple[tuple[int, float, float], ...]
    """(message size [B], all-reduce busbw [GB/s], all-to-all busbw [GB/s]) per size."""

    @property
    def explanation(self) -> str:
        return msg(
            "all-reduce bounded by the {allreduce} level (scale-up {scale_up:.0f} GB/s vs network "
            "{network:.0f} GB/s); all-to-all bounded by the {alltoall} level",
            allreduce=_level_name(self.allreduce_bound),
            scale_up=self.scale_up_gbyte_per_s,
            network=self.network_gbyte_per_s,
            alltoall=_level_name(self.alltoall_bound),
        )


def _level_name(level: str) -> str:
    """A bound level as a word in a sentence (translatable)."""
    if level == LEVEL_SCALE_UP:
        return msg("scale-up")
    if level == LEVEL_NETWORK:
        return msg("network")
    return level


def bandwidth(
    *, model: CollectiveModel, ports_per_gpu: int, port_speed_gbit_per_s: float, oversubscription: float
) -> Bandwidth:
    """Injection, bisection and busbw figures (1 GiB messages) plus the busbw curve."""
    per_gpu_gbit_per_s = ports_per_gpu * port_speed_gbit_per_s
    bisection = model.gpus * per_gpu_gbit_per_s / 2 / oversubscription / 1000
    curve = tuple(
        (
            size,
            model.allreduce_busbw_gbyte_per_s(message_bytes=size),
            model.alltoall_busbw_gbyte_per_s(message_bytes=size),
        )
        for size in MESSAGE_SIZES_BYTES
    )
    return Bandwidth(
        per_gpu_gbit_per_s=per_gpu_gbit_per_s,
        bisection_tbit_per_s=bisection,
        allreduce_busbw_gbyte_per_s=model.allreduce_busbw_gbyte_per_s(message_bytes=GIB),
        allreduce_bound=model.allreduce_bound_level,
        alltoall_busbw_gbyte_per_s=model.alltoall_busbw_gbyte_per_s(message_bytes=GIB),
        alltoall_bound=model.alltoall_bound_level,
        scale_up_gbyte_per_s=model.scale_up_gbyte_per_s,
        network_gbyte_per_s=model.network_gbyte_per_s,
        curve=curve,
    )


@dataclass(frozen=True)
class Latency:
    """One-way GPU-to-GPU latency over the network, broken down [ns]."""

    min_switch_hops: int
    max_switch_hops: int
    components_ns: tuple[tuple[str, float], ...]
    """Worst-case path: (component, ns)."""
    gpu_to_gpu_min_ns: float
    gpu_to_gpu_ns: float
    """Worst case (across the top tier) [ns]."""
    allreduce_small_us: float
    """All-reduce of 8 bytes over all GPUs [us]."""


def path_latency_ns(
    *,
    link_latency_ns: tuple[float, ...],
    nic_latency_ns: float,
    switch_latency_ns: tuple[float, ...],
) -> tuple[tuple[str, float], ...]:
    """Latency components [ns] of a path over the given links and through the given switches.

    Notes
    -----
    latency = host/NIC + links x (SerDes+FEC) + optics DSP and propagation per link
    + the latency of every switch crossed. Propagation is about 5 ns per metre of fiber.
    """
    links = len(link_latency_ns)
    return (
        ("host_nic", nic_latency_ns),
        ("serdes_fec", links * SERDES_FEC_NS_PER_LINK),
        ("optics_and_propagation", sum(link_latency_ns)),
        ("switches", sum(switch_latency_ns)),
    )
