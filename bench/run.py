"""Benchmarks of the engine, the CLI and the PDF export, run by hand (`make bench` writes the
README's table between its ``<!-- bench:begin -->`` and ``<!-- bench:end -->`` markers).

Engine cases: the CPU time of the standard library's ``timeit`` (warm: the catalog is loaded once,
as in the app and CLI), medians; CLI commands run as whole processes (bench/bench_cli.py, median
CPU of 5); the PDF export on a warm browser with its process group's memory
(bench/bench_export.py). The machine, date and load average before and after are written with
the table. Never asserted in tests: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import os
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_cli import timings as cli_timings
from bench_export import full_export

from planner import Scenario, load_catalog, plan, sweep

CASES: list[tuple[str, Callable[[], object], int]] = []


def case(name: str, repeat: int) -> Callable[[Callable[[], object]], Callable[[], object]]:
    def register(fn: Callable[[], object]) -> Callable[[], object]:
        CASES.append((name, fn, repeat))
        return fn

    return register


CATALOG = load_catalog()
CLI_RUNS = 5
"""Runs of each timed CLI command (its CPU is the median of these)."""
PDF_RUNS = 5
"""Timed full PDF exports."""
SWEEP_CASE = "sweep, 3 presets x 128 sizes (8..1024)"


@case("plan, 1024 GPUs, rail8-npo (warm)", 200)
def plan_1024() -> object:
    return plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=CATALOG)


@case("plan, 1024 GPUs, ib-ndr (warm)", 200)
def plan_ib() -> object:
    return plan(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=CATALOG)


_FRESH_SIZES = iter(range(1024, 0, -8))


@case("plan, ~1024 GPUs, rail8-npo, a new size each run (its cables laid out, not cached)", 25)
def plan_fresh() -> object:
    """A GPU-count edit: the plan lays its cables out again (planner/handoff/runs.py, counted per
    pair of devices: 153 ms before, about 5 ms since)."""
    return plan(scenario=Scenario(gpus=next(_FRESH_SIZES), design_id="rail8-npo"), catalog=CATALOG)


@case(SWEEP_CASE, 7)
def full_sweep() -> object:
    return sweep(scenario=Scenario(), catalog=CATALOG)


FIRST_SWEEP_CASE = "sweep, as above, first on its catalog (a new copy each run: nothing kept from before)"


@case(FIRST_SWEEP_CASE, 7)
def first_sweep() -> object:
    """The sweep on a catalog no plan has used: every answer the engine keeps per catalog (media,
    storage and management fabrics, cheapest parts) worked out again, as in a fresh process; the
    case above repeats the sweep on one catalog, as the app does when a sweep is edited."""
    return sweep(scenario=Scenario(), catalog=copy.copy(CATALOG))


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


SWEEP_PLANS = 384
"""Plans of the sweep case and of ``planner sweep``: 3 preset designs x 128 sizes (8..1024)."""


def _machine() -> str:
    cpu = platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line
        ]
        cpu = names[0] if names else cpu
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def engine_rows(only: str = "") -> tuple[list[str], dict[str, float]]:
    """The engine cases' rows (Markdown), each a median of CPU time, and the medians [s]; only the
    cases whose name contains ``only``."""
    lines = ["| benchmark | median | runs |", "|---|---|---|"]
    medians: dict[str, float] = {}
    for name, fn, repeat in CASES:
        if only not in name:
            continue
        fn()  # warm up
        # CPU time of this process: on a shared machine the wall time measures the neighbours too
        medians[name] = statistics.median(timeit.repeat(fn, number=1, repeat=repeat, timer=time.process_time))
        lines.append(f"| {name} | {medians[name] * 1000:.2f} ms | {repeat} |")
        if name in (
            SWEEP_CASE,
            FIRST_SWEEP_CASE,
        ):  # issue 24 bounds it (0.35 ms): a sweep shares its fixed costs
            per_plan = medians[name] / SWEEP_PLANS
            lines.append(
                f"| one plan in that sweep (sweep / {SWEEP_PLANS}) | {per_plan * 1000:.3f} ms | {repeat} |"
            )
    return lines, medians


def rows() -> list[str]:
    """The benchmark table's rows (Markdown), each a median."""
    lines, _ = engine_rows()
    # Start-up of the CLI: whole processes, cold imports included (bench/bench_cli.py).
    timer, results = cli_timings(CLI_RUNS)
    cpu = {}
    for label, (median_s, cpu_s) in results:
        cpu[label] = cpu_s
        shown = f"{median_s * 1000:.0f} ms (CPU {cpu_s * 1000:.0f} ms)"
        lines.append(f"| `{label}` (whole process, {timer}) | {shown} | {CLI_RUNS} |")
    plan_cpu = next(v for k, v in cpu.items() if k.startswith("planner plan"))
    sweep_cpu = next(v for k, v in cpu.items() if k.startswith("planner sweep"))
    lines.append(
        f"| CPU of `planner sweep` ({SWEEP_PLANS} plans) / CPU of one `planner plan` | "
        f"{sweep_cpu / plan_cpu:.2f} x | {CLI_RUNS} |"
    )
    pdf = full_export(PDF_RUNS)
    lines.append(f"| export Chromium start (once per process) | {pdf['start_s']:.2f} s | 1 |")
    lines.append(
        f"| full PDF proposal, zh, 1024 GPUs, 3 designs (warm browser) | {pdf['export_s']:.2f} s | {PDF_RUNS} |"
    )
    lines.append(
        f"| export Chromium after it: processes, memory (PSS, all processes) | "
        f"{pdf['processes']:.0f}, {pdf['pss_mb']:.0f} MB | 1 |"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true", help="write the table into README.md (make bench)")
    parser.add_argument(
        "--engine",
        metavar="TEXT",
        help="only the engine cases whose name contains TEXT ('' for all of them): no CLI, no PDF",
    )
    args = parser.parse_args()
    load_before = _load()
    if args.engine is not None:
        lines, _ = engine_rows(args.engine)
        print(f"{_machine()}, load average {load_before} before and {_load()} after (1, 5, 15 min)")
        print("\n".join(lines))
        return
    table = rows()
    header = (
        f"Measured with `make bench` (`bench/run.py`: stdlib `timeit` of CPU time, warm catalog; CLI commands as "
        f"whole processes, `bench/bench_cli.py`; the PDF export, `bench/bench_export.py`) on "
        f"{datetime.date.today().isoformat()}, {_machine()}, load average {load_before} before and "
        f"{_load()} after (1, 5, 15 min). Medians:"
    )
    text = header + "\n\n" + "\n".join(table)
    print(text)
    if args.readme:
        from tools.readme_blocks import write_block

        write_block("bench", text)
        print("README.md: bench block written")


if __name__ == "__main__":
    main()
