"""Cost per outcome: what the customer's work costs on each design.

Notes
-----
On design ``d`` entry ``k`` produces ``R_kd`` tokens per second on the whole cluster:
trained tokens/s x goodput (interruptions, checkpoints: :mod:`planner.performance.reliability`)
x the optic-repair factor (:mod:`planner.performance.optic_failures`) for training; output tokens
per second at the request's latency targets for serving
(:func:`planner.performance.serving.estimate.estimate_serving`). Entry ``k`` runs on a share
``s_kd`` of the cluster's time (:func:`shares_of_time`, rates first, shares split the rest):

- an entry with a required rate ``r_k`` needs ``s_kd = r_k / R_kd``, so a slower design needs more
  of the cluster; the design meets the mix's rates only if ``S_d = sum_rate s_kd <= 1``, else it is
  infeasible for this workload (cost per outcome infinite, never scaled down to fit);
- the entries with a share ``w_k`` split the rest: ``s_kd = (1 - S_d) w_k / sum_share w``.

The cluster costs ``C_d`` USD per GPU-hour (:func:`planner.cost.cost_summary`) on ``N`` GPUs; the
mix uses ``sum_k s_kd`` of its time (1 with any share entry, ``S_d`` with rates only: the rest of
the time is free for other work and is not charged to this mix), so one million tokens cost::

    cost per outcome_d = N C_d (sum_k s_kd) 10^6 / (3600 sum_k s_kd R_kd)   [USD per million tokens]

One entry gives the familiar ``USD per million trained (or served) tokens``. With no workload the
rule falls back to the price per GPU-hour ``C_d`` and says so (``rule = price_per_gpu_hour``).

A training step of length ``T = compute + network`` is split in two for the error draws
(:mod:`planner.decision.draws`): ``compute`` (matrix multiplies, pipeline bubble, optimizer: the
same model on every design, so its error is shared) and ``network`` (exposed tensor, context,
expert, pipeline and data-parallel communication: the fabric's terms, whose error differs
between designs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from planner.catalog import Catalog
from planner.compare import compare
from planner.decision.bands import Family
from planner.engine import Plan
from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.scenario import Scenario, WorkloadEntry
from planner.performance.optic_failures import optic_failure_loads, optic_throughput_factor
from planner.performance.reliability import Reliability
from planner.performance.serving.estimate import estimate_serving
from planner.performance.workload import estimate_workload

Rule = Literal["cost_per_outcome", "price_per_gpu_hour"]

_NETWORK_TERMS = ("tp_comm_s", "cp_comm_s", "ep_comm_s", "pp_comm_s", "dp_comm_s")
"""Step terms that the fabric sets (exposed communication) [s]."""


@dataclass(frozen=True, kw_only=True)
class EntryOutcome:
    """One workload entry on one design: its rate and the parts the error draws act on."""

    label: str
    kind: Literal["training", "serving"]
    weight: float
    """Share of the cluster's time the entry runs on, on this design [-] (module notes)."""
    share_weight: float | None
    """The entry's relative share as given, or ``None`` for an entry with a required rate [-]."""
    required_rate_tokens_per_s: float | None
    """The rate the entry must reach, or ``None`` for an entry with a share [1/s]."""
    family: Family
    tokens_per_s: float
    """Tokens per second of the whole cluster, goodput and optic repairs included [1/s]."""
    compute_s: float
    """Step time the network does not set (training) [s]; serving: 0."""
    network_s: float
    """Exposed communication of a step (training) [s]; serving: 0."""
    goodput: float
    """Share of time the job makes progress (interruptions, checkpoints) [-]; serving: 1."""
    optic_factor: float
    """Throughput with optic repairs over throughput without [-]."""
    time_to_train_days: float | None
    """Wall-clock time to train, failures included [days]; serving: ``None``."""
    reliability: Reliability | None
    """The training job's reliability (re-evaluated per failure-rate draw); serving: ``None``."""


