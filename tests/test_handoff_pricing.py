"""Cables priced from the layout's lengths (ordered at the next standard length), next to the
plan's one assumed length per link class."""

from __future__ import annotations

import json

import pytest
from handoff_fixtures import CATALOG, preset_handoff

from planner.cli import run
from planner.fabric.media import cable_unit_cost_usd
from planner.handoff.pricing import LENGTH_BINS_M, layout_cable_pricing, ordered_length_m


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


def test_1024_rail8_leaf_spine_runs_are_shorter_than_the_plan_assumes() -> None:
    """The layout's leaf-spine runs are 5-8 m (switch racks side by side in one row), against the
    plan's 30 m: ordered at 5, 7 and 10 m they cost less; node-leaf runs (6-19 m, mean 11.4 m)
    cost more than at the plan's 10 m."""
    by_class = {p.link_class: p for p in layout_cable_pricing(preset_handoff("rail8-npo", 1024), CATALOG)}
    assert set(by_class["leaf_spine"].ordered_m) <= {5.0, 7.0, 10.0}
    assert by_class["leaf_spine"].difference_usd < 0 < by_class["node_leaf"].difference_usd


def test_planner_layout_json_gives_the_layout_prices(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["layout", "--gpus", "256", "--design", "ib-ndr", "--format", "json"]) == 0
    prices = json.loads(capsys.readouterr().out)["cable_prices"]
    h = preset_handoff("ib-ndr", 256)
    assert sum(int(r["cables"]) for r in prices) == len(h.cables)
    assert {r["link_class"] for r in prices} == {c.link_class for c in h.cables}
