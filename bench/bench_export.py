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
    print(verdict("pdf", statistics.median(export_times)))
    return 1 if over("pdf", statistics.median(export_times)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
