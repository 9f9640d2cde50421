"""A strict reader of nccl-tests output (``all_reduce_perf``, ``all_gather_perf``,
``reduce_scatter_perf``, ``alltoall_perf``, ``sendrecv_perf``, ``broadcast_perf``; rccl-tests
prints the same).

One file may hold several runs. A run is the standard header (``# nThread ... nGpus ...``), the
rank lines (``#  Rank  3 Group  0 Pid 1234 on host-a device  3 [0x1b] NVIDIA H100``), the
per-size table with its out-of-place and in-place columns, and the closing
``# Avg bus bandwidth`` line. Outside a run any text is allowed (the command line, launcher
messages); inside a run only what nccl-tests and NCCL print, so a truncated file, another
tool's output or a table whose units were changed is refused with the line and the reason.

Every row is checked against itself: ``algbw = size / time`` and ``busbw = algbw x factor``,
with the nccl-tests factors (all-reduce ``2(n-1)/n``; all-gather, reduce-scatter, all-to-all
``(n-1)/n``; broadcast and send/receive 1). A row that reports wrong results (``#wrong`` > 0) is
refused: its bandwidth is not a measurement.

References
----------
NVIDIA nccl-tests, ``README.md`` and ``doc/PERFORMANCE.md`` (the output format, algbw and busbw).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from planner.fabric import collectives
from planner.i18n.message import Message, msg
from planner.measure.text import Reader, Source, refuse, split_row

TOOLS: dict[str, str] = {
    "all_reduce_perf": "all_reduce",
    "all_gather_perf": "all_gather",
    "reduce_scatter_perf": "reduce_scatter",
    "alltoall_perf": "all_to_all",
    "sendrecv_perf": "sendrecv",
    "broadcast_perf": "broadcast",
}
"""The nccl-tests tools this reader takes, and the collective each measures."""

_TOOL = re.compile(
    r"(?<![a-z])((?:all_reduce|all_gather|reduce_scatter|alltoallv?|sendrecv|broadcast|reduce|gather|scatter|"
    r"hypercube)_perf)"
)
_NTHREAD = re.compile(r"^#\s*nThread\s+\d+\s+nGpus\s+\d+\s+minBytes\s+\d+\s+maxBytes\s+\d+")
_STARTING = re.compile(r"^#\s*Collective test starting:\s*(\S+)")
_RANK = re.compile(
    r"^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s*(.*)$"
)
_COLUMNS = re.compile(r"^#\s*size\s+count\s+type\b")
_UNITS = re.compile(r"^#\s*\(B\)")
_AVG = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*(\S+)")
_KNOWN_IN_RUN = (
    re.compile(r"^#\s*$"),
    re.compile(r"^#\s*nccl-tests version\b"),
    re.compile(r"^#\s*Using devices\b"),
    re.compile(r"^#\s*out-of-place\s+in-place\s*$"),
    re.compile(r"^#\s*Out of bounds values\s*:"),
    re.compile(r"^#\s*Errors with asterisks\b"),
    re.compile(r"^NCCL version\s+\S+"),
    re.compile(r"^rccl?-tests: Version\b"),
    re.compile(r"^\S+:\d+:\d+ \[\d+\] NCCL (INFO|WARN|TRACE)\b"),
)
"""Lines nccl-tests (and NCCL with NCCL_DEBUG) print inside a run that carry no figure."""

_IN_SWITCH = (
    ("sharp", re.compile(r"NCCL INFO .*(Connected CollNet|CollNet channels|via COLLNET)", re.IGNORECASE)),
    ("nvls", re.compile(r"NCCL INFO .*(NVLS comm\b|Connected NVLS|NVLS multicast support is available)")),
)
"""NCCL_DEBUG=INFO lines that say a run reduced in the switches: NVLink SHARP (NVLS: the NVLS
communicator, its connected tree, multicast available) or SHARP in the network switches (NCCL's
CollNet). A line saying NVLS is *not* available does not match."""


def in_switch_of(text: str) -> str | None:
    """``"sharp"``, ``"nvls"`` or ``None``: what an NCCL INFO line says about in-switch reduction.

    Parameters
    ----------
    text : str
        One line of an nccl-tests output.

    Returns
    -------
    str or None
        ``"sharp"``, ``"nvls"``, or ``None`` when the line says neither.

    Examples
    --------
    >>> in_switch_of("node1:2:2 [0] NCCL INFO NVLS multicast support is available on dev 0")
    'nvls'
    >>> in_switch_of("node1:2:2 [0] NCCL INFO NVLS multicast support is not available on dev 0") is None
    True
    """
    return next((mode for mode, pattern in _IN_SWITCH if pattern.search(text)), None)


_LEADING = ("size", "count", "type", "redop", "root")
_RESULT = ("time", "algbw", "busbw")
_WRONG = ("#wrong", "error")
_UNITS_EXPECTED = {"time": "(us)", "algbw": "(GB/s)", "busbw": "(GB/s)"}


@dataclass(frozen=True)
class Rank:
    """One rank line: which host and device ran rank ``rank``."""

    rank: int
    host: str
    device: int
    gpu_name: str


@dataclass(frozen=True)
class Row:
    """One message size of a run (out-of-place figures; in-place where printed)."""

    size_bytes: int
    time_us: float
    algbw_gbyte_per_s: float
    busbw_gbyte_per_s: float
    in_place_busbw_gbyte_per_s: float | None
    line: int


@dataclass(frozen=True)
class Run:
    """One nccl-tests run: the collective, the ranks and their hosts, and the per-size table."""

    file: str
    line: int
    """Line of the run's first header line [1-based]."""
    tool: str
    collective: str
    """``all_reduce``, ``all_gather``, ``reduce_scatter``, ``all_to_all``, ``sendrecv`` or
    ``broadcast``."""
    gpus: int
    """Ranks in the run [count] (the rank lines, or inferred from busbw / algbw without them)."""
    ranks: tuple[Rank, ...]
    rows: tuple[Row, ...]
    in_switch: str | None = None
    """``"nvls"`` or ``"sharp"`` when the file's NCCL_DEBUG=INFO lines say the run reduced in the
    switches (:func:`in_switch_of`; SHARP wins over NVLS), else ``None`` (not said)."""

    @property
    def hosts(self) -> tuple[str, ...]:
        """Hosts in rank order, each once (empty without rank lines)."""
        return tuple(dict.fromkeys(r.host for r in self.ranks))

    @property
    def gpus_per_host(self) -> int:
        """Most ranks on one host [count] (all ranks when the hosts are unknown)."""
        if not self.ranks:
            return self.gpus
        return max(sum(1 for r in self.ranks if r.host == h) for h in self.hosts)

    def busbw_at(self, size_bytes: int) -> float | None:
        """Out-of-place busbw at ``size_bytes`` [GB/s], or ``None`` when the run did not measure it."""
        for row in self.rows:
            if row.size_bytes == size_bytes:
                return row.busbw_gbyte_per_s
        return None


