"""Plain tables of a hand-off: the cabling CSV, racks, and totals against the BOM."""

from __future__ import annotations

from planner.handoff.cabling import CABLING_COLUMNS, Handoff
from planner.sheets import csv_bytes


def cabling_csv(handoff: Handoff) -> bytes:
    """The cabling plan, one row per cable (columns :data:`CABLING_COLUMNS`).

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan.

    Returns
    -------
    bytes
        CSV text, UTF-8 (formula-safe cells, see ``csv_bytes``).
    """
    return csv_bytes(CABLING_COLUMNS, (c.row() for c in handoff.cables))


RACK_COLUMNS = ("rack", "row", "kind", "devices", "used_u", "usable_u", "power_kw", "power_limit_kw")


def rack_rows(handoff: Handoff) -> list[dict[str, object]]:
    """One row per rack: kind, devices, units and kW used against the limits.

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan.

    Returns
    -------
    list[dict[str, object]]
        One row per rack: ``rack``, ``row`` (1-based), ``kind``, ``devices`` [count], ``used_u`` and
        ``usable_u`` [U], ``power_kw`` and ``power_limit_kw`` [kW].
    """
    return [
        {
            "rack": r.name,
            "row": r.row + 1,
            "kind": r.kind,
            "devices": len(r.placements),
            "used_u": r.used_u,
            "usable_u": r.usable_rack_units,
            "power_kw": round(r.power_kw, 2),
            "power_limit_kw": r.power_limit_kw,
        }
        for r in handoff.layout.racks
    ]


def totals_against_bom(handoff: Handoff) -> list[dict[str, object]]:
    """Cables by part and optics by part: the cabling plan's count beside the BOM's.

    Parameters
    ----------
    handoff : Handoff
        Wiring, cables and BOM of one plan.

    Returns
    -------
    list[dict[str, object]]
        One row per (``kind`` cable or optic, ``part``): ``cabling_plan`` and ``bom`` [count].
    """
    plan = handoff.plan
    rows: list[dict[str, object]] = []
    cables: dict[str, int] = {}
    for cable in handoff.cables:
        cables[cable.cable_part] = cables.get(cable.cable_part, 0) + 1
    bom_cables: dict[str, int] = {}
    bom_optics: dict[str, int] = {}
    for line in plan.bom:
        if line.category == "cables":
            bom_cables[line.id] = bom_cables.get(line.id, 0) + line.quantity
        elif line.category == "optics":
            bom_optics[line.id] = bom_optics.get(line.id, 0) + line.quantity
    for kind, ours, bom in (
        ("cable", cables, bom_cables),
        ("optic", handoff.wiring.transceivers(), bom_optics),
    ):
        for part in sorted(set(ours) | set(bom)):
            rows.append(
                {"kind": kind, "part": part, "cabling_plan": ours.get(part, 0), "bom": bom.get(part, 0)}
            )
    return rows
