"""Benchmark of grid sweeps on Dask, run by hand (never asserted: these machines are shared).

    .venv/bin/python bench/bench_sweep.py                       # plans/s per worker, 1 and 2 workers
    .venv/bin/python bench/bench_sweep.py --big 1000000         # plus one run of 1e6 plans, 2 workers

Plans per second per worker = points / wall seconds / workers, the wall time of
:func:`planner.sweep.run_sweep` against an already running local cluster (start-up excluded,
the Parquet join included), median of ``--repeats`` runs alternating between the two cluster
sizes; the in-process rate (no Dask) is the
reference for the scheduler's overhead. The ``--big`` run starts its own cluster, as
``planner sweep`` does, so its wall time includes the start-up. The load average is printed
before and after, because other processes share the machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import Scenario, load_catalog
from planner.sweep import SweepJob, evaluate_batch, grid_from_data, run_sweep
from planner.sweep.run import BATCH_POINTS

CATALOG = load_catalog()
BASE = Scenario()
DESIGNS = ["rail4-npo", "rail8-npo", "ib-ndr"]
COOLING = ["air", "direct_liquid"]
SIZES = {"start": 8, "stop": 1024, "step": 8}  # 128 sizes


def grid_of(points: int) -> dict[str, Any]:
    """A grid of about ``points`` points: 128 sizes x 3 designs x 2 coolings x n GPU prices."""
    prices = max(1, round(points / (128 * len(DESIGNS) * len(COOLING))))
    return {
        "gpus": SIZES,
        "design_id": DESIGNS,
        "facility.cooling_id": COOLING,
        "price_overrides_usd.br100": {"start": 10_000, "stop": 10_000 + 10 * (prices - 1), "step": 10},
    }


def job_of(data: dict[str, Any]) -> SweepJob:
    grid = grid_from_data(data, base=BASE, catalog=CATALOG, max_points=None)
    return SweepJob(grid=grid, base=BASE.model_dump(), catalog=CATALOG)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} CPUs"


def in_process(points: int) -> float:
    """Plans per second in this process, no Dask: the engine's own rate on this machine now."""
    job = job_of(grid_of(points))
    started = time.perf_counter()
    evaluate_batch(job, 0, points)
    return points / (time.perf_counter() - started)


def on_clusters(
    *, points: int, repeats: int, out: Path
) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """Plans per second per worker at 1 and 2 workers, the runs alternating between a cluster of
    each size (both started first), so a change in the machine's load hits both alike; and plans
    per CPU-second of the workers (their process CPU time over the run), which the machine's
    other load does not change: equal at 1 and 2 workers means Dask adds no cost per worker."""
    from contextlib import ExitStack

    from distributed import Client, LocalCluster

    job = job_of(grid_of(points))
    rates: dict[int, list[float]] = {1: [], 2: []}
    per_cpu_s: dict[int, list[float]] = {1: [], 2: []}
    with ExitStack() as stack:
        address, clients = {}, {}
        for workers in rates:
            cluster = stack.enter_context(
                LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
                )
            )
            address[workers] = str(cluster.scheduler_address)
            clients[workers] = stack.enter_context(Client(address[workers]))  # type: ignore[no-untyped-call]
            run_sweep(
                job=job_of(grid_of(BATCH_POINTS * workers)), out=out, scheduler=address[workers]
            )  # warm-up
        for _ in range(repeats):
            for workers in rates:
                before = clients[workers].run(time.process_time)
                result = run_sweep(job=job, out=out, scheduler=address[workers])
                after = clients[workers].run(time.process_time)
                rates[workers].append(result.points / result.seconds / workers)
                per_cpu_s[workers].append(result.points / sum(after[w] - before[w] for w in after))
    return rates, per_cpu_s


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--points", type=int, default=6_000, help="points per timed sweep")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--big", type=int, default=0, help="points of one large run on 2 workers")
    parser.add_argument(
        "--verify", type=int, default=300, help="rows of the big run compared with single-process plans"
    )
    parser.add_argument("--skip-timing", action="store_true", help="only the big run")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="bench-sweep-")) / "sweep.parquet"
    print(load())
    print(f"in process, no Dask: {in_process(1_000):,.0f} plans/s")
    if not args.skip_timing:
        timing(points=args.points, repeats=args.repeats, out=out)
    if args.big:
        big_run(points=args.big, verify=args.verify, out=out)


def timing(*, points: int, repeats: int, out: Path) -> None:
    """Plans per second per worker at 1 and 2 workers, and the speed-ups (printed)."""
    rates, per_cpu_s = on_clusters(points=points, repeats=repeats, out=out)
    medians = {workers: statistics.median(runs) for workers, runs in rates.items()}
    for workers, runs in rates.items():
        print(
            f"{workers} worker(s), {points:,} points x {repeats}: median {medians[workers]:,.1f} "
            f"plans/s per worker (runs: {', '.join(f'{r:,.1f}' for r in runs)}); median "
            f"{statistics.median(per_cpu_s[workers]):,.1f} plans per worker CPU-second"
        )
    print(load())
    print(f"speed-up 1 -> 2 workers: {2 * medians[2] / medians[1]:.2f} (2.00 = linear)")
    # wall time rewards free CPU, which a shared machine does not guarantee; per CPU-second the
    # speed-up is what two workers would give with a core each (2.00: Dask adds no cost per worker)
    cpu = {workers: statistics.median(runs) for workers, runs in per_cpu_s.items()}
    print(f"CPU-normalised speed-up 1 -> 2 workers: {2 * cpu[2] / cpu[1]:.2f} (2.00 = linear)")


def big_run(*, points: int, verify: int, out: Path) -> None:
    """One sweep of about ``points`` plans on a fresh 2-worker cluster, as ``planner sweep`` runs
    it; then the Parquet's row count against the grid and ``verify`` random rows against the same
    points planned in this process, column by column."""
    import math
    import random

    import pandas as pd

    from planner.sweep import point_row

    job = job_of(grid_of(points))
    print(f"big run: {job.grid.count():,} points on 2 workers; {load()}", flush=True)
    result = run_sweep(job=job, out=out, workers=2)
    print(
        f"big run: {result.points:,} plans in {result.seconds:,.0f} s wall "
        f"({result.plans_per_s:,.1f} plans/s, {result.plans_per_s / 2:,.1f} per worker), "
        f"{out.stat().st_size / 1e6:,.1f} MB Parquet; {load()}",
        flush=True,
    )
    frame = pd.read_parquet(out)
    print(f"rows {len(frame):,} of {job.grid.count():,} points", flush=True)
    rng = random.Random(0)
    differ = 0
    for index in rng.sample(range(len(frame)), min(verify, len(frame))):
        row = frame.iloc[index].to_dict()
        for key, value in point_row(job, index).items():
            got = row.get(key)
            empty = got is None or (isinstance(got, float) and math.isnan(got))
            same = (
                (value is None or (isinstance(value, float) and math.isnan(value))) if empty else got == value
            )
            differ += not same
    print(f"{verify} sampled rows against single-process plans: {differ} values differ", flush=True)


if __name__ == "__main__":
    main()
