"""Hand-off layout and files: racks within limits, bad layout input exits 2 naming the field, the
cabling CSV's columns, NetBox files field by field with the plan's counts, device-type YAMLs in
the library's format, and a draw.io file with one node per drawn device."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from handoff_fixtures import CATALOG, cases, preset_handoff, preset_plan

from planner.cli import run
from planner.handoff.drawio import COLLAPSE_AT, drawio_file
from planner.handoff.elevation import elevation_svg, rack_types
from planner.handoff.layout import build_layout, cable_length_m
from planner.handoff.netbox import netbox_files
from planner.handoff.tables import cabling_csv
from planner.handoff.wiring import build_wiring
from planner.inputs.layout import LayoutParams
from planner.report.export import read_xlsx

INTERFACE_COLUMNS = [
    "cable_id",
    "label",
    "a_device",
    "a_port",
    "b_device",
    "b_port",
    "link_class",
    "medium",
    "length_m",
    "optic_a",
    "optic_b",
]


def _csv(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


@pytest.mark.parametrize(("design_id", "gpus"), cases(), ids=lambda v: str(v))
def test_every_rack_keeps_its_limits_and_the_plans_count(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    assert len(h.layout.racks) == h.plan.racks.total
    assert sum(r.kind == "compute" for r in h.layout.racks) == h.plan.racks.compute_racks
    for rack in h.layout.racks:
        assert rack.used_u <= rack.usable_rack_units, rack.name
        if rack.power_kw > rack.power_limit_kw + 1e-6:
            # a domain split over racks: whole trays per rack, the plan's limit is their average
            tray = next(d for d in h.wiring.devices if d.role == "scale-up-switch")
            assert rack.power_kw <= rack.power_limit_kw + tray.power_w / 1000, rack.name
            assert any(rack.name in note for note in h.layout.notes), rack.name
        units = [u for p in rack.placements for u in range(p.position_u, p.top_u + 1)]
        assert len(units) == len(set(units)), f"{rack.name}: two devices share a unit"
    placed = [p.device_id for r in h.layout.racks for p in r.placements]
    assert sorted(placed) == sorted(d.device_id for d in h.wiring.devices)
    assert len(h.layout.racks) <= h.layout.rows * h.layout.racks_per_row


def test_a_cable_between_racks_runs_up_along_and_down() -> None:
    h = preset_handoff("ib-ndr", 256)
    where = h.layout.location()
    cable = h.cables[0]
    a, b = where[cable.a_device], where[cable.b_device]
    assert cable.length_m == cable_length_m(a, b, h.layout.params)
    # rows one rack deep: the first cable crosses from a compute row to the network row at least
    assert cable.length_m >= abs(a[0].y_m - b[0].y_m) + h.layout.params.slack_m
    assert cable.length_m == int(cable.length_m), "whole metres"


def test_a_longer_row_puts_more_racks_in_a_row() -> None:
    p = preset_plan("rail8-npo", 1024)
    wiring = build_wiring(plan=p, catalog=CATALOG)
    short = build_layout(plan=p, catalog=CATALOG, wiring=wiring, params=LayoutParams(row_length_m=3.0))
    long = build_layout(plan=p, catalog=CATALOG, wiring=wiring, params=LayoutParams(row_length_m=30.0))
    assert (short.racks_per_row, long.racks_per_row) == (5, 50)  # 3 / 0.6 and 30 / 0.6
    assert short.rows > long.rows


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--row-length-m", "0.5"], "layout.row_length_m"),
        (["--row-length-m", "-3"], "--row-length-m (floor.row_length_m)"),
        (["--max-rows", "1", "--row-length-m", "3"], "layout.max_rows"),
        (["--rack-width-m", "9"], "--rack-width-m (floor.rack_width_m)"),
        # 1.5 m racks in one 200 m row: node-leaf runs beyond the 50 m of the SR4 optics
        (
            ["--gpus", "1024", "--row-length-m", "200", "--rack-width-m", "1.5"],
            "facility.link_lengths.node_leaf_m",
        ),
    ],
)
def test_bad_layout_input_exits_2_naming_the_field(
    args: list[str], field: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--design", "ib-ndr"] + ([] if "--gpus" in args else ["--gpus", "256"])
    for command in (["layout"], ["export", "--cabling", str(tmp_path / "c.csv")]):
        code, _, err = _cli(capsys, *command, *base, *args)
        assert code == 2, err
        assert err.count("\n") == 1 and err.startswith("planner: error:") and "Traceback" not in err
        assert field in err
    assert not (tmp_path / "c.csv").exists()


def test_a_link_class_no_medium_reaches_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Raising the length as the message says makes the engine look for a medium; none reaches 3 km."""
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"facility": {"link_lengths": {"node_leaf_m": 2000}}}))
    code, _, err = _cli(capsys, "layout", "--gpus", "256", "--design", "ib-ndr", "--scenario", str(scenario))
    assert code == 2 and "facility.link_lengths" in err and err.count("\n") == 1


