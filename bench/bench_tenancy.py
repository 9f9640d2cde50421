"""Benchmark of the tenancy package, run by hand (never asserted: these machines are shared).

    .venv/bin/python bench/bench_tenancy.py

Medians of repeated runs of: the job-mix simulation of 10,000 synthetic jobs on 1024 GPUs
(rail8-npo; the issue asks for under 10 s) under each policy, with and without preemption; and
placing the README's four-tenant example on rail8-npo at 1024 GPUs (fabric view included).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import Scenario, load_catalog, plan
from planner.jobmix.jobs import synthetic_jobs
from planner.jobmix.simulate import simulate
from planner.tenancy.fabric import fabric_view, sim_cluster
from planner.tenancy.place import place
from planner.tenancy.run import cost_inputs
from planner.tenancy.tenants import tenants_from_data

REPEATS = 5
CATALOG = load_catalog()
PLAN = plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=CATALOG)
CLUSTER = sim_cluster(fabric_view(plan=PLAN, catalog=CATALOG))
JOBS = synthetic_jobs(count=10_000, cluster_gpus=CLUSTER.gpus, seed=1)
TENANTS = tenants_from_data(
    [
        {"name": "foundation", "gpus": 512, "isolation": "plane", "bandwidth_gbit_per_s_per_gpu": 400},
        {"name": "finetune", "gpus": 256, "isolation": "leaf", "bandwidth_gbit_per_s_per_gpu": 400},
        {"name": "inference", "gpus": 128, "isolation": "domain", "bandwidth_gbit_per_s_per_gpu": 200},
        {"name": "research", "gpus": 128, "isolation": "shared", "bandwidth_gbit_per_s_per_gpu": 100},
    ]
)


def _place() -> object:
    return place(view=fabric_view(plan=PLAN, catalog=CATALOG), tenants=TENANTS, cost=cost_inputs(PLAN))


CASES: list[tuple[str, Callable[[], object]]] = [
    *(
        (
            f"simulate 10,000 jobs on 1024 GPUs, {policy}{', preempt' if preempt else ''}",
            lambda policy=policy, preempt=preempt: simulate(
                cluster=CLUSTER, jobs=JOBS, policy=policy, preempt=preempt
            ),
        )
        for policy in ("first-fit", "topology")
        for preempt in (False, True)
    ),
    ("place 4 tenants on rail8-npo, 1024 GPUs (with the fabric view)", _place),
]


def main() -> None:
    for name, case in CASES:
        times = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            case()
            times.append(time.perf_counter() - start)
        print(f"{statistics.median(times):8.2f} s  median of {REPEATS}  {name}")


if __name__ == "__main__":
    main()
