"""Cached engine calls of the Optimize, Workload and Reliability pages.

Same rules as :mod:`ui.engine`: keys are JSON text (scenario, request, job, catalog override),
so equal inputs hit the cache whatever widget produced them. The catalog and plans travel as
unhashed ``_`` arguments beside the text that identifies them. An optimizer's "no design fits"
is a result, not an exception: it is cached too, so a rerun does not solve again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from planner import Catalog, Plan, PlannerError, Scenario, scenario_from_data
from planner.collectives import collectives_frame
from planner.errors import InfeasibleError
from planner.optimize import OptimizeResult, optimize, request_from_data
from planner.optimize.pareto import ParetoPoint, bandwidth_front, power_front
from planner.reliability import Reliability, ReliabilityParams, goodput_curve, reliability
from planner.uncertainty import MonteCarloResult, MonteCarloSpec, monte_carlo, tornado
from planner.workload import TrainingJob, WorkloadEstimate, estimate_workload
from ui import engine, state

MONTE_CARLO_SEED = 20250101
"""Fixed seed: the same inputs always show the same percentiles."""
MONTE_CARLO_SAMPLES = 2000


# --- optimizer ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solved:
    """One optimizer run: the result, or why there is none."""

    result: OptimizeResult | None
    error: str | None = None
    infeasible: bool = False
    """True when no design meets the limits (the message names the binding limit)."""


@dataclass(frozen=True)
class Front:
    points: tuple[ParetoPoint, ...]
    error: str | None = None


@st.cache_data(show_spinner=False, max_entries=64)
def _solve(scenario_json: str, override_json: str, request_json: str, _catalog: Catalog) -> Solved:
    try:
        scenario = scenario_from_data(json.loads(scenario_json))
        request = request_from_data(json.loads(request_json))
        return Solved(optimize(scenario=scenario, catalog=_catalog, request=request))
    except InfeasibleError as exc:
        return Solved(None, str(exc), infeasible=True)
    except PlannerError as exc:
        return Solved(None, str(exc))


def solve(scenario_json: str, request_json: str) -> Solved:
    """The optimizer's answer for a scenario and a request (both JSON), cached."""
    return _solve(scenario_json, state.catalog_override(), request_json, engine.catalog())


@st.cache_data(show_spinner=False, max_entries=32)
def _front(kind: str, scenario_json: str, override_json: str, request_json: str, _catalog: Catalog) -> Front:
    try:
        scenario = scenario_from_data(json.loads(scenario_json))
        request = request_from_data(json.loads(request_json))
        build = power_front if kind == "power" else bandwidth_front
        return Front(build(scenario=scenario, catalog=_catalog, request=request))
    except PlannerError as exc:
        return Front((), str(exc))


def front(kind: str, scenario_json: str, request_json: str) -> Front:
    """A Pareto front (``kind`` ``power`` or ``bandwidth``), each point a full design; cached."""
    return _front(kind, scenario_json, state.catalog_override(), request_json, engine.catalog())


# --- designs side by side ---------------------------------------------------------------------


def analysis_plans(scenario: Scenario, current: Plan) -> tuple[Plan, ...]:
    """Every design with the current GPU (as on the Compare page), and the current plan too when
    it is a custom fabric (an optimized or loaded design)."""
    plans = engine.compare_plans(scenario, current)
    if current.design_id not in {p.design_id for p in plans}:
        plans = (*plans, current)
    return plans


def _key(plans: Sequence[Plan]) -> tuple[str, ...]:
    return tuple(p.scenario.model_dump_json() for p in plans)


@dataclass(frozen=True)
class Estimates:
    """Training estimates per design; a design the job does not fit on is listed with the reason."""

    estimates: tuple[WorkloadEstimate, ...]
    errors: tuple[tuple[str, str], ...]
    """(design id, message) of each design without an estimate."""


@st.cache_data(show_spinner=False, max_entries=64)
def _workload(
    plans_key: tuple[str, ...],
    override_json: str,
    job_json: str,
    params_json: str,
    _plans: tuple[Plan, ...],
    _catalog: Catalog,
) -> Estimates:
    job = TrainingJob.model_validate_json(job_json)
    params = ReliabilityParams.model_validate_json(params_json)
    found, errors = [], []
    for p in _plans:
        try:
            found.append(estimate_workload(job=job, plan=p, catalog=_catalog, reliability_params=params))
        except PlannerError as exc:
            errors.append((p.design_id, str(exc)))
    return Estimates(tuple(found), tuple(errors))


