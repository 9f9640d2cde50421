"""The Topology page's rail wiring: the chart draws the cabling plan's server-leaf links of plane 1,
one trace per rail, the chosen rail emphasised; the page's selectbox picks it (AppTest)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import pytest
from apptest import reset_caches
from handoff_fixtures import preset_handoff
from streamlit.testing.v1 import AppTest

from planner import i18n
from planner.i18n import tr
from planner.report.rail_chart import DIM, MAX_SERVERS, node_leaf_links, planes, rail_wiring, rails

APP = Path(__file__).resolve().parents[1] / "app.py"


def _rail_traces(fig: go.Figure) -> list[Any]:
    return [trace for trace in fig.data if trace.mode == "lines"]


def test_one_trace_per_rail_with_every_link_of_the_drawn_servers() -> None:
    wiring = preset_handoff("rail8-npo", 64).wiring  # 8 servers, 8 rails
    fig = rail_wiring(wiring, rail=None, lang="en")
    traces = _rail_traces(fig)
    assert [t.name for t in traces] == [f"Rail {r + 1}" for r in rails(wiring)] and len(traces) == 8
    # each link of plane 1 is three points (A, B, break)
    on_plane = [link for link in node_leaf_links(wiring) if link.plane == 0]
    assert 0 < len(on_plane) < len(node_leaf_links(wiring))
    assert sum(len(t.x) for t in traces) == 3 * len(on_plane)
    leaves = fig.data[len(traces)]
    assert set(leaves.text) == {link.b_device for link in on_plane}


def test_the_chosen_rail_stands_out_and_the_others_are_grey() -> None:
    wiring = preset_handoff("rail8-npo", 64).wiring
    fig = rail_wiring(wiring, rail=2, lang="zh")
    traces = _rail_traces(fig)
    chosen = traces[2]
    assert chosen.name == "轨道 3" and chosen.line.color != DIM and chosen.opacity == 1.0
    assert all(
        t.line.color == DIM and t.line.width < chosen.line.width for i, t in enumerate(traces) if i != 2
    )


def test_a_rail_optimized_rail_meets_its_own_leaves_only() -> None:
    """ib-ndr (one rail-optimized plane): the links of rail r end on the leaves of rail r only."""
    wiring = preset_handoff("ib-ndr", 256).wiring
    for r in (0, 5):
        fig = rail_wiring(wiring, rail=r, lang="en")
        leaves = fig.data[len(_rail_traces(fig))]
        x_of = dict(zip(leaves.text, leaves.x, strict=True))
        ends = set(_rail_traces(fig)[r].x[1::3])
        assert ends == {x_of[d.device_id] for d in wiring.devices if d.role == "leaf" and d.rail == r}


def test_one_plane_at_a_time() -> None:
    """rail8-npo (a port per plane for every GPU): a plane's drawing holds that plane's leaves
    only, and rail r runs from each server to one leaf of it (issue 29: every plane's leaves were
    drawn under a "plane 1" title)."""
    wiring = preset_handoff("rail8-npo", 256).wiring  # 32 servers, 8 planes of one leaf each
    assert planes(wiring) == list(range(8))
    for plane in (0, 5):
        fig = rail_wiring(wiring, rail=3, plane=plane, lang="en")
        assert len(_rail_traces(fig)[3].x) == 3 * 32  # 32 servers, one link each on this plane
        leaves = fig.data[len(_rail_traces(fig))]
        assert list(leaves.text) == [f"leaf-p{plane + 1}-01"]
        assert f"plane {plane + 1}: 32 servers to 1 leaf" in fig.layout.title.text  # one leaf: singular


def test_the_leaves_drawn_equal_the_diagrams_leaves_per_plane() -> None:
    """1024 GPUs on rail8-npo: the topology counts 8 leaves per plane; the wiring of plane 1 draws 8."""
    h = preset_handoff("rail8-npo", 1024)
    fig = rail_wiring(h.wiring, rail=None, lang="en")
    leaves = fig.data[len(_rail_traces(fig))]
    leaf = h.plan.topology.tier("leaf")
    assert leaf is not None
    per_plane = leaf.switches_per_plane
    assert len(leaves.text) == per_plane == 8
    assert "to 8 leaves" in fig.layout.title.text.replace("<br>", " ")


def test_each_rail_has_its_own_colour() -> None:
    wiring = preset_handoff("rail8-npo", 64).wiring
    colours = [t.line.color for t in _rail_traces(rail_wiring(wiring, rail=None, lang="en"))]
    assert len(set(colours)) == len(colours) == 8 and DIM not in colours


def test_a_large_cluster_bundles_runs_of_servers_and_says_how() -> None:
    """128 servers in 32 marks of 4: each rail's links from a run to a leaf drawn as one line."""
    wiring = preset_handoff("rail8-npo", 1024).wiring  # 128 servers
    fig = rail_wiring(wiring, rail=None, lang="en")
    servers = fig.data[-1]
    assert len(servers.x) == MAX_SERVERS and servers.text[0] == "gpu-node-0001 … gpu-node-0004 (4)"
    assert "128 servers (in 32 groups of up to 4) to 8 leaves" in fig.layout.title.text.replace("<br>", " ")
    assert sum(len(t.x) for t in _rail_traces(fig)) < 3 * 128 * 8


@pytest.fixture
def _fresh_caches() -> Iterator[None]:
    reset_caches()  # each module from empty caches (tests/apptest.py)
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


@pytest.mark.usefixtures("_fresh_caches")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_topology_page_highlights_the_selected_rail(lang: str) -> None:
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params.update({"lang": lang, "gpus": "64", "design": "rail8-npo"})
    at.run()
    at.switch_page("pages/topology.py").run()
    assert not at.exception, at.exception
    assert tr("topology.rail_wiring", lang) in [h.value for h in at.subheader]
    box = at.selectbox(key="topology_rail")
    assert box.value is None and len(box.options) == 9
    box.select_index(5).run()  # options: all, rail 1..8
    assert not at.exception, at.exception
    import json

    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    wiring = next(
        c for c in charts if c["data"] and c["data"][0].get("name") == tr("rail.name", lang, rail=1)
    )
    widths = [d["line"]["width"] for d in wiring["data"] if d.get("mode") == "lines"]
    assert widths[4] == max(widths) and widths.count(max(widths)) == 1


@pytest.mark.usefixtures("_fresh_caches")
def test_a_plan_above_the_limit_gets_the_note_not_the_chart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ui.views.topology.MAX_RAIL_CHART_GPUS", 32)
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params.update({"lang": "en", "gpus": "64", "design": "rail8-npo"})
    at.run()
    at.switch_page("pages/topology.py").run()
    assert not at.exception, at.exception
    assert tr("topology.rail_wiring", "en") not in [h.value for h in at.subheader]
    assert any(c.value == tr("topology.rail_too_large", "en", limit="32") for c in at.caption)
