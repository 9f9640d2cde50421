"""Time to open a share link (``/?scenario=ID``), and a new session's first page, in Chromium on a warm server.

Starts the app on 127.0.0.1 with a scenario store holding the browser tests' saved scenarios,
opens the link once to warm the server (imports, catalog, engine caches), then opens it
``--repetitions`` times, each in a fresh browser context (a new Streamlit session, as a
customer clicking the link would get, with an empty browser cache). Before each, a new
session opens ``/`` (the default scenario) the same way. Per opening, from ``page.goto``: the
time until the KPI cards are drawn (the shared scenario's values for the link) and until the
whole page is drawn (its first chart, no element still marked stale); the CPU time of the server
and of Chromium (their processes' own times from ``/proc``, so other work on a busy machine
inflates them much less than the wall times); the requests the page made and their bytes.
Chromium is the browser tests' (:mod:`harness`, its address-bar popup page off). Prints the medians, the load average and each
budget's verdict (:mod:`budgets`; exit code 1 over budget when idle).

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
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from budgets import over, verdict  # noqa: E402
from harness import CHROMIUM, CHROMIUM_ARGS, fill_store, new_context, streamlit_server  # noqa: E402
from playwright.sync_api import Browser, Page, Playwright, Request, expect, sync_playwright  # noqa: E402

from planner.i18n import tr  # noqa: E402

TIMEOUT_MS = 120_000


def launch(playwright: Playwright) -> Browser:
    """The browser tests' Chromium (:mod:`harness`)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


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
    """One opening: wall times from ``page.goto`` [s], CPU per process group [s], what it fetched."""

    cards_s: float
    whole_s: float
    server_cpu_s: float
    chromium_cpu_s: float
    requests: int
    fetched_bytes: int


def _drawn(page: Page, cards: Callable[[Page], None]) -> tuple[float, float]:
    """Wall times [s] from now until ``cards`` holds, then until the first chart is drawn and no
    element is stale; ``page.goto`` is called here."""
    start = time.perf_counter()
    cards(page)
    cards_s = time.perf_counter() - start
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    expect(page.locator('[data-stale="true"]')).to_have_count(0)
    return cards_s, time.perf_counter() - start


def open_page(browser: Browser, url: str, server: int, cards: Callable[[Page], None]) -> Sample:
    """One sample of ``url`` in a fresh browser context (a new session, empty browser cache):
    ``cards`` waits for the KPI cards, then the page is drawn (its first chart, nothing stale);
    CPU of the server process ``server`` and of Chromium, read before the tab is closed (its
    renderer's time ends with it) and 1 s after drawing (the session's last rerun finishes);
    the requests the page made and their body bytes."""
    before_server, before_client = cpu_s(server), chromium_cpu_s()
    context = new_context(browser, TIMEOUT_MS)
    page = context.new_page()
    finished: list[Request] = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(url)
    cards_s, whole_s = _drawn(page, cards)
    time.sleep(1.0)
    server_cpu = cpu_s(server) - before_server
    client_cpu = cpu_used_s(before_client, chromium_cpu_s())
    fetched = sum(request.sizes()["responseBodySize"] for request in finished)
    context.close()
    return Sample(cards_s, whole_s, server_cpu, client_cpu, len(finished), fetched)


def shared_cards(lang: str) -> Callable[[Page], None]:
    """Wait for the KPI cards to show the shared 1,024-GPU scenario."""

    def wait(page: Page) -> None:
        gpus = page.locator('[data-testid="stMetric"]', has_text=tr("kpi.gpus", lang)).first
        expect(gpus.locator('[data-testid="stMetricValue"]')).to_have_text("1,024")

    return wait


def any_cards(page: Page) -> None:
    """Wait for the first KPI card (a new session's default scenario)."""
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()


def report(name: str, samples: list[Sample]) -> None:
    """Print the medians of ``samples`` (one opening kind) and every wall time."""
    cards = [sample.cards_s for sample in samples]
    whole = [sample.whole_s for sample in samples]
    print(f"  {name}:")
    print(
        f"    KPI cards drawn: median {statistics.median(cards):.2f} s  (all: {', '.join(f'{c:.2f}' for c in cards)})"
    )
    print(
        f"    page drawn:      median {statistics.median(whole):.2f} s  (all: {', '.join(f'{w:.2f}' for w in whole)})"
    )
    print(
        f"    server CPU:      median {statistics.median(s.server_cpu_s for s in samples):.2f} s per opening"
    )
    print(
        f"    Chromium CPU:    median {statistics.median(s.chromium_cpu_s for s in samples):.2f} s per opening"
        " (tab open to 1 s after drawn)"
    )
    kib = statistics.median(s.fetched_bytes for s in samples) / 1024
    print(f"    fetched:         {samples[-1].requests} requests, median {kib:,.0f} KiB of bodies")


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
            open_page(browser, link, pid, shared_cards(args.lang))  # warm: imports, catalog, engine caches
            samples: list[Sample] = []
            first_render: list[Sample] = []
            for _ in range(args.repetitions):
                first_render.append(open_page(browser, f"{base}/?lang={args.lang}", pid, any_cards))
                samples.append(open_page(browser, link, pid, shared_cards(args.lang)))
            browser.close()
    print(f"{args.repetitions} samples each, warm server, {os.cpu_count()} CPUs")
    report("share link (/?scenario=ID)", samples)
    report("first render of a new session (/)", first_render)
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    whole = [sample.whole_s for sample in samples]
    first = statistics.median(sample.whole_s for sample in first_render)
    print("  " + verdict("share_link", statistics.median(whole)))
    print("  " + verdict("first_render", first))
    return 1 if over("share_link", statistics.median(whole)) or over("first_render", first) else 0


if __name__ == "__main__":
    raise SystemExit(main())
