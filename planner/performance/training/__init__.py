"""Training model: shape, FLOPs, kernel efficiency, memory, schedule and layout search.

One module per concept (see :mod:`planner.performance.workload` for the estimate on a plan and
``docs/model.md`` for the equations and their sources).
"""
