"""The cabling plan: one row per cable with both ends, medium, optics, a length and a label.

Column names are the interface of ``planner export --cabling`` (``CABLING_COLUMNS``); device ids
equal the NetBox device names (:mod:`planner.handoff.naming`).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.errors import InputError
from planner.fabric.media import AUX_LINK_CLASSES, FABRIC_LINK_CLASSES, length_field
from planner.handoff import naming
from planner.handoff.layout import Layout, build_layout
from planner.handoff.runs import link_lengths_m, medium_reach_m
from planner.handoff.sized import Planned
from planner.handoff.wiring import Link, Wiring, build_wiring
from planner.i18n.message import msg
from planner.inputs.layout import LayoutParams

CABLING_COLUMNS = (
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
    "cable_part",
    "a_rack",
    "a_position_u",
    "b_rack",
    "b_position_u",
    "plane",
)
"""Columns of the cabling CSV/XLSX; the first eleven are the interface checks rely on."""


@dataclass(frozen=True)
class Cable:
    """One row of the cabling plan."""

    cable_id: str
    label: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    link_class: str
    medium: str
    length_m: float
    optic_a: str
    optic_b: str
    cable_part: str
    a_rack: str
    a_position_u: int
    b_rack: str
    b_position_u: int
    plane: int

    def row(self) -> tuple[object, ...]:
        """Values in :data:`CABLING_COLUMNS` order (``plane`` 1-based)."""
        return tuple(self.plane + 1 if name == "plane" else getattr(self, name) for name in CABLING_COLUMNS)


@dataclass(frozen=True)
class Handoff:
    """Everything the build team gets for one plan."""

    plan: Planned
    wiring: Wiring
    layout: Layout
    cables: tuple[Cable, ...]


def build_handoff(*, plan: Planned, catalog: Catalog, params: LayoutParams | None = None) -> Handoff:
    """Wiring, layout and cabling plan of ``plan`` on the floor ``params`` (default: the plan's
    scenario's floor, :attr:`planner.inputs.scenario.Scenario.layout_floor`, the one its BOM prices).

    Parameters
    ----------
    plan : Planned
        The planned cluster (its devices, links and scenario).
    catalog : Catalog
        Catalog of servers, switches, racks, optics and cables (dimensionless records).
    params : LayoutParams or None
        Floor geometry (row length [m], rack size [m], tray height [m], slack [m]); ``None`` takes
        the scenario's ``layout_floor``.

    Returns
    -------
    Handoff
        The plan with its wiring, rack layout and labelled cables (lengths [m]).

    Raises
    ------
    InputError
        A layout field (see :func:`planner.handoff.layout.build_layout`), or a cable the layout
        makes longer than its medium reaches (naming the link-length field to raise).
    """
    wiring = build_wiring(plan=plan, catalog=catalog)
    layout = build_layout(
        plan=plan, catalog=catalog, wiring=wiring, params=params or plan.scenario.layout_floor
    )
    cables = cabling(wiring=wiring, layout=layout, catalog=catalog)
    return Handoff(plan=plan, wiring=wiring, layout=layout, cables=cables)


def cabling(*, wiring: Wiring, layout: Layout, catalog: Catalog) -> tuple[Cable, ...]:
    """One :class:`Cable` per link, with its length from the layout and its label.

    Parameters
    ----------
    wiring : Wiring
        Devices and their port-to-port links (dimensionless ids).
    layout : Layout
        Where each device sits: rack, position [U] and rack coordinates [m].
    catalog : Catalog
        Catalog whose media reaches [m] each cable length is checked against.

    Returns
    -------
    tuple[Cable, ...]
        One cable per link of ``wiring``, in link order: id, label, both ends (rack, position [U],
        device, port), medium, optics and length [m].
    """
    where = layout.location()
    numbers: dict[str, int] = {}
    cables = []
    for link, length_m in zip(wiring.links, link_lengths_m(wiring, layout), strict=True):
        numbers[link.link_class] = numbers.get(link.link_class, 0) + 1
        cable_id = naming.cable_id(link.link_class, numbers[link.link_class])
        a, b = where[link.a_device], where[link.b_device]
        _check_reach(link, cable_id, length_m, catalog)
        label = naming.cable_label(
            cable=cable_id,
            a=(a[0].name, a[1].position_u, link.a_device, link.a_port),
            b=(b[0].name, b[1].position_u, link.b_device, link.b_port),
        )
        cables.append(
            Cable(
                cable_id=cable_id,
                label=label,
                a_device=link.a_device,
                a_port=link.a_port,
                b_device=link.b_device,
                b_port=link.b_port,
                link_class=link.link_class,
                medium=link.medium,
                length_m=length_m,
                optic_a=link.optic_a or "",
                optic_b=link.optic_b or "",
                cable_part=link.cable_part,
                a_rack=a[0].name,
                a_position_u=a[1].position_u,
                b_rack=b[0].name,
                b_position_u=b[1].position_u,
                plane=link.plane,
            )
        )
    return tuple(cables)


def _check_reach(link: Link, cable_id: str, length_m: float, catalog: Catalog) -> None:
    limit, part = medium_reach_m(link.cable_part, (link.optic_a, link.optic_b), catalog)
    if length_m > limit:
        raise InputError(
            msg(
                "{field}: cable {cable} of the layout is {length_m:g} m, beyond the {reach_m:g} m "
                "that {part} reaches; set {field} to at least {length_m:g} so the plan picks a "
                "medium that reaches, or shorten layout.row_length_m",
                field=f"facility.link_lengths.{length_field(link.link_class)}",
                cable=cable_id,
                length_m=length_m,
                reach_m=limit,
                part=part,
            )
        )


def length_summary(handoff: Handoff) -> list[dict[str, object]]:
    """Per link class: cables, shortest, mean and longest layout length, and the scenario's one
    length the class's medium is chosen for [m].

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan.

    Returns
    -------
    list[dict[str, object]]
        One row per link class that has cables: ``link_class``, ``cables`` [count], ``min_m``,
        ``mean_m`` (one decimal), ``max_m`` and ``medium_for_m`` [m].
    """
    lengths = handoff.plan.scenario.facility.link_lengths
    rows: list[dict[str, object]] = []
    for link_class in (*FABRIC_LINK_CLASSES, *AUX_LINK_CLASSES):
        values = [c.length_m for c in handoff.cables if c.link_class == link_class]
        if values:
            rows.append(
                {
                    "link_class": link_class,
                    "cables": len(values),
                    "min_m": min(values),
                    "mean_m": round(sum(values) / len(values), 1),
                    "max_m": max(values),
                    "medium_for_m": getattr(lengths, length_field(link_class)),
                }
            )
    return rows
