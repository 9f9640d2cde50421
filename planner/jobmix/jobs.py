"""Job streams for the job-mix simulation: a seeded synthetic generator, a Poisson stream for the
closed-form check, and a trace read from a file (the product's CSV or a published trace format).

The synthetic generator's mix (:class:`JobMix`) is data: the ``tenancy_jobs_*`` sizing rules of
``data/tenancy_jobs.yaml``. Sizes, run times and arrival rate are fitted to the figures the Helios
trace study publishes for its 1,022-GPU Venus cluster (SenseTime, April to September 2020; Hu et
al., SC '21): :mod:`planner.jobmix.trace_fit` does the fit, the data file holds its result with
that source. Gang-scheduled jobs whose GPU counts are powers of two, log-normal run times with one
shape, each size's own median, clipped at the longest run the study shows; Poisson arrivals. Only
the priority share is an assumption (the trace has no priority field). A published trace itself
imports with :func:`read_trace_csv` (:mod:`planner.jobmix.trace_formats`).
"""

from __future__ import annotations

import csv
import io
import math
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from planner.catalog import Catalog, load_catalog
from planner.errors import CatalogError, InputError, shorten
from planner.files import decode_text, read_bytes
from planner.i18n.message import msg
from planner.jobmix.trace_formats import RawJob, read_published_rows, row_error, trace_format

MAX_TRACE_JOBS = 200_000
"""Most jobs one trace or synthetic stream holds [count]."""

TRACE_FILE = msg("trace file")

_SHARE_ID = re.compile(r"tenancy_jobs_share_(\d+)_gpu")
_MEDIAN_ID = re.compile(r"tenancy_jobs_median_(\d+)_gpu_s")
SIGMA_ID = "tenancy_jobs_duration_sigma"
HIGH_PRIORITY_ID = "tenancy_jobs_high_priority_share"
MAX_DURATION_ID = "tenancy_jobs_max_duration_h"
GPU_JOBS_PER_DAY_ID = "tenancy_jobs_gpu_jobs_per_day"
"""Arrival rate of the trace the mix is fitted to [jobs/day] (the tenancy validation cases use it)."""


@dataclass(frozen=True)
class Job:
    """One job of a stream."""

    arrival_s: float
    gpus: int
    duration_s: float
    priority: int = 0
    """0 normal, 1 high (may preempt normal jobs when preemption is on)."""


@dataclass(frozen=True)
class JobMix:
    """What the synthetic generator draws from (``data/tenancy_jobs.yaml``)."""

    size_weights: dict[int, float]
    """Share of jobs by GPU count [-] (normalised when drawn)."""
    median_s: dict[int, float]
    """Median run time by GPU count [s]; a size not listed uses the largest listed size below it."""
    sigma: float
    """Log-normal shape: standard deviation of ln(run time) [-]."""
    high_priority_share: float
    """Share of jobs at high priority [-]."""
    max_duration_s: float = math.inf
    """Run times are clipped here [s] (the longest run of the trace the mix is fitted to)."""

    def median(self, gpus: int) -> float:
        """Median run time of a ``gpus``-GPU job [s]."""
        listed = [g for g in self.median_s if g <= gpus]
        return self.median_s[max(listed) if listed else min(self.median_s)]

    def mean_duration_s(self, gpus: int) -> float:
        """E[min(T, max_duration_s)] of a ``gpus``-GPU job's log-normal run time ``T`` [s]."""
        mu, sigma = math.log(self.median(gpus)), self.sigma
        if math.isinf(self.max_duration_s):
            return math.exp(mu + sigma**2 / 2)
        log_cap = math.log(self.max_duration_s)
        below = 0.5 * (1 + math.erf((log_cap - mu - sigma**2) / (sigma * math.sqrt(2))))
        above = 0.5 * (1 - math.erf((log_cap - mu) / (sigma * math.sqrt(2))))
        return math.exp(mu + sigma**2 / 2) * below + self.max_duration_s * above

    def mean_gpu_seconds(self, sizes: dict[int, float]) -> float:
        """E[gpus x run time] over ``sizes`` (weights) [GPU s] (the clipped log-normal's mean,
        :meth:`mean_duration_s`)."""
        total = sum(sizes.values())
        return sum(w / total * g * self.mean_duration_s(g) for g, w in sizes.items())


