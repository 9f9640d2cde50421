"""The one writer of CSV tables, safe to open in a spreadsheet (formula injection, CWE-1236).

A cell whose text starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which
some importers strip before looking) is run as a formula by Excel, LibreOffice and Google Sheets
when a CSV or XLSX file is opened: a scenario named ``=cmd|' /C calc'!A0`` would run a program on
the machine of whoever opens the list. Such text gets a leading apostrophe, which every
spreadsheet shows as text and does not evaluate; text that already starts with an apostrophe gets
one too, so :func:`restore_cell` undoes :func:`neutralize_cell` exactly. The full-width forms
(``＝＋－＠``) are included: some East Asian spreadsheet locales convert them to ASCII on input.
A text cell that is a plain ASCII decimal number (``-5``, ``1.25``) is a number to a spreadsheet,
not a formula, and is written as it is.

Every table the product writes goes through :func:`csv_text` / :func:`csv_bytes` (rows) or
:func:`frame_csv` (a pandas frame): the BOM, cabling and NetBox files, the CLI's ``--format csv``
(plan, compare, sweep, catalog list, scenarios list), the app's downloads (BOM, workload, sweep).
The XLSX workbooks (:mod:`planner.report.export.xlsx`) store every cell as typed data and pass
text through :func:`neutralize_cell`. ``tests/test_hostile_input.py`` finds every CSV/XLSX
writer in the code and checks that none is left outside these two modules.

References
----------
OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from planner.files import DECIMAL

if TYPE_CHECKING:
    import pandas as pd

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
"""First characters that make a spreadsheet evaluate a cell."""

APOSTROPHE = "'"


def neutralize_cell(text: str) -> str:
    """Text that a spreadsheet shows as typed, never as a formula.

    Parameters
    ----------
    text : str
        A cell's text.

    Returns
    -------
    str
        The text, with an apostrophe in front when it starts like a formula or with an apostrophe.

    Examples
    --------
    >>> neutralize_cell("=cmd|' /C calc'!A0"), neutralize_cell("@SUM(A1)"), neutralize_cell("ACME")
    ("'=cmd|' /C calc'!A0", "'@SUM(A1)", 'ACME')
    >>> neutralize_cell("-5"), neutralize_cell("'quoted")
    ("'-5", "''quoted")
    """
    if text.startswith((*FORMULA_TRIGGERS, APOSTROPHE)):
        return APOSTROPHE + text
    return text


def restore_cell(text: str) -> str:
    """The text before :func:`neutralize_cell` (exact inverse).

    Parameters
    ----------
    text : str
        A cell's text as written.

    Returns
    -------
    str
        The text without the leading apostrophe.

    Examples
    --------
    >>> restore_cell(neutralize_cell("=1+1")), restore_cell(neutralize_cell("'x")), restore_cell("plain")
    ('=1+1', "'x", 'plain')
    """
    return text[1:] if text.startswith(APOSTROPHE) else text


def safe_cell(value: Any) -> Any:
    """A cell as a CSV writer should get it: text neutralised unless it is a plain number.

    Parameters
    ----------
    value : Any
        A cell's value.

    Returns
    -------
    Any
        ``value``, or its neutralised text.

    Examples
    --------
    >>> safe_cell("=1+1"), safe_cell("-5.25"), safe_cell(-5), safe_cell("-5+A1")
    ("'=1+1", '-5.25', -5, "'-5+A1")
    """
    if isinstance(value, str) and not DECIMAL.fullmatch(value):
        return neutralize_cell(value)
    return value


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, line_end: str = "\n") -> str:
    """A header row and ``rows``, every text cell through :func:`safe_cell`.

    Parameters
    ----------
    columns : sequence of str
        The header's column names.
    rows : iterable of sequence of Any
        The rows' cells.
    line_end : str
        The line terminator.

    Returns
    -------
    str
        The CSV text.

    Examples
    --------
    >>> print(csv_text(["name", "gpus"], [["=cmd|' /C calc'!A0", 8]]), end="")
    name,gpus
    '=cmd|' /C calc'!A0,8
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=line_end)
    writer.writerow([safe_cell(c) for c in columns])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def csv_bytes(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], *, line_end: str = "\n", bom: bool = False
) -> bytes:
    """:func:`csv_text` as UTF-8 (with a byte-order mark when ``bom``: Excel then reads Chinese).

    Parameters
    ----------
    columns : sequence of str
        The header's column names.
    rows : iterable of sequence of Any
        The rows' cells.
    line_end : str
        The line terminator.
    bom : bool
        Whether a UTF-8 byte-order mark starts the file.

    Returns
    -------
    bytes
        The CSV file's bytes.
    """
    return csv_text(columns, rows, line_end=line_end).encode("utf-8-sig" if bom else "utf-8")


def frame_csv(frame: pd.DataFrame) -> str:
    """A pandas frame as CSV (no index), its text cells through :func:`safe_cell`.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.

    Returns
    -------
    str
        The CSV text.
    """
    return csv_text(
        [str(c) for c in frame.columns],
        ([_plain(v) for v in row] for row in frame.itertuples(index=False, name=None)),
    )


def _plain(value: Any) -> Any:
    """pandas' missing value as an empty cell (as ``DataFrame.to_csv`` writes it)."""
    try:
        return "" if value is None or value != value else value  # NaN != NaN
    except (TypeError, ValueError):  # an array-like cell
        return value
