"""Charts a customer can read (issue 13): no hidden series, titled value axes with ticks, radar
labels that fit, distinct colour-blind-safe category colours, honest range axes, alt text.

The figures are inspected as Plotly objects (traces, axes, colours, annotations); drawing them
in Chromium is ``tests/test_export_charts.py``'s job.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from planner import Plan, Scenario, load_catalog, plan
from planner.cost import BOM_CATEGORIES
from planner.i18n import STRINGS, tr_enum
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.training import TrainingJob
from planner.performance.collectives import collectives_frame
from planner.performance.reliability import goodput_curve, reliability
from planner.performance.uncertainty import MonteCarloResult, MonteCarloSpec, Percentiles
from planner.performance.workload import estimate_workload
from planner.report import charts, performance_charts, tables
from planner.report.charts import (
    CATEGORY_COLOR,
    PALETTE,
    RADAR_LABEL_WIDTH,
    category_color,
    figure_alt_text,
    overlap_fraction,
)

CJK = re.compile(r"[\u4e00-\u9fff]")
DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")


@pytest.fixture(scope="module")
def plans() -> tuple[Plan, ...]:
    catalog = load_catalog()
    return tuple(plan(scenario=Scenario(gpus=1024, design_id=d), catalog=catalog) for d in DESIGNS)


def _names(plans: tuple[Plan, ...], lang: str) -> dict[str, str]:
    return tables.design_names(load_catalog(), lang, plans)


def _mc(days: float, usd: float, spread: float) -> MonteCarloResult:
    """P10/P50/P90 at ``-spread``, 0 and ``+spread`` around the median."""
    percentiles = tuple(
        Percentiles(output, v, v * (1 - spread), v, v * (1 + spread))
        for output, v in (("time_to_train_days", days), ("cost_to_train_usd", usd))
    )
    return MonteCarloResult(spec=MonteCarloSpec(), percentiles=percentiles, samples=pd.DataFrame())


def _tornado_frame() -> pd.DataFrame:
    """Two swings of TCO around a 50 M USD base: +-2 % and +-0.5 %."""
    return pd.DataFrame(
        {
            "input": ["gpu_price", "electricity_price"],
            "output": ["tco_usd", "tco_usd"],
            "base": [50e6, 50e6],
            "low": [49e6, 49.75e6],
            "high": [51e6, 50.25e6],
            "swing": [2e6, 0.5e6],
        }
    )


def _figures(plans: tuple[Plan, ...], lang: str) -> Iterator[tuple[str, go.Figure]]:
    """Every chart builder of the report and the analysis pages, once."""
    catalog = load_catalog()
    names = _names(plans, lang)
    labels = [names[p.design_id] for p in plans]
    money = tables.money_of(plans[0])
    p = plans[1]
    yield "cost_by_category", charts.cost_by_category(p, lang)
    yield "power_by_category", charts.power_by_category(p, lang)
    yield "busbw_curve", charts.busbw_curve(plans, lang, names)
    yield "latency_breakdown", charts.latency_breakdown(p, lang)
    yield "compare_bars", charts.compare_bars(plans, lang, names)
    yield "cost_stack", charts.cost_stack(plans, lang, names)
    yield "radar", charts.radar(plans, lang, names)
    yield "topology", charts.topology(p, lang)
    yield "rack_layout", charts.rack_layout(p, lang)
    frame = pd.DataFrame(
        [{"design": d, "gpus": g, "capex_usd": 1e6 * g} for d in DESIGNS for g in (8, 64, 512)]
    )
    yield "scaling", charts.scaling(frame, "capex_usd", lang, money=money, names=names)
    job = TrainingJob(params_b=70, tokens_b=1400)
    estimates = [estimate_workload(job=job, plan=q, catalog=catalog) for q in plans]
    yield "step_breakdown", performance_charts.step_breakdown(estimates, labels, lang)
    collectives = collectives_frame(plans=plans, catalog=catalog)
    yield "collectives", performance_charts.collectives_busbw(collectives, names, lang)
    yield "tornado", performance_charts.tornado(_tornado_frame(), "tco_usd", lang, money=money)
    runs = [_mc(19.0, 2.1e7, 0.01), _mc(18.9, 2.3e7, 0.011), _mc(19.1, 2.4e7, 0.02)]
    yield "monte_carlo", performance_charts.monte_carlo_ranges(runs, labels, DESIGNS, lang, money=money)
    found = [reliability(plan=q, params=ReliabilityParams(params_b=70), catalog=catalog) for q in plans]
    curves = [goodput_curve(result=r) for r in found]
    yield "goodput", performance_charts.goodput_curves(curves, found, labels, lang)
    yield "interruptions", performance_charts.interruptions_by_class(found, labels, lang)


@pytest.fixture(scope="module", params=["en", "zh"])
def figures(request: pytest.FixtureRequest, plans: tuple[Plan, ...]) -> tuple[str, dict[str, go.Figure]]:
    return request.param, dict(_figures(plans, request.param))


# --- identical curves -------------------------------------------------------------------------


def _trace(fig: go.Figure, name_part: str, *more: str) -> go.Scatter:
    (found,) = [t for t in fig.data if t.name and name_part in t.name and all(m in t.name for m in more)]
    return found


def _coincide_notes(fig: go.Figure) -> list[str]:
    return [a.text.replace("<br>", " ") for a in fig.layout.annotations if a.name == "coincide"]


def test_overlap_is_judged_with_the_one_percent_tie_tolerance() -> None:
    x = [1, 2, 3]
    assert overlap_fraction(x, [100, 200, 300], x, [100.99, 201.9, 297.1]) == 1.0  # 0.98 %, 0.95 %, 0.97 %
    assert overlap_fraction(x, [100, 200, 300], x, [101.1, 200, 300]) == pytest.approx(2 / 3)  # 1.09 % apart
    assert overlap_fraction(x, [100, 200, 300], [1, 2, 4], [100, 200, 300]) == 0.0  # other x grid
    assert tables.TIE_TOLERANCE == 0.01


def test_identical_allreduce_curves_are_drawn_apart_and_named(plans: tuple[Plan, ...]) -> None:
    """4-rail and 8-rail all-reduce busbw are the same curve (each GPU has its own rail NIC
    either way); the later one must not simply paint over the first."""
    names = _names(plans, "en")
    fig = charts.busbw_curve(plans, "en", names)
    four = _trace(fig, names["rail4-npo"], "all-reduce")
    eight = _trace(fig, names["rail8-npo"], "all-reduce")
    assert overlap_fraction(four.x, four.y, eight.x, eight.y) == 1.0  # the data really coincide
    assert (four.line.dash or "solid") != (eight.line.dash or "solid")
    assert "markers" in four.mode and "markers" in eight.mode
    assert four.marker.symbol != eight.marker.symbol
    (note,) = _coincide_notes(fig)
    assert names["rail4-npo"] in note and names["rail8-npo"] in note and "1 %" in note
    assert fig.layout.margin.t >= 50 + 17  # room for the note above the plot
    # curves that differ keep their plain look and get no note
    ib = _trace(fig, names["ib-ndr"], "all-reduce")
    assert ib.mode == "lines" and (ib.line.dash or "solid") == "solid"
    assert names["ib-ndr"] not in note


def test_the_note_is_chinese_in_chinese(plans: tuple[Plan, ...]) -> None:
    (note,) = _coincide_notes(charts.busbw_curve(plans, "zh", _names(plans, "zh")))
    assert "重合" in note and "1%" in note


def test_scaling_lines_that_coincide_are_drawn_apart(plans: tuple[Plan, ...]) -> None:
    money = tables.money_of(plans[0])
    frame = pd.DataFrame(
        [
            {"design": d, "gpus": g, "allreduce_busbw_gbyte_per_s": bw * (1.004 if d == "rail8-npo" else 1)}
            for d, scale in (("rail4-npo", 1.0), ("rail8-npo", 1.0), ("ib-ndr", 1.8))
            for g, bw in ((8, 200.0 * scale), (64, 205.0 * scale), (512, 206.0 * scale))
        ]
    )
    fig = charts.scaling(frame, "allreduce_busbw_gbyte_per_s", "en", money=money, names={})
    lines = [t for t in fig.data if t.name]
    assert [(t.line.dash or "solid") for t in lines] == ["solid", "dash", "solid"]
    assert lines[0].marker.symbol != lines[1].marker.symbol
    (note,) = _coincide_notes(fig)
    assert note.startswith("rail4-npo = rail8-npo")


def test_lines_that_overlap_on_part_of_the_range_are_drawn_apart_without_a_note() -> None:
    a = go.Scatter(x=[1, 2, 3, 4], y=[10, 20, 30, 40], name="a", line={"color": "#000"})
    b = go.Scatter(x=[1, 2, 3, 4], y=[10, 20, 35, 50], name="b", line={"color": "#111"})
    c = go.Scatter(x=[1, 2, 3, 4], y=[12, 25, 35, 55], name="c", line={"color": "#222"})
    notes = charts.separate_overlapping([a, b, c], "en")
    assert notes == []
    assert (a.line.dash, b.line.dash) == (None, "dash") and c.mode is None  # c meets b once only


def test_goodput_curves_use_the_height_of_their_zoomed_axis() -> None:
    """Goodput near 99 % on an axis zoomed to 97-100 %: 1 % of the value (~1 point) would call
    clearly separate lines coincident, so the tolerance is 1 % of the axis height."""
    catalog = load_catalog()
    found = [
        reliability(
            plan=plan(scenario=Scenario(gpus=1024, design_id=d), catalog=catalog),
            params=ReliabilityParams(params_b=70),
            catalog=catalog,
        )
        for d in DESIGNS
    ]
    curves = [goodput_curve(result=r) for r in found]
    fig = performance_charts.goodput_curves(curves, found, ["a", "b", "c"], "en")
    assert _coincide_notes(fig) == []
    twin = performance_charts.goodput_curves([curves[0], curves[0]], [found[0], found[0]], ["a", "b"], "en")
    (note,) = _coincide_notes(twin)
    assert note.startswith("a = b")


def test_identical_collective_curves_are_drawn_apart(plans: tuple[Plan, ...]) -> None:
    frame = collectives_frame(plans=plans, catalog=load_catalog())
    # 8-rail's all-reduce given exactly 4-rail's figures: those two curves coincide whatever the model says
    allreduce = frame["collective"] == "all_reduce"
    four = frame[allreduce & (frame["design"] == "rail4-npo")]
    twin = pd.concat(
        [frame[~(allreduce & (frame["design"] == "rail8-npo"))], four.assign(design="rail8-npo")]
    )
    names = _names(plans, "en")
    fig = performance_charts.collectives_busbw(twin, names, "en")
    four = _trace(fig, names["rail4-npo"], "all-reduce")
    eight = _trace(fig, names["rail8-npo"], "all-reduce")
    assert overlap_fraction(four.x, four.y, eight.x, eight.y) == 1.0
    assert (four.line.dash or "solid") != (eight.line.dash or "solid")
    assert len(_coincide_notes(fig)) == 1


# --- axes ---------------------------------------------------------------------------------------

UNIT = re.compile(r"\[[^\]]+\]|USD|kW|ns|GB/s|美元|人民币|CNY|EUR|count|数量|台")


def _value_axes(fig: go.Figure) -> list[tuple[str, go.layout.XAxis | go.layout.YAxis]]:
    """The axes that carry values: y of vertical bars and lines, x of horizontal bars."""
    horizontal = any(t.type == "bar" and t.orientation == "h" for t in fig.data)
    letter = "x" if horizontal else "y"
    layout = fig.layout
    return [
        (name, layout[name])
        for name in layout
        if name.startswith(f"{letter}axis") and layout[name] is not None
    ]


CARTESIAN = (
    "cost_by_category",
    "busbw_curve",
    "latency_breakdown",
    "compare_bars",
    "cost_stack",
    "rack_layout",
    "scaling",
    "step_breakdown",
    "collectives",
    "tornado",
    "goodput",
    "interruptions",
)


def test_every_value_axis_has_a_title_with_its_unit_and_tick_labels(
    figures: tuple[str, dict[str, go.Figure]],
) -> None:
    lang, figs = figures
    for key in CARTESIAN:
        axes = _value_axes(figs[key])
        assert axes, key
        for name, axis in axes:
            title = axis.title.text or ""
            assert UNIT.search(title), (lang, key, name, title)
            assert axis.showticklabels is not False, (lang, key, name)
            assert axis.visible is not False, (lang, key, name)


def test_grouped_bars_show_their_values_on_four_scaled_axes(plans: tuple[Plan, ...]) -> None:
    fig = charts.compare_bars(plans, "en", _names(plans, "en"))
    axes = [fig.layout[f"yaxis{n}"] for n in ("", "2", "3", "4")]
    assert [a.title.text for a in axes] == ["Cost [USD]", "Power [kW]", "busbw [GB/s]", "Latency [ns]"]
    assert all(a.showticklabels is not False and a.range[0] == 0 for a in axes)
    assert axes[0].ticktext and axes[0].ticktext[1].endswith("M")  # money in M, not Plotly's "20M"/"G"
    assert all(t.text and all(t.text) for t in fig.data)  # every bar labelled with its value


def test_monte_carlo_axes_start_at_zero_and_state_the_spread(plans: tuple[Plan, ...]) -> None:
    """18.8-19.2 days must not fill the axis: a 2 % range drawn as 2 % of it, and labelled."""
    money = tables.money_of(plans[0])
    runs = [_mc(19.0, 2.1e7, 0.011), _mc(19.0, 2.1e7, 0.05)]
    fig = performance_charts.monte_carlo_ranges(runs, ["a", "b"], ["rail4-npo", "ib-ndr"], "en", money=money)
    for name in ("xaxis", "xaxis2"):
        low, high = fig.layout[name].range
        assert low == 0 and high >= 19.0 * 1.05 if name == "xaxis" else high >= 2.1e7
    labels = [s for t in fig.data if t.text for s in t.text if s]
    # spread = (P90 - P10) / 2 / P50 = 1.1 % and 5 %, once per panel
    assert labels == ["±1.1 %", "±5.0 %", "±1.1 %", "±5.0 %"]
    assert any("P10–P90" in (a.text or "") for a in fig.layout.annotations)


def test_tornado_bars_say_their_change_against_the_base(plans: tuple[Plan, ...]) -> None:
    fig = performance_charts.tornado(_tornado_frame(), "tco_usd", "en", money=tables.money_of(plans[0]))
    low, high = fig.data
    # rows sorted by swing, smallest first: electricity (+-0.5 %), GPU price (+-2 %)
    assert list(low.text) == ["−0.5 %", "−2.0 %"] and list(high.text) == ["+0.5 %", "+2.0 %"]


# --- radar --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_radar_labels_are_short_and_clear_of_the_radial_ticks(plans: tuple[Plan, ...], lang: str) -> None:
    fig = charts.radar(plans, lang, _names(plans, lang))
    labels = list(dict.fromkeys(fig.data[0].theta))
    assert len(labels) == len(tables.RADAR_METRICS)
    for label in labels:
        lines = label.split("<br>")
        assert len(lines) <= 2, label
        assert all(charts._width(line) <= RADAR_LABEL_WIDTH for line in lines), label
        assert not re.search(r"[\u4e00-\u9fff]<br>[\u4e00-\u9fff]$", label), label  # no lone CJK tail
    polar = fig.layout.polar
    step = 360 / len(labels)
    # angular axis k points at rotation - k * step (clockwise); the radial ticks sit half-way
    directions = [(polar.angularaxis.rotation - k * step) % 360 for k in range(len(labels))]
    gap = min(
        min(abs(polar.radialaxis.angle % 360 - d), 360 - abs(polar.radialaxis.angle % 360 - d))
        for d in directions
    )
    assert gap >= step / 2 - 1e-9
    low, high = polar.domain.x
    assert low >= 0.2 and high <= 0.8  # a fifth of the width each side for the labels


# --- colours ------------------------------------------------------------------------------------


def _lab(color: str) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour ``#RRGGBB`` or ``rgb(r, g, b)``."""
    return _lab_of_linear(_linear(color))


