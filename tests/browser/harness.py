"""Start the app with ``streamlit run`` and drive it with Playwright and Debian's Chromium.

Shared by the browser tests, ``tests/browser/screenshots.py`` (``make screenshots``, the README's
images) and ``bench/browser_latency.py``. Never ``playwright install``: the browser is the
system's ``/usr/bin/chromium`` (``.ci/setup-system.sh`` installs it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from planner import Scenario
from planner.i18n import tr
from planner.store import open_store

if TYPE_CHECKING:
    import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # no address-bar popup page per new window: each fresh context opens a window whose omnibox
    # popup is a WebUI page with its own renderer, 0.54-1.38 s of Chromium CPU per opening (median
    # 0.80 s, 6 paired openings, load average 14), the browser chrome's work, not the app page's;
    # Puppeteer leaves both features off by default (puppeteer/puppeteer pull request 15278)
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]
CORE_PAGES = ("overview", "compare", "scaling", "topology", "bom", "catalog", "assumptions")
"""The pages ``test_browser.py`` screenshots in both languages."""
ANALYSIS_PAGES = ("optimize", "workload", "reliability", "scenarios")
"""The pages ``test_browser_analysis.py`` screenshots in both languages."""
ARTIFACTS = ROOT / "artifacts" / "screenshots"
"""Where the tests' screenshots go: ignored by git, so a test run leaves the checkout as it was."""
VIEWPORT = {"width": 1440, "height": 900}
"""Every page is opened at this size (a laptop with a 1440 px wide window); screenshots then grow
the height to the page's content."""


def in_ci() -> bool:
    """True when the CI variable is set to anything but an explicit no."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_chromium() -> None:
    """Skip when Chromium is missing on a developer machine; fail when it is missing in CI."""
    import pytest

    if CHROMIUM.exists():
        return
    if in_ci():
        pytest.fail(f"CI is set but {CHROMIUM} is missing: run .ci/setup-system.sh first")
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/setup-system.sh)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def streamlit_server(
    log: IO[bytes] | None = None, timeout_s: float = 90.0, db_path: Path | None = None
) -> Iterator[str]:
    """Run the app on a free port of 127.0.0.1; yield its base URL; stop it afterwards.

    The app's scenario store is the SQLite file ``db_path``, or an empty one in a temporary
    folder: a browser session never writes to the user's own store or into the checkout.
    """
    with tempfile.TemporaryDirectory(prefix="planner-browser-") as scratch:
        store = db_path or Path(scratch) / "scenarios.db"
        env = {k: v for k, v in os.environ.items() if k != "PLANNER_DATABASE_URL"}
        with _serve({**env, "PLANNER_DB_PATH": str(store)}, log, timeout_s) as url:
            yield url


@contextmanager
def _serve(env: Mapping[str, str], log: IO[bytes] | None, timeout_s: float) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=dict(env), stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while not _healthy(url):
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {process.returncode} before serving {url}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer on {url} within {timeout_s:g} s")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@contextmanager
def served(tmp_path_factory: pytest.TempPathFactory, db_path: Path | None = None) -> Iterator[str]:
    """:func:`streamlit_server` for a test module (Chromium required first), its log in a
    temporary folder."""
    require_chromium()
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    with log_path.open("wb") as log, streamlit_server(log=log, db_path=db_path) as url:
        yield url


def server_pid(port: int) -> int:
    """The ``streamlit run`` child of this process listening on ``port`` (from ``/proc``)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"streamlit" in argv and str(port).encode() in argv:
            return int(entry.name)
    raise RuntimeError(f"no streamlit server of this process on port {port}")


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def new_context(browser: Browser, timeout_ms: float, *, locale: str = "en-US") -> BrowserContext:
    """A fresh browser profile with fixed size, locale (``en-US`` unless given), time zone and no
    animations, so the same page looks the same from run to run."""
    context = browser.new_context(
        viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]},
        device_scale_factor=1,
        locale=locale,
        timezone_id="UTC",
        color_scheme="light",
        reduced_motion="reduce",
    )
    context.set_default_timeout(timeout_ms)
    return context


def fill_store(path: Path) -> int:
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


_BUSY_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return true;
  return [...document.querySelectorAll('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]')]
    .some((el) => el.offsetParent !== null);
}"""
"""Whether the app is still at work: the script's run state Streamlit's frontend writes on its root
(``data-test-script-state``: ``running`` and ``rerunRequested`` until the run ends, ``notRunning``
after it; with the skeletons, what ``wait_for_app_run`` in Streamlit's own browser tests waits on,
streamlit/streamlit ``e2e_playwright/conftest.py``), its status widget ("Running…", which may be
hidden with the toolbar) and its skeletons (where elements are still to come)."""


def settle(page: Page, quiet_ms: int = 300, timeout_s: float = 120.0) -> None:
    """Wait until the app has finished its run: the page title is in the document, and the app
    has not been at work (:data:`_BUSY_JS`) for ``quiet_ms``, so a rerun the run itself asks for
    (a query-parameter write, ``st.rerun``) starts before the wait ends."""
    # attached, not visible: presentation mode hides the page title for the large figures
    page.locator("h1").first.wait_for(state="attached", timeout=timeout_s * 1000)
    deadline = time.monotonic() + timeout_s
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        if page.evaluate(_BUSY_JS):
            quiet_since = time.monotonic()
        elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
            return
        page.wait_for_timeout(100)
    raise TimeoutError(f"the app was still running after {timeout_s:g} s")


def path_of(name: str) -> str:
    """URL path of a page: the default page (overview) lives at the root."""
    return "" if name == "overview" else name


def run_optimizer(page: Page, lang: str) -> None:
    """Press the Optimize page's button and wait for the Pareto front to be drawn."""
    page.get_by_role("button", name=tr("opt.submit", lang), exact=True).click()
    expect(page.get_by_text(tr("opt.pareto", lang), exact=True)).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"] .scatterlayer .points path').first).to_be_visible()


