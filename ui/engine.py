"""Cached engine calls: one computation per distinct (scenario, catalog override).

Keys are the canonical JSON of the scenario (:func:`canonical_json`) and of the override, so
equal inputs hit the cache whatever widget, file or link produced them. The caches are the
server's, shared by every session and bounded (``max_entries``): twenty sessions opening the same
scenario compute its plan once (Streamlit holds one compute lock per key, so the others wait for
that result instead of computing it again; ``bench/load_sessions.py`` measures it). Errors are
not cached (they are cheap and must show every time).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from planner import (
    DEFAULT_DESIGNS,
    Catalog,
    InputError,
    Plan,
    PlannerError,
    Scenario,
    compare,
    crossovers,
    load_catalog,
    plan,
    scenario_from_data,
    sweep,
)
from planner.access import priced_catalog, read_catalog_view_key
from planner.catalog import load_catalog_from_data, with_calibration
from planner.compare import Crossover, Sweep
from planner.decision.draws import Decision, decide
from planner.errors import InfeasibleError
from planner.i18n import error_text, translate
from planner.inputs.optimize import request_from_data
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.serving import ServingRequest
from planner.inputs.training import TrainingJob
from planner.optimize import OptimizeResult, optimize
from planner.optimize.pareto import ParetoPoint, bandwidth_front, power_front
from planner.performance.collectives import collectives_frame
from planner.performance.reliability import Reliability, goodput_curve, reliability
from planner.performance.serving import (
    ServingEstimate,
    SizingResult,
    batch_sweep,
    estimate_serving,
    size_serving,
)
from planner.performance.uncertainty import MonteCarloResult, MonteCarloSpec, monte_carlo, tornado
from planner.performance.workload import WorkloadEstimate, estimate_workload
from planner.progress import CancelledError, Steps, part_of
from planner.report.tables import METRICS, SCALING_METRICS
from planner.tenancy.place import Placement
from planner.tenancy.run import place_on_plan
from planner.tenancy.tenants import TenantSet, tenants_from_data
from ui import inputs, keys, progress, state


def scenario_of(scenario_json: str) -> Scenario:
    """The scenario a JSON text holds (a cache key of :func:`canonical_json`, a saved version, a
    run in the session), read and checked as a scenario file is."""
    return scenario_from_data(json.loads(scenario_json))


def canonical_json(model: BaseModel) -> str:
    """The cache key of an input model: its JSON with sorted keys and no spaces, so equal inputs
    are one key (one computation shared by every session) whatever order their mappings were
    filled in (price overrides from the form, a file or a share link).

    >>> a = Scenario(price_overrides_usd={"h100_sxm": 1.0, "br100": 2.0})
    >>> canonical_json(a) == canonical_json(Scenario(price_overrides_usd={"br100": 2.0, "h100_sxm": 1.0}))
    True
    """
    return json.dumps(
        model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


@st.cache_resource(show_spinner=False, max_entries=8)
def _catalog(view_key: str) -> Catalog:
    # the key is state.catalog_override(): the upload, and the price factor of a priced session
    override_json, price_factor = read_catalog_view_key(view_key)
    loaded = (
        load_catalog_from_data(json.loads(override_json), name="upload") if override_json else load_catalog()
    )
    return loaded if price_factor is None else priced_catalog(catalog=loaded, price_factor=price_factor)


@st.cache_data(show_spinner=False, max_entries=512)
def _plan(scenario_json: str, override_json: str) -> Plan:
    return plan(scenario=scenario_of(scenario_json), catalog=_catalog(override_json))


@st.cache_data(show_spinner=False, max_entries=128)
def _compare(scenario_json: str, override_json: str, design_ids: tuple[str, ...]) -> tuple[Plan, ...]:
    scenario = scenario_of(scenario_json)
    return compare(scenario=scenario, catalog=_catalog(override_json), design_ids=design_ids)


def _compute_sweep(
    scenario_json: str, override_json: str, design_ids: tuple[str, ...], steps: Steps | None = None
) -> Sweep:
    scenario = scenario_of(scenario_json)
    return sweep(scenario=scenario, catalog=_catalog(override_json), design_ids=design_ids, steps=steps)


def _sweep(scenario_json: str, override_json: str, design_ids: tuple[str, ...]) -> Sweep:
    """The sweep :func:`sweep_ready` computed (kept in :mod:`ui.progress`'s memo), else computed
    here without a bar."""
    key = (scenario_json, override_json, design_ids)
    return progress.memo_or(name="sweep", key=key, compute=lambda: _compute_sweep(*key))


def catalog() -> Catalog:
    """The catalog in use: bundled, or with the session's uploaded override applied, then the
    scenario's calibration (as :func:`planner.engine.plan` applies it to every plan)."""
    return with_calibration(_catalog(state.catalog_override()), state.calibration())


def plan_for(scenario: Scenario) -> Plan:
    return _plan(canonical_json(scenario), state.catalog_override())


def design_ids() -> tuple[str, ...]:
    """The presets first, then every other design in the catalog (custom or uploaded)."""
    known = catalog().designs
    return tuple(d for d in DEFAULT_DESIGNS if d in known) + tuple(sorted(set(known) - set(DEFAULT_DESIGNS)))


def _same_gpu(scenario: Scenario, current: Plan) -> Scenario:
    """Compare and sweep every design on the GPU the current plan uses."""
    return scenario.with_updates(gpu_id=current.gpu_id)


def compared_design_ids(current: Plan) -> tuple[str, ...]:
    """The presets, plus the current design when it is another catalog design (e.g. ib-hdr).

    Not every catalog design: a design kept for one GPU generation (the validation suite's
    ib-hdr) need not build on every GPU, and the comparison is about the presets.
    """
    known = catalog().designs
    presets = tuple(d for d in DEFAULT_DESIGNS if d in known)
    if current.scenario.fabric is None and current.design_id not in presets and current.design_id in known:
        return (*presets, current.design_id)
    return presets


def compare_plans(scenario: Scenario, current: Plan) -> tuple[Plan, ...]:
    """The compared designs on the current GPU, plus the current design when it is custom."""
    ids = compared_design_ids(current)
    plans = _compare(canonical_json(_same_gpu(scenario, current)), state.catalog_override(), ids)
    return (*plans, current) if current.scenario.fabric is not None else plans


def _decision(
    scenario_json: str, override_json: str, design_ids: tuple[str, ...], steps: Steps | None = None
) -> Decision:
    scenario = scenario_of(scenario_json)
    return decide(scenario=scenario, catalog=_catalog(override_json), design_ids=design_ids, steps=steps)


def decision_of(scenario: Scenario, current: Plan) -> Decision | None:
    """The compared designs ranked by the cost of the scenario's workload (the price per GPU-hour
    without one), with bands and the probability that each is the cheapest; the same figures as
    ``planner compare`` and the proposal's internal edition. Its Monte Carlo runs with a progress
    bar and a Cancel button; ``None`` when the user cancelled it (the line is shown)."""
    ids = compared_design_ids(current)
    key = (canonical_json(_same_gpu(scenario, current)), state.catalog_override(), ids)
    return progress.cached(
        name="decision",
        key=key,
        label=state.t("progress.monte_carlo"),
        compute=lambda steps: _decision(*key, steps=steps),
    )


def _sweep_key(scenario: Scenario, current: Plan) -> str:
    """The sweep ignores the GPU count: pin it so that changing the count reuses the sweep."""
    pinned = _same_gpu(scenario, current).with_updates(gpus=inputs.BY_NAME["gpus"].default)
    return canonical_json(pinned)


def sweep_ready(scenario: Scenario, current: Plan) -> bool:
    """Compute the Scaling page's sweep with a progress bar and a Cancel button (nothing when it
    is kept already); false when the user cancelled it (the page shows the line and stops)."""
    key = (_sweep_key(scenario, current), state.catalog_override(), compared_design_ids(current))
    done = progress.cached(
        name="sweep",
        key=key,
        label=state.t("progress.sweep"),
        compute=lambda steps: _compute_sweep(*key, steps=steps),
    )
    return done is not None


def sweep_frame(scenario: Scenario, current: Plan) -> pd.DataFrame:
    """Headline figures 8 to 1024 GPUs per design (the GPU count is not part of the key)."""
    return _sweep(_sweep_key(scenario, current), state.catalog_override(), compared_design_ids(current)).frame


def sweep_skipped(scenario: Scenario, current: Plan) -> pd.DataFrame:
    """The sizes of the Scaling page's sweep a design cannot build, with the reason in the
    session's language (design, gpus_from, gpus_to, sizes, reason); empty when all were planned."""
    key = _sweep_key(scenario, current)
    frame = _sweep(key, state.catalog_override(), compared_design_ids(current)).skipped_frame()
    return frame.assign(reason=[translate(reason, state.lang()) for reason in frame["reason"]])


@st.cache_data(show_spinner=False, max_entries=32)
def _crossovers(
    scenario_json: str, override_json: str, design_ids: tuple[str, ...], columns: tuple[str, ...]
) -> dict[str, tuple[Crossover, ...]]:
    frame = _sweep(scenario_json, override_json, design_ids).frame
    return {c: crossovers(frame, metric=c, lower_is_better=METRICS[c].better != "higher") for c in columns}


def crossovers_of(
    scenario: Scenario, current: Plan, columns: Sequence[str] = SCALING_METRICS
) -> dict[str, tuple[Crossover, ...]]:
    """Crossovers of each scaling metric, in its own direction (busbw: higher is better)."""
    key = _sweep_key(scenario, current)
    return _crossovers(key, state.catalog_override(), compared_design_ids(current), tuple(columns))


@dataclass(frozen=True)
class Current:
    """What the pages show: the plan of the inputs, or the last valid one beside the error."""

    plan: Plan | None
    scenario: Scenario | None
    error: str | None = None
    input_name: str | None = None
    """The sidebar input the error is about (``None``: not tied to one input)."""
    previous: Plan | None = None
    """The plan before the last change (for KPI deltas)."""

    @property
    def stale(self) -> bool:
        return self.error is not None and self.plan is not None


def current() -> Current:
    """Plan the current inputs; on a bad input fall back to the last accepted scenario."""
    ss = st.session_state
    try:
        scenario = state.scenario()
        result = plan_for(scenario)
    except PlannerError as exc:
        message = error_text(exc)  # keeps the Message, so the page can show it translated
        fallback = ss.get(keys.LAST_GOOD)
        plan_ = scenario_ = None
        if fallback:
            try:
                scenario_ = scenario_of(fallback)
                plan_ = plan_for(scenario_)
            except PlannerError:
                plan_ = scenario_ = None
        return Current(plan=plan_, scenario=scenario_, error=message, input_name=_input_of(exc))
    key = scenario.model_dump_json()
    ss[keys.LAST_GOOD] = key
    if ss.get(keys.KPI_CURRENT) != key:
        ss[keys.KPI_PREVIOUS], ss[keys.KPI_CURRENT] = ss.get(keys.KPI_CURRENT), key
    previous = None
    if ss.get(keys.KPI_PREVIOUS):
        try:
            previous = plan_for(scenario_of(ss[keys.KPI_PREVIOUS]))
        except PlannerError:
            previous = None
    return Current(plan=result, scenario=scenario, previous=previous)


def _input_of(exc: PlannerError) -> str | None:
    if not isinstance(exc, InputError):
        return None
    return inputs.input_of_error(str(exc))


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
        scenario = scenario_of(scenario_json)
        request = request_from_data(json.loads(request_json))
        return Solved(optimize(scenario=scenario, catalog=_catalog, request=request))
    except InfeasibleError as exc:
        return Solved(None, str(exc), infeasible=True)
    except PlannerError as exc:
        return Solved(None, str(exc))


def solve(scenario_json: str, request_json: str) -> Solved:
    """The optimizer's answer for a scenario and a request (both JSON), cached."""
    return _solve(scenario_json, state.catalog_override(), request_json, catalog())


def _front(kind: str, scenario_json: str, request_json: str, catalog: Catalog, steps: Steps | None) -> Front:
    try:
        scenario = scenario_of(scenario_json)
        request = request_from_data(json.loads(request_json))
        build = power_front if kind == "power" else bandwidth_front
        return Front(build(scenario=scenario, catalog=catalog, request=request, steps=steps))
    except CancelledError:
        raise
    except PlannerError as exc:
        return Front((), str(exc))


def front(kind: str, scenario_json: str, request_json: str) -> Front | None:
    """A Pareto front (``kind`` ``power`` or ``bandwidth``), each point a full design; kept, and
    solved with a progress bar and a Cancel button: ``None`` when the user cancelled it."""
    in_use = catalog()
    return progress.cached(
        name="pareto",
        key=(kind, scenario_json, state.catalog_override(), request_json),
        label=state.t("opt.pareto_solving"),
        compute=lambda steps: _front(kind, scenario_json, request_json, in_use, steps),
    )


# --- tenancy -------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=32)
def _placements(
    scenario_json: str, override_json: str, tenants_json: str, design_ids: tuple[str, ...]
) -> tuple[Placement, ...]:
    tenants = tenants_from_data(json.loads(tenants_json))
    base = scenario_of(scenario_json)
    out = []
    for design in design_ids:
        scenario = base if design == base.design_id else base.with_updates(design_id=design, fabric=None)
        placed_on = _plan(canonical_json(scenario), override_json)
        out.append(place_on_plan(plan=placed_on, catalog=_catalog(override_json), tenants=tenants))
    return tuple(out)


def tenant_placements(
    scenario: Scenario, tenants: TenantSet, design_ids: Sequence[str]
) -> tuple[Placement, ...]:
    """``tenants`` on each design (the scenario's own first when listed), cached on the scenario
    without its tenant set, the catalog and the tenant set: a rerun recomputes nothing, and
    editing the tenant table replans no design (the plans do not depend on the tenants)."""
    return _placements(
        canonical_json(scenario.with_updates(tenants=[])),
        state.catalog_override(),
        canonical_json(tenants),
        tuple(design_ids),
    )


# --- designs side by side ---------------------------------------------------------------------


def analysis_plans(scenario: Scenario, current: Plan) -> tuple[Plan, ...]:
    """Every design with the current GPU (as on the Compare page), and the current plan too when
    it is a custom fabric (an optimized or loaded design)."""
    plans = compare_plans(scenario, current)
    if current.design_id not in {p.design_id for p in plans}:
        plans = (*plans, current)
    return plans


def _key(plans: Sequence[Plan]) -> tuple[str, ...]:
    return tuple(canonical_json(p.scenario) for p in plans)


T = TypeVar("T")


def _each_design(
    plans: Sequence[Plan], estimate: Callable[[Plan], T]
) -> tuple[tuple[T, ...], tuple[tuple[str, str], ...]]:
    """``estimate`` on each plan, and (design id, message) of each plan it refuses: one design's
    error does not hide the others."""
    found, errors = [], []
    for p in plans:
        try:
            found.append(estimate(p))
        except PlannerError as exc:
            errors.append((p.design_id, str(exc)))
    return tuple(found), tuple(errors)


@dataclass(frozen=True)
class Estimates:
    """Training estimates per design; a design the job does not fit on is listed with the reason."""

    estimates: tuple[WorkloadEstimate, ...]
    errors: tuple[tuple[str, str], ...]
    """(design id, message) of each design without an estimate."""


class _JobKey(NamedTuple):
    """Cache key of a training job on a set of plans: the plans, the catalog view, the job and the
    reliability parameters (JSON, hashed by value)."""

    plans: tuple[str, ...]
    override_json: str
    job_json: str
    params_json: str

    def job_and_params(self) -> tuple[TrainingJob, ReliabilityParams]:
        return TrainingJob.model_validate_json(self.job_json), ReliabilityParams.model_validate_json(
            self.params_json
        )


def _job_key(plans: tuple[Plan, ...], job: TrainingJob, params: ReliabilityParams) -> _JobKey:
    return _JobKey(_key(plans), state.catalog_override(), canonical_json(job), canonical_json(params))


@st.cache_data(show_spinner=False, max_entries=64)
def _workload(key: _JobKey, _plans: tuple[Plan, ...], _catalog: Catalog) -> Estimates:
    job, params = key.job_and_params()
    return Estimates(
        *_each_design(
            _plans, lambda p: estimate_workload(job=job, plan=p, catalog=_catalog, reliability_params=params)
        )
    )


def workload(plans: tuple[Plan, ...], job: TrainingJob, params: ReliabilityParams) -> Estimates:
    """The job on each plan (:func:`planner.performance.workload.estimate_workload`, as ``compare_workload``
    does, but one design's error does not hide the others)."""
    return _workload(_job_key(plans, job, params), plans, catalog())


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
    return _collectives(_key(plans), state.catalog_override(), in_network_reduction, plans, catalog())


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
            scenario=scenario_of(scenario_json),
            catalog=_catalog,
            reliability_params=ReliabilityParams.model_validate_json(params_json),
        )
    except PlannerError as exc:
        return Tornado(None, str(exc))
    return Tornado(frame)


