"""Accept a built cluster against its plan: measured nccl-tests runs beside the plan's prediction.

Each measured size of each run is a check: the plan's busbw for the same collective on the same
GPUs, spread over scale-up domains as the run was (:mod:`planner.measure.model`), against the
measured out-of-place busbw. A check fails when the shortfall ``1 - measured / planned`` passes
the tolerance of its size band (:data:`BANDS`). Suspects are located from the runs:

- a host whose runs sit below those of its peers: across several runs on different host sets,
  the runs with the host reach a smaller fraction of the plan than the runs without it;
- a size band where the curve breaks: busbw falls by more than :data:`BREAK_DROP` from one size
  to the next while the plan's rises.

The report lists the commands that re-run the tests on the suspects.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from planner.catalog import Catalog
from planner.engine import Plan
from planner.i18n.message import msg
from planner.measure.model import Probe, baseline, group_of, predict
from planner.measure.nccl import Run
from planner.measure.perftest import PerftestResult
from planner.units import MIB

Status = Literal["pass", "fail", "warn"]


@dataclass(frozen=True)
class Band:
    """A range of message sizes and the shortfall it tolerates."""

    name: str
    max_bytes: float
    tolerance_fraction: float
    fails: bool
    """False where a shortfall only warns (the latency band: the plan's step latencies are
    assumptions until calibrated)."""


BANDS = (
    Band("latency", 1 * MIB, 0.50, False),
    Band("medium", 64 * MIB, 0.25, True),
    Band("bandwidth", float("inf"), 0.10, True),
)
"""Tolerance per size band (assumption: 10 % below the plan at 64 MiB and above is the margin
acceptance tests commonly grant large-message busbw; medium sizes mix latency and bandwidth, and
small sizes depend on step latencies the plan assumes)."""

BREAK_DROP = 0.20
"""A fall of busbw by more than 20 % from one measured size to the next marks a break
(assumption: nccl-tests curves rise with size; protocol switches cost less than this)."""

HOST_MARGIN = 0.10
"""A host is a suspect when the runs with it reach at least 10 percentage points less of the
plan than the runs without it (assumption: run-to-run spread of nccl-tests is a few percent)."""


@dataclass(frozen=True)
class Check:
    """One measured size of one run against the plan."""

    file: str
    line: int
    collective: str
    gpus: int
    hosts: tuple[str, ...]
    size_bytes: int
    measured_busbw_gbyte_per_s: float
    planned_busbw_gbyte_per_s: float
    band: str
    tolerance_fraction: float
    status: Status

    @property
    def shortfall_fraction(self) -> float:
        """1 - measured / planned, at least 0 [-]."""
        if self.planned_busbw_gbyte_per_s <= 0:
            return 0.0
        return max(0.0, 1.0 - self.measured_busbw_gbyte_per_s / self.planned_busbw_gbyte_per_s)


@dataclass(frozen=True)
class Suspect:
    """A host (or, with no host, a size band) the runs point at, and why."""

    host: str
    reason: str


@dataclass(frozen=True)
class LatencyCheck:
    """One perftest latency test against the plan's round trip (warns only: the plan's host and
    NIC latencies are assumptions)."""

    file: str
    tool: str
    host: str
    device: str
    size_bytes: int
    measured_us: float
    planned_us: float
    """Twice the plan's worst-case one-way GPU-to-GPU latency [us]."""
    status: Status


@dataclass(frozen=True)
class Acceptance:
    """The verdict of a cluster against its plan."""

    design_id: str
    gpu_id: str
    gpus: int
    checks: tuple[Check, ...]
    suspects: tuple[Suspect, ...]
    commands: tuple[str, ...]
    """Commands that re-run the tests on the suspects."""
    latency: tuple[LatencyCheck, ...] = ()

    @property
    def verdict(self) -> Literal["pass", "fail"]:
        return "fail" if any(c.status == "fail" for c in self.checks) else "pass"


def band_of(size_bytes: float) -> Band:
    """The tolerance band of a message size.

    Parameters
    ----------
    size_bytes : float
        Message size [B].

    Returns
    -------
    Band
        The band holding the size: its name, upper size bound [B], tolerance [fraction] and
        whether missing it fails the check.

    Examples
    --------
    >>> band_of(8).name, band_of(2**30).tolerance_fraction
    ('latency', 0.1)
    """
    return next(b for b in BANDS if size_bytes < b.max_bytes)


