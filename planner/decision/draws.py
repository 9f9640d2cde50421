"""How likely each design is to be the cheapest: a seeded Monte Carlo over the model's error and
the input uncertainties.

Notes
-----
Draw ``j`` of design ``d`` (``j = 1..n``; the same draws for every design unless said otherwise):

- prices: the hardware and electricity factors of :func:`planner.performance.uncertainty.price_factor_samples`,
  applied through the exact linear response of the cost per GPU-hour
  (:func:`planner.performance.uncertainty.price_response`). GPUs, servers and electricity are the
  same parts and tariff on every design, so their factors are shared; switches and optics are
  different parts from different vendors on each design, so theirs are drawn per design;
- failure rates: one lognormal factor (shared), re-optimising each training job's checkpoint
  interval (:meth:`planner.performance.reliability.Reliability.optimal_goodput`);
- model error, from the fitted bands (:mod:`planner.decision.bands`), each a normal draw in log
  space with the family's RMS error times ``model_error_scale``:
  ``e_c ~ N(0, rms_family)`` on the compute part of a training step and on a serving rate,
  **shared by every design** (the same model computes it for each); ``e_n,d ~ N(0, rms_collectives)``
  on the network part, **drawn per design** (the fabric terms differ). A training step is then
  ``compute e^{e_c} + network e^{e_n,d}``, and the rate ``R = tokens per step / step x goodput x
  optic factor``. Standard normals are drawn first and then scaled (common random numbers), so a
  wider error moves the same draws further.

Per draw the shares of the cluster's time follow from the drawn rates
(:func:`planner.decision.outcome.mix_cost_usd_per_million_tokens`): an entry with a required rate
needs ``r / R`` of the cluster in that draw, and a draw in which a design's required rates need
more than the whole cluster makes it infeasible in that draw (infinite cost: it cannot be best).

``p_best_d`` is the share of draws in which design ``d`` has the lowest cost per outcome; a tie
(two designs equal in a draw) is split equally, so the probabilities sum to 1, less the share of
draws in which no design meets the required rates (``p_infeasible``). The band of a design's cost
per outcome is its P10 to P90 over the draws.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field
from scipy import stats

from planner.catalog import Catalog
from planner.decision.bands import ErrorBand, band_dict, load_bands
from planner.decision.outcome import (
    DesignOutcome,
    EntryOutcome,
    Rule,
    design_outcomes,
    mix_cost_usd_per_million_tokens,
    outcome_unit,
    rule_of,
)
from planner.inputs import parse
from planner.inputs.scenario import Scenario, WorkloadEntry
from planner.performance.optic_failures import failure_step_times
from planner.performance.uncertainty import MonteCarloSpec, price_factor_samples, price_response
from planner.progress import Steps, checkpoint

DESIGN_PRICE_FACTORS = ("switch_price", "optics_price")
"""Price factors drawn per design (different parts on each); the others are shared."""


class DecisionSpec(MonteCarloSpec):
    """Settings of the decision's Monte Carlo (module notes): the input draws of
    :class:`~planner.performance.uncertainty.MonteCarloSpec` and a scale on the fitted model error."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    model_error_scale: float = Field(
        default=1.0, ge=0, le=10, description="Multiplier on the fitted model error (1 = as measured) [-]."
    )


def decision_spec(data: Mapping[str, Any]) -> DecisionSpec:
    """Validate a mapping; :class:`InputError` names the field and its range.

    Parameters
    ----------
    data : mapping of str to Any
        The spec's fields (samples, seed, spreads [fraction] ...).

    Returns
    -------
    DecisionSpec
        The validated spec.
    """
    return parse(DecisionSpec, data, source="decision")


@dataclass(frozen=True, kw_only=True)
class DesignResult:
    """One design in the decision: its cost per outcome, the band and the chance it is cheapest."""

    outcome: DesignOutcome
    cost_per_outcome: float
    """At the model's values [outcome unit]."""
    cost_per_outcome_low: float
    """P10 over the draws [outcome unit]."""
    cost_per_outcome_high: float
    """P90 over the draws [outcome unit]."""
    p_best: float
    """Share of draws in which this design is the cheapest [-]."""

    @property
    def design_id(self) -> str:
        return self.outcome.design_id

    @property
    def feasible(self) -> bool:
        """True when the design reaches the mix's required rates at the model's values."""
        return self.outcome.feasible


