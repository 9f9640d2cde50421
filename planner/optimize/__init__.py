"""BOM optimizer (PuLP MILP): cheapest design under port, reach, power, space and budget limits,
or the most GPUs within a budget or power envelope; Pareto fronts; infeasibility explained."""

from __future__ import annotations

from planner.optimize.problem import OptimizeRequest, request_from_data
from planner.optimize.run import OptimizeResult, optimize

__all__ = ["OptimizeRequest", "OptimizeResult", "optimize", "request_from_data"]
