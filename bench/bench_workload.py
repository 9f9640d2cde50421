"""Benchmarks of the workload, reliability and uncertainty engine, run by hand.

    .venv/bin/python bench/bench_workload.py

Medians of warm runs (the catalog is loaded once, as in the app and CLI); never asserted.
"""

from __future__ import annotations

import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import Scenario, load_catalog, plan
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.training import TrainingJob
from planner.performance.collectives import busbw_curve, fabric_from_plan
from planner.performance.reliability import goodput_curve, reliability
from planner.performance.uncertainty import MonteCarloSpec, monte_carlo, tornado
from planner.performance.workload import compare_workload, estimate_workload

CATALOG = load_catalog()
SCENARIO = Scenario(gpus=1024, design_id="rail8-npo", gpu_id="h100_sxm")
PLAN = plan(scenario=SCENARIO, catalog=CATALOG)
JOB = TrainingJob(params_b=70, tokens_b=1400)
# Llama 3 405B shape at 8K: the search covers TP x CP x PP x DP x v x micro-batch x recompute x ZeRO
LLAMA_405B = TrainingJob(
    params_b=405, tokens_b=15000, seq_len=8192, global_batch_seqs=2048, layers=126, hidden_size=16384,
    heads=128, kv_heads=8, ffn_hidden=53248, gated_mlp=True, vocab=128256,
)  # fmt: skip
MOE = TrainingJob(params_b=141, tokens_b=1000, experts=8, top_k=2)
LONG = TrainingJob(params_b=70, tokens_b=1000, seq_len=131072, global_batch_seqs=128)
FABRIC = fabric_from_plan(plan=PLAN, catalog=CATALOG)
RELIABILITY = reliability(plan=PLAN, params=ReliabilityParams(params_b=70))

CASES: list[tuple[str, Callable[[], object], int]] = [
    ("busbw curve, all-reduce, 24 sizes, 1024 GPUs", lambda: busbw_curve(fabric=FABRIC, collective="all_reduce"), 50),
    ("workload estimate, 70B on 1024 GPUs (layout search)", lambda: estimate_workload(job=JOB, plan=PLAN, catalog=CATALOG), 50),
    ("layout search, 405B (Llama 3 shape) 8K on 1024 GPUs", lambda: estimate_workload(job=LLAMA_405B, plan=PLAN, catalog=CATALOG), 30),
    ("layout search, 141B MoE 8x top-2 on 1024 GPUs", lambda: estimate_workload(job=MOE, plan=PLAN, catalog=CATALOG), 30),
    ("layout search, 70B at 128K context (CP) on 1024 GPUs", lambda: estimate_workload(job=LONG, plan=PLAN, catalog=CATALOG), 30),
    ("workload, 3 designs side by side (incl. planning)", lambda: compare_workload(job=JOB, scenario=SCENARIO, catalog=CATALOG), 20),
    ("reliability, 1024 GPUs", lambda: reliability(plan=PLAN, params=ReliabilityParams(params_b=70)), 200),
    ("goodput curve, 41 intervals", lambda: goodput_curve(result=RELIABILITY), 100),
    ("tornado, 8 inputs x 3 outputs", lambda: tornado(job=JOB, scenario=SCENARIO, catalog=CATALOG), 10),
    ("Monte Carlo, 2000 samples", lambda: monte_carlo(job=JOB, scenario=SCENARIO, catalog=CATALOG, spec=MonteCarloSpec()), 10),
]  # fmt: skip


def main() -> None:
    for name, fn, repeat in CASES:
        fn()
        times = timeit.repeat(fn, number=1, repeat=repeat)
        print(f"{name:<55} median {statistics.median(times) * 1000:8.2f} ms  (n={repeat})")


if __name__ == "__main__":
    main()
