"""Front elevations of rack types as SVG: every device at its units, U and kW used vs limits.

A rack type is the sequence of (model, height) from U1 up with its kind: racks that differ only
in device names share one drawing (the first rack of the type is drawn, with its names).
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from planner.handoff.layout import Layout, RackPlan
from planner.handoff.wiring import Wiring
from planner.i18n import tr, translate_text

UNIT_PX = 18
"""Height of one rack unit in the drawing [px]."""
WIDTH_PX = 300
MARGIN_PX = 30
HEADER_PX = 48

FILL = {
    "gpu-server": "#cfe3f7",
    "scale-up-switch": "#f7dccf",
    "leaf": "#d5efd0",
    "spine": "#b9e0b1",
    "core": "#9fd095",
    "storage": "#efe3b8",
    "storage-switch": "#e6d79a",
    "frontend-switch": "#c5e8c0",
    "inband-switch": "#ddd0ee",
    "oob-switch": "#cbbbe6",
}


@dataclass(frozen=True)
class RackType:
    """Racks with the same devices in the same units."""

    key: str
    """``compute-1``, ``network-2`` ...: kind and a number in order of first appearance."""
    kind: str
    racks: tuple[str, ...]
    example: RackPlan


def rack_types(layout: Layout, wiring: Wiring) -> tuple[RackType, ...]:
    """The distinct rack types of a layout, in rack order.

    Parameters
    ----------
    layout : Layout
        Racks of the plan with their placements (position and height [U]).
    wiring : Wiring
        Devices of the plan (their model ids tell racks apart).

    Returns
    -------
    tuple[RackType, ...]
        One type per distinct (kind, models at positions [U]) shape, keyed ``<kind>-<n>``, each with
        the names of its racks and the first as example.
    """
    devices = {d.device_id: d for d in wiring.devices}
    found: dict[tuple[object, ...], list[RackPlan]] = {}
    for rack in layout.racks:
        shape = (
            rack.kind,
            tuple((devices[p.device_id].model_id, p.position_u, p.rack_units) for p in rack.placements),
        )
        found.setdefault(shape, []).append(rack)
    counters: dict[str, int] = {}
    types = []
    for (kind, _), racks in found.items():
        kind_text = str(kind)
        counters[kind_text] = counters.get(kind_text, 0) + 1
        types.append(
            RackType(
                key=f"{kind_text}-{counters[kind_text]}",
                kind=kind_text,
                racks=tuple(r.name for r in racks),
                example=racks[0],
            )
        )
    return tuple(types)


def elevation_svg(rack_type: RackType, wiring: Wiring, *, title: str = "", lang: str = "en") -> str:
    """One rack type's front view; device boxes never overlap (each owns its units).

    The header line gives the units and kW used against the usable height and the power limit;
    the rack count and the catalog names of the devices are in ``lang``.

    Parameters
    ----------
    rack_type : RackType
        The rack type to draw (its example rack is drawn).
    wiring : Wiring
        Devices of the plan (model names and roles, for labels and colours).
    title : str
        Heading text; empty uses the type key and its first four rack names.
    lang : str
        Language code of the rack count and device names (``en`` or ``zh``).

    Returns
    -------
    str
        An SVG document (text), one unit row every ``UNIT_PX`` pixels.
    """
    rack = rack_type.example
    devices = {d.device_id: d for d in wiring.devices}
    height = HEADER_PX + rack.rack_units * UNIT_PX + 2 * MARGIN_PX
    width = WIDTH_PX + 2 * MARGIN_PX
    top = HEADER_PX + MARGIN_PX
    heading = (
        title
        or f"{rack_type.key}: {', '.join(rack_type.racks[:4])}{' ...' if len(rack_type.racks) > 4 else ''}"
    )
    racks_text = tr("elevation.racks", lang, count=len(rack_type.racks))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" data-rack-type="{escape(rack_type.key)}">',
        f'<text x="{MARGIN_PX}" y="20" font-size="13" font-weight="bold">{escape(_fit(heading, 40))}</text>',
        f'<text x="{MARGIN_PX}" y="38" font-size="11">{rack.used_u}/{rack.usable_rack_units} U, '
        f"{rack.power_kw:.1f}/{rack.power_limit_kw:.1f} kW, {escape(racks_text)}</text>",
        f'<rect x="{MARGIN_PX}" y="{top}" width="{WIDTH_PX}" height="{rack.rack_units * UNIT_PX}" '
        'fill="#fafafa" stroke="#333" stroke-width="2"/>',
    ]
    for u in range(1, rack.rack_units + 1):
        y = top + (rack.rack_units - u) * UNIT_PX
        parts.append(
            f'<text x="{MARGIN_PX - 4}" y="{y + UNIT_PX - 5}" font-size="9" text-anchor="end">{u}</text>'
        )
    for placement in rack.placements:
        device = devices[placement.device_id]
        y = top + (rack.rack_units - placement.top_u) * UNIT_PX
        h = placement.rack_units * UNIT_PX
        label = f"{device.device_id}  {translate_text(device.model_name, lang)}"
        parts.append(
            f'<g class="device" data-device="{escape(device.device_id)}" data-u="{placement.position_u}" '
            f'data-height-u="{placement.rack_units}">'
            f'<rect x="{MARGIN_PX + 2}" y="{y + 1}" width="{WIDTH_PX - 4}" height="{h - 2}" '
            f'fill="{FILL[device.role]}" stroke="#555"/>'
            f'<text x="{MARGIN_PX + 8}" y="{y + min(h, UNIT_PX) / 2 + 4}" font-size="10">'
            f"{escape(_fit(label))}</text></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _fit(text: str, limit: int = 48) -> str:
    """Shorten a label to ``limit`` characters so it stays inside its box."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


