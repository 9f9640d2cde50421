"""Fixtures the browser tests share: the app's servers, one Chromium for the run and a fresh page.

Two app servers serve every module that reads no server state of its own, each started once for
the run instead of once per module (a server's start and its first, cold page cost seconds of
CPU): ``base_url`` has an empty scenario store, ``saved_url`` the few saved scenarios of
:func:`harness.fill_store` (``saved_store``). A test that needs a server of its own (a fresh
process, another environment) starts one with :func:`harness.served`. The modules sharing a server
never depend on what another left in it: the pages they open are addressed by their URL, a
scenario they save goes in beside the saved ones, and the checks that read the store's list
(the 中文 walk) read it as it is when they run.

A module's ``TIMEOUT_MS`` (milliseconds) is the page's default timeout. Every test opens its own
browser context (a fresh profile: no cookie, no session carried over), so sharing the browser
process shares nothing a test can see; a module never starts Playwright or Chromium of its own
(two sync Playwright instances cannot run at once on one thread).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import fill_store, launch, new_context, require_chromium, served
from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with an empty scenario store, shared by the run's browser modules."""
    with served(tmp_path_factory) as url:
        yield url


@pytest.fixture(scope="session")
def saved_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The store of :func:`saved_url` and the id of its first saved scenario (two versions)."""
    db = tmp_path_factory.mktemp("store") / "scenarios.db"
    return db, fill_store(db)


@pytest.fixture(scope="session")
def saved_url(saved_store: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app over :func:`saved_store`'s scenarios, shared by the run's browser modules."""
    with served(tmp_path_factory, saved_store[0]) as url:
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