def busbw_factor(*, collective: str, gpus: int) -> float:
    """nccl-tests factor busbw / algbw [-]: the collective model's
    (:func:`planner.fabric.collectives.busbw_factor`), and 1 for send/receive.

    Parameters
    ----------
    collective : str
        The collective, or ``sendrecv``.
    gpus : int
        GPUs of the run [count].

    Returns
    -------
    float
        busbw / algbw [dimensionless].

    Examples
    --------
    >>> busbw_factor(collective="all_reduce", gpus=16), busbw_factor(collective="sendrecv", gpus=8)
    (1.875, 1.0)
    """
    if collective == "sendrecv":
        return 1.0
    return collectives.busbw_factor(collective=collective, gpus=gpus)  # type: ignore[arg-type]  # TOOLS


@dataclass
class _Open:
    """A run being read."""

    line: int
    tool: str | None
    ranks: list[Rank]
    columns: tuple[str, ...] | None = None
    rows: list[Row] | None = None
    in_switch: str | None = None

    def note(self, text: str) -> None:
        """Keep what an NCCL INFO line says about in-switch reduction (SHARP over NVLS)."""
        said = in_switch_of(text)
        if said is not None and self.in_switch != "sharp":
            self.in_switch = said


def parse_nccl_tests(src: Source) -> tuple[Run, ...]:
    """The runs of an already-read file (see :func:`read_nccl_tests`).

    Parameters
    ----------
    src : Source
        The file's name, lines and hash (:func:`planner.measure.text.read_lines`).

    Returns
    -------
    tuple of Run
        The runs, in file order.
    """
    runs: list[Run] = []
    current: _Open | None = None
    tool_hint = _tool_in(PurePath(src.name).name)
    pending_tool: str | None = None
    pending_switch: str | None = None  # said by INFO lines before the run's header
    for number, raw in enumerate(src.lines, start=1):
        text = raw.strip()
        if current is None:
            started = _STARTING.match(text)
            if started:
                pending_tool = started.group(1)
            elif _NTHREAD.match(text) or _COLUMNS.match(text):
                current = _Open(
                    line=number, tool=pending_tool or tool_hint, ranks=[], in_switch=pending_switch
                )
                pending_tool = pending_switch = None
                if _COLUMNS.match(text):
                    current.columns = _columns(src.name, number, text)
                continue
            else:
                tool_hint = _tool_in(text) or tool_hint
                said = in_switch_of(text)
                pending_switch = pending_switch if pending_switch == "sharp" else said or pending_switch
            continue
        if _AVG.match(text):
            runs.append(_close(src.name, number, current))
            current = None
            continue
        _read_line(src.name, number, text, current)
    if current is not None:
        raise refuse(
            src.name,
            len(src.lines),
            msg(
                "the run that starts at line {start} ends without '# Avg bus bandwidth' (truncated file?)",
                start=current.line,
            ),
        )
    if not runs:
        raise refuse(
            src.name,
            1,
            msg(
                "no nccl-tests run found: expected a '# nThread ... nGpus ...' header and a "
                "'# size count type ...' table (is this another tool's output?)"
            ),
        )
    return tuple(runs)