def _linear(color: str) -> np.ndarray:
    if color.startswith("#"):
        rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    else:
        rgb = np.array([float(v) for v in color[color.index("(") + 1 : -1].split(",")[:3]]) / 255.0
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _lab_of_linear(linear: np.ndarray) -> np.ndarray:
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = to_xyz @ np.clip(linear, 0, 1) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


# Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of color
# vision deficiency", IEEE TVCG 15(6): severity 1.0 matrices in linear RGB.
CVD = {
    "normal": np.eye(3),
    "protan": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deutan": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritan": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
MIN_DELTA_E = 15.0
"""Smallest CIE76 distance between two category colours of one chart, in every vision model.
The old stack palette had 4.9 under deutan (two blues) and 15.5 in normal vision."""


def _min_delta_e(colors: list[str], vision: str) -> float:
    labs = [_lab_of_linear(CVD[vision] @ _linear(c)) for c in colors]
    return float(min(np.linalg.norm(a - b) for a, b in itertools.combinations(labs, 2)))


def _bar_colors(fig: go.Figure) -> list[str]:
    return [t.marker.color for t in fig.data if t.type == "bar"]


@pytest.mark.parametrize("vision", list(CVD))
def test_category_colours_are_distinct_for_colour_blind_readers(plans: tuple[Plan, ...], vision: str) -> None:
    stack = _bar_colors(charts.cost_stack(plans, "en", _names(plans, "en")))
    assert len(stack) == len(set(stack)) >= 10
    assert _min_delta_e(stack, vision) >= MIN_DELTA_E
    assert _min_delta_e(list(PALETTE), vision) >= MIN_DELTA_E


def test_a_category_has_one_colour_in_every_chart(plans: tuple[Plan, ...]) -> None:
    p = plans[1]
    stack = {t.name: t.marker.color for t in charts.cost_stack(plans, "en", {}).data if t.type == "bar"}
    (bars,) = charts.cost_by_category(p, "en").data
    by_bar = dict(zip(bars.y, bars.marker.color, strict=True))
    (pie,) = charts.power_by_category(p, "en").data
    by_slice = dict(zip(pie.labels, pie.marker.colors, strict=True))
    assert by_bar == {name: stack[name] for name in by_bar}
    for category in ("gpus", "nics", "fabric_switches", "optics", "storage", "management"):
        assert by_slice[tr_enum("power_category", category, "en")] == CATEGORY_COLOR[category]
        assert stack[tr_enum("bom_category", category, "en")] == CATEGORY_COLOR[category]
    # the latency and reliability charts draw hardware in its hardware colour
    assert category_color("switches", "latency_component") == CATEGORY_COLOR["fabric_switches"]
    assert category_color("gpu", "failure_class") == CATEGORY_COLOR["gpus"]
    assert set(CATEGORY_COLOR) == set(BOM_CATEGORIES)


# --- titles, alt text, language -----------------------------------------------------------------


def test_every_figure_has_a_title_and_a_one_sentence_alt_text(
    figures: tuple[str, dict[str, go.Figure]],
) -> None:
    lang, figs = figures
    assert len(figs) == 16
    end = "。" if lang == "zh" else "."
    for key, fig in figs.items():
        title = fig.layout.title.text
        assert title and title.strip(), key
        alt = figure_alt_text(fig, lang)
        assert alt.endswith(end) and not alt.endswith(end * 2) and "\n" not in alt, (key, alt)
        assert charts._plain(title) in alt and "<br>" not in alt and "[alt." not in alt, (key, alt)
        if lang == "zh":
            assert CJK.search(alt.replace(charts._plain(title), "")), (key, alt)


def test_alt_text_names_series_axes_and_coincidences(plans: tuple[Plan, ...]) -> None:
    names = _names(plans, "en")
    alt = figure_alt_text(charts.busbw_curve(plans, "en", names), "en")
    assert alt.startswith("Line chart “busbw vs message size”: series: ")
    assert "x axis: Message size; y axis: busbw [GB/s]" in alt
    assert alt.endswith("all-reduce: lines coincide (within 1 %).")
    pie = figure_alt_text(charts.power_by_category(plans[0], "zh"), "zh")
    assert pie.startswith("环形图《") and "类别：GPU、" in pie


def test_no_figure_shows_a_missing_translation_key(figures: tuple[str, dict[str, go.Figure]]) -> None:
    lang, figs = figures
    for key, fig in figs.items():
        text = json.dumps(fig.to_plotly_json(), ensure_ascii=False, default=str)
        assert not re.search(r"\[(chart|axis|radar|alt|wl|rel|opt|word)\.[a-z_.]+\]", text), (lang, key)


def test_radar_and_alt_keys_exist_in_both_languages() -> None:
    assert set(charts.RADAR_LABEL_KEYS) == set(tables.RADAR_METRICS)
    keys = {*charts.RADAR_LABEL_KEYS.values(), *charts._KIND_KEYS.values()}
    for key in keys:
        assert set(STRINGS[key]) == {"en", "zh"}, key


def test_chart_builders_keep_their_call_signatures(plans: tuple[Plan, ...]) -> None:
    """Pages and the proposal call these positionally; the new behaviour needs no new argument."""
    builders: list[Callable[..., go.Figure]] = [
        charts.busbw_curve,
        charts.compare_bars,
        charts.cost_stack,
        charts.radar,
    ]
    for build in builders:
        assert isinstance(build(plans, "en"), go.Figure)
    assert charts.CATEGORY_COLORS == PALETTE
