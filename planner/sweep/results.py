"""A sweep's Parquet file read back for people: its grid fields, its key figures by design and GPU
count, and only the figures the reader's role may see.

A file written by :func:`planner.sweep.run_sweep` has the columns ``point``, the grid's fields in
the grid's order, ``error``, then the flattened ``plan --format json`` figures. Only the columns
shown are read (Parquet is columnar), so a million-row file loads in seconds. The file's footer
is read first: more than :data:`MAX_SWEEP_ROWS` rows, :data:`MAX_SWEEP_COLUMNS` columns or
:data:`MAX_SWEEP_DECODED_BYTES` once decoded is refused before any column is decoded (a small
upload can expand a thousandfold).

Money is internal: a sweep is planned on the catalog's unit costs, so the ``cost.*`` figures and
``price_overrides_usd.*`` grid fields are dropped for a role without internal-cost access
(``planner/access.py``) before anything reaches a page or a download.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.errors import InputError, shorten
from planner.i18n.message import msg
from planner.sweep.evaluate import ERROR, POINT

if TYPE_CHECKING:
    import pandas as pd

SWEEP_DIR_ENV = "PLANNER_SWEEP_DIR"
"""Folder of sweep outputs the app offers to open (a volume the CLI writes to); none when unset."""

MAX_SWEEP_ROWS = 1_000_000
"""Most points a sweep file may hold to be opened [rows]: a ``planner sweep`` grid of 8 designs x
128 sizes x 1000 other points; more is refused from the file's footer, before any data is read."""
MAX_SWEEP_COLUMNS = 5_000
"""Most columns a sweep file may declare [columns] (a plan's flattened figures are about 150)."""
MAX_SWEEP_DECODED_BYTES = 256 * 1024**2
"""Largest decoded size of the columns a page reads [bytes]: rows x columns x 8 bytes, what the
frame takes in memory (a compressed 1.6 MB file of 60 M constant rows decodes to gigabytes)."""
DECODED_BYTES_PER_CELL = 8
"""Bytes one cell takes once decoded (a float64 or a pointer to a shared string)."""

KEY_METRICS: tuple[str, ...] = (
    "bandwidth.allreduce_busbw_gbyte_per_s",
    "latency.gpu_to_gpu_ns",
    "power.facility_kw",
    "cost.capex_usd",
    "cost.tco_usd",
    "cost.usd_per_gpu_hour",
)
"""Figures the Scaling page charts and tabulates, in this order, when the file has them."""

INTERNAL_PREFIXES: tuple[str, ...] = ("cost.", "price_overrides_usd.")
"""Columns that carry internal costs: the plan's cost figures and unit-cost grid fields."""

DESIGN = "design"
GPUS = "gpus"
"""The plan's design id and GPU count (after rounding up to whole servers): the chart's colour
and x axis."""


@dataclass(frozen=True)
class SweepFile:
    """A sweep as read for display."""

    name: str
    fields: tuple[str, ...]
    """The grid's fields (the columns between ``point`` and ``error``) that the reader may see."""
    metrics: tuple[str, ...]
    """The :data:`KEY_METRICS` the file has and the reader may see."""
    frame: pd.DataFrame
    """``point``, the fields, ``design``, ``gpus``, ``error`` and the metrics; one row per point."""
    hidden: int
    """Columns left out because they carry internal costs [count]."""

    @property
    def refused(self) -> int:
        """Points the engine refused (an ``error`` text instead of figures) [count]."""
        return int((self.frame[ERROR].fillna("") != "").sum())


def is_internal(column: str) -> bool:
    """Whether ``column`` carries an internal cost.

    Parameters
    ----------
    column : str
        A sweep column's dotted name.

    Returns
    -------
    bool
        ``True`` when it starts with one of :data:`INTERNAL_PREFIXES` (costs [USD] and price
        overrides [USD]).

    >>> is_internal("cost.capex_usd"), is_internal("price_overrides_usd.h100_sxm"), is_internal("gpus")
    (True, True, False)
    """
    return column.startswith(INTERNAL_PREFIXES)


def grid_fields(columns: Sequence[str]) -> tuple[str, ...]:
    """The grid's fields: the columns between ``point`` and ``error`` (how rows are written).

    Parameters
    ----------
    columns : Sequence[str]
        The file's columns in order.

    Returns
    -------
    tuple[str, ...]
        The grid's dotted field names; empty when ``point`` and ``error`` are not both there in
        that order.

    >>> grid_fields(["point", "gpus", "design_id", "error", "design", "cost.capex_usd"])
    ('gpus', 'design_id')
    """
    names = list(columns)
    if POINT not in names or ERROR not in names or names.index(POINT) > names.index(ERROR):
        return ()
    return tuple(names[names.index(POINT) + 1 : names.index(ERROR)])


def _not_a_sweep(name: str, reason: str) -> InputError:
    return InputError(
        msg(
            "{file}: not a sweep written by planner sweep --grid ({reason})",
            file=shorten(name),
            reason=shorten(reason),
        )
    )


