"""The Optimize, Workload, Reliability and Scenarios pages in a real browser (Playwright + Chromium).

The optimizer's Pareto chart is drawn and a click on a point loads that design into the app; a
share link opens a saved scenario; every new page is screenshotted in both languages to
``artifacts/screenshots/`` (a few are copied to ``docs/screenshots/`` for the README). The server
uses its own scenario store, a temporary SQLite file with a few saved scenarios.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ARTIFACTS, ROOT, full_page_screenshot, launch, require_chromium, streamlit_server
from playwright.sync_api import Browser, Page, expect, sync_playwright

from planner import Scenario
from planner.i18n import tr
from planner.store import open_store

pytestmark = pytest.mark.browser

PAGES = ("optimize", "workload", "reliability", "scenarios")
DOCS = ROOT / "docs" / "screenshots"
FOR_THE_README = ("en_optimize.png", "en_workload.png", "zh_reliability.png", "en_scenarios.png")
TIMEOUT_MS = 60_000
expect.set_options(timeout=TIMEOUT_MS)


def _fill_store(path: Path) -> int:
    """A few saved scenarios, as a pre-sales team would have them; returns the first one's id."""
    with open_store(path=path) as store:
        acme = store.create(
            name="Acme 1024-card supernode",
            scenario=Scenario(gpus=1024, design_id="rail8-npo"),
            customer="Acme AI",
            tags=["workshop", "q4"],
            notes="First proposal from the workshop.",
            author="pre-sales",
            comment="8 rails, as in the source document",
        )
        store.save(
            scenario_id=acme.id,
            scenario=Scenario(gpus=1024, design_id="rail4-npo"),
            expected_version=1,
            author="pre-sales",
            comment="customer asked for 4 rails",
        )
        store.create(
            name="Acme InfiniBand baseline",
            scenario=Scenario(gpus=1024, design_id="ib-ndr"),
            customer="Acme AI",
            tags=["baseline"],
        )
        store.create(
            name="Globex 256-card pilot",
            scenario=Scenario(gpus=256, design_id="rail4-npo"),
            customer="Globex",
            tags=["pilot"],
        )
        return acme.id


@pytest.fixture(scope="module")
def saved_id(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """The server's store (path) and the id of its first saved scenario."""
    db = tmp_path_factory.mktemp("store") / "scenarios.db"
    return str(db), _fill_store(db)


@pytest.fixture(scope="module")
def base_url(saved_id: tuple[str, int], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_chromium()
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    with pytest.MonkeyPatch.context() as env:
        env.delenv("PLANNER_DATABASE_URL", raising=False)
        env.setenv("PLANNER_DB_PATH", saved_id[0])  # the server process inherits it
        with log_path.open("wb") as log, streamlit_server(log=log) as url:
            yield url


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    yield tab
    context.close()


def heading(page: Page, text: str) -> None:
    expect(page.locator("h1", has_text=text)).to_be_visible()


def optimize(page: Page, lang: str) -> None:
    page.get_by_role("button", name=tr("opt.submit", lang), exact=True).click()
    expect(page.get_by_text(tr("opt.pareto", lang), exact=True)).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"] .scatterlayer .points path').first).to_be_visible()


def test_optimize_draws_the_front_and_a_click_loads_a_point(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/optimize?lang=en")
    heading(page, tr("page.optimize", "en"))
    optimize(page, "en")
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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshot_of_every_new_page(
    base_url: str, page: Page, lang: str, saved_id: tuple[str, int]
) -> None:
    for name in PAGES:
        query = f"lang={lang}" + (f"&scenario={saved_id[1]}" if name == "scenarios" else "")
        page.goto(f"{base_url}/{name}?{query}")
        heading(page, tr(f"page.{name}", lang))
        expect(page.get_by_text("Page not found")).to_have_count(0)
        if name == "optimize":
            optimize(page, lang)
        elif name == "scenarios":
            expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
        else:
            expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
        page.wait_for_timeout(800)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        shot = full_page_screenshot(page, ARTIFACTS / f"{lang}_{name}.png")
        assert shot.stat().st_size > 20_000
        if shot.name in FOR_THE_README:
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, DOCS / shot.name)
