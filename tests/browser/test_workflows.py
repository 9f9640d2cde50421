"""The workshop workflows in a real browser, in English and 中文, on a 1280 px projector and a
1440 px laptop: preset → size → compare → optimize → save → share → export.

One walk of the workflow per language (module fixtures: one server, one browser, each walk done
once and shared by the checks) records what it sees on every step, at both widths: the walk goes
at 1280 px, and after each step the window is resized to each width and the page read again (the
app's script does not depend on the window; the layout a check measures does, and is measured at
each width). Each check below then asserts one kind of finding over the whole run of one language
and width, so a failure names the step and the page:

- a warning or error box right after a preset click;
- a KPI value cut off by its card (``scrollWidth > clientWidth``);
- English prose on a 中文 page (``tests/prose.py``);
- a Python exception box;
- a request leaving localhost (an air-gapped customer site has no internet; refused here).

The share link is opened in a fresh browser context (another user, no session), and the export
step downloads the scenario's files from the Proposal page.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from harness import ARTIFACTS, run_optimizer, settle
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from walk import (
    exceptions,
    heading_of,
    offsite_requests,
    overflowing_kpis,
    untranslated,
    visible_alerts,
)

from planner.i18n import LANGUAGE_NAMES, tr

pytestmark = pytest.mark.browser

LANGS = ("en", "zh")
WIDTHS = (1280, 1440)
"""A projector and a laptop window."""
HEIGHT = 900
TIMEOUT_MS = 120_000
"""Generous: on a loaded 2-core machine the Compare page took up to 40 s to draw its charts."""
expect.set_options(timeout=TIMEOUT_MS)

FINDINGS = ARTIFACTS.parent / "workflows"
"""Each run's findings and step times as JSON (ignored by git, like the screenshots)."""

RUNS = [pytest.param(lang, width, id=f"{lang}-{width}") for lang in LANGS for width in WIDTHS]
ZH_RUNS = [pytest.param("zh", width, id=f"zh-{width}") for width in WIDTHS]


@dataclass
class Run:
    """What one workflow run saw, step by step (``"step: finding"``)."""

    lang: str
    width: int
    steps: list[str] = field(default_factory=list)
    """The steps completed, in order."""
    failure: str = ""
    """Why the workflow stopped early (a button or a result that never came)."""
    preset_alerts: list[str] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    offsite: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time of each step [s]."""
    downloads: dict[str, bytes] = field(default_factory=dict)


# --- fixtures: one server and one browser for the module, each workflow run once --------------------


@pytest.fixture(scope="module")
def base_url(saved_url: str) -> str:
    """The run's shared server over a few saved scenarios (the walk saves one more)."""
    return saved_url


@pytest.fixture(scope="module")
def workflow(base_url: str, browser: Browser) -> Callable[[str, int], Run]:
    """``workflow(lang, width)``: the run in that language and width, from the language's walk
    (performed on first use, read at every width)."""
    done: dict[str, dict[int, Run]] = {}

    def get(lang: str, width: int) -> Run:
        if lang not in done:
            done[lang] = perform(browser, base_url, lang)
        return done[lang][width]

    return get


def _context(browser: Browser, lang: str, width: int) -> BrowserContext:
    context = browser.new_context(
        viewport={"width": width, "height": HEIGHT},
        device_scale_factor=1,
        locale="zh-CN" if lang == "zh" else "en-US",
        timezone_id="UTC",
        color_scheme="light",
        reduced_motion="reduce",
        accept_downloads=True,
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


# --- the workflow ----------------------------------------------------------------------------------


def kpi(page: Page, key: str, lang: str) -> Locator:
    """The value of the KPI card labelled ``tr(key, lang)``."""
    label = re.compile(f"^{re.escape(tr(key, lang))}$")
    card = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=label)
    )
    return card.locator('[data-testid="stMetricValue"]').first


def go(page: Page, base_url: str, name: str, lang: str) -> None:
    """Open a page the way a user does: its navigation link when shown, else its address with
    the current scenario (the URL holds it)."""
    link = page.get_by_role("link", name=heading_of(name, lang), exact=True)
    if link.count() == 1 and link.is_visible():
        link.click()
    else:
        query = urlsplit(page.url).query
        page.goto(f"{base_url}/{'' if name == 'overview' else name}?{query}")
    expect(page.locator("h1", has_text=heading_of(name, lang))).to_be_visible()
    settle(page)