def read_sweep(source: bytes | Path, *, name: str, internal_cost: bool) -> SweepFile:
    """Read the columns a page shows from a sweep's Parquet file.

    Parameters
    ----------
    source
        The file's bytes (an upload) or its path.
    name
        How messages name the file.
    internal_cost
        Whether the reader may see internal costs; without it, :func:`is_internal` columns are
        never read.

    Returns
    -------
    SweepFile
        The grid's visible fields, the key metrics (units in their names), the table of one row
        per point, and the number of hidden columns [count].

    Raises
    ------
    InputError
        One line naming the file: not Parquet, not a sweep (no ``point``/``error`` columns, no
        plan figures), or over the size limits.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    where: Any = pa.BufferReader(source) if isinstance(source, bytes) else source
    try:
        metadata = pq.read_metadata(where)  # the footer only: rows and columns before any data
        columns = metadata.schema.to_arrow_schema().names
    except (pa.ArrowException, OSError) as exc:
        raise _not_a_sweep(name, f"{type(exc).__name__}: {exc}") from None
    _check_size(name, rows=metadata.num_rows, columns=len(columns))
    fields = grid_fields(columns)
    if not fields or DESIGN not in columns or GPUS not in columns:
        raise _not_a_sweep(name, f"columns {', '.join(columns[:6])}")
    allowed = [c for c in columns if internal_cost or not is_internal(c)]
    shown_fields = tuple(f for f in fields if f in allowed and f not in {DESIGN, GPUS})
    metrics = tuple(m for m in KEY_METRICS if m in allowed)
    wanted = list(dict.fromkeys([POINT, *shown_fields, DESIGN, GPUS, ERROR, *metrics]))
    _check_size(name, rows=metadata.num_rows, columns=len(columns), read=len(wanted))
    try:
        table = pq.read_table(
            pa.BufferReader(source) if isinstance(source, bytes) else source, columns=wanted
        )
    except (pa.ArrowException, OSError) as exc:
        raise _not_a_sweep(name, f"{type(exc).__name__}: {exc}") from None
    return SweepFile(
        name=name,
        fields=shown_fields,
        metrics=metrics,
        frame=table.to_pandas(),
        hidden=len(columns) - len(allowed),
    )


def _check_size(name: str, *, rows: int, columns: int, read: int = 0) -> None:
    """Refuse, from the footer's counts, a file whose rows, columns or decoded size are over the
    limits (:data:`MAX_SWEEP_ROWS`, :data:`MAX_SWEEP_COLUMNS`, :data:`MAX_SWEEP_DECODED_BYTES`)."""
    decoded = rows * read * DECODED_BYTES_PER_CELL
    for count, limit, what in (
        (rows, MAX_SWEEP_ROWS, msg("rows")),
        (columns, MAX_SWEEP_COLUMNS, msg("columns")),
        (decoded // 1024**2, MAX_SWEEP_DECODED_BYTES // 1024**2, msg("MB once decoded")),
    ):
        if count > limit:
            raise InputError(
                msg(
                    "{file}: {count} {what}, more than the {limit} a sweep file may have",
                    file=shorten(name),
                    count=f"{count:,}",
                    what=what,
                    limit=f"{limit:,}",
                )
            )


def by_design_and_size(sweep: SweepFile, metric: str) -> pd.DataFrame:
    """``metric`` per design and GPU count over the sweep's other fields.

    Parameters
    ----------
    sweep : SweepFile
        A sweep as read (:func:`read_sweep`).
    metric : str
        One of its metric columns (unit in its name).

    Returns
    -------
    pandas.DataFrame
        ``design``, ``gpus`` [count], ``median``, ``min``, ``max`` (in the metric's unit) and
        ``points`` [count]; refused points left out; sorted by design, then GPU count.
    """
    frame = sweep.frame
    ok = frame[(frame[ERROR].fillna("") == "") & frame[metric].notna()]
    grouped = ok.groupby([DESIGN, GPUS], sort=True)[metric]
    out = grouped.agg(["median", "min", "max", "count"]).reset_index()
    return out.rename(columns={"count": "points"})


def sweep_directory(env: Mapping[str, str] | None = None) -> Path | None:
    """The folder named by ``PLANNER_SWEEP_DIR``, if set and a folder.

    Parameters
    ----------
    env : Mapping[str, str] or None
        The environment; defaults to ``os.environ``.

    Returns
    -------
    Path or None
        The folder (``~`` expanded), or ``None`` when unset, empty or not a folder.
    """
    value = (os.environ if env is None else env).get(SWEEP_DIR_ENV, "").strip()
    folder = Path(value).expanduser() if value else None
    return folder if folder is not None and folder.is_dir() else None


def recent_sweeps(folder: Path | None, *, limit: int = 20) -> list[Path]:
    """The newest ``*.parquet`` files in ``folder`` and its subfolders, newest first.

    Parameters
    ----------
    folder : Path or None
        Where sweeps are written (:func:`sweep_directory`); ``None`` gives none.
    limit : int
        Most files returned [count].

    Returns
    -------
    list[Path]
        Files by modification time, newest first; an unfinished sweep's parts (in a hidden
        folder) left out.
    """
    if folder is None:
        return []
    # an unfinished sweep's parts lie in a hidden folder (``.NAME.parts-*``): not results
    files = [
        p
        for p in folder.rglob("*.parquet")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    ]
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)[:limit]