def accept(
    *, plan: Plan, catalog: Catalog, runs: Sequence[Run], perftest: Sequence[PerftestResult] = ()
) -> Acceptance:
    """Compare every measured size of ``runs`` (and each perftest test) with ``plan`` and locate
    the suspects.

    perftest bandwidth is checked against the NIC port's line rate at its largest size (the
    bandwidth band's tolerance); perftest latency against twice the plan's worst-case one-way
    latency (warning only).

    Parameters
    ----------
    plan : Plan
        The plan of the measured cluster.
    catalog : Catalog
        The catalog the plan was made with.
    runs : sequence of Run
        nccl-tests runs (:func:`planner.measure.nccl.read_nccl_tests`).
    perftest : sequence of PerftestResult
        perftest results (:func:`planner.measure.perftest.read_perftest`).

    Returns
    -------
    Acceptance
        The design, GPU and GPU count [count], one check per measured size and perftest test
        (measured against planned bandwidth [GB/s], within its band's tolerance [fraction]), the
        suspects, the commands to rerun and the perftest latency checks.
    """
    base = baseline(plan=plan, catalog=catalog)
    checks: list[Check] = []
    for run in runs:
        gpus, m = group_of(run=run, base=base)
        if gpus < 2:
            continue
        for row in run.rows:
            planned = predict(base.fabric, Probe(run.collective, gpus, m, row.size_bytes)).busbw_gbyte_per_s
            band = band_of(row.size_bytes)
            short = max(0.0, 1 - row.busbw_gbyte_per_s / planned) if planned > 0 else 0.0
            status: Status = "pass"
            if short > band.tolerance_fraction:
                status = "fail" if band.fails else "warn"
            checks.append(
                Check(
                    run.file, row.line, run.collective, gpus, run.hosts, row.size_bytes,
                    row.busbw_gbyte_per_s, planned, band.name, band.tolerance_fraction, status,
                )
            )  # fmt: skip
    port_gbit_per_s = float(catalog.nics[base.nic_id].port_speed_gbit_per_s)
    checks += [_port_check(t, port_gbit_per_s) for t in perftest if t.is_bandwidth]
    latency = tuple(
        _latency_check(t, 2 * plan.latency.gpu_to_gpu_ns / 1000) for t in perftest if not t.is_bandwidth
    )
    suspects = [
        *_slow_hosts([c for c in checks if c.gpus > 1]),
        *_breaks(runs, checks),
        *_slow_rails(perftest),
    ]
    return Acceptance(
        design_id=plan.design_id,
        gpu_id=plan.gpu_id,
        gpus=plan.gpus,
        checks=tuple(checks),
        suspects=tuple(suspects),
        commands=_commands(runs, suspects, checks),
        latency=latency,
    )


def _port_check(test: PerftestResult, port_gbit_per_s: float) -> Check:
    """A perftest bandwidth test at its largest size against the port's line rate [GB/s]."""
    size, gbit = max(zip(test.sizes_bytes, test.values, strict=True))
    band = BANDS[-1]
    status: Status = "fail" if gbit < port_gbit_per_s * (1 - band.tolerance_fraction) else "pass"
    return Check(
        test.file, test.line, test.tool, 1, (test.host,), size, gbit / 8, port_gbit_per_s / 8,
        band.name, band.tolerance_fraction, status,
    )  # fmt: skip


def _latency_check(test: PerftestResult, planned_us: float) -> LatencyCheck:
    size, measured = min(zip(test.sizes_bytes, test.values, strict=True))
    band = BANDS[0]
    status: Status = "warn" if measured > planned_us * (1 + band.tolerance_fraction) else "pass"
    return LatencyCheck(test.file, test.tool, test.host, test.device, size, measured, planned_us, status)


def _slow_rails(tests: Sequence[PerftestResult]) -> list[Suspect]:
    """NIC ports (rails) whose perftest bandwidth sits below their peers' median."""
    bandwidth = [(t, max(t.values)) for t in tests if t.is_bandwidth]
    if len(bandwidth) < 3:
        return []
    median = statistics.median(v for _, v in bandwidth)
    return [
        Suspect(
            t.host,
            msg(
                "rail {device} on {host}: {tool} {value:.1f} Gb/s where its peers' median is {median:.1f} Gb/s",
                device=t.device,
                host=t.host,
                tool=t.tool,
                value=v,
                median=median,
            ),
        )
        for t, v in bandwidth
        if v < median * (1 - HOST_MARGIN)
    ]


