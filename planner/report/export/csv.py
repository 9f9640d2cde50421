"""The bill of materials as CSV: stable columns procurement tools can load.

Columns (in this order; the names never change, new columns are only ever appended):

========================  ==============================================================  =====
column                    meaning                                                         type
========================  ==============================================================  =====
``line``                  line number, 1 = first BOM line                                 int
``category``              BOM category id (``gpus``, ``servers``, ``nics``,               text
                          ``fabric_switches``, ``optics``, ``cables``, ``storage``,
                          ``management``, ``racks_power``, ``cooling``, ``services``)
``id``                    catalog record id of the item                                   text
``description``           what the line buys (English, from the catalog)                  text
``quantity``              units                                                           int
``unit_price``            offered price of one unit, in ``currency``                      2 dp
``total_price``           ``quantity x unit_price``, in ``currency``                      2 dp
``currency``              ``USD`` or ``CNY``                                              text
``customer``              customer name of the proposal                                   text
``project``               project name of the proposal                                    text
``version``               proposal version                                                text
========================  ==============================================================  =====

The *internal* edition appends: ``unit_cost`` and ``total_cost`` (cost of one unit and of the
line, in ``currency``), ``margin_fraction`` and ``discount_fraction`` (the commercial terms,
e.g. 0.15) and ``source`` (where the item's figures come from). The *customer* edition has no
cost column at all.

Money is rounded to the cent per unit and per line (``total_price`` is exactly ``quantity x
unit_price``), so the file's sum of ``total_price`` is the BOM total the PDF proposal prints.
The file is UTF-8 with a byte-order mark (Excel then reads Chinese correctly) and CRLF line ends.
Text cells are neutralised against formula injection (:mod:`planner.sheets`):
a leading ``= + - @``, tab or CR gets an apostrophe, which :func:`read_bom_csv` removes again.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from planner.engine import Plan
from planner.errors import InputError
from planner.report.export.pricing import Edition, Pricing, offered_unit_price_usd
from planner.sheets import csv_bytes, restore_cell

Cell = str | int | float
Record = dict[str, Cell]

CUSTOMER_COLUMNS: tuple[str, ...] = (
    "line",
    "category",
    "id",
    "description",
    "quantity",
    "unit_price",
    "total_price",
    "currency",
    "customer",
    "project",
    "version",
)
INTERNAL_COLUMNS: tuple[str, ...] = (
    *CUSTOMER_COLUMNS,
    "unit_cost",
    "total_cost",
    "margin_fraction",
    "discount_fraction",
    "source",
)
COLUMNS: Mapping[Edition, tuple[str, ...]] = {"customer": CUSTOMER_COLUMNS, "internal": INTERNAL_COLUMNS}
INTEGER_COLUMNS = frozenset({"line", "quantity"})
MONEY_COLUMNS = frozenset({"unit_price", "total_price", "unit_cost", "total_cost"})
FRACTION_COLUMNS = frozenset({"margin_fraction", "discount_fraction"})


def bom_records(
    plan: Plan,
    *,
    pricing: Pricing,
    edition: Edition,
    customer: str = "",
    project: str = "",
    version: str = "",
) -> list[Record]:
    """One record per BOM line of a *cost* plan, with the columns of ``edition``.

    Parameters
    ----------
    plan : Plan
        A cost plan (BOM lines [USD], report currency).
    pricing : Pricing
        Margin and discount [fraction] that give the offered prices.
    edition : Edition
        Which columns (customer or internal edition).
    customer, project, version : str
        Document fields written on every record (dimensionless text).

    Returns
    -------
    list[Record]
        One record per BOM line, money at offered prices in the report currency.
    """
    per_usd = plan.cost.in_currency(1.0)
    records: list[Record] = []
    for number, line in enumerate(plan.bom, start=1):
        unit_price = round(offered_unit_price_usd(line.unit_cost_usd, pricing) * per_usd, 2)
        record: Record = {
            "line": number,
            "category": line.category,
            "id": line.id,
            "description": line.description,
            "quantity": line.quantity,
            "unit_price": unit_price,
            "total_price": round(unit_price * line.quantity, 2),
            "currency": plan.cost.currency,
            "customer": customer,
            "project": project,
            "version": version,
        }
        if edition == "internal":
            unit_cost = round(line.unit_cost_usd * per_usd, 2)
            record |= {
                "unit_cost": unit_cost,
                "total_cost": round(unit_cost * line.quantity, 2),
                "margin_fraction": pricing.margin,
                "discount_fraction": pricing.discount,
                "source": line.source,
            }
        records.append(record)
    return records


def total(records: Sequence[Mapping[str, Cell]], column: str = "total_price") -> float:
    """Sum of a money column, rounded to the cent.

    Parameters
    ----------
    records : Sequence[Mapping[str, Cell]]
        BOM records.
    column : str
        The money column summed.

    Returns
    -------
    float
        The sum [report currency], two decimals.
    """
    return round(sum(float(r[column]) for r in records), 2)


def _text(column: str, value: Cell) -> str:
    if column in MONEY_COLUMNS:
        return f"{float(value):.2f}"
    if column in INTEGER_COLUMNS:
        return str(int(value))
    if column in FRACTION_COLUMNS:
        return repr(float(value))
    return str(value)


def write_bom_csv(records: Sequence[Mapping[str, Cell]], *, edition: Edition) -> bytes:
    """The CSV file of :func:`bom_records` (UTF-8 with BOM, CRLF, header row first).

    Parameters
    ----------
    records : Sequence[Mapping[str, Cell]]
        BOM records (:func:`bom_records`).
    edition : Edition
        Which columns are written.

    Returns
    -------
    bytes
        The CSV file (formula-safe cells).
    """
    columns = COLUMNS[edition]
    rows = ([_text(c, record[c]) for c in columns] for record in records)
    return csv_bytes(columns, rows, line_end="\r\n", bom=True)


def read_bom_csv(data: bytes) -> tuple[Edition, list[Record]]:
    """Read a file written by :func:`write_bom_csv` back: its edition and typed records.

    Parameters
    ----------
    data : bytes
        The CSV file.

    Returns
    -------
    tuple[Edition, list[Record]]
        The edition its header matches and one record per row.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("BOM CSV: not UTF-8 text") from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise InputError("BOM CSV: the file is empty")
    header = tuple(rows[0])
    editions = [e for e, columns in COLUMNS.items() if columns == header]
    if not editions:
        raise InputError(f"BOM CSV: unknown columns {', '.join(header)}")
    records: list[Record] = []
    for row in rows[1:]:
        record: Record = {}
        for column, cell in zip(header, row, strict=True):
            if column in INTEGER_COLUMNS:
                record[column] = int(cell)
            elif column in MONEY_COLUMNS or column in FRACTION_COLUMNS:
                record[column] = float(cell)
            else:
                record[column] = restore_cell(cell)
        records.append(record)
    return editions[0], records
