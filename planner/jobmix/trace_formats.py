"""Published GPU-cluster trace formats read as job streams, beside the product's own CSV.

A trace file is recognised by its header (the first line), never by its name:

* **product** (``arrival_s, gpus, duration_s[, priority]``): one job a row, as
  :data:`planner.jobmix.jobs.TRACE_COLUMNS` documents;
* **Helios** (``cluster_log.csv`` of the SenseTime Helios traces, Hu et al., SC '21: ``job_id, user,
  vc, gpu_num, cpu_num, node_num, state, submit_time, start_time, end_time, duration, queue``):
  GPU jobs only (``gpu_num > 0``), every final state; arrival = ``submit_time`` (``YYYY-MM-DD
  HH:MM:SS``) in seconds after the first GPU job's; run time = ``duration`` [s];
* **Alibaba PAI 2023** (``openb_pod_list_*.csv`` of ``alibaba/clusterdata``'s
  ``cluster-trace-gpu-v2023``, Weng et al., USENIX ATC '23: ``name, cpu_milli, memory_mib, num_gpu,
  gpu_milli, gpu_spec, qos, pod_phase, creation_time, deletion_time, scheduled_time``): pods with
  GPUs that were scheduled (``num_gpu >= 1`` and ``scheduled_time`` set); arrival =
  ``creation_time`` after the first such pod's; run time = ``deletion_time - scheduled_time`` [s]; a
  GPU-sharing pod (``gpu_milli < 1000``) holds one whole GPU, since the simulator places whole GPUs.

Every format gives :class:`~planner.jobmix.jobs.Job` rows at priority 0 (the published traces have
no priority). A bad value names the file, line and column in one line.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from planner.errors import InputError, shorten
from planner.i18n.message import msg

HELIOS_COLUMNS = ("job_id", "gpu_num", "submit_time", "duration")
"""Columns a Helios ``cluster_log.csv`` must have (others are ignored)."""
ALIBABA_2023_COLUMNS = ("name", "num_gpu", "gpu_milli", "creation_time", "deletion_time", "scheduled_time")
"""Columns an Alibaba 2023 ``openb_pod_list_*.csv`` must have (others are ignored)."""
_HELIOS_TIME = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class RawJob:
    """A job as a published trace gives it: an absolute arrival time [s] not yet shifted to 0."""

    arrival_s: float
    gpus: int
    duration_s: float
    line: int
    """Line of the file the job is on (for messages)."""


def trace_format(fieldnames: Iterable[str]) -> str | None:
    """The published format a CSV header names, or ``None``.

    Parameters
    ----------
    fieldnames : Iterable[str]
        The CSV's column names.

    Returns
    -------
    str or None
        ``"helios"``, ``"alibaba-2023"``, or ``None`` (not a published format).

    >>> trace_format(["job_id", "user", "vc", "gpu_num", "submit_time", "duration"])
    'helios'
    >>> trace_format(["arrival_s", "gpus", "duration_s"]) is None
    True
    """
    names = set(fieldnames)
    if names >= set(HELIOS_COLUMNS):
        return "helios"
    if names >= set(ALIBABA_2023_COLUMNS):
        return "alibaba-2023"
    return None


def row_error(label: str, line: int, column: str, raw: object, allowed: str) -> InputError:
    """The one-line error for a value a trace row may not hold.

    Parameters
    ----------
    label : str
        The file's name (shortened in the message).
    line : int
        Line of the file [count, from 1].
    column : str
        The column holding the value.
    raw : object
        The value as read (shown quoted and shortened).
    allowed : str
        The allowed range or form, e.g. ``"0 to 1e+09"``.

    Returns
    -------
    InputError
        ``"{file}: line {line}: {column}: {value} is not allowed (allowed: {allowed})"``, to raise.
    """
    return InputError(
        msg(
            "{file}: line {line}: {column}: {value} is not allowed (allowed: {allowed})",
            file=shorten(label),
            line=line,
            column=column,
            value=shorten(repr(raw)),
            allowed=allowed,
        )
    )


def _number(row: dict[str, str], column: str, *, label: str, line: int, low: float, high: float) -> float:
    raw = (row.get(column) or "").strip()
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not low <= value <= high:
        raise row_error(label, line, column, raw, f"{low:g} to {high:g}")
    return value


def _helios_row(row: dict[str, str], *, label: str, line: int) -> RawJob | None:
    gpus = _number(row, "gpu_num", label=label, line=line, low=0, high=1e6)
    if gpus == 0:
        return None
    if gpus != int(gpus):
        raise row_error(label, line, "gpu_num", row["gpu_num"], "a whole number")
    raw_time = (row.get("submit_time") or "").strip()
    try:
        submitted = datetime.strptime(raw_time, _HELIOS_TIME).replace(tzinfo=UTC).timestamp()
    except ValueError:
        raise row_error(label, line, "submit_time", raw_time, "YYYY-MM-DD HH:MM:SS") from None
    duration = _number(row, "duration", label=label, line=line, low=0, high=1e9)
    return RawJob(submitted, int(gpus), duration, line)


def _alibaba_row(row: dict[str, str], *, label: str, line: int) -> RawJob | None:
    gpus = _number(row, "num_gpu", label=label, line=line, low=0, high=1e6)
    if gpus == 0 or not (row.get("scheduled_time") or "").strip():
        return None
    if gpus != int(gpus):
        raise row_error(label, line, "num_gpu", row["num_gpu"], "a whole number")
    created = _number(row, "creation_time", label=label, line=line, low=0, high=1e10)
    scheduled = _number(row, "scheduled_time", label=label, line=line, low=created, high=1e10)
    deleted = _number(row, "deletion_time", label=label, line=line, low=scheduled, high=1e10)
    return RawJob(created, int(gpus), deleted - scheduled, line)


READERS: dict[str, Callable[..., RawJob | None]] = {"helios": _helios_row, "alibaba-2023": _alibaba_row}
"""Row reader of each published format: a job, or ``None`` for a row the format's filter drops."""


def read_published_rows(reader: csv.DictReader[str], *, fmt: str, label: str) -> list[RawJob]:
    """The jobs of a published trace's rows (header already read), in file order.

    Parameters
    ----------
    reader : csv.DictReader[str]
        The table, its header read.
    fmt : str
        The format, a key of :data:`READERS` (:func:`trace_format`).
    label : str
        The file's name, for messages.

    Returns
    -------
    list[RawJob]
        Jobs with their absolute arrival [s], GPUs [count], run time [s] and line; rows the
        format's filter drops (CPU-only, never scheduled) left out.

    Raises
    ------
    InputError
        A value out of range, named by line and column (:func:`row_error`).
    """
    read_row = READERS[fmt]
    jobs: list[RawJob] = []
    for line, row in enumerate(reader, start=2):
        job = read_row(row, label=label, line=line)
        if job is not None:
            jobs.append(job)
    return jobs
