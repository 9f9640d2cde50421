"""The proposal PDF's rack elevations: one page per rack type of the proposed plan's layout, read
back with poppler (pdftotext for the titles and the units/kW header, pdftoppm for the drawing)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from planner import Scenario, load_catalog
from planner.handoff.cabling import build_handoff
from planner.handoff.elevation import FILL, rack_types
from planner.i18n import tr
from planner.report import elevations_section, proposal


def _poppler(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[str]]]:
    tmp = tmp_path_factory.mktemp("elevations")
    built = {}
    for lang in ("en", "zh"):
        p = proposal.build_proposal(
            scenario=Scenario(gpus=256, design_id="rail8-npo"),
            catalog=load_catalog(),
            options=proposal.options_from_data({"lang": lang}),
        )
        path = tmp / f"{lang}.pdf"
        path.write_bytes(proposal.render_pdf(p))
        pages = _poppler("pdftotext", "-layout", str(path), "-").split("\f")
        built[lang] = (path, pages)
    return built


def _types() -> list[tuple[str, int, int, float, float]]:
    catalog = load_catalog()
    plan = proposal.build_proposal(
        scenario=Scenario(gpus=256, design_id="rail8-npo"),
        catalog=catalog,
        options=proposal.options_from_data({}),
    ).plan
    h = build_handoff(plan=plan, catalog=catalog)
    return [
        (t.kind, len(t.racks), t.example.used_u, t.example.power_kw, t.example.power_limit_kw)
        for t in rack_types(h.layout, h.wiring)
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_page_per_rack_type_with_units_and_kw(pdfs: dict[str, tuple[Path, list[str]]], lang: str) -> None:
    _, pages = pdfs[lang]
    types = _types()
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


def test_the_chinese_pages_say_racks_in_chinese(pdfs: dict[str, tuple[Path, list[str]]]) -> None:
    _, pages = pdfs["zh"]
    body = [p for p in pages if " kW, " in p]
    assert body and all(re.search(r"\d+ 个机柜", p) for p in body)
    assert not any(re.search(r"\d+ racks", p) for p in body)


def test_the_elevation_pages_render_with_the_drawing(
    pdfs: dict[str, tuple[Path, list[str]]], tmp_path: Path
) -> None:
    path, pages = pdfs["en"]
    page = next(i for i, p in enumerate(pages) if "Compute rack type" in p) + 1
    _poppler("pdftoppm", "-r", "40", "-f", str(page), "-l", str(page), "-png", str(path), str(tmp_path / "p"))
    (image,) = tmp_path.glob("p*.png")
    with Image.open(image) as im:
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
