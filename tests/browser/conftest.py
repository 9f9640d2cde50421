"""Fixtures the browser tests share: the app's server, one Chromium for the run and a fresh page.

A module that needs a server with saved scenarios overrides ``base_url`` (with
:func:`harness.served`); a module's ``TIMEOUT_MS`` (milliseconds) is the page's default timeout.
Every test opens its own browser context (a fresh profile: no cookie, no session carried over), so
sharing the browser process shares nothing a test can see; a module never starts Playwright or
Chromium of its own (two sync Playwright instances cannot run at once on one thread).
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


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Chromium for the run (skipped, or failed in CI, without it): started once, not once per
    module (Playwright's driver and Chromium take seconds of CPU to start)."""
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