def job_mix(catalog: Catalog) -> JobMix:
    """The generator's mix from the catalog's ``tenancy_jobs_*`` sizing rules.

    Parameters
    ----------
    catalog : Catalog
        Catalog holding the ``tenancy_jobs_share_<n>_gpu`` [fraction], ``tenancy_jobs_median_<n>_gpu_s``
        [s], duration sigma [-], high-priority share [fraction] and (optional) longest run [h] rules.

    Returns
    -------
    JobMix
        Size weights by GPU count [fraction], median run time by GPU count [s], log-normal
        ``sigma`` [-], high-priority share [fraction, at most 1] and the run-time clip [s]
        (``inf`` without the rule).

    Raises
    ------
    CatalogError
        No size share, no median, or the shape or priority share is missing.
    """
    rules = catalog.sizing_rules
    sizes = {int(m.group(1)): r.value for k, r in rules.items() if (m := _SHARE_ID.fullmatch(k))}
    medians = {int(m.group(1)): r.value for k, r in rules.items() if (m := _MEDIAN_ID.fullmatch(k))}
    missing = [
        name
        for name, absent in (
            ("tenancy_jobs_share_<n>_gpu", not any(sizes.values())),
            ("tenancy_jobs_median_<n>_gpu_s", not medians or min(medians.values()) <= 0),
            (SIGMA_ID, SIGMA_ID not in rules),
            (HIGH_PRIORITY_ID, HIGH_PRIORITY_ID not in rules),
        )
        if absent
    ]
    if missing:
        raise CatalogError(
            msg(
                "{needed_by} needs sizing_rules {ids}",
                needed_by=msg("the job generator"),
                ids=", ".join(missing),
            )
        )
    return JobMix(
        size_weights=dict(sorted(sizes.items())),
        median_s=dict(sorted(medians.items())),
        sigma=rules[SIGMA_ID].value,
        high_priority_share=min(1.0, rules[HIGH_PRIORITY_ID].value),
        max_duration_s=rules[MAX_DURATION_ID].value * 3600 if MAX_DURATION_ID in rules else math.inf,
    )


@cache
def bundled_mix() -> JobMix:
    """The mix of the bundled catalog (computed once)."""
    return job_mix(load_catalog())


def synthetic_jobs(
    *, count: int, cluster_gpus: int, seed: int, load: float = 0.8, mix: JobMix | None = None
) -> tuple[Job, ...]:
    """``count`` jobs whose offered load is ``load`` of ``cluster_gpus`` (see module notes).

    Arrival rate ``lambda = load x G / E[gpus x duration]``: on average the jobs ask for ``load``
    of the cluster's GPU-seconds. Sizes larger than the cluster are left out of the mix.

    Parameters
    ----------
    count : int
        Jobs to generate [count], 1 to :data:`MAX_TRACE_JOBS`.
    cluster_gpus : int
        GPUs of the cluster the load is relative to [count].
    seed : int
        Seed of the random generator (same seed, same jobs).
    load : float
        Offered load, requested GPU-seconds over the cluster's [fraction], in (0, 2].
    mix : JobMix or None
        Sizes and run times; defaults to the bundled catalog's (:func:`bundled_mix`).

    Returns
    -------
    tuple[Job, ...]
        Jobs in arrival order: arrival [s], GPUs [count], run time [s] (log-normal, clipped),
        priority (0 or 1).

    Raises
    ------
    InputError
        ``count`` or ``load`` out of range (names the field and the range).
    """
    if not 1 <= count <= MAX_TRACE_JOBS:
        raise InputError(msg("jobs: between 1 and {limit} (got {count})", limit=MAX_TRACE_JOBS, count=count))
    if not 0 < load <= 2:
        raise InputError(msg("load: between 0 and 2 (got {load})", load=load))
    m = mix or bundled_mix()
    sizes = {g: w for g, w in m.size_weights.items() if g <= cluster_gpus and w > 0} or {1: 1.0}
    rate_per_s = load * cluster_gpus / m.mean_gpu_seconds(sizes)
    rng = random.Random(seed)
    choices, weights = list(sizes), list(sizes.values())
    now = 0.0
    jobs = []
    for _ in range(count):
        now += rng.expovariate(rate_per_s)
        gpus = rng.choices(choices, weights)[0]
        duration = min(m.max_duration_s, rng.lognormvariate(math.log(m.median(gpus)), m.sigma))
        jobs.append(Job(now, gpus, duration, int(rng.random() < m.high_priority_share)))
    return tuple(jobs)


