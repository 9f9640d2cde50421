"""Sign-in end to end: a real OpenID Connect provider (``oidc-provider-mock``), the app with
Streamlit's own login configured through ``STREAMLIT_SECRETS_FILES``, and Chromium.

Viewer, architect and commercial users sign in through the provider's form; only the commercial
user sees internal cost (the overview's CAPEX at cost, the internal edition's files); a viewer's
forged URL to the internal edition and to the BOM page is refused. The provider's users carry a
``roles`` claim, which :func:`planner.access.role_from_claims` reads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import harness
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from planner import Scenario, load_catalog, plan
from planner.access import Identity, priced_catalog
from planner.i18n import tr
from planner.report import fmt, tables
from planner.store import open_store
from ui.auth import PRICE_FACTOR

pytestmark = pytest.mark.browser

USERS = {
    "viewer": {"sub": "vera", "email": "vera@example.com", "name": "Vera", "roles": ["viewer"]},
    "architect": {
        "sub": "archie",
        "email": "archie@example.com",
        "name": "Archie",
        "roles": ["architect"],
        "teams": ["sales"],
    },
    "commercial": {
        "sub": "cora",
        "email": "cora@example.com",
        "name": "Cora",
        "roles": ["commercial"],
        "teams": ["sales"],
    },
}
TIMEOUT_MS = 60_000
PRICED = Scenario(gpus=256, price_overrides_usd={"br100": 9_000.0})


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    """The OIDC provider on a free port of 127.0.0.1, with the three users predefined."""
    port = harness.free_port()
    command = [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)]
    for claims in USERS.values():
        command += ["--user-claims", json.dumps(claims)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not _answers(f"{url}/.well-known/openid-configuration"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"oidc-provider-mock did not start on {url}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.fixture(scope="module")
def app_url(provider: str) -> Iterator[str]:
    """The app with sign-in configured (secrets file outside the checkout) and its own store."""
    harness.require_chromium()
    with tempfile.TemporaryDirectory(prefix="planner-signin-") as scratch:
        secrets = Path(scratch) / "secrets.toml"
        secrets.write_text(
            "[auth]\n"
            'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'  # Streamlit fills in its port
            'cookie_secret = "a-long-random-cookie-secret-for-the-test"\n'
            'client_id = "planner"\n'
            'client_secret = "planner-secret"\n'
            f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n',
            encoding="utf-8",
        )
        env = {k: v for k, v in os.environ.items() if k != "PLANNER_DATABASE_URL"}
        database = Path(scratch) / "s.db"
        with open_store(
            path=database
        ) as store:  # Cora's scenario with a negotiated GPU price, shared with sales
            cora = Identity(
                user="cora@example.com", name="Cora", role="commercial", teams=("sales",), signed_in=True
            )
            store.as_user(identity=cora).create(name="Acme priced", scenario=PRICED)
        env |= {"STREAMLIT_SECRETS_FILES": str(secrets), "PLANNER_DB_PATH": str(database)}
        with harness._serve(env, None, 90.0) as url:  # the harness's server, with this environment
            yield url


def capex_text(*, priced: bool) -> str:
    catalog = load_catalog()
    if priced:
        catalog = priced_catalog(catalog=catalog, price_factor=PRICE_FACTOR)
    p = plan(scenario=Scenario(), catalog=catalog)
    money = tables.money_of(p)
    return fmt.money(money(p.cost.capex_usd), money.currency, "en")


def signed_in_as(page: Page, role: str) -> None:
    """Wait until the app names the signed-in user's role (the sidebar's "(Viewer)")."""
    expect(page.get_by_text(f"({tr(f'auth.role.{role}', 'en')})")).to_be_visible(timeout=TIMEOUT_MS)


def sign_in(browser: Browser, base_url: str, role: str) -> Page:
    """A fresh browser profile signed in as ``role`` through the provider's form, on the overview."""
    page = harness.new_context(browser, TIMEOUT_MS).new_page()
    page.goto(base_url)
    expect(page.get_by_text(tr("auth.sign_in_needed", "en"))).to_be_visible(timeout=TIMEOUT_MS)
    page.get_by_role("button", name=tr("auth.sign_in", "en")).click()
    # the provider's form: one button per predefined user
    page.get_by_role("button", name=str(USERS[role]["sub"]), exact=True).click()
    signed_in_as(page, role)
    return page


