"""XLSX workbooks: named sheets of typed columns with number formats, safe against injection.

The writer is generic (sheets of columns and rows); :mod:`planner.report.proposal` decides which sheets a
proposal has (BOM, design comparison, cabling, assumptions) and their headers in the reader's
language. Every text cell goes through :func:`planner.sheets.neutralize_cell` and is
stored as a string, so no cell is ever a formula; characters XML cannot hold are dropped.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from planner.report.fmt import display_width
from planner.sheets import neutralize_cell, restore_cell

ColumnKind = Literal["text", "integer", "money", "number", "fraction"]
NUMBER_FORMATS: Mapping[ColumnKind, str] = {
    "text": "@",
    "integer": "#,##0",
    "money": "#,##0.00",
    "number": "#,##0.###",
    "fraction": "0.0%",
}
HEADER_FILL = "1F3A68"
MAX_TITLE = 31
"""Excel's limit on a sheet name [characters]."""


@dataclass(frozen=True)
class Column:
    """One column: the record key it shows, its header and how its numbers are formatted."""

    key: str
    header: str
    kind: ColumnKind = "text"
    number_format: str | None = None
    """Overrides the kind's format (e.g. ``'#,##0.0'`` for kW)."""


@dataclass(frozen=True)
class Sheet:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]
    freeze_header: bool = True
    widths: Mapping[str, float] = field(default_factory=dict)
    """Column widths by key [characters]; others are fitted to their content."""


def item_value_sheet(
    *, title: str, headers: tuple[str, str], lines: Iterable[tuple[str, Any]], widths: tuple[float, float]
) -> Sheet:
    """A two-column sheet of ``(item, value)`` lines, such as a proposal's facts or a cluster's figures.

    Parameters
    ----------
    title : str
        Sheet title.
    headers : tuple[str, str]
        Headers of the item and the value column, in the reader's language.
    lines : Iterable[tuple[str, Any]]
        Item label and value, one per row.
    widths : tuple[float, float]
        Widths of the item and the value column [characters].

    Returns
    -------
    Sheet
        Columns keyed ``item`` and ``value``, one row per line.
    """
    item, value = headers
    return Sheet(
        title=title,
        columns=(Column("item", item), Column("value", value)),
        rows=tuple({"item": k, "value": v} for k, v in lines),
        widths={"item": widths[0], "value": widths[1]},
    )


def sheet_title(text: str, used: set[str]) -> str:
    """A sheet name Excel accepts (no ``[]:*?/\\``, at most 31 characters), unique in ``used``.

    Parameters
    ----------
    text : str
        The wanted title.
    used : set[str]
        Titles already taken (the new one is added).

    Returns
    -------
    str
        The sheet title.

    >>> sheet_title("BOM [v1/2]", set()), sheet_title("BOM", {"BOM"})
    ('BOM (v1_2)', 'BOM 2')
    """
    clean = re.sub(r"[\[]", "(", re.sub(r"[\]]", ")", text))
    clean = re.sub(r"[:*?/\\]", "_", clean).strip("' ")[:MAX_TITLE] or "Sheet"
    title, n = clean, 2
    while title in used:
        suffix = f" {n}"
        title, n = clean[: MAX_TITLE - len(suffix)] + suffix, n + 1
    used.add(title)
    return title


def _cell_value(value: Any, kind: ColumnKind) -> Any:
    if value is None:
        return None
    if kind == "text" or isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("", neutralize_cell(str(value)))
    if kind == "integer":
        return int(value)
    return float(value)


def write_xlsx(sheets: Sequence[Sheet], *, title: str = "", author: str = "") -> bytes:
    """The workbook as bytes: one sheet per :class:`Sheet`, header row styled and frozen.

    Parameters
    ----------
    sheets : Sequence[Sheet]
        Sheets with their columns and rows.
    title, author : str
        Workbook properties (illegal characters removed, at most 255 characters).

    Returns
    -------
    bytes
        The ``.xlsx`` workbook.
    """
    book = Workbook()
    book.remove(book.worksheets[0])
    book.properties.title = ILLEGAL_CHARACTERS_RE.sub("", title)[:255]
    book.properties.creator = ILLEGAL_CHARACTERS_RE.sub("", author)[:255]
    used: set[str] = set()
    header_font = Font(bold=True, color="FFFFFF")
    header_fill = PatternFill("solid", fgColor=HEADER_FILL)
    for spec in sheets:
        ws = book.create_sheet(sheet_title(spec.title, used))
        widths = [display_width(c.header) for c in spec.columns]
        for col, column in enumerate(spec.columns, start=1):
            cell = ws.cell(
                row=1, column=col, value=ILLEGAL_CHARACTERS_RE.sub("", neutralize_cell(column.header))
            )
            cell.font = header_font
            cell.fill = header_fill
            cell.alignment = Alignment(vertical="center", wrap_text=True)
        for r, record in enumerate(spec.rows, start=2):
            for col, column in enumerate(spec.columns, start=1):
                value = _cell_value(record.get(column.key), column.kind)
                cell = ws.cell(row=r, column=col, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"
                    cell.alignment = Alignment(vertical="top", wrap_text=len(value) > 60)
                    widths[col - 1] = max(widths[col - 1], min(display_width(value), 60))
                elif value is not None:
                    cell.number_format = column.number_format or NUMBER_FORMATS[column.kind]
                    widths[col - 1] = max(widths[col - 1], len(f"{value:,.2f}"))
        for col, column in enumerate(spec.columns, start=1):
            ws.column_dimensions[get_column_letter(col)].width = spec.widths.get(
                column.key, widths[col - 1] + 2
            )
        if spec.freeze_header:
            ws.freeze_panes = "A2"
        if spec.rows:
            ws.auto_filter.ref = f"A1:{get_column_letter(len(spec.columns))}{len(spec.rows) + 1}"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def read_xlsx(data: bytes) -> dict[str, list[dict[str, Any]]]:
    """Every sheet as records keyed by header (text cells restored): for tests and re-imports.

    Parameters
    ----------
    data : bytes
        An ``.xlsx`` workbook.

    Returns
    -------
    dict[str, list[dict[str, Any]]]
        Records of each sheet, by sheet title.
    """
    book = load_workbook(io.BytesIO(data), read_only=True)
    sheets: dict[str, list[dict[str, Any]]] = {}
    for ws in book.worksheets:
        rows = list(ws.iter_rows(values_only=True))
        if not rows:
            sheets[ws.title] = []
            continue
        header = [restore_cell(str(h)) if h is not None else "" for h in rows[0]]
        sheets[ws.title] = [
            {h: restore_cell(v) if isinstance(v, str) else v for h, v in zip(header, row, strict=True)}
            for row in rows[1:]
        ]
    book.close()
    return sheets
