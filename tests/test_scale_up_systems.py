"""Rack-scale and optical scale-up systems beyond GB200 NVL72: GB300 NVL72, GB200 NVL36x2, Huawei
CloudMatrix 384 and the NPO optical circuit-switched supernode (docs/model.md, "Rack-scale and
optical scale-up systems"), and optical circuit switches as a switch kind."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from planner.catalog import load_catalog
from planner.catalog.schema import Switch
from planner.engine import Plan, plan
from planner.errors import InputError
from planner.fabric.scale_up import scale_up_path_latency_ns, switched_domain, switches_spread_evenly
from planner.inputs.scenario import scenario_from_data
from planner.outputs import plan_to_dict

CATALOG = load_catalog()

# preset -> (GPUs per domain, scale-up switches per domain, GPU-to-switch links per domain,
#            link speed [Gb/s], packet-switch hops inside a domain)
SYSTEMS: dict[str, tuple[int, int, int, int, int]] = {
    # 72 x 18 NVLink 5 links of 50 GB/s (400G) on 144-port trays: 1,296 / 144 = 9 trays, one hop
    "gb300-nvl72-ib-xdr": (72, 9, 1296, 400, 1),
    # two racks of 36 GPUs; a tray gives 72 ports to its rack: 36 x 18 / 72 = 9 trays per rack,
    # 18 per domain; across the racks a GPU goes through its tray and the twin: 2 hops
    "gb200-nvl36x2-ib-ndr": (72, 18, 1296, 400, 2),
    # 48 nodes x 8 NPUs x 14 links of 28 GB/s (224G) = 5,376 links on 48-port L2 switches:
    # 112 switches, each node one link to each; NPU -> L1 -> L2 -> L1 -> NPU: 3 hops
    "cloudmatrix384-roce": (384, 112, 5376, 224, 3),
    # 128 servers x 8 GPUs x 8 BLink ports of 32 GB/s (256G) = 8,192 links on 136-port OCSes:
    # ceil(8,192 / 136) = 61 -> the smallest divisor of 64 links per server >= 61 is 64 OCSes;
    # a circuit is no packet hop
    "npo-ocs-supernode": (1024, 64, 8192, 256, 0),
}


def _plan(**data: Any) -> Plan:
    return plan(scenario=scenario_from_data(data), catalog=CATALOG)


def _fabric(design_id: str, **changes: Any) -> dict[str, Any]:
    return {**CATALOG.designs[design_id].fabric.model_dump(), **changes}


@pytest.mark.parametrize("design_id", sorted(SYSTEMS))
@pytest.mark.parametrize("domains", [1, 2, 4])
def test_preset_plans_whole_domains(design_id: str, domains: int) -> None:
    domain, switches, links, gbit, hops = SYSTEMS[design_id]
    p = _plan(gpus=domain * domains, design_id=design_id)
    su = plan_to_dict(p)["scale_up"]
    assert (su["domain_gpus"], su["domains"]) == (domain, domains)
    assert (su["switches"], su["links"], su["link_gbit_per_s"]) == (switches * domains, links * domains, gbit)
    assert p.scale_up.switch_hops == hops
    assert sum(x.quantity for x in p.bom if x.id == p.scale_up.switch_id) == switches * domains
    # all-reduce is bounded inside the domain: its rate never exceeds the scale-up level's
    assert p.bandwidth.allreduce_bound == "scale-up"
    assert p.bandwidth.allreduce_busbw_gbyte_per_s <= p.bandwidth.scale_up_gbyte_per_s
    if domains == 1:
        # one domain holds the cluster: no scale-out switches, NICs or optics
        assert p.topology.switches_total == 0 and p.nics == 0 and p.transceivers == 0
        assert p.bandwidth.alltoall_bound == "scale-up"
    else:
        assert p.topology.tiers >= 1 and p.nics >= p.gpus  # a NIC port per GPU per rail
        assert p.bandwidth.alltoall_bound == "network"


@pytest.mark.parametrize("design_id", sorted(SYSTEMS))
def test_cli_plan_json_has_the_scale_up_keys(design_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    from planner.cli import run

    domain = SYSTEMS[design_id][0]
    for gpus in (domain, 2 * domain):
        assert run(["plan", "--gpus", str(gpus), "--design", design_id, "--format", "json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert {"domain_gpus", "switches", "links"} <= set(data["scale_up"])
        assert data["scale_up"]["domains"] == gpus // domain
        assert data["power"]["it_kw"] > 0 and data["latency"]["gpu_to_gpu_ns"] > 0


def test_gb300_nvl72_rack_power() -> None:
    """18 trays x (4 x 1,400 + 760 + 4 x 35 W) + 9 switch trays x 1,500 W = 117.0 + 13.5 = 130.5 kW
    ... less the NICs, which a single-domain plan does not buy: 18 x 6,360 W + 13.5 kW = 127.98 kW;
    plus the storage and in-band optics in the trays (issue 17): 18 x (2 x 6.5 W 200G SR + 3.5 W
    100G SR4) = 0.297 kW: 128.277 kW."""
    p = _plan(gpus=72, design_id="gb300-nvl72-ib-xdr")
    assert p.racks.compute_racks == 1 and p.racks.max_rack_kw == pytest.approx(127.98 + 0.297)
    assert p.gpu_id == "gb300"


def test_gb300_scale_out_is_xdr_with_one_800g_port_per_gpu() -> None:
    p = _plan(gpus=576, design_id="gb300-nvl72-ib-xdr")
    assert p.switch_models.leaf_id == "q3400_xdr" and p.nics == 576
    assert p.server_ports.per_gpu_gbit_per_s == 800


def test_nvl36x2_spans_two_racks_with_twin_switch_trays() -> None:
    """Per rack: 9 trays x (4 x 1,200 + 1,000 W) + 9 switch trays x 1,500 W = 52.2 + 13.5 = 65.7 kW,
    about half an NVL72 rack (117.9 kW); 648 switch-to-switch links join the racks. Plus the storage
    and in-band optics in the trays (issue 17): 9 x (2 x 6.5 W + 3.5 W) = 0.1485 kW: 65.8485 kW."""
    p = _plan(gpus=72, design_id="gb200-nvl36x2-ib-ndr")
    assert p.racks.compute_racks == 2 and p.racks.nodes_per_rack == 9
    assert p.racks.max_rack_kw == pytest.approx(65.7 + 0.1485)
    assert p.scale_up.switch_links == 648
    nvl72 = _plan(gpus=72, design_id="gb200-nvl72-ib-ndr")
    assert p.cost.capex_usd > nvl72.cost.capex_usd  # nine more switch trays
    assert p.racks.max_rack_kw < nvl72.racks.max_rack_kw


def test_cloudmatrix384_is_one_domain_of_48_nodes() -> None:
    """392 GB/s per NPU x 0.81 (ring efficiency, data/collectives.yaml) = 317.52 GB/s effective."""
    p = _plan(gpus=384, design_id="cloudmatrix384-roce")
    assert (p.nodes, p.scale_up.servers_per_domain) == (48, 48)
    assert p.bandwidth.scale_up_gbyte_per_s == pytest.approx(392 * 0.81)
    # every node reaches every L2 switch with one link: 112 switches x 48 ports = 5,376 links
    assert p.scale_up.switches_per_domain * 48 == p.scale_up.links
    # 16 racks in the public system; the planner packs 12 compute racks of 4 nodes and their L2
    # switches, and one network rack (storage, management)
    assert p.racks.compute_racks == 12


def test_ocs_supernode_has_circuits_and_no_switching_latency() -> None:
    p = _plan(gpus=1024, design_id="npo-ocs-supernode")
    su = p.scale_up
    assert su.circuit_switched and su.reconfiguration_ms == 10 and su.switch_hops == 0
    assert dict(p.latency.components_ns)["switches"] == 0.0
    # 64 links per server over 64 OCSes: one port per server on each, 128 of 136 used
    assert su.links // su.switches == 128
    # beyond one domain the 4-rail NPO RoCE fabric joins the supernodes
    p2 = _plan(gpus=2048, design_id="npo-ocs-supernode")
    assert p2.topology.tiers >= 1 and p2.switch_models.leaf_id == "th5_51t_switch"


def test_tpu_v4_ocs_count_is_reproduced() -> None:
    """TPU v4 (Jouppi et al., ISCA 2023): 64 cubes of 4 x 4 x 4 chips, 6 faces x 16 = 96 optical
    links per cube, 48 OCSes of 136 ports. ceil(64 x 96 / 136) = 46 -> divisor of 96 -> 48."""
    assert switches_spread_evenly(units=64, links_per_unit=96, ports=136) == 48


def test_path_latency_counts_hops() -> None:
    """CloudMatrix: 3 hops x 200 ns; NVL36x2 across racks: 2 x 300 ns; an OCS domain: 0."""
    for design_id, ns in (
        ("cloudmatrix384-roce", 600.0),
        ("gb200-nvl36x2-ib-ndr", 600.0),
        ("npo-ocs-supernode", 0.0),
    ):
        p = _plan(gpus=SYSTEMS[design_id][0], design_id=design_id)
        switch = CATALOG.switches[p.scale_up.switch_id or ""]
        assert scale_up_path_latency_ns(domain=p.scale_up, switch_latency_ns=switch.latency_ns) == ns


def test_circuit_switch_ports_hold_at_any_speed() -> None:
    ocs = CATALOG.switches["mems_ocs_136"]
    assert ocs.kind == "circuit" and ocs.ports_at(256) == ocs.ports_at(1600) == 136
    tray = CATALOG.switches["nvlink5_switch_tray"]
    assert tray.kind == "packet" and tray.ports_at(400) == 144 and tray.ports_at(200) is None


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"latency_ns": 50}, "latency_ns must be 0"),
        ({"reconfiguration_ms": None}, "needs reconfiguration_ms"),
        ({"twin_rack": True}, "twin_rack false"),
        ({"kind": "packet"}, "for kind circuit only"),
    ],
)
def test_bad_circuit_switch_records_are_refused(changes: dict[str, Any], match: str) -> None:
    data = {**CATALOG.switches["mems_ocs_136"].model_dump(), **changes}
    with pytest.raises(ValidationError, match=match):
        Switch.model_validate(data)


@pytest.mark.parametrize(
    ("design_id", "gpus", "changes", "field", "text"),
    [
        # a domain larger than the cluster
        ("cloudmatrix384-roce", 100, {}, "fabric.scale_up_domain_gpus", "larger than"),
        # 380 NPUs are not whole 8-NPU nodes
        ("cloudmatrix384-roce", 760, {"scale_up_domain_gpus": 380}, "fabric.scale_up_domain_gpus", "whole"),
        # 49 nodes on 48-port L2 switches
        (
            "cloudmatrix384-roce",
            392,
            {"scale_up_domain_gpus": 392},
            "fabric.scale_up_switch_id",
            "49 servers",
        ),
        # 19 trays do not split into two racks
        (
            "gb200-nvl36x2-ib-ndr",
            76,
            {"scale_up_domain_gpus": 76},
            "fabric.scale_up_domain_gpus",
            "two racks",
        ),
        # 144 GPUs per rack half on 72 GPU-facing ports
        (
            "gb200-nvl36x2-ib-ndr",
            288,
            {"scale_up_domain_gpus": 288},
            "fabric.scale_up_switch_id",
            "each rack",
        ),
        # 14 links of 392 GB/s is 224G; 7 links would be 448G, which the L2 switch lacks
        ("cloudmatrix384-roce", 384, {"scale_up_links_per_gpu": 7}, "fabric.scale_up_links_per_gpu", "448G"),
    ],
)
def test_bad_configurations_name_the_field(
    design_id: str, gpus: int, changes: dict[str, Any], field: str, text: str
) -> None:
    with pytest.raises(InputError, match=field.replace(".", r"\.")) as caught:
        _plan(gpus=gpus, design_id=design_id, fabric=_fabric(design_id, **changes))
    assert text in str(caught.value)


def test_bad_configuration_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from planner.cli import run

    assert run(["plan", "--gpus", "512", "--design", "npo-ocs-supernode", "--format", "json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fabric.scale_up_domain_gpus" in err


def test_server_attached_domain_without_the_engine() -> None:
    """The domain arithmetic on its own: a UB L2 switch sees servers, not NPUs."""
    l2 = CATALOG.switches["ub_l2_switch"]
    d = switched_domain(
        gpus=768, gpus_per_node=8, domain_gpus=384, switch=l2, links_per_gpu=14, scale_up_gbyte_per_s=392
    )
    assert (d.domains, d.switches_per_domain, d.switches, d.links, d.link_gbit_per_s) == (
        2,
        112,
        224,
        10752,
        224,
    )
