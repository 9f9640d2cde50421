"""A grid sweep on ``dask.distributed``, written to one Parquet file.

The engine's per-plan cost (about 3 ms) stays the unit of work; a task plans a batch of
consecutive points (:data:`BATCH_POINTS` by default), so the scheduler's overhead of roughly
1 ms per task is a fraction of a percent of the task. Tasks are submitted a few per worker at a
time, so a grid of 10^9 points never exists as 10^6 futures, and the rows of each finished
batch are written to disk at once, so memory stays that of a few batches.

The figures of different points can have different keys (a three-tier fabric has core ports,
a design without optics has no optics cost line), so each batch is first written as its own
part file, and the parts are then joined under the union of their schemas, in point order, into
``out`` (a column a batch lacks is null there). The file appears only when it is complete.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from planner.errors import InputError, extra_needed
from planner.i18n.message import msg
from planner.sweep.evaluate import ERROR, SweepJob, evaluate_batch

BATCH_POINTS = 500
"""Points per task: ~1.5-2 s of planning, against ~1 ms of scheduler overhead per task."""

TASKS_PER_WORKER = 4
"""Tasks kept in flight per worker: enough to hide the round trip, few enough to bound memory."""

ROW_GROUP_ROWS = 65_536
"""Rows per Parquet row group of the output (readers such as DuckDB scan a row group at a time)."""


@dataclass(frozen=True)
class SweepResult:
    """What a sweep did: rows written, of which refused by the engine, workers, seconds."""

    points: int
    errors: int
    workers: int
    seconds: float
    out: Path

    @property
    def plans_per_s(self) -> float:
        """Throughput [plans/s] over the wall time, start-up and the final join included."""
        return self.points / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]
"""``progress(done, total)`` [points], called after each batch."""


class ProgressBar:
    """A text progress bar on ``stream`` (stderr): redrawn in place on a terminal, and one line
    per tenth of the way otherwise (a log file then holds ten lines, not thousands)."""

    def __init__(self, stream: IO[str] | None = None, *, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.started = time.perf_counter()
        self.last_draw = 0.0
        self.last_tenth = -1
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        tenth = 10 * done // max(total, 1)
        final = done >= total
        if self.tty and not final and now - self.last_draw < 0.2:
            return
        if not self.tty and tenth == self.last_tenth and not final:
            return
        self.last_draw, self.last_tenth = now, tenth
        filled = self.width * done // max(total, 1)
        rate = done / max(now - self.started, 1e-9)
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {done:,}/{total:,} points, {rate:,.0f} plans/s"
        self.stream.write(f"\r{line}" if self.tty else f"{line}\n")
        if self.tty and final:
            self.stream.write("\n")
        self.stream.flush()


def batches(total: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive batches covering ``range(total)``.

    Parameters
    ----------
    total : int
        Points [count].
    size : int
        Points per batch [count], above zero.

    Returns
    -------
    Iterator[tuple[int, int]]
        Start and one-past-the-end [0-based index] of each batch; the last may be shorter.

    >>> list(batches(5, 2))
    [(0, 2), (2, 4), (4, 5)]
    """
    for start in range(0, total, size):
        yield start, min(start + size, total)


def _client(*, workers: int | None, scheduler: str | None) -> tuple[Any, Any]:
    """A client of the scheduler at ``scheduler`` (cluster ``None``), or of a new local cluster
    of worker processes (returned too: closing a client does not close the cluster it was given)."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise InputError(
                msg("--scheduler: cannot reach {address} ({reason})", address=scheduler, reason=str(exc))
            ) from None
    # one thread per process: planning is pure Python, so threads would share one GIL
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # a free port: 8787 may be taken by another cluster
    )
    return Client(cluster), cluster  # type: ignore[no-untyped-call]


@dataclass(frozen=True)
class Part:
    """One batch as a worker returns it: its rows encoded as a Parquet file, and their counts.

    The worker encodes, so the client only writes bytes to disk: decoding hundreds of rows of
    150 figures each and building the table in the client took CPU from the workers on a
    machine whose cores they all use (a sixth of a core at two workers on two cores).
    """

    parquet: bytes
    rows: int
    errors: int


def encode_rows(rows: list[dict[str, Any]]) -> bytes:
    """``rows`` as the bytes of one Parquet file, columns in first-seen key order.

    Every key of every row becomes a column (``from_pylist`` would keep the first row's only);
    a row without a key is null there.

    Parameters
    ----------
    rows : list[dict[str, Any]]
        Rows of :func:`planner.sweep.evaluate.point_row` (units in the column names).

    Returns
    -------
    bytes
        The Parquet file [bytes].
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = list(dict.fromkeys(key for row in rows for key in row))
    table = pa.Table.from_pydict({name: [row.get(name) for row in rows] for name in names})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue())


