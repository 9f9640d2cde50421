"""NetBox import files: CSVs for its bulk import and device types in the device-type library format.

Field names are those of NetBox's bulk-import forms (NetBox 4.x, ``dcim/forms/bulk_import.py``;
https://netboxlabs.com/docs/netbox/en/stable/ "Bulk import"): sites, locations (one per row of
racks), racks, manufacturers, device roles, devices, interfaces and cables. Device types are YAML
files in the format of the community device-type library
(https://github.com/netbox-community/devicetype-library, ``schema/devicetype.json``), with their
interfaces, so NetBox creates every device's interfaces from the type.

Import order: sites, locations, racks, manufacturers, device_roles, the device-type YAMLs
(Device Types > Import), devices, cables. ``interfaces.csv`` lists the same interfaces the
types create, for checks and for devices created without templates: do not import it after the
YAMLs (NetBox would refuse the duplicates).
"""

from __future__ import annotations

import re

import yaml

from planner.catalog import Catalog
from planner.handoff.cabling import Handoff
from planner.handoff.naming import row_name
from planner.handoff.wiring import Device, Wiring
from planner.sheets import csv_bytes

SITE = "gpu-cluster"
STATUS = "planned"

SITE_FIELDS = ("name", "slug", "status")
LOCATION_FIELDS = ("site", "name", "slug", "status")
RACK_FIELDS = ("site", "location", "name", "status", "width", "u_height")
MANUFACTURER_FIELDS = ("name", "slug")
ROLE_FIELDS = ("name", "slug", "color")
DEVICE_FIELDS = (
    "name",
    "role",
    "manufacturer",
    "device_type",
    "status",
    "site",
    "location",
    "rack",
    "position",
    "face",
)
INTERFACE_FIELDS = ("device", "name", "type", "speed")
CABLE_FIELDS = (
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "length",
    "length_unit",
)

ROLE_COLORS = {
    "gpu-server": "2196f3",
    "scale-up-switch": "ff5722",
    "leaf": "4caf50",
    "spine": "388e3c",
    "core": "1b5e20",
    "storage": "ffc107",
    "storage-switch": "ff9800",
    "frontend-switch": "009688",
    "inband-switch": "9c27b0",
    "oob-switch": "673ab7",
}

_ETHERNET = {
    1: "1000base-t",
    10: "10gbase-x-sfpp",
    25: "25gbase-x-sfp28",
    100: "100gbase-x-qsfp28",
    200: "200gbase-x-qsfp56",
    400: "400gbase-x-osfp",
    800: "800gbase-x-osfp",
    1600: "1.6tbase-x-osfp1600",  # NetBox 4.5+ (dcim InterfaceTypeChoices); older releases have no 1.6T type
}
_INFINIBAND = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}
CABLE_TYPE = {
    "fiber_mmf": "mmf",
    "fiber_smf": "smf",
    "dac": "dac-passive",
    "acc": "dac-active",
    "aec": "dac-active",
    "utp": "cat6",
}
"""NetBox cable type per catalog cable kind."""


def slug(text: str) -> str:
    """A NetBox slug: lower case letters, digits, ``-`` and ``_``.

    Parameters
    ----------
    text : str
        Any name (dimensionless).

    Returns
    -------
    str
        The slug; runs of other characters become one ``-``, ``x`` when nothing is left.

    >>> slug("NVIDIA Quantum-2 QM9700")
    'nvidia-quantum-2-qm9700'
    """
    return re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-") or "x"


GENERIC = "Generic"
"""Maker of a catalog record whose figures are assumed (a switch class, not a product)."""


def manufacturer(device: Device, catalog: Catalog) -> str:
    """The maker: the first word of the catalog name of a sourced product (the catalog has no
    maker field), :data:`GENERIC` for an assumed one.

    Parameters
    ----------
    device : Device
        A device of the wiring (its model id and name).
    catalog : Catalog
        Catalog holding the device's server, switch or storage record.

    Returns
    -------
    str
        Manufacturer name (dimensionless).
    """
    families = (catalog.servers, catalog.switches, catalog.storage)
    record = next(f[device.model_id] for f in families if device.model_id in f)
    return GENERIC if record.assumption else device.model_name.split()[0]


def device_models(*, wiring: Wiring, catalog: Catalog) -> tuple[dict[str, Device], dict[str, str]]:
    """The device models of a wiring (NetBox device types) and their makers: the import files and
    the push both make one device type per model, from its first device.

    Parameters
    ----------
    wiring : Wiring
        Devices of the plan (model ids and names).
    catalog : Catalog
        Catalog holding each device's server, switch or storage record.

    Returns
    -------
    tuple[dict[str, Device], dict[str, str]]
        The first device of each model by model id, in wiring order; and each model's
        manufacturer (:func:`manufacturer`) by model id.
    """
    types: dict[str, Device] = {}
    for device in wiring.devices:
        types.setdefault(device.model_id, device)
    return types, {model_id: manufacturer(d, catalog) for model_id, d in types.items()}


