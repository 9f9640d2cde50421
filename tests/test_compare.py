"""Compare, sweep and crossovers."""

from __future__ import annotations

import importlib

import pandas as pd
import pytest

from planner import Catalog, InfeasibleError, InputError, Scenario, compare, crossovers, default_sizes, sweep
from planner.compare import MAX_SWEEP_PLANS
from planner.engine import Plan, plan
from planner.inputs.scenario import scenario_from_data, scenario_to_json

# the module, not the function planner.compare re-exported under the same name
COMPARE_MODULE = importlib.import_module("planner.compare")


def test_compare_uses_one_gpu_across_designs(catalog: Catalog) -> None:
    plans = compare(scenario=Scenario(gpus=128, gpu_id="mi300x"), catalog=catalog)
    assert [p.design_id for p in plans] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    assert {p.gpu_id for p in plans} == {"mi300x"}


def test_sweep_covers_every_multiple_of_the_node(catalog: Catalog) -> None:
    frame = sweep(scenario=Scenario(), catalog=catalog).frame
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


def _counting_plans(monkeypatch: pytest.MonkeyPatch, refuse: set[int] | None = None) -> list[int]:
    """Record the GPU count of every plan the sweep computes; refuse the sizes in ``refuse``."""
    calls: list[int] = []

    def counted(*, scenario: Scenario, catalog: Catalog, layout_cable_lengths: bool = True) -> Plan:
        calls.append(scenario.gpus)
        if refuse and scenario.gpus in refuse:
            raise InfeasibleError("cooling: no room at this size")
        return plan(scenario=scenario, catalog=catalog, layout_cable_lengths=layout_cable_lengths)

    monkeypatch.setattr(COMPARE_MODULE, "plan", counted)
    return calls


def test_sizes_above_the_design_limit_are_skipped_in_one_run_without_planning_each(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ib-hdr on 40-port switches holds 40 x 20 x 20 leaves / 8 rails x 20 nodes x 8 GPUs =
    # 320,000 GPUs in four tiers
    calls = _counting_plans(monkeypatch)
    result = sweep(
        scenario=Scenario(),
        catalog=catalog,
        design_ids=["ib-hdr"],
        sizes=[64, 320000, 320008, 640000, 1048576],
    )
    assert list(result.frame["gpus"]) == [64, 320000]
    (run,) = result.skipped
    assert (run.design_id, run.gpus_from, run.gpus_to, run.sizes) == ("ib-hdr", 320008, 1048576, 3)
    assert "exceed the four-tier limit of this design (320000 GPUs" in run.reason
    # the largest size, the first refused one (for its message), then only the buildable ones
    assert calls == [1048576, 320008, 64, 320000]
    assert run.reason.startswith("gpus: 320008 GPUs exceed")
    assert list(result.skipped_frame().columns) == ["design", "gpus_from", "gpus_to", "sizes", "reason"]


def test_a_size_refused_for_another_reason_is_skipped_alone_and_the_sweep_goes_on(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    _counting_plans(monkeypatch, refuse={24, 32, 56})
    result = sweep(scenario=Scenario(), catalog=catalog, design_ids=["rail4-npo"], sizes=range(8, 65, 8))
    assert list(result.frame["gpus"]) == [8, 16, 40, 48, 64]
    assert [(s.gpus_from, s.gpus_to, s.sizes) for s in result.skipped] == [(24, 32, 2), (56, 56, 1)]
    assert result.skipped[0].reason == "cooling: no room at this size"


def test_a_sweep_plans_at_most_the_bound_and_says_so_before_planning(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting_plans(monkeypatch)
    with pytest.raises(InputError, match=r"would plan 4,097 design-size pairs .* more than the 4,096"):
        sweep(
            scenario=Scenario(),
            catalog=catalog,
            design_ids=["rail4-npo"],
            sizes=range(1, MAX_SWEEP_PLANS + 2),
        )
    assert calls == [MAX_SWEEP_PLANS + 1]  # only the probe of the largest size


def test_a_sweep_where_nothing_plans_raises_the_first_refusal(catalog: Catalog) -> None:
    scenario = Scenario().with_updates(
        facility=Scenario().facility.model_copy(update={"cooling_id": "immersion"})
    )
    with pytest.raises(InputError, match=r"facility\.cooling_id"):
        sweep(scenario=scenario, catalog=catalog, design_ids=["rail4-npo"], sizes=[8, 16])
    with pytest.raises(InputError, match="designs: unknown design id 'nope'"):
        sweep(scenario=Scenario(), catalog=catalog, design_ids=["rail4-npo", "nope"], sizes=[8])
