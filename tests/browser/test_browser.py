"""The app in a real browser: Playwright for Python driving Debian's Chromium.

A workshop in miniature: open a shared link, switch to Chinese, change the GPU count, see a
chart and a KPI update, switch pages, and save a screenshot of every page in both languages to
``artifacts/screenshots/`` (the 中文 ones from the run's shared 中文 visits, ``zh_pages``) (ignored by git; ``make screenshots`` refreshes the README's images).
Skipped only when Chromium is missing outside CI; in CI (``CI`` set)
a missing Chromium fails the run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from harness import ARTIFACTS, CORE_PAGES, full_page_screenshot, open_page, served
from playwright.sync_api import Locator, Page, expect
from walk import Visit

from planner.i18n import tr

pytestmark = pytest.mark.browser

PAGES = CORE_PAGES
TIMEOUT_MS = 30_000
expect.set_options(timeout=TIMEOUT_MS)


def kpi(page: Page, label: str) -> Locator:
    """The value of the KPI card whose label is exactly ``label``."""
    card = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{re.escape(label)}$"))
    )
    return card.locator('[data-testid="stMetricValue"]')


def heading(page: Page, text: str) -> None:
    expect(page.locator("h1", has_text=text)).to_be_visible()


@pytest.fixture
def fresh_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this test's own, whose first request the test makes (the run's shared
    ``base_url`` has served other pages before)."""
    with served(tmp_path_factory) as url:
        yield url


def test_shared_link_opens_the_same_view(fresh_url: str, page: Page) -> None:
    """The first request of a fresh server is a page URL: the frame must still run around it."""
    base_url = fresh_url
    page.goto(f"{base_url}/compare?lang=zh&gpus=256&design=rail4-npo")
    heading(page, tr("page.compare", "zh"))
    expect(page.locator('[data-testid="stPlotlyChart"]').first).to_be_visible()
    page.goto(f"{base_url}/?lang=zh&gpus=256&design=rail4-npo")
    heading(page, tr("page.overview", "zh"))
    expect(kpi(page, tr("kpi.gpus", "zh"))).to_have_text("256")
    expect(page.get_by_text("4轨 RoCE + NPO 光互连").first).to_be_visible()


def test_workshop_flow_in_chinese(base_url: str, page: Page) -> None:
    page.goto(base_url)
    heading(page, tr("page.overview", "en"))
    page.get_by_role("radio", name="中文").click()
    heading(page, tr("page.overview", "zh"))
    gpus, capex = kpi(page, tr("kpi.gpus", "zh")), kpi(page, tr("kpi.capex", "zh"))
    expect(gpus).to_have_text("1,024")
    capex_before = capex.inner_text()
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    expect(chart.locator(".main-svg").first).to_be_visible()

    field = page.get_by_role("spinbutton", name=tr("input.gpus", "zh"))
    field.fill("256")
    field.press("Enter")
    expect(gpus).to_have_text("256")
    expect(capex).not_to_have_text(capex_before)
    expect(chart.locator(".main-svg").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"gpus=256"))

    page.get_by_role("link", name=tr("page.compare", "zh")).click()
    heading(page, tr("page.compare", "zh"))
    # the cost per outcome with its band and probabilities, then the comparison's four charts
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(5)
    expect(page.get_by_text(tr("compare.claims", "zh"))).to_be_visible()
    expect(page).to_have_url(re.compile(r"lang=zh"))

    page.get_by_role("link", name=tr("page.overview", "zh")).click()
    expect(kpi(page, tr("kpi.gpus", "zh"))).to_have_text("256")  # the scenario survives the page switch


def test_bad_input_shows_a_message_next_to_it(base_url: str, page: Page) -> None:
    page.goto(f"{base_url}/?lang=en")
    heading(page, tr("page.overview", "en"))
    field = page.get_by_role("spinbutton", name=tr("input.rack_kw", "en"))
    field.fill("5")
    field.press("Enter")
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text(re.compile("rack_power_limit_kw.*allowed"))).to_be_visible()
    expect(kpi(page, tr("kpi.gpus", "en"))).to_have_text("1,024")
    field.fill("40")
    field.press("Enter")
    expect(sidebar.get_by_text(re.compile("rack_power_limit_kw"))).to_have_count(0)


def test_screenshot_of_every_page_in_english(base_url: str, page: Page) -> None:
    for name in PAGES:
        open_page(page, base_url, name, "en")
        shot = full_page_screenshot(page, ARTIFACTS / f"en_{name}.png")
        assert shot.stat().st_size > 20_000


def test_screenshot_of_every_page_in_chinese(zh_pages: Callable[[str], Visit]) -> None:
    """From the run's one 中文 visit of each page (``zh_pages``: opened as :func:`open_page` opens
    it, on the server over the saved scenarios, then screenshotted), shared with the 中文 walk."""
    for name in PAGES:
        seen = zh_pages(name)
        assert not seen.exceptions, (name, seen.exceptions)
        assert seen.screenshot is not None, name
        assert seen.screenshot.stat().st_size > 20_000
