"""Failures, checkpoints and goodput of a training job on a planned cluster.

Failure rates per component class are calibrated to the one published large run with a root
cause table: Llama 3 405B pre-training on 16,384 H100 GPUs (2,048 servers of 8), a 54-day
snapshot with 419 unexpected job interruptions (Table 5 of the paper). Each class's rate is its
interruptions divided by the unit-hours of that class in the run; a job on ``N`` GPUs then sees
``sum(units_c x rate_c)`` interruptions per hour.

Mapping of the paper's categories (Table 5, interruption counts) to catalog classes:

===================  ==================================================================  =====
class (units)        Llama 3 categories                                                  count
===================  ==================================================================  =====
gpu (GPUs)           Faulty GPU 148, GPU HBM3 memory 72, GPU SRAM memory 19, GPU system    268
                     processor 17, silent data corruption 6, GPU thermal interface and
                     sensor 6
software (GPUs)      software bug 54, NCCL watchdog timeouts 7, dependency 2                63
host (servers)       host maintenance 32, SSD 3, power supply 3, server chassis 2, IO        46
                     expansion board 2, CPU 2, system memory 2
nic (NIC ports)      NIC 7                                                                    7
network (links,      network switch/cable 35, split between links and switches in the       35
switches)            ratio of Alibaba HPN's per-unit rates (0.057 % of NIC-ToR links and
                     0.051 % of ToRs fail per month)
===================  ==================================================================  =====

The counts sum to 419. (The paper's percentages fit 126 rather than 148 faulty-GPU
interruptions; its counts are used because they add up to its total.)

Notes
-----
- rate_c = count_c / (units_c x 1296 h), rounded to three significant figures. The rates, the
  HPN fractions and the checkpoint defaults are catalog records (``data/reliability.yaml``, each
  with its derivation), overridable with ``--catalog``; see :data:`COEFFICIENT_IDS`. Reproducing
  419 from them (within 1 %, ``tests/test_reliability.py``) is a calibration check: the rates
  were derived from 419, so it checks the wiring, not the model;
- the Llama 3 network (RoCE, 400 Gb/s per GPU, three-layer Clos) is modelled as a
  non-blocking three-tier fat tree of 64-port 400G switches: 49,152 links and 1,280 switches
  (Meta's exact counts are not public; the split does not change the total);
- checkpoint write time ``delta = size / write bandwidth``; mean time between interruptions
  ``M = 1 / rate``; restart ``R`` = fixed restart time + checkpoint read time;
- wasted fraction ``W(tau) = delta / tau + (tau / 2 + R) / M`` (checkpoint stalls, expected
  rework of half an interval, restart); ``dW/dtau = 0`` gives Young's optimum
  ``tau* = sqrt(2 delta M)``; goodput = 1 - W(tau*), valid while ``delta << M``;
- time to train including failures = failure-free time / goodput.

References
----------
A. Grattafiori et al., "The Llama 3 Herd of Models", arXiv 2407.21783, 2024, section 3.3.4 and
Table 5 (interruptions), section 3.3.1 (checkpoints, storage). K. Qian et al., "Alibaba HPN: A
Data Center Network for Large Language Model Training", SIGCOMM 2024 (link and ToR failure rates).
J. W. Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9), 1974.
J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps",
Future Generation Computer Systems 22(3), 2006.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from planner.catalog import Catalog, load_catalog
from planner.catalog.rules import rule_values
from planner.engine import Plan
from planner.errors import InputError
from planner.fabric.topology import Topology
from planner.i18n.message import msg
from planner.inputs.reliability import ReliabilityParams
from planner.units import ceil_div

if TYPE_CHECKING:
    import pandas as pd

HOURS_PER_DAY = 24.0

LLAMA3_GPUS = 16_384
LLAMA3_SERVERS = 2_048
LLAMA3_HOURS = 54 * 24
"""The 54-day snapshot of Table 5 [h]."""
LLAMA3_UNEXPECTED_INTERRUPTIONS = 419
LLAMA3_CATEGORIES: Mapping[str, tuple[int, str]] = {
    "Faulty GPU": (148, "gpu"),
    "GPU HBM3 memory": (72, "gpu"),
    "Software bug": (54, "software"),
    "Network switch/cable": (35, "network"),
    "Host maintenance": (32, "host"),
    "GPU SRAM memory": (19, "gpu"),
    "GPU system processor": (17, "gpu"),
    "NIC": (7, "nic"),
    "NCCL watchdog timeouts": (7, "software"),
    "Silent data corruption": (6, "gpu"),
    "GPU thermal interface and sensor": (6, "gpu"),
    "SSD": (3, "host"),
    "Power supply": (3, "host"),
    "Server chassis": (2, "host"),
    "IO expansion board": (2, "host"),
    "Dependency": (2, "software"),
    "CPU": (2, "host"),
    "System memory": (2, "host"),
}
"""Table 5 of arXiv 2407.21783: category -> (unexpected interruptions, catalog class)."""

LLAMA3_NETWORK_LINKS = 49_152
"""Three-tier fat tree of 64-port switches for 16,384 endpoints: 3 x 16,384 links."""
LLAMA3_NETWORK_SWITCHES = 1_280
"""Same fabric: 512 leaves + 512 spines + 256 cores."""

FailureClassName = Literal["gpu", "software", "host", "nic", "link", "switch"]
FAILURE_CLASSES: Mapping[FailureClassName, tuple[str, str]] = {
    "gpu": ("GPUs", "failure_rate_gpu_per_million_h"),
    "software": ("GPUs", "failure_rate_software_per_million_h"),
    "host": ("servers", "failure_rate_host_per_million_h"),
    "nic": ("NIC ports", "failure_rate_nic_per_million_h"),
    "link": ("links", "failure_rate_link_per_million_h"),
    "switch": ("switches", "failure_rate_switch_per_million_h"),
}
"""class -> (unit counted, id of its calibrated rate [per 10^6 unit-hours] in ``sizing_rules``)."""

HPN_LINK_FRACTION_ID = "hpn_link_failure_fraction_per_month"
HPN_TOR_FRACTION_ID = "hpn_tor_failure_fraction_per_month"
CHECKPOINT_BYTES_PER_PARAM_ID = "checkpoint_bytes_per_param"
RESTART_MIN_ID = "checkpoint_restart_min"
COEFFICIENT_IDS: tuple[str, ...] = (
    *(rule_id for _, rule_id in FAILURE_CLASSES.values()),
    HPN_LINK_FRACTION_ID,
    HPN_TOR_FRACTION_ID,
    CHECKPOINT_BYTES_PER_PARAM_ID,
    RESTART_MIN_ID,
)
"""Ids of the reliability model's records in the catalog's ``sizing_rules`` family
(``data/reliability.yaml``, each with its derivation)."""


@dataclass(frozen=True)
class ReliabilityCoefficients:
    """The reliability model's coefficients, read from the catalog (``data/reliability.yaml``)."""

    rates_per_million_h: Mapping[FailureClassName, float]
    """Calibrated interruptions per 10^6 unit-hours of each failure class (calibration: Llama 3)."""
    hpn_link_failure_fraction_per_month: float
    """Alibaba HPN: share of NIC-ToR links failing per month [-]."""
    hpn_tor_failure_fraction_per_month: float
    """Alibaba HPN: share of ToR switches with critical errors per month [-]."""
    checkpoint_bytes_per_param: float
    """Default checkpoint bytes per parameter [B] (mixed-precision Adam, no gradients)."""
    restart_min: float
    """Default restart time without the checkpoint read [min] (assumption)."""