@pytest.fixture(scope="module")
def open_as(browser: Browser, app_url: str) -> Iterator[Callable[..., Page]]:
    """``open_as(role, path="")``: a new page (a new Streamlit session) on the page at url path
    ``path`` (the overview by default), in a browser profile signed in as ``role``. Each role signs
    in through the provider's form once for the module (:func:`sign_in`; the first page is that
    sign-in's, on the overview), and its later pages carry the sign-in's cookie as a user's next
    tab does: a sign-in is a round trip through the provider and the app's first page, seconds of
    CPU each. A later page opens ``path`` directly (not the overview first)."""
    profiles: dict[str, BrowserContext] = {}

    def open_page(role: str, path: str = "") -> Page:
        if role not in profiles:
            page = sign_in(browser, app_url, role)
            profiles[role] = page.context
            if path:
                page.goto(f"{app_url}/{path}")
                signed_in_as(page, role)
            return page
        page = profiles[role].new_page()
        page.goto(f"{app_url}/{path}")
        signed_in_as(page, role)
        return page

    yield open_page
    for context in profiles.values():
        context.close()


def capex_on(page: Page) -> str:
    card = page.locator('[data-testid="stMetric"]', has_text=tr("kpi.capex", "en")).first
    expect(card).to_be_visible(timeout=TIMEOUT_MS)
    return str(card.locator('[data-testid="stMetricValue"]').inner_text()).strip()


def test_only_commercial_sees_internal_cost(open_as: Callable[..., Page], app_url: str) -> None:
    for role, priced in (("viewer", True), ("architect", True), ("commercial", False)):
        page = open_as(role)
        assert capex_on(page) == capex_text(priced=priced), role
        page.goto(f"{app_url}/proposal?edition=internal")
        refusal = page.get_by_text("edition=internal: internal costs")
        if priced:
            expect(refusal).to_be_visible(timeout=TIMEOUT_MS)
            expect(page.get_by_role("button", name=tr("export.download.csv", "en"))).to_have_count(0)
        else:
            button = page.get_by_role("button", name=tr("export.download.csv", "en"))
            expect(button).to_be_visible(timeout=TIMEOUT_MS)
            with page.expect_download() as download:
                button.click()
            header = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()[0]
            assert "unit_cost" in header, header  # the internal edition's cost columns
            expect(refusal).to_have_count(0)
        page.close()


def test_a_viewers_forged_urls_are_refused(open_as: Callable[..., Page], app_url: str) -> None:
    page = open_as("viewer")
    for path in ("bom", "scenarios", "catalog"):
        page.goto(f"{app_url}/{path}")
        expect(
            page.get_by_text(tr("auth.page_refused", "en", role=tr("auth.role.viewer", "en")))
        ).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator('[data-testid="stMetric"]')).to_have_count(0)
    page.goto(f"{app_url}/proposal")
    button = page.get_by_role("button", name=tr("export.download.csv", "en"))
    with page.expect_download() as download:
        button.click()
    header = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()[0]
    assert "unit_cost" not in header and "margin" not in header, header  # the customer edition
    page.close()


def scenario_json(page: Page) -> dict[str, object]:
    """The Scenarios page's export of the first saved scenario, as downloaded (``page``: the
    Scenarios page)."""
    button = page.get_by_role("button", name=tr("sc.export", "en"))
    expect(button).to_be_visible(timeout=TIMEOUT_MS)
    with page.expect_download() as download:
        button.click()
    loaded: dict[str, object] = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    return loaded


def test_scenario_json_carries_internal_prices_only_for_commercial(
    open_as: Callable[..., Page], app_url: str
) -> None:
    for role, overrides in (("architect", {}), ("commercial", {"br100": 9000.0})):
        page = open_as(role, "scenarios")
        document = scenario_json(page)
        assert document["name"] == "Acme priced"
        assert document["scenario"]["price_overrides_usd"] == overrides, role  # type: ignore[index]
        page.close()


VIEWER_WALK = ("overview", "compare", "scaling", "topology", "proposal")
"""The pages a viewer opens in a workshop (planner.access.VIEWER_PAGES without presentation)."""


@dataclass(frozen=True)
class ViewerPage:
    """One page as the signed-in viewer's walk saw it (:func:`viewer_pages`)."""

    refusals: int
    """How many times the page said the viewer's role may not open it."""
    exceptions: int
    """Exception boxes on the page."""
    text: str
    """The main block's text as drawn (``innerText``)."""
    csv_downloads: tuple[str, ...]
    """The content of each file the page's CSV download buttons gave."""


