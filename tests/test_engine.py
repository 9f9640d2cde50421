"""Function-level goldens for power, racks, cooling and cost (derivations in comments)."""

from __future__ import annotations

import math

import pytest

from planner import Catalog, Facility, InputError, Scenario, load_catalog, plan
from planner.cost import BomLine, cost_summary
from planner.engine import SwitchModels
from planner.fabric.media import LINK_CLASSES, units_on_devices
from planner.facility.cooling import cooling_summary
from planner.facility.power import rack_layout
from planner.i18n import catalogs, error_text, translate
from planner.i18n.message import Message
from planner.units import annuity_factor, coolant_flow_l_per_min


def test_coolant_flow_golden() -> None:
    # 100 kW at dT = 10 K: m = 100 / (4.186 x 10) = 2.38892 kg/s; / 0.997 kg/L x 60 = 143.766 L/min
    assert coolant_flow_l_per_min(heat_kw=100, delta_t_k=10) == pytest.approx(143.766, abs=1e-3)


def test_rack_layout_golden() -> None:
    # 10.5 kW nodes of 8 U in 38 U racks at 40 kW: by power floor(40/10.5) = 3, by space
    # floor(38/8) = 4 -> 3 per rack; 10 nodes -> 4 racks (3+3+3+1).
    # Infrastructure 30 kW and 60 U: by space ceil(60 / floor(38 x 0.8) = 30) = 2, by power 1 -> 2.
    racks = rack_layout(
        nodes=10,
        node_kw=10.5,
        node_rack_units=8,
        usable_rack_units=38,
        rack_power_limit_kw=40,
        infra_kw=30,
        infra_rack_units=60,
        network_fill_fraction=0.8,
    )
    assert (racks.nodes_per_rack, racks.compute_racks, racks.network_racks, racks.total) == (3, 4, 2, 6)
    assert [(kind, count, round(kw, 6)) for kind, count, kw in racks.layout[:2]] == [
        ("compute", 3, 31.5),
        ("compute", 1, 10.5),
    ]
    with pytest.raises(InputError, match="rack_power_limit_kw"):
        rack_layout(
            nodes=1,
            node_kw=14.3,
            node_rack_units=10,
            usable_rack_units=38,
            rack_power_limit_kw=10,
            infra_kw=1,
            infra_rack_units=1,
            network_fill_fraction=0.8,
        )


def test_cooling_golden(catalog: Catalog) -> None:
    # direct liquid: capture 0.8 of 1000 kW server heat = 800 kW liquid; air = 1100 - 800 = 300 kW.
    # CDUs: ceil(800 / 1200) + 1 (N+1) = 2.
    liquid = catalog.cooling["direct_liquid"]
    result = cooling_summary(cooling=liquid, it_kw=1100, server_kw=1000, max_rack_kw=50)
    assert result.liquid_kw == pytest.approx(1000 * liquid.liquid_capture_fraction)
    assert result.air_kw == pytest.approx(1100 - result.liquid_kw)
    assert result.cdus == math.ceil(result.liquid_kw / (liquid.cdu_capacity_kw or 1)) + 1
    assert result.heat_load_btu_per_h == pytest.approx(1100 * 3412.142)
    assert result.density_feasible is (liquid.max_rack_kw >= 50)


def test_cost_golden() -> None:
    # One line of 1,000,000 USD hardware + 50,000 services; 100 kW average facility power at
    # 0.10 USD/kWh: energy = 100 x 8760 x 0.10 = 87,600 USD/yr; maintenance 10 % of hardware
    # (1,000,000) = 100,000; space 2 racks x 6,000 = 12,000 -> OPEX 199,600 USD/yr.
    # TCO over 5 years at 8 %: 1,050,000 + 199,600 / CRF(0.08, 5) = 1,050,000 + 199,600 x 3.99271.
    lines = [
        BomLine(id="x", category="gpus", description="", quantity=10, unit_cost_usd=100_000, source="s"),
        BomLine(id="i", category="services", description="", quantity=1, unit_cost_usd=50_000, source="s"),
    ]
    cost = cost_summary(
        lines=lines,
        gpus=8,
        facility_avg_kw=100,
        electricity_usd_per_kwh=0.10,
        maintenance_fraction_per_year=0.10,
        racks=2,
        space_usd_per_rack_year=6000,
        years=5,
        discount_rate=0.08,
        utilization=0.9,
        usd_to_cny=7.25,
        currency="CNY",
    )
    assert cost.capex_usd == 1_050_000
    assert cost.opex_usd_per_year == pytest.approx(199_600)
    assert cost.tco_usd == pytest.approx(1_050_000 + 199_600 * 3.992710, rel=1e-6)
    # per GPU-hour: (1,050,000 x 0.250456 + 199,600) / (8 x 8760 x 0.9)
    expected = (1_050_000 * annuity_factor(rate=0.08, years=5) + 199_600) / (8 * 8760 * 0.9)
    assert cost.usd_per_gpu_hour == pytest.approx(expected)
    assert cost.in_currency(1.0) == 7.25


