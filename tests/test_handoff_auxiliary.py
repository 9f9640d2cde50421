"""Cabling of the storage, front-end, in-band and out-of-band fabrics (issue 17, hand-off slice 2).

For every preset at 64, 256 and 1024 GPUs the cabling plan has, per link class (compute and
auxiliary), as many cables as the BOM's cable line of that class and, per auxiliary class, as
many transceivers as its optics line; no port is cabled twice; every auxiliary endpoint is on a
leaf of its own fabric. Golden numbers for rail8-npo at 1024 GPUs with their derivation.
"""

from __future__ import annotations

from collections import Counter

import pytest
from handoff_fixtures import CATALOG, cases, preset_handoff

from planner import plan
from planner.fabric.media import AUX_LINK_CLASSES, FABRIC_LINK_CLASSES
from planner.handoff.cabling import Handoff, build_handoff
from planner.inputs.scenario import scenario_from_data

CASES = cases()
IDS = [f"{d}-{g}" for d, g in CASES]


def _bom_by_class(h: Handoff, category: str) -> Counter[str]:
    """BOM quantity per link class, from the lines that count exactly one class."""
    found: Counter[str] = Counter()
    for line in h.plan.bom:
        if line.category == category and len(line.link_classes) == 1:
            found[line.link_classes[0]] += line.quantity
    return found