@pytest.fixture(scope="module")
def viewer_pages(open_as: Callable[..., Page], app_url: str) -> dict[str, ViewerPage]:
    """Every page a viewer may open (but the presentation page, which shows the overview's), opened
    once in one signed-in viewer's session (the first by its address, the others by their links
    in the navigation bar while the session's address is a fresh one's: :func:`harness.go_to`)
    and read for both viewer tests below: each page's title awaited and the app's run over,
    then its refusals, exception boxes and text read, then every CSV download button pressed
    and its file kept (a page load costs seconds of CPU)."""
    from planner.access import VIEWER_PAGES

    refused = tr("auth.page_refused", "en", role=tr("auth.role.viewer", "en"))
    page = open_as("viewer")
    seen: dict[str, ViewerPage] = {}
    for name in dict.fromkeys([*VIEWER_WALK, *sorted(VIEWER_PAGES - {"present"})]):
        # by the navigation bar's link once the session's state is a fresh one's (harness.go_to)
        loaded = harness.go_to(page, app_url, name, "", tr(f"page.{name}", "en"))
        expect(page.locator("h1", has_text=tr(f"page.{name}", "en"))).to_be_visible(timeout=TIMEOUT_MS)
        harness.settle(page)  # the run's last charts and tables
        if loaded:
            harness.fresh_session_seen(page, app_url, "")
        refusals = page.get_by_text(refused).count()
        exceptions = page.locator('[data-testid="stException"]').count()
        text = page.locator('[data-testid="stMain"]').inner_text()
        files = []
        for button in page.get_by_role("button", name=tr("export.download.csv", "en")).all():
            with page.expect_download() as download:
                button.click()
            files.append(Path(download.value.path()).read_text(encoding="utf-8-sig"))
        seen[name] = ViewerPage(
            refusals=refusals, exceptions=exceptions, text=text, csv_downloads=tuple(files)
        )
    page.close()
    return seen


def test_a_viewers_walk(
    open_as: Callable[..., Page], viewer_pages: dict[str, ViewerPage], app_url: str
) -> None:
    """A viewer's walk (issue 29): the start-here steps name only pages the viewer may open, the
    navigation bar lists exactly those, and each opens with its title and no exception or refusal
    (the pages as :func:`viewer_pages` read them)."""
    page = open_as("viewer")
    expect(page.get_by_text(tr("page.compare", "en"), exact=True).first).to_be_visible(timeout=TIMEOUT_MS)
    welcome = page.locator(".st-key-welcome_box")
    expect(welcome).to_be_visible(timeout=TIMEOUT_MS)
    assert tr("page.scenarios", "en") not in welcome.inner_text()
    links = page.locator('.st-key-nav_bar [data-testid="stPageLink"] a')
    # the bar is drawn link by link: read it once all are there (a loaded CI machine read it early)
    expect(links).to_have_count(len(VIEWER_WALK), timeout=TIMEOUT_MS)
    listed = {a.inner_text().strip().splitlines()[-1] for a in links.all()}  # after the icon
    assert listed == {tr(f"page.{p}", "en") for p in VIEWER_WALK}
    page.close()
    for name in VIEWER_WALK:
        assert viewer_pages[name].refusals == 0, name
        assert viewer_pages[name].exceptions == 0, name


def test_a_viewers_pages_and_downloads_show_no_cost_margin_or_discount(
    viewer_pages: dict[str, ViewerPage],
) -> None:
    """Every page a viewer may open, as the browser draws it, and the files it offers: no margin or
    discount field or figure, and no figure at internal cost (the hostile-input issue, item 5); the
    pages as :func:`viewer_pages` read them."""
    from planner.access import VIEWER_PAGES

    cost = capex_text(priced=False)
    hidden = [
        tr("export.form.margin", "en"),
        tr("export.form.discount", "en"),
        "unit_cost",
        "margin_fraction",
    ]
    for name in sorted(VIEWER_PAGES - {"present"}):  # the presentation page shows the overview's
        text = viewer_pages[name].text
        assert cost not in text, name
        for word in hidden:
            assert word.lower() not in text.lower(), (name, word)
        for content in viewer_pages[name].csv_downloads:
            assert all(word not in content for word in ("unit_cost", "margin", "discount")), name
