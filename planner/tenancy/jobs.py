"""Job streams for the job-mix simulation: a seeded synthetic generator, a Poisson stream for the
closed-form check, and a user's own trace as CSV.

The synthetic generator follows the shape that the multi-tenant GPU-cluster trace study of
Jeon et al., "Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training Workloads",
USENIX ATC 2019 (Microsoft Philly; the trace is public) reports: gang-scheduled jobs whose GPU
counts are powers of two, most of them single-GPU while the few large jobs hold most GPU time,
heavy-tailed run times spanning minutes to days, and Poisson-like arrivals. The weights and the
log-normal parameters below are assumptions that give that shape (:data:`SIZE_WEIGHTS`,
:data:`DURATION_MEDIAN_S`, :data:`DURATION_SIGMA`); fit them to the public trace, or import the
trace itself with :func:`read_trace_csv`.
"""

from __future__ import annotations

import csv
import io
import math
import random
from dataclasses import dataclass
from pathlib import Path

from planner.errors import InputError, shorten
from planner.files import read_bytes
from planner.i18n.message import msg

SIZE_WEIGHTS: dict[int, float] = {
    1: 0.70,
    2: 0.08,
    4: 0.08,
    8: 0.08,
    16: 0.03,
    32: 0.02,
    64: 0.007,
    128: 0.003,
}
"""Share of jobs by GPU count (assumption: single-GPU jobs dominate the count and jobs of 8 GPUs and
more hold most GPU time, the shape Jeon et al. 2019 report for Philly) [-]."""

DURATION_MEDIAN_S: dict[int, float] = {1: 1800.0, 2: 3600.0, 4: 3600.0, 8: 7200.0}
"""Median run time by GPU count; larger jobs use the 8-GPU figure (assumption: larger jobs run
longer, as in the study; minutes for single-GPU trials, hours for multi-server training) [s]."""

DURATION_SIGMA = 1.5
"""Log-normal shape of run times (assumption: a 1.5 sigma spans the study's minutes-to-days range
between its 5th and 95th percentiles, a factor of ~140 either side of the median) [-]."""

HIGH_PRIORITY_SHARE = 0.2
"""Share of jobs submitted at high priority, the ones that may preempt (assumption) [-]."""

MAX_TRACE_JOBS = 200_000
"""Most jobs one trace or synthetic stream holds [count]."""

TRACE_FILE = msg("trace file")


@dataclass(frozen=True)
class Job:
    """One job of a stream."""

    arrival_s: float
    gpus: int
    duration_s: float
    priority: int = 0
    """0 normal, 1 high (may preempt normal jobs when preemption is on)."""


def _mean_gpu_seconds(sizes: dict[int, float]) -> float:
    """E[gpus x duration] of the synthetic mix [GPU s] (log-normal mean = median e^(sigma^2/2))."""
    total = sum(sizes.values())
    spread = math.exp(DURATION_SIGMA**2 / 2)
    return sum(w / total * g * _median(g) * spread for g, w in sizes.items())


def _median(gpus: int) -> float:
    return DURATION_MEDIAN_S.get(gpus, DURATION_MEDIAN_S[8])


def synthetic_jobs(*, count: int, cluster_gpus: int, seed: int, load: float = 0.8) -> tuple[Job, ...]:
    """``count`` jobs whose offered load is ``load`` of ``cluster_gpus`` (see module notes).

    Arrival rate ``lambda = load x G / E[gpus x duration]``: on average the jobs ask for ``load``
    of the cluster's GPU-seconds. Sizes larger than the cluster are left out of the mix.
    """
    if not 1 <= count <= MAX_TRACE_JOBS:
        raise InputError(msg("jobs: between 1 and {limit} (got {count})", limit=MAX_TRACE_JOBS, count=count))
    if not 0 < load <= 2:
        raise InputError(msg("load: between 0 and 2 (got {load})", load=load))
    sizes = {g: w for g, w in SIZE_WEIGHTS.items() if g <= cluster_gpus}
    rate_per_s = load * cluster_gpus / _mean_gpu_seconds(sizes)
    rng = random.Random(seed)
    choices, weights = list(sizes), list(sizes.values())
    now = 0.0
    jobs = []
    for _ in range(count):
        now += rng.expovariate(rate_per_s)
        gpus = rng.choices(choices, weights)[0]
        duration = rng.lognormvariate(math.log(_median(gpus)), DURATION_SIGMA)
        jobs.append(Job(now, gpus, duration, int(rng.random() < HIGH_PRIORITY_SHARE)))
    return tuple(jobs)


def poisson_jobs(*, count: int, rate_per_s: float, mean_duration_s: float, seed: int) -> tuple[Job, ...]:
    """Single-GPU jobs, Poisson arrivals and exponential run times: the M/M/c case."""
    rng = random.Random(seed)
    now = 0.0
    jobs = []
    for _ in range(count):
        now += rng.expovariate(rate_per_s)
        jobs.append(Job(now, 1, rng.expovariate(1.0 / mean_duration_s)))
    return tuple(jobs)


TRACE_COLUMNS = ("arrival_s", "gpus", "duration_s")
"""Required CSV columns; ``priority`` (0 or 1) is optional."""


def read_trace_csv(source: Path | bytes, *, name: str | None = None, cluster_gpus: int) -> tuple[Job, ...]:
    """A user's trace: one job a row, columns :data:`TRACE_COLUMNS` (and ``priority``).

    Rows are sorted by arrival. :class:`InputError` names the row and column of a bad value, a
    job larger than the cluster, or a missing column.
    """
    label = name if name is not None else str(source)
    content = read_bytes(source, name=label, what=TRACE_FILE, error=InputError)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            msg("{file}: not UTF-8 text (invalid byte at offset {offset})", file=label, offset=exc.start)
        ) from None
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in TRACE_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(msg("{file}: missing column {column}", file=shorten(label), column=missing[0]))
    jobs = [_row_job(row, n, label, cluster_gpus) for n, row in enumerate(reader, start=2)]
    if not jobs:
        raise InputError(msg("{file}: the {what} is empty", file=shorten(label), what=TRACE_FILE))
    if len(jobs) > MAX_TRACE_JOBS:
        raise InputError(msg("{file}: more than {limit} jobs", file=shorten(label), limit=MAX_TRACE_JOBS))
    return tuple(sorted(jobs, key=lambda j: j.arrival_s))


def _row_job(row: dict[str, str], line: int, label: str, cluster_gpus: int) -> Job:
    values: dict[str, float] = {}
    for column in (*TRACE_COLUMNS, "priority"):
        raw = (row.get(column) or "0").strip() if column == "priority" else (row.get(column) or "").strip()
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        low, high = {
            "arrival_s": (0, 1e10),
            "gpus": (1, cluster_gpus),
            "duration_s": (0, 1e9),
            "priority": (0, 1),
        }[column]
        integral = column in ("gpus", "priority")
        if not (low <= value <= high) or (integral and value != int(value)):
            raise InputError(
                msg(
                    "{file}: line {line}: {column}: {value} is not allowed (allowed: {low} to {high})",
                    file=shorten(label),
                    line=line,
                    column=column,
                    value=shorten(repr(raw)),
                    low=low,
                    high=high,
                )
            )
        values[column] = value
    return Job(values["arrival_s"], int(values["gpus"]), values["duration_s"], int(values["priority"]))
