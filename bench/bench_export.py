"""Benchmark of one full PDF proposal export, run by hand; the median goes into the README.

``python bench/bench_export.py [--repeat 7] [--lang en|zh] [--edition customer|internal]``

A full export is what ``planner export --pdf`` and the Proposal page's build do: plan the three
designs, price them, build the nine charts, draw them, lay out the document and print it to
PDF. The browser is started (and one export run) before timing, as in the web app where it
stays warm; the cold start is reported separately. Never asserted in tests: the machines are
shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner import Scenario, load_catalog
from planner.report import proposal
from planner.report.export.browser import shared_browser


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed exports (at least 5)")
    parser.add_argument("--lang", choices=["en", "zh"], default="zh")
    parser.add_argument("--edition", choices=["customer", "internal"], default="customer")
    parser.add_argument("--gpus", type=int, default=1024)
    args = parser.parse_args()
    catalog = load_catalog()
    options = proposal.options_from_data(
        {
            "lang": args.lang,
            "edition": args.edition,
            "customer": "ACME",
            "project": "Pod 1",
            "author": "Bench",
        }
    )
    scenario = Scenario(gpus=args.gpus)

    def export() -> bytes:
        p = proposal.build_proposal(scenario=scenario, catalog=catalog, options=options)
        return proposal.render_pdf(p)

    started = time.perf_counter()
    shared_browser()
    cold_start = time.perf_counter() - started
    pdf = export()  # warm-up: fonts and plotly.js loaded in the browser's tabs
    times = []
    for _ in range(max(5, args.repeat)):
        started = time.perf_counter()
        export()
        times.append(time.perf_counter() - started)
    shared_browser().stop()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"browser start (once per process): {cold_start:.2f} s")
    print(
        f"full PDF export, {args.gpus} GPUs, 3 designs, {args.lang}/{args.edition}, {len(pdf):,} bytes: "
        f"median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}, n={len(times)})"
    )


if __name__ == "__main__":
    main()