@dataclass(frozen=True, kw_only=True)
class Decision:
    """The recommendation: rule, unit, every design's result, and the one to propose."""

    rule: Rule
    outcome_unit: str
    designs: tuple[DesignResult, ...]
    spec: DecisionSpec
    bands: Mapping[str, ErrorBand]
    p_infeasible: float = 0.0
    """Share of draws in which no design meets the mix's required rates [-]."""

    @property
    def feasible(self) -> bool:
        """True when at least one design reaches the mix's required rates."""
        return any(d.feasible for d in self.designs)

    @property
    def has_rates(self) -> bool:
        """True when an entry of the mix states a required rate."""
        return any(e.required_rate_tokens_per_s is not None for d in self.designs for e in d.outcome.entries)

    @property
    def recommended(self) -> DesignResult:
        """The design of the lowest cost per outcome at the model's values among those that meet
        the required rates; when none does, the one that comes closest (smallest share needed)."""
        if not self.feasible:
            return min(self.designs, key=lambda d: d.outcome.rate_share)
        return min((d for d in self.designs if d.feasible), key=lambda d: d.cost_per_outcome)

    @property
    def runner_up(self) -> DesignResult | None:
        """The next cheapest design that meets the required rates, or ``None``."""
        others = sorted(
            (d for d in self.designs if d is not self.recommended and d.feasible),
            key=lambda d: d.cost_per_outcome,
        )
        return others[0] if others else None

    @property
    def infeasible(self) -> tuple[DesignResult, ...]:
        """The designs that cannot reach the mix's required rates."""
        return tuple(d for d in self.designs if not d.feasible)

    @property
    def margin_fraction(self) -> float:
        """How much cheaper the recommendation is than the runner-up [-]: 1 - c_rec / c_next."""
        nxt = self.runner_up
        return 0.0 if nxt is None else 1.0 - self.recommended.cost_per_outcome / nxt.cost_per_outcome

    def band_families(self) -> tuple[ErrorBand, ...]:
        """The families whose error the draws used, in the order they matter."""
        used = {e.family for d in self.designs for e in d.outcome.entries}
        if any(e.kind == "training" for d in self.designs for e in d.outcome.entries):
            used.add("collectives")
        return tuple(self.bands[f] for f in ("training_dense", "training_moe", "serving_decode", "collectives")
                     if f in used)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The JSON form ``planner compare --format json`` prints."""
        training = any(e.kind == "training" for d in self.designs for e in d.outcome.entries)
        rows = []
        for d in self.designs:
            row: dict[str, Any] = {
                "design": d.design_id,
                "cost_per_outcome": _finite(d.cost_per_outcome),
                "cost_per_outcome_low": _finite(d.cost_per_outcome_low),
                "cost_per_outcome_high": _finite(d.cost_per_outcome_high),
                "p_best": d.p_best,
                "usd_per_gpu_hour": d.outcome.usd_per_gpu_hour,
            }
            if self.has_rates:
                row["feasible"] = d.feasible
                row["cluster_share_needed"] = _finite(d.outcome.rate_share)
            if d.outcome.entries:
                row["tokens_per_s"] = d.outcome.tokens_per_s
            if training:
                row["time_to_train_days"] = d.outcome.time_to_train_days
                row.update(failure_effects(d.outcome))
            rows.append(row)
        return {
            "rule": self.rule,
            "outcome_unit": str(self.outcome_unit),
            "recommended": self.recommended.design_id if self.feasible else None,
            "margin_fraction": self.margin_fraction,
            **({"p_infeasible": self.p_infeasible} if self.has_rates else {}),
            "samples": self.spec.samples,
            "seed": self.spec.seed,
            "model_error": [band_dict(b) for b in self.band_families()],
            "designs": rows,
        }


def _finite(value: float) -> float | None:
    """A figure for JSON: ``None`` where it is infinite (a design that cannot meet the rates)."""
    return value if math.isfinite(value) else None


def failure_effects(outcome: DesignOutcome) -> dict[str, Any]:
    """The first training entry's step time [s], and with one element of each kind down [s]
    (``None``: the element cuts a GPU off, the job stops until it restarts without it), and its
    optic-repair throughput factor [-] (:mod:`planner.performance.optic_failures`).

    Parameters
    ----------
    outcome : DesignOutcome
        A design's evaluated workload.

    Returns
    -------
    dict of str to Any
        ``step_time_s`` [s], ``step_time_one_failed_s`` by element kind [s or ``None``] and
        ``optic_throughput_factor`` [fraction]; empty when the workload has no training entry.
    """
    entry = next((e for e in outcome.entries if e.kind == "training"), None)
    if entry is None:
        return {}
    times = failure_step_times(plan=outcome.plan, compute_s=entry.compute_s, network_s=entry.network_s)
    return {
        "step_time_s": entry.compute_s + entry.network_s,
        "step_time_one_failed_s": {k: (None if math.isinf(v) else v) for k, v in times.items()},
        "optic_throughput_factor": entry.optic_factor,
    }


def probability_best(costs: np.ndarray) -> np.ndarray:
    """Share of rows (draws) in which each column (design) is lowest; ties split equally; an
    infinite cost (the design cannot meet the rates in that draw) is never lowest.

    Parameters
    ----------
    costs : numpy.ndarray
        Cost per outcome, one row per draw and one column per design [unit of the outcome].

    Returns
    -------
    numpy.ndarray
        Probability that each design is cheapest [fraction], one per column.

    Examples
    --------
    >>> probability_best(np.array([[1.0, 2.0], [3.0, 2.0], [1.0, 1.0]])).tolist()
    [0.5, 0.5]
    >>> probability_best(np.array([[np.inf, 2.0], [np.inf, np.inf]])).tolist()
    [0.0, 0.5]
    """
    lowest = costs.min(axis=1, keepdims=True)
    is_min = np.isclose(costs, lowest, rtol=1e-12, atol=0.0) & np.isfinite(costs)
    count = is_min.sum(axis=1, keepdims=True)
    share = np.divide(is_min, count, out=np.zeros_like(costs, dtype=float), where=count > 0)
    return np.asarray(share.mean(axis=0))


def _percentile(values: np.ndarray, q: float) -> float:
    """P``q`` of a design's draws; with infinite draws (infeasible) the nearest draw, not a mean
    of infinities."""
    if np.isfinite(values).all():
        return float(np.percentile(values, q))
    return float(np.percentile(values, q, method="nearest"))


def _entry_rates(
    entry: EntryOutcome, *, shared_z: np.ndarray, network_z: np.ndarray, failure: np.ndarray,
    bands: Mapping[str, ErrorBand], scale: float,
) -> np.ndarray:  # fmt: skip
    """Tokens/s of one entry in every draw [1/s] (module notes)."""
    e_c = shared_z * bands[entry.family].rms_log * scale
    if entry.kind == "serving":
        return entry.tokens_per_s * np.exp(-e_c)
    e_n = network_z * bands["collectives"].rms_log * scale
    base_step = entry.compute_s + entry.network_s
    step = entry.compute_s * np.exp(e_c) + entry.network_s * np.exp(e_n)
    rel = entry.reliability
    goodput = (
        np.array([rel.optimal_goodput(failure_rate_scale=float(f)) for f in failure])
        if rel is not None
        else np.ones_like(failure)
    )
    return entry.tokens_per_s / entry.goodput * goodput * base_step / step


def decide_outcomes(
    *,
    outcomes: Sequence[DesignOutcome],
    catalog: Catalog,
    spec: DecisionSpec | None = None,
    bands: Mapping[str, ErrorBand] | None = None,
    rule: Rule | None = None,
    unit: str | None = None,
    steps: Steps | None = None,
) -> Decision:
    """The Monte Carlo over already evaluated designs (module notes); ``steps`` hears of each
    design's draws and may stop the run (:class:`planner.progress.CancelledError`).

    Parameters
    ----------
    outcomes : sequence of DesignOutcome
        The designs with their evaluated workloads.
    catalog : Catalog
        The catalog (cost factors and prices).
    spec : DecisionSpec or None
        Samples, seed and spreads; ``None`` for the defaults.
    bands : mapping of str to ErrorBand or None
        The model's error bands; ``None`` loads ``validation/error_bands.yaml``.
    rule : Rule or None
        ``cost_per_outcome`` or ``price_per_gpu_hour``; ``None`` for the first.
    unit : str or None
        The outcome's unit in words; ``None`` for the default.
    steps : Steps or None
        Progress listener; may stop the run.

    Returns
    -------
    Decision
        Per design: cost per outcome with its P10 and P90 [USD per outcome] and the probability of
        being cheapest [fraction]; the rule, unit, spec, bands and the share of infeasible draws
        [fraction].
    """
    spec = spec or DecisionSpec()
    bands = load_bands() if bands is None else bands
    rng = np.random.default_rng(spec.seed)
    n = spec.samples
    price_spec = MonteCarloSpec(samples=n, seed=spec.seed, price_spread_fraction=spec.price_spread_fraction,
                                electricity_spread_fraction=spec.electricity_spread_fraction)  # fmt: skip
    shared_prices = price_factor_samples(price_spec, rng)
    failure = (
        np.ones(n)
        if spec.failure_rate_sigma == 0
        else np.asarray(stats.lognorm(s=spec.failure_rate_sigma, scale=1.0).rvs(size=n, random_state=rng))
    )
    families = sorted({e.family for o in outcomes for e in o.entries})
    shared = {f: rng.standard_normal(n) for f in families}
    network = [rng.standard_normal(n) for _ in outcomes]
    fabric_prices = [price_factor_samples(price_spec, rng) for _ in outcomes]
    columns = []
    for index, o in enumerate(outcomes):
        checkpoint(steps, done=index, total=len(outcomes))
        prices = {
            name: fabric_prices[index][name] if name in DESIGN_PRICE_FACTORS else values
            for name, values in shared_prices.items()
        }
        _, at_cost = price_response(base_plan=o.plan, catalog=catalog, factors=prices)
        per_gpu_hour = at_cost * o.price_scale
        if not o.entries:
            columns.append(per_gpu_hour)
            continue
        rates = [
            _entry_rates(e, shared_z=shared[e.family], network_z=network[index], failure=failure,
                         bands=bands, scale=spec.model_error_scale)
            for e in o.entries
        ]  # fmt: skip
        columns.append(mix_cost_usd_per_million_tokens(gpus=o.plan.gpus, usd_per_gpu_hour=np.asarray(per_gpu_hour),
                                                       rates_tokens_per_s=rates, entries=o.entries))  # fmt: skip
    costs = np.column_stack(columns)
    p_best = probability_best(costs)
    designs = tuple(
        DesignResult(
            outcome=o,
            cost_per_outcome=o.cost_per_outcome,
            cost_per_outcome_low=_percentile(costs[:, i], 10),
            cost_per_outcome_high=_percentile(costs[:, i], 90),
            p_best=float(p_best[i]),
        )
        for i, o in enumerate(outcomes)
    )
    entries = list(outcomes[0].entries) if outcomes else []
    return Decision(
        rule=rule or ("cost_per_outcome" if entries else "price_per_gpu_hour"),
        outcome_unit=unit or outcome_unit(entries),
        designs=designs,
        spec=spec,
        bands=bands,
        p_infeasible=float(np.mean(~np.isfinite(costs).any(axis=1))) if outcomes else 0.0,
    )


def decide(
    *,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str],
    spec: DecisionSpec | None = None,
    steps: Steps | None = None,
) -> Decision:
    """Cost per outcome of the scenario's workload mix on each design, its P10-P90 band and the
    probability that each design is the cheapest (seeded: the same spec gives the same result).

    Parameters
    ----------
    scenario : Scenario
        The scenario whose workload mix is costed.
    catalog : Catalog
        The catalog.
    design_ids : sequence of str
        Designs to compare, each once.
    spec : DecisionSpec or None
        Samples, seed and spreads; ``None`` for the defaults.
    steps : Steps or None
        Progress listener; may stop the run.

    Returns
    -------
    Decision
        The decision (:func:`decide_outcomes`).
    """
    outcomes = design_outcomes(scenario=scenario, catalog=catalog, design_ids=design_ids)
    return decide_workload(
        outcomes=outcomes, workload=scenario.workload, catalog=catalog, spec=spec, steps=steps
    )


def decide_workload(
    *,
    outcomes: Sequence[DesignOutcome],
    workload: Sequence[WorkloadEntry],
    catalog: Catalog,
    spec: DecisionSpec | None = None,
    steps: Steps | None = None,
) -> Decision:
    """:func:`decide_outcomes` with the rule and outcome unit the workload implies (cost per
    outcome in its unit, or the price per GPU-hour when the workload is empty).

    Parameters
    ----------
    outcomes : sequence of DesignOutcome
        The designs with their evaluated workloads.
    workload : sequence of WorkloadEntry
        The workload mix; it sets the rule and unit.
    catalog : Catalog
        The catalog.
    spec : DecisionSpec or None
        Samples, seed and spreads; ``None`` for the defaults.
    steps : Steps or None
        Progress listener; may stop the run.

    Returns
    -------
    Decision
        The decision (:func:`decide_outcomes`).
    """
    return decide_outcomes(
        outcomes=outcomes,
        catalog=catalog,
        spec=spec,
        rule=rule_of(workload),
        unit=outcome_unit(workload),
        steps=steps,
    )
