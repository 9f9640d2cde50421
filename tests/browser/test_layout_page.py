"""The Layout page draws in the page, not only in its download files (issue 29, "Must show").

At 1280 px (a projector), in English and 中文, the Layout page must hold at least one drawn
element (an SVG with shapes, or a Plotly chart) between the "Racks in rows" heading and the next
heading, and between the "Rack elevations" heading and the next. The SVG files alone were
tested before; the page showed empty boxes because ``st.html`` strips SVG.
"""

from __future__ import annotations

import pytest
from harness import ARTIFACTS, full_page_screenshot
from playwright.sync_api import Page, expect

from planner.i18n import tr

pytestmark = pytest.mark.browser

TIMEOUT_MS = 120_000
"""A 1024-GPU hand-off (every cable placed) takes tens of seconds on a loaded 2-core machine."""
expect.set_options(timeout=TIMEOUT_MS)
WIDTH_PX = 1280

DRAWN_UNDER_JS = """(title) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const heads = [...main.querySelectorAll('h1, h2, h3')];
  const at = heads.findIndex(h => h.textContent.trim() === title);
  if (at < 0) return -1;
  const start = heads[at], end = heads[at + 1];
  const after = n => start.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING;
  const before = n => !end || (n.compareDocumentPosition(end) & Node.DOCUMENT_POSITION_FOLLOWING);
  const drawn = [...main.querySelectorAll('svg, .js-plotly-plot')].filter(n =>
    n.matches('.js-plotly-plot') || n.querySelectorAll('rect, path, line').length > 2);
  return drawn.filter(n => after(n) && before(n) && n.getBoundingClientRect().width > 0).length;
}"""
"""Drawn elements (an SVG with more than two shapes, which excludes icons, or a Plotly chart)
after the heading titled ``title`` and before the next heading; -1 without that heading."""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_layout_page_draws_floor_plan_and_elevations(page: Page, base_url: str, lang: str) -> None:
    page.set_viewport_size({"width": WIDTH_PX, "height": 900})
    page.goto(f"{base_url}/layout?lang={lang}")
    elevations = tr("layout.elevations", lang)
    expect(page.locator("h3", has_text=elevations)).to_be_visible()
    expect(page.locator('[data-testid="stMain"] .elevation svg').first).to_be_visible()
    for key in ("layout.floor", "layout.elevations"):
        count = page.evaluate(DRAWN_UNDER_JS, tr(key, lang))
        assert count >= 1, f"{lang}: nothing drawn under {tr(key, lang)!r} ({count})"
    floor = page.locator('[data-testid="stMain"] .floor-plan svg')
    box = floor.bounding_box()
    assert box is not None and 0 < box["width"] <= WIDTH_PX, "the floor plan fits the window"
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    full_page_screenshot(page, ARTIFACTS / f"layout_{lang}_{WIDTH_PX}.png", width=WIDTH_PX)
