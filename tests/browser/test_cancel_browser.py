"""A real click on Cancel stops a long computation in Chromium (``ui/progress.py``).

The AppTests set the stop flag as the button's callback does; this test clicks the button while
the script runs, which is the part an AppTest cannot do: Streamlit must end the run at the next
progress report, the callback must set the flag in the rerun, and the computation started again
must stop at its first report. The Tenants page's simulation of its default 10,000 jobs under two
policies takes several seconds on this machine, long enough to click.
"""

from __future__ import annotations

import pytest
from harness import open_page
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from planner.i18n import tr

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
CLICKS = 6
RECHECK_MS = 30_000
"""How often Cancel is clicked again, and how long each click is given to stop the run [ms]."""
RUNS = 3
"""Runs started when every click of one was lost and the run ended."""
expect.set_options(timeout=TIMEOUT_MS)  # a cold first page takes several seconds on 2 cores


def _run_and_click_cancel(page: Page) -> bool:
    """Start the simulation and click Cancel while it runs; whether the run said it stopped."""
    page.get_by_role("button", name=tr("tn.sim.run", "en"), exact=True).click()
    cancel = page.get_by_role("button", name=tr("progress.cancel", "en"), exact=True)
    expect(cancel).to_be_visible()
    expect(page.locator('[data-testid="stProgress"]')).to_be_visible()
    # On a loaded machine (CI at load average ~9) Playwright's wait for a stable, attached button
    # timed out after 60 s while the bar kept updating ("element was detached from the DOM"); the
    # click is sent as a DOM event, which is what the button's handler receives from a user's click.
    # A click can also land on a button the next progress report replaces (a CI run at load ~8 lost
    # one: the simulation ran to its end); while the button is still there, click it again.
    stopped = page.get_by_text("nothing of this run was kept")
    for _ in range(CLICKS):
        try:
            cancel.dispatch_event("click", timeout=RECHECK_MS)
            expect(stopped).to_be_visible(timeout=RECHECK_MS)
            return True
        except (AssertionError, PlaywrightTimeoutError):  # the button went, or the run did not stop yet
            if stopped.count():
                return True
            if not cancel.count():
                break
    # every click was lost to a replaced button and the run ended (a loaded machine, a test session
    # of 2026-12 at load ~4): the run's results are drawn, and the test starts it again in a new session
    expect(cancel).to_have_count(0)
    return False


def test_clicking_cancel_stops_the_tenants_simulation(page: Page, base_url: str) -> None:
    stopped_once = False
    for _ in range(RUNS):  # a new session each time: a run that ended leaves its results on screen
        page.goto("about:blank")  # so that the page is loaded from its address, not followed by link
        open_page(page, base_url, "tenants", "en")
        stopped_once = _run_and_click_cancel(page)
        if stopped_once:
            break
    assert stopped_once, f"a click on Cancel stopped none of {RUNS} runs"
    expect(page.get_by_text("nothing of this run was kept")).to_be_visible()
    expect(page.get_by_role("button", name=tr("progress.cancel", "en"), exact=True)).to_have_count(0)
    expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
    # no results table of a simulation: nothing half-done is shown
    expect(page.get_by_text(tr("tn.sim.utilization", "en"), exact=True)).to_have_count(0)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