def _tool_in(text: str) -> str | None:
    match = _TOOL.search(text)
    return match.group(1) if match else None


def _read_line(name: str, number: int, text: str, run: _Open) -> None:
    """One line inside a run: a rank, the table's header, units or a row, or a known line."""
    if not text:
        return
    rank = _RANK.match(text)
    if rank:
        if run.columns is not None:
            raise refuse(name, number, msg("a rank line after the table started"))
        run.ranks.append(Rank(int(rank.group(1)), rank.group(2), int(rank.group(3)), rank.group(5).strip()))
        return
    if _COLUMNS.match(text):
        if run.rows:
            raise refuse(name, number, msg("a second table header inside one run"))
        run.columns = _columns(name, number, text)
        return
    if _UNITS.match(text):
        _check_units(name, number, text, run.columns)
        return
    if text[0].isdigit():
        if run.columns is None:
            raise refuse(name, number, msg("a result row before the '# size count type ...' header"))
        if run.rows is None:
            run.rows = []
        run.rows.append(_row(name, number, text, run.columns))
        return
    started = _STARTING.match(text)
    if started:
        run.tool = started.group(1)
        return
    if any(pattern.match(text) for pattern in _KNOWN_IN_RUN):
        run.note(text)
        return
    raise refuse(name, number, msg("not a line nccl-tests prints inside a run: {text!r}", text=text[:60]))


def _columns(name: str, number: int, text: str) -> tuple[str, ...]:
    """The table's column names; refused when they are not the nccl-tests columns."""
    names = tuple(text.lstrip("#").split())
    lead = [c for c in names if c in _LEADING]
    rest = names[len(lead) :]
    if tuple(lead) != tuple(c for c in _LEADING if c in lead) or lead[:3] != ["size", "count", "type"]:
        raise refuse(name, number, msg("unexpected table columns: {columns}", columns=" ".join(names)))
    blocks = [rest[i : i + 4] for i in range(0, len(rest), 4)]
    ok = 1 <= len(blocks) <= 2 and all(
        tuple(b[:3]) == _RESULT and len(b) == 4 and b[3] in _WRONG for b in blocks
    )
    if not ok:
        raise refuse(
            name,
            number,
            msg(
                "unexpected table columns: {columns} (nccl-tests prints time algbw busbw #wrong, "
                "out-of-place then in-place)",
                columns=" ".join(names),
            ),
        )
    return names


def _check_units(name: str, number: int, text: str, columns: tuple[str, ...] | None) -> None:
    """The units line must be the one nccl-tests prints: (B) (elements) (us) (GB/s) (GB/s)."""
    units = list(text.lstrip("#").split())
    if columns is None:
        raise refuse(name, number, msg("a units line before the '# size count type ...' header"))
    result_columns = [c for c in columns if c in _UNITS_EXPECTED]
    expected = ["(B)", "(elements)", *(_UNITS_EXPECTED[c] for c in result_columns)]
    for index, (got, want) in enumerate(zip(units, expected, strict=False)):
        if got != want:
            column = (["size", "count", *result_columns])[index]
            raise refuse(
                name,
                number,
                msg(
                    "column {column} is in {got} where nccl-tests prints {want} (units changed?)",
                    column=column,
                    got=got,
                    want=want,
                ),
            )
    if len(units) != len(expected):
        raise refuse(
            name,
            number,
            msg("units line has {got} units, expected {want}", got=len(units), want=len(expected)),
        )


def _number(name: str, number: int, column: str, token: str, *, integer: bool = False) -> float:
    try:
        value = float(int(token)) if integer else float(token)
    except ValueError:
        raise refuse(
            name, number, msg("column {column}: {token!r} is not a number", column=column, token=token[:30])
        ) from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise refuse(
            name, number, msg("column {column}: {token!r} is out of range", column=column, token=token[:30])
        )
    return value