def reliability_coefficients(catalog: Catalog | None = None) -> ReliabilityCoefficients:
    """The model's coefficients from ``catalog`` (the bundled catalog when ``None``).

    Parameters
    ----------
    catalog : Catalog or None
        The catalog whose ``sizing_rules`` records (:data:`COEFFICIENT_IDS`) hold the
        coefficients; the bundled catalog when ``None``.

    Returns
    -------
    ReliabilityCoefficients
        Interruption rate of each failure class [1 per 10^6 unit-hours], Alibaba HPN's monthly
        link and ToR failure shares [fraction per month], default checkpoint size [B per
        parameter] and default restart time [min].

    Raises
    ------
    CatalogError
        A coefficient record is missing; the message names it.
    """
    values = rule_values(
        catalog if catalog is not None else load_catalog(),
        COEFFICIENT_IDS,
        needed_by=msg("the reliability model"),
    )
    return ReliabilityCoefficients(
        rates_per_million_h={name: values[rule_id] for name, (_, rule_id) in FAILURE_CLASSES.items()},
        hpn_link_failure_fraction_per_month=values[HPN_LINK_FRACTION_ID],
        hpn_tor_failure_fraction_per_month=values[HPN_TOR_FRACTION_ID],
        checkpoint_bytes_per_param=values[CHECKPOINT_BYTES_PER_PARAM_ID],
        restart_min=values[RESTART_MIN_ID],
    )


