"""Compare, sweep and crossovers."""

from __future__ import annotations

import pandas as pd
import pytest

from planner import Catalog, InputError, Scenario, compare, crossovers, default_sizes, sweep
from planner.scenario import scenario_from_data, scenario_to_json


def test_compare_uses_one_gpu_across_designs(catalog: Catalog) -> None:
    plans = compare(scenario=Scenario(gpus=128, gpu_id="mi300x"), catalog=catalog)
    assert [p.design_id for p in plans] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    assert {p.gpu_id for p in plans} == {"mi300x"}


def test_sweep_covers_every_multiple_of_the_node(catalog: Catalog) -> None:
    frame = sweep(scenario=Scenario(), catalog=catalog)
    assert len(frame) == 3 * 128
    assert sorted(frame["gpus"].unique()) == list(default_sizes())


def test_crossover_is_found_where_the_better_design_changes() -> None:
    # a is cheaper up to 16 GPUs, b from 24 on.
    frame = pd.DataFrame(
        {
            "design": ["a"] * 3 + ["b"] * 3,
            "gpus": [8, 16, 24] * 2,
            "usd_per_alltoall_gbyte_per_s": [1.0, 2.0, 5.0, 3.0, 3.0, 3.0],
        }
    )
    (found,) = crossovers(frame)
    assert (found.gpus_before, found.gpus_after, found.better_before, found.better_after) == (
        16,
        24,
        "a",
        "b",
    )
    assert crossovers(frame, lower_is_better=False)[0].better_after == "a"
    with pytest.raises(InputError, match="metric"):
        crossovers(frame, metric="nope")


def test_scenario_json_round_trips_exactly() -> None:
    scenario = Scenario(
        gpus=300, design_id="ib-ndr", gpu_id="h200_sxm", price_overrides_usd={"h200_sxm": 30000.0}
    )
    assert scenario_from_data(__import__("json").loads(scenario_to_json(scenario))) == scenario


def test_negative_price_override_is_rejected() -> None:
    with pytest.raises(InputError, match=r"price_overrides_usd.h100_sxm: must be >= 0"):
        scenario_from_data({"price_overrides_usd": {"h100_sxm": -1}})
