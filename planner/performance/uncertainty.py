"""How sure are the numbers: a tornado of one-at-a-time swings and a Monte Carlo over prices and
failure rates.

Outputs: TCO [USD] (the plan's), time to train including failures [days] and cost to train
[USD] (the workload's). Inputs swung in the tornado (each by +/- ``swing_fraction``, default
20 %, the others at their base value, the parallel layout held at the base estimate's):

- ``gpu_price``, ``server_price``, ``switch_price``, ``optics_price``: every BOM line of that
  category (``price_overrides_usd``); ``electricity_price``: the facility's tariff;
- ``mfu``: the compute efficiency (capped at 1); ``network_bandwidth``: every network level's
  bandwidth; ``failure_rate``: every calibrated failure rate.

Notes
-----
CAPEX, OPEX, TCO and cost per GPU-hour are linear in each unit price and in the electricity
price (:mod:`planner.cost`): ``y(f) = y0 + sum_i (f_i - 1) dy_i`` with ``dy_i = y(f_i = 2) - y0``
from one re-plan per input. The Monte Carlo uses this exact linear response instead of
re-planning per sample. Time to train = failure-free time / goodput(lambda x f_lambda), with
Young's interval re-optimised per sample. Distributions (scipy.stats): each price factor
``triang(c=0.5, loc=1-s, scale=2s)`` (symmetric, +/- s); the failure-rate factor
``lognorm(s=sigma, scale=1)`` (median 1: the calibration rests on one 54-day snapshot, so its
uncertainty is wide and skewed upward). P10/P50/P90 are the 10th, 50th and 90th percentiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field
from scipy import stats

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.scenario import Scenario
from planner.inputs.training import TrainingJob
from planner.performance.collectives import fabric_from_plan
from planner.performance.reliability import Reliability
from planner.performance.workload import WorkloadEstimate, estimate_workload
from planner.progress import Steps, checkpoint
from planner.resolve import resolve

TornadoInput = Literal[
    "gpu_price",
    "server_price",
    "switch_price",
    "optics_price",
    "electricity_price",
    "mfu",
    "network_bandwidth",
    "failure_rate",
]
TORNADO_INPUTS: tuple[TornadoInput, ...] = get_args(TornadoInput)
PRICE_INPUTS: Mapping[str, str] = {
    "gpu_price": "gpus",
    "server_price": "servers",
    "switch_price": "fabric_switches",
    "optics_price": "optics",
}
"""Price input -> BOM category it scales."""
OUTPUTS = ("tco_usd", "time_to_train_days", "cost_to_train_usd")


@dataclass(frozen=True)
class _Point:
    tco_usd: float
    usd_per_gpu_hour: float
    time_to_train_days: float
    gpus: int

    @property
    def cost_to_train_usd(self) -> float:
        return self.gpus * self.time_to_train_days * 24.0 * self.usd_per_gpu_hour

    def value(self, output: str) -> float:
        return float(getattr(self, output))


def priced_scenario(base_plan: Plan, catalog: Catalog, factors: Mapping[str, float]) -> Scenario:
    """The plan's scenario with price inputs scaled by their factors [-].

    ``factors`` maps names of :data:`PRICE_INPUTS` (every BOM line of that category) and
    ``electricity_price`` to multipliers; the others are ignored.

    Parameters
    ----------
    base_plan : Plan
        The plan whose scenario and BOM unit costs [USD] are scaled.
    catalog : Catalog
        The plan's catalog (the site's electricity tariff when the scenario gives none).
    factors : Mapping[str, float]
        Input name -> multiplier of its price [dimensionless]; a missing name or 1.0 leaves that
        price as it is.

    Returns
    -------
    Scenario
        The scenario with ``price_overrides_usd`` set to ``unit_cost x factor`` [USD] for every
        BOM line of a scaled category, and the facility's ``electricity_usd_per_kwh``
        [USD/kWh] scaled.
    """
    scenario = base_plan.scenario
    overrides = dict(scenario.price_overrides_usd)
    for name, category in PRICE_INPUTS.items():
        factor = factors.get(name, 1.0)
        if factor == 1.0:
            continue
        for line in base_plan.bom:
            if line.category == category:
                overrides[line.id] = line.unit_cost_usd * factor
    facility = scenario.facility.model_dump()
    electricity = factors.get("electricity_price", 1.0)
    if electricity != 1.0:
        base_price = (
            scenario.facility.electricity_usd_per_kwh
            or resolve(scenario=scenario, catalog=catalog).energy_price.usd_per_kwh
        )
        facility["electricity_usd_per_kwh"] = base_price * electricity
    return scenario.with_updates(price_overrides_usd=overrides, facility=facility)


def _evaluate(
    *,
    base: WorkloadEstimate,
    base_plan: Plan,
    catalog: Catalog,
    params: ReliabilityParams,
    factors: Mapping[str, float],
) -> _Point:
    priced = (
        plan(scenario=priced_scenario(base_plan, catalog, factors), catalog=catalog)
        if any(factors.get(k, 1.0) != 1.0 for k in (*PRICE_INPUTS, "electricity_price"))
        else base_plan
    )
    job_factors = {k: factors.get(k, 1.0) for k in ("mfu", "network_bandwidth", "failure_rate")}
    if all(v == 1.0 for v in job_factors.values()):
        time_days = base.time_to_train_days
    else:
        job = TrainingJob.model_validate(
            {
                **base.job.model_dump(),
                **base.layout_inputs(),
                "mfu": min(1.0, base.compute_efficiency * job_factors["mfu"]),
            }
        )
        fabric = fabric_from_plan(
            plan=base_plan, catalog=catalog, in_network_reduction=job.in_network_reduction
        )
        estimate = estimate_workload(
            job=job,
            plan=base_plan,
            catalog=catalog,
            reliability_params=params.model_copy(
                update={"failure_rate_scale": params.failure_rate_scale * job_factors["failure_rate"]}
            ),
            fabric=fabric.scaled(network_bandwidth=job_factors["network_bandwidth"]),
        )
        time_days = estimate.time_to_train_days
    return _Point(
        tco_usd=priced.cost.tco_usd,
        usd_per_gpu_hour=priced.cost.usd_per_gpu_hour,
        time_to_train_days=time_days,
        gpus=base_plan.gpus,
    )


def _base(
    job: TrainingJob, scenario: Scenario, catalog: Catalog, params: ReliabilityParams | None
) -> tuple[Plan, WorkloadEstimate, ReliabilityParams]:
    base_plan = plan(scenario=scenario, catalog=catalog)
    rel = params or ReliabilityParams(params_b=job.params_b)
    base = estimate_workload(job=job, plan=base_plan, catalog=catalog, reliability_params=rel)
    return base_plan, base, rel


def tornado(
    *,
    job: TrainingJob,
    scenario: Scenario,
    catalog: Catalog,
    reliability_params: ReliabilityParams | None = None,
    swing_fraction: float = 0.2,
    inputs: Sequence[TornadoInput] = TORNADO_INPUTS,
) -> pd.DataFrame:
    """One-at-a-time swings of TCO, time to train and cost to train.

    Parameters
    ----------
    job
        The training job (:class:`~planner.inputs.training.TrainingJob`); its parallel layout is
        held at the base estimate's.
    scenario
        The cluster scenario the base plan is built from.
    catalog
        The catalog of the plan.
    reliability_params
        Failure-model parameters; ``None`` takes the defaults for the job's ``params_b``.
    swing_fraction
        Relative change of each input, both ways [-] (0 < s < 1; default 0.2 = +/- 20 %).
    inputs
        Which inputs to swing (default all of :data:`TORNADO_INPUTS`).

    Returns
    -------
    pandas.DataFrame
        Tidy rows ``input, output, base, low, high, swing`` where ``low``/``high`` are the output
        at input x (1 - s) and x (1 + s) and ``swing = |high - low|``; sorted by output, then by
        swing, largest first (the tornado's order).
    """
    if not 0 < swing_fraction < 1:
        raise InputError(
            msg(
                "swing_fraction: {swing_fraction} (allowed: 0 to 1, exclusive)", swing_fraction=swing_fraction
            )
        )
    unknown = [i for i in inputs if i not in TORNADO_INPUTS]
    if unknown:
        raise InputError(
            msg(
                "inputs: unknown {name!r} (allowed: {allowed})",
                name=unknown[0],
                allowed=", ".join(TORNADO_INPUTS),
            )
        )
    base_plan, base, params = _base(job, scenario, catalog, reliability_params)
    origin = _evaluate(base=base, base_plan=base_plan, catalog=catalog, params=params, factors={})
    rows = []
    for name in inputs:
        low, high = (
            _evaluate(base=base, base_plan=base_plan, catalog=catalog, params=params, factors={name: f})
            for f in (1 - swing_fraction, 1 + swing_fraction)
        )
        for output in OUTPUTS:
            rows.append(
                {
                    "input": name,
                    "output": output,
                    "base": origin.value(output),
                    "low": low.value(output),
                    "high": high.value(output),
                    "swing": abs(high.value(output) - low.value(output)),
                }
            )
    frame = pd.DataFrame(rows, columns=["input", "output", "base", "low", "high", "swing"])
    return frame.sort_values(["output", "swing"], ascending=[True, False], ignore_index=True)


class MonteCarloSpec(BaseModel):
    """Distributions of the Monte Carlo (see the module notes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    samples: int = Field(default=2000, ge=100, le=200_000, description="Samples [count].")
    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="Random seed (same seed, same result).")
    price_spread_fraction: float = Field(
        default=0.2, ge=0, lt=1, description="Half-width of each hardware price's triangular factor [-]."
    )
    electricity_spread_fraction: float = Field(
        default=0.3, ge=0, lt=1, description="Half-width of the electricity price's triangular factor [-]."
    )
    failure_rate_sigma: float = Field(
        default=0.5, ge=0, le=3, description="Log-standard deviation of the failure-rate factor [-]."
    )


def monte_carlo_spec(data: Mapping[str, Any]) -> MonteCarloSpec:
    """Validate a mapping; :class:`InputError` names the field and its range.

    Parameters
    ----------
    data : Mapping[str, Any]
        Field name -> value of :class:`MonteCarloSpec` (samples [count], seed, spreads
        [fraction], failure-rate sigma [dimensionless]); missing fields take their defaults.

    Returns
    -------
    MonteCarloSpec
        The validated, frozen specification.

    Raises
    ------
    InputError
        A field is unknown or outside its range.
    """
    return parse(MonteCarloSpec, data, source="monte_carlo")


@dataclass(frozen=True)
class Percentiles:
    output: str
    base: float
    p10: float
    p50: float
    p90: float


@dataclass(frozen=True)
class MonteCarloResult:
    spec: MonteCarloSpec
    percentiles: tuple[Percentiles, ...]
    samples: pd.DataFrame
    """One row per sample: the input factors and the outputs."""

    def percentile(self, output: str) -> Percentiles:
        for p in self.percentiles:
            if p.output == output:
                return p
        raise InputError(
            msg("output: unknown {output!r} (allowed: {allowed})", output=output, allowed=", ".join(OUTPUTS))
        )


def _triangular(spread: float, size: int, rng: np.random.Generator) -> np.ndarray:
    if spread == 0:
        return np.ones(size)
    return np.asarray(stats.triang(c=0.5, loc=1 - spread, scale=2 * spread).rvs(size=size, random_state=rng))


PRICE_FACTORS: tuple[str, ...] = (*PRICE_INPUTS, "electricity_price")
"""The price inputs of the Monte Carlo, in the order their factors are drawn."""


def price_factor_samples(spec: MonteCarloSpec, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``spec.samples`` draws of each :data:`PRICE_FACTORS` factor [-], drawn in that order from
    ``rng`` (the hardware prices at ``price_spread_fraction``, electricity at its own spread).

    Parameters
    ----------
    spec : MonteCarloSpec
        Number of samples [count] and the triangular half-widths [fraction].
    rng : numpy.random.Generator
        Random source; advanced by ``len(PRICE_FACTORS) x spec.samples`` draws.

    Returns
    -------
    dict[str, numpy.ndarray]
        Price input name -> ``spec.samples`` factors [dimensionless], each within
        ``1 +/- spread`` (all 1 when the spread is 0).
    """
    n = spec.samples
    factors = {name: _triangular(spec.price_spread_fraction, n, rng) for name in PRICE_INPUTS}
    factors["electricity_price"] = _triangular(spec.electricity_spread_fraction, n, rng)
    return factors


def price_response(
    *, base_plan: Plan, catalog: Catalog, factors: Mapping[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """TCO [USD] and cost per GPU-hour [USD/GPU-h] of each sample of price ``factors``.

    Both are linear in every price factor (see the module notes): ``y = y0 + sum_i (f_i - 1) dy_i``
    with ``dy_i`` from one re-plan of ``base_plan`` with factor ``i`` at 2, so the cost is
    ``len(PRICE_FACTORS)`` plans whatever the number of samples.

    Parameters
    ----------
    base_plan : Plan
        The plan at factor 1 for every price.
    catalog : Catalog
        The plan's catalog.
    factors : Mapping[str, numpy.ndarray]
        Name of each of :data:`PRICE_FACTORS` -> its sampled factors [dimensionless], all of
        one length; every name must be present.

    Returns
    -------
    tuple[numpy.ndarray, numpy.ndarray]
        TCO [USD] and cost per GPU-hour [USD/GPU-h], one value per sample.
    """
    size = len(next(iter(factors.values())))
    tco = np.full(size, base_plan.cost.tco_usd)
    per_gpu_hour = np.full(size, base_plan.cost.usd_per_gpu_hour)
    for name in PRICE_FACTORS:
        doubled = plan(scenario=priced_scenario(base_plan, catalog, {name: 2.0}), catalog=catalog).cost
        tco += (factors[name] - 1.0) * (doubled.tco_usd - base_plan.cost.tco_usd)
        per_gpu_hour += (factors[name] - 1.0) * (doubled.usd_per_gpu_hour - base_plan.cost.usd_per_gpu_hour)
    return tco, per_gpu_hour


GOODPUT_CHUNK = 500
"""Samples evaluated between two progress reports of :func:`monte_carlo` [count]."""


def _goodputs(rel: Reliability, failure_scales: np.ndarray, steps: Steps | None) -> np.ndarray:
    """The optimal goodput at each sampled failure-rate scale, in chunks (see :func:`monte_carlo`)."""
    out = np.empty(len(failure_scales))
    for start in range(0, len(failure_scales), GOODPUT_CHUNK):
        checkpoint(steps, done=start, total=len(failure_scales))
        for i in range(start, min(start + GOODPUT_CHUNK, len(failure_scales))):
            out[i] = rel.optimal_goodput(failure_rate_scale=float(failure_scales[i]))
    return out


def monte_carlo(
    *,
    job: TrainingJob,
    scenario: Scenario,
    catalog: Catalog,
    reliability_params: ReliabilityParams | None = None,
    spec: MonteCarloSpec | None = None,
    steps: Steps | None = None,
) -> MonteCarloResult:
    """P10/P50/P90 of TCO, time to train and cost to train under uncertain prices and failure rates.

    Seedable: the same ``spec.seed`` gives the same samples. ``steps`` hears of every
    :data:`GOODPUT_CHUNK` samples evaluated and may stop the run
    (:class:`planner.progress.CancelledError`).

    Parameters
    ----------
    job : TrainingJob
        The training job; its time to train without failures is held at the base estimate's.
    scenario : Scenario
        The cluster scenario the base plan is built from.
    catalog : Catalog
        The plan's catalog.
    reliability_params : ReliabilityParams or None
        Failure-model parameters; ``None`` takes the defaults for the job's ``params_b``.
    spec : MonteCarloSpec or None
        Samples, seed and distributions; ``None`` takes :class:`MonteCarloSpec`'s defaults.
    steps : Steps or None
        Progress listener that may cancel the run; ``None`` reports nothing.

    Returns
    -------
    MonteCarloResult
        The spec, base value and P10/P50/P90 of ``tco_usd`` [USD], ``time_to_train_days`` [days]
        and ``cost_to_train_usd`` [USD], and a frame of every sample's factors
        [dimensionless] and outputs.
    """
    spec = spec or MonteCarloSpec()
    base_plan, base, params = _base(job, scenario, catalog, reliability_params)
    origin = _evaluate(base=base, base_plan=base_plan, catalog=catalog, params=params, factors={})
    rng = np.random.default_rng(spec.seed)
    n = spec.samples
    factors = price_factor_samples(spec, rng)
    if spec.failure_rate_sigma == 0:
        factors["failure_rate"] = np.ones(n)
    else:
        factors["failure_rate"] = np.asarray(
            stats.lognorm(s=spec.failure_rate_sigma, scale=1.0).rvs(size=n, random_state=rng)
        )
    tco, per_gpu_hour = price_response(base_plan=base_plan, catalog=catalog, factors=factors)
    ideal_days = base.time_to_train_ideal_days
    rel = base.reliability
    goodput = _goodputs(rel, factors["failure_rate"], steps)
    with np.errstate(divide="ignore"):
        days = np.where(goodput > 0, ideal_days / np.where(goodput > 0, goodput, 1.0), np.inf)
    cost = base_plan.gpus * days * 24.0 * per_gpu_hour
    samples = pd.DataFrame(
        {
            **{f"{name}_factor": values for name, values in factors.items()},
            "tco_usd": tco,
            "time_to_train_days": days,
            "cost_to_train_usd": cost,
        }
    )
    percentiles = tuple(
        Percentiles(
            output=output,
            base=origin.value(output),
            p10=float(np.percentile(samples[output], 10)),
            p50=float(np.percentile(samples[output], 50)),
            p90=float(np.percentile(samples[output], 90)),
        )
        for output in OUTPUTS
    )
    return MonteCarloResult(spec=spec, percentiles=percentiles, samples=samples)
