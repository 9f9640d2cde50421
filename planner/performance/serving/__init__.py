"""Inference and serving: TTFT, TPOT, tokens/s and cost per million tokens of a model on a cluster.

One module per concept (the validated input, :class:`~planner.inputs.serving.ServingRequest`, lives in
:mod:`planner.inputs`): ``model`` (weight and KV-cache bytes,
FLOPs per token, from the training package's shape model), ``coefficients`` (``data/serving.yaml``),
``step`` (prefill and decode step time: roofline plus TP all-reduce and expert all-to-all from the
one collective model), ``estimate`` (layout, batch, aggregated or disaggregated pools on a plan),
``sizing`` (the smallest cluster per design that meets the targets) and ``output`` (JSON and
frames). The equations and their sources are in ``docs/model.md`` (Inference and serving).
"""

from planner.performance.serving.estimate import (
    Pool,
    ServingEstimate,
    batch_sweep,
    compare_serving,
    estimate_serving,
)
from planner.performance.serving.output import serving_frame, serving_to_dict, sizing_to_dict
from planner.performance.serving.sizing import SizingResult, size_serving

__all__ = [
    "Pool",
    "ServingEstimate",
    "SizingResult",
    "batch_sweep",
    "compare_serving",
    "estimate_serving",
    "serving_frame",
    "serving_to_dict",
    "size_serving",
    "sizing_to_dict",
]
