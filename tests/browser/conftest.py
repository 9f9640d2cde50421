"""Fixtures the browser tests share: the app's servers, one Chromium for the run and a fresh page.

Two app servers serve every module that reads no server state of its own, each started once for
the run instead of once per module (a server's start and its first, cold page cost seconds of
CPU): ``base_url`` has an empty scenario store, ``saved_url`` the few saved scenarios of
:func:`harness.fill_store` (``saved_store``). A test that needs a server of its own (a fresh
process, another environment) starts one with :func:`harness.served`. The modules sharing a server
never depend on what another left in it: the pages they open are addressed by their URL, a
scenario they save goes in beside the saved ones, and the checks that read the store's list
(the 中文 walk) read it as it is when they run.

The 中文 pages are read once for the run (:func:`zh_pages`): the page walk's check of a page and
the screenshot tests' 中文 screenshot of it are made from one visit.

A module's ``TIMEOUT_MS`` (milliseconds) is the page's default timeout. Every test opens its own
browser context (a fresh profile: no cookie, no session carried over), so sharing the browser
process shares nothing a test can see; a module never starts Playwright or Chromium of its own
(two sync Playwright instances cannot run at once on one thread).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from harness import fill_store, launch, new_context, require_chromium, served
from playwright.sync_api import Browser, Page, sync_playwright
from walk import Visit, offsite_requests, visit


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


ZH_TIMEOUT_MS = 60_000
"""The default timeout [ms] of :func:`zh_pages`'s browser profile."""


@pytest.fixture(scope="session")
def zh_pages(
    browser: Browser, saved_url: str, saved_store: tuple[Path, int]
) -> Iterator[Callable[[str], Visit]]:
    """``zh_pages(name)``: the page ``name`` in 中文 on :func:`saved_url`, opened and read once for
    the run (:func:`walk.visit`: its text, exception boxes and, for the screenshot tests' pages,
    its full-page screenshot), in one 中文 browser profile (locale zh-CN) whose requests leaving
    localhost are refused. The 中文 walk checks each page's text from it and the screenshot tests
    their 中文 screenshots, so a page is loaded once for both, and each test still fails on its
    own. A visit that fails is not kept: the next test asking for the page opens it again."""
    context = new_context(browser, ZH_TIMEOUT_MS, locale="zh-CN")
    with offsite_requests(context):
        page = context.new_page()
        done: dict[str, Visit] = {}

        def read(name: str) -> Visit:
            if name not in done:
                done[name] = visit(page, saved_url, name, "zh", saved_store[1])
            return done[name]

        yield read
    context.close()
