"""The plan's prediction for a measured run, and the collective model with trial coefficients.

Both calibration and acceptance ask the one collective model
(:mod:`planner.fabric.collectives`) what a measured run should take: the same collective, on the
same number of GPUs, spread over scale-up domains as the run was (its GPUs per host), at each
measured size. Calibration varies the model's coefficients; :func:`fabric_with` applies them to
the plan's fabric the way :func:`planner.fabric.collectives.build_fabric` builds it:

- every level's bandwidth is proportional to its efficiency (scale-up = line x ring efficiency,
  NVLS = line x NVLS efficiency, each network level = the NIC's line x ``nccl_efficiency``,
  divided by the oversubscription above the leaf), so a new efficiency scales the level;
- the scale-up and NVLS step latencies are the coefficients themselves; a network level's
  latency is the NIC's ``alpha_us`` plus its extra path latency, so a new NIC alpha shifts every
  network level by the same amount.

``tests/test_measure.py`` checks that the plan made with the written override gives the same
fabric as :func:`fabric_with` (the wiring test).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from planner.catalog import Catalog
from planner.engine import Plan
from planner.errors import InputError
from planner.fabric.collectives import (
    LEVEL_SCALE_UP,
    CollectiveFabric,
    coefficients,
    collective_time,
    send_recv_time_s,
)
from planner.i18n.message import msg
from planner.measure.nccl import Run, busbw_factor
from planner.resolve import resolve

PARAMETERS = (
    "scale_up_ring_efficiency",
    "nvls_efficiency",
    "nccl_efficiency",
    "scale_up_alpha_us",
    "nvls_alpha_us",
    "network_alpha_us",
)
"""The coefficients calibration can fit: three bandwidth efficiencies and three step latencies."""

BANDWIDTH_PARAMETERS = PARAMETERS[:3]
LATENCY_PARAMETERS = PARAMETERS[3:]


@dataclass(frozen=True)
class Baseline:
    """The plan's fabric and the coefficients it was built with."""

    fabric: CollectiveFabric
    values: Mapping[str, float]
    """Each of :data:`PARAMETERS` as the catalog has it."""
    nic_id: str
    gpus_per_node: int


def baseline(*, plan: Plan, catalog: Catalog) -> Baseline:
    """The plan's collective fabric and its coefficients (catalog values).

    Parameters
    ----------
    plan : Plan
        The plan of the measured cluster.
    catalog : Catalog
        The catalog the plan was made with.

    Returns
    -------
    Baseline
        The fabric, the six coefficients' catalog values (efficiencies [fraction], alphas [us]),
        the NIC id and GPUs per server [count].
    """
    c = coefficients(catalog)
    nic = resolve(scenario=plan.scenario, catalog=catalog).nic
    values = {
        "scale_up_ring_efficiency": c.scale_up_ring_efficiency,
        "nvls_efficiency": c.nvls_efficiency,
        "nccl_efficiency": nic.nccl_efficiency,
        "scale_up_alpha_us": c.scale_up_alpha_us,
        "nvls_alpha_us": c.nvls_alpha_us,
        "network_alpha_us": nic.alpha_us,
    }
    server = catalog.servers[plan.server_id]
    return Baseline(plan.bandwidth.fabric, values, nic.id, server.gpus_per_node)


