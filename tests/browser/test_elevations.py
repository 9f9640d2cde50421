"""Rack elevations and the floor plan render in Chromium without overlaps (issue 17, "Must show").

Each rack type of a 1024-GPU rail8-npo plan and of a 256-GPU NVL72 plan is opened as an SVG file
in the system Chromium; device boxes must not overlap one another, each label must stay inside its
box, and the drawing inside the page. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from harness import ARTIFACTS, new_context
from playwright.sync_api import Browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from handoff_fixtures import preset_handoff

from planner.handoff.elevation import elevation_svg, floor_svg, rack_types

pytestmark = pytest.mark.browser

Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> float:
    """Area shared by two boxes ``(x, y, width, height)`` [px²]."""
    dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, dx) * max(0.0, dy)


def _inside(inner: Box, outer: Box, tolerance: float = 0.5) -> bool:
    return (
        inner[0] >= outer[0] - tolerance
        and inner[1] >= outer[1] - tolerance
        and inner[0] + inner[2] <= outer[0] + outer[2] + tolerance
        and inner[1] + inner[3] <= outer[1] + outer[3] + tolerance
    )


BOXES_JS = """() => [...document.querySelectorAll('g.device')].map(g => {
  const r = g.querySelector('rect').getBBox(), t = g.querySelector('text').getBBox();
  return {id: g.dataset.device, rect: [r.x, r.y, r.width, r.height], text: [t.x, t.y, t.width, t.height]};
})"""


@pytest.mark.parametrize(("design_id", "gpus"), [("rail8-npo", 1024), ("gb200-nvl72-ib-ndr", 256)])
def test_elevations_render_without_overlaps(
    design_id: str, gpus: int, tmp_path: Path, browser: Browser
) -> None:
    h = preset_handoff(design_id, gpus)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = new_context(browser, 30_000)  # a fresh profile in the run's Chromium
    page = context.new_page()
    for rack_type in rack_types(h.layout, h.wiring):
        path = tmp_path / f"{rack_type.key}.svg"
        path.write_text(elevation_svg(rack_type, h.wiring), encoding="utf-8")
        page.goto(path.as_uri())
        boxes = page.evaluate(BOXES_JS)
        assert len(boxes) == len(rack_type.example.placements)
        for i, a in enumerate(boxes):
            assert _inside(a["text"], a["rect"]), f"{rack_type.key}: label of {a['id']} leaves its box"
            for b in boxes[i + 1 :]:
                assert _overlap(a["rect"], b["rect"]) == 0, f"{rack_type.key}: {a['id']} overlaps {b['id']}"
        svg = page.locator("svg")
        size = svg.bounding_box()
        assert size is not None and size["width"] > 0
        svg.screenshot(path=str(ARTIFACTS / f"elevation_{design_id}_{rack_type.key}.png"))
    floor = tmp_path / "floor.svg"
    floor.write_text(floor_svg(h.layout), encoding="utf-8")
    page.goto(floor.as_uri())
    racks = page.evaluate(
        "() => [...document.querySelectorAll('g.rack > rect:first-child')].map(r => {"
        "const b = r.getBBox(); return [b.x, b.y, b.width, b.height]; })"
    )
    assert len(racks) == len(h.layout.racks)
    assert all(_overlap(a, b) == 0 for i, a in enumerate(racks) for b in racks[i + 1 :])
    page.locator("svg").screenshot(path=str(ARTIFACTS / f"floor_{design_id}.png"))
    context.close()
