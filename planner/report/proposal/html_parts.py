"""Small HTML pieces the proposal's sections share (a table from a frame, a bold name in a sentence)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from planner import Plan
from planner.i18n import tr
from planner.report import fmt
from planner.report.export.html import (
    Strong,
    Table,
)


def table_of(
    frame: pd.DataFrame,
    *,
    numeric: Sequence[str] = (),
    widths: Sequence[float] = (),
    compact: bool = False,
    caption: str = "",
) -> Table:
    """A data frame as a document :class:`Table`: cells as text, header from the columns.

    Parameters
    ----------
    frame : pd.DataFrame
        The table (index dropped).
    numeric : Sequence[str]
        Columns aligned as numbers (unknown names ignored).
    widths : Sequence[float]
        Column widths [%]; ignored unless one per column.
    compact : bool
        Smaller type and padding.
    caption : str
        Caption under the table; empty for none.

    Returns
    -------
    Table
        The table.
    """
    columns = [str(c) for c in frame.columns]
    rows = [[str(v) for v in row] for row in frame.itertuples(index=False)]
    return Table.of(
        columns,
        rows,
        numeric=[columns.index(c) for c in numeric if c in columns],
        widths=widths if len(widths) == len(columns) else (),
        compact=compact,
        caption=caption,
    )


def with_bold(sentence: str, bold: str) -> list[str | Strong]:
    """A translated sentence whose ``\\0`` placeholder becomes ``bold`` in bold.

    Parameters
    ----------
    sentence : str
        Translated sentence with one ``\\0``.
    bold : str
        Text shown in bold.

    Returns
    -------
    list[str or Strong]
        Text before, the bold text, text after.
    """
    before, _, after = sentence.partition("\0")
    return [before, Strong(bold), after]


def density_note(plan: Plan, lang: str) -> str:
    """The note on rack density: the densest rack [kW] against the cooling method's limit [kW].

    Parameters
    ----------
    plan : Plan
        The plan (its cooling).
    lang : str
        Language (``en`` or ``zh``).

    Returns
    -------
    str
        The note.
    """
    return tr(
        "note.density",
        lang,
        kw=fmt.number(plan.cooling.max_rack_kw, 1),
        limit=f"{plan.cooling.cooling_limit_kw_per_rack:g}",
    )
