"""Time to open a share link (``/?scenario=ID``), and a new session's first page, in Chromium on a warm server.

Starts the app on 127.0.0.1 with a scenario store holding the browser tests' saved scenarios,
opens the link once to warm the server (imports, catalog, engine caches), then opens it
``--repetitions`` times, each in a fresh browser context (a new Streamlit session, as a
customer clicking the link would get). Two times per sample, from ``page.goto``: the KPI
cards drawn with the shared scenario's values, and the whole page drawn (its first chart and
no element still marked stale); and the CPU time per opening of the server and of Chromium (its
processes' own times from ``/proc``, so other work on a busy machine does not inflate them). Before each, a new session opens ``/`` (the
default scenario) and is timed until its KPI cards and first chart are drawn. Prints the medians,
the load average and each budget's verdict (:mod:`budgets`; exit code 1 over budget when idle).

Usage::

    .venv/bin/python bench/share_link.py [--repetitions 5] [--lang en]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from budgets import over, verdict  # noqa: E402
from harness import fill_store, launch, new_context, streamlit_server  # noqa: E402
from playwright.sync_api import Browser, expect, sync_playwright  # noqa: E402

from planner.i18n import tr  # noqa: E402

TIMEOUT_MS = 120_000


def server_pid(url: str) -> int:
    """The process serving ``url``'s port (the harness's ``streamlit run``)."""
    port = url.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(command) and port.encode() in command:
            return int(entry.name)
    raise RuntimeError(f"no streamlit process serves {url}")


def cpu_s(pid: int) -> float:
    """User + system CPU time of a process and its threads [s] (/proc/PID/stat fields 14, 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def chromium_cpu_s() -> dict[int, float]:
    """CPU time of each live Chromium process this benchmark started (its descendants) [s], by pid."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                head, tail = (entry / "stat").read_text().rsplit(")", 1)
            except OSError:
                continue
            parents[int(entry.name)] = int(tail.split()[1])
            names[int(entry.name)] = head.split("(", 1)[1]

    def mine(pid: int) -> bool:
        while pid > 1:
            if pid == os.getpid():
                return True
            pid = parents.get(pid, 1)
        return False

    times: dict[int, float] = {}
    for pid, name in names.items():
        if "chrom" in name and mine(pid):
            try:
                times[pid] = cpu_s(pid)
            except OSError:  # it ended between the two reads
                continue
    return times


def cpu_used_s(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU spent between two :func:`chromium_cpu_s` snapshots [s]: per process alive at the end,
    its time minus its time before (0 for a process started since). A process that ended in
    between (the previous tab's renderer) is left out: summing the two totals instead subtracted
    its whole lifetime, which made the median negative.

    >>> cpu_used_s({1: 5.0, 2: 3.0}, {1: 5.5, 3: 0.25})
    0.75
    """
    return sum(time_s - before.get(pid, 0.0) for pid, time_s in after.items())


class Sample(NamedTuple):
    """One share-link opening: wall times from ``page.goto`` [s] and CPU per process group [s]."""

    cards_s: float
    whole_s: float
    server_cpu_s: float
    chromium_cpu_s: float


def open_link(browser: Browser, url: str, lang: str, server: int) -> Sample:
    """One sample: the KPI cards show the shared 1,024-GPU scenario, then the page fully drawn;
    CPU of the server process ``server`` and of Chromium, read before the tab is closed (its
    renderer's time ends with it) and 1 s after drawing (the session's last rerun finishes)."""
    before_server, before_client = cpu_s(server), chromium_cpu_s()
    context = new_context(browser, TIMEOUT_MS)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    gpus = page.locator('[data-testid="stMetric"]', has_text=tr("kpi.gpus", lang)).first
    expect(gpus.locator('[data-testid="stMetricValue"]')).to_have_text("1,024")
    cards = time.perf_counter() - start
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    expect(page.locator('[data-stale="true"]')).to_have_count(0)
    whole = time.perf_counter() - start
    time.sleep(1.0)
    server_cpu = cpu_s(server) - before_server
    client_cpu = cpu_used_s(before_client, chromium_cpu_s())
    context.close()
    return Sample(cards, whole, server_cpu, client_cpu)


def open_first(browser: Browser, url: str) -> float:
    """One sample [s]: a new session's first page (the default scenario) drawn: KPI cards and
    the first chart, nothing stale."""
    context = new_context(browser, TIMEOUT_MS)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    expect(page.locator('[data-stale="true"]')).to_have_count(0)
    drawn = time.perf_counter() - start
    context.close()
    return drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--lang", default="en", choices=("en", "zh"))
    args = parser.parse_args()
    expect.set_options(timeout=TIMEOUT_MS)
    with tempfile.TemporaryDirectory(prefix="planner-share-") as scratch:
        db = Path(scratch) / "scenarios.db"
        saved_id = fill_store(db)
        with streamlit_server(db_path=db) as base, sync_playwright() as playwright:
            browser = launch(playwright)
            link = f"{base}/?scenario={saved_id}&lang={args.lang}"
            pid = server_pid(base)
            open_link(browser, link, args.lang, pid)  # warm: imports, catalog, the engine's caches
            samples: list[Sample] = []
            first_render: list[float] = []
            for _ in range(args.repetitions):
                first_render.append(open_first(browser, f"{base}/?lang={args.lang}"))
                samples.append(open_link(browser, link, args.lang, pid))
            browser.close()
    cards = [sample.cards_s for sample in samples]
    whole = [sample.whole_s for sample in samples]
    cpu = [sample.server_cpu_s for sample in samples]
    client = [sample.chromium_cpu_s for sample in samples]
    print(f"share link, {args.repetitions} samples, warm server, {os.cpu_count()} CPUs")
    print(
        f"  KPI cards drawn: median {statistics.median(cards):.2f} s  (all: {', '.join(f'{c:.2f}' for c in cards)})"
    )
    print(
        f"  page drawn:      median {statistics.median(whole):.2f} s  (all: {', '.join(f'{w:.2f}' for w in whole)})"
    )
    print(f"  server CPU:      median {statistics.median(cpu):.2f} s per opening")
    print(
        f"  Chromium CPU:    median {statistics.median(client):.2f} s per opening (tab open to 1 s after drawn)"
    )
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    first = statistics.median(first_render)
    print(f"  first render of a new session (/, KPI cards and first chart): median {first:.2f} s")
    print("  " + verdict("share_link", statistics.median(whole)))
    print("  " + verdict("first_render", first))
    return 1 if over("share_link", statistics.median(whole)) or over("first_render", first) else 0


if __name__ == "__main__":
    raise SystemExit(main())