def test_export_writes_the_cabling_plan_and_its_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path
    code, stdout, err = _cli(
        capsys,
        "export",
        "--gpus", "256", "--design", "ib-ndr",
        "--cabling", str(tmp_path / "cables.csv"),
        "--cabling-xlsx", str(tmp_path / "cables.xlsx"),
        "--elevations", str(out / "elevations"),
        "--netbox-dir", str(out / "netbox"),
        "--drawio", str(tmp_path / "c.drawio"),
    )  # fmt: skip
    assert code == 0, err
    h = preset_handoff("ib-ndr", 256)
    rows = _csv((tmp_path / "cables.csv").read_bytes())
    assert list(rows[0])[: len(INTERFACE_COLUMNS)] == INTERFACE_COLUMNS
    assert len(rows) == h.plan.cables + sum(m.links for m in h.plan.aux_media)
    devices = {r["name"] for r in _csv((out / "netbox" / "devices.csv").read_bytes())}
    assert {r["a_device"] for r in rows} | {r["b_device"] for r in rows} <= devices
    assert {p.name for p in (out / "elevations").iterdir()} == {
        f"{t.key}.svg" for t in rack_types(h.layout, h.wiring)
    }
    book = read_xlsx((tmp_path / "cables.xlsx").read_bytes())
    assert len(book["Cables"]) == len(rows)
    assert all(r["cabling_plan"] == r["bom"] for r in book["Totals vs BOM"])
    assert "wrote" in stdout


def test_the_cabling_csv_has_one_row_per_cable_with_labels() -> None:
    h = preset_handoff("rail4-npo", 256)
    rows = _csv(cabling_csv(h))
    assert len(rows) == len(h.cables)
    first = rows[0]
    assert first["cable_id"] == "NL-000001" and first["a_device"] == "gpu-node-0001"
    assert first["label"].startswith("NL-000001 R") and len(max((r["label"] for r in rows), key=len)) <= 100
    assert float(first["length_m"]) >= 1


# Field names of NetBox's bulk-import forms (NetBox 4.x, dcim/forms/bulk_import.py; netboxlabs.com
# docs "Bulk import"): each header must be one of the form's fields, the required ones present.
NETBOX_FIELDS = {
    "sites.csv": ({"name", "slug", "status", "region", "group", "facility", "time_zone"}, {"name", "slug", "status"}),
    "locations.csv": ({"site", "parent", "name", "slug", "status"}, {"site", "name", "slug", "status"}),
    "racks.csv": ({"site", "location", "name", "status", "width", "u_height", "role"}, {"site", "name", "status", "width", "u_height"}),
    "manufacturers.csv": ({"name", "slug"}, {"name", "slug"}),
    "device_roles.csv": ({"name", "slug", "color", "vm_role"}, {"name", "slug", "color"}),
    "devices.csv": (
        {"name", "role", "manufacturer", "device_type", "status", "site", "location", "rack", "position", "face"},
        {"role", "manufacturer", "device_type", "status", "site"},
    ),
    "interfaces.csv": ({"device", "name", "type", "speed", "enabled", "mgmt_only"}, {"device", "name", "type"}),
    "cables.csv": (
        {
            "side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
            "type", "status", "label", "length", "length_unit", "color",
        },
        {"side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name"},
    ),
}  # fmt: skip

# The device-type library's schema (netbox-community/devicetype-library, schema/devicetype.json and
# components.json): required keys, allowed keys, slug pattern, interface item keys.
DEVICE_TYPE_REQUIRED = {"manufacturer", "model", "slug", "u_height", "is_full_depth"}
DEVICE_TYPE_ALLOWED = DEVICE_TYPE_REQUIRED | {
    "part_number",
    "airflow",
    "interfaces",
    "comments",
    "description",
}
INTERFACE_KEYS = {"name", "label", "type", "enabled", "mgmt_only", "description"}