def poisson_jobs(*, count: int, rate_per_s: float, mean_duration_s: float, seed: int) -> tuple[Job, ...]:
    """Single-GPU jobs, Poisson arrivals and exponential run times: the M/M/c case.

    Parameters
    ----------
    count : int
        Jobs to generate [count].
    rate_per_s : float
        Arrival rate lambda [1/s].
    mean_duration_s : float
        Mean run time 1/mu [s].
    seed : int
        Seed of the random generator.

    Returns
    -------
    tuple[Job, ...]
        Jobs of one GPU each in arrival order (arrival [s], run time [s]).
    """
    rng = random.Random(seed)
    now = 0.0
    jobs = []
    for _ in range(count):
        now += rng.expovariate(rate_per_s)
        jobs.append(Job(now, 1, rng.expovariate(1.0 / mean_duration_s)))
    return tuple(jobs)


TRACE_COLUMNS = ("arrival_s", "gpus", "duration_s")
"""Required columns of the product's CSV; ``priority`` (0 or 1) is optional."""


def read_trace_csv(source: Path | bytes, *, name: str | None = None, cluster_gpus: int) -> tuple[Job, ...]:
    """A trace: the product's CSV or a published trace's own table, recognised by its header.

    The product's CSV holds one job a row, columns :data:`TRACE_COLUMNS` and an optional
    ``priority``; a published table is Helios ``cluster_log.csv`` or Alibaba 2023
    ``openb_pod_list_*.csv`` (:mod:`planner.jobmix.trace_formats`). Rows are sorted by arrival; a
    published trace's arrivals start at 0.

    Parameters
    ----------
    source : Path or bytes
        The file, or its content (an upload).
    name : str or None
        Name used in messages; defaults to ``str(source)``.
    cluster_gpus : int
        GPUs of the cluster [count]: a larger job is refused.

    Returns
    -------
    tuple[Job, ...]
        Jobs in arrival order: arrival [s], GPUs [count], run time [s], priority (0 or 1).

    Raises
    ------
    InputError
        Names the row and column of a bad value, a job larger than the cluster, a missing column,
        a file that is not UTF-8 CSV, or more than :data:`MAX_TRACE_JOBS` jobs.
    """
    label = name if name is not None else str(source)
    content = read_bytes(source, name=label, what=TRACE_FILE, error=InputError)
    text = decode_text(content, name=label, error=InputError)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:  # csv.Error: a field over the csv module's 128 kB limit, a bare CR inside a field
        fmt = trace_format(reader.fieldnames or [])
        if fmt is not None:
            return _published_jobs(read_published_rows(reader, fmt=fmt, label=label), label, cluster_gpus)
        missing = [c for c in TRACE_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(msg("{file}: missing column {column}", file=shorten(label), column=missing[0]))
        jobs = []
        for n, row in enumerate(reader, start=2):
            if n - 1 > MAX_TRACE_JOBS:  # stop reading at the limit, not after the whole file
                raise _too_many(label)
            jobs.append(_row_job(row, n, label, cluster_gpus))
    except csv.Error as exc:
        raise InputError(
            msg(
                "{file}: not a CSV trace (line {line}: {detail})",
                file=shorten(label),
                line=reader.line_num,
                detail=shorten(str(exc)),
            )
        ) from None
    _check_count(len(jobs), label)
    return tuple(sorted(jobs, key=lambda j: j.arrival_s))


def _check_count(count: int, label: str) -> None:
    """Refuse a trace with no job or with more than :data:`MAX_TRACE_JOBS`."""
    if not count:
        raise InputError(msg("{file}: the {what} is empty", file=shorten(label), what=TRACE_FILE))
    if count > MAX_TRACE_JOBS:
        raise _too_many(label)


def _too_many(label: str) -> InputError:
    return InputError(msg("{file}: more than {limit} jobs", file=shorten(label), limit=MAX_TRACE_JOBS))


def _published_jobs(raw: list[RawJob], label: str, cluster_gpus: int) -> tuple[Job, ...]:
    _check_count(len(raw), label)
    too_big = next((j for j in raw if j.gpus > cluster_gpus), None)
    if too_big is not None:
        raise row_error(label, too_big.line, "gpus", too_big.gpus, f"1 to {cluster_gpus}")
    start = min(j.arrival_s for j in raw)
    jobs = (Job(j.arrival_s - start, j.gpus, j.duration_s) for j in raw)
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
