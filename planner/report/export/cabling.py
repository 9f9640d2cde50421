"""The cabling plan of a hand-off as an XLSX workbook: cables, racks, and totals against the BOM."""

from __future__ import annotations

from planner.handoff.cabling import CABLING_COLUMNS, Handoff
from planner.handoff.tables import RACK_COLUMNS, rack_rows, totals_against_bom
from planner.report.export.xlsx import Column, ColumnKind, Sheet, write_xlsx

_NUMERIC: dict[str, ColumnKind] = {
    "length_m": "number",
    "a_position_u": "integer",
    "b_position_u": "integer",
    "plane": "integer",
}


def cabling_xlsx(handoff: Handoff) -> bytes:
    """Three sheets: ``Cables`` (the CSV's columns), ``Racks`` and ``Totals vs BOM``."""
    cables = Sheet(
        title="Cables",
        columns=tuple(Column(c, c, _NUMERIC.get(c, "text")) for c in CABLING_COLUMNS),
        rows=tuple(dict(zip(CABLING_COLUMNS, c.row(), strict=True)) for c in handoff.cables),
    )
    racks = Sheet(
        title="Racks",
        columns=tuple(Column(c, c, "text" if c in ("rack", "kind") else "number") for c in RACK_COLUMNS),
        rows=tuple(rack_rows(handoff)),
    )
    totals = Sheet(
        title="Totals vs BOM",
        columns=(
            Column("kind", "kind"),
            Column("part", "part"),
            Column("cabling_plan", "cabling_plan", "integer"),
            Column("bom", "bom", "integer"),
        ),
        rows=tuple(totals_against_bom(handoff)),
    )
    return write_xlsx((cables, racks, totals), title=f"Cabling plan {handoff.plan.design_id}")