def interface_type(device: Device, family: str, port: str | None = None) -> str:
    """NetBox interface type of a device's port (its main ports when ``port`` is ``None``): by
    fabric family and speed, else ``other``; storage and management ports are Ethernet.

    Parameters
    ----------
    device : Device
        The device (role and port speeds [Gbit/s]).
    family : str
        Fabric family of the plan's leaf switch (``infiniband`` or Ethernet), dimensionless.
    port : str or None
        Port name; ``None`` for the device's main ports.

    Returns
    -------
    str
        NetBox interface type id (dimensionless).
    """
    speed = device.port_speed_gbit_per_s if port is None else device.speed_of(port)
    main = port is None or dict(device.port_speeds).get(port) is None
    if family == "infiniband" and main and device.role in ("gpu-server", "leaf", "spine", "core"):
        return _INFINIBAND.get(speed, "other")
    return _ETHERNET.get(speed, "other")


def fabric_family(handoff: Handoff, catalog: Catalog) -> str:
    """Fabric family of the plan's leaf switch model (``infiniband``, ``ethernet``, ...).

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan.
    catalog : Catalog
        Catalog holding the leaf switch record.

    Returns
    -------
    str
        The family (dimensionless).
    """
    return catalog.switches[handoff.plan.switch_models.leaf_id].family


def device_type_yaml(device: Device, family: str, maker: str) -> dict[str, object]:
    """One device type in the device-type library's format, with its interfaces.

    Parameters
    ----------
    device : Device
        A device of the model (name, id, height [U], interfaces).
    family : str
        Fabric family of the plan (sets the interface types), dimensionless.
    maker : str
        Manufacturer name (dimensionless).

    Returns
    -------
    dict[str, object]
        The device type: manufacturer, model, slug, ``u_height`` [U], full depth, interfaces.
    """
    return {
        "manufacturer": maker,
        "model": device.model_name,
        "slug": slug(device.model_id.replace("_", "-")),
        "u_height": device.rack_units,
        "is_full_depth": True,
        "interfaces": [
            {"name": name, "type": interface_type(device, family, name)} for name in device.interfaces
        ],
    }


def netbox_files(handoff: Handoff, catalog: Catalog) -> dict[str, bytes]:
    """File name (relative to the NetBox folder) to content.

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan.
    catalog : Catalog
        Catalog of the plan's products (makers, fabric family).

    Returns
    -------
    dict[str, bytes]
        CSV files (UTF-8) for sites, locations, racks, manufacturers, roles, devices, interfaces and
        cables, and one YAML device type per model.
    """
    layout, wiring = handoff.layout, handoff.wiring
    family = fabric_family(handoff, catalog)
    where = layout.location()
    rows = sorted({r.row for r in layout.racks})
    files = {
        "sites.csv": csv_bytes(SITE_FIELDS, [(SITE, slug(SITE), STATUS)]),
        "locations.csv": csv_bytes(
            LOCATION_FIELDS, [(SITE, row_name(r), slug(row_name(r)), STATUS) for r in rows]
        ),
        "racks.csv": csv_bytes(
            RACK_FIELDS, [(SITE, row_name(r.row), r.name, STATUS, 19, r.rack_units) for r in layout.racks]
        ),
    }
    types, maker = device_models(wiring=wiring, catalog=catalog)
    makers = sorted(set(maker.values()))
    files["manufacturers.csv"] = csv_bytes(MANUFACTURER_FIELDS, [(m, slug(m)) for m in makers])
    roles = sorted({d.role for d in wiring.devices})
    files["device_roles.csv"] = csv_bytes(ROLE_FIELDS, [(r, r, ROLE_COLORS[r]) for r in roles])
    for device in types.values():
        data = device_type_yaml(device, family, maker[device.model_id])
        name = f"device-types/{slug(maker[device.model_id])}/{data['slug']}.yaml"
        files[name] = yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8")
    files["devices.csv"] = csv_bytes(
        DEVICE_FIELDS,
        [
            (
                d.device_id,
                d.role,
                maker[d.model_id],
                d.model_name,
                STATUS,
                SITE,
                row_name(where[d.device_id][0].row),
                where[d.device_id][0].name,
                where[d.device_id][1].position_u,
                "front",
            )
            for d in wiring.devices
        ],
    )
    files["interfaces.csv"] = csv_bytes(
        INTERFACE_FIELDS,
        [
            (d.device_id, name, interface_type(d, family, name), d.speed_of(name) * 1_000_000)
            for d in wiring.devices
            for name in d.interfaces
        ],
    )
    files["cables.csv"] = csv_bytes(
        CABLE_FIELDS,
        [
            (
                c.a_device,
                "dcim.interface",
                c.a_port,
                c.b_device,
                "dcim.interface",
                c.b_port,
                CABLE_TYPE[catalog.cables[c.cable_part].kind],
                STATUS,
                c.label,
                f"{c.length_m:g}",
                "m",
            )
            for c in handoff.cables
        ],
    )
    return files
