"""One batch of grid points planned in one process: the unit of work a Dask task runs.

Each point is one call of :func:`planner.engine.plan`, and its row is the point's grid values
followed by :func:`planner.outputs.plan_to_dict` (the ``planner plan --format json`` object)
flattened with dots, so a row's figures are exactly those of ``planner plan`` for that scenario.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import PlannerError
from planner.inputs.scenario import scenario_from_data
from planner.outputs import plan_to_dict
from planner.performance.uncertainty import MonteCarloSpec, price_factor_samples, price_response
from planner.sweep.grid import Grid, scenario_data

POINT = "point"
"""Column of the point's index in the grid (0-based, the order of :meth:`Grid.point`)."""

ERROR = "error"
"""Column of the engine's message for a point it refuses (an infeasible size); empty otherwise."""


@dataclass(frozen=True)
class SweepJob:
    """What every task needs: the grid, the base scenario (``model_dump()``) and the catalog."""

    grid: Grid
    base: Mapping[str, Any]
    catalog: Catalog


def flatten(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Scalar leaves of nested mappings as ``("a.b.c", value)``; lists are left out.

    The lists of ``plan --format json`` (notes, assumptions, vendor claims, media, BOM) are
    text and tables per plan, not figures to compare across a sweep.

    Parameters
    ----------
    data : Mapping[str, Any]
        Nested mappings, e.g. :func:`planner.outputs.plan_to_dict` of a plan (units in the keys).
    prefix : str
        Prepended to every dotted name (the parent path and a dot).

    Returns
    -------
    Iterator[tuple[str, Any]]
        ``(dotted name, value)`` of each scalar leaf, in mapping order; each keeps the unit its
        key names (``cost.capex_usd`` [USD]).

    >>> dict(flatten({"cost": {"capex_usd": 1.0, "by": {"gpus": 2}}, "notes": ["x"], "gpus": 8}))
    {'cost.capex_usd': 1.0, 'cost.by.gpus': 2, 'gpus': 8}
    """
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from flatten(value, f"{name}.")
        elif not isinstance(value, list | tuple):
            yield name, value


def point_row(job: SweepJob, index: int) -> dict[str, Any]:
    """The row of point ``index``: its index, grid values, error and flattened plan figures.

    A grid field that is also a plan key (``gpus``) keeps the plan's meaning (the count after
    rounding up to whole servers); the requested count is the plan's ``gpus_requested``.

    Parameters
    ----------
    job : SweepJob
        Grid, base scenario and catalog.
    index : int
        Point of the grid [0-based index].

    Returns
    -------
    dict[str, Any]
        :data:`POINT`, the grid's fields, :data:`ERROR` (the engine's refusal, else empty), the
        plan's figures by dotted name (units in the names) and, with a price Monte Carlo, the
        :func:`price_percentiles` columns [USD, USD/GPU-h].
    """
    point = job.grid.point(index)
    row: dict[str, Any] = {POINT: index, **point, ERROR: ""}
    try:
        scenario = scenario_from_data(scenario_data(job.base, point))
        # cables at the scenario's one length per link class, as planner.compare.sweep prices them
        result = plan(scenario=scenario, catalog=job.catalog, layout_cable_lengths=False)
        figures = plan_to_dict(result)
        spread = (
            {}
            if job.grid.uncertainty is None
            else price_percentiles(result, job.catalog, job.grid.uncertainty)
        )
    except PlannerError as exc:
        row[ERROR] = str(exc)
        return row
    row.update(flatten(figures))
    row.update(spread)
    return row


PERCENTILES = (10, 50, 90)


def price_percentiles(result: Plan, catalog: Catalog, spec: MonteCarloSpec) -> dict[str, float]:
    """Percentiles of ``result``'s TCO and cost per GPU-hour under the grid's uncertain prices.

    Every point draws the same samples (a generator seeded with ``spec.seed`` per point), so the
    spread between two points is theirs, not sampling noise
    (:func:`planner.performance.uncertainty.price_response`).

    Parameters
    ----------
    result : Plan
        The point's plan.
    catalog : Catalog
        The catalog it was planned with (prices and their ranges).
    spec : MonteCarloSpec
        Samples [count], seed and price spreads.

    Returns
    -------
    dict[str, float]
        ``cost.tco_usd.p10`` ... ``.p90`` [USD] and ``cost.usd_per_gpu_hour.p10`` ... ``.p90``
        [USD/GPU-h], at the :data:`PERCENTILES` [%].
    """
    factors = price_factor_samples(spec, np.random.default_rng(spec.seed))
    tco, per_gpu_hour = price_response(base_plan=result, catalog=catalog, factors=factors)
    out: dict[str, float] = {}
    for name, values in (("cost.tco_usd", tco), ("cost.usd_per_gpu_hour", per_gpu_hour)):
        for q, value in zip(PERCENTILES, np.percentile(values, PERCENTILES), strict=True):
            out[f"{name}.p{q}"] = float(value)
    return out


def evaluate_batch(job: SweepJob, start: int, stop: int) -> list[dict[str, Any]]:
    """Rows of points ``start`` to ``stop - 1``, in order.

    Parameters
    ----------
    job : SweepJob
        Grid, base scenario and catalog.
    start : int
        First point [0-based index].
    stop : int
        One past the last point [0-based index].

    Returns
    -------
    list[dict[str, Any]]
        One :func:`point_row` per point.
    """
    return [point_row(job, i) for i in range(start, stop)]