def test_twin_port_modules_count_per_switch() -> None:
    # 3 leaves with 33 ports: 11 each -> ceil(11/2) = 6 per leaf = 18 modules (not ceil(33/2) = 17)
    assert units_on_devices(ports=33, devices=3, ports_per_module=2) == 18


def test_npo_designs_have_no_pluggable_modules(catalog: Catalog) -> None:
    p = plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog)
    # the compute fabric's optics (the storage and in-band fabrics' pluggables are lines of their own)
    optics_lines = [
        line for line in p.bom if line.category == "optics" and set(line.link_classes) <= set(LINK_CLASSES)
    ]
    assert [line.id for line in optics_lines] == ["npo_200g_port"]
    # every link has an NPO port at each end: 2 x (8192 node-leaf + 8192 leaf-spine) links
    assert optics_lines[0].quantity == 2 * (8192 + 8192) == p.transceivers


def test_short_links_use_copper_and_long_links_single_mode(catalog: Catalog) -> None:
    from planner.inputs.scenario import LinkLengths

    short = Facility(link_lengths=LinkLengths(node_leaf_m=1.5, leaf_spine_m=30, spine_core_m=60))
    p = plan(scenario=Scenario(gpus=256, design_id="ib-ndr", facility=short), catalog=catalog)
    media = {m.link_class: m.medium for m in p.media}
    assert media["node_leaf"] in {"dac", "acc", "aec"}
    assert media["leaf_spine"] == "mmf"
    long = Facility(link_lengths=LinkLengths(node_leaf_m=10, leaf_spine_m=300, spine_core_m=60))
    p = plan(scenario=Scenario(gpus=256, design_id="ib-ndr", facility=long), catalog=catalog)
    assert {m.link_class: m.medium for m in p.media}["leaf_spine"] == "smf"


def test_cooling_density_warning(catalog: Catalog) -> None:
    air = Facility(cooling_id="air", rack_power_limit_kw=60)
    p = plan(scenario=Scenario(gpus=256, design_id="ib-ndr", facility=air), catalog=catalog)
    assert not p.cooling.density_feasible
    assert any("can remove" in n for n in p.notes)


def test_assumptions_list_every_assumed_record_used(catalog: Catalog) -> None:
    p = plan(scenario=Scenario(gpus=64, design_id="rail4-npo"), catalog=catalog)
    topics = {a.topic for a in p.assumptions}
    assert "optics.npo_200g_port" in topics
    assert "model.link_lengths" in topics
    assumed = {a.topic for a in p.assumptions if a.kind == "assumption"}
    assert "gpus.br100" in assumed  # BR100 price is an assumption in the catalog
    # vendor claims are carried separately and never mixed with computed figures
    assert {c.metric for c in p.claims} == {
        "latency_vs_infiniband",
        "power_vs_infiniband",
        "per_lane_bandwidth",
    }


def test_price_override_of_unknown_id_is_rejected(catalog: Catalog) -> None:
    with pytest.raises(InputError, match=r"price_overrides_usd\.ghost"):
        plan(scenario=Scenario(gpus=64, price_overrides_usd={"ghost": 1.0}), catalog=catalog)