def evaluate_part(job: SweepJob, start: int, stop: int) -> Part:
    """The task a worker runs: points ``start`` to ``stop - 1`` planned and encoded.

    Parameters
    ----------
    job, start, stop
        The batch, as :func:`planner.sweep.evaluate.evaluate_batch` takes it: the job and the
        points ``start`` to ``stop - 1`` [0-based indices].

    Returns
    -------
    Part
        The rows as Parquet bytes, the row count [count] and the refused points [count].
    """
    rows = evaluate_batch(job, start, stop)
    return Part(parquet=encode_rows(rows), rows=len(rows), errors=sum(1 for r in rows if r[ERROR]))


def _write_part(part: Part, path: Path) -> Any:
    """``part`` written to ``path``; its schema (read from the file's footer) for the join."""
    import pyarrow.parquet as pq

    path.write_bytes(part.parquet)
    return pq.read_schema(path)


def _join_parts(parts: list[Path], schemas: list[Any], out: Path) -> None:
    """Parts in order into ``out`` under the union of their schemas (missing columns null)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.unify_schemas(schemas, promote_options="permissive")
    tmp = out.with_name(f".{out.name}.tmp")
    pending: list[Any] = []
    rows = 0

    def conform(table: Any) -> Any:
        for field in schema:
            if field.name not in table.column_names:
                table = table.append_column(field.name, pa.nulls(table.num_rows, field.type))
        return table.select(schema.names).cast(schema)

    with pq.ParquetWriter(tmp, schema) as writer:
        for part in parts:
            table = conform(pq.read_table(part))
            pending.append(table)
            rows += table.num_rows
            if rows >= ROW_GROUP_ROWS:
                writer.write_table(pa.concat_tables(pending), row_group_size=ROW_GROUP_ROWS)
                pending, rows = [], 0
        if pending:
            writer.write_table(pa.concat_tables(pending), row_group_size=ROW_GROUP_ROWS)
    os.replace(tmp, out)


def run_sweep(
    *,
    job: SweepJob,
    out: Path,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_points: int = BATCH_POINTS,
    progress: Progress | None = None,
) -> SweepResult:
    """Plan every point of ``job.grid`` on Dask and write one Parquet row per point to ``out``.

    Parameters
    ----------
    job
        Grid, base scenario and catalog (sent once to every worker).
    out
        The Parquet file; written only when complete (a temporary file is renamed over it).
    workers
        Worker processes of the local cluster (default: one per CPU); ignored with ``scheduler``.
    scheduler
        Address of a running scheduler (``tcp://host:8786``); its workers need this package.
    batch_points
        Points per task [count].
    progress
        Called with ``(done, total)`` points after each batch.

    Returns
    -------
    SweepResult
        Points written and refused [count], workers [count], wall time [s] and the file
        (``InputError``: no scheduler there; ``MissingExtraError``: no ``sweep`` extra).
    """
    with extra_needed(extra="sweep", feature="planner sweep"):
        import pyarrow  # noqa: F401  (the parts are Parquet: fail before a cluster starts)
        from distributed import as_completed

    started = time.perf_counter()
    total = job.grid.count()
    out.parent.mkdir(parents=True, exist_ok=True)
    parts_dir = Path(tempfile.mkdtemp(prefix=f".{out.name}.parts-", dir=out.parent))
    client, cluster = _client(workers=workers, scheduler=scheduler)
    try:
        n_workers = max(len(client.scheduler_info(n_workers=-1)["workers"]), 1)
        shared = client.scatter(job, broadcast=True)
        todo = iter(batches(total, batch_points))
        order: dict[Any, int] = {}
        schemas: dict[int, Any] = {}
        done = errors = 0

        def submit() -> Any:
            span = next(todo, None)
            if span is None:
                return None
            future = client.submit(evaluate_part, shared, *span, pure=False)
            order[future] = span[0] // batch_points
            return future

        queue = as_completed([f for f in (submit() for _ in range(TASKS_PER_WORKER * n_workers)) if f])  # type: ignore[no-untyped-call]
        for future in queue:
            part = future.result()
            index = order.pop(future)
            schemas[index] = _write_part(part, parts_dir / f"{index:012d}.parquet")
            done += part.rows
            errors += part.errors
            future.release()
            nxt = submit()
            if nxt is not None:
                queue.add(nxt)  # type: ignore[no-untyped-call]
            if progress is not None:
                progress(done, total)
        indices = sorted(schemas)
        _join_parts([parts_dir / f"{i:012d}.parquet" for i in indices], [schemas[i] for i in indices], out)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        shutil.rmtree(parts_dir, ignore_errors=True)
    return SweepResult(
        points=done, errors=errors, workers=n_workers, seconds=time.perf_counter() - started, out=out
    )