def workload(plans: tuple[Plan, ...], job: TrainingJob, params: ReliabilityParams) -> Estimates:
    """The job on each plan (:func:`planner.workload.estimate_workload`, as ``compare_workload``
    does, but one design's error does not hide the others)."""
    override = state.catalog_override()
    return _workload(
        _key(plans), override, job.model_dump_json(), params.model_dump_json(), plans, engine.catalog()
    )


@st.cache_data(show_spinner=False, max_entries=32)
def _collectives(
    plans_key: tuple[str, ...],
    override_json: str,
    in_network: bool,
    _plans: tuple[Plan, ...],
    _catalog: Catalog,
) -> pd.DataFrame:
    return collectives_frame(plans=_plans, catalog=_catalog, in_network_reduction=in_network)


def collectives(plans: tuple[Plan, ...], *, in_network_reduction: bool) -> pd.DataFrame:
    """All-reduce and all-to-all busbw against message size, per design (tidy)."""
    return _collectives(_key(plans), state.catalog_override(), in_network_reduction, plans, engine.catalog())


@dataclass(frozen=True)
class Tornado:
    frame: pd.DataFrame | None
    error: str | None = None


@st.cache_data(show_spinner=False, max_entries=32)
def _tornado(
    scenario_json: str, override_json: str, job_json: str, params_json: str, _catalog: Catalog
) -> Tornado:
    try:
        frame = tornado(
            job=TrainingJob.model_validate_json(job_json),
            scenario=scenario_from_data(json.loads(scenario_json)),
            catalog=_catalog,
            reliability_params=ReliabilityParams.model_validate_json(params_json),
        )
    except PlannerError as exc:
        return Tornado(None, str(exc))
    return Tornado(frame)


def tornado_of(plan: Plan, job: TrainingJob, params: ReliabilityParams) -> Tornado:
    """±20 % swings of TCO, time and cost to train on one design."""
    return _tornado(
        plan.scenario.model_dump_json(),
        state.catalog_override(),
        job.model_dump_json(),
        params.model_dump_json(),
        engine.catalog(),
    )


@st.cache_data(show_spinner=False, max_entries=32)
def _monte_carlo(
    plans_key: tuple[str, ...],
    override_json: str,
    job_json: str,
    params_json: str,
    _plans: tuple[Plan, ...],
    _catalog: Catalog,
) -> tuple[MonteCarloResult | None, ...]:
    job = TrainingJob.model_validate_json(job_json)
    params = ReliabilityParams.model_validate_json(params_json)
    spec = MonteCarloSpec(samples=MONTE_CARLO_SAMPLES, seed=MONTE_CARLO_SEED)
    results: list[MonteCarloResult | None] = []
    for p in _plans:
        try:
            results.append(
                monte_carlo(
                    job=job, scenario=p.scenario, catalog=_catalog, reliability_params=params, spec=spec
                )
            )
        except PlannerError:
            results.append(None)  # the workload table already says why this design has no estimate
    return tuple(results)


def monte_carlo_of(
    plans: tuple[Plan, ...], job: TrainingJob, params: ReliabilityParams
) -> tuple[MonteCarloResult | None, ...]:
    """P10/P50/P90 per design (fixed seed), ``None`` where the job does not fit."""
    return _monte_carlo(
        _key(plans),
        state.catalog_override(),
        job.model_dump_json(),
        params.model_dump_json(),
        plans,
        engine.catalog(),
    )


# --- reliability -----------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _reliability(
    plans_key: tuple[str, ...], override_json: str, params_json: str, _plans: tuple[Plan, ...]
) -> tuple[tuple[Reliability, pd.DataFrame], ...]:
    params = ReliabilityParams.model_validate_json(params_json)
    out = []
    for p in _plans:
        result = reliability(plan=p, params=params)
        out.append((result, goodput_curve(result=result)))
    return tuple(out)


def reliability_of(
    plans: tuple[Plan, ...], params: ReliabilityParams
) -> tuple[tuple[Reliability, pd.DataFrame], ...]:
    """Interruptions, checkpointing and goodput per design, with the goodput curve of each."""
    return _reliability(_key(plans), state.catalog_override(), params.model_dump_json(), plans)