def _optics_by_class(h: Handoff) -> Counter[str]:
    """Transceivers of the cabling plan per link class: distinct modules (device, slot)."""
    modules: dict[str, set[tuple[str, str]]] = {}
    for link in h.wiring.links:
        for device, optic, module in (
            (link.a_device, link.optic_a, link.a_module),
            (link.b_device, link.optic_b, link.b_module),
        ):
            if optic:
                modules.setdefault(link.link_class, set()).add((device, module))
    return Counter({k: len(v) for k, v in modules.items()})


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_cables_per_class_equal_the_bom_lines(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    rows = Counter(c.link_class for c in h.cables)
    bom = _bom_by_class(h, "cables")
    assert rows == bom
    # every auxiliary fabric with switches is cabled: storage, in-band and OOB always are
    assert {"storage_access", "inband_access", "oob_access"} <= set(rows)
    assert set(rows) <= {*FABRIC_LINK_CLASSES, *AUX_LINK_CLASSES}


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_optics_per_auxiliary_class_equal_the_bom_lines(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    optics = _optics_by_class(h)
    bom = _bom_by_class(h, "optics")
    for link_class in AUX_LINK_CLASSES:
        assert optics.get(link_class, 0) == bom.get(link_class, 0), link_class
    # the optics lines of the BOM each name the classes they count, so none is left unchecked
    assert all(line.link_classes for line in h.plan.bom if line.category in ("cables", "optics"))


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_auxiliary_endpoints_land_on_their_own_fabric(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    devices = {d.device_id: d for d in h.wiring.devices}
    role_of_fabric = {
        "storage": "storage-switch",
        "frontend": "frontend-switch",
        "inband": "inband-switch",
        "oob": "oob-switch",
    }
    servers = [d for d in h.wiring.devices if d.role == "gpu-server"]
    bmc: Counter[str] = Counter()
    for c in h.cables:
        fabric, _, kind = c.link_class.partition("_")
        if fabric not in role_of_fabric:
            continue
        assert devices[c.b_device].role == role_of_fabric[fabric], c.label
        if kind == "uplink":
            assert devices[c.a_device].role == role_of_fabric[fabric], c.label
        if c.link_class == "oob_access":
            bmc[c.a_device] += 1
    # every device but the OOB switches has its management (BMC) port on the OOB network
    managed = [d for d in h.wiring.devices if d.role != "oob-switch"]
    assert set(bmc) == {d.device_id for d in managed}
    assert all(bmc[s.device_id] == h.plan.auxiliary.oob_ports_per_node for s in servers)
    # every auxiliary port of a server (stor-, fe-, mgmt-, bmc-) is cabled exactly once
    cabled = Counter((c.a_device, c.a_port) for c in h.cables)
    for s in servers:
        for port, _ in s.port_speeds:
            assert cabled[(s.device_id, port)] == 1, (s.device_id, port)


def test_golden_rail8_npo_1024() -> None:
    """rail8-npo, 1024 GPUs, default scenario (128 servers, DDN appliances, default lengths
    node-leaf 10 m and leaf-spine 30 m): every auxiliary class counted by hand."""
    h = preset_handoff("rail8-npo", 1024)
    aux = h.plan.auxiliary
    rows = Counter(c.link_class for c in h.cables)
    # storage units = max(ceil(1024 x 0.122 GB/s / 80 GB/s) = 2 (write), ceil(1024 x 1 TB / 500 TB)
    # = 3 (capacity), 1) = 3, capacity binding
    assert (aux.storage_units, aux.storage_pool.bound) == (3, "capacity")
    # storage: 128 servers x 2 ports + 3 units x 8 ports = 280 ports at 200G; the cheapest 200G
    # switch has 256 ports, so ceil(280 / 128) = 3 leaves of 128 down and 128 up ports: 384 uplinks
    assert rows["storage_access"] == 280 and rows["storage_uplink"] == 384
    # in-band: 128 servers + 3 units = 131 ports on 32 x 100G switches: ceil(131 / 16) = 9 leaves
    # with 16 up ports each = 144 uplinks
    assert rows["inband_access"] == 131 and rows["inband_uplink"] == 144
    # OOB: 128 BMC + 3 units + 96 compute switches (8 planes x (8 leaves + 4 spines)) + 5 storage
    # (3 + 2) + 17 in-band (9 + 8) switches = 249 ports on 48 x 1G switches: ceil(249 / 24) = 11
    # leaves x 24 up ports = 264 uplinks
    assert h.plan.topology.switches_total == 96 and aux.inband_fabric.switches == 17
    assert rows["oob_access"] == 128 + 3 + 96 + 5 + 17 == 249 and rows["oob_uplink"] == 264
    # media at the default lengths: 10 m access and 30 m uplinks are beyond copper (DAC 2 m, AEC
    # 7 m), so 200G storage takes the 200G SR optic (50 m) and 100G in-band the 100G SR4 (100 m),
    # both on OM4 MPO fiber; 1GbE OOB runs on Cat6 (100 m), no optics
    media = {c.link_class: (c.cable_part, c.optic_a) for c in h.cables}
    assert media["storage_access"] == ("fiber_mmf_mpo", "qsfp112_200g_sr")
    assert media["inband_uplink"] == ("fiber_mmf_mpo", "qsfp28_100g_sr4")
    assert media["oob_access"] == ("utp_cat6_1g", "")
    # optics: two single-port modules per fiber link: 2 x (280 + 384) = 1,328 x 200G SR and
    # 2 x (131 + 144) = 550 x 100G SR4
    assert _optics_by_class(h) == Counter(
        {"node_leaf": 16_384, "leaf_spine": 16_384, "storage_access": 560, "storage_uplink": 768,
         "inband_access": 262, "inband_uplink": 288}
    )  # fmt: skip


def test_a_run_no_medium_reaches_names_the_length_field() -> None:
    """ib-hdr with 1 km leaf-spine runs: its 200G compute links reach on FR4 optics (2 km), the
    100G in-band uplinks do not (100GBASE-DR: 500 m, SR4: 100 m): refused, naming the field."""
    from planner.errors import InputError

    facility = {"cooling_id": "air", "link_lengths": {"leaf_spine_m": 1000}}
    data = {"gpus": 256, "design_id": "ib-hdr", "facility": facility}
    with pytest.raises(InputError, match=r"^facility\.link_lengths\.leaf_spine_m: .*100G over 1000 m"):
        plan(scenario=scenario_from_data(data), catalog=CATALOG)


def test_a_long_oob_run_takes_a_single_mode_optic() -> None:
    """OOB uplinks at 300 m: beyond Cat6's 100 m, so the 1000BASE-LX SFP at both ends."""
    data = {"gpus": 256, "design_id": "ib-ndr", "facility": {"link_lengths": {"leaf_spine_m": 300}}}
    p = plan(scenario=scenario_from_data(data), catalog=CATALOG)
    media = {m.link_class: m for m in p.aux_media}
    assert media["oob_uplink"].lower.optic_id == "sfp_1g_lx" and media["oob_uplink"].medium == "smf"
    assert media["oob_access"].cable_id == "utp_cat6_1g"  # 10 m access links stay on Cat6
    assert media["inband_uplink"].upper.optic_id == "qsfp28_100g_dr"


def test_a_dedicated_front_end_is_cabled() -> None:
    """A 100 Gb/s per-GPU front-end target: 800 Gb/s per server on 2 x 200G NICs = 4 ports each."""
    data = {"gpus": 256, "design_id": "ib-ndr", "pools": {"frontend_gbit_per_s_per_gpu": 100}}
    p = plan(scenario=scenario_from_data(data), catalog=CATALOG)
    h = build_handoff(plan=p, catalog=CATALOG)
    rows = Counter(c.link_class for c in h.cables)
    # 32 servers x ceil(800 / 200) = 4 ports = 128 front-end access links
    assert rows["frontend_access"] == 32 * 4 == 128
    assert rows == _bom_by_class(h, "cables")
    assert {d.role for d in h.wiring.devices} >= {"frontend-switch"}
    ends = Counter((c.a_device, c.a_port) for c in h.cables) + Counter(
        (c.b_device, c.b_port) for c in h.cables
    )
    assert max(ends.values()) == 1
