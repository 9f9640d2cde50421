"""The app's time budgets (issue 29) and the verdict a benchmark prints beside its median.

The budgets hold on an *idle* 2-core machine (one-minute load average below :data:`IDLE_LOAD`);
on a busier machine a benchmark still prints its numbers and the load, but no verdict: the
machines are shared, and a time measured under load 4-12 says how busy the machine was, not
whether the app is slow. Never asserted in tests.
"""

from __future__ import annotations

import os

BUDGETS: dict[str, tuple[float, str]] = {
    "first_render": (3.0, "s"),
    "share_link": (3.0, "s"),
    "input_to_kpi_p50": (300.0, "ms"),
    "pdf": (6.0, "s"),
}
"""Budget name -> (limit, unit): a new session's first page drawn (KPI cards and first chart), a
share link opened in a fresh browser, a typed input to its KPI card (median), a full customer PDF."""
IDLE_LOAD = 1.0
"""One-minute load average [-] below which a 2-core machine counts as idle."""
LOAD_AT_START = os.getloadavg()[0]
"""The one-minute load average when the benchmark started (this module is imported first): the
benchmark's own server and browser raise the load while it runs, which says nothing about how
busy the machine was, so the verdict judges the machine as the benchmark found it."""


def verdict(name: str, measured: float) -> str:
    """``"first_render: 2.41 s, budget 3 s: within"`` (or ``over``, or ``not judged`` when busy).

    >>> verdict("pdf", 5.0).startswith("pdf: 5.00 s, budget 6 s")
    True
    """
    limit, unit = BUDGETS[name]
    load = LOAD_AT_START
    shown = f"{measured:.0f} {unit}" if unit == "ms" else f"{measured:.2f} {unit}"
    head = f"{name}: {shown}, budget {limit:g} {unit}"
    if load >= IDLE_LOAD:
        return f"{head}: not judged (load average {load:.2f} at start, the budget holds on an idle machine)"
    return f"{head}: {'within' if measured <= limit else 'OVER'} (load average {load:.2f} at start)"


def over(name: str, measured: float) -> bool:
    """True when ``measured`` breaks the budget on an idle machine (the benchmark then exits 1)."""
    return LOAD_AT_START < IDLE_LOAD and measured > BUDGETS[name][0]
