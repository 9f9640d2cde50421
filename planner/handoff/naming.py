"""Names of devices, ports and cables: the one place the hand-off convention lives.

Device ids are the NetBox device names and stay the same when the layout changes (they name a
role and an index, not a rack position), so a tenant-placement feature can keep them:

- ``gpu-node-0001``: server (compute tray) 1, four digits or more;
- ``nvsw-d01-01``: scale-up switch tray 1 of scale-up domain 1;
- ``leaf-p1-r3-01``: leaf 1 of rail 3 on plane 1 (rail-optimized); ``leaf-p1-01`` otherwise;
- ``spine-p1-07`` (two tiers) or ``spine-p1-pod02-07`` (three tiers: spine 7 of pod 2);
- ``core-p1-05``;
- ``stor-0001`` (storage unit), ``stor-leaf-01``, ``fe-leaf-01``, ``inband-spine-01``,
  ``oob-leaf-01`` (auxiliary fabric switches by tier).

Ports: ``nic01-p1`` (NIC 1, port 1 of a server), ``nic01-p1/2`` (plane leg 2 of a port split
over planes), ``swp1`` ... ``swpK`` on switches (down ports first, then up ports).
Auxiliary ports (:func:`aux_port`): ``stor-p1`` (storage fabric), ``fe-p1`` (front end),
``mgmt-p1`` (in-band management), ``bmc-p1`` (out-of-band) on servers and storage units (whose
storage ports are ``eth1`` ...), ``mgmt0`` the management port of every switch but the OOB ones.
Cables: ``NL-000001`` (node-leaf), ``LS-`` (leaf-spine), ``SC-`` (spine-core); ``SA-``/``SU-``
(storage access/uplink), ``FA-``/``FU-`` (front end), ``IA-``/``IU-`` (in-band), ``OA-``/``OU-``
(out-of-band), numbered per class in wiring order; the label adds both ends with their rack and
unit (see :func:`cable_label`).
"""

from __future__ import annotations

CABLE_PREFIX = {
    "node_leaf": "NL",
    "leaf_spine": "LS",
    "spine_core": "SC",
    "storage_access": "SA",
    "storage_uplink": "SU",
    "frontend_access": "FA",
    "frontend_uplink": "FU",
    "inband_access": "IA",
    "inband_uplink": "IU",
    "oob_access": "OA",
    "oob_uplink": "OU",
}
"""Cable id prefix per link class."""


def width(count: int, minimum: int) -> int:
    """Digits for ``count`` items, at least ``minimum`` (ids of one plan sort as text).

    Parameters
    ----------
    count : int
        Items the ids number [count].
    minimum : int
        Fewest digits [count].

    Returns
    -------
    int
        Digits of the zero-padded number [count].
    """
    return max(minimum, len(str(count)))


def server_id(index: int, *, count: int) -> str:
    """``gpu-node-0001`` for server ``index`` (0-based) of ``count``.

    Parameters
    ----------
    index : int
        Server number, 0-based [count].
    count : int
        Servers of the plan [count] (sets the padding, four digits at least).

    Returns
    -------
    str
        Device id (dimensionless).
    """
    return f"gpu-node-{index + 1:0{width(count, 4)}d}"


def scale_up_switch_id(domain: int, tray: int, *, domains: int) -> str:
    """``nvsw-d01-01``: tray ``tray`` of scale-up domain ``domain`` (both 0-based).

    Parameters
    ----------
    domain : int
        Scale-up domain number, 0-based [count].
    tray : int
        Switch tray within the domain, 0-based [count].
    domains : int
        Domains of the plan [count] (sets the padding, two digits at least).

    Returns
    -------
    str
        Device id (dimensionless).
    """
    return f"nvsw-d{domain + 1:0{width(domains, 2)}d}-{tray + 1:02d}"


def leaf_id(*, plane: int, rail: int | None, index: int) -> str:
    """``leaf-p1-r3-01`` (rail-optimized) or ``leaf-p1-01``; arguments 0-based.

    Parameters
    ----------
    plane : int
        Fabric plane, 0-based [count].
    rail : int or None
        Rail, 0-based [count]; ``None`` when the fabric is not rail-optimized.
    index : int
        Leaf within the plane (and rail), 0-based [count].

    Returns
    -------
    str
        Device id (dimensionless).
    """
    rail_part = f"-r{rail + 1}" if rail is not None else ""
    return f"leaf-p{plane + 1}{rail_part}-{index + 1:02d}"


def spine_id(*, plane: int, pod: int | None, index: int) -> str:
    """``spine-p1-07`` (two tiers) or ``spine-p1-pod02-07`` (three tiers); arguments 0-based.

    Parameters
    ----------
    plane : int
        Fabric plane, 0-based [count].
    pod : int or None
        Pod, 0-based [count]; ``None`` in a two-tier fabric.
    index : int
        Spine within the plane (and pod), 0-based [count].

    Returns
    -------
    str
        Device id (dimensionless).
    """
    pod_part = f"-pod{pod + 1:02d}" if pod is not None else ""
    return f"spine-p{plane + 1}{pod_part}-{index + 1:02d}"


