"""The proposal PDF as a customer reads it: page layout, footer, cover, contents and what the
customer edition must not show.

Four documents are printed once per run by the real browser, English and 中文 in the customer
and the internal edition (tests/pdf_fixtures.py: ``EDITIONS``, shared with the rack elevations'
tests), and read back with poppler: ``pdftotext -layout`` per page for the words,
``pdftotext -bbox-layout`` for where the lowest line of text sits on each page, and ``pdftoppm``
for the page images. Needs Debian's Chromium, the Noto CJK fonts and poppler-utils
(``make system-deps``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest
from pdf_fixtures import EDITIONS, LONG_WORD, Printed, Printer, poppler
from PIL import Image

from planner.catalog import FAMILIES
from planner.i18n import tr
from planner.report import proposal
from planner.report.export.html import FooterPart, cover_title_pt, footer_template
from planner.report.export.preview import first_pages
from planner.report.export.redact import mentions_path, redact_paths

pytest_plugins = ["pdf_fixtures"]

MM_TO_PT = 72 / 25.4
TOP_MM, BOTTOM_MM = 16.0, 18.0
"""Page margins of :class:`planner.report.export.browser.PageSetup` [mm]: the header and footer
are drawn inside them, the document's own text between them."""
INTERNAL_PATH = re.compile(
    r"\b(?:data|planner|bench|validation|tests)/[\w./-]+|[\w-]+\.(?:ya?ml|py|po|toml)\b"
    r"|\b(?:sizing_rules|cost_factors|model)\.[a-z_]+"
)
"""Repository paths, file names and catalog record ids (``sizing_rules.training_...``)."""
RECORD_ID = re.compile(r"\b(?:" + "|".join([*FAMILIES, "model"]) + r")\.[a-z0-9]+")
"""The start of a catalog record id (``servers.biren``, ``model.link``): its family and the first
characters of its id, which stay on one line when a table cell wraps the rest."""


@dataclass(frozen=True)
class Line:
    top_pt: float
    bottom_pt: float
    text: str


@dataclass(frozen=True)
class Doc:
    proposal: proposal.Proposal
    path: Path
    html: str
    page_texts: tuple[str, ...]
    """``pdftotext -layout`` of each page."""
    lines: tuple[tuple[Line, ...], ...]
    """The document's own text lines of each page (header and footer margins left out), top down."""
    page_height_pt: float


def _bbox_lines(path: Path) -> tuple[tuple[tuple[Line, ...], ...], float]:
    """Text lines of each page with their vertical extent [pt from the top], from ``pdftotext -bbox-layout``.

    A line belongs to the page body when its middle lies between the margins: the CJK glyph
    boxes of Chromium's Type 3 fonts are taller than the glyphs, so the middle is the robust
    measure.
    """
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", poppler("pdftotext", "-bbox-layout", str(path), "-"))
    ns = "{http://www.w3.org/1999/xhtml}"
    pages, height = [], 0.0
    for page in ET.fromstring(xml).iter(f"{ns}page"):
        height = float(page.get("height", "0"))
        body = []
        for line in page.iter(f"{ns}line"):
            top, bottom = float(line.get("yMin", "0")), float(line.get("yMax", "0"))
            middle = (top + bottom) / 2
            if TOP_MM * MM_TO_PT <= middle <= height - BOTTOM_MM * MM_TO_PT:
                words = " ".join((w.text or "") for w in line.iter(f"{ns}word"))
                body.append(Line(top, bottom, words))
        pages.append(tuple(sorted(body, key=lambda x: x.top_pt)))
    return tuple(pages), height


def _read(printed: Printed) -> Doc:
    lines, height = _bbox_lines(printed.path)
    p = printed.proposal
    html = proposal.proposal_html(p, {key: "data:," for key, _ in proposal.chart_figures(p)})
    return Doc(p, printed.path, html, tuple(printed.text.split("\f")[: len(lines)]), lines, height)


KEYS = [f"{lang}-{edition}" for lang, edition in EDITIONS]


@pytest.fixture(scope="module")
def docs(printer: Printer) -> dict[str, Doc]:
    return {f"{lang}-{edition}": _read(printer.edition(lang, edition)) for lang, edition in EDITIONS}