def test_per_tier_switch_models_and_forced_media(catalog: Catalog) -> None:
    # ib-ndr at 4096 GPUs needs three tiers of 64-port QM9700 (see test_topology). With the
    # 144-port XDR switch (288 x 400G) as spine, one spine layer holds up to 288 leaves:
    # 128 leaves x 32 uplinks / 288 = 14.2 -> at least 15 spines; the even-spread rule takes the
    # smallest divisor of 32 uplinks >= 15: 16 spines, 2 links from every leaf (was 15), two tiers.
    base = catalog.designs["ib-ndr"].fabric
    fabric = base.model_copy(
        update={"spine_switch_id": "q3400_xdr", "link_media": {"leaf_spine": "osfp_800g_2xdr4"}}
    )
    p = plan(scenario=Scenario(gpus=4096, design_id="ib-ndr", fabric=fabric), catalog=catalog)
    assert (p.topology.tiers, p.topology.switches_leaf, p.topology.switches_spine) == (2, 128, 16)
    switch_lines = {(line.id, line.quantity) for line in p.bom if line.category == "fabric_switches"}
    assert switch_lines == {("qm9700_ndr", 128), ("q3400_xdr", 16)}
    assert {m.link_class: m.medium for m in p.media}["leaf_spine"] == "smf"
    assert p.design_id == "ib-ndr-custom"


def test_forced_media_is_checked(catalog: Catalog) -> None:
    base = catalog.designs["ib-ndr"].fabric
    too_short = base.model_copy(update={"link_media": {"leaf_spine": "dac_400g"}})
    with pytest.raises(InputError, match=r"fabric\.link_media\.leaf_spine: dac_400g carries"):
        plan(scenario=Scenario(gpus=1024, design_id="ib-ndr", fabric=too_short), catalog=catalog)
    npo = catalog.designs["rail4-npo"].fabric.model_copy(update={"link_media": {"node_leaf": "dac_200g"}})
    short = Facility(link_lengths={"node_leaf_m": 1.0})
    with pytest.raises(InputError, match="NPO/CPO ports take no copper"):
        plan(scenario=Scenario(gpus=64, design_id="rail4-npo", fabric=npo, facility=short), catalog=catalog)


def test_plan_names_the_switch_model_of_each_tier(catalog: Catalog) -> None:
    # same fabric as above: QM9700 leaves under a Q3400 XDR spine layer, two tiers, no core
    base = catalog.designs["ib-ndr"].fabric
    fabric = base.model_copy(update={"spine_switch_id": "q3400_xdr"})
    p = plan(scenario=Scenario(gpus=4096, design_id="ib-ndr", fabric=fabric), catalog=catalog)
    assert p.switch_models == SwitchModels(leaf_id="qm9700_ndr", spine_id="q3400_xdr", core_id=None)
    small = plan(scenario=Scenario(gpus=16, design_id="ib-ndr"), catalog=catalog)
    assert (small.topology.tiers, small.switch_models.spine_id) == (1, None)


def test_engine_texts_are_messages_that_read_in_chinese(catalog: Catalog) -> None:
    # 10 GPUs on 8-GPU servers: rounded up to 2 nodes (16 GPUs), and the note says so
    p = plan(scenario=Scenario(gpus=10), catalog=catalog)
    note = p.notes[0]
    assert note == "10 GPUs rounded up to 2 whole nodes of 8 GPUs = 16 GPUs"
    assert translate(note, "zh") == "10 张 GPU 向上取整为 2 个整节点，每节点 8 张 GPU，共 16 张 GPU"
    texts = [line.description for line in p.bom] + [
        a.text for a in p.assumptions if a.topic.startswith("model.")
    ]
    zh = catalogs.engine_strings("zh")
    untranslated = [t for t in texts if not isinstance(t, Message) or t.template not in zh]
    assert untranslated == []
    with pytest.raises(InputError) as caught:
        plan(scenario=Scenario(gpus=64, price_overrides_usd={"ghost": 1.0}), catalog=catalog)
    assert (
        translate(error_text(caught.value), "zh")
        == "price_overrides_usd.ghost：没有带价格的目录条目使用此 id"
    )


def test_default_cooling_gives_way_to_an_air_only_server() -> None:
    """DGX A100 takes air cooling only: the default direct-liquid cooling is replaced, with a note;
    a cooling the user chose that the server cannot take stays an error naming the field."""
    catalog = load_catalog()
    p = plan(scenario=Scenario(gpus=64, design_id="ib-hdr"), catalog=catalog)
    assert p.scenario.facility.cooling_id == "direct_liquid"
    assert any("air is used instead of the default direct_liquid" in n for n in p.notes)
    chosen = Scenario(gpus=64, design_id="ib-hdr", facility=Facility(cooling_id="immersion"))
    with pytest.raises(
        InputError, match=r"facility\.cooling_id: dgx_a100_8gpu supports air cooling, not immersion"
    ):
        plan(scenario=chosen, catalog=catalog)