def tornado_of(plan: Plan, job: TrainingJob, params: ReliabilityParams) -> Tornado:
    """±20 % swings of TCO, time and cost to train on one design."""
    return _tornado(
        canonical_json(plan.scenario),
        state.catalog_override(),
        canonical_json(job),
        canonical_json(params),
        catalog(),
    )


def _monte_carlo(
    key: _JobKey, plans: tuple[Plan, ...], catalog: Catalog, steps: Steps | None
) -> tuple[MonteCarloResult | None, ...]:
    job, params = key.job_and_params()
    spec = MonteCarloSpec(samples=MONTE_CARLO_SAMPLES, seed=MONTE_CARLO_SEED)
    results: list[MonteCarloResult | None] = []
    for index, p in enumerate(plans):
        part = part_of(steps, index=index, count=len(plans))
        try:
            results.append(
                monte_carlo(
                    job=job,
                    scenario=p.scenario,
                    catalog=catalog,
                    reliability_params=params,
                    spec=spec,
                    steps=part,
                )
            )
        except CancelledError:
            raise
        except PlannerError:
            results.append(None)  # the workload table already says why this design has no estimate
    return tuple(results)


def monte_carlo_of(
    plans: tuple[Plan, ...], job: TrainingJob, params: ReliabilityParams
) -> tuple[MonteCarloResult | None, ...] | None:
    """P10/P50/P90 per design (fixed seed), ``None`` where the job does not fit; run with a
    progress bar and a Cancel button, ``None`` in all when the user cancelled it (the line is shown)."""
    key, in_use = _job_key(plans, job, params), catalog()
    return progress.cached(
        name="uncertainty",
        key=key,
        label=state.t("progress.uncertainty"),
        compute=lambda steps: _monte_carlo(key, plans, in_use, steps),
    )


