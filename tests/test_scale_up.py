"""Scale-up domains: no scale-out fabric where one domain holds the cluster, and domains across
servers (rack-scale NVLink) as a tier of their own."""

from __future__ import annotations

from typing import Any

import pytest

from planner.catalog import load_catalog
from planner.compare import compare
from planner.engine import Plan, plan
from planner.fabric.media import AUX_LINK_CLASSES
from planner.inputs.scenario import scenario_from_data
from planner.outputs import plan_summary_row, plan_to_dict
from planner.performance.collectives import fabric_from_plan

CATALOG = load_catalog()
PRESETS = ("rail4-npo", "rail8-npo", "ib-ndr", "ib-xdr")


def _plan(**data: Any) -> Plan:
    return plan(scenario=scenario_from_data(data), catalog=CATALOG)


@pytest.mark.parametrize("design_id", PRESETS)
def test_one_server_buys_no_scale_out_fabric(design_id: str) -> None:
    """8 GPUs on one 8-GPU server: no switches, NICs, links or optics, and a note says so."""
    p = _plan(gpus=8, design_id=design_id)
    assert p.topology.tiers == 0 and p.topology.switches_total == 0
    assert (p.nics, p.topology.links_total, p.transceivers, p.cables) == (0, 0, 0, 0)
    # the storage and management fabrics are still cabled (issue 17): their lines name their classes
    compute = [x for x in p.bom if not set(x.link_classes) & set(AUX_LINK_CLASSES)]
    assert not {x.category for x in compute} & {"nics", "fabric_switches", "optics", "cables"}
    assert any("no scale-out switches" in n for n in p.notes)
    # busbw is the scale-up level's: the network figures are 0, never inf
    assert p.bandwidth.allreduce_bound == "scale-up" and p.bandwidth.network_gbyte_per_s == 0.0
    assert p.bandwidth.allreduce_busbw_gbyte_per_s > 0 and len(p.bandwidth.fabric.levels) == 1
    assert (p.latency.min_switch_hops, p.latency.max_switch_hops) == (0, 0)


def test_rail8_npo_single_node_drops_the_eight_switches() -> None:
    """The issue's example: 8 x 51.2T switches (8 x 29,400 USD before services) are gone."""
    forced = _plan(gpus=8, design_id="rail8-npo", force_scale_out_fabric=True)
    lean = _plan(gpus=8, design_id="rail8-npo")
    assert forced.topology.switches_leaf == 8 and lean.topology.switches_total == 0
    assert lean.cost.capex_usd < forced.cost.capex_usd
    assert not any("no scale-out switches" in n for n in forced.notes)


def test_two_servers_still_get_a_fabric() -> None:
    p = _plan(gpus=16, design_id="ib-ndr")
    assert p.topology.tiers == 1 and p.nics == 16


def test_zero_tier_plan_flows_through_outputs_compare_and_collectives() -> None:
    p = _plan(gpus=8, design_id="ib-ndr")
    d = plan_to_dict(p)
    assert d["fabric"]["tiers"] == 0 and d["fabric"]["switches"]["total"] == 0
    assert d["bandwidth"]["network_gbyte_per_s"] == 0.0
    assert plan_summary_row(p)["switches"] == 0
    plans = compare(scenario=scenario_from_data({"gpus": 8}), catalog=CATALOG, design_ids=PRESETS)
    assert [x.topology.tiers for x in plans] == [0] * len(PRESETS)
    assert fabric_from_plan(plan=p, catalog=CATALOG).levels[0].name == "scale-up"


NVL72 = "gb200-nvl72-ib-ndr"


