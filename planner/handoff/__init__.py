"""Hand-off to the build team: device inventory, per-port cabling, racks in rows and the files
the build tools read (cabling CSV/XLSX, rack-elevation SVG, NetBox import files, draw.io).

The package reads a :class:`planner.engine.Plan` and the catalog; it computes no count of its
own that the plan already has. Device ids, port names and cable labels follow the convention in
``docs/handoff.md`` (:mod:`planner.handoff.naming`).

Layers: below ``planner.report`` (a report may show elevations), above ``planner.engine``.
"""

from __future__ import annotations

from planner.handoff.wiring import Device, Link, Wiring, build_wiring

__all__ = [
    "Device",
    "Link",
    "Wiring",
    "build_wiring",
]