@dataclass(frozen=True)
class ComponentCounts:
    """Units of each failure class [count]."""

    gpus: int
    servers: int
    nic_ports: int
    links: int
    switches: int

    def units(self, failure_class: FailureClassName) -> int:
        return {
            "gpu": self.gpus,
            "software": self.gpus,
            "host": self.servers,
            "nic": self.nic_ports,
            "link": self.links,
            "switch": self.switches,
        }[failure_class]


LLAMA3_COUNTS = ComponentCounts(
    gpus=LLAMA3_GPUS,
    servers=LLAMA3_SERVERS,
    nic_ports=LLAMA3_GPUS,
    links=LLAMA3_NETWORK_LINKS,
    switches=LLAMA3_NETWORK_SWITCHES,
)


def interruptions_per_hour(
    *, counts: ComponentCounts, failure_rate_scale: float = 1.0, catalog: Catalog | None = None
) -> dict[str, float]:
    """Expected interruptions per hour by failure class [1/h].

    Parameters
    ----------
    counts : ComponentCounts
        Units of each failure class [count].
    failure_rate_scale : float
        Multiplier on every calibrated rate [-].
    catalog : Catalog or None
        Where the rates are read (``sizing_rules``); the bundled catalog when ``None``.

    Returns
    -------
    dict[str, float]
        Failure class (``gpu``, ``software``, ``host``, ``nic``, ``link``, ``switch``) ->
        expected interruptions per hour it causes [1/h].

    Notes
    -----
    rate = sum over classes of units_c x rate_c x scale.

    >>> rates = interruptions_per_hour(counts=LLAMA3_COUNTS)
    >>> round(sum(rates.values()) * LLAMA3_HOURS)  # Llama 3: 419 in 54 days
    419
    """
    return _per_hour(counts, reliability_coefficients(catalog).rates_per_million_h, failure_rate_scale)


def _per_hour(
    counts: ComponentCounts, rates_per_million_h: Mapping[FailureClassName, float], scale: float
) -> dict[str, float]:
    return {name: counts.units(name) * rate / 1e6 * scale for name, rate in rates_per_million_h.items()}


def young_interval_s(*, checkpoint_write_s: float, mtbi_s: float) -> float:
    """Young's optimum checkpoint interval [s]: ``sqrt(2 delta M)``.

    Parameters
    ----------
    checkpoint_write_s : float
        Time the job stalls to write one checkpoint, ``delta`` [s].
    mtbi_s : float
        Mean time between interruptions of the job, ``M`` [s].

    Returns
    -------
    float
        The interval between checkpoints that minimises the wasted fraction, ``tau*`` [s]
        (Young 1974; first order, valid while ``delta << M``).

    Examples
    --------
    >>> round(young_interval_s(checkpoint_write_s=60, mtbi_s=86400), 1)  # sqrt(2*60*86400)
    3219.9
    """
    return math.sqrt(2.0 * checkpoint_write_s * mtbi_s)


def wasted_fractions(
    *, interval_s: float, checkpoint_write_s: float, mtbi_s: float, restart_s: float
) -> tuple[float, float, float]:
    """Shares of wall time lost to (checkpoint stalls, rework, restarts) [-].

    Parameters
    ----------
    interval_s : float
        Time between the starts of two checkpoints, ``tau`` [s].
    checkpoint_write_s : float
        Stall to write one checkpoint, ``delta`` [s].
    mtbi_s : float
        Mean time between interruptions, ``M`` [s].
    restart_s : float
        Time from an interruption to training again (restart and checkpoint read), ``R`` [s].

    Returns
    -------
    tuple[float, float, float]
        Checkpoint-stall, rework and restart shares of wall time [fraction]; not clipped, so
        their sum can exceed 1 when ``tau`` or ``R`` is long against ``M``.

    Notes
    -----
    ``delta / tau``, ``tau / (2 M)``, ``R / M`` (Young 1974, first order).

    >>> wasted_fractions(interval_s=3600, checkpoint_write_s=36, mtbi_s=36000, restart_s=360)
    (0.01, 0.05, 0.01)
    """
    return checkpoint_write_s / interval_s, interval_s / (2.0 * mtbi_s), restart_s / mtbi_s


