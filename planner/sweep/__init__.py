"""Design-space sweeps: a grid of scenario fields planned on ``dask.distributed``, one Parquet row
per point (``planner sweep --grid GRID.yaml --out FILE.parquet``; docs/deploy.md)."""

from __future__ import annotations

from planner.sweep.evaluate import ERROR, POINT, SweepJob, evaluate_batch, flatten, point_row
from planner.sweep.grid import MAX_POINTS, Grid, Range, grid_from_data, load_grid
from planner.sweep.run import ProgressBar, SweepResult, run_sweep

__all__ = [
    "ERROR",
    "MAX_POINTS",
    "POINT",
    "Grid",
    "ProgressBar",
    "Range",
    "SweepJob",
    "SweepResult",
    "evaluate_batch",
    "flatten",
    "grid_from_data",
    "load_grid",
    "point_row",
    "run_sweep",
]
