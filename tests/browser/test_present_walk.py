"""Presentation mode walked in Chromium at 1280 px (a projector), in English and 中文 (issue 29).

An architect edits the scenario, enters presentation mode from the sidebar, and the customer sees:
no sidebar, the headline figures without change badges, CAPEX at the offered price (the customer
edition's figure: the proposal's default terms), the comparison drawn; leaving the mode brings the
sidebar back on the same scenario.
"""

from __future__ import annotations

import re

import pytest
from harness import ARTIFACTS, full_page_screenshot
from playwright.sync_api import Page, expect

from planner import Scenario, load_catalog
from planner.i18n import tr
from planner.report import proposal, tables

pytestmark = pytest.mark.browser

TIMEOUT_MS = 120_000
expect.set_options(timeout=TIMEOUT_MS)
WIDTH_PX = 1280


def offered_capex(gpus: int, lang: str) -> str:
    """The CAPEX card of the customer edition of a proposal for ``gpus`` (default terms)."""
    options = proposal.options_from_data({"lang": lang})
    p = proposal.build_proposal(scenario=Scenario(gpus=gpus), catalog=load_catalog(), options=options)
    return next(c.value for c in tables.kpis(p.plan, lang) if c.key == "kpi.capex")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presentation_walk(page: Page, base_url: str, lang: str) -> None:
    page.set_viewport_size({"width": WIDTH_PX, "height": 900})
    page.goto(f"{base_url}/?lang={lang}&gpus=512")
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()
    # an edit, so the overview's cards carry change badges the customer must not see
    gpus = sidebar.get_by_role("spinbutton").first  # the GPU count, the first input
    gpus.fill("256")
    gpus.press("Enter")
    expect(page.locator('[data-testid="stMetricDelta"]').first).to_be_visible()
    # the edit's run ends by writing the address; the walk clicks once it is there (a click before
    # it, carrying the old address, is test_app_workshop's test_present_right_after_an_edit_...)
    expect(page).to_have_url(re.compile(r"gpus=256"))
    sidebar.get_by_role("button", name=tr("workshop.present", lang)).click()
    expect(page.locator("h1", has_text=tr("page.present", lang))).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    expect(sidebar).to_be_hidden()
    expect(page.locator('[data-testid="stMetricDelta"]')).to_have_count(0)
    card = page.locator('[data-testid="stMetric"]', has_text=tr("kpi.capex", lang, years=5)).first
    # waits until the page's last run has drawn the card (a loaded machine may still be drawing)
    expect(card.locator('[data-testid="stMetricValue"]')).to_have_text(offered_capex(256, lang))
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    full_page_screenshot(page, ARTIFACTS / f"present_{lang}_{WIDTH_PX}.png", width=WIDTH_PX)
    page.get_by_role("button", name=tr("workshop.present_exit", lang)).click()
    expect(sidebar).to_be_visible()
    # the exit's run writes the address last: the sidebar can show before it (a one-shot read of
    # page.url raced it in a fresh-clone run), so wait for the address without the mode, then its GPUs
    expect(page).not_to_have_url(re.compile(r"present="))
    expect(page).to_have_url(re.compile(r"gpus=256"))
