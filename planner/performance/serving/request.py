"""The serving request, re-exported: the model itself lives in :mod:`planner.serving_request`, below
the scenario, so that :attr:`planner.scenario.Scenario.serving` can carry it."""

from planner.serving_request import (
    DEFAULT_MOE_EXPERTS,
    DEFAULT_MOE_TOP_K,
    KvPrecision,
    Precision,
    ServingRequest,
    serving_request,
)

__all__ = [
    "DEFAULT_MOE_EXPERTS",
    "DEFAULT_MOE_TOP_K",
    "KvPrecision",
    "Precision",
    "ServingRequest",
    "serving_request",
]
