"""The cabling plan of a hand-off as an XLSX workbook: cables, racks, and totals against the BOM."""

from __future__ import annotations

from planner.handoff.cabling import CABLING_COLUMNS, Handoff
from planner.handoff.tables import RACK_COLUMNS, rack_rows, totals_against_bom
from planner.i18n import tr
from planner.report.export.xlsx import Column, ColumnKind, Sheet, write_xlsx

_NUMERIC: dict[str, ColumnKind] = {
    "length_m": "number",
    "a_position_u": "integer",
    "b_position_u": "integer",
    "plane": "integer",
}


def cabling_xlsx(handoff: Handoff, lang: str = "en") -> bytes:
    """Three sheets: cables (the CSV's columns, which stay English: they are an interface),
    racks, and the totals against the BOM; sheet names in ``lang``.

    Parameters
    ----------
    handoff : Handoff
        Wiring, layout and cables of one plan (lengths [m], power [kW]).
    lang : str
        Language of the sheet names (``en`` or ``zh``).

    Returns
    -------
    bytes
        The ``.xlsx`` workbook.
    """
    cables = Sheet(
        title=tr("cabling.sheet.cables", lang),
        columns=tuple(Column(c, c, _NUMERIC.get(c, "text")) for c in CABLING_COLUMNS),
        rows=tuple(dict(zip(CABLING_COLUMNS, c.row(), strict=True)) for c in handoff.cables),
    )
    racks = Sheet(
        title=tr("cabling.sheet.racks", lang),
        columns=tuple(Column(c, c, "text" if c in ("rack", "kind") else "number") for c in RACK_COLUMNS),
        rows=tuple(rack_rows(handoff)),
    )
    totals = Sheet(
        title=tr("cabling.sheet.totals", lang),
        columns=(
            Column("kind", "kind"),
            Column("part", "part"),
            Column("cabling_plan", "cabling_plan", "integer"),
            Column("bom", "bom", "integer"),
        ),
        rows=tuple(totals_against_bom(handoff)),
    )
    return write_xlsx((cables, racks, totals), title=tr("cabling.title", lang, design=handoff.plan.design_id))
