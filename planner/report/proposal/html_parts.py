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
    """A translated sentence whose ``\\0`` placeholder becomes ``bold`` in bold."""
    before, _, after = sentence.partition("\0")
    return [before, Strong(bold), after]


def density_note(plan: Plan, lang: str) -> str:
    return tr(
        "note.density",
        lang,
        kw=fmt.number(plan.cooling.max_rack_kw, 1),
        limit=f"{plan.cooling.cooling_limit_kw_per_rack:g}",
    )