def goodput_fraction(
    *, interval_s: float, checkpoint_write_s: float, mtbi_s: float, restart_s: float
) -> float:
    """Useful share of wall time [-]: ``1 - W(tau)``, never below 0.

    Parameters
    ----------
    interval_s : float
        Checkpoint interval ``tau`` [s].
    checkpoint_write_s : float
        Stall to write one checkpoint, ``delta`` [s].
    mtbi_s : float
        Mean time between interruptions, ``M`` [s].
    restart_s : float
        Restart time including the checkpoint read, ``R`` [s].

    Returns
    -------
    float
        Goodput, ``max(0, 1 - delta/tau - tau/(2 M) - R/M)`` [fraction] (see
        :func:`wasted_fractions`).
    """
    return _goodput(
        wasted_fractions(
            interval_s=interval_s, checkpoint_write_s=checkpoint_write_s, mtbi_s=mtbi_s, restart_s=restart_s
        )
    )


def _goodput(wasted: tuple[float, float, float]) -> float:
    """``1 - W`` from the three wasted shares of :func:`wasted_fractions`, never below 0 [-]."""
    ckpt, rework, restart = wasted
    return max(0.0, 1.0 - ckpt - rework - restart)


@dataclass(frozen=True)
class FailureImpact:
    """What one failed element does to the fabric and to a synchronous job."""

    element: str
    """``node-leaf link``, ``leaf switch``, ``leaf-spine link``, ``spine switch``, ..., ``plane``."""
    kind: Literal["link", "switch", "plane"]
    elements: int
    """Such elements in the fabric [count]."""
    gpus_affected: int
    gpu_bandwidth_lost_fraction: float
    """Share of an affected GPU's network bandwidth lost [-]; 1 = cut off."""
    capacity_lost_fraction: float
    """Share of that tier's (or the fabric's, for a plane) capacity lost [-]."""
    survivable: bool
    """Every GPU keeps a path: with failover the job runs on at reduced bandwidth."""

    @property
    def job_bandwidth_lost_fraction(self) -> float:
        """A synchronous job runs at its slowest rank: the affected GPU's loss [-]."""
        return self.gpu_bandwidth_lost_fraction