def _section_starts(doc: Doc) -> list[int]:
    p = doc.proposal
    pages = first_pages(
        doc.path.read_bytes(),
        [tr(key, p.lang) for key in proposal.SECTION_KEYS],
        ignore=tr("export.confidential", p.lang) if p.internal else "",
    )
    assert pages is not None, "a section title heads no page"
    return pages


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- footer ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_footer_is_whole_on_every_page(docs: dict[str, Doc], key: str) -> None:
    """The last line of every page holds the document name, date, version, edition and "page x of
    y" in full: nothing is cut by the paper edge or an ellipsis."""
    doc = docs[key]
    p, lang = doc.proposal, doc.proposal.lang
    o = p.options
    expected = [
        o.project,
        o.customer,
        proposal.date_text(o.date, lang),
        f"{tr('export.meta.version', lang)} {o.version}",
        tr(f"export.edition.{o.edition}", lang),
    ]
    for number, page in enumerate(doc.page_texts, start=1):
        footer = page.strip().splitlines()[-1]
        label = tr("export.footer_page", lang, page=number, pages=len(doc.page_texts))
        assert footer.rstrip().endswith(label), (number, footer)
        missing = [part for part in expected if part not in footer]
        assert not missing and "…" not in footer, (number, missing, footer)


@pytest.mark.parametrize("key", ["en-customer", "zh-internal"])
def test_footer_ink_stays_inside_the_right_margin(printer: Printer, key: str) -> None:
    """On the page image the footer's last dark pixel lies left of the right margin's outer half:
    the page label is not pushed past the paper edge (a footer of width 100 % plus margins was)."""
    dpi = 50
    with Image.open(printer.page_image(printer.edition(*key.split("-")), page=2, dpi=dpi)) as image:
        page = image.convert("L")
        width, height = page.size
        px_per_mm = dpi / 25.4
        band = page.crop((0, int(height - BOTTOM_MM * px_per_mm), width, height))
        ink = band.tobytes()  # one byte a pixel, row by row
    dark_columns = sorted({i % band.width for i, value in enumerate(ink) if value < 128})
    assert dark_columns, "no footer drawn"
    assert dark_columns[-1] < width - 7.5 * px_per_mm, (dark_columns[-1], width)


def test_a_footer_too_long_for_the_line_shortens_only_the_title() -> None:
    html = footer_template(
        [FooterPart("T" * 300, "fill"), FooterPart("ACME", "capped"), FooterPart("2026-05-14")],
        "Page {page} of {pages}",
    )
    title, customer, day = (
        re.search(r'<span style="([^"]*)">' + re.escape(t), html) for t in ("TTT", "ACME", "2026")
    )
    assert title and "text-overflow:ellipsis" in title.group(1) and "flex:0 1 auto" in title.group(1)
    assert customer and "max-width" in customer.group(1)
    assert day and "flex:none" in day.group(1) and "ellipsis" not in day.group(1)


# --- cover -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_cover_title_breaks_only_between_words(docs: dict[str, Doc], key: str) -> None:
    doc = docs[key]
    title_words = doc.proposal.options.project.split()
    cover_lines = [line.text for line in doc.lines[0]]
    for word in title_words:
        assert any(word in line for line in cover_lines), f"{word!r} broken across lines: {cover_lines[:8]}"


def test_cover_title_size_fits_the_longest_word() -> None:
    # 156 mm = 442.2 pt of title width; 34 Latin characters x 0.62 em = 21.08 em -> 20.98 pt
    assert cover_title_pt(f"Pod-1 {LONG_WORD}") == 21.0
    assert cover_title_pt("Pod-1 训练集群") == 26.0  # short words: the full size
    assert cover_title_pt("x" * 60) == 26.0  # an id longer than 40 characters may break anywhere
    assert cover_title_pt("一" * 40) == 16.0  # 40 em would need 11 pt: the floor


# --- page fill and headings --------------------------------------------------------------------------


def half_empty_pages(
    pages: tuple[tuple[Line, ...], ...], section_ends: set[int], height_pt: float
) -> list[tuple[int, float]]:
    """Pages (1-based, with their fill) whose lowest text line is above the middle of the page
    body, leaving out the cover and the pages in ``section_ends``."""
    top, bottom = TOP_MM * MM_TO_PT, height_pt - BOTTOM_MM * MM_TO_PT
    found = []
    for number, lines in enumerate(pages, start=1):
        if number == 1 or number in section_ends:
            continue
        fill = (lines[-1].bottom_pt - top) / (bottom - top) if lines else 0.0
        if fill <= 0.5:
            found.append((number, round(fill, 2)))
    return found


@pytest.mark.parametrize("key", KEYS)
def test_no_page_is_half_empty_unless_a_section_ends_there(docs: dict[str, Doc], key: str) -> None:
    """Every page but the cover and the last page of each section has its lowest text line below
    the middle of the page body (a chart's axis labels are text, so a chart counts)."""
    doc = docs[key]
    starts = _section_starts(doc)
    section_ends = {start - 1 for start in starts[1:]} | {len(doc.lines)}
    half_empty = half_empty_pages(doc.lines, section_ends, doc.page_height_pt)
    assert not half_empty, f"pages more than half empty inside a section: {half_empty}"


