"""Fixtures the browser tests share: the app's server, one Chromium per module and a fresh page.

A module that needs a server with saved scenarios overrides ``base_url`` (with
:func:`harness.served`); a module's ``TIMEOUT_MS`` (milliseconds) is the page's default timeout.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from harness import launch, new_context, require_chromium, served
from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with an empty scenario store, for the module."""
    with served(tmp_path_factory) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for the module (skipped, or failed in CI, without it)."""
    require_chromium()
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page in a fresh browser profile, its default timeout the module's ``TIMEOUT_MS``."""
    context = new_context(browser, request.module.TIMEOUT_MS)
    yield context.new_page()
    context.close()
