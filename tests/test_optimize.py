"""Optimizer: hand-solvable goldens, brute-force cross-check, infeasibility, properties, CLI."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner import Catalog, InfeasibleError, InputError, Scenario, load_catalog, plan
from planner.cli import run
from planner.engine import Plan
from planner.inputs.optimize import request_from_data
from planner.optimize import optimize
from planner.optimize.model import build_model
from planner.optimize.pareto import bandwidth_front, power_front
from planner.optimize.problem import prepare
from planner.optimize.run import solution_scenario
from planner.optimize.solve import solve, value

WriteYaml = Callable[[str, Any], Path]


def _switch(record_id: str, ports_400g: int, price: float) -> dict[str, Any]:
    return {
        "id": record_id,
        "name": record_id,
        "assumption": True,
        "reason": "test switch",
        "family": "infiniband",
        "capacity_gbit_per_s": 400 * ports_400g,
        "radix_by_speed": {400: ports_400g},
        "rack_units": 1,
        # power proportional to ports, so every mix below draws the same 24 kW
        "power_typical_w": 500 * ports_400g / 64,
        "power_max_w": 500 * ports_400g / 64,
        "latency_ns": 100,
        "unit_cost_usd": price,
    }


def test_golden_cheapest_switch_mix(write_yaml: WriteYaml) -> None:
    # 1024 GPUs, ib-ndr (rail-optimized, 1 plane, 8 rails), two test switches:
    #   A: 64 x 400G at 10,000 USD (d = u = 32); B: 128 x 400G at 30,000 USD (d = u = 64).
    # Every mix has 1024 leaf uplinks, so media costs are equal; switch power is equal (24 kW).
    #   A leaves (8 rails x ceil(128/32) = 32) + A spines (1024/64 = 16): 48 x 10k        = 480,000
    #   A leaves (32) + B spines (1024/128 = 8): 320k + 240k                              = 560,000
    #   B leaves (8 x ceil(128/64) = 16) + A spines (16): 480k + 160k                      = 640,000
    #   B leaves (16) + B spines (8): 24 x 30k                                            = 720,000
    # Racks differ by at most a couple of network racks (~10k each): A/A is the optimum.
    path = write_yaml(
        "switches.yaml", {"switches": [_switch("sw_a", 64, 10_000), _switch("sw_b", 128, 30_000)]}
    )
    catalog = load_catalog(overrides=[path])
    base = catalog.designs["ib-ndr"].fabric.model_copy(update={"switch_id": "sw_a"})
    scenario = Scenario(gpus=1024, design_id="ib-ndr", fabric=base)
    request = request_from_data({"choose_media": False, "choose_cooling": False})
    # only the two test switches compete: drop the catalog's real IB switches from the choice
    problem = prepare(scenario=scenario, catalog=catalog, request=request)
    assert {o.id for o in problem.leaf_options} >= {"sw_a", "sw_b"}
    result = optimize(scenario=scenario, catalog=_only_switches(catalog, {"sw_a", "sw_b"}), request=request)
    assert (result.choices["leaf_switch"], result.choices["spine_switch"]) == ("sw_a", "sw_a")
    switch_cost = sum(x.total_usd for x in result.plan.bom if x.category == "fabric_switches")
    assert switch_cost == 480_000
    assert result.status == "optimal"


def _only_switches(catalog: Catalog, keep: set[str]) -> Catalog:
    switches = {
        k: v for k, v in catalog.switches.items() if k in keep or v.management or v.family == "ethernet"
    }
    fields = {f: getattr(catalog, f) for f in catalog.__dataclass_fields__}
    fields["switches"] = switches
    return Catalog(**fields)


def _brute_force_min_capex(scenario: Scenario, catalog: Catalog) -> float:
    """Every leaf x spine model x medium per class x cooling, evaluated by the engine."""
    problem = prepare(scenario=scenario, catalog=catalog, request=request_from_data({}))
    base = problem.resolved.fabric
    best = float("inf")
    for leaf, spine, nl, ls, cooling in itertools.product(
        problem.leaf_options,
        problem.spine_options,
        problem.media["node_leaf"],
        problem.media["leaf_spine"],
        problem.cooling,
    ):
        media = {k: o.media_id for k, o in (("node_leaf", nl), ("leaf_spine", ls)) if o.media_id}
        fabric = base.model_copy(
            update={"switch_id": leaf.id, "spine_switch_id": spine.id, "link_media": media}
        )
        facility = {
            **scenario.facility.model_dump(),
            "cooling_id": cooling.id,
            "rack_power_limit_kw": cooling.rack_limit_kw,
        }
        try:
            candidate = plan(
                scenario=scenario.with_updates(fabric=fabric.model_dump(), facility=facility), catalog=catalog
            )
        except InputError:
            continue
        best = min(best, candidate.cost.capex_usd)
    return best


@pytest.mark.parametrize(("design", "gpus"), [("ib-ndr", 256), ("ib-ndr", 1024), ("rail4-npo", 512)])
def test_brute_force_agrees_with_the_optimizer(catalog: Catalog, design: str, gpus: int) -> None:
    scenario = Scenario(gpus=gpus, design_id=design)
    result = optimize(scenario=scenario, catalog=catalog, request=request_from_data({}))
    assert result.plan.topology.tiers <= 2  # the brute force below enumerates leaf and spine only
    assert result.plan.cost.capex_usd == pytest.approx(_brute_force_min_capex(scenario, catalog), rel=1e-9)


def test_milp_counts_and_prices_what_the_engine_builds(write_yaml: WriteYaml) -> None:
    # 1024 GPUs, ib-ndr, leaf sw_a (64 x 400G: d = u = 32), spine sw_c (100 x 400G):
    #   leaves 8 rails x ceil(128 / 32) = 32, uplinks 32 x 32 = 1024;
    #   ceil(1024 / 100) = 11 spines would not spread 32 uplinks evenly; the engine takes the
    #   smallest divisor of 32 that is >= 11: 16 spines, 2 links from every leaf to every spine.
    path = write_yaml(
        "switches.yaml", {"switches": [_switch("sw_a", 64, 10_000), _switch("sw_c", 100, 15_000)]}
    )
    catalog = load_catalog(overrides=[path])
    fabric = catalog.designs["ib-ndr"].fabric.model_copy(
        update={"switch_id": "sw_a", "spine_switch_id": "sw_c"}
    )
    scenario = Scenario(gpus=1024, design_id="ib-ndr", fabric=fabric)
    request = request_from_data({"choose_switches": False, "choose_media": False, "choose_cooling": False})
    problem = prepare(scenario=scenario, catalog=catalog, request=request)
    lp, v = build_model(problem)
    assert solve(lp, time_limit_s=60).status == "optimal"
    chosen = solution_scenario(problem, v)[0]
    engine = plan(scenario=chosen, catalog=catalog, layout_cable_lengths=False)
    assert (value(v.leaves["sw_a"]), value(v.spines["sw_c"])) == (32, 16)
    assert (engine.topology.switches_leaf, engine.topology.switches_spine) == (32, 16)
    # cooling bought per whole kW and the OOB ports of all 48 switches: the model's CAPEX is the
    # engine's with every cable at the scenario's one length per link class, as the MILP prices it
    assert value(v.capex) == pytest.approx(engine.cost.capex_usd, rel=1e-9)
    # the reported plan prices the layout's lengths: it differs by the cables alone (x 1.08 for
    # installation and spares, tests/test_cable_lengths.py)
    laid_out = plan(scenario=chosen, catalog=catalog)
    cables = [sum(x.total_usd for x in p.bom if x.category == "cables") for p in (engine, laid_out)]
    assert laid_out.cost.capex_usd - engine.cost.capex_usd == pytest.approx((cables[1] - cables[0]) * 1.08)


def test_infeasible_power_cap_is_explained(catalog: Catalog) -> None:
    request = request_from_data({"power_cap_kw": 500})
    with pytest.raises(
        InfeasibleError, match=r"power_cap_kw: the cap of 500 kW is below the [\d,]+ kW .*short by"
    ):
        optimize(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=catalog, request=request)


def test_infeasible_budget_is_explained(catalog: Catalog) -> None:
    request = request_from_data({"budget_usd": 1_000_000})
    with pytest.raises(InfeasibleError, match=r"budget_usd: the budget of 1,000,000 USD is below"):
        optimize(scenario=Scenario(gpus=256, design_id="rail4-npo"), catalog=catalog, request=request)


def test_max_gpus_within_budget(catalog: Catalog) -> None:
    budget = 20_000_000.0
    request = request_from_data({"objective": "max-gpus", "budget_usd": budget, "max_gpus": 4096})
    result = optimize(scenario=Scenario(gpus=8, design_id="rail4-npo"), catalog=catalog, request=request)
    assert result.plan.cost.capex_usd <= budget
    # one more node with the same choices no longer fits the budget
    bigger = plan(scenario=result.scenario.with_updates(gpus=result.plan.gpus + 8), catalog=catalog)
    assert bigger.cost.capex_usd > budget
    with pytest.raises(InputError, match="max-gpus needs budget_usd or power_cap_kw"):
        request_from_data({"objective": "max-gpus"})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    nodes=st.integers(1, 128),
    design=st.sampled_from(["rail4-npo", "rail8-npo", "ib-ndr"]),
    headroom=st.floats(1.0, 1.5),
    objective=st.sampled_from(["capex", "tco"]),
)
def test_optimized_never_costs_more_than_the_preset_and_meets_every_limit(
    catalog: Catalog, nodes: int, design: str, headroom: float, objective: str
) -> None:
    scenario = Scenario(gpus=8 * nodes, design_id=design)
    preset = plan(scenario=scenario, catalog=catalog)
    limits = {
        "budget_usd": preset.cost.capex_usd * headroom,
        "power_cap_kw": preset.power.facility_kw * headroom,
    }
    result = optimize(
        scenario=scenario, catalog=catalog, request=request_from_data({"objective": objective, **limits})
    )
    metric = "tco_usd" if objective == "tco" else "capex_usd"
    assert getattr(result.plan.cost, metric) <= getattr(preset.cost, metric) + 1e-6
    # recomputed by the engine, the design meets every limit
    again = plan(scenario=result.scenario, catalog=catalog)
    assert again.cost.capex_usd <= limits["budget_usd"] * (1 + 1e-9)
    assert again.power.facility_kw <= limits["power_cap_kw"] * (1 + 1e-9)
    assert again.racks.max_rack_kw <= again.scenario.facility.rack_power_limit_kw + 1e-9
    assert again.cooling.density_feasible
    assert again.gpus == preset.gpus


def test_pareto_fronts_are_non_dominated(catalog: Catalog) -> None:
    request = request_from_data({})
    power = power_front(
        scenario=Scenario(gpus=512, design_id="ib-ndr"), catalog=catalog, request=request, points=4
    )
    assert len(power) >= 2
    for cheaper, leaner in itertools.pairwise(sorted(power, key=lambda p: p.capex_usd)):
        assert leaner.facility_kw < cheaper.facility_kw
    bandwidth = bandwidth_front(
        scenario=Scenario(gpus=512, design_id="rail8-npo"), catalog=catalog, request=request
    )
    assert len(bandwidth) >= 3
    for low, high in itertools.pairwise(sorted(bandwidth, key=lambda p: p.per_gpu_gbit_per_s)):
        assert high.capex_usd > low.capex_usd
    assert max(p.per_gpu_gbit_per_s for p in bandwidth) == 1600


def test_cli_optimize_json_and_infeasible(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["optimize", "--gpus", "256", "--design", "ib-ndr", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["optimizer"]) >= {
        "status",
        "objective",
        "objective_value",
        "solve_time_s",
        "saving_vs_preset_usd",
    }
    assert data["optimizer"]["status"] == "optimal"
    assert data["optimizer"]["saving_vs_preset_usd"] >= 0
    assert {"fabric", "bom", "cost", "power"} <= set(data)
    assert run(["optimize", "--gpus", "1024", "--design", "ib-ndr", "--power-cap-kw", "300"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "power_cap_kw" in err
    assert run(["optimize", "--gpus", "64", "--budget-usd", "-5"]) == 2
    assert "budget_usd" in capsys.readouterr().err


def test_cli_max_gpus_returns_the_largest_count_every_fabric_fits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """65,536 GPUs on ib-ndr with a budget that never binds: the compute fabric's three-tier limit
    (64-port switches: 2 x 32^3 = 65,536 GPUs) is the answer, and the storage, in-band and
    out-of-band fabrics grow with it instead of failing (they used to stop the search)."""
    args = ["optimize", "--design", "ib-ndr", "--objective", "max-gpus", "--max-gpus", "65536"]
    assert run([*args, "--budget-usd", "1e12", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["optimizer"]["objective_value"] == 65536 == data["gpus"]
    assert run([*args, "--budget-usd", "1e12"]) == 0
    text = capsys.readouterr().out
    assert "objective max-gpus = 65,536 GPUs" in text
    assert "GPUs 1,024 -> 65,536" in text


def test_max_gpus_stops_where_a_larger_size_is_refused(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine refusing a size (here: any fabric past 2,048 GPUs, as a stand-in for an
    auxiliary fabric or a facility limit) ends the search at the last size it built."""
    import planner.optimize.run as run_module

    def refuse_large(*, scenario: Scenario, catalog: Catalog) -> Plan:
        if scenario.gpus > 2048:
            raise InfeasibleError("storage fabric: too many ports")
        return plan(scenario=scenario, catalog=catalog)

    request = request_from_data({"objective": "max-gpus", "budget_usd": 1e12, "max_gpus": 2048})
    found = optimize(scenario=Scenario(gpus=8, design_id="ib-ndr"), catalog=catalog, request=request)
    monkeypatch.setattr(run_module, "plan", refuse_large)
    extended = run_module._extend(
        run_module._Found(found.plan, found.scenario, 0.0, None, {}, ()),  # type: ignore[arg-type]
        catalog,
        request.model_copy(update={"max_gpus": 4096}),
        4096,
    )
    assert found.plan.gpus == extended.plan.gpus == 2048
