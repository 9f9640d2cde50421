"""draw.io (diagrams.net) files: the logical topology and one row of racks, as plain mxfile XML.

Every drawn device is one ``<object>`` holding one vertex ``<mxCell>``, with the attributes
``device_id`` (the first device it stands for) and ``count``: above :data:`COLLAPSE_AT` devices of
one tier on one plane (or servers), the group is one node labelled with its first and last id
and the count. Edges carry the number of cables between the two nodes they join.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence

from planner.handoff.cabling import Handoff
from planner.handoff.elevation import FILL
from planner.handoff.wiring import Device

COLLAPSE_AT = 12
"""More devices than this in one group are drawn as one node with a count."""
NODE_W, NODE_H, GAP = 150, 40, 20
UNIT_PX = 10
"""Height of one rack unit on the row page [px]."""


def _el(parent: ET.Element, tag: str, attrs: dict[str, str]) -> ET.Element:
    return ET.SubElement(parent, tag, attrs)


def _geometry(cell: ET.Element, x: int, y: int, width: int, height: int) -> None:
    _el(
        cell,
        "mxGeometry",
        {"x": str(x), "y": str(y), "width": str(width), "height": str(height), "as": "geometry"},
    )


def _groups(handoff: Handoff) -> list[list[list[Device]]]:
    """Drawn nodes per layer (cores, spines, leaves, servers); a node is one device or a group."""
    layers: list[list[list[Device]]] = []
    devices = handoff.wiring.devices
    for role in ("core", "spine", "leaf"):
        nodes: list[list[Device]] = []
        for plane in sorted({d.plane for d in devices if d.role == role and d.plane is not None}):
            nodes += _collapse([d for d in devices if d.role == role and d.plane == plane])
        if nodes:
            layers.append(nodes)
    layers.append(_collapse([d for d in devices if d.role == "gpu-server"]))
    return layers


def _collapse(members: Sequence[Device]) -> list[list[Device]]:
    return [list(members)] if len(members) > COLLAPSE_AT else [[d] for d in members]


def _device_node(root: ET.Element, cell_id: str, devices: list[Device], style: str) -> ET.Element:
    """An ``<object>`` with the device attributes and its vertex cell (returned)."""
    first = devices[0]
    label = (
        first.device_id
        if len(devices) == 1
        else f"{first.device_id} … {devices[-1].device_id} (×{len(devices)})"
    )
    attrs = {
        "id": cell_id,
        "label": label,
        "device_id": first.device_id,
        "count": str(len(devices)),
        "role": first.role,
    }
    obj = _el(root, "object", attrs)
    style_text = f"{style}fillColor={FILL[first.role]};"
    return _el(obj, "mxCell", {"style": style_text, "vertex": "1", "parent": "1"})


def _diagram(mxfile: ET.Element, name: str, diagram_id: str) -> ET.Element:
    diagram = _el(mxfile, "diagram", {"name": name, "id": diagram_id})
    model = _el(diagram, "mxGraphModel", {"grid": "1", "gridSize": "10", "page": "1"})
    root = _el(model, "root", {})
    _el(root, "mxCell", {"id": "0"})
    _el(root, "mxCell", {"id": "1", "parent": "0"})
    return root


def _topology(mxfile: ET.Element, handoff: Handoff) -> None:
    root = _diagram(mxfile, "Logical topology", "topology")
    node_of: dict[str, str] = {}
    for level, nodes in enumerate(_groups(handoff)):
        for i, devices in enumerate(nodes):
            cell_id = f"n{level}-{i}"
            cell = _device_node(root, cell_id, devices, "rounded=1;whiteSpace=wrap;html=1;")
            _geometry(cell, i * (NODE_W + GAP), level * (NODE_H + 120), NODE_W, NODE_H)
            node_of.update((d.device_id, cell_id) for d in devices)
    # the page draws the compute fabric: cables to storage and management switches are left out
    edges = Counter(
        (node_of[c.a_device], node_of[c.b_device])
        for c in handoff.cables
        if c.a_device in node_of and c.b_device in node_of
    )
    for k, ((source, target), count) in enumerate(sorted(edges.items())):
        attrs = {
            "id": f"e{k}",
            "value": str(count),
            "style": "endArrow=none;html=1;strokeOpacity=40;",
            "edge": "1",
            "parent": "1",
            "source": source,
            "target": target,
        }
        _el(_el(root, "mxCell", attrs), "mxGeometry", {"relative": "1", "as": "geometry"})


def _rack_row(mxfile: ET.Element, handoff: Handoff, row: int) -> None:
    root = _diagram(mxfile, f"Row {row + 1:02d}", f"row{row + 1}")
    devices = {d.device_id: d for d in handoff.wiring.devices}
    for rack in (r for r in handoff.layout.racks if r.row == row):
        x = rack.slot * (NODE_W + GAP)
        frame = _el(
            root,
            "mxCell",
            {
                "id": f"rack-{rack.name}",
                "value": f"{rack.name} ({rack.kind})",
                "style": "rounded=0;whiteSpace=wrap;html=1;verticalAlign=top;fillColor=#f5f5f5;",
                "vertex": "1",
                "parent": "1",
            },
        )
        _geometry(frame, x, 0, NODE_W, rack.rack_units * UNIT_PX + 20)
        for p in rack.placements:
            cell = _device_node(
                root, f"d-{p.device_id}", [devices[p.device_id]], "rounded=0;html=1;fontSize=7;"
            )
            y = 20 + (rack.rack_units - p.top_u) * UNIT_PX
            _geometry(cell, x + 4, y, NODE_W - 8, p.rack_units * UNIT_PX)


def drawio_file(handoff: Handoff) -> bytes:
    """A ``.drawio`` file with two pages: the logical topology and the first row holding switches.

    Parameters
    ----------
    handoff : Handoff
        Wiring and layout of one plan.

    Returns
    -------
    bytes
        The ``.drawio`` (mxfile) XML, UTF-8 encoded with its XML declaration.
    """
    mxfile = ET.Element("mxfile", {"host": "gpu-cluster-planner", "type": "device"})
    _topology(mxfile, handoff)
    kinds = {r.row for r in handoff.layout.racks if r.kind != "compute"}
    _rack_row(mxfile, handoff, min(kinds) if kinds else 0)
    data: bytes = ET.tostring(mxfile, encoding="utf-8", xml_declaration=True)
    return data
