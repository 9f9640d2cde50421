"""Benchmark of the CLI's start-up, run by hand (`make bench`); the medians go into the README.

``python bench/bench_cli.py [--runs 20]``

Each command runs as a whole process (interpreter start, imports, work, exit), as a user types
it: ``planner --help`` (the parser only) and ``planner plan --gpus 1024 --design rail8-npo
--format json`` (the engine, no pandas). Timed with hyperfine when it is installed
(``apt-get install hyperfine``), else with ``time.perf_counter`` around ``subprocess.run``.
Never asserted in tests: these machines are shared and noisy; tests/test_cli_startup.py checks
the imported modules instead.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("planner --help", ("--help",)),
    (
        "planner plan --gpus 1024 --design rail8-npo --format json",
        ("plan", "--gpus", "1024", "--design", "rail8-npo", "--format", "json"),
    ),
    # the three preset designs at every size from 8 to 1024 GPUs in steps of a server: 384 plans
    ("planner sweep --format json", ("sweep", "--format", "json")),
)
"""(label, arguments) of each timed command."""


def _planner() -> list[str]:
    """The installed console script, else ``python -m planner`` from this checkout."""
    script = Path(sys.executable).with_name("planner")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "planner"]


Timing = tuple[float, float]
"""(median wall time [s], CPU time, user + system [s]: the median of the runs, or hyperfine's
mean) of one command. On a busy machine the
wall time grows with the load; the CPU time is what the command itself costs."""


def _median_hyperfine(command: list[str], runs: int) -> Timing:
    """Timing of ``command`` over ``runs`` runs, after 3 warm-up runs, by hyperfine."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            ["hyperfine", "--warmup", "3", "--runs", str(runs), "--shell=none", "--export-json", str(report),
             "--style", "none", subprocess.list2cmdline(command)],
            check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        result = json.loads(report.read_text(encoding="utf-8"))["results"][0]
    return float(result["median"]), float(result["user"]) + float(result["system"])


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _median_perf_counter(command: list[str], runs: int) -> Timing:
    """Timing of ``command`` over ``runs`` runs, after 3 warm-up runs."""
    for _ in range(3):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    times, cpu = [], []
    for _ in range(runs):
        started, cpu_before = time.perf_counter(), _cpu_s()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
        cpu.append(_cpu_s() - cpu_before)
    return statistics.median(times), statistics.median(cpu)


def timings(runs: int) -> tuple[str, list[tuple[str, Timing]]]:
    """The timer used and (label, timing) of each command."""
    planner = _planner()
    if shutil.which("hyperfine"):
        return "hyperfine", [(label, _median_hyperfine([*planner, *args], runs)) for label, args in COMMANDS]
    return "perf_counter", [
        (label, _median_perf_counter([*planner, *args], runs)) for label, args in COMMANDS
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per command (at least 5)")
    args = parser.parse_args()
    timer, results = timings(max(5, args.runs))
    print(f"| command (whole process, {timer}) | median wall | CPU | runs |")
    print("|---|---|---|---|")
    for label, (median_s, cpu_s) in results:
        print(f"| `{label}` | {median_s * 1000:.0f} ms | {cpu_s * 1000:.0f} ms | {max(5, args.runs)} |")


if __name__ == "__main__":
    main()
