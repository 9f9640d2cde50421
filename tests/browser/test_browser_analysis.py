"""The Optimize, Workload, Reliability and Scenarios pages in a real browser (Playwright + Chromium).

The optimizer's Pareto chart is drawn and a click on a point loads that design into the app; a
share link opens a saved scenario; every new page is screenshotted in both languages to
``artifacts/screenshots/`` (the 中文 ones from the run's shared 中文 visits, ``zh_pages``) (ignored by git; ``make screenshots`` refreshes the README's images).
The server's scenario store is a temporary SQLite file with a few saved scenarios (the run's
shared ``saved_url`` server).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import (
    ANALYSIS_PAGES,
    ARTIFACTS,
    full_page_screenshot,
    open_page,
    run_optimizer,
)
from playwright.sync_api import Page, expect
from walk import Visit

from planner.i18n import tr

pytestmark = pytest.mark.browser

PAGES = ANALYSIS_PAGES
TIMEOUT_MS = 60_000
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def saved_id(saved_store: tuple[Path, int]) -> tuple[str, int]:
    """The server's store (path) and the id of its first saved scenario."""
    return str(saved_store[0]), saved_store[1]


@pytest.fixture(scope="module")
def base_url(saved_url: str) -> str:
    """The app over the saved scenarios (the run's shared server; the conftest's ``base_url``
    serves an empty store)."""
    return saved_url


def heading(page: Page, text: str) -> None:
    expect(page.locator("h1", has_text=text)).to_be_visible()


def test_optimize_draws_the_front_and_a_click_loads_a_point(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/optimize?lang=en")
    heading(page, tr("page.optimize", "en"))
    run_optimizer(page, "en")
    point = (
        page.locator('[data-testid="stPlotlyChart"] .scatterlayer .trace')
        .first.locator(".points path")
        .nth(1)
    )
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.get_by_text(re.compile(r"^Loaded: Pareto point \d"))).to_be_visible()
    page.get_by_role("link", name=tr("page.overview", "en")).click()
    heading(page, tr("page.overview", "en"))
    expect(page.get_by_text("(custom)").first).to_be_visible()


def test_share_link_opens_a_saved_scenario(base_url: str, page: Page, saved_id: tuple[str, int]) -> None:
    page.goto(f"{base_url}/?scenario={saved_id[1]}&version=1&lang=zh")
    heading(page, tr("page.overview", "zh"))
    expect(page).to_have_url(
        re.compile(rf"scenario={saved_id[1]}.*version=1|version=1.*scenario={saved_id[1]}")
    )
    page.get_by_role("link", name=tr("page.scenarios", "zh")).click()
    expect(page.get_by_text(re.compile("Acme 1024-card supernode")).first).to_be_visible()


def test_screenshot_of_every_new_page_in_english(
    base_url: str, page: Page, saved_id: tuple[str, int]
) -> None:
    for name in PAGES:
        open_page(page, base_url, name, "en", scenario_id=saved_id[1] if name == "scenarios" else None)
        shot = full_page_screenshot(page, ARTIFACTS / f"en_{name}.png")
        assert shot.stat().st_size > 20_000


def test_screenshot_of_every_new_page_in_chinese(zh_pages: Callable[[str], Visit]) -> None:
    """From the run's one 中文 visit of each page (``zh_pages``: opened as :func:`open_page` opens
    it, the saved scenario open on the Scenarios page, then screenshotted), shared with the 中文
    walk."""
    for name in PAGES:
        seen = zh_pages(name)
        assert not seen.exceptions, (name, seen.exceptions)
        assert seen.screenshot is not None, name
        assert seen.screenshot.stat().st_size > 20_000
