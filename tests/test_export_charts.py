"""Charts drawn by the export browser's chart tab (plotly.js from the plotly package).

Needs Debian's Chromium and the Noto CJK fonts (``make system-deps``). The proposal's charts are
drawn once per module through :func:`planner.report.proposal.chart_images`, the path every PDF
export takes.
"""

from __future__ import annotations

import base64
import itertools
import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import choreographer
import numpy as np
import plotly.graph_objects as go
import pytest

from planner import Scenario, load_catalog, plan
from planner.report import charts, proposal, tables
from planner.report.export.browser import Browser, ChartSpec, RenderError, shared_browser

SVG = "{http://www.w3.org/2000/svg}"
CJK = re.compile(r"[\u4e00-\u9fff]")
DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")


def _svg_of(data_uri: str) -> bytes:
    head, _, payload = data_uri.partition(",")
    assert head == "data:image/svg+xml;base64", head
    return base64.b64decode(payload)


def _text(root: ET.Element) -> str:
    return "".join(root.itertext())


@pytest.fixture(scope="module")
def drawn() -> dict[str, tuple[proposal.Proposal, dict[str, bytes]]]:
    """``lang -> (proposal, chart name -> SVG)`` for a 1024-GPU rail8-npo proposal."""
    catalog = load_catalog()
    out = {}
    for lang in ("en", "zh"):
        options = proposal.options_from_data({"lang": lang, "proposed": "rail8-npo"})
        p = proposal.build_proposal(
            scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog, options=options
        )
        images = proposal.chart_images(p, shared_browser())
        out[lang] = (p, {key: _svg_of(uri) for key, uri in images.items()})
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_chart_is_svg_with_its_title(drawn: dict[str, Any], lang: str) -> None:
    p, svgs = drawn[lang]
    figures = proposal.chart_figures(p)
    assert [key for key, _ in figures] == list(svgs) and len(svgs) == 9
    for key, figure in figures:
        root = ET.fromstring(svgs[key])  # raises on anything that is not well-formed XML
        assert root.tag == f"{SVG}svg", key
        title = figure.layout.title.text.replace("<br>", "")  # a long title is drawn on lines
        assert title and title in _text(root), (key, title)


def test_a_chinese_chart_carries_its_chinese_title_in_a_cjk_font(drawn: dict[str, Any]) -> None:
    p, svgs = drawn["zh"]
    figure = dict(proposal.chart_figures(p))["cost_stack"]
    title = figure.layout.title.text.replace("<br>", "")
    assert CJK.search(title), title
    root = ET.fromstring(svgs["cost_stack"])
    (title_text,) = [t for t in root.iter(f"{SVG}text") if "gtitle" in t.get("class", "")]
    assert _text(title_text) == title
    assert "Noto Sans CJK SC" in title_text.get("style", "")
    # the machine has that font, so Chromium measured (and will draw) the title with it
    if shutil.which("fc-list"):
        families = subprocess.run(
            ["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=True
        ).stdout
        assert "Noto Sans CJK SC" in families


def test_a_figure_plotly_refuses_is_a_render_error_naming_it() -> None:
    good = ChartSpec(go.Figure(layout={"title": {"text": "fine"}}), 400, 300, name="fine")
    bad = ChartSpec(go.Figure(), -5, 300, name="negative_width")
    with pytest.raises(RenderError, match=r"'negative_width'.*pixel values"):
        shared_browser().images([good, bad])


def test_something_that_is_not_a_figure_is_a_render_error_naming_it() -> None:
    with pytest.raises(RenderError, match="chart 'cost_stack' is not a Plotly figure"):
        shared_browser().images([ChartSpec(object(), 400, 300, name="cost_stack")])
    with pytest.raises(RenderError, match="chart #2 is not a Plotly figure"):
        shared_browser().images([ChartSpec(go.Figure(), 400, 300), ChartSpec({"data": "x"}, 400, 300)])


def test_a_chart_over_its_deadline_is_a_render_error_and_the_next_call_draws() -> None:
    """The page gives up on a chart at its deadline instead of the call waiting for it, and the
    browser keeps serving. (A PNG waits for the browser to decode the drawn SVG, a task that
    runs after the 1 ms deadline has passed; an SVG is drawn without yielding.)"""
    rng = np.random.default_rng(1)
    slow = go.Figure(go.Scatter(x=np.arange(2_000), y=rng.random(2_000), mode="markers"))
    browser = shared_browser()
    with pytest.raises(RenderError, match="cannot draw chart 'slow': no image within 1 ms"):
        browser.images([ChartSpec(slow, 400, 300, name="slow")], fmt="png", timeout_s=0.001)
    (png,) = browser.images([ChartSpec(slow, 400, 300)], fmt="png", scale=1.0)
    assert png.startswith(b"\x89PNG")
    (svg,) = browser.images([ChartSpec(go.Figure(layout={"title": {"text": "after"}}), 400, 300)])
    assert b"after" in svg


def test_a_page_that_stops_answering_is_replaced() -> None:
    """The Python-side bound: when the chart tab does not answer at all (here a promise that
    never settles, in place of the drawing call), the call fails naming its charts and the next
    call gets a fresh tab."""
    browser = shared_browser()
    spec = ChartSpec(go.Figure(), 400, 300, name="stuck")
    with pytest.raises(RenderError, match=r"no answer within 1 s while drawing chart\(s\) 'stuck'"):
        browser._submit(browser._draw("new Promise(() => {})", [spec], 1.0))
    (svg,) = browser.images([ChartSpec(go.Figure(layout={"title": {"text": "fresh"}}), 400, 300)])
    assert b"fresh" in svg


def test_the_browser_is_launched_once_for_many_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    launches = []
    original = choreographer.Browser.open

    async def counted(self: choreographer.Browser) -> None:
        launches.append(self)
        await original(self)

    monkeypatch.setattr(choreographer.Browser, "open", counted)
    browser = Browser()
    try:
        for batch in range(3):
            specs = [
                ChartSpec(go.Figure(layout={"title": {"text": f"batch {batch} chart {i}"}}), 300, 200)
                for i in range(4)
            ]
            for i, svg in enumerate(browser.images(specs)):
                assert f"batch {batch} chart {i}".encode() in svg
        assert browser.print_pdf("<p>after the charts</p>").startswith(b"%PDF")
        assert browser.running
    finally:
        browser.stop()
    assert len(launches) == 1


# --- radar labels at the widths the app draws the radar --------------------------------------------

_TRANSFORM = re.compile(r"(translate|rotate)\(([^)]*)\)")


def _apply(transform: str, x: float, y: float) -> tuple[float, float]:
    """The point ``(x, y)`` after an SVG ``transform`` list (translate and rotate only)."""
    for kind, args in reversed(_TRANSFORM.findall(transform or "")):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip())]
        if kind == "translate":
            x, y = x + values[0], y + (values[1] if len(values) > 1 else 0.0)
            continue
        angle = math.radians(values[0])
        cx, cy = (values[1], values[2]) if len(values) == 3 else (0.0, 0.0)
        dx, dy = x - cx, y - cy
        x, y = (
            cx + dx * math.cos(angle) - dy * math.sin(angle),
            cy + dx * math.sin(angle) + dy * math.cos(angle),
        )
    return x, y


