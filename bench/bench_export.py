"""Benchmark of the PDF proposal export, run by hand; the medians go into the README.

``python bench/bench_export.py [--repeat 7] [--lang en|zh] [--edition customer|internal]
[--gpus 1024] [--design rail8-npo]``

Two timings, both on a warm browser (started, and one export run, before timing, as in the web
app where it stays warm; the cold start is reported separately):

- the proposal's nine charts: built and drawn as SVG (:func:`planner.report.proposal.chart_images`),
  and drawn only (:meth:`planner.report.export.browser.Browser.images` of the built figures,
  the part the browser's chart tab does);
- a full export, what ``planner export --pdf`` and the Proposal page's build do: plan the three
  designs, price them, build the nine charts, draw them, lay out the document and print it to
  PDF.

The load average is printed with the results: the machines are shared and noisy, so these
numbers are never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from budgets import over, verdict

from planner import Scenario, load_catalog
from planner.report import proposal
from planner.report.export.browser import ChartSpec, shared_browser


def _timed(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return times


def _summary(times: list[float]) -> str:
    return (
        f"median {statistics.median(times):.2f} s "
        f"(min {min(times):.2f}, max {max(times):.2f}, n={len(times)})"
    )


def group_pss_mb(root_pid: int) -> tuple[float, int]:
    """(proportional set size [MB], processes) of ``root_pid`` and all its descendants, from
    ``/proc/<pid>/smaps_rollup``: shared pages are divided among the processes that map them, so
    the sum is the memory the process group costs (summing RSS would count Chromium's shared
    library once per process)."""
    proc = Path("/proc")
    children: dict[int, list[int]] = {}
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total_kb, count, todo = 0, 0, [root_pid]
    while todo:
        pid = todo.pop()
        try:
            lines = (proc / str(pid) / "smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        count += 1
        total_kb += sum(int(line.split()[1]) for line in lines if line.startswith("Pss:"))
        todo += children.get(pid, [])
    return total_kb / 1024, count


def full_export(
    repeat: int = 5, *, lang: str = "zh", gpus: int = 1024, design: str = "rail8-npo"
) -> dict[str, float]:
    """A full PDF proposal export on a warm browser, as ``make bench`` reports it: Chromium's start
    [s], the median of ``repeat`` exports [s] and the browser's process group afterwards (PSS [MB],
    processes)."""
    catalog = load_catalog()
    options = proposal.options_from_data({"lang": lang, "edition": "customer", "proposed": design})
    scenario = Scenario(gpus=gpus, design_id=design)

    def export() -> bytes:
        return proposal.render_pdf(
            proposal.build_proposal(scenario=scenario, catalog=catalog, options=options)
        )

    started = time.perf_counter()
    browser = shared_browser()
    cold_start = time.perf_counter() - started
    export()  # warm-up: fonts and plotly.js loaded in the browser's tabs
    times = _timed(export, repeat)
    pss_mb, processes = group_pss_mb(browser._browser.subprocess.pid)
    browser.stop()
    return {
        "start_s": cold_start,
        "export_s": statistics.median(times),
        "pss_mb": pss_mb,
        "processes": processes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of each (at least 5)")
    parser.add_argument("--lang", choices=["en", "zh"], default="zh")
    parser.add_argument("--edition", choices=["customer", "internal"], default="customer")
    parser.add_argument("--gpus", type=int, default=1024)
    parser.add_argument("--design", default="rail8-npo", help="proposed design id")
    args = parser.parse_args()
    repeat = max(5, args.repeat)
    catalog = load_catalog()
    options = proposal.options_from_data(
        {
            "lang": args.lang,
            "edition": args.edition,
            "customer": "ACME",
            "project": "Pod 1",
            "author": "Bench",
            "proposed": args.design,
        }
    )
    scenario = Scenario(gpus=args.gpus, design_id=args.design)

    def build() -> proposal.Proposal:
        return proposal.build_proposal(scenario=scenario, catalog=catalog, options=options)

    def export() -> bytes:
        return proposal.render_pdf(build())

    started = time.perf_counter()
    browser = shared_browser()
    cold_start = time.perf_counter() - started
    pdf = export()  # warm-up: fonts and plotly.js loaded in the browser's tabs
    built = build()
    charts = len(proposal.chart_figures(built))
    chart_times = _timed(lambda: proposal.chart_images(built, browser), repeat)
    specs = [
        ChartSpec(fig, proposal.CHART_WIDTH_PX, int(fig.layout.height or 400), name=key)
        for key, fig in proposal.chart_figures(built)
    ]
    draw_times = _timed(
        lambda: browser.images(specs, fmt=proposal.CHART_FORMAT, scale=proposal.PNG_SCALE), repeat
    )
    export_times = _timed(export, repeat)
    pss_mb, processes = group_pss_mb(browser._browser.subprocess.pid)
    browser.stop()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load}"
    )
    print(f"browser start (once per process): {cold_start:.2f} s")
    where = f"{args.gpus} GPUs, {args.design}, {args.lang}/{args.edition}"
    print(f"{charts} charts built and drawn as SVG, {where}: {_summary(chart_times)}")
    print(f"{charts} charts drawn only (figures built before): {_summary(draw_times)}")
    print(f"full PDF export, {where}, 3 designs, {len(pdf):,} bytes: {_summary(export_times)}")
    print(f"browser process group after the exports: {processes} processes, PSS {pss_mb:.0f} MB")
    print(verdict("pdf", statistics.median(export_times)))
    return 1 if over("pdf", statistics.median(export_times)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