def _run_scores(checks: Sequence[Check]) -> dict[tuple[str, int], tuple[float, tuple[str, ...]]]:
    """Per run (file, line of its first check): median measured / planned at its largest band,
    and its hosts."""
    by_run: dict[tuple[str, str, tuple[str, ...]], list[Check]] = {}
    for c in checks:
        by_run.setdefault((c.file, c.collective, c.hosts), []).append(c)
    out = {}
    for (file, _, hosts), cs in by_run.items():
        large = [c for c in cs if c.band == "bandwidth"] or [max(cs, key=lambda c: c.size_bytes)]
        ratios = [
            c.measured_busbw_gbyte_per_s / c.planned_busbw_gbyte_per_s
            for c in large
            if c.planned_busbw_gbyte_per_s > 0
        ]
        if ratios:
            out[(file, cs[0].line)] = (statistics.median(ratios), hosts)
    return out


def _slow_hosts(checks: Sequence[Check]) -> list[Suspect]:
    """Hosts whose runs reach less of the plan than their peers' runs, across several runs."""
    scores = list(_run_scores(checks).values())
    hosts = sorted({h for _, hs in scores for h in hs})
    out = []
    for host in hosts:
        with_host = [s for s, hs in scores if host in hs]
        without = [s for s, hs in scores if host not in hs]
        if len(with_host) < 2 or not without:
            continue
        a, b = statistics.median(with_host), statistics.median(without)
        if a < b - HOST_MARGIN and max(with_host) < min(without):
            out.append(
                Suspect(
                    host,
                    msg(
                        "runs with {host} reach {with_host:.0%} of the plan at large sizes, runs without it "
                        "{without:.0%} ({n_with} runs with it, {n_without} without)",
                        host=host,
                        with_host=a,
                        without=b,
                        n_with=len(with_host),
                        n_without=len(without),
                    ),
                )
            )
    return out


def _breaks(runs: Sequence[Run], checks: Sequence[Check]) -> list[Suspect]:
    """Size bands where a run's busbw falls while the plan's rises."""
    planned = {(c.file, c.line): c.planned_busbw_gbyte_per_s for c in checks}
    out = []
    for run in runs:
        rows = sorted(run.rows, key=lambda r: r.size_bytes)
        for before, after in itertools.pairwise(rows):
            p0, p1 = planned.get((run.file, before.line)), planned.get((run.file, after.line))
            if p0 is None or p1 is None or before.busbw_gbyte_per_s < 1.0:
                continue
            if after.busbw_gbyte_per_s < before.busbw_gbyte_per_s * (1 - BREAK_DROP) and p1 >= p0:
                out.append(
                    Suspect(
                        "",
                        msg(
                            "{file} line {line}: {collective} busbw falls from {b0:.1f} to {b1:.1f} GB/s "
                            "between {s0} and {s1} B while the plan's rises (the curve breaks)",
                            file=run.file,
                            line=after.line,
                            collective=run.collective,
                            b0=before.busbw_gbyte_per_s,
                            b1=after.busbw_gbyte_per_s,
                            s0=before.size_bytes,
                            s1=after.size_bytes,
                        ),
                    )
                )
    return out


def _commands(runs: Sequence[Run], suspects: Sequence[Suspect], checks: Sequence[Check]) -> tuple[str, ...]:
    """Commands to re-run on the suspects (or, when one run over every host falls short, to split it)."""
    tools = sorted({r.tool for r in runs}) or ["all_reduce_perf"]
    hosts = sorted({h for r in runs for h in r.hosts})
    per_host = max((r.gpus_per_host for r in runs), default=8)
    out = []
    named = [s.host for s in suspects if s.host]
    for host in named:
        peer = next((h for h in hosts if h not in named), None)
        pair = f"{host}:{per_host},{peer}:{per_host}" if peer else f"{host}:{per_host}"
        np_ = per_host * (2 if peer else 1)
        for tool in tools:
            out.append(f"mpirun -np {np_} -H {pair} {tool} -b 64M -e 8G -f 2 -g 1")
        if peer:
            out.append(
                f"ib_write_bw -d <each NIC> --report_gbits {peer}  # on {host}; server: ib_write_bw -d <NIC> on {peer}"
            )
    failing = any(c.status == "fail" for c in checks)
    if failing and not named and len(hosts) > 2:
        for a, b in zip(hosts[::2], hosts[1::2], strict=False):
            out.append(
                f"mpirun -np {2 * per_host} -H {a}:{per_host},{b}:{per_host} {tools[0]} -b 64M -e 8G -f 2 -g 1"
            )
    return tuple(out)
