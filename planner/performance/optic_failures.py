"""Reliability by optic kind: what one optic failure takes down, how long it stays down, and what
that costs a synchronous job's step time.

Kinds (the ``kind`` of a catalog optic): ``pluggable`` (DSP module), ``lpo`` (linear-drive
module), ``npo`` (near-package engine), ``cpo`` (co-packaged engine). A pluggable or LPO module
takes its own ports down until it is swapped; an NPO or CPO engine takes its whole device (a
switch, or a server's end) out of service while it is repaired. Rates, repair times and engine
sizes are catalog records (``data/reliability.yaml``, ``optic_*``), each sourced or an assumption
with its reason.

Notes
-----
Per link end of each link class (:class:`planner.fabric.media.LinkEnd`): optical units ``u`` =
modules (pluggable, LPO) or engines ``devices x ceil(ports per device / engine ports)`` (NPO,
CPO); failures per hour ``lambda = u x rate``; a failure keeps its element down for the repair
time ``R``, so the element is down a share ``p = lambda x R`` of the time (``p << 1``). The
element lost is a link (modules: one port per failure) or the device (engines: a leaf or spine
switch, or a GPU's ports). Losing it costs the slowest rank a share ``f`` of its bandwidth
(:func:`planner.performance.reliability.failure_impacts`), so the exposed communication ``c``
of a step of length ``T`` grows to ``c / (1 - f)``: slowdown ``s = (c / T) f / (1 - f)``.
The job's throughput is then ``1 / (1 + sum p s)`` of the failure-free one. An element whose loss
cuts a GPU off (``f = 1``) interrupts the job instead; the interruption model counts it
(:mod:`planner.performance.reliability`), so it adds no slowdown here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from planner.catalog import Catalog
from planner.catalog.rules import rule_values
from planner.engine import Plan
from planner.performance.reliability import FailureImpact, failure_impacts

OpticKind = Literal["pluggable", "lpo", "npo", "cpo"]
OPTIC_KINDS: tuple[OpticKind, ...] = get_args(OpticKind)
ENGINE_KINDS: tuple[OpticKind, ...] = ("npo", "cpo")
"""Kinds whose failure takes the whole device out of service while it is repaired."""


@dataclass(frozen=True, kw_only=True)
class OpticKindRates:
    """Failure rate, repair time and ports per failure of one optic kind."""

    kind: str
    failures_per_million_h: float
    """Per optical unit (module or engine) [1/10^6 h]."""
    repair_h: float
    """Time the failed element stays down [h]."""
    engine_ports: int
    """Ports of one engine [count]; 0 for modules (a module's own ports)."""

    @property
    def takes_device_down(self) -> bool:
        return self.kind in ENGINE_KINDS


def optic_rates(catalog: Catalog) -> dict[str, OpticKindRates]:
    """The catalog's ``optic_*`` records, by kind.

    Parameters
    ----------
    catalog : Catalog
        Loaded catalog holding the ``optic_failure_rate_<kind>_per_million_h`` and
        ``optic_repair_h_<kind>`` rules for every kind and ``optic_engine_ports_<kind>`` for NPO
        and CPO (``data/reliability.yaml``).

    Returns
    -------
    dict[str, OpticKindRates]
        Kind (``pluggable``, ``lpo``, ``npo``, ``cpo``) -> its failure rate per optical unit
        [1/10^6 h], repair time [h] and ports per engine [count] (0 for modules).

    Raises
    ------
    CatalogError
        A rule is missing.
    """
    ids = [f"optic_failure_rate_{k}_per_million_h" for k in OPTIC_KINDS]
    ids += [f"optic_repair_h_{k}" for k in OPTIC_KINDS]
    ids += [f"optic_engine_ports_{k}" for k in ENGINE_KINDS]
    values = rule_values(catalog, ids, needed_by="reliability by optic kind")
    return {
        k: OpticKindRates(
            kind=k,
            failures_per_million_h=values[f"optic_failure_rate_{k}_per_million_h"],
            repair_h=values[f"optic_repair_h_{k}"],
            engine_ports=int(values.get(f"optic_engine_ports_{k}", 0)),
        )
        for k in OPTIC_KINDS
    }


@dataclass(frozen=True, kw_only=True)
class OpticFailureLoad:
    """Optic failures of one link end, and the element each one takes down."""

    link_class: str
    end: Literal["lower", "upper"]
    optic_id: str
    kind: str
    units: int
    """Optical units (modules or engines) at this end [count]."""
    failures_per_day: float
    repair_h: float
    element: str
    """The element down while it is repaired: ``link``, or the device's impact name."""
    ports_down: int
    """Ports one failure takes down, the device's for engines [count]."""
    bandwidth_lost_fraction: float
    """Share of the slowest rank's bandwidth lost while it is down [-]; 1 = cut off."""

    @property
    def down_fraction(self) -> float:
        """Share of the time one such element is down somewhere in the fabric [-]."""
        return self.failures_per_day / 24.0 * self.repair_h


def _impact(impacts: Sequence[FailureImpact], name: str) -> FailureImpact | None:
    return next((i for i in impacts if str(i.element) == name), None)


def _device_impact(link_class: str, end: str, impacts: Sequence[FailureImpact]) -> FailureImpact | None:
    """The impact of losing the device at one end of a link class."""
    device = {
        ("node_leaf", "lower"): None,  # a server's end: its GPU loses the engine's ports
        ("node_leaf", "upper"): "leaf switch",
        ("leaf_spine", "lower"): "leaf switch",
        ("leaf_spine", "upper"): "spine switch",
        ("spine_core", "lower"): "spine switch",
        ("spine_core", "upper"): "core switch",
    }.get((link_class, end))
    return _impact(impacts, device) if device else None


def optic_failure_loads(*, plan: Plan, catalog: Catalog) -> tuple[OpticFailureLoad, ...]:
    """Optic failures per link end of the plan's scale-out fabric (module notes).

    Parameters
    ----------
    plan : Plan
        The planned cluster: its media (link classes and their ends' optics, ports, devices),
        nodes and ports per GPU.
    catalog : Catalog
        The plan's catalog: optic kinds and the ``optic_*`` rules.

    Returns
    -------
    tuple[OpticFailureLoad, ...]
        One load per optical link end whose optic has a known kind, in the plan's media order:
        optical units [count], failures per day [1/day], repair time [h], the element down, its
        ports [count] and the share of the slowest rank's bandwidth lost [fraction]. Ends
        without optics (copper) are left out.
    """
    rates = optic_rates(catalog)
    impacts = failure_impacts(plan=plan)
    p = max(1, plan.topology.ports_per_gpu)
    loads = []
    for media in plan.media:
        link_name = {
            "node_leaf": "node-leaf link",
            "leaf_spine": "leaf-spine link",
            "spine_core": "spine-core link",
        }
        link = _impact(impacts, link_name.get(str(media.link_class), ""))
        for end_name, end in (("lower", media.lower), ("upper", media.upper)):
            if end.optic_id is None or end.optic_id not in catalog.optics or end.ports == 0:
                continue
            kind = catalog.optics[end.optic_id].kind
            if kind not in rates:
                continue
            r = rates[kind]
            device = _device_impact(str(media.link_class), end_name, impacts)
            if r.takes_device_down and device is None:
                # a server's end: one engine per rail of the server (its ports spread one per
                # GPU), so a failure costs each of those GPUs one port while it is repaired
                per_server = math.ceil(end.ports / max(1, plan.nodes))
                units = plan.nodes * math.ceil(per_server / max(1, r.engine_ports))
                ports_down, lost, element = min(per_server, r.engine_ports), 1.0 / p, "server ports"
            elif r.takes_device_down and device is not None:
                per_device = math.ceil(end.ports / max(1, end.devices))
                units = end.devices * math.ceil(per_device / max(1, r.engine_ports))
                ports_down, lost, element = (
                    per_device,
                    device.job_bandwidth_lost_fraction,
                    str(device.element),
                )
            else:
                units = end.units
                ports_down = max(1, round(end.ports / max(1, end.units)))
                lost = min(1.0, ports_down * (link.job_bandwidth_lost_fraction if link else 1.0 / p))
                element = "link"
            loads.append(
                OpticFailureLoad(
                    link_class=str(media.link_class), end=end_name, optic_id=end.optic_id, kind=kind,  # type: ignore[arg-type]
                    units=units, failures_per_day=units * r.failures_per_million_h / 1e6 * 24.0,
                    repair_h=r.repair_h, element=element, ports_down=ports_down, bandwidth_lost_fraction=lost,
                )
            )  # fmt: skip
    return tuple(loads)


def step_slowdown(*, network_share: float, bandwidth_lost_fraction: float) -> float:
    """Relative step-time increase while an element is down [-]: ``(c/T) f / (1 - f)``; 0 when
    the element cuts a GPU off (an interruption, counted elsewhere).

    Parameters
    ----------
    network_share : float
        Exposed communication over step time, ``c / T`` [fraction].
    bandwidth_lost_fraction : float
        Share of the slowest rank's bandwidth lost while the element is down, ``f``
        [fraction]; 1 or more means the GPU is cut off.

    Returns
    -------
    float
        Step-time increase over the failure-free step [fraction]; 0 when ``f >= 1``.

    >>> step_slowdown(network_share=0.2, bandwidth_lost_fraction=0.125)
    0.028571428571428574
    """
    if bandwidth_lost_fraction >= 1.0:
        return 0.0
    return network_share * bandwidth_lost_fraction / (1.0 - bandwidth_lost_fraction)


def optic_throughput_factor(*, loads: Sequence[OpticFailureLoad], network_share: float) -> float:
    """Throughput with optic repairs over throughput without [-]: ``1 / (1 + sum p s)``.

    Parameters
    ----------
    loads : Sequence[OpticFailureLoad]
        Optic failure loads of the fabric (:func:`optic_failure_loads`); each gives its down
        share ``p`` [fraction] and bandwidth lost [fraction].
    network_share : float
        Exposed communication over step time, ``c / T`` [fraction].

    Returns
    -------
    float
        Throughput factor in (0, 1] [fraction]; 1 when no load slows the step.
    """
    extra = sum(
        load.down_fraction
        * step_slowdown(network_share=network_share, bandwidth_lost_fraction=load.bandwidth_lost_fraction)
        for load in loads
    )
    return 1.0 / (1.0 + extra)


def failure_step_times(*, plan: Plan, compute_s: float, network_s: float) -> Mapping[str, float]:
    """Step time [s] with one element of each kind failed (link, leaf, spine, core, plane).

    ``compute_s`` is the step's part that the network does not touch; ``network_s`` its exposed
    communication, stretched by ``1 / (1 - f)``; an element that cuts a GPU off gives ``inf``
    (the job stops until it restarts without it).

    Parameters
    ----------
    plan : Plan
        The planned cluster whose failure impacts
        (:func:`planner.performance.reliability.failure_impacts`) are applied.
    compute_s : float
        Part of the step the network does not touch [s].
    network_s : float
        Exposed communication of the failure-free step [s].

    Returns
    -------
    Mapping[str, float]
        Failed element's name -> step time with it down [s]; ``inf`` when it cuts a GPU off.
    """
    out = {}
    for impact in failure_impacts(plan=plan):
        f = impact.job_bandwidth_lost_fraction
        out[str(impact.element)] = math.inf if f >= 1.0 else compute_s + network_s / (1.0 - f)
    return out