def _font_px(text: ET.Element) -> float:
    return float(re.search(r"font-size:\s*([\d.]+)px", text.get("style", "")).group(1))  # type: ignore[union-attr]


def _text_width(lines: list[str], size: float) -> float:
    """Conservative width [px]: a CJK character one em, any other 0.62 em."""
    return max(sum(size if CJK.match(ch) else 0.62 * size for ch in line) for line in lines)


def _label_boxes(svg: bytes) -> list[tuple[str, float, float, float, float]]:
    """``(text, left, top, right, bottom)`` of every radar axis label [px], from the anchor Plotly
    wrote and :func:`_text_width`."""
    boxes = []
    for tick in ET.fromstring(svg).iter(f"{SVG}g"):
        if tick.get("class") != "angularaxistick":
            continue
        (text,) = tick.iter(f"{SVG}text")
        size = _font_px(text)
        lines = [_text(t) for t in text.iter(f"{SVG}tspan")] or [_text(text)]
        width = _text_width(lines, size)
        x, baseline = _apply(text.get("transform", ""), float(text.get("x", 0)), float(text.get("y", 0)))
        left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "start")]
        top = baseline - size
        boxes.append(("/".join(lines), left, top, left + width, top + 1.3 * size * len(lines)))
    return boxes


def _radial_ticks(svg: bytes) -> list[tuple[str, float, float, float]]:
    """``(text, x, y, reach)`` of every radial tick label: its anchor on the page and a radius
    that holds the whole label whichever way it is turned [px]."""
    ticks = []
    for layer in ET.fromstring(svg).iter(f"{SVG}g"):
        if "radial-axis" not in (layer.get("class") or ""):
            continue
        for text in layer.iter(f"{SVG}text"):
            x, y = _apply(text.get("transform", ""), float(text.get("x", 0)), float(text.get("y", 0)))
            x, y = _apply(layer.get("transform", ""), x, y)
            size = _font_px(text)
            ticks.append((_text(text), x, y, _text_width([_text(text)], size) + size / 2))
    return ticks


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_radar_labels_fit_and_do_not_overlap(lang: str) -> None:
    """At 1280 px the Compare page draws the radar in a 2/5 column (about 380 px wide); in the PDF
    and on a wide screen it is 600-1280 px. No label may leave the figure or touch another, and
    the radial tick labels (0.5, 1) must keep clear of each other and of the axis labels."""
    catalog = load_catalog()
    plans = [plan(scenario=Scenario(gpus=1024, design_id=d), catalog=catalog) for d in DESIGNS]
    fig = charts.radar(plans, lang, tables.design_names(catalog, lang, plans))
    widths = (380, 600, 1280)
    height = int(fig.layout.height)
    svgs = shared_browser().images([ChartSpec(fig, w, height, name=f"radar_{w}") for w in widths])
    for width, svg in zip(widths, svgs, strict=True):
        boxes = _label_boxes(svg)
        assert len(boxes) == len(tables.RADAR_METRICS), width
        for name, left, top, right, bottom in boxes:
            assert left >= 0 and right <= width and top >= 40 and bottom <= height, (width, name)
        for a, b in itertools.combinations(boxes, 2):
            apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
            assert apart, (width, a, b)
        ticks = _radial_ticks(svg)
        assert ticks, width
        for one, other in itertools.combinations(ticks, 2):
            assert math.dist(one[1:3], other[1:3]) >= max(one[3], other[3]), (width, one, other)
        for tick, x, y, reach in ticks:
            for name, left, top, right, bottom in boxes:
                nearest = (min(max(x, left), right), min(max(y, top), bottom))
                assert math.dist((x, y), nearest) >= reach, (width, tick, name)
