"""Ports and NICs as they are: NICs per server, ports per NIC, ports per GPU and planes per port
chosen independently, with counts, BOM and the collective model's bandwidth following."""

from __future__ import annotations

from typing import Any

import pytest

from planner.catalog import load_catalog
from planner.design import FabricParams
from planner.engine import Plan, plan
from planner.errors import InputError
from planner.fabric.topology import server_ports
from planner.inputs.scenario import scenario_from_data
from planner.outputs import plan_to_dict

CATALOG = load_catalog()


def _plan(design_id: str, gpus: int, **fabric: Any) -> Plan:
    base = CATALOG.designs[design_id].fabric.model_dump()
    # the DGX A100 of ib-hdr is air-cooled only
    data: dict[str, Any] = {"gpus": gpus, "design_id": design_id, "facility": {"cooling_id": "air"}}
    if fabric:
        data["fabric"] = {**base, **fabric}
    return plan(scenario=scenario_from_data(data), catalog=CATALOG)


def _bom(p: Plan, category: str) -> int:
    return sum(x.quantity for x in p.bom if x.category == category)


def test_defaults_keep_one_nic_per_gpu_port_group() -> None:
    """The presets' ratios: one NIC per GPU (8 x 1 port on ib-ndr, 8 x 8 ports on rail8-npo)."""
    ndr = server_ports(gpus_per_node=8, fabric=CATALOG.designs["ib-ndr"].fabric, nic_ports=1)
    assert (ndr.ports, ndr.nics, ndr.links, ndr.per_gpu_gbit_per_s) == (8, 8, 8, 400.0)
    npo = server_ports(gpus_per_node=8, fabric=CATALOG.designs["rail8-npo"].fabric, nic_ports=1)
    assert (npo.ports, npo.nics, npo.per_gpu_gbit_per_s) == (64, 64, 1600.0)


def test_half_a_port_per_gpu_halves_ports_nics_switch_ports_and_bandwidth() -> None:
    """4 HDR ports for 8 A100s (the nccl-tests A100 runs): 256 GPUs = 32 servers x 4 ports = 128
    endpoints, 4 rails of ceil(32 / 20) = 2 leaves -> 8 leaves (16 with 8 ports); 12.5 GB/s line
    rate per GPU x 0.94 NCCL efficiency x 8 GPUs per domain = 94 GB/s network bound."""
    full = _plan("ib-hdr", 256)
    half = _plan("ib-hdr", 256, gpus_per_port=2)
    assert (full.nics, half.nics) == (256, 128)
    assert (full.topology.links_node_leaf, half.topology.links_node_leaf) == (256, 128)
    assert (full.topology.switches_leaf, half.topology.switches_leaf) == (16, 8)
    assert _bom(half, "nics") == 128
    assert half.bandwidth.per_gpu_gbit_per_s == pytest.approx(100.0)
    assert half.bandwidth.network_gbyte_per_s == pytest.approx(8 * 12.5 * 0.94)
    assert half.bandwidth.network_gbyte_per_s == pytest.approx(full.bandwidth.network_gbyte_per_s / 2)
    d = plan_to_dict(half)["fabric"]
    assert (d["ports_per_server"], d["gpus_per_port"], d["nics_per_server"]) == (4, 2, 4)


def test_two_port_nics_halve_the_nic_count_not_the_ports() -> None:
    """cx7_2x200g with 2 ports each: 8 ports per server on 4 NICs."""
    p = _plan("rail4-npo", 64, nic_id="cx7_2x200g", ports_per_nic=2, ports_per_gpu=1, planes=1)
    assert p.nics == 8 * 4 and p.topology.links_node_leaf == 64
    assert plan_to_dict(p)["fabric"]["ports_per_nic"] == 2