@dataclass(frozen=True, kw_only=True)
class DesignOutcome:
    """One design's cost of the customer's work."""

    design_id: str
    plan: Plan
    entries: tuple[EntryOutcome, ...]
    price_scale: float = 1.0
    """Price per GPU-hour shown over the plan's (offered price over cost in a customer
    proposal; 1 at cost) [-]."""

    @property
    def usd_per_gpu_hour(self) -> float:
        return self.plan.cost.usd_per_gpu_hour * self.price_scale

    @property
    def tokens_per_s(self) -> float:
        """Tokens per second of the mix: sum_k s_k R_k [1/s]."""
        return sum(e.weight * e.tokens_per_s for e in self.entries)

    @property
    def rate_share(self) -> float:
        """Share of the cluster's time the entries with a required rate need, S = sum r_k / R_k [-]."""
        return sum(e.required_rate_tokens_per_s / e.tokens_per_s if e.tokens_per_s > 0 else float("inf")
                   for e in self.entries if e.required_rate_tokens_per_s is not None)  # fmt: skip

    @property
    def feasible(self) -> bool:
        """True when the design reaches every required rate of the mix (S <= 1)."""
        return self.rate_share <= 1.0 + RATE_TOLERANCE

    @property
    def cost_per_outcome(self) -> float:
        """USD per million tokens of the mix (infinite when infeasible), or USD per GPU-hour
        without a workload."""
        if not self.entries:
            return self.usd_per_gpu_hour
        cost = mix_cost_usd_per_million_tokens(
            gpus=self.plan.gpus,
            usd_per_gpu_hour=np.array([self.usd_per_gpu_hour]),
            rates_tokens_per_s=[np.array([e.tokens_per_s]) for e in self.entries],
            entries=self.entries,
        )
        return float(cost[0])

    @property
    def time_to_train_days(self) -> float | None:
        """Time to train of the mix's training jobs one after another at their shares [days]."""
        days = [e.time_to_train_days for e in self.entries if e.time_to_train_days is not None]
        return sum(days) if days else None


def usd_per_million_tokens(*, gpus: int, usd_per_gpu_hour: float, tokens_per_s: float) -> float:
    """``N C 10^6 / (3600 R)`` [USD per million tokens].

    Parameters
    ----------
    gpus : int
        GPUs, ``N`` [count].
    usd_per_gpu_hour : float
        Price, ``C`` [USD/GPU-hour].
    tokens_per_s : float
        Throughput, ``R`` [tokens/s].

    Returns
    -------
    float
        Cost [USD per million tokens]; infinite when ``R`` is 0.

    Examples
    --------
    >>> round(usd_per_million_tokens(gpus=1024, usd_per_gpu_hour=2.0, tokens_per_s=1e6), 4)
    0.5689
    """
    return gpus * usd_per_gpu_hour * 1e6 / (3600.0 * tokens_per_s) if tokens_per_s > 0 else float("inf")


RATE_TOLERANCE = 1e-9
"""Rounding allowed in S <= 1 [-]: a rate set to exactly the design's throughput is met."""


def shares_of_time(
    *, rates_tokens_per_s: Sequence[np.ndarray], entries: Sequence[EntryOutcome] | Sequence[WorkloadEntry]
) -> list[np.ndarray]:
    """Share of the cluster's time of each entry [-], per draw (module notes: rates first, shares
    split the rest). Where the rates need more than the whole cluster the rest is negative; the
    caller marks those draws infeasible.

    Parameters
    ----------
    rates_tokens_per_s : sequence of numpy.ndarray
        Each entry's throughput on the whole cluster, per draw [tokens/s].
    entries : sequence of EntryOutcome or WorkloadEntry
        The entries: a required rate [tokens/s] or a share weight.

    Returns
    -------
    list of numpy.ndarray
        Each entry's share of time per draw [fraction].

    Examples
    --------
    >>> from planner.inputs.scenario import workload_from_data
    >>> mix = workload_from_data([{"kind": "serving", "params_b": 8, "required_tokens_per_s": 2e5},
    ...                           {"kind": "serving", "params_b": 8, "weight": 3},
    ...                           {"kind": "serving", "params_b": 8, "weight": 1}])
    >>> [float(s[0]) for s in shares_of_time(rates_tokens_per_s=[np.array([8e5])] * 3, entries=mix)]
    [0.25, 0.5625, 0.1875]
    """
    if not entries:
        return []
    required = [e.required_rate_tokens_per_s for e in entries]
    weights = [e.share_weight for e in entries]
    with np.errstate(divide="ignore"):
        needed = [r / np.asarray(rate, dtype=float) if r is not None else None
                  for rate, r in zip(rates_tokens_per_s, required, strict=True)]  # fmt: skip
    zero = np.zeros_like(rates_tokens_per_s[0], dtype=float)
    rest = 1.0 - sum((n for n in needed if n is not None), start=zero)
    total = sum(w for w in weights if w is not None)
    return [n if n is not None else rest * (w or 0.0) / total for n, w in zip(needed, weights, strict=True)]