def test_netbox_files_of_1024_rail8_hold_the_plans_counts() -> None:
    h = preset_handoff("rail8-npo", 1024)
    p = h.plan
    files = netbox_files(h, CATALOG)
    for name, (allowed, required) in NETBOX_FIELDS.items():
        header = set(_csv(files[name])[0])
        assert header <= allowed and required <= header, name
    aux = p.auxiliary
    devices = (
        p.nodes + p.topology.switches_total + p.scale_up.switches + aux.storage_units
        + aux.storage_fabric.switches + aux.inband_fabric.switches + aux.oob_fabric.switches
    )  # fmt: skip
    assert len(_csv(files["devices.csv"])) == devices
    # compute: 128 servers x 64 links x 2 tiers = 16,384; storage, in-band and OOB (see
    # tests/test_handoff_auxiliary.py): 280 + 384 + 131 + 144 + 249 + 264 = 1,452
    assert p.cables == 16_384
    assert len(_csv(files["cables.csv"])) == p.cables + 1_452 == 17_836
    fabric_ports = p.nodes * p.server_ports.links + sum(t.ports_provisioned for t in p.topology.tier_counts)
    # each server adds 2 storage + 1 in-band + 1 BMC port, each of the 96 leaves and spines its mgmt0
    aux_ports = p.nodes * (2 + 1 + 1) + p.topology.switches_total
    interfaces = _csv(files["interfaces.csv"])
    on_fabric = sum(r["device"].startswith(("gpu-node", "leaf", "spine")) for r in interfaces)
    assert on_fabric == fabric_ports + aux_ports
    racks = _csv(files["racks.csv"])
    assert len(racks) == p.racks.total
    names = {(r["device"], r["name"]) for r in interfaces}
    for cable in _csv(files["cables.csv"]):
        assert (cable["side_a_device"], cable["side_a_name"]) in names
        assert (cable["side_b_device"], cable["side_b_name"]) in names
        assert cable["length_unit"] == "m" and cable["type"] in {
            "mmf",
            "smf",
            "dac-passive",
            "dac-active",
            "cat6",
        }


def test_device_types_follow_the_library_schema() -> None:
    h = preset_handoff("ib-ndr", 256)
    files = netbox_files(h, CATALOG)
    types = {name: yaml.safe_load(data) for name, data in files.items() if name.endswith(".yaml")}
    assert len(types) == len({d.model_id for d in h.wiring.devices})
    per_device = {}
    for name, data in types.items():
        assert DEVICE_TYPE_REQUIRED <= set(data) <= DEVICE_TYPE_ALLOWED, name
        assert re.fullmatch(r"[-a-z0-9_]+", data["slug"]) and data["u_height"] % 0.5 == 0
        assert all(set(i) <= INTERFACE_KEYS and {"name", "type"} <= set(i) for i in data["interfaces"])
        assert name == f"device-types/{data['manufacturer'].lower()}/{data['slug']}.yaml"
        per_device[data["model"]] = len(data["interfaces"])
    leaf = next(d for d in h.wiring.devices if d.role == "leaf")
    # 64 NDR ports and the management port mgmt0
    assert per_device[leaf.model_name] == len(leaf.interfaces) == 64 + 1
    interface_types = {i["type"] for data in types.values() for i in data["interfaces"]}
    assert "infiniband-ndr" in interface_types


def test_the_drawio_file_has_one_node_per_drawn_device() -> None:
    h = preset_handoff("rail8-npo", 1024)
    root = ET.fromstring(drawio_file(h))
    assert root.tag == "mxfile"
    pages = root.findall("diagram")
    assert pages[0].get("name") == "Logical topology"
    topology = pages[0].find("mxGraphModel/root")
    assert topology is not None
    nodes = topology.findall("object")
    ids = [n.get("id") for n in nodes]
    assert len(ids) == len(set(ids)) and all(n.find("mxCell[@vertex='1']") is not None for n in nodes)
    fabric = [d for d in h.wiring.devices if d.role in ("gpu-server", "leaf", "spine", "core")]
    assert sum(int(n.get("count", "0")) for n in nodes) == len(fabric)
    assert any(int(n.get("count", "0")) > COLLAPSE_AT for n in nodes), "128 servers collapse to one node"
    edges = topology.findall("mxCell[@edge='1']")
    # the logical topology draws the compute fabric's cables (storage and management are not drawn)
    compute = [c for c in h.cables if c.link_class in ("node_leaf", "leaf_spine", "spine_core")]
    assert sum(int(e.get("value", "0")) for e in edges) == len(compute) == h.plan.cables
    row = pages[1].find("mxGraphModel/root")
    assert row is not None
    drawn = [n.get("device_id") for n in row.findall("object")]
    assert drawn and all(n.get("count") == "1" for n in row.findall("object"))
    assert len(drawn) == len(set(drawn))


def test_elevations_give_u_and_kw_against_the_limits() -> None:
    h = preset_handoff("gb200-nvl72-ib-ndr", 256)
    types = rack_types(h.layout, h.wiring)
    assert {t.kind for t in types} >= {"compute", "network"}
    compute = next(t for t in types if t.kind == "compute")
    svg = elevation_svg(compute, h.wiring)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    boxes = root.findall(f"{ns}g")
    assert len(boxes) == len(compute.example.placements)
    assert f"{compute.example.used_u}/{compute.example.usable_rack_units} U" in svg
    assert "nvsw-d01-01" in svg  # the NVL72 switch trays sit in the rack with their servers