def test_planes_per_port_split_one_port_into_links_at_a_lower_speed() -> None:
    """One 800G XDR port as 2 x 400G on two planes (a multi-plane NIC): 16 links per 8-GPU
    server on 2 planes, Q3400 leaves at 400G (288 ports), twin-port 2 x 400G modules on the
    switches, one 800G module per physical port at the node (8 per server), and the same
    800 Gb/s per GPU as without the split."""
    p = _plan(
        "ib-xdr",
        1024,
        planes_per_port=2,
        planes=2,
        optics_id="osfp_800g_2xdr4",
        node_optics_id="osfp_800g_dr8",
    )
    assert p.topology.links_node_leaf == 2 * 1024
    assert (p.topology.planes, p.topology.radix, p.server_ports.link_speed_gbit_per_s) == (2, 288, 400)
    node_leaf = next(m for m in p.media if m.link_class == "node_leaf")
    assert node_leaf.lower.ports == 1024 and node_leaf.upper.ports == 2048
    assert p.bandwidth.per_gpu_gbit_per_s == pytest.approx(800.0)
    assert plan_to_dict(p)["fabric"]["planes_per_port"] == 2


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"gpus_per_port": 3}, "fabric.gpus_per_port"),
        ({"gpus_per_port": 2, "ports_per_nic": 3}, "fabric.ports_per_nic"),
        ({"gpus_per_port": 2, "nics_per_server": 3}, "fabric.nics_per_server"),
        ({"nics_per_server": 4, "ports_per_nic": 1}, "fabric.nics_per_server"),
        ({"ports_per_nic": 2}, "fabric.ports_per_nic"),
    ],
)
def test_ports_that_do_not_divide_name_the_field(changes: dict[str, int], field: str) -> None:
    with pytest.raises(InputError, match=field.replace(".", r"\.")):
        _plan("ib-hdr", 64, **changes)


def test_both_fractions_at_once_are_refused() -> None:
    base = CATALOG.designs["ib-hdr"].fabric.model_dump()
    with pytest.raises(ValueError, match="not both"):
        FabricParams.model_validate({**base, "ports_per_gpu": 2, "gpus_per_port": 2})


# Recorded from `planner plan --gpus 1024 --design <id> --format json` on main before the port
# ratios existed (same catalog): (NICs, leaf, spine, transceivers, cables, CAPEX USD). rail8-npo:
# 1024 GPUs x 8 ports = 8192 NICs and node links, 8 planes of 1024 endpoints on 256-port switches
# at 1:1 = 8 leaves + 4 spines per plane; every link optical (NPO ports at both ends).
# CAPEX then grew with the storage and management cabling (issue 17): their cables and optics,
# 834,151 USD (rail4-npo, ib-ndr: 280 + 384 storage links x 2 x 500 USD 200G SR modules, 131 + 144
# in-band links x 2 x 150 USD 100G SR4, MMF trunks at 65/105 USD, 201 + 216 Cat6 OOB cords at
# 8/18 USD) or 835,399 USD (rail8-npo: 48 more OOB ports, 249 + 264 cords), x 1.08 (installation
# 5 % + spares 3 %), plus cooling for their 10,557 W of optics (+11 kW x 2,100 USD/kW = 23,100):
# 36,004,293.6 + 923,983.08, 47,216,947.2 + 925,330.92, 53,692,010.4 + 923,983.08.
# These CAPEX figures price every cable at the scenario's one length per link class, as plans did
# then; a plan now prices the layout's lengths (tests/test_cable_lengths.py), so this check plans
# with layout_cable_lengths=False: the port ratios are what it is about.
BEFORE = {
    "rail4-npo": (4096, 32, 16, 16384, 8192, 36928276.68),
    "rail8-npo": (8192, 64, 32, 32768, 16384, 48142278.12),
    "ib-ndr": (1024, 32, 16, 2560, 2048, 54615993.48),
}


@pytest.mark.parametrize("design_id", sorted(BEFORE))
def test_presets_plan_as_before_the_port_ratios(design_id: str) -> None:
    f = plan_to_dict(
        plan(
            scenario=scenario_from_data({"gpus": 1024, "design_id": design_id}),
            catalog=CATALOG,
            layout_cable_lengths=False,
        )
    )
    fab = f["fabric"]
    got = (
        fab["nics"],
        fab["switches"]["leaf"],
        fab["switches"]["spine"],
        fab["transceivers"],
        fab["cables"],
        f["cost"]["capex_usd"],
    )
    assert got == BEFORE[design_id]


@pytest.mark.parametrize("design_id", ["rail4-npo", "rail8-npo", "ib-ndr", "ib-xdr"])
def test_explicit_default_ratios_change_nothing(design_id: str) -> None:
    """The defaults written out (one NIC per GPU port, whole ports, one plane per port) give the
    preset's plan, key for key."""
    fabric = CATALOG.designs[design_id].fabric
    explicit = _plan(
        design_id,
        1024,
        gpus_per_port=1,
        planes_per_port=1,
        nics_per_server=8 * fabric.ports_per_gpu,
        ports_per_nic=1,
    )
    preset = plan(
        scenario=scenario_from_data(
            {"gpus": 1024, "design_id": design_id, "facility": {"cooling_id": "air"}}
        ),
        catalog=CATALOG,
    )
    a, b = plan_to_dict(explicit), plan_to_dict(preset)
    for key in ("design", "design_name", "notes", "assumptions"):
        a.pop(key), b.pop(key)
    assert a == b