# --- reliability -----------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _reliability(
    plans_key: tuple[str, ...], override_json: str, params_json: str, _plans: tuple[Plan, ...]
) -> tuple[tuple[Reliability, pd.DataFrame], ...]:
    params = ReliabilityParams.model_validate_json(params_json)
    out = []
    for p in _plans:
        result = reliability(plan=p, params=params, catalog=_catalog(override_json))
        out.append((result, goodput_curve(result=result)))
    return tuple(out)


def reliability_of(
    plans: tuple[Plan, ...], params: ReliabilityParams
) -> tuple[tuple[Reliability, pd.DataFrame], ...]:
    """Interruptions, checkpointing and goodput per design, with the goodput curve of each."""
    return _reliability(_key(plans), state.catalog_override(), canonical_json(params), plans)


@dataclass(frozen=True)
class ServingRun:
    """A serving request on each design; a design it cannot be served on is listed with the reason."""

    request: ServingRequest
    estimates: tuple[tuple[Plan, ServingEstimate], ...]
    errors: tuple[tuple[str, str], ...]
    """(design id, message) of each design without an estimate."""


def _serving_key(plans: Sequence[Plan]) -> tuple[str, ...]:
    # the plans do not depend on the serving request the scenario carries: editing it reuses them
    return tuple(canonical_json(p.scenario.with_updates(serving=None)) for p in plans)


