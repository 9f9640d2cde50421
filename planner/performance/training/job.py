"""The training job's input model; it lives in :mod:`planner.training_job`, below the scenario, so
that a scenario's workload mix carries training jobs (``planner/scenario.py:WorkloadEntry``)."""

from __future__ import annotations

from planner.training_job import (
    FP8_SPEEDUP,
    AttentionKernel,
    MoeDispatcher,
    MoeOverlap,
    Precision,
    RecomputeChoice,
    TrainingJob,
    training_job,
)

__all__ = [
    "FP8_SPEEDUP",
    "AttentionKernel",
    "MoeDispatcher",
    "MoeOverlap",
    "Precision",
    "RecomputeChoice",
    "TrainingJob",
    "training_job",
]