FLOOR_PX_PER_M = 40
"""Scale of the floor plan [px per metre]."""
LEGEND_STEP_PX = 110
"""Width of one legend entry (swatch and kind name) [px]; the drawing is at least as wide as the legend."""
KIND_FILL = {"compute": "#cfe3f7", "network": "#b9e0b1", "storage": "#efe3b8", "management": "#ddd0ee"}


def floor_svg(layout: Layout, *, kind_names: dict[str, str] | None = None) -> str:
    """The racks on the floor, seen from above: one box per rack, coloured by kind, fronts marked.

    ``kind_names`` gives the legend text of each kind (the reader's language).

    Parameters
    ----------
    layout : Layout
        Racks with their floor coordinates [m] and the floor's rack width and depth [m].
    kind_names : dict[str, str] or None
        Legend text per rack kind; ``None`` shows the kind ids.

    Returns
    -------
    str
        An SVG document (text), ``FLOOR_PX_PER_M`` pixels per metre.
    """
    names = kind_names or {k: k for k in KIND_FILL}
    scale = FLOOR_PX_PER_M
    width_m = max((r.x_m for r in layout.racks), default=0.0) + layout.params.rack_width_m
    depth_m = max((r.y_m for r in layout.racks), default=0.0) + layout.params.rack_depth_m
    legend_px = MARGIN_PX + len(KIND_FILL) * LEGEND_STEP_PX
    width = max(int(width_m * scale) + 2 * MARGIN_PX, legend_px)
    height = int(depth_m * scale) + 2 * MARGIN_PX + 24
    w, d = layout.params.rack_width_m * scale, layout.params.rack_depth_m * scale
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
    ]
    for i, (kind, fill) in enumerate(KIND_FILL.items()):
        left = MARGIN_PX + i * LEGEND_STEP_PX
        parts.append(
            f'<rect x="{left}" y="6" width="12" height="12" fill="{fill}" stroke="#555"/>'
            f'<text x="{left + 16}" y="16" font-size="11">{escape(names.get(kind, kind))}</text>'
        )
    for rack in layout.racks:
        x = MARGIN_PX + (rack.x_m * scale - w / 2)
        y = MARGIN_PX + 24 + (rack.y_m * scale - d / 2)
        front_y = y + d - 3 if rack.front == "+y" else y
        parts.append(
            f'<g class="rack" data-rack="{rack.name}"><rect x="{x:.1f}" y="{y:.1f}" width="{w - 2:.1f}" '
            f'height="{d:.1f}" fill="{KIND_FILL[rack.kind]}" stroke="#555"/>'
            f'<rect x="{x:.1f}" y="{front_y:.1f}" width="{w - 2:.1f}" height="3" fill="#1565c0"/>'
            f'<text x="{x + (w - 2) / 2:.1f}" y="{y + d / 2 + 3:.1f}" font-size="7" text-anchor="middle">'
            f"{escape(rack.name[1:])}</text></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