def mix_cost_usd_per_million_tokens(
    *,
    gpus: int,
    usd_per_gpu_hour: np.ndarray,
    rates_tokens_per_s: Sequence[np.ndarray],
    entries: Sequence[EntryOutcome] | Sequence[WorkloadEntry],
) -> np.ndarray:
    """``N C (sum s_k) 10^6 / (3600 sum s_k R_k)`` per draw [USD per million tokens]; infinite in
    a draw where the required rates need more than the whole cluster (module notes).

    Parameters
    ----------
    gpus : int
        GPUs, ``N`` [count].
    usd_per_gpu_hour : numpy.ndarray
        Price per draw, ``C`` [USD/GPU-hour].
    rates_tokens_per_s : sequence of numpy.ndarray
        Each entry's throughput on the whole cluster, per draw, ``R_k`` [tokens/s].
    entries : sequence of EntryOutcome or WorkloadEntry
        The entries (required rates, share weights).

    Returns
    -------
    numpy.ndarray
        Cost per draw [USD per million tokens].

    Examples
    --------
    >>> from planner.inputs.scenario import workload_from_data
    >>> mix = workload_from_data([{"kind": "serving", "params_b": 8, "required_tokens_per_s": 5e5}])
    >>> rates = [np.array([1e6, 4e5])]
    >>> mix_cost_usd_per_million_tokens(gpus=1024, usd_per_gpu_hour=np.array([2.0, 2.0]),
    ...     rates_tokens_per_s=rates, entries=mix).round(4).tolist()
    [0.5689, inf]
    """
    shares = shares_of_time(rates_tokens_per_s=rates_tokens_per_s, entries=entries)
    used = sum(shares, start=np.zeros_like(usd_per_gpu_hour, dtype=float))
    produced = sum((s * r for s, r in zip(shares, rates_tokens_per_s, strict=True)),
                   start=np.zeros_like(usd_per_gpu_hour, dtype=float))  # fmt: skip
    has_rate = [e.required_rate_tokens_per_s is not None for e in entries]
    rate_used = sum((s for s, rated in zip(shares, has_rate, strict=True) if rated),
                    start=np.zeros_like(usd_per_gpu_hour, dtype=float))  # fmt: skip
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = gpus * usd_per_gpu_hour * used * 1e6 / (3600.0 * produced)
    bad = (rate_used > 1.0 + RATE_TOLERANCE) | ~(produced > 0)
    return np.where(bad, np.inf, cost)


def _training(entry: WorkloadEntry, weight: float, plan: Plan, catalog: Catalog) -> EntryOutcome:
    job = entry.training
    if job is None:  # WorkloadEntry's validator makes this unreachable
        raise InputError(msg("{kind}: the job's fields are missing", kind=entry.kind))
    estimate = estimate_workload(
        job=job, plan=plan, catalog=catalog, reliability_params=ReliabilityParams(params_b=job.params_b)
    )
    terms = estimate.step.as_dict()
    network_s = sum(terms[t] for t in _NETWORK_TERMS)
    step_s = estimate.step.total_s
    factor = optic_throughput_factor(
        loads=optic_failure_loads(plan=plan, catalog=catalog), network_share=network_s / step_s
    )
    goodput = estimate.reliability.goodput
    return EntryOutcome(
        label=entry.label,
        kind="training",
        weight=weight,
        share_weight=entry.share_weight,
        required_rate_tokens_per_s=entry.required_rate_tokens_per_s,
        family="training_moe" if job.experts > 1 else "training_dense",
        tokens_per_s=estimate.tokens_per_s * goodput * factor,
        compute_s=step_s - network_s,
        network_s=network_s,
        goodput=goodput,
        optic_factor=factor,
        time_to_train_days=estimate.time_to_train_days / factor,
        reliability=estimate.reliability,
    )