def test_nvl72_at_576_gpus_has_eight_domains_and_a_two_tier_fabric() -> None:
    """576 GPUs = 8 NVL72 racks = 144 trays of 4 GPUs. Scale-up: 9 trays x 8 = 72 NVLink switch
    trays, 576 x 18 = 10,368 links. Scale-out: 4 rails of ceil(144 / 32) = 5 leaves = 20 leaves,
    20 x 32 = 640 uplinks over the smallest divisor of 32 >= 640 / 64 = 10, i.e. 16 spines."""
    p = _plan(gpus=576, design_id=NVL72)
    su = plan_to_dict(p)["scale_up"]
    assert (su["domain_gpus"], su["domains"], su["servers_per_domain"]) == (72, 8, 18)
    assert (su["switches"], su["links"]) == (72, 10_368)
    assert (p.topology.tiers, p.topology.switches_leaf, p.topology.switches_spine) == (2, 20, 16)
    assert p.nics == 576
    # the collective hierarchy is the domain, then the network: a domain is 72 GPUs
    fabric = p.bandwidth.fabric
    assert fabric.domain_gpus == 72 and fabric.domains == 8
    # busbw bounded at the domain: its NVLS rate is below 72 GPUs x 47 GB/s of network egress
    assert p.bandwidth.allreduce_bound == "scale-up"
    assert p.bandwidth.network_gbyte_per_s == pytest.approx(72 * 50 * 0.94)
    assert p.bandwidth.allreduce_busbw_gbyte_per_s <= p.bandwidth.scale_up_gbyte_per_s
    # all-to-all crosses the network for (576 - 72) / 576 of its data: network-bound
    assert p.bandwidth.alltoall_bound == "network"
    assert sum(x.quantity for x in p.bom if x.id == "nvlink5_switch_tray") == 72


def test_nvl72_at_72_gpus_buys_no_scale_out_fabric() -> None:
    p = _plan(gpus=72, design_id=NVL72)
    assert p.topology.switches_total == 0 and p.nics == 0 and p.transceivers == 0
    assert p.scale_up.switches == 9 and p.scale_up.links == 1296
    assert p.racks.compute_racks == 1 and p.racks.nodes_per_rack == 18


def test_nvl72_rack_power_is_trays_and_switch_trays() -> None:
    """18 trays x (4 x 1,200 + 1,000 W) + 9 x 1,500 W = 104.4 + 13.5 = 117.9 kW in one rack, plus the
    storage and in-band optics in the trays (issue 17): 18 x (2 x 6.5 W 200G SR + 3.5 W 100G SR4)
    = 0.297 kW: 118.197 kW."""
    p = _plan(gpus=72, design_id=NVL72)
    assert p.racks.max_rack_kw == pytest.approx(117.9 + 0.297)
    assert p.power.node_kw * 18 == pytest.approx(118.197)


def test_gpus_round_up_to_whole_domains() -> None:
    p = _plan(gpus=100, design_id=NVL72)
    assert p.gpus == 144 and p.nodes == 36
    assert any("whole scale-up domains" in n for n in p.notes)


def test_a_domain_taller_than_a_rack_spans_racks() -> None:
    """A 144-GPU domain (36 trays + 18 switch trays = 54 U) is split over two 38 U racks."""
    base = CATALOG.designs[NVL72].fabric.model_dump()
    p = _plan(gpus=144, design_id=NVL72, fabric={**base, "scale_up_domain_gpus": 144})
    assert p.scale_up.switches == 18 and p.racks.compute_racks == 2


@pytest.mark.parametrize(
    ("gpus", "changes", "field"),
    [
        (36, {}, "fabric.scale_up_domain_gpus"),  # a domain larger than the cluster
        (144, {"scale_up_domain_gpus": 70}, "fabric.scale_up_domain_gpus"),  # not whole trays
        (288, {"scale_up_domain_gpus": 288}, "fabric.scale_up_switch_id"),  # 144-port tray too small
        (144, {"scale_up_links_per_gpu": 12}, "fabric.scale_up_links_per_gpu"),  # 600G: no such port
        (144, {"scale_up_switch_id": "qm9700_ndr"}, "fabric.scale_up_switch_id"),  # not a scale-up switch
    ],
)
def test_bad_configurations_name_the_field(gpus: int, changes: dict[str, Any], field: str) -> None:
    from planner.errors import InputError

    base = CATALOG.designs[NVL72].fabric.model_dump()
    with pytest.raises(InputError, match=field.replace(".", r"\.")):
        _plan(gpus=gpus, design_id=NVL72, fabric={**base, **changes})


def test_a_leaf_too_small_for_a_node_names_the_switch() -> None:
    """8 GPUs x 8 HDR ports on one plane = 64 ports per node, a QM8700 has 40."""
    from planner.errors import InputError

    base = CATALOG.designs["ib-hdr"].fabric.model_dump()
    with pytest.raises(InputError, match=r"fabric\.switch_id: a node puts 64 ports"):
        _plan(
            gpus=64, design_id="ib-hdr", facility={"cooling_id": "air"}, fabric={**base, "ports_per_gpu": 8}
        )


def test_bad_configuration_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from planner.cli import run

    assert run(["plan", "--gpus", "36", "--design", NVL72]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fabric.scale_up_domain_gpus" in err