def failure_impacts(*, plan: Plan) -> tuple[FailureImpact, ...]:
    """Bandwidth lost when one link, one switch of each tier, or one plane fails.

    Parameters
    ----------
    plan : Plan
        The cluster; its scale-out fabric (``plan.topology``: tiers, planes, ports per GPU,
        switch and link counts) is examined, the job taken to span every GPU.

    Returns
    -------
    tuple[FailureImpact, ...]
        One impact per element kind, in this order: node-leaf link, leaf switch, then with two
        or more tiers leaf-spine link and spine switch, with three tiers spine-core link and core
        switch, and last the plane; each with its element count [count], GPUs affected [count],
        bandwidth lost per affected GPU and capacity lost [fraction], and whether the job
        survives it. Empty when the plan has no scale-out fabric (one scale-up domain).

    Notes
    -----
    A GPU has ``p`` ports, ``max(1, p / planes)`` on each plane, so a plane carries a share
    ``s = ports on the plane / p`` of its bandwidth. A node-leaf link costs the GPU ``1/p``; a
    leaf costs its GPUs ``s``; a leaf-spine link costs the leaf's GPUs ``s / u`` (``u`` leaf
    uplinks); a spine costs ``s / spines`` (two tiers; ``s / u`` within a three-tier pod); a core
    ``s / cores``; a plane ``s``. An element is survivable when no GPU loses every port and the
    tier above keeps another switch.
    """
    topo = plan.topology
    if not topo.tiers:
        return ()  # one scale-up domain, no scale-out fabric: no network element to lose
    p = topo.ports_per_gpu
    # a GPU's share of its bandwidth that one plane carries
    share = max(1, p // topo.planes) / p
    leaves_per_plane = max(1, topo.switches_leaf // topo.planes)
    ports_per_leaf = ceil_div(topo.endpoints_per_plane, leaves_per_plane)
    gpus_per_leaf = min(plan.gpus, ceil_div(ports_per_leaf, max(1, p // topo.planes)))
    impacts = [
        FailureImpact(
            msg("node-leaf link"), "link", topo.links_node_leaf, 1, 1.0 / p, 1.0 / topo.links_node_leaf, p > 1
        ),
        FailureImpact(
            msg("leaf switch"),
            "switch",
            topo.switches_leaf,
            gpus_per_leaf,
            share,
            1.0 / topo.switches_leaf,
            share < 1,
        ),
    ]
    if topo.tiers >= 2:
        impacts += _spine_impacts(topo, plan.gpus, share, gpus_per_leaf)
    if topo.tiers == 3:
        impacts += _core_impacts(topo, plan.gpus, share)
    impacts.append(
        FailureImpact(msg("plane"), "plane", topo.planes, plan.gpus, share, 1.0 / topo.planes, share < 1)
    )
    return tuple(impacts)


def _spine_impacts(topo: Topology, gpus: int, share: float, gpus_per_leaf: int) -> list[FailureImpact]:
    """A leaf-spine link and a spine switch (two tiers: shared by all; three: by one pod)."""
    spines_per_plane = max(1, topo.switches_spine // topo.planes)
    link = FailureImpact(
        msg("leaf-spine link"),
        "link",
        topo.links_leaf_spine,
        gpus_per_leaf,
        share / topo.leaf_up_ports,
        1.0 / topo.links_leaf_spine,
        True,
    )
    if topo.tiers == 2:
        spine_gpus, spine_loss, spine_peers = gpus, share / spines_per_plane, spines_per_plane
    else:
        spine_gpus = ceil_div(gpus, max(1, topo.pods_per_plane))
        spine_loss, spine_peers = share / topo.leaf_up_ports, topo.leaf_up_ports
    switch = FailureImpact(
        msg("spine switch"),
        "switch",
        topo.switches_spine,
        spine_gpus,
        spine_loss,
        1.0 / topo.switches_spine,
        spine_peers > 1,
    )
    return [link, switch]


def _core_impacts(topo: Topology, gpus: int, share: float) -> list[FailureImpact]:
    """A spine-core link (one pod's GPUs) and a core switch (every GPU)."""
    cores_per_plane = max(1, topo.switches_core // topo.planes)
    pod_uplinks = max(1, topo.links_spine_core // topo.planes // max(1, topo.pods_per_plane))
    return [
        FailureImpact(
            msg("spine-core link"),
            "link",
            topo.links_spine_core,
            ceil_div(gpus, max(1, topo.pods_per_plane)),
            share / pod_uplinks,
            1.0 / topo.links_spine_core,
            True,
        ),
        FailureImpact(
            msg("core switch"),
            "switch",
            topo.switches_core,
            gpus,
            share / cores_per_plane,
            1.0 / topo.switches_core,
            cores_per_plane > 1,
        ),
    ]


def component_counts(*, plan: Plan) -> ComponentCounts:
    """Units of each failure class in a plan (NIC ports = node-leaf links).

    Parameters
    ----------
    plan : Plan
        The cluster: its GPUs, servers (``plan.nodes``) and scale-out fabric.

    Returns
    -------
    ComponentCounts
        GPUs, servers, NIC ports (the node-leaf links), every link and every switch of the
        fabric (all tiers and planes) [count].
    """
    topo = plan.topology
    return ComponentCounts(
        gpus=plan.gpus,
        servers=plan.nodes,
        nic_ports=topo.links_node_leaf,
        links=topo.links_total,
        switches=topo.switches_total,
    )


@dataclass(frozen=True)
class ClassRate:
    """Interruptions (and survivable degradations) of one failure class."""

    failure_class: str
    unit: str
    units: int
    rate_per_million_hours: float
    interruptions_per_day: float
    degradations_per_day: float
    """Failures the job survives (only with network failover) [1/day]."""


@dataclass(frozen=True)
class Reliability:
    """Interruptions, checkpointing and goodput of a job on every GPU of one plan."""

    design_id: str
    gpus: int
    by_class: tuple[ClassRate, ...]
    interruptions_per_day: float
    degradations_per_day: float
    mtbi_hours: float
    checkpoint_gbyte: float
    write_bandwidth_gbyte_per_s: float
    read_bandwidth_gbyte_per_s: float
    checkpoint_write_s: float
    restart_s: float
    optimal_interval_s: float
    checkpoint_interval_s: float
    """The interval evaluated: the optimum unless the user set one [s]."""
    goodput: float
    checkpoint_fraction: float
    rework_fraction: float
    restart_fraction: float
    failure_impacts: tuple[FailureImpact, ...]
    notes: tuple[str, ...]

    @property
    def checkpoint_interval_min(self) -> float:
        return self.checkpoint_interval_s / 60.0

    @property
    def mtbi_s(self) -> float:
        return self.mtbi_hours * 3600.0

    def wasted_at(self, *, interval_s: float, failure_rate_scale: float = 1.0) -> tuple[float, float, float]:
        """Shares of wall time lost to (checkpoint stalls, rework, restarts) [-] at another
        interval ``interval_s`` [s], or with every failure rate scaled by ``failure_rate_scale``
        [-] (same checkpoint and restart times; :func:`wasted_fractions`)."""
        return wasted_fractions(
            interval_s=interval_s,
            checkpoint_write_s=self.checkpoint_write_s,
            mtbi_s=self.mtbi_s / failure_rate_scale,
            restart_s=self.restart_s,
        )

    def goodput_at(self, *, interval_s: float, failure_rate_scale: float = 1.0) -> float:
        """Goodput [-] at another interval, or with every failure rate scaled (same sizes)."""
        return _goodput(self.wasted_at(interval_s=interval_s, failure_rate_scale=failure_rate_scale))

    def optimal_goodput(self, *, failure_rate_scale: float = 1.0) -> float:
        """Goodput [-] at Young's optimum for failure rates scaled by ``failure_rate_scale``."""
        mtbi_s = self.mtbi_s / failure_rate_scale
        interval_s = young_interval_s(checkpoint_write_s=self.checkpoint_write_s, mtbi_s=mtbi_s)
        return self.goodput_at(interval_s=interval_s, failure_rate_scale=failure_rate_scale)


def _interrupting_counts(plan: Plan, impacts: Sequence[FailureImpact], failover: bool) -> ComponentCounts:
    counts = component_counts(plan=plan)
    if not failover:
        return counts
    lost_links = sum(i.elements for i in impacts if i.kind == "link" and not i.survivable)
    lost_switches = sum(i.elements for i in impacts if i.kind == "switch" and not i.survivable)
    return ComponentCounts(
        gpus=counts.gpus,
        servers=counts.servers,
        nic_ports=counts.nic_ports if plan.topology.ports_per_gpu == 1 else 0,
        links=lost_links,
        switches=lost_switches,
    )


def reliability(*, plan: Plan, params: ReliabilityParams, catalog: Catalog | None = None) -> Reliability:
    """Interruption rate, MTBI, Young's checkpoint interval and goodput for a job on ``plan``.

    Parameters
    ----------
    plan
        The cluster; the job uses every GPU.
    params
        Checkpoint size, restart time, failure-rate multiplier, failover (see the model).
    catalog
        The catalog the plan was made with: the failure rates and the checkpoint defaults are its
        ``sizing_rules`` records (:data:`COEFFICIENT_IDS`); the bundled catalog when ``None``.

    Returns
    -------
    Reliability
        Rates per class [1/day], MTBI [h], interval [s], goodput [-], failure impacts.

    Notes
    -----
    See the module notes: ``M = 1 / sum(units x rate)``, ``tau* = sqrt(2 delta M)``,
    ``goodput = 1 - delta/tau - (tau/2 + R)/M``.
    """
    coef = reliability_coefficients(catalog)
    impacts = failure_impacts(plan=plan)
    by_class, per_hour = _class_rates(plan, impacts, params, coef)
    mtbi_s = 3600.0 / per_hour
    store = _checkpoint_storage(plan, params, coef)
    delta_s = store.checkpoint_gbyte / store.write_gbyte_per_s
    restart_min = coef.restart_min if params.restart_min is None else params.restart_min
    restart_s = restart_min * 60.0 + store.checkpoint_gbyte / store.read_gbyte_per_s
    optimum_s = young_interval_s(checkpoint_write_s=delta_s, mtbi_s=mtbi_s)
    interval_s = (
        optimum_s if params.checkpoint_interval_min is None else params.checkpoint_interval_min * 60.0
    )
    ckpt, rework, restart = wasted_fractions(
        interval_s=interval_s, checkpoint_write_s=delta_s, mtbi_s=mtbi_s, restart_s=restart_s
    )
    notes = []
    if delta_s > 0.1 * mtbi_s:
        notes.append(
            msg(
                "checkpoint write ({write_s:,.0f} s) is more than 10 % of the MTBI ({mtbi_s:,.0f} s): "
                "Young's first-order optimum loses accuracy; add storage bandwidth",
                write_s=delta_s,
                mtbi_s=mtbi_s,
            )
        )
    if params.network_failover and plan.topology.ports_per_gpu == 1:
        notes.append(msg("one port per GPU: a NIC, node-leaf link or leaf failure still stops the job"))
    return Reliability(
        design_id=plan.design_id,
        gpus=plan.gpus,
        by_class=by_class,
        interruptions_per_day=per_hour * HOURS_PER_DAY,
        degradations_per_day=sum(c.degradations_per_day for c in by_class),
        mtbi_hours=mtbi_s / 3600.0,
        checkpoint_gbyte=store.checkpoint_gbyte,
        write_bandwidth_gbyte_per_s=store.write_gbyte_per_s,
        read_bandwidth_gbyte_per_s=store.read_gbyte_per_s,
        checkpoint_write_s=delta_s,
        restart_s=restart_s,
        optimal_interval_s=optimum_s,
        checkpoint_interval_s=interval_s,
        goodput=_goodput((ckpt, rework, restart)),
        checkpoint_fraction=ckpt,
        rework_fraction=rework,
        restart_fraction=restart,
        failure_impacts=impacts,
        notes=tuple(notes),
    )


def _class_rates(
    plan: Plan, impacts: Sequence[FailureImpact], params: ReliabilityParams, coef: ReliabilityCoefficients
) -> tuple[tuple[ClassRate, ...], float]:
    """Interruptions and survivable degradations per failure class, and interruptions per hour."""
    all_counts = component_counts(plan=plan)
    stop_counts = _interrupting_counts(plan, impacts, params.network_failover)
    rates, scale = coef.rates_per_million_h, params.failure_rate_scale
    stop_rates = _per_hour(stop_counts, rates, scale)
    all_rates = _per_hour(all_counts, rates, scale)
    by_class = tuple(
        ClassRate(
            failure_class=name,
            unit=unit,
            units=all_counts.units(name),
            rate_per_million_hours=rates[name] * scale,
            interruptions_per_day=stop_rates[name] * HOURS_PER_DAY,
            degradations_per_day=(all_rates[name] - stop_rates[name]) * HOURS_PER_DAY,
        )
        for name, (unit, _) in FAILURE_CLASSES.items()
    )
    return by_class, sum(stop_rates.values())


@dataclass(frozen=True)
class _CheckpointStorage:
    checkpoint_gbyte: float
    write_gbyte_per_s: float
    read_gbyte_per_s: float


def _checkpoint_storage(
    plan: Plan, params: ReliabilityParams, coef: ReliabilityCoefficients
) -> _CheckpointStorage:
    """Checkpoint size and the storage bandwidth that writes and reads it (a user figure wins)."""
    bytes_per_param = (
        coef.checkpoint_bytes_per_param
        if params.checkpoint_bytes_per_param is None
        else params.checkpoint_bytes_per_param
    )
    checkpoint_gbyte = (
        params.checkpoint_gbyte
        if params.checkpoint_gbyte is not None
        else (params.params_b or 0.0) * bytes_per_param
    )
    aux = plan.auxiliary
    write_gbyte_per_s = (
        params.write_bandwidth_gbyte_per_s or aux.storage_units * aux.storage.write_bandwidth_gbyte_per_s
    )
    read_gbyte_per_s = aux.storage_units * aux.storage.read_bandwidth_gbyte_per_s
    if params.write_bandwidth_gbyte_per_s is not None:
        read_gbyte_per_s = max(read_gbyte_per_s, params.write_bandwidth_gbyte_per_s)
    return _CheckpointStorage(checkpoint_gbyte, write_gbyte_per_s, read_gbyte_per_s)


def goodput_curve(*, result: Reliability, intervals_min: Sequence[float] | None = None) -> pd.DataFrame:
    """Goodput and its losses against the checkpoint interval (default optimum / 10 ... x 10).

    Parameters
    ----------
    result : Reliability
        A result of :func:`reliability`; its checkpoint write time [s], MTBI [s] and restart
        time [s] are held while the interval varies.
    intervals_min : sequence of float or None
        Checkpoint intervals to evaluate [min], each > 0; ``None``: 41 intervals spaced
        evenly in log from a tenth of Young's optimum to ten times it.

    Returns
    -------
    pandas.DataFrame
        One row per interval. Columns: ``checkpoint_interval_min`` [min], ``goodput``,
        ``checkpoint_fraction``, ``rework_fraction``, ``restart_fraction`` [fraction of wall
        time], ``optimal`` (bool: the row of Young's optimum).

    Raises
    ------
    InputError
        ``intervals_min`` is empty or holds an interval <= 0.
    """
    import numpy as np
    import pandas as pd

    optimum_min = result.optimal_interval_s / 60.0
    if intervals_min is None:
        grid = optimum_min * np.logspace(-1.0, 1.0, 41)
    else:
        grid = np.asarray(list(intervals_min), dtype=float)
        if grid.size == 0 or np.any(grid <= 0):
            raise InputError(msg("intervals_min: every interval must be > 0 (allowed: 0 to inf)"))
    rows = []
    for minutes in grid:
        wasted = result.wasted_at(interval_s=float(minutes) * 60.0)
        ckpt, rework, restart = wasted
        rows.append(
            {
                "checkpoint_interval_min": float(minutes),
                "goodput": _goodput(wasted),
                "checkpoint_fraction": ckpt,
                "rework_fraction": rework,
                "restart_fraction": restart,
                "optimal": math.isclose(float(minutes), optimum_min, rel_tol=1e-9),
            }
        )
    return pd.DataFrame(rows)


def reliability_to_dict(result: Reliability) -> dict[str, object]:
    """JSON-ready view (units in the keys).

    Parameters
    ----------
    result : Reliability
        A result of :func:`reliability`.

    Returns
    -------
    dict[str, object]
        Design id, GPUs [count], interruptions and degradations [1/day], MTBI [h], checkpoint
        size [GB], write bandwidth [GB/s], write and restart times [s], optimal and evaluated
        intervals [min], goodput and the three wasted shares [fraction], the per-class rates
        (``by_class``), the failure impacts, the notes and the calibration's source; floats
        rounded to 1-6 decimals.
    """
    return {
        "design": result.design_id,
        "gpus": result.gpus,
        "interruptions_per_day": round(result.interruptions_per_day, 4),
        "degradations_per_day": round(result.degradations_per_day, 4),
        "mtbi_hours": round(result.mtbi_hours, 3),
        "checkpoint_gbyte": round(result.checkpoint_gbyte, 3),
        "write_bandwidth_gbyte_per_s": round(result.write_bandwidth_gbyte_per_s, 3),
        "checkpoint_write_s": round(result.checkpoint_write_s, 3),
        "restart_s": round(result.restart_s, 1),
        "optimal_interval_min": round(result.optimal_interval_s / 60.0, 3),
        "checkpoint_interval_min": round(result.checkpoint_interval_min, 3),
        "goodput": round(result.goodput, 5),
        "wasted": {
            "checkpoint_fraction": round(result.checkpoint_fraction, 5),
            "rework_fraction": round(result.rework_fraction, 5),
            "restart_fraction": round(result.restart_fraction, 5),
        },
        "by_class": [
            {
                "class": c.failure_class,
                "unit": c.unit,
                "units": c.units,
                "rate_per_million_hours": c.rate_per_million_hours,
                "interruptions_per_day": round(c.interruptions_per_day, 5),
                "degradations_per_day": round(c.degradations_per_day, 5),
            }
            for c in result.by_class
        ],
        "failure_impacts": [
            {
                "element": i.element,
                "elements": i.elements,
                "gpus_affected": i.gpus_affected,
                "gpu_bandwidth_lost_fraction": round(i.gpu_bandwidth_lost_fraction, 5),
                "capacity_lost_fraction": round(i.capacity_lost_fraction, 6),
                "survivable": i.survivable,
            }
            for i in result.failure_impacts
        ],
        "notes": list(result.notes),
        "calibration": msg(
            "failure rates calibrated to Llama 3 405B ({interruptions} unexpected "
            "interruptions, {gpus} H100, 54 days; arXiv 2407.21783 Table 5)",
            interruptions=LLAMA3_UNEXPECTED_INTERRUPTIONS,
            gpus=LLAMA3_GPUS,
        ),
    }
