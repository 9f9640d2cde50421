"""Cables priced from the layout's lengths (ordered at the next standard length), next to the
plan's one assumed length per link class."""

from __future__ import annotations

import json

import pytest
from handoff_fixtures import CATALOG, preset_handoff, preset_plan

from planner.cli import run
from planner.fabric.media import cable_unit_cost_usd
from planner.handoff.cabling import build_handoff
from planner.handoff.pricing import layout_cable_pricing
from planner.handoff.runs import LENGTH_BINS_M, ordered_length_m
from planner.inputs.layout import LayoutParams


def test_a_run_is_ordered_at_the_next_standard_length() -> None:
    assert [ordered_length_m(x) for x in (0.4, 1.0, 5.2, 11.4, 30.0, 100.0, 100.1, 125.0)] == [
        0.5, 1.0, 7.0, 15.0, 30.0, 100.0, 110.0, 130.0,
    ]  # fmt: skip
    assert list(LENGTH_BINS_M) == sorted(LENGTH_BINS_M)


@pytest.mark.parametrize(("design_id", "gpus"), [("rail8-npo", 1024), ("ib-ndr", 256)])
def test_every_cable_is_priced_once_at_its_ordered_length(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    pricing = layout_cable_pricing(h, CATALOG)
    assert sum(p.cables for p in pricing) == len(h.cables)
    assert all(sum(p.ordered_m.values()) == p.cables for p in pricing)
    expected = sum(
        cable_unit_cost_usd(CATALOG.cables[c.cable_part], ordered_length_m(c.length_m)) for c in h.cables
    )
    assert sum(p.layout_usd for p in pricing) == pytest.approx(expected)
    assert all(min(p.ordered_m) >= 0.5 for p in pricing)


def test_the_bom_prices_the_default_floor_and_another_floor_differs() -> None:
    """The BOM prices the layout of the default floor (12 m rows of 20 racks): the Layout page's
    prices on that floor equal the BOM's, cable for cable. Rows of 6 m hold 10 racks: the hall is
    squarer, the longest node-leaf runs shorter (measured: 1,104 cables at 20 m there, 16 here),
    and the Layout page shows what that floor would save."""
    default = layout_cable_pricing(preset_handoff("rail8-npo", 1024), CATALOG)
    assert all(p.ordered_m == p.bom_m and p.difference_usd == pytest.approx(0.0) for p in default)
    narrow = build_handoff(
        plan=preset_plan("rail8-npo", 1024), catalog=CATALOG, params=LayoutParams(row_length_m=6.0)
    )
    by_class = {p.link_class: p for p in layout_cable_pricing(narrow, CATALOG)}
    assert by_class["node_leaf"].difference_usd < 0
    assert by_class["node_leaf"].bom_m[20.0] == 1104 and by_class["node_leaf"].ordered_m[20.0] == 16
    assert by_class["node_leaf"].bom_m != by_class["node_leaf"].ordered_m


def test_planner_layout_json_gives_the_layout_prices(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["layout", "--gpus", "256", "--design", "ib-ndr", "--format", "json"]) == 0
    prices = json.loads(capsys.readouterr().out)["cable_prices"]
    h = preset_handoff("ib-ndr", 256)
    assert sum(int(r["cables"]) for r in prices) == len(h.cables)
    assert {r["link_class"] for r in prices} == {c.link_class for c in h.cables}
