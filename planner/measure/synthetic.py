"""nccl-tests output written from the collective model with known coefficients plus noise.

The calibration round trip (``validation/``, ``tests/test_measure.py``) and the acceptance tests
measure nothing: they write what a cluster with known coefficients would print, in the nccl-tests
format :mod:`planner.measure.nccl` reads, fit it back, and compare.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from planner.measure.model import Baseline, Probe, fabric_with, predict
from planner.measure.nccl import busbw_factor

SIZES_BYTES = tuple(8 * 2**i for i in range(31))
"""8 B to 8 GiB in powers of two, as ``-b 8 -e 8G -f 2``."""

TOOL_OF = {
    "all_reduce": "all_reduce_perf",
    "all_gather": "all_gather_perf",
    "reduce_scatter": "reduce_scatter_perf",
    "all_to_all": "alltoall_perf",
    "sendrecv": "sendrecv_perf",
    "broadcast": "broadcast_perf",
}


def synthetic_run(
    base: Baseline,
    *,
    values: Mapping[str, float],
    collective: str,
    hosts: Sequence[str],
    gpus_per_host: int,
    noise_fraction: float = 0.02,
    seed: int = 0,
    slowdown: float = 1.0,
    sizes_bytes: Sequence[int] = SIZES_BYTES,
) -> str:
    """One run's output: times from the model with ``values`` for its coefficients, each time
    multiplied by ``slowdown`` and by a uniform noise of +/- ``noise_fraction``.

    Parameters
    ----------
    base : Baseline
        The plan's fabric and catalog coefficients.
    values : mapping of str to float
        Coefficient values the times are made with.
    collective : str
        The collective, or ``sendrecv``.
    hosts : sequence of str
        Host names; one rank block per host.
    gpus_per_host : int
        GPUs per host [count].
    noise_fraction : float
        Half-width of the uniform noise on each time [fraction].
    seed : int
        Random seed [dimensionless].
    slowdown : float
        Factor on every time [dimensionless].
    sizes_bytes : sequence of int
        Message sizes [B].

    Returns
    -------
    str
        The nccl-tests output text.
    """
    rng = random.Random(seed)
    fabric = fabric_with(base=base, values=values)
    gpus = len(hosts) * gpus_per_host
    m = min(gpus_per_host * max(1, fabric.domain_gpus // base.gpus_per_node), fabric.domain_gpus, gpus)
    tool = TOOL_OF[collective]
    lines = [
        f"# Collective test starting: {tool}",
        f"# nThread 1 nGpus 1 minBytes {sizes_bytes[0]} maxBytes {sizes_bytes[-1]} step: 2(factor) "
        "warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
        "#",
        "# Using devices",
    ]
    rank = 0
    for host in hosts:
        for device in range(gpus_per_host):
            lines.append(
                f"#  Rank {rank:2d} Group  0 Pid {1000 + rank:6d} on {host:>10} device {device:2d} [0x{device:02x}] GPU"
            )
            rank += 1
    lines += [
        "#",
        "#                                                              out-of-place                       in-place",
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
    ]
    factor = busbw_factor(collective=collective, gpus=gpus)
    for size in sizes_bytes:
        t_us = predict(fabric, Probe(collective, gpus, m, size)).time_s * 1e6
        t_us *= slowdown * (1 + rng.uniform(-noise_fraction, noise_fraction))
        algbw = size / (t_us * 1e3)
        cols = f"{t_us:8.1f} {algbw:7.2f} {algbw * factor:7.2f}      0"
        lines.append(f"{size:12d} {max(1, size // 4):13d}     float     sum      -1 {cols} {cols}")
    lines += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 0.0", "#"]
    return "\n".join(lines) + "\n"