@st.cache_data(show_spinner=False, max_entries=64)
def _serving(
    plans_key: tuple[str, ...],
    override_json: str,
    request_json: str,
    _plans: tuple[Plan, ...],
    _catalog: Catalog,
) -> ServingRun:
    request = ServingRequest.model_validate_json(request_json)
    return ServingRun(
        request,
        *_each_design(_plans, lambda p: (p, estimate_serving(request=request, plan=p, catalog=_catalog))),
    )


def serving(plans: tuple[Plan, ...], request: ServingRequest) -> ServingRun:
    """``request`` on each plan (:func:`planner.performance.serving.estimate_serving`); one design's
    error does not hide the others. Cached on the plans' scenarios and the request."""
    override = state.catalog_override()
    return _serving(_serving_key(plans), override, canonical_json(request), plans, catalog())


@st.cache_data(show_spinner=False, max_entries=64)
def _serving_sweeps(
    plans_key: tuple[str, ...], override_json: str, request_json: str, _run: ServingRun, _catalog: Catalog
) -> tuple[tuple[dict[str, float], ...], ...]:
    return tuple(tuple(batch_sweep(estimate=e, plan=p, catalog=_catalog)) for p, e in _run.estimates)


def serving_batch_sweeps(run: ServingRun) -> tuple[tuple[dict[str, float], ...], ...]:
    """TPOT and tokens/s against the batch for each estimate of ``run`` (same order), cached."""
    plans = tuple(p for p, _ in run.estimates)
    override = state.catalog_override()
    return _serving_sweeps(_serving_key(plans), override, canonical_json(run.request), run, catalog())


@st.cache_data(show_spinner=False, max_entries=32)
def _size_serving(
    scenario_json: str, override_json: str, request_json: str, design_ids: tuple[str, ...], _catalog: Catalog
) -> tuple[SizingResult, ...]:
    return size_serving(
        request=ServingRequest.model_validate_json(request_json),
        scenario=scenario_of(scenario_json),
        catalog=_catalog,
        design_ids=design_ids,
    )


def serving_sizing(
    request: ServingRequest, scenario: Scenario, design_ids: tuple[str, ...]
) -> tuple[SizingResult, ...]:
    """The smallest cluster per design for ``request`` (:func:`planner.performance.serving.size_serving`),
    cached on the scenario (without its serving request), the request and the designs."""
    key = canonical_json(scenario.with_updates(serving=None))
    return _size_serving(key, state.catalog_override(), canonical_json(request), design_ids, catalog())
