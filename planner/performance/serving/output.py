"""JSON and table views of serving estimates and of the reverse sizing (units in every key)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from planner.performance.serving.estimate import Pool, ServingEstimate
from planner.performance.serving.sizing import SizingResult

SUMMARY_COLUMNS = (
    "design",
    "gpu",
    "gpus",
    "mode",
    "tp",
    "ep",
    "batch",
    "ttft_ms",
    "tpot_ms",
    "tokens_per_s",
    "tokens_per_s_per_gpu",
    "tokens_per_s_per_mw",
    "usd_per_million_tokens",
    "ep_alltoall_ms_per_step",
    "ep_alltoall_share",
    "bound",
)


def _pool_dict(pool: Pool) -> dict[str, Any]:
    return {
        "role": pool.role,
        "tp": pool.layout.tp,
        "ep": pool.layout.ep,
        "instance_gpus": pool.layout.gpus,
        "instances": pool.instances,
        "gpus": pool.gpus,
        "batch": pool.batch,
        "max_batch": pool.max_batch,
        "requests_per_s": round(pool.requests_per_s, 4),
        "weights_gbyte_per_gpu": round(pool.weights_gbyte_per_gpu, 3),
        "kv_cache_gbyte_per_gpu": round(pool.kv_cache_gbyte_per_gpu, 3),
        "kv_used_gbyte_per_gpu": round(pool.kv_used_gbyte_per_gpu, 3),
    }


def _at_load(e: ServingEstimate) -> dict[str, Any]:
    """Queueing at the request's rate, when it gives one: ``queue_wait_ms`` and ``ttft_at_load_ms``
    (``None`` when the rate reaches the cluster's capacity)."""
    rate = e.request.requests_per_s
    if rate is None:
        return {}
    wait = e.queue_wait_s(requests_per_s=rate)
    finite = math.isfinite(wait)
    return {
        "queue_wait_ms": round(wait * 1e3, 4) if finite else None,
        "ttft_at_load_ms": round((e.ttft_s + wait) * 1e3, 4) if finite else None,
    }


def serving_to_dict(estimate: ServingEstimate) -> dict[str, Any]:
    """JSON-ready view of one estimate: the keys of the CLI's interface and the details.

    Parameters
    ----------
    estimate : ServingEstimate
        One design's serving estimate.

    Returns
    -------
    dict[str, Any]
        Key -> rounded value, the unit in each key: latencies and step times [ms], throughputs
        [tokens/s], [tokens/s per GPU], [tokens/s per MW] and [requests/s], cost
        [USD per million tokens] and [USD per GPU-hour], facility power [kW], memory per GPU [GB];
        plus the layout and pools [count], the decode step's breakdown [ms], the model summary
        and the notes [dimensionless]. ``queue_wait_ms`` and ``ttft_at_load_ms`` appear only when
        the request gives a rate (``None`` when the rate reaches the capacity).
    """
    e = estimate
    decode = e.decode_pool
    m = e.model
    return {
        "design": e.design_id,
        "gpu": e.gpu_id,
        "gpus": e.gpus,
        "layout": {
            "mode": e.mode,
            "tp": decode.layout.tp,
            "ep": decode.layout.ep,
            "instance_gpus": decode.layout.gpus,
            "instances": decode.instances,
            "pools": [_pool_dict(p) for p in e.pools],
        },
        "batch": e.batch,
        "batch_limit": e.batch_limit,
        "ttft_ms": round(e.ttft_s * 1e3, 4),
        "tpot_ms": round(e.tpot_s * 1e3, 4),
        **_at_load(e),
        "decode_step_ms": round(e.decode.total_s * 1e3, 4),
        "prefill_ms": round(e.prefill.total_s * 1e3, 4),
        "kv_transfer_ms": round(e.kv_transfer_s * 1e3, 4),
        "tokens_per_s_per_gpu": round(e.tokens_per_s_per_gpu, 3),
        "tokens_per_s": round(e.tokens_per_s, 2),
        "tokens_per_s_per_mw": round(e.tokens_per_s_per_mw, 1),
        "requests_per_s": round(e.requests_per_s, 4),
        "usd_per_million_tokens": round(e.usd_per_million_tokens, 4),
        "usd_per_gpu_hour": round(e.usd_per_gpu_hour, 4),
        "facility_kw": round(e.facility_kw, 2),
        "kv_cache_gbyte_per_gpu": round(decode.kv_cache_gbyte_per_gpu, 3),
        "weights_gbyte_per_gpu": round(decode.weights_gbyte_per_gpu, 3),
        "ep_alltoall_ms_per_step": round(e.ep_alltoall_s_per_step * 1e3, 4),
        "ep_alltoall_share": round(e.ep_alltoall_share, 4),
        "ep_bound_level": e.decode.ep_bound_level,
        "tp_allreduce_ms_per_step": round(e.decode.tp_s * 1e3, 4),
        "bound": e.bound,
        "decode_step_breakdown_ms": {
            "compute": round(e.decode.compute_s * 1e3, 4),
            "memory": round(e.decode.memory_s * 1e3, 4),
            "tp_allreduce": round(e.decode.tp_s * 1e3, 4),
            "ep_alltoall": round(e.decode.ep_s * 1e3, 4),
            "overhead": round(e.decode.overhead_s * 1e3, 4),
        },
        "model": {
            "params_b": round(m.params / 1e9, 3),
            "active_params_b": round(m.params_active / 1e9, 3),
            "layers": m.shape.layers,
            "hidden_size": m.shape.hidden_size,
            "attention": m.attention,
            "experts": m.experts,
            "top_k": m.top_k,
            "precision": e.request.precision,
            "kv_precision": e.request.kv_precision,
            "weights_gbyte": round(m.weights_bytes / 1e9, 3),
            "kv_kbyte_per_token": round(m.kv_bytes_per_token / 1e3, 3),
        },
        "input_tokens": e.request.input_tokens,
        "output_tokens": e.request.output_tokens,
        "notes": list(e.notes),
    }


def sizing_to_dict(result: SizingResult) -> dict[str, Any]:
    """JSON-ready view of one design's reverse sizing: ``gpus``, ``layout`` and the estimate's keys.

    Parameters
    ----------
    result : SizingResult
        One design's reverse sizing.

    Returns
    -------
    dict[str, Any]
        ``design`` [dimensionless], ``gpus`` [count] (``None`` when no size meets), ``feasible``
        [bool], every key of :func:`serving_to_dict` for the chosen size when there is one, and
        ``binds``, ``one_size_smaller`` and ``reason`` [dimensionless text].
    """
    base: dict[str, Any] = {
        "design": result.design_id,
        "gpus": result.gpus,
        "feasible": result.gpus is not None,
    }
    if result.estimate is not None:
        base.update({k: v for k, v in serving_to_dict(result.estimate).items() if k not in base})
    base.update({"binds": result.binds, "one_size_smaller": result.smaller, "reason": result.reason})
    return base


def serving_frame(estimates: Sequence[ServingEstimate]) -> pd.DataFrame:
    """Designs side by side: one row per estimate, unit-suffixed columns.

    Parameters
    ----------
    estimates : Sequence[ServingEstimate]
        Estimates to tabulate, one per design, in row order.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`SUMMARY_COLUMNS`, unrounded: GPUs, TP, EP and batch [count],
        ``ttft_ms``/``tpot_ms``/``ep_alltoall_ms_per_step`` [ms], throughputs [tokens/s],
        [tokens/s per GPU], [tokens/s per MW], cost [USD per million tokens], all-to-all share
        [fraction], ids, mode and bound [dimensionless].
    """
    rows = [
        {
            "design": e.design_id,
            "gpu": e.gpu_id,
            "gpus": e.gpus,
            "mode": e.mode,
            "tp": e.decode_pool.layout.tp,
            "ep": e.decode_pool.layout.ep,
            "batch": e.batch,
            "ttft_ms": e.ttft_s * 1e3,
            "tpot_ms": e.tpot_s * 1e3,
            "tokens_per_s": e.tokens_per_s,
            "tokens_per_s_per_gpu": e.tokens_per_s_per_gpu,
            "tokens_per_s_per_mw": e.tokens_per_s_per_mw,
            "usd_per_million_tokens": e.usd_per_million_tokens,
            "ep_alltoall_ms_per_step": e.ep_alltoall_s_per_step * 1e3,
            "ep_alltoall_share": e.ep_alltoall_share,
            "bound": e.bound,
        }
        for e in estimates
    ]
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