def core_id(*, plane: int, index: int) -> str:
    """``core-p1-05``; arguments 0-based.

    Parameters
    ----------
    plane : int
        Fabric plane, 0-based [count].
    index : int
        Core switch within the plane, 0-based [count].

    Returns
    -------
    str
        Device id (dimensionless).
    """
    return f"core-p{plane + 1}-{index + 1:02d}"


def storage_id(index: int, *, count: int) -> str:
    """``stor-0001``.

    Parameters
    ----------
    index : int
        Storage unit number, 0-based [count].
    count : int
        Storage units of the plan [count] (sets the padding, four digits at least).

    Returns
    -------
    str
        Device id (dimensionless).
    """
    return f"stor-{index + 1:0{width(count, 4)}d}"


AUX_TIER_NAMES = ("leaf", "spine", "core")


def aux_switch_id(fabric: str, tier: int, index: int) -> str:
    """``stor-leaf-01``, ``inband-spine-02``, ``oob-t4-01`` (tier 0-based; above core ``t<n>``).

    Parameters
    ----------
    fabric : str
        Auxiliary fabric prefix (``stor``, ``inband``, ``oob``), dimensionless.
    tier : int
        Tier, 0-based (0 leaf, 1 spine, 2 core, above: ``t<n>``) [count].
    index : int
        Switch within the tier, 0-based [count].

    Returns
    -------
    str
        Device id (dimensionless).
    """
    tier_name = AUX_TIER_NAMES[tier] if tier < len(AUX_TIER_NAMES) else f"t{tier + 1}"
    return f"{fabric}-{tier_name}-{index + 1:02d}"


def nic_port(nic: int, port: int, leg: int | None = None) -> str:
    """``nic01-p1`` or, for a port split over planes, ``nic01-p1/2``; arguments 0-based.

    Parameters
    ----------
    nic : int
        NIC of the server, 0-based [count].
    port : int
        Port of the NIC, 0-based [count].
    leg : int or None
        Plane leg of a split port, 0-based [count]; ``None`` for an unsplit port.

    Returns
    -------
    str
        Port name (dimensionless).
    """
    base = f"nic{nic + 1:02d}-p{port + 1}"
    return base if leg is None else f"{base}/{leg + 1}"


SWITCH_MGMT_PORT = "mgmt0"
"""The out-of-band management port of a switch (an OOB switch has none: it is managed over its
uplinks)."""


def aux_port(kind: str, index: int) -> str:
    """``stor-p1``, ``fe-p1``, ``mgmt-p1``, ``bmc-p1``: auxiliary port ``index`` (0-based) of a
    server or storage unit; ``kind`` is ``stor``, ``fe``, ``mgmt`` or ``bmc``.

    Parameters
    ----------
    kind : str
        Port kind: ``stor``, ``fe``, ``mgmt`` or ``bmc`` (dimensionless).
    index : int
        Port number of that kind, 0-based [count].

    Returns
    -------
    str
        Port name (dimensionless).
    """
    return f"{kind}-p{index + 1}"


def switch_port(index: int) -> str:
    """``swp1`` for port ``index`` (0-based).

    Parameters
    ----------
    index : int
        Switch port number, 0-based [count].

    Returns
    -------
    str
        Port name (dimensionless).
    """
    return f"swp{index + 1}"


def cable_id(link_class: str, number: int) -> str:
    """``NL-000001`` for the first node-leaf cable (``number`` 1-based).

    Parameters
    ----------
    link_class : str
        Link class, a key of ``CABLE_PREFIX`` (dimensionless).
    number : int
        Cable number within the class, 1-based [count].

    Returns
    -------
    str
        Cable id: class prefix and six digits (dimensionless).
    """
    return f"{CABLE_PREFIX[link_class]}-{number:06d}"


def cable_label(*, cable: str, a: tuple[str, int, str, str], b: tuple[str, int, str, str]) -> str:
    """The label printed on both ends: ``NL-000001 R01-03.U12 gpu-node-0001:nic01-p1 > ...``.

    ``a`` and ``b`` are ``(rack, position U, device, port)``. Under 100 characters for the
    plans the planner makes (NetBox's cable label limit).

    Parameters
    ----------
    cable : str
        Cable id (dimensionless).
    a, b : tuple[str, int, str, str]
        The two ends: rack name, device position [U], device id, port name.

    Returns
    -------
    str
        Label text (dimensionless).
    """

    def end(rack: str, unit: int, device: str, port: str) -> str:
        return f"{rack}.U{unit:02d} {device}:{port}"

    return f"{cable} {end(*a)} > {end(*b)}"


def rack_name(row: int, position: int) -> str:
    """``R01-03``: rack 3 of row 1 (arguments 0-based).

    Parameters
    ----------
    row : int
        Row, 0-based [count].
    position : int
        Rack within the row, 0-based [count].

    Returns
    -------
    str
        Rack name (dimensionless).
    """
    return f"R{row + 1:02d}-{position + 1:02d}"


def row_name(row: int) -> str:
    """``Row 01`` (a NetBox location).

    Parameters
    ----------
    row : int
        Row, 0-based [count].

    Returns
    -------
    str
        Row name (dimensionless).
    """
    return f"Row {row + 1:02d}"
