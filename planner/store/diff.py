"""Differences between two saved scenarios: which inputs changed and how the key results moved.

Inputs are compared field by field (nested fields as dotted paths, e.g.
``facility.rack_power_limit_kw``). Results come from planning both sides with
:func:`planner.engine.plan` on the same catalog and comparing the headline figures of
:func:`planner.outputs.plan_summary_row`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from planner.catalog import Catalog
from planner.engine import plan
from planner.errors import PlannerError
from planner.inputs.scenario import Scenario
from planner.outputs import SUMMARY_COLUMNS, plan_summary_row
from planner.store.records import SavedScenario, VersionInfo

KEY_METRICS: tuple[str, ...] = tuple(column for column in SUMMARY_COLUMNS if column != "design")
"""Headline results compared by a diff (names carry their units, as in ``planner plan``)."""


@dataclass(frozen=True, kw_only=True)
class InputChange:
    """One input that differs; ``None`` stands for "not set" on that side."""

    field: str
    """Dotted path of the input, e.g. ``facility.rack_power_limit_kw``."""
    before: Any
    after: Any

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"field": self.field, "before": self.before, "after": self.after}


@dataclass(frozen=True, kw_only=True)
class ResultChange:
    """One headline result on both sides."""

    metric: str
    """A :data:`KEY_METRICS` name; its suffix is its unit (``capex_usd``, ``it_kw``, ...)."""
    before: float
    after: float

    @property
    def delta(self) -> float:
        """``after - before`` [unit of the metric]."""
        return self.after - self.before

    @property
    def relative_change(self) -> float | None:
        """``delta / before`` [-]; ``None`` when ``before`` is zero."""
        return None if self.before == 0 else self.delta / self.before

    @property
    def changed(self) -> bool:
        """Whether the value moved (beyond floating-point noise)."""
        return not math.isclose(self.before, self.after, rel_tol=1e-9, abs_tol=1e-9)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields, with the derived delta and relative change."""
        return {
            "metric": self.metric,
            "before": self.before,
            "after": self.after,
            "delta": self.delta,
            "relative_change": self.relative_change,
            "changed": self.changed,
        }


@dataclass(frozen=True, kw_only=True)
class ScenarioDiff:
    """Two saved versions compared (of one scenario, or of two scenarios side by side)."""

    before: VersionInfo
    after: VersionInfo
    inputs: tuple[InputChange, ...]
    """The inputs that differ, in the scenario's field order; empty when the inputs are equal."""
    results: tuple[ResultChange, ...]
    """Every :data:`KEY_METRICS` figure on both sides; empty when ``results_error`` is set."""
    results_error: str | None
    """Why results could not be compared (a side no longer plans, e.g. a catalog id is gone)."""

    @property
    def moved_results(self) -> tuple[ResultChange, ...]:
        """Only the results that changed."""
        return tuple(r for r in self.results if r.changed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "inputs": [c.to_dict() for c in self.inputs],
            "results": [r.to_dict() for r in self.results],
            "results_error": self.results_error,
        }


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = value


def flatten_scenario(scenario: Scenario) -> dict[str, Any]:
    """A scenario's inputs as ``{dotted.path: JSON value}``; unset nested models are ``None``.

    Parameters
    ----------
    scenario : Scenario
        The scenario.

    Returns
    -------
    dict of str to Any
        Each input's dotted field path and its JSON value.

    Examples
    --------
    >>> flat = flatten_scenario(Scenario(gpus=256))
    >>> flat["gpus"], flat["facility.link_lengths.node_leaf_m"], flat["fabric"]
    (256, 10.0, None)
    """
    out: dict[str, Any] = {}
    _flatten(scenario.model_dump(mode="json"), "", out)
    return out


def input_changes(*, before: Scenario, after: Scenario) -> tuple[InputChange, ...]:
    """The inputs that differ between two scenarios, in field order.

    Parameters
    ----------
    before : Scenario
        The older scenario.
    after : Scenario
        The newer scenario.

    Returns
    -------
    tuple of InputChange
        Each differing field with its value before and after (``None`` where absent).

    Examples
    --------
    >>> [c.to_dict() for c in input_changes(before=Scenario(gpus=256), after=Scenario(gpus=512))]
    [{'field': 'gpus', 'before': 256, 'after': 512}]
    """
    old, new = flatten_scenario(before), flatten_scenario(after)
    fields = list(old) + [key for key in new if key not in old]
    return tuple(
        InputChange(field=field, before=old.get(field), after=new.get(field))
        for field in fields
        if old.get(field) != new.get(field)
    )


def result_changes(*, before: Scenario, after: Scenario, catalog: Catalog) -> tuple[ResultChange, ...]:
    """The :data:`KEY_METRICS` of both scenarios, planned on ``catalog``.

    Parameters
    ----------
    before : Scenario
        The older scenario.
    after : Scenario
        The newer scenario.
    catalog : Catalog
        The catalog both are planned on.

    Returns
    -------
    tuple of ResultChange
        Each key metric with its value before and after, in the metric's own unit (GPUs, kW,
        USD ...).

    Raises
    ------
    PlannerError
        A scenario does not plan on this catalog (unknown id, infeasible, ...).
    """
    row_before = plan_summary_row(plan(scenario=before, catalog=catalog))
    row_after = plan_summary_row(plan(scenario=after, catalog=catalog))
    return tuple(
        ResultChange(metric=m, before=float(row_before[m]), after=float(row_after[m])) for m in KEY_METRICS
    )


def diff_saved(*, before: SavedScenario, after: SavedScenario, catalog: Catalog) -> ScenarioDiff:
    """Compare two opened versions: changed inputs, and all key results side by side.

    A side that no longer plans does not hide the input changes: ``results`` is then empty and
    ``results_error`` says why.

    Parameters
    ----------
    before : SavedScenario
        The older opened version.
    after : SavedScenario
        The newer opened version.
    catalog : Catalog
        The catalog both are planned on.

    Returns
    -------
    ScenarioDiff
        The two versions, the changed inputs, the key results side by side and, when a side does
        not plan, the error text.
    """
    try:
        results = result_changes(before=before.scenario, after=after.scenario, catalog=catalog)
        error = None
    except PlannerError as exc:
        results, error = (), str(exc)
    return ScenarioDiff(
        before=before.version,
        after=after.version,
        inputs=input_changes(before=before.scenario, after=after.scenario),
        results=results,
        results_error=error,
    )
