"""Racks in rows: every device in a rack unit, racks on a floor grid, cable lengths from it.

Notes
-----
- Compute racks hold ``plan.racks.nodes_per_rack`` servers (a scale-up domain across servers
  stays together, with its switch trays in the middle of the rack), stacked from U1.
- Network racks hold the fabric switches, then storage and its switches, then the management
  switches, first fit in that order, each rack up to the network fill fraction of its usable
  height (``data/sizing.yaml``) and the rack power limit; a rack's kind is the group with the
  most units in it (network, storage or management).
- Rows hold ``floor(row length / rack width)`` racks; the network rows sit in the middle of the
  compute rows so that the longest node-leaf run is about half the hall. Rows face each other in
  pairs: a cold aisle between rows ``2k`` and ``2k + 1``, a hot aisle after.
- Cable length: in one rack, the height between the two units plus the slack; between racks,
  each end rises to the tray above its rack (``(rack U - top U of the device) x 44.45 mm +
  tray height``), runs along the floor grid (``|dx| + |dy|``, trays run along and across rows),
  plus the slack; rounded up to a whole metre (cables are ordered by the metre or longer).

1 U = 44.45 mm (EIA-310). 600 mm wide, 1200 mm deep racks and 1.2 m aisles are the common
data-hall grid (ASHRAE TC 9.9 hot/cold aisle practice); all are inputs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from planner.catalog import Catalog
from planner.errors import InputError
from planner.handoff import naming
from planner.handoff.sized import Sized
from planner.handoff.wiring import Device, Wiring, balanced_block
from planner.i18n.message import msg
from planner.inputs.layout import LayoutParams
from planner.units import ceil_div

RACK_UNIT_M = 0.04445
"""Height of one rack unit [m] (EIA-310: 1.75 in)."""

KINDS = ("compute", "network", "storage", "management")


@dataclass(frozen=True)
class Placement:
    """A device in a rack: its lowest unit (1-based) and height."""

    device_id: str
    position_u: int
    rack_units: int

    @property
    def top_u(self) -> int:
        return self.position_u + self.rack_units - 1


@dataclass(frozen=True)
class RackPlan:
    """One rack on the floor."""

    name: str
    kind: str
    row: int
    slot: int
    x_m: float
    y_m: float
    front: str
    """Direction the front faces: ``"+y"`` or ``"-y"`` (towards its cold aisle)."""
    placements: tuple[Placement, ...]
    rack_units: int
    usable_rack_units: int
    power_kw: float
    power_limit_kw: float

    @property
    def used_u(self) -> int:
        return sum(p.rack_units for p in self.placements)


@dataclass(frozen=True)
class Layout:
    """Racks in rows for one plan."""

    params: LayoutParams
    racks: tuple[RackPlan, ...]
    rows: int
    racks_per_row: int
    notes: tuple[str, ...]

    def location(self) -> dict[str, tuple[RackPlan, Placement]]:
        """Rack and placement of every device, by device id."""
        return {p.device_id: (rack, p) for rack in self.racks for p in rack.placements}

    def row_kinds(self) -> tuple[str, ...]:
        """Kind of each row: ``compute`` or the kind of its first rack."""
        kinds = ["compute"] * self.rows
        for rack in reversed(self.racks):
            kinds[rack.row] = rack.kind
        return tuple(kinds)


def racks_per_row(params: LayoutParams) -> int:
    """Racks one row holds; :class:`InputError` naming ``layout.row_length_m`` when none fits.

    Parameters
    ----------
    params : LayoutParams
        Floor geometry: row length and rack width [m].

    Returns
    -------
    int
        ``floor(row_length_m / rack_width_m)`` [count], one or more.
    """
    count = int(params.row_length_m / params.rack_width_m + 1e-9)
    if count < 1:
        raise InputError(
            msg(
                "layout.row_length_m: a {length_m:g} m row holds no {width_m:g} m wide rack "
                "(allowed: {width_m:g} to 500 m)",
                length_m=params.row_length_m,
                width_m=params.rack_width_m,
            )
        )
    return count


def build_layout(*, plan: Sized, catalog: Catalog, wiring: Wiring, params: LayoutParams) -> Layout:
    """Place every device of ``wiring`` in a rack and the racks in rows.

    Parameters
    ----------
    plan : Sized
        The sized plan (its scenario's rack model and its rack power limit [kW]).
    catalog : Catalog
        Catalog of racks (usable height [U]) and sizing rules (network rack fill [fraction]).
    wiring : Wiring
        Devices to place (each with its height [U] and power [kW]).
    params : LayoutParams
        Floor geometry: row length, rack width and depth, aisle widths [m], maximum rows [count].

    Returns
    -------
    Layout
        Racks with their placements [U], rows and floor coordinates [m], and notes when the layout's
        network rack count differs from the plan's.

    Raises
    ------
    InputError
        ``layout.row_length_m`` when a row holds no rack, ``layout.max_rows`` when the racks need
        more rows than the room has.
    """
    per_row = racks_per_row(params)
    rack = catalog.racks[plan.scenario.facility.rack_id]
    compute = _compute_racks(plan, wiring)
    fill = catalog.sizing_rules["network_rack_fill_fraction"].value
    infra = _infra_racks(
        [d for d in wiring.devices if d.group != "compute"],
        capacity_u=max(1, int(rack.usable_rack_units * fill)),
        limit_kw=plan.racks.rack_power_limit_kw,
    )
    notes = []
    if len(infra) != plan.racks.network_racks:
        notes.append(
            msg(
                "the layout needs {layout} network racks, the plan counts {plan}",
                layout=len(infra),
                plan=plan.racks.network_racks,
            )
        )
    compute_rows = ceil_div(len(compute), per_row)
    infra_rows = ceil_div(len(infra), per_row)
    rows = compute_rows + infra_rows
    if params.max_rows is not None and rows > params.max_rows:
        raise InputError(
            msg(
                "layout.max_rows: {racks} racks need {rows} rows of {per_row} racks, the room holds "
                "{max_rows} (allowed: at least {rows}, or a longer layout.row_length_m)",
                racks=len(compute) + len(infra),
                rows=rows,
                per_row=per_row,
                max_rows=params.max_rows,
            )
        )
    devices = {d.device_id: d for d in wiring.devices}
    ordered = _row_order(compute, infra, per_row=per_row, middle=compute_rows // 2)
    racks = tuple(
        _rack_plan(
            contents,
            devices,
            params,
            rack_u=rack.rack_units,
            usable_u=rack.usable_rack_units,
            limit_kw=plan.racks.rack_power_limit_kw,
            row=row,
            slot=slot,
        )
        for row, slot, contents in ordered
    )
    notes += [
        msg(
            "rack {rack} draws {rack_kw:.1f} kW, above the plan's {limit_kw:.1f} kW: the plan spreads the "
            "scale-up switch trays' power evenly over a domain's racks, a rack holds whole trays",
            rack=r.name,
            rack_kw=r.power_kw,
            limit_kw=r.power_limit_kw,
        )
        for r in racks
        if r.power_kw > r.power_limit_kw + 1e-6
    ]
    return Layout(params=params, racks=racks, rows=rows, racks_per_row=per_row, notes=tuple(notes))


def _compute_racks(plan: Sized, wiring: Wiring) -> list[list[Device]]:
    """Servers per rack as the plan places them, a domain's switch trays with its servers."""
    servers = [d for d in wiring.devices if d.role == "gpu-server"]
    trays = [d for d in wiring.devices if d.role == "scale-up-switch"]
    per_rack = plan.racks.nodes_per_rack
    scale_up = plan.scale_up
    if not trays:
        return [servers[i : i + per_rack] for i in range(0, len(servers), per_rack)]
    spd, tpd = scale_up.servers_per_domain, scale_up.switches_per_domain
    racks: list[list[Device]] = []
    if per_rack >= spd:
        domains_per_rack = per_rack // spd
        for first in range(0, scale_up.domains, domains_per_rack):
            chosen = range(first, min(first + domains_per_rack, scale_up.domains))
            racks.append(
                _middle(
                    [s for d in chosen for s in servers[d * spd : (d + 1) * spd]],
                    [t for d in chosen for t in trays[d * tpd : (d + 1) * tpd]],
                )
            )
        return racks
    split = ceil_div(spd, per_rack)
    for d in range(scale_up.domains):
        domain_trays = trays[d * tpd : (d + 1) * tpd]
        # trays in balanced blocks over the racks of the domain (the plan spreads their power evenly)
        by_part: list[list[Device]] = [[] for _ in range(split)]
        for k, tray in enumerate(domain_trays):
            by_part[balanced_block(k, items=tpd, bins=split)[0]].append(tray)
        for part in range(split):
            domain_servers = servers[d * spd : (d + 1) * spd][part * per_rack : (part + 1) * per_rack]
            racks.append(_middle(domain_servers, by_part[part]))
    return racks


def _middle(servers: list[Device], trays: list[Device]) -> list[Device]:
    """Servers below and above, switch trays between them (the NVL72 rack's order)."""
    half = (len(servers) + 1) // 2
    return [*servers[:half], *trays, *servers[half:]]


def _infra_racks(devices: Sequence[Device], *, capacity_u: int, limit_kw: float) -> list[list[Device]]:
    """First fit in inventory order under the fill height and the power limit."""
    racks: list[list[Device]] = []
    used: list[tuple[int, float]] = []
    for device in devices:
        kw = device.power_w / 1000.0
        for i, (u, p) in enumerate(used):
            if u + device.rack_units <= capacity_u and p + kw <= limit_kw + 1e-9:
                racks[i].append(device)
                used[i] = (u + device.rack_units, p + kw)
                break
        else:
            racks.append([device])
            used.append((device.rack_units, kw))
    return racks


def _row_order(
    compute: list[list[Device]], infra: list[list[Device]], *, per_row: int, middle: int
) -> list[tuple[int, int, list[Device]]]:
    """(row, slot, devices) of every rack: compute rows with the infrastructure rows at ``middle``."""
    placed: list[tuple[int, int, list[Device]]] = []
    before = compute[: middle * per_row]
    after = compute[middle * per_row :]
    row = 0
    for group in (before, infra, after):
        for i in range(0, len(group), per_row):
            placed += [(row, slot, contents) for slot, contents in enumerate(group[i : i + per_row])]
            row += 1
    return placed


def _row_y_m(row: int, params: LayoutParams) -> float:
    """Centre line of ``row`` [m]: rows one rack deep, cold aisles after even rows, hot after odd."""
    pairs, odd = divmod(row, 2)
    pitch_pair = 2 * params.rack_depth_m + params.cold_aisle_m + params.hot_aisle_m
    offset = odd * (params.rack_depth_m + params.cold_aisle_m)
    return pairs * pitch_pair + offset + params.rack_depth_m / 2


def _rack_plan(
    contents: list[Device],
    devices: Mapping[str, Device],
    params: LayoutParams,
    *,
    rack_u: int,
    usable_u: int,
    limit_kw: float,
    row: int,
    slot: int,
) -> RackPlan:
    placements = []
    position = 1
    for device in contents:
        placements.append(Placement(device.device_id, position, device.rack_units))
        position += device.rack_units
    units: dict[str, int] = {}
    for device in contents:
        units[device.group] = units.get(device.group, 0) + device.rack_units
    kind = max(KINDS, key=lambda k: (units.get(k, 0), -KINDS.index(k)))
    return RackPlan(
        name=naming.rack_name(row, slot),
        kind=kind,
        row=row,
        slot=slot,
        x_m=(slot + 0.5) * params.rack_width_m,
        y_m=_row_y_m(row, params),
        front="+y" if row % 2 == 0 else "-y",
        placements=tuple(placements),
        rack_units=rack_u,
        usable_rack_units=usable_u,
        power_kw=sum(devices[p.device_id].power_w for p in placements) / 1000.0,
        power_limit_kw=limit_kw,
    )


class Anchor(NamedTuple):
    """Where the cables of a placed device start: its rack, the rise from its top unit to the tray
    above the rack [m], its middle [U] and the rack's centre on the floor [m]."""

    rack: str
    rise_m: float
    middle_u: float
    x_m: float
    y_m: float


def anchor(placed: tuple[RackPlan, Placement], params: LayoutParams) -> Anchor:
    """The :class:`Anchor` of a device in its rack: rise ``(rack U - top U) x 44.45 mm + tray
    height`` [m], middle ``position + height / 2`` [U].

    Parameters
    ----------
    placed : tuple[RackPlan, Placement]
        A rack and one placement in it (position and height [U]).
    params : LayoutParams
        Floor geometry (cable tray height above the rack [m]).

    Returns
    -------
    Anchor
        Rack name, rise to the tray [m], middle of the device [U] and rack position ``x, y`` [m].
    """
    rack, at = placed
    rise = (rack.rack_units - at.top_u) * RACK_UNIT_M + params.tray_height_m
    return Anchor(rack.name, rise, at.position_u + at.rack_units / 2, rack.x_m, rack.y_m)


def anchors(layout: Layout) -> dict[str, Anchor]:
    """The :class:`Anchor` of every device of ``layout``, by device id.

    Parameters
    ----------
    layout : Layout
        Racks with their placements.

    Returns
    -------
    dict[str, Anchor]
        Anchor (rise [m], middle [U], rack ``x, y`` [m]) per device id.
    """
    return {p.device_id: anchor((rack, p), layout.params) for rack in layout.racks for p in rack.placements}


def anchored_length_m(a: Anchor, b: Anchor, *, slack_m: float) -> float:
    """Length of one cable between two anchored devices, rounded up to a whole metre [m]: in one
    rack ``|middle_a - middle_b| x 44.45 mm + slack``, between racks ``rise_a + rise_b + |dx| +
    |dy| + slack`` (module notes).

    Parameters
    ----------
    a, b : Anchor
        The two ends' anchors (rise [m], middle [U], rack ``x, y`` [m]).
    slack_m : float
        Extra length per cable for dressing and service loops [m].

    Returns
    -------
    float
        Cable length [m], a whole number, at least 1.
    """
    if a.rack == b.rack:
        length = abs(a.middle_u - b.middle_u) * RACK_UNIT_M + slack_m
    else:
        length = a.rise_m + b.rise_m + (abs(a.x_m - b.x_m) + abs(a.y_m - b.y_m)) + slack_m
    return float(max(1, math.ceil(length - 1e-9)))


def cable_length_m(
    a: tuple[RackPlan, Placement], b: tuple[RackPlan, Placement], params: LayoutParams
) -> float:
    """Length of one cable between two placed devices, rounded up to a whole metre [m]
    (:func:`anchored_length_m`).

    Parameters
    ----------
    a, b : tuple[RackPlan, Placement]
        The two ends: rack and placement (position and height [U]).
    params : LayoutParams
        Floor geometry (tray height and slack [m]).

    Returns
    -------
    float
        Cable length [m], a whole number, at least 1.

    >>> p = LayoutParams()
    >>> r1 = RackPlan("R01-01", "compute", 0, 0, 0.3, 0.6, "+y", (), 42, 42, 0.0, 40.0)
    >>> r2 = RackPlan("R01-04", "network", 0, 3, 2.1, 0.6, "+y", (), 42, 42, 0.0, 40.0)
    >>> # rises (42 - 2) x 0.04445 + 0.3 = 2.078 and (42 - 40) x 0.04445 + 0.3 = 0.389,
    >>> # along the row 1.8, slack 1.5: 5.767 -> 6 m
    >>> cable_length_m((r1, Placement("a", 1, 2)), (r2, Placement("b", 40, 1)), p)
    6.0
    """
    return anchored_length_m(anchor(a, params), anchor(b, params), slack_m=params.slack_m)