_FRESH_QUERIES: dict[tuple[str, str], str] = {}
"""The query a fresh session writes into the address bar once it has opened
``{base_url}/<page>?{query}`` (the app adds every input of the scenario), by ``(base_url, query)``:
what :func:`go_to` compares the address with before it follows a link instead of loading the page."""


RUN_BY_THE_OPENER = frozenset({"optimize"})
"""Pages whose opening changes the session beyond its address (:func:`open_page` runs the
optimizer): :func:`go_to` never follows a link from them."""


def go_to(page: Page, base_url: str, name: str, query: str, heading: str) -> bool:
    """Open the app's page ``name`` (titled ``heading``) as a fresh session opened at
    ``{base_url}/<page>?{query}`` shows it; return whether the address was loaded.

    When the tab already shows this app in the state such a session has (the address's query,
    which holds the language and every input of the scenario, equals the one a fresh session
    wrote: :func:`fresh_session_seen`), the page is opened with its link in the navigation bar,
    as a user opens it: the session runs the page's script with the same inputs, and Chromium
    does not load Streamlit's scripts again (a page load costs about 0.8 s more of Chromium's CPU
    than following the link). The link's address is checked, and the app's run awaited, so what
    the caller reads next is the new page. Otherwise (a new tab, another query, a scenario
    changed in the session, a page of :data:`RUN_BY_THE_OPENER`) the address is loaded, as
    before."""
    fresh = _FRESH_QUERIES.get((base_url, query))
    here = urlsplit(page.url)
    same_state = here.query == fresh and here.path.strip("/") not in RUN_BY_THE_OPENER
    if fresh is not None and page.url.startswith(f"{base_url}/") and same_state:
        target = f"{path_of(name)}?{fresh}"
        link = page.locator(f'.st-key-nav_bar [data-testid="stPageLink"] a[href="{target}"]')
        if link.count() == 1 and link.is_visible():
            link.click()
            expect(page).to_have_url(f"{base_url}/{target}")
            expect(page.locator("h1", has_text=heading)).to_be_attached()
            settle(page)  # the previous page's elements are gone once the run is over
            return False
    page.goto(f"{base_url}/{path_of(name)}?{query}")
    return True


def fresh_session_seen(page: Page, base_url: str, query: str) -> None:
    """Note the address of a page :func:`go_to` loaded at ``query``, once its run is over and
    before anything in it is changed: the state of a fresh session at ``query``."""
    _FRESH_QUERIES.setdefault((base_url, query), urlsplit(page.url).query)


def open_page(page: Page, base_url: str, name: str, lang: str, scenario_id: int | None = None) -> None:
    """Open a page (:func:`go_to`) and wait until its content is drawn (the optimizer run, the
    saved scenarios' table, or the first chart); fail on a missing page or a Python exception
    shown in it."""
    query = f"lang={lang}" + (f"&scenario={scenario_id}" if scenario_id is not None else "")
    loaded = go_to(page, base_url, name, query, tr(f"page.{name}", lang))
    expect(page.locator("h1", has_text=tr(f"page.{name}", lang))).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
    if name == "optimize":
        run_optimizer(page, lang)
    elif name == "scenarios":
        expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    elif name not in ("catalog", "assumptions"):
        expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    settle(page)  # the run's last charts and tables
    if loaded and name not in RUN_BY_THE_OPENER:
        fresh_session_seen(page, base_url, query)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)


_NEXT_FRAMES_JS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 150))))"""
"""Resolves once the page has painted twice more and 150 ms have passed: a resize's observers
(Plotly's re-layout) run before the next frame and draw by the one after."""


def full_page_screenshot(page: Page, path: Path, width: int = VIEWPORT["width"]) -> Path:
    """Screenshot of the whole page: Streamlit scrolls inside its main block, so grow the viewport."""
    path.parent.mkdir(parents=True, exist_ok=True)
    height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : document.body.scrollHeight }"
    )
    page.set_viewport_size({"width": width, "height": min(max(900, int(height) + 40), 7000)})
    page.evaluate(_NEXT_FRAMES_JS)  # Plotly re-lays out its charts at the new size, then paints
    page.screenshot(path=str(path), animations="disabled", caret="hide")
    page.set_viewport_size({"width": width, "height": VIEWPORT["height"]})
    return path
