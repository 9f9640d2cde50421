"""Scale-up domains: no scale-out fabric where one domain holds the cluster, and domains across
servers (rack-scale NVLink) as a tier of their own."""

from __future__ import annotations

from typing import Any

import pytest

from planner.catalog import load_catalog
from planner.compare import compare
from planner.engine import Plan, plan
from planner.outputs import plan_summary_row, plan_to_dict
from planner.performance.collectives import fabric_from_plan
from planner.scenario import scenario_from_data

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
    assert not {x.category for x in p.bom} & {"nics", "fabric_switches", "optics", "cables"}
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