def test_the_fill_check_can_fail() -> None:
    """A page whose text stops a third of the way down is reported unless a section ends there."""
    height = 297 * MM_TO_PT
    full = (Line(50.0, 60.0, "a"), Line(700.0, 710.0, "b"))
    third = (Line(50.0, 60.0, "a"), Line(300.0, 310.0, "b"))
    pages = (full, third, full, third)
    assert half_empty_pages(pages, {4}, height) == [(2, 0.35)]
    assert half_empty_pages(pages, {2, 4}, height) == []


def _headings(doc: Doc) -> set[str]:
    return {
        _squash(unescape(re.sub(r"<[^>]+>", "", h)))
        for h in re.findall(r"<h[23][^>]*>(.*?)</h[23]>", doc.html)
    }


@pytest.mark.parametrize("key", KEYS)
def test_no_page_ends_with_a_heading(docs: dict[str, Doc], key: str) -> None:
    doc = docs[key]
    headings = _headings(doc)
    assert len(headings) > 10
    orphaned = [
        (number, lines[-1].text)
        for number, lines in enumerate(doc.lines, start=1)
        if number > 1 and lines and _squash(lines[-1].text) in headings
    ]
    assert not orphaned, f"headings at a page foot: {orphaned}"


def test_the_heading_check_can_fail(docs: dict[str, Doc]) -> None:
    doc = docs["en-customer"]
    headings = _headings(doc)
    assert _squash(tr("export.cabling", "en")) in headings
    assert _squash(tr("export.sec.bom", "en")) in headings


# --- contents --------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_contents_gives_the_page_each_section_starts_on(docs: dict[str, Doc], key: str) -> None:
    doc = docs[key]
    lang = doc.proposal.lang
    cover = doc.page_texts[0]
    assert tr("export.contents", lang) in cover
    listed = []
    for key_ in proposal.SECTION_KEYS:
        title = tr(key_, lang)
        match = re.search(re.escape(title) + r"[\s.]*?(\d+)\s*$", cover, re.MULTILINE)
        assert match, f"{title!r} has no page number in the contents"
        listed.append(int(match.group(1)))
    assert listed == _section_starts(doc)
    assert listed[0] == 2 and listed == sorted(listed)


# --- what the customer edition must not show -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_customer_edition_shows_no_internal_paths_ids_or_costs(docs: dict[str, Doc], lang: str) -> None:
    customer = " ".join(docs[f"{lang}-customer"].page_texts)
    joined = re.sub(r"-\n\s*", "-", customer)  # a path broken after a hyphen in a table cell
    leaks = sorted({m.group(0) for m in INTERNAL_PATH.finditer(joined)})
    assert not leaks, f"internal paths or ids in the customer PDF: {leaks}"
    words = [
        tr(k, lang) for k in ("export.col.unit_cost", "export.commercial.profit", "export.commercial.margin")
    ]
    shown = [w for w in words if w.split("[")[0].strip() in customer]
    assert not shown, shown
    ids = sorted(set(RECORD_ID.findall(customer)))
    assert not ids, f"catalog record ids in the customer PDF: {ids}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_internal_edition_keeps_what_the_customer_loses(docs: dict[str, Doc], lang: str) -> None:
    """The same search finds paths, catalog ids and the commercial terms in the internal edition."""
    internal = " ".join(docs[f"{lang}-internal"].page_texts)
    assert INTERNAL_PATH.search(re.sub(r"-\n\s*", "-", internal))
    assert RECORD_ID.search(internal)
    assert tr("export.commercial.profit", lang) in internal


def test_electricity_price_unit_in_chinese_is_the_catalogs(docs: dict[str, Doc]) -> None:
    """ "0.081 USD/kWh" reads "0.081 美元/kWh" in 中文, as the app's catalog says it (no conversion to 元)."""
    for key in ("zh-customer", "zh-internal"):
        text = " ".join(docs[key].page_texts)
        assert re.search(r"\d\.\d+ 美元/kWh", text), key
        assert not re.search(r"\d USD/kWh|元/kWh", text.replace("美元/kWh", "")), key
    assert re.search(r"\d\.\d+ USD/kWh", " ".join(docs["en-customer"].page_texts))


def test_repository_paths_are_redacted() -> None:
    assert mentions_path("fit (bench/fit_training_efficiency.py) of MFU")
    assert redact_paths("fit (bench/fit_training_efficiency.py) of MFU") == "fit of MFU"
    assert not mentions_path("statista.com/statistics/190680 (2024-03)")