def _row(name: str, number: int, text: str, columns: tuple[str, ...]) -> Row:
    tokens = split_row(name, number, text, columns)
    lead = len([c for c in columns if c in _LEADING])
    size = int(_number(name, number, "size", tokens[0], integer=True))
    blocks = [tokens[i : i + 4] for i in range(lead, len(tokens), 4)]
    out = blocks[0]
    time_us = _number(name, number, "time", out[0])
    algbw = _number(name, number, "algbw", out[1])
    busbw = _number(name, number, "busbw", out[2])
    _check_wrong(name, number, out[3])
    if time_us <= 0:
        raise refuse(name, number, msg("column time: {value} is not a positive time", value=out[0]))
    expected = size / (time_us * 1e3)
    if abs(algbw - expected) > 0.011 + 0.03 * expected:
        raise refuse(
            name,
            number,
            msg(
                "algbw {algbw} GB/s disagrees with size / time = {expected:.2f} GB/s (units changed?)",
                algbw=out[1],
                expected=expected,
            ),
        )
    in_place = None
    if len(blocks) == 2 and blocks[1][2] != "N/A":
        in_place = _number(name, number, "busbw", blocks[1][2])
        _check_wrong(name, number, blocks[1][3])
    return Row(size, time_us, algbw, busbw, in_place, number)


def _check_wrong(name: str, number: int, token: str) -> None:
    if token == "N/A":
        return
    wrong = _number(name, number, "#wrong", token)
    if wrong > 0:
        raise refuse(
            name,
            number,
            msg(
                "#wrong is {token}: the run reported wrong results, so its bandwidth is no measurement",
                token=token,
            ),
        )


def _close(name: str, number: int, run: _Open) -> Run:
    """A finished run: its collective named, its rank count known and its factor checked."""
    if not run.rows:
        raise refuse(
            name, number, msg("the run that starts at line {start} has no result rows", start=run.line)
        )
    if run.tool is None:
        raise refuse(
            name,
            run.line,
            msg(
                "cannot tell which nccl-tests tool printed this run: no 'Collective test starting' "
                "line, no *_perf command before it and none in the file name"
            ),
        )
    if run.tool not in TOOLS:
        raise refuse(
            name,
            run.line,
            msg("{tool} is not read (allowed: {allowed})", tool=run.tool, allowed=", ".join(TOOLS)),
        )
    collective = TOOLS[run.tool]
    ranks = tuple(run.ranks)
    if sorted(r.rank for r in ranks) != list(range(len(ranks))):
        raise refuse(
            name, run.line, msg("rank lines are not the ranks 0 to {last}, each once", last=len(ranks) - 1)
        )
    gpus = len(ranks) if ranks else _infer_gpus(name, collective, run.rows)
    _check_factor(name, collective, gpus, run.rows, inferred=not ranks)
    return Run(name, run.line, run.tool, collective, gpus, ranks, tuple(run.rows), run.in_switch)


def _bandwidth_rows(rows: Sequence[Row]) -> list[Row]:
    """Rows with enough digits to check a ratio (algbw of at least 1 GB/s)."""
    return [r for r in rows if r.algbw_gbyte_per_s >= 1.0]


def _infer_gpus(name: str, collective: str, rows: Sequence[Row]) -> int:
    """The rank count from busbw / algbw when the run has no rank lines."""
    usable = _bandwidth_rows(rows)
    if collective in ("broadcast", "sendrecv") or not usable:
        raise refuse(
            name,
            rows[0].line,
            msg("no rank lines, and busbw / algbw cannot tell how many GPUs ran; keep the '# Rank' lines"),
        )
    ratio = max(usable, key=lambda r: r.algbw_gbyte_per_s)
    f = ratio.busbw_gbyte_per_s / ratio.algbw_gbyte_per_s
    ceiling = 2.0 if collective == "all_reduce" else 1.0
    if not 0 < f < ceiling:
        raise refuse(name, ratio.line, _factor_problem(collective, f))
    return max(2, round(ceiling / (ceiling - f)))


def _factor_problem(collective: str, ratio: float) -> Message:
    return msg(
        "busbw / algbw = {ratio:.3f} is no {collective} factor of nccl-tests (units changed?)",
        ratio=ratio,
        collective=collective,
    )


def _check_factor(name: str, collective: str, gpus: int, rows: Sequence[Row], *, inferred: bool) -> None:
    factor = busbw_factor(collective=collective, gpus=gpus)
    for row in _bandwidth_rows(rows):
        expected = row.algbw_gbyte_per_s * factor
        if abs(row.busbw_gbyte_per_s - expected) > 0.011 + 0.02 * expected:
            problem = msg(
                "busbw {busbw} GB/s is not algbw x {factor:.3f} = {expected:.2f} GB/s for {collective} on "
                "{gpus} GPUs (units changed, or rank lines missing?)",
                busbw=row.busbw_gbyte_per_s,
                factor=factor,
                expected=expected,
                collective=collective,
                gpus=gpus,
            )
            raise refuse(name, row.line, problem)


read_nccl_tests = Reader(parse_nccl_tests)
"""Every run in an nccl-tests output file (a path, or an upload's bytes with its ``name``), in file
order."""
