"""The proposal's rack-elevation section: one page per rack type of the layout.

The layout is the hand-off's (:mod:`planner.handoff.layout`, on the scenario's floor, the one the BOM prices) and each
page is the same SVG front view as the Layout page and ``planner export --elevations``
(:func:`planner.handoff.elevation.elevation_svg`), embedded as an image so it prints as vectors.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from planner import Catalog, Plan, PlannerError
from planner.handoff.cabling import build_handoff
from planner.handoff.elevation import RackType, elevation_svg, rack_types
from planner.handoff.wiring import Wiring
from planner.i18n import error_text, tr, translate
from planner.report.export.html import HtmlDocument

SECTION_KEY = "export.sec.elevations"
"""Title key (the contents lists it; tests look for it in the PDF)."""
ANCHOR = "elevations"
PAGE_BREAK = '<div style="break-before: page"></div>'
"""Between two rack types: each front view starts a page (a 48 U rack fills most of one)."""


@dataclass(frozen=True)
class Elevations:
    """The rack types of the plan's layout, or the one-line reason there is no layout."""

    types: tuple[RackType, ...]
    wiring: Wiring | None
    problem: str = ""


def elevations_of(*, plan: Plan, catalog: Catalog) -> Elevations:
    """The layout's rack types (the scenario's floor); a plan the floor cannot lay out gives its reason.

    Parameters
    ----------
    plan : Plan
        The plan (its scenario's floor).
    catalog : Catalog
        Catalog the plan was computed with.

    Returns
    -------
    Elevations
        The rack types and wiring, or no types and the reason as text.
    """
    try:
        handoff = build_handoff(plan=plan, catalog=catalog)
    except PlannerError as exc:
        return Elevations(types=(), wiring=None, problem=error_text(exc))
    return Elevations(types=rack_types(handoff.layout, handoff.wiring), wiring=handoff.wiring)


def svg_uri(svg: str) -> str:
    """An SVG as a data URI for an ``<img>``.

    Parameters
    ----------
    svg : str
        SVG document.

    Returns
    -------
    str
        ``data:image/svg+xml;base64,...`` URI.
    """
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def write_section(doc: HtmlDocument, elevations: Elevations, lang: str) -> None:
    """The section: the lead, then one rack type per page (or the reason there is no layout).

    Parameters
    ----------
    doc : HtmlDocument
        The proposal document being written (appended to).
    elevations : Elevations
        Rack types and wiring from :func:`elevations_of`.
    lang : str
        Language of the text (``en`` or ``zh``).
    """
    doc.section(tr(SECTION_KEY, lang), ANCHOR)
    doc.paragraph(tr("export.elevations_lead", lang), style="lead")
    if elevations.wiring is None:
        doc.callout(
            tr("export.elevations_failed", lang, reason=translate(elevations.problem, lang)), warning=True
        )
        return
    for index, rack_type in enumerate(elevations.types):
        if index:
            doc.blocks.append(PAGE_BREAK)
        title = tr(
            "layout.rack_type",
            lang,
            kind=tr(f"layout.kind.{rack_type.kind}", lang),
            name=rack_type.key,
            count=len(rack_type.racks),
        )
        doc.heading(title)
        svg = elevation_svg(rack_type, elevations.wiring, title=title, lang=lang)
        # 48 U is ~970 x 360 px: at 36 % of the 180 mm text width it is ~175 mm tall, one A4 page with the headings
        doc.figure(
            svg_uri(svg),
            caption=", ".join(rack_type.racks[:12]) + (" …" if len(rack_type.racks) > 12 else ""),
            width_pct=36,
        )