class Recorder:
    """Checks every step of a walk against the page, at every width, and notes the step's time."""

    def __init__(self, runs: dict[int, Run], page: Page) -> None:
        self.runs, self.page = runs, page
        self.started = time.perf_counter()

    def step(self, name: str) -> None:
        """Read the page at each width (the window resized; the layout is measured afresh by the
        checks' scripts), then give the page back the walk's width."""
        page = self.page
        walked = page.viewport_size or {"width": WIDTHS[0], "height": HEIGHT}
        where = f"{name} ({urlsplit(page.url).path or '/'})"
        seconds = round(time.perf_counter() - self.started, 1)
        for width, run in self.runs.items():
            page.set_viewport_size({"width": width, "height": HEIGHT})
            run.overflow += [f"{where}: {value}" for value in overflowing_kpis(page)]
            run.exceptions += [f"{where}: {text}" for text in exceptions(page)]
            if run.lang == "zh":
                run.prose += [f"{where}: {phrase}" for phrase in untranslated(page)]
            run.steps.append(name)
            run.seconds[name] = seconds
        page.set_viewport_size(walked)
        self.started = time.perf_counter()


def perform(browser: Browser, base_url: str, lang: str) -> dict[int, Run]:
    """The workflow walked once in ``lang`` at the first width, read at every width."""
    runs = {width: Run(lang=lang, width=width) for width in WIDTHS}
    context = _context(browser, lang, WIDTHS[0])
    shared = _context(browser, lang, WIDTHS[0])
    with offsite_requests(context) as offsite, offsite_requests(shared) as offsite_shared:
        page = context.new_page()
        try:
            _steps(runs, page, shared, base_url)
        except Exception as exc:  # the checks below report what was seen until here
            steps = runs[WIDTHS[0]].steps
            where = steps[-1] if steps else "start"
            for run in runs.values():
                run.failure = f"after {where}: {type(exc).__name__}: {exc}"[:2000]
        for run in runs.values():
            run.offsite = sorted(set(offsite + offsite_shared))
    context.close()
    shared.close()
    FINDINGS.mkdir(parents=True, exist_ok=True)
    for width, run in runs.items():
        found = {k: v for k, v in asdict(run).items() if k != "downloads"}
        (FINDINGS / f"{lang}-{width}.json").write_text(json.dumps(found, ensure_ascii=False, indent=1))
        for kind, data in run.downloads.items():
            (FINDINGS / f"{lang}-{width}-download.{kind}").write_bytes(data)
    return runs


def _steps(runs: dict[int, Run], page: Page, shared: BrowserContext, base_url: str) -> None:
    run = runs[WIDTHS[0]]
    lang = run.lang
    record = Recorder(runs, page)
    page.goto(f"{base_url}/?lang={lang}")
    expect(page.locator("h1", has_text=heading_of("overview", lang))).to_be_visible()
    settle(page)
    record.step("open")

    # presets: a false warning used to appear on every click, growing by one entry each time
    for preset, gpus in (("rail4_256", "256"), ("rail8_1024", "1,024"), ("rail4_256", "256")):
        page.get_by_role("button", name=tr(f"preset.{preset}", lang), exact=True).click()
        expect(kpi(page, "kpi.gpus", lang)).to_have_text(gpus)
        settle(page)
        alerts = [f"preset {preset}: {alert}" for alert in visible_alerts(page)]
        for each in runs.values():
            each.preset_alerts += alerts
        record.step(f"preset {preset}")

    # size: 512 GPUs on the preset's design
    field = page.get_by_role("spinbutton", name=tr("input.gpus", lang))
    field.fill("512")
    field.press("Enter")
    expect(kpi(page, "kpi.gpus", lang)).to_have_text("512")
    expect(page).to_have_url(re.compile(r"gpus=512"))
    settle(page)
    record.step("size 512")

    go(page, base_url, "compare", lang)
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    record.step("compare")

    go(page, base_url, "optimize", lang)
    run_optimizer(page, lang)
    settle(page)
    record.step("optimize")

    go(page, base_url, "scenarios", lang)
    name = f"ACME-{lang}"  # a name, not prose: the prose check reads it back
    page.get_by_role("textbox", name=re.compile(f"^{re.escape(tr('sc.field.name', lang))}")).fill(name)
    page.get_by_role("button", name=tr("sc.save_new", lang), exact=True).click()
    expect(page.locator('[data-testid="stAlertContentSuccess"]').first).to_contain_text(name)
    code = page.locator('[data-testid="stCode"]', has_text="scenario=").first
    expect(code).to_be_visible()
    link = code.inner_text().strip()
    settle(page)
    record.step("save")

    # share: another user opens the link in a fresh browser profile
    started = time.perf_counter()
    other = shared.new_page()
    other.goto(link)
    gpus = "|".join(re.escape(tr("kpi.gpus", one)) for one in LANGS)
    card = other.locator('[data-testid="stMetric"]').filter(
        has=other.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^({gpus})$"))
    )
    expect(card.locator('[data-testid="stMetricValue"]').first).to_have_text("512")
    for each in runs.values():
        each.seconds["share link to KPIs"] = round(time.perf_counter() - started, 1)
    settle(other)
    if f"lang={lang}" not in other.url:  # the link names no language: the colleague picks theirs
        other.get_by_role("radio", name=LANGUAGE_NAMES[lang], exact=True).click()
        expect(kpi(other, "kpi.gpus", lang)).to_have_text("512")
        settle(other)
    Recorder(runs, other).step("share link")
    other.close()

    go(page, base_url, "proposal", lang)
    for kind in ("csv", "json"):
        with page.expect_download() as download:
            page.get_by_role("button", name=tr(f"export.download.{kind}", lang)).click()
        data = Path(download.value.path()).read_bytes()
        for each in runs.values():
            each.downloads[kind] = data
    record.step("export")