def fabric_with(*, base: Baseline, values: Mapping[str, float]) -> CollectiveFabric:
    """The plan's fabric with the coefficients in ``values`` (the others as in the catalog).

    Parameters
    ----------
    base : Baseline
        The plan's fabric and catalog coefficients.
    values : mapping of str to float
        Coefficient values by name (efficiencies [fraction], alphas [us]).

    Returns
    -------
    CollectiveFabric
        The fabric with its bandwidths scaled by each efficiency's ratio to the catalog value and
        its alphas replaced.
    """
    v = {**base.values, **values}
    b = base.values
    levels = []
    for level in base.fabric.levels:
        if level.name == LEVEL_SCALE_UP:
            levels.append(
                replace(
                    level,
                    bandwidth_gbyte_per_s=level.bandwidth_gbyte_per_s
                    * v["scale_up_ring_efficiency"]
                    / b["scale_up_ring_efficiency"],
                    reduction_gbyte_per_s=level.reduction_gbyte_per_s
                    * v["nvls_efficiency"]
                    / b["nvls_efficiency"],
                    alpha_us=v["scale_up_alpha_us"],
                )
            )
        else:
            ratio = v["nccl_efficiency"] / b["nccl_efficiency"]
            levels.append(
                replace(
                    level,
                    bandwidth_gbyte_per_s=level.bandwidth_gbyte_per_s * ratio,
                    reduction_gbyte_per_s=level.reduction_gbyte_per_s * ratio,
                    alpha_us=level.alpha_us + v["network_alpha_us"] - b["network_alpha_us"],
                )
            )
    return replace(base.fabric, levels=tuple(levels), nvls_alpha_us=v["nvls_alpha_us"])


def group_of(*, run: Run, base: Baseline) -> tuple[int, int]:
    """(GPUs, GPUs per scale-up domain) of a run on the plan's fabric.

    A domain within a server holds the run's ranks on one host; a domain across servers (NVL72)
    holds the ranks of as many hosts as it spans (runs are taken as contiguous).

    Parameters
    ----------
    run : Run
        A measured run (GPUs and GPUs per host [count]).
    base : Baseline
        The plan's fabric.

    Returns
    -------
    tuple of int
        ``(GPUs, GPUs per domain)`` [count].

    Raises
    ------
    InputError
        The run has more GPUs than the plan.
    """
    fabric = base.fabric
    if run.gpus > fabric.gpus:
        raise InputError(
            msg(
                "{file}: line {line}: the run has {run} GPUs, the plan {plan} (plan at least {run} GPUs)",
                file=run.file,
                line=run.line,
                run=run.gpus,
                plan=fabric.gpus,
            )
        )
    hosts_per_domain = max(1, fabric.domain_gpus // base.gpus_per_node)
    m = min(run.gpus, fabric.domain_gpus, run.gpus_per_host * hosts_per_domain)
    return run.gpus, max(1, m)


@dataclass(frozen=True)
class Probe:
    """One measured call: a collective on a group of GPUs at one message size."""

    collective: str
    """The collective, or ``sendrecv``."""
    gpus: int
    """GPUs of the run [count]."""
    gpus_per_domain: int
    """GPUs of the run per scale-up domain [count]."""
    size_bytes: int
    """Message size [B]."""


@dataclass(frozen=True)
class Prediction:
    """What the model predicts for one measured call."""

    time_s: float
    """Time of the call [s]."""
    busbw_gbyte_per_s: float
    """busbw [GB/s] (nccl-tests convention); 0 when the time is not positive."""


def predict(fabric: CollectiveFabric, probe: Probe) -> Prediction:
    """Time and busbw of one measured call in the model (``auto`` algorithm, as NCCL's tuner).

    busbw = size / time x the collective's busbw factor (nccl-tests' PERFORMANCE.md).

    Parameters
    ----------
    fabric : CollectiveFabric
        The fabric.
    probe : Probe
        The measured call (collective, GPUs [count], GPUs per domain [count], size [B]).

    Returns
    -------
    Prediction
        Time [s] and busbw [GB/s].
    """
    if probe.collective == "sendrecv":
        apart = 1 if math.ceil(probe.gpus / probe.gpus_per_domain) > 1 else 0
        time_s = send_recv_time_s(fabric=fabric, message_bytes=probe.size_bytes, domains_apart=apart)
    else:
        time_s = collective_time(
            fabric=fabric,
            collective=probe.collective,  # type: ignore[arg-type]  # checked by the reader (TOOLS)
            message_bytes=probe.size_bytes,
            gpus=probe.gpus,
            gpus_per_domain=probe.gpus_per_domain,
        ).time_s
    if time_s <= 0:
        return Prediction(time_s, 0.0)
    factor = busbw_factor(collective=probe.collective, gpus=probe.gpus)
    return Prediction(time_s, probe.size_bytes / time_s / 1e9 * factor)
