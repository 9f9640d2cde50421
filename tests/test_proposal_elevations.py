"""The proposal PDF's rack elevations: one page per rack type of the proposed plan's layout, read
back with poppler (pdftotext for the titles and the units/kW header, pdftoppm for the drawing).

The documents are the customer editions of the page-layout tests (tests/pdf_fixtures.py:
``EDITIONS``, a 1024-GPU rail8-npo cluster in English and in 中文), printed once per run: the
elevation pages are drawn from the proposed plan's layout alone (the same in either edition,
whatever the customer, project or pricing), and the rack types are read from the very plan printed.
"""

from __future__ import annotations

import re

import pytest
from pdf_fixtures import Printed, Printer
from PIL import Image

from planner import Plan, load_catalog
from planner.handoff.cabling import build_handoff
from planner.handoff.elevation import FILL, rack_types
from planner.i18n import tr
from planner.report import elevations_section

pytest_plugins = ["pdf_fixtures"]


@pytest.fixture(scope="module")
def pdfs(printer: Printer) -> dict[str, Printed]:
    return {lang: printer.edition(lang, "customer") for lang in ("en", "zh")}


def _types(plan: Plan) -> list[tuple[str, int, int, float, float]]:
    """Each rack type of ``plan``'s layout: kind, racks, used units, power and its limit [kW]."""
    h = build_handoff(plan=plan, catalog=load_catalog())
    return [
        (t.kind, len(t.racks), t.example.used_u, t.example.power_kw, t.example.power_limit_kw)
        for t in rack_types(h.layout, h.wiring)
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_page_per_rack_type_with_units_and_kw(pdfs: dict[str, Printed], lang: str) -> None:
    pages = pdfs[lang].page_texts
    types = _types(pdfs[lang].proposal.plan)
    assert len(types) >= 2  # compute and network racks at least
    found = []
    for kind, count, used_u, kw, limit_kw in types:
        title = tr("layout.rack_type", lang, kind=tr(f"layout.kind.{kind}", lang), name="", count=count)
        head = title.split("  ")[0].split(" ")[0]
        header = f"{used_u}/"
        power = f"{kw:.1f}/{limit_kw:.1f} kW"
        hits = [i for i, page in enumerate(pages) if power in page and header in page and head in page]
        assert hits, (kind, power)
        found.append(hits[0])
    assert len(set(found)) == len(types), "two rack types share a page"
    section = [i for i, page in enumerate(pages) if tr(elevations_section.SECTION_KEY, lang) in page]
    assert section and section[-1] == min(found)  # the first type sits under the section title


def test_the_chinese_pages_say_racks_in_chinese(pdfs: dict[str, Printed]) -> None:
    pages = pdfs["zh"].page_texts
    body = [p for p in pages if " kW, " in p]
    assert body and all(re.search(r"\d+ 个机柜", p) for p in body)
    assert not any(re.search(r"\d+ racks", p) for p in body)


def test_the_elevation_pages_render_with_the_drawing(pdfs: dict[str, Printed], printer: Printer) -> None:
    doc = pdfs["en"]
    page = next(i for i, p in enumerate(doc.page_texts) if "Compute rack type" in p) + 1
    with Image.open(printer.page_image(doc, page=page, dpi=40)) as im:
        rgb = im.convert("RGB")
        server_fill = tuple(bytes.fromhex(FILL["gpu-server"].removeprefix("#")))
        pixels: list[tuple[int, int, int]] = list(rgb.get_flattened_data())  # type: ignore[arg-type]
        boxes = len(
            [px for px in pixels if max(abs(a - b) for a, b in zip(px, server_fill, strict=True)) <= 6]
        )
    # the server boxes drawn in their fill colour: several full units of a 36 %-wide rack
    assert boxes > 0.005 * rgb.width * rgb.height


def test_a_plan_the_floor_cannot_lay_out_states_why() -> None:
    from planner.report.export.html import HtmlDocument

    doc = HtmlDocument(lang="en", title="x")
    failed = elevations_section.Elevations(
        types=(), wiring=None, problem="row_length_m: 0.1 m is shorter than a rack"
    )
    elevations_section.write_section(doc, failed, "en")
    html = doc.render()
    assert "No layout for this plan: row_length_m: 0.1 m is shorter than a rack" in html
    assert "data:image/svg+xml" not in html
