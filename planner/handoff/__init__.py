"""Hand-off to the build team: device inventory, per-port cabling, racks in rows and the files
the build tools read (cabling CSV/XLSX, rack-elevation SVG, NetBox import files, draw.io).

The package reads a sized cluster (:class:`planner.handoff.sized.Sized`: a finished
:class:`planner.engine.Plan`, or the engine's counts before it prices them) and the catalog; it
computes no count of its own that the plan already has. Device ids, port names and cable labels
follow the convention in ``docs/handoff.md`` (:mod:`planner.handoff.naming`).

Layers: below ``planner.bom`` (the BOM prices each cable at the length the layout gives it,
:mod:`planner.handoff.runs`), above the fabric, facility and catalog it reads.
"""

from __future__ import annotations

from planner.handoff.wiring import Device, Link, Wiring, build_wiring

__all__ = [
    "Device",
    "Link",
    "Wiring",
    "build_wiring",
]