def reached(run: Run, step: str) -> Run:
    """``run``, if it got as far as ``step``; else the check cannot be made (skipped: the
    workflow test fails and says why)."""
    if step not in run.steps:
        pytest.skip(f"the {run.lang} {run.width} px workflow stopped before {step!r}")
    return run


# --- the checks --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "width"), RUNS)
def test_the_workflow_completes(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    run = workflow(lang, width)
    assert not run.failure, f"steps done: {run.steps}\n{run.failure}"
    assert run.steps[-1] == "export"
    scenario = json.loads(run.downloads["json"])
    assert (scenario["gpus"], scenario["design_id"]) == (512, "rail4-npo"), (
        "not the scenario sized in the app"
    )
    assert run.downloads["csv"].count(b"\n") > 5, "the BOM CSV has no rows"
    print(f"{lang} {width} px, seconds per step: {run.seconds}")


@pytest.mark.parametrize(("lang", "width"), RUNS)
def test_no_warning_after_a_preset_click(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    found = reached(workflow(lang, width), "preset rail4_256").preset_alerts
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "width"), RUNS)
def test_no_kpi_value_is_cut_off(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    found = reached(workflow(lang, width), "open").overflow
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "width"), ZH_RUNS)
def test_no_english_prose_in_chinese(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    found = reached(workflow(lang, width), "open").prose
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "width"), RUNS)
def test_no_exception_box(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    found = workflow(lang, width).exceptions
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "width"), RUNS)
def test_no_request_leaves_localhost(workflow: Callable[[str, int], Run], lang: str, width: int) -> None:
    found = reached(workflow(lang, width), "open").offsite
    assert not found, "\n".join(found)


# --- history and onboarding across sessions ---------------------------------------------------------


def _gpus_field(page: Page, lang: str) -> Locator:
    return page.get_by_role("spinbutton", name=re.compile(f"^{re.escape(tr('input.gpus', lang))}"))


def test_back_returns_to_the_previous_page_and_scenario(browser: Browser, base_url: str) -> None:
    """Overview (256 GPUs) → Compare → 512 GPUs; Back: Compare at 256; Back: the Overview at 256.

    A page switch used to leave two history entries (Streamlit's, without the query, then the
    app's with it), so the second Back stayed on Compare."""
    context = _context(browser, "en", 1440)
    page = context.new_page()
    page.goto(f"{base_url}/?lang=en")
    settle(page)
    _gpus_field(page, "en").fill("256")
    _gpus_field(page, "en").press("Enter")
    settle(page)
    go(page, base_url, "compare", "en")
    _gpus_field(page, "en").fill("512")
    _gpus_field(page, "en").press("Enter")
    settle(page)
    expect(page).to_have_url(re.compile(r"/compare\?.*gpus=512"))
    page.go_back()
    settle(page)
    expect(page.locator("h1", has_text=heading_of("compare", "en"))).to_be_visible()
    expect(_gpus_field(page, "en")).to_have_value("256")
    page.go_back()
    settle(page)
    expect(page.locator("h1", has_text=heading_of("overview", "en"))).to_be_visible()
    expect(_gpus_field(page, "en")).to_have_value("256")
    context.close()


def test_start_here_stays_closed_in_a_new_session(browser: Browser, base_url: str) -> None:
    """Closed once, the box does not return when the same browser opens the app again (a new
    Streamlit session); another browser profile still gets it."""
    context = _context(browser, "en", 1440)
    page = context.new_page()
    page.goto(f"{base_url}/?lang=en")
    settle(page)
    title = page.get_by_text(tr("welcome.title", "en"))
    expect(title).to_be_visible()
    page.get_by_role("button", name=tr("welcome.close", "en")).click()
    expect(title).to_have_count(0)
    settle(page)
    again = context.new_page()
    again.goto(f"{base_url}/?lang=en")
    settle(again)
    expect(again.get_by_text(tr("welcome.title", "en"))).to_have_count(0)
    context.close()
    other = _context(browser, "en", 1440)
    fresh = other.new_page()
    fresh.goto(f"{base_url}/?lang=en")
    settle(fresh)
    expect(fresh.get_by_text(tr("welcome.title", "en"))).to_be_visible()
    other.close()
