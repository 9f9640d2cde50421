"""What the workflow suite and the 中文 page walk look for on every page they open.

Each function reads the page as drawn in Chromium and returns what it found wrong as short
strings (empty when the page is clean), so a test can collect findings over a whole workflow
and name every page and step in one failure message.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from harness import (
    ANALYSIS_PAGES,
    ARTIFACTS,
    CORE_PAGES,
    ROOT,
    RUN_BY_THE_OPENER,
    fresh_session_seen,
    full_page_screenshot,
    go_to,
    open_page,
    run_optimizer,
    settle,
)
from playwright.sync_api import BrowserContext, Page, Route, expect
from prose import english_runs

from planner.i18n import catalogs, tr
from planner.store import open_store

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
"""Where the app may fetch from: an air-gapped customer site has nothing else."""

SKIP_LINK = "Skip to main content"
"""An accessibility link Streamlit draws off-screen in front of every app (shown on Tab)."""
DROPZONE = '[data-testid="stFileUploaderDropzone"]'
"""The file uploader's drop zone: Streamlit draws its texts ("Upload", "2MB per file • YAML")
and has no parameter to translate them; :func:`streamlit_chrome` reports them."""
_DATE_DESCRIPTION = re.compile(r"^Selected Date: .*$", re.MULTILINE)
"""The date input's screen-reader description, in the language of the page's ``<html lang>``;
:func:`streamlit_chrome` reports it too."""

_TEXT_JS = """() => {
  const SKIPPED = 'script, style, noscript, [data-testid="stIconMaterial"], [data-testid="stException"], '
    + '[data-testid="stFileUploaderDropzone"]';
  const lines = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIPPED)) continue;
    const text = node.nodeValue.trim();
    if (text) lines.push(text);
  }
  return lines.join('\\n');
}"""
"""Every text node of the page, one per line, collapsed expanders and popovers included (a
user opens them): ``innerText`` would skip what is not painted. Material icons are ligature
names (``download``), not prose; an exception box is reported by :func:`exceptions`."""

_OVERFLOW_JS = """() => [...document.querySelectorAll('[data-testid="stMetricValue"]')]
  .filter((value) => [value, ...value.querySelectorAll('*')]
    .some((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1))
  .map((value) => value.textContent.trim())"""
"""KPI values whose text is wider than their box: Streamlit cuts them with an ellipsis."""

_ALERTS_JS = """(kinds) => kinds.flatMap((kind) =>
  [...document.querySelectorAll(`[data-testid="stAlertContent${kind}"]`)]
    .filter((el) => el.offsetParent !== null)
    .map((el) => `${kind}: ${el.textContent.trim()}`))"""


def page_text(page: Page, raw: str | None = None) -> str:
    """The page's text, one text node per line, without Streamlit's own untranslatable texts
    (``raw``: the page's text nodes as :data:`_TEXT_JS` read them, when already read)."""
    raw = str(page.evaluate(_TEXT_JS)) if raw is None else raw
    return _DATE_DESCRIPTION.sub("", raw.replace(SKIP_LINK, ""))


def streamlit_chrome(page: Page, raw: str | None = None) -> list[str]:
    """English texts Streamlit draws itself: the file uploaders' drop zones and the date
    inputs' screen-reader descriptions (``raw`` as in :func:`page_text`)."""
    texts = page.locator(DROPZONE).evaluate_all(
        # the button's Material icon is a ligature name ("upload"), not prose: left out
        """(zones) => zones.map((zone) => [...zone.querySelectorAll('[data-testid="stIconMaterial"]')]
          .reduce((text, icon) => text.replace(icon.innerText, ''), zone.innerText)
          .replace(/\\s+/g, ' ').trim())"""
    )
    texts += _DATE_DESCRIPTION.findall(str(page.evaluate(_TEXT_JS)) if raw is None else raw)
    return [text for text in texts if re.search("[A-Za-z]{2,}", re.sub(r"[\u4e00-\u9fff]", "", text))]


UPLOADER_DRAWN_JS = """(zones) => zones.map((zone) => [
  getComputedStyle(zone.querySelector('button [data-testid="stIconMaterial"]'), '::after').content,
  getComputedStyle(zone.querySelector('[data-testid="stFileUploaderDropzoneInstructions"] > div'), '::after').content,
].join(' '))"""
"""What the app draws in place of Streamlit's uploader texts (CSS ``content``, per drop zone)."""


def untranslated(page: Page, user_texts: Iterable[str] = ()) -> list[str]:
    """English phrases on a 中文 page: runs of prose words that are not names, units or ids
    (the detector of ``tests/prose.py``, shared with the PDF test).

    ``user_texts`` are what users typed (a saved scenario's name, notes, version comments): shown
    as written, in whatever language they were written, so they are left out.
    """
    return untranslated_text(page_text(page), user_texts)


def untranslated_text(text: str, user_texts: Iterable[str] = ()) -> list[str]:
    """:func:`untranslated` of a page's text already read (:func:`page_text`)."""
    for typed in sorted(user_texts, key=len, reverse=True):
        text = text.replace(typed, "") if typed.strip() else text
    return sorted(set(english_runs(text)))


def user_texts(db: Path) -> list[str]:
    """Everything users typed into the scenario store at ``db``."""
    with open_store(path=db) as store:
        texts: list[str] = []
        for saved in store.list_scenarios(state="all"):
            texts += [saved.name, saved.customer, saved.notes, *saved.tags]
            texts += [v.comment for v in store.versions(scenario_id=saved.id)] + [
                v.author for v in store.versions(scenario_id=saved.id)
            ]
        return [t for t in texts if t]


def overflowing_kpis(page: Page) -> list[str]:
    """KPI values cut off by their card."""
    return list(page.evaluate(_OVERFLOW_JS))


def visible_alerts(page: Page, kinds: tuple[str, ...] = ("Warning", "Error")) -> list[str]:
    """Warning and error boxes the user sees."""
    return list(page.evaluate(_ALERTS_JS, list(kinds)))


def exceptions(page: Page) -> list[str]:
    """The text of every Python exception box on the page."""
    return [text[:300] for text in page.locator('[data-testid="stException"]').all_inner_texts()]


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname in LOCAL_HOSTS


@contextmanager
def offsite_requests(context: BrowserContext) -> Iterator[list[str]]:
    """Record, and refuse, every request of ``context`` that leaves localhost.

    Refused, not let through: the test machine has no network either, and a request left to time
    out would slow the page down instead of failing the check.
    """
    found: list[str] = []

    def refuse(route: Route) -> None:
        found.append(route.request.url)
        route.abort()

    context.route(lambda url: not is_local(url), refuse)
    yield found


def page_names() -> list[str]:
    """Every page of the app, from ``pages/*.py`` (a page added later is walked too)."""
    return sorted(path.stem for path in (ROOT / "pages").glob("*.py"))


def heading_of(name: str, lang: str) -> str:
    """The page's title in ``lang``, or its name when no ``page.<name>`` key exists."""
    return catalogs.ui_strings(lang).get(f"page.{name}", name)


def pdf_text(pdf: Path) -> str:
    """The PDF's text as ``pdftotext -layout`` lays it out (pages split by form feeds)."""
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout


_SOURCES_HEADER = re.compile(r"\S+\s{2,}\S+\s{2,}\S+\s{2,}(" + re.escape(tr("col.source", "zh")) + r")\s*$")


def without_citations(text: str) -> str:
    """``text`` of a 中文 proposal without the source column of its assumptions table.

    A citation (a document's title, publisher and note) is not the document's prose
    (``tests/prose.py``): the PDF test hides those cells before printing, and the walk, reading the
    PDF the app hands out, drops the column right of the table's "来源" header on each page.

    >>> print(without_citations("类型  主题  内容  来源\\n假设  电价  按年计  Annual report, 2024"))
    类型  主题  内容
    假设  电价  按年计
    """
    kept: list[str] = []
    for page in text.split("\f"):
        column: int | None = None
        for line in page.splitlines():
            header = _SOURCES_HEADER.search(line)
            if header:
                column = header.start(1)
            kept.append(line[:column].rstrip() if column is not None else line)
        kept.append("\f")
    return "\n".join(kept[:-1])


SHOT_PAGES = CORE_PAGES + ANALYSIS_PAGES
"""The pages the screenshot tests save in each language: a :func:`visit` saves them too."""


def open_walked(page: Page, base_url: str, name: str, lang: str, saved_id: int) -> None:
    """Open a page as the language walk reads it (:func:`harness.go_to`): the Scenarios page with
    the saved scenario ``saved_id`` open, the presentation page in presentation mode, the Optimize
    page after a run of the optimizer; wait until the app's run is over."""
    query = f"lang={lang}" + {"scenarios": f"&scenario={saved_id}", "present": "&present=1"}.get(name, "")
    loaded = go_to(page, base_url, name, query, heading_of(name, lang))
    expect(page.locator("h1", has_text=heading_of(name, lang))).to_be_attached()
    settle(page)
    if loaded and name not in RUN_BY_THE_OPENER:
        fresh_session_seen(page, base_url, query)
    if name == "optimize":
        run_optimizer(page, lang)
        settle(page)


@dataclass(frozen=True)
class Visit:
    """One page of the run's shared walk in one language, read once for every test that checks
    that page in that language (its text, its exception boxes, its screenshot)."""

    name: str
    text: str
    """:func:`page_text` of the page once drawn."""
    exceptions: tuple[str, ...]
    """:func:`exceptions` of the page once drawn."""
    chrome: tuple[str, ...]
    """:func:`streamlit_chrome` of the page once drawn (English texts Streamlit draws itself)."""
    drawn_uploaders: tuple[str, ...]
    """What the app draws in each file uploader in place of Streamlit's texts
    (:data:`UPLOADER_DRAWN_JS`; empty on a page without an uploader)."""
    screenshot: Path | None
    """The full-page screenshot, for the pages of :data:`SHOT_PAGES`."""


def visit(page: Page, base_url: str, name: str, lang: str, saved_id: int) -> Visit:
    """Open the page once for the checks of several tests, and read it.

    A page of :data:`SHOT_PAGES` is opened as the screenshot tests open it
    (:func:`harness.open_page`: its first chart, table or optimizer front drawn, then the run
    over, and no exception box), with the saved scenario ``saved_id`` open on the Scenarios page
    as the walk opens it; every other page as the walk opens it (:func:`open_walked`). Its
    text and exception boxes are read at the window's size, then a page of :data:`SHOT_PAGES` is
    screenshotted to ``artifacts/screenshots/<lang>_<name>.png``. Streamlit's own texts and what
    the app draws over its uploaders' are read as well.
    """
    if name in SHOT_PAGES:
        open_page(page, base_url, name, lang, scenario_id=saved_id if name == "scenarios" else None)
    else:
        open_walked(page, base_url, name, lang, saved_id)
    raw = str(page.evaluate(_TEXT_JS))
    return Visit(
        name=name,
        text=page_text(page, raw),
        exceptions=tuple(exceptions(page)),
        chrome=tuple(streamlit_chrome(page, raw)),
        drawn_uploaders=tuple(page.locator(DROPZONE).evaluate_all(UPLOADER_DRAWN_JS)),
        screenshot=full_page_screenshot(page, ARTIFACTS / f"{lang}_{name}.png")
        if name in SHOT_PAGES
        else None,
    )