def _serving(entry: WorkloadEntry, weight: float, plan: Plan, catalog: Catalog) -> EntryOutcome:
    request = entry.serving
    if request is None:  # WorkloadEntry's validator makes this unreachable
        raise InputError(msg("{kind}: the job's fields are missing", kind=entry.kind))
    estimate = estimate_serving(request=request, plan=plan, catalog=catalog)
    return EntryOutcome(
        label=entry.label,
        kind="serving",
        weight=weight,
        share_weight=entry.share_weight,
        required_rate_tokens_per_s=entry.required_rate_tokens_per_s,
        family="serving_decode",
        tokens_per_s=estimate.tokens_per_s,
        compute_s=0.0,
        network_s=0.0,
        goodput=1.0,
        optic_factor=1.0,
        time_to_train_days=None,
        reliability=None,
    )


def design_outcome(
    *, plan: Plan, workload: Sequence[WorkloadEntry], catalog: Catalog, price_scale: float = 1.0
) -> DesignOutcome:
    """Every entry of ``workload`` on ``plan``, each on its share of the cluster's time (module
    notes); ``price_scale`` multiplies the plan's price per GPU-hour (offered over cost).

    Parameters
    ----------
    plan : Plan
        The design's plan.
    workload : sequence of WorkloadEntry
        The workload mix.
    catalog : Catalog
        The catalog.
    price_scale : float
        Factor on the price per GPU-hour [dimensionless].

    Returns
    -------
    DesignOutcome
        The design id, plan, each entry with its rate [tokens/s] and share of time [fraction], and
        the price scale.
    """
    whole = [(_training if e.kind == "training" else _serving)(e, 1.0, plan, catalog) for e in workload]
    shares = shares_of_time(rates_tokens_per_s=[np.array([e.tokens_per_s]) for e in whole], entries=whole)
    rate_share = sum(
        float(s[0]) for e, s in zip(whole, shares, strict=True) if e.required_rate_tokens_per_s is not None
    )
    # infeasible (S > 1): the rate entries share the whole cluster, which still falls short of
    # their rates, so tokens/s shows what the design reaches; its cost per outcome stays infinite
    fit = 1.0 / rate_share if rate_share > 1.0 + RATE_TOLERANCE else 1.0
    entries = tuple(
        replace(e, weight=max(0.0, float(s[0])) * (fit if e.required_rate_tokens_per_s is not None else 1.0))
        for e, s in zip(whole, shares, strict=True)
    )
    return DesignOutcome(design_id=plan.design_id, plan=plan, entries=entries, price_scale=price_scale)


def design_outcomes(
    *, scenario: Scenario, catalog: Catalog, design_ids: Sequence[str]
) -> tuple[DesignOutcome, ...]:
    """The scenario's workload mix on each design, with the same GPU (:func:`planner.compare.compare`).

    Parameters
    ----------
    scenario : Scenario
        The scenario (GPU, size and workload).
    catalog : Catalog
        The catalog.
    design_ids : sequence of str
        Designs to evaluate, each once.

    Returns
    -------
    tuple of DesignOutcome
        One per design, in the order given.

    Raises
    ------
    InputError
        A design is named twice.
    """
    if len(set(design_ids)) != len(design_ids):
        raise InputError(msg("designs: each design once (got {ids})", ids=", ".join(design_ids)))
    plans = compare(scenario=scenario, catalog=catalog, design_ids=design_ids)
    return tuple(design_outcome(plan=p, workload=scenario.workload, catalog=catalog) for p in plans)


def outcome_unit(workload: Sequence[WorkloadEntry] | Sequence[EntryOutcome]) -> str:
    """What one outcome is, in words: the unit of ``cost_per_outcome``.

    Parameters
    ----------
    workload : sequence of WorkloadEntry or EntryOutcome
        The workload mix.

    Returns
    -------
    str
        The unit, translatable (USD per million trained, served or mixed tokens, or per GPU-hour).
    """
    kinds = {e.kind for e in workload}
    if not kinds:
        return msg("USD per GPU-hour (no workload given: price, not the cost of the work)")
    if kinds == {"training"}:
        return msg("USD per million trained tokens")
    if kinds == {"serving"}:
        return msg("USD per million served tokens")
    return msg("USD per million tokens of the mix")


def rule_of(workload: Sequence[WorkloadEntry]) -> Rule:
    """The decision rule a workload implies: cost per outcome, or the price per GPU-hour when it is empty.

    Parameters
    ----------
    workload : sequence of WorkloadEntry
        The workload mix.

    Returns
    -------
    Rule
        ``cost_per_outcome``, or ``price_per_gpu_hour`` for an empty mix.
    """
    return "cost_per_outcome" if workload else "price_per_gpu_hour"
