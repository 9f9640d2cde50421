"""The proposal's sections in document order, as the contents on the cover lists them."""

from __future__ import annotations

from planner.report import elevations_section, serving_section, tenancy_section
from planner.report.proposal.model import Proposal

SECTIONS = (
    ("export.sec.summary", "summary"),
    ("export.sec.compare", "compare"),
    ("export.sec.topology", "topology"),
    ("export.sec.bom", "bom"),
    ("export.sec.power", "power"),
    ("export.sec.cost", "cost"),
    ("export.sec.assumptions", "assumptions"),
)
"""Section title keys and anchors in document order (the contents lists them)."""


SECTION_KEYS = tuple(key for key, _ in SECTIONS)
"""Section titles in document order (tests check each appears in the PDF)."""


def sections(p: Proposal) -> tuple[tuple[str, str], ...]:
    """:data:`SECTIONS` of this proposal: the tenancy and serving sections before the assumptions
    when the scenario has tenants or a serving request, then the rack elevations.

    Parameters
    ----------
    p : Proposal
        The proposal (options, tenancy, serving).

    Returns
    -------
    tuple[tuple[str, str], ...]
        ``(title key, anchor)`` per section, in document order.
    """
    extra = [
        (section.SECTION_KEY, section.ANCHOR)
        for section, shown in ((tenancy_section, p.tenancy), (serving_section, p.serving))
        if shown is not None
    ]
    elevations = (elevations_section.SECTION_KEY, elevations_section.ANCHOR)
    shown = [s for s in SECTIONS if p.options.compare_designs or s[1] != "compare"]
    return (*shown[:-1], *extra, elevations, shown[-1])
