"""Properties that must hold for every input (Hypothesis)."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner import Catalog, Scenario, plan
from planner.design import FabricParams
from planner.errors import InputError
from planner.fabric.topology import build_topology

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def fabrics(draw: st.DrawFn) -> tuple[int, int, FabricParams, int]:
    ports = draw(st.sampled_from([1, 2, 4, 8]))
    planes = draw(st.sampled_from([p for p in (1, 2, 4, 8) if ports % p == 0 or p % ports == 0]))
    fabric = FabricParams(
        family="ethernet",
        ports_per_gpu=ports,
        port_speed_gbit_per_s=400,
        planes=planes,
        rail_optimized=draw(st.booleans()),
        switch_id="sw",
        nic_id="nic",
        optics_id="opt",
        oversubscription=draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])),
    )
    return (
        draw(st.integers(1, 3000)),
        draw(st.sampled_from([8, 16])),
        fabric,
        draw(st.sampled_from([32, 64, 128, 256])),
    )


@FAST
@given(fabrics())
def test_ports_provisioned_cover_ports_needed(case: tuple[int, int, FabricParams, int]) -> None:
    nodes, per_node, fabric, radix = case
    try:
        t = build_topology(nodes=nodes, gpus_per_node=per_node, fabric=fabric, radix=radix)
    except InputError:
        return  # beyond the three-tier limit or a node's ports exceed a switch: refused, not wrong
    assert t.links_node_leaf == nodes * per_node * fabric.ports_per_gpu
    for tier in t.tier_counts:
        assert tier.ports_free >= 0, tier
    # every link lands on a port at both ends
    leaf, spine, core = t.tier("leaf"), t.tier("spine"), t.tier("core")
    assert leaf is not None and leaf.down_ports_used == t.links_node_leaf
    if spine:
        assert leaf.up_ports_used == spine.down_ports_used == t.links_leaf_spine
    if core:
        assert spine is not None and spine.up_ports_used == core.down_ports_used == t.links_spine_core
    # leaves never carry more down ports than the design split allows
    assert t.endpoints_per_plane <= t.tier_counts[0].switches_per_plane * t.leaf_down_ports


@FAST
@given(gpus=st.integers(1, 1024), design=st.sampled_from(["rail4-npo", "rail8-npo", "ib-ndr"]))
def test_category_sums_equal_totals(catalog: Catalog, gpus: int, design: str) -> None:
    p = plan(scenario=Scenario(gpus=gpus, design_id=design), catalog=catalog)
    assert math.isclose(sum(p.power.by_category_kw.values()), p.power.it_kw, rel_tol=1e-12)
    assert math.isclose(sum(p.cost.by_category_usd.values()), p.cost.capex_usd, rel_tol=1e-12)
    assert math.isclose(sum(line.total_usd for line in p.bom), p.cost.capex_usd, rel_tol=1e-12)
    assert math.isclose(
        sum(p.cost.opex_by_item_usd_per_year.values()), p.cost.opex_usd_per_year, rel_tol=1e-12
    )
    assert math.isclose(p.cooling.liquid_kw + p.cooling.air_kw, p.cooling.heat_load_kw, rel_tol=1e-12)
    assert (
        p.topology.switches_total
        == p.topology.switches_leaf + p.topology.switches_spine + p.topology.switches_core
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nodes=st.integers(1, 127), design=st.sampled_from(["rail4-npo", "rail8-npo", "ib-ndr"]))
def test_capex_grows_with_gpu_count(catalog: Catalog, nodes: int, design: str) -> None:
    smaller = plan(scenario=Scenario(gpus=8 * nodes, design_id=design), catalog=catalog)
    larger = plan(scenario=Scenario(gpus=8 * (nodes + 1), design_id=design), catalog=catalog)
    assert larger.cost.capex_usd > smaller.cost.capex_usd


@FAST
@given(gpus=st.integers(8, 1024), gpu=st.sampled_from(["br100", "h100_sxm", "mi300x"]))
def test_eight_rail_injection_is_twice_four_rail(catalog: Catalog, gpus: int, gpu: str) -> None:
    four = plan(scenario=Scenario(gpus=gpus, design_id="rail4-npo", gpu_id=gpu), catalog=catalog)
    eight = plan(scenario=Scenario(gpus=gpus, design_id="rail8-npo", gpu_id=gpu), catalog=catalog)
    assert eight.bandwidth.per_gpu_gbit_per_s == 2 * four.bandwidth.per_gpu_gbit_per_s
    assert eight.bandwidth.bisection_tbit_per_s == 2 * four.bandwidth.bisection_tbit_per_s


@FAST
@given(price=st.floats(0, 100_000), gpus=st.sampled_from([8, 256, 1024]))
def test_capex_is_linear_in_unit_price(catalog: Catalog, price: float, gpus: int) -> None:
    # CAPEX = hardware x (1 + installation + spares) + cooling, so d CAPEX / d GPU price
    # = GPUs x (1 + installation + spares) exactly.
    base = plan(
        scenario=Scenario(gpus=gpus, design_id="ib-ndr", price_overrides_usd={"h100_sxm": 0.0}),
        catalog=catalog,
    )
    priced = plan(
        scenario=Scenario(gpus=gpus, design_id="ib-ndr", price_overrides_usd={"h100_sxm": price}),
        catalog=catalog,
    )
    factors = (
        1
        + catalog.cost_factors["installation_fraction"].value
        + catalog.cost_factors["spares_fraction"].value
    )
    assert math.isclose(
        priced.cost.capex_usd - base.cost.capex_usd, gpus * price * factors, rel_tol=1e-9, abs_tol=1e-6
    )
