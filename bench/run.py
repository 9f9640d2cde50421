"""Benchmarks of the engine and of the CLI's start-up, run by hand (`make bench`); medians go into the README.

Timings use the standard library's ``timeit`` (warm: the catalog is loaded once, as in the app and
CLI); the CLI commands run as whole processes (bench/bench_cli.py). Never asserted in tests:
these machines are shared and noisy.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_cli import timings as cli_timings

from planner import Scenario, load_catalog, plan, sweep

CASES: list[tuple[str, Callable[[], object], int]] = []


def case(name: str, repeat: int) -> Callable[[Callable[[], object]], Callable[[], object]]:
    def register(fn: Callable[[], object]) -> Callable[[], object]:
        CASES.append((name, fn, repeat))
        return fn

    return register


CATALOG = load_catalog()
CLI_RUNS = 20
"""Runs of each timed CLI command."""


@case("plan, 1024 GPUs, rail8-npo (warm)", 200)
def plan_1024() -> object:
    return plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=CATALOG)


@case("plan, 1024 GPUs, ib-ndr (warm)", 200)
def plan_ib() -> object:
    return plan(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=CATALOG)


@case("sweep, 3 presets x 128 sizes (8..1024)", 7)
def full_sweep() -> object:
    return sweep(scenario=Scenario(), catalog=CATALOG)


def _optimize_case(gpus: int, design: str) -> Callable[[], object]:
    from planner.inputs.optimize import request_from_data
    from planner.optimize import optimize

    request = request_from_data({})

    def run() -> object:
        return optimize(scenario=Scenario(gpus=gpus, design_id=design), catalog=CATALOG, request=request)

    return run


for _gpus, _repeat in ((8, 7), (64, 7), (256, 7), (1024, 7), (16384, 5)):
    CASES.append(
        (
            f"optimize min CAPEX, {_gpus} GPUs, ib-ndr (solve + engine check)",
            _optimize_case(_gpus, "ib-ndr"),
            _repeat,
        )
    )
CASES.append(("optimize min CAPEX, 1024 GPUs, rail8-npo", _optimize_case(1024, "rail8-npo"), 7))


def main() -> None:
    cpu = platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line
        ]
        cpu = names[0] if names else cpu
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}")
    print("| benchmark | median | runs |")
    print("|---|---|---|")
    for name, fn, repeat in CASES:
        fn()  # warm up
        times = timeit.repeat(fn, number=1, repeat=repeat)
        median_s = statistics.median(times)
        shown = f"{median_s * 1000:.2f} ms"
        print(f"| {name} | {shown} | {repeat} |")
    # Start-up of the CLI: whole processes, cold imports included (bench/bench_cli.py).
    timer, results = cli_timings(CLI_RUNS)
    for label, (median_s, cpu_s) in results:
        shown = f"{median_s * 1000:.0f} ms (CPU {cpu_s * 1000:.0f} ms)"
        print(f"| `{label}` (whole process, {timer}) | {shown} | {CLI_RUNS} |")


if __name__ == "__main__":
    main()
