"""BOM optimizer (PuLP MILP): cheapest design under port, reach, power, space and budget limits,
or the most GPUs within a budget or power envelope; Pareto fronts; infeasibility explained. The
request (objective and limits) is :class:`planner.inputs.optimize.OptimizeRequest`."""

from __future__ import annotations

from planner.optimize.run import OptimizeResult, optimize

__all__ = ["OptimizeResult", "optimize"]
