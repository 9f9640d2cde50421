"""Cached engine calls: one computation per distinct (scenario, catalog override).

Keys are the scenario's JSON and the override's canonical JSON, so equal inputs hit the cache
whatever widget produced them. Errors are not cached (they are cheap and must show every time).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

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
from planner.catalog import load_catalog_from_data
from planner.compare import Crossover
from ui import inputs, keys, state
from ui.tables import METRICS, SCALING_METRICS


@st.cache_resource(show_spinner=False, max_entries=8)
def _catalog(override_json: str) -> Catalog:
    if not override_json:
        return load_catalog()
    return load_catalog_from_data(json.loads(override_json), name="upload")


@st.cache_data(show_spinner=False, max_entries=512)
def _plan(scenario_json: str, override_json: str) -> Plan:
    return plan(scenario=scenario_from_data(json.loads(scenario_json)), catalog=_catalog(override_json))


@st.cache_data(show_spinner=False, max_entries=128)
def _compare(scenario_json: str, override_json: str, design_ids: tuple[str, ...]) -> tuple[Plan, ...]:
    scenario = scenario_from_data(json.loads(scenario_json))
    return compare(scenario=scenario, catalog=_catalog(override_json), design_ids=design_ids)


@st.cache_data(show_spinner=False, max_entries=32)
def _sweep(scenario_json: str, override_json: str, design_ids: tuple[str, ...]) -> pd.DataFrame:
    scenario = scenario_from_data(json.loads(scenario_json))
    return sweep(scenario=scenario, catalog=_catalog(override_json), design_ids=design_ids)


def catalog() -> Catalog:
    """The catalog in use: bundled, or with the session's uploaded override applied."""
    return _catalog(state.catalog_override())


def plan_for(scenario: Scenario) -> Plan:
    return _plan(scenario.model_dump_json(), state.catalog_override())


def design_ids() -> tuple[str, ...]:
    """The presets first, then every other design in the catalog (custom or uploaded)."""
    known = catalog().designs
    return tuple(d for d in DEFAULT_DESIGNS if d in known) + tuple(sorted(set(known) - set(DEFAULT_DESIGNS)))


def _same_gpu(scenario: Scenario, current: Plan) -> Scenario:
    """Compare and sweep every design on the GPU the current plan uses."""
    return scenario.with_updates(gpu_id=current.gpu_id)


def compare_plans(scenario: Scenario, current: Plan) -> tuple[Plan, ...]:
    """Every catalog design on the current GPU, plus the current design when it is custom."""
    plans = _compare(_same_gpu(scenario, current).model_dump_json(), state.catalog_override(), design_ids())
    return (*plans, current) if current.scenario.fabric is not None else plans


def _sweep_key(scenario: Scenario, current: Plan) -> str:
    """The sweep ignores the GPU count: pin it so that changing the count reuses the sweep."""
    pinned = _same_gpu(scenario, current).with_updates(gpus=inputs.BY_NAME["gpus"].default)
    return pinned.model_dump_json()


def sweep_frame(scenario: Scenario, current: Plan) -> pd.DataFrame:
    """Headline figures 8 to 1024 GPUs per design (the GPU count is not part of the key)."""
    return _sweep(_sweep_key(scenario, current), state.catalog_override(), design_ids())


@st.cache_data(show_spinner=False, max_entries=32)
def _crossovers(
    scenario_json: str, override_json: str, design_ids: tuple[str, ...], columns: tuple[str, ...]
) -> dict[str, tuple[Crossover, ...]]:
    frame = _sweep(scenario_json, override_json, design_ids)
    return {c: crossovers(frame, metric=c, lower_is_better=METRICS[c].better != "higher") for c in columns}


def crossovers_of(
    scenario: Scenario, current: Plan, columns: Sequence[str] = SCALING_METRICS
) -> dict[str, tuple[Crossover, ...]]:
    """Crossovers of each scaling metric, in its own direction (busbw: higher is better)."""
    key = _sweep_key(scenario, current)
    return _crossovers(key, state.catalog_override(), design_ids(), tuple(columns))


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
        message = str(exc)
        fallback = ss.get(keys.LAST_GOOD)
        plan_ = scenario_ = None
        if fallback:
            try:
                scenario_ = scenario_from_data(json.loads(fallback))
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
            previous = plan_for(scenario_from_data(json.loads(ss[keys.KPI_PREVIOUS])))
        except PlannerError:
            previous = None
    return Current(plan=result, scenario=scenario, previous=previous)


def _input_of(exc: PlannerError) -> str | None:
    if not isinstance(exc, InputError):
        return None
    return inputs.input_of_error(str(exc))


def clear_caches() -> None:
    """Drop every cached result (tests; a new catalog file on disk)."""
    _plan.clear()
    _compare.clear()
    _sweep.clear()
    _crossovers.clear()
    _catalog.clear()
