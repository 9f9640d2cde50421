"""A seeded discrete-event simulation of a job stream on the cluster's servers and leaf groups.

Notes
-----
- Events (arrival, finish) sit on a heap ordered by time, then by a sequence number, so a run is
  reproducible bit for bit.
- The queue is ordered by priority, then arrival; at each event the first :data:`SCAN_WINDOW`
  queued jobs are tried in order and every one that fits starts (list scheduling; a job that does
  not fit lets later, smaller jobs start).
- ``first-fit`` gives a job the free GPUs of the lowest-numbered servers, one GPU at a time.
  ``topology`` keeps a job of at most one server's GPUs on one server (best fit: the server with the
  fewest free GPUs that holds it) and gives a larger job whole servers from as few leaf groups as it
  can (the tightest group that holds it, else the fullest first); it waits rather than scatter.
- With ``preempt`` a high-priority job that does not fit stops normal jobs, the latest started
  first, until it fits; a stopped job goes back to the queue with its remaining run time
  (checkpoint and restart, no restart cost).
- Metrics: utilisation = busy GPU-seconds / (GPUs x time from the first to the last arrival: the
  steady window, without the drain after the last arrival); queueing delay = first start - arrival, percentiles by nearest rank; fragmentation =
  share of the free GPUs on partly used servers, time-averaged over the same window; a spanning job is one whose
  placement has more switch hops than the fewest its size allows (0 within a server, 1 within a
  leaf group, 3 across groups of a pod, 5 across pods).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from planner.errors import InputError
from planner.i18n.message import msg
from planner.jobmix.jobs import Job
from planner.progress import Steps, checkpoint

Policy = Literal["first-fit", "topology"]
POLICIES: tuple[str, ...] = ("first-fit", "topology")

SCAN_WINDOW = 64
"""Queued jobs tried at each event [count]: bounds the work per event on a long queue."""

SERIES_POINTS = 200
"""Points kept of the utilisation and fragmentation time series (for charts) [count]."""


@dataclass(frozen=True)
class SimCluster:
    """What the simulator needs of a fabric: servers, their GPUs, leaf groups and pods."""

    gpus_per_server: int
    leaf_group: tuple[int, ...]
    group_pod: tuple[int, ...]
    tiers: int

    @property
    def servers(self) -> int:
        return len(self.leaf_group)

    @property
    def gpus(self) -> int:
        return self.servers * self.gpus_per_server

    @classmethod
    def uniform(cls, *, servers: int, gpus_per_server: int, servers_per_group: int) -> SimCluster:
        """A two-tier cluster of equal leaf groups (tests, the M/M/c check)."""
        groups = tuple(s // servers_per_group for s in range(servers))
        return cls(gpus_per_server, groups, (0,) * (groups[-1] + 1), 2)


@dataclass(frozen=True)
class SimResult:
    """What one run measured."""

    jobs: int
    policy: str
    preempt: bool
    utilization: float
    queue_delay_s: dict[str, float]
    """``p50``, ``p95``, ``p99`` of the queueing delay [s]."""
    mean_queue_delay_s: float
    fragmentation: float
    spanning_jobs: int
    preemptions: int
    series: tuple[tuple[float, float, float, int], ...]
    """(time [s], busy share, fragmentation, queued jobs) at up to :data:`SERIES_POINTS` events."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``planner tenants simulate`` (no time series)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "series"}


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile ``q`` of ``values``; 0 for none.

    Parameters
    ----------
    values : Sequence[float]
        Samples, in any unit.
    q : float
        Percentile [%], 0 to 100.

    Returns
    -------
    float
        The ``ceil(q/100 x n)``-th smallest value (in the samples' unit); 0.0 when there are none.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50)
    2.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


class _Cluster:
    """Free GPUs per server and the allocation rules of the two policies."""

    def __init__(self, spec: SimCluster, policy: str) -> None:
        self.spec = spec
        self.policy = policy
        self.free = [spec.gpus_per_server] * spec.servers
        self.total_free = spec.gpus
        self.members: dict[int, list[int]] = {}
        for s, g in enumerate(spec.leaf_group):
            self.members.setdefault(g, []).append(s)

    def allocate(self, gpus: int) -> list[tuple[int, int]] | None:
        """(server, GPUs) of a placement, or ``None`` when the job does not fit now."""
        if gpus > self.total_free:
            return None
        if self.policy == "first-fit":
            return self._first_fit(gpus)
        n = self.spec.gpus_per_server
        if gpus <= n:
            fits = [s for s, f in enumerate(self.free) if f >= gpus]
            return [(min(fits, key=lambda s: (self.free[s], s)), gpus)] if fits else None
        need = math.ceil(gpus / n)
        whole = {g: [s for s in ss if self.free[s] == n] for g, ss in self.members.items()}
        if sum(len(w) for w in whole.values()) < need:
            return None
        fitting = [g for g, w in whole.items() if len(w) >= need]
        if fitting:
            chosen = whole[min(fitting, key=lambda g: (len(whole[g]), g))][:need]
        else:
            chosen = []
            for g in sorted(whole, key=lambda g: (-len(whole[g]), g)):
                chosen += whole[g][: need - len(chosen)]
        left, out = gpus, []
        for s in chosen:
            out.append((s, min(n, left)))
            left -= n
        return out

    def _first_fit(self, gpus: int) -> list[tuple[int, int]]:
        out, left = [], gpus
        for s, f in enumerate(self.free):
            if f:
                take = min(f, left)
                out.append((s, take))
                left -= take
                if not left:
                    break
        return out

    def take(self, placement: list[tuple[int, int]], sign: int) -> None:
        for s, k in placement:
            self.free[s] -= sign * k
            self.total_free -= sign * k

    def fragmentation(self) -> float:
        if not self.total_free:
            return 0.0
        whole = sum(f for f in self.free if f == self.spec.gpus_per_server)
        return 1.0 - whole / self.total_free

    def hops(self, servers: Sequence[int]) -> int:
        if len(servers) <= 1 or self.spec.tiers == 0:
            return 0
        groups = {self.spec.leaf_group[s] for s in servers}
        if len(groups) == 1:
            return 1
        return 3 if self.spec.tiers <= 2 or len({self.spec.group_pod[g] for g in groups}) == 1 else 5

    def least_hops(self, gpus: int) -> int:
        n = self.spec.gpus_per_server
        if gpus <= n or self.spec.tiers == 0:
            return 0
        group_gpus = min(len(m) for m in self.members.values()) * n
        return 1 if gpus <= group_gpus else 3


@dataclass
class _Running:
    job: int
    placement: list[tuple[int, int]]
    start_s: float
    remaining_s: float
    version: int


MAX_JOB_GPUS = 2**31
"""Largest jobs x cluster GPUs one simulation takes [job-GPUs]: its time grows with the product
(200 000 jobs on 16 384 GPUs, 3.3e9, ran 240 s on one core), its memory with the cluster
(:data:`planner.tenancy.fabric.MAX_VIEW_GPUS` for a fabric view)."""


def simulate(
    *,
    cluster: SimCluster,
    jobs: Sequence[Job],
    policy: str,
    preempt: bool = False,
    steps: Steps | None = None,
) -> SimResult:
    """Run ``jobs`` through the cluster under ``policy`` (see module notes).

    ``steps`` hears of every 2 % of the jobs finished (:func:`planner.progress.checkpoint`) and may
    stop the run.

    Parameters
    ----------
    cluster : SimCluster
        Servers, their GPUs [count], leaf groups and pods.
    jobs : Sequence[Job]
        Jobs in arrival order (arrival [s], GPUs [count], run time [s], priority).
    policy : str
        Placement policy, one of :data:`POLICIES`.
    preempt : bool
        Whether a high-priority job may preempt low-priority ones.
    steps : Steps or None
        Progress callback, told of every 2 % of the jobs finished [fraction].

    Returns
    -------
    SimResult
        Utilisation [fraction], queueing delays [s], fragmentation [fraction], jobs spanning leaf
        groups [count] and preemptions [count], with their time series.

    Raises
    ------
    InputError
        An unknown policy, more than :data:`MAX_JOB_GPUS` job-GPUs, or a job larger than the
        cluster.
    planner.progress.CancelledError
        ``steps`` stopped the run.
    """
    if policy not in POLICIES:
        raise InputError(
            msg("policy: {policy} is not one of {known}", policy=policy, known=", ".join(POLICIES))
        )
    if len(jobs) * cluster.gpus > MAX_JOB_GPUS:
        raise InputError(
            msg(
                "jobs: {jobs} jobs on {gpus} GPUs is more than {limit} job-GPUs a simulation may take; "
                "simulate fewer jobs or a smaller cluster",
                jobs=f"{len(jobs):,}",
                gpus=f"{cluster.gpus:,}",
                limit=f"{MAX_JOB_GPUS:,}",
            )
        )
    too_big = next((j for j in jobs if j.gpus > cluster.gpus), None)
    if too_big is not None:
        raise InputError(
            msg(
                "jobs: a job asks for {gpus} GPUs, the cluster has {cluster}",
                gpus=too_big.gpus,
                cluster=cluster.gpus,
            )
        )
    return _Run(cluster, jobs, policy, preempt, steps).run()


class _Run:
    def __init__(
        self,
        spec: SimCluster,
        jobs: Sequence[Job],
        policy: str,
        preempt: bool,
        steps: Steps | None,
    ) -> None:
        self.cluster = _Cluster(spec, policy)
        self.jobs, self.policy, self.preempt, self.steps = jobs, policy, preempt, steps
        self.events: list[tuple[float, int, int, int]] = []
        self.seq = 0
        self.queue: list[tuple[int, float, int]] = []
        """(-priority, arrival, job) kept sorted."""
        self.remaining = [j.duration_s for j in jobs]
        self.first_start: list[float | None] = [None] * len(jobs)
        self.running: dict[int, _Running] = {}
        self.version = [0] * len(jobs)
        self.busy_gpu_s = 0.0
        self.busy = 0
        self.last_s = jobs[0].arrival_s if jobs else 0.0
        self.frag_area = 0.0
        self.spanning = 0
        self.preemptions = 0
        self.samples: list[tuple[float, float, float, int]] = []
        self.window_end_s = jobs[-1].arrival_s if jobs else 0.0

    def push(self, time_s: float, kind: int, job: int) -> None:
        self.seq += 1
        heapq.heappush(self.events, (time_s, self.seq, kind, job))

    def run(self) -> SimResult:
        for i, job in enumerate(self.jobs):
            self.push(job.arrival_s, 0, i)
        done = 0
        step = max(1, len(self.jobs) // 50)
        while self.events:
            now, _, kind, i = heapq.heappop(self.events)
            self._advance(now)
            if kind == 0:
                self._enqueue(i)
            else:
                if i not in self.running or self.running[i].version != self.version[i]:
                    continue
                self._finish(i)
                done += 1
                if done % step == 0:
                    checkpoint(self.steps, done=done, total=len(self.jobs))
            self._schedule(now)
            self._sample(now)
        return self._result()

    def _advance(self, now: float) -> None:
        dt = min(now, self.window_end_s) - min(self.last_s, self.window_end_s)
        if dt > 0:
            self.busy_gpu_s += self.busy * dt
            self.frag_area += self.cluster.fragmentation() * dt
        self.last_s = max(self.last_s, now)

    def _enqueue(self, i: int) -> None:
        entry = (-self.jobs[i].priority, self.jobs[i].arrival_s, i)
        # insertion keeps the queue sorted; arrivals are mostly at the end of their class
        lo = len(self.queue)
        while lo and self.queue[lo - 1] > entry:
            lo -= 1
        self.queue.insert(lo, entry)

    def _finish(self, i: int) -> None:
        run = self.running.pop(i)
        self.cluster.take(run.placement, -1)
        self.busy -= self.jobs[i].gpus

    def _start(self, i: int, placement: list[tuple[int, int]], now: float) -> None:
        self.cluster.take(placement, 1)
        self.busy += self.jobs[i].gpus
        if self.first_start[i] is None:
            self.first_start[i] = now
            servers = [s for s, _ in placement]
            if self.cluster.hops(servers) > self.cluster.least_hops(self.jobs[i].gpus):
                self.spanning += 1
        self.version[i] += 1
        self.running[i] = _Running(i, placement, now, self.remaining[i], self.version[i])
        self.push(now + self.remaining[i], 1, i)

    def _schedule(self, now: float) -> None:
        smallest_failed = math.inf
        started: set[int] = set()
        for _, _, i in self.queue[:SCAN_WINDOW]:
            gpus = self.jobs[i].gpus
            may_preempt = self.preempt and self.jobs[i].priority > 0
            # whether a job fits is monotone in its size under both policies: skip the larger ones
            if not may_preempt and (gpus >= smallest_failed or not self.cluster.total_free):
                continue
            placement = self.cluster.allocate(gpus)
            if placement is None and may_preempt:
                placement = self._preempt_for(gpus, now)
            if placement is None:
                smallest_failed = min(smallest_failed, gpus)
                continue
            self._start(i, placement, now)
            started.add(i)
        if started:
            # by job, not by position: a preempted job may have been queued in between
            self.queue = [entry for entry in self.queue if entry[2] not in started]

    def _preempt_for(self, gpus: int, now: float) -> list[tuple[int, int]] | None:
        """Stop normal jobs, latest started first, until ``gpus`` fit; ``None`` (nothing stopped)
        when even all of them would not do."""
        victims = sorted(
            (r for r in self.running.values() if self.jobs[r.job].priority == 0), key=lambda r: -r.start_s
        )
        freed: list[_Running] = []
        placement = None
        for run in victims:
            self.cluster.take(run.placement, -1)
            freed.append(run)
            placement = self.cluster.allocate(gpus)
            if placement is not None:
                break
        if placement is None:
            for run in freed:
                self.cluster.take(run.placement, 1)
            return None
        for run in freed:
            del self.running[run.job]
            self.busy -= self.jobs[run.job].gpus
            self.remaining[run.job] = run.remaining_s - (now - run.start_s)
            self.version[run.job] += 1
            self.preemptions += 1
            self._enqueue(run.job)
        return placement

    def _sample(self, now: float) -> None:
        self.samples.append(
            (now, self.busy / self.cluster.spec.gpus, self.cluster.fragmentation(), len(self.queue))
        )

    def _result(self) -> SimResult:
        delays = [
            (s if s is not None else self.last_s) - j.arrival_s
            for j, s in zip(self.jobs, self.first_start, strict=True)
        ]
        span = self.window_end_s - (self.jobs[0].arrival_s if self.jobs else 0.0)
        stride = max(1, len(self.samples) // SERIES_POINTS)
        return SimResult(
            jobs=len(self.jobs),
            policy=self.policy,
            preempt=self.preempt,
            utilization=self.busy_gpu_s / (self.cluster.spec.gpus * span) if span > 0 else 0.0,
            queue_delay_s={q: percentile(delays, v) for q, v in (("p50", 50), ("p95", 95), ("p99", 99))},
            mean_queue_delay_s=sum(delays) / len(delays) if delays else 0.0,
            fragmentation=self.frag_area / span if span > 0 else 0.0,
            spanning_jobs=self.spanning,
            preemptions=self.preemptions,
            series=tuple(self.samples[::stride]),
        )
