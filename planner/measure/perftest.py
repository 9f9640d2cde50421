"""A strict reader of perftest output: ``ib_write_bw`` and ``ib_read_bw`` (bandwidth),
``ib_read_lat`` and ``ib_write_lat`` (latency).

A file holds one or more tests: the title (``RDMA_Write BW Test``), the settings block
(``Device : mlx5_0``, ``Link type : IB``, ...), the address lines, and the table whose header
names each column with its unit (``BW average[Gb/sec]``, ``t_typical[usec]``), closed by a line
of dashes. Bandwidth in ``Gb/sec`` or ``MB/sec`` (``--report_gbits`` or not) is read; any other
unit, a missing closing line (a truncated file) or a line perftest does not print is refused with
the line and the reason. perftest names no host: the file's name stands for it (one file per
host, ``host-a.txt``), and the device names the rail.

References
----------
linux-rdma/perftest, ``README`` (the tests and their output).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from planner.i18n.message import msg
from planner.measure.text import Reader, Source, refuse, split_row

TOOLS = {
    ("RDMA_Write", "BW"): "ib_write_bw",
    ("RDMA_Read", "BW"): "ib_read_bw",
    ("RDMA_Read", "Latency"): "ib_read_lat",
    ("RDMA_Write", "Latency"): "ib_write_lat",
}
"""(verb, kind) of the title line -> the perftest tool."""

_TITLE = re.compile(r"^(\S+)\s+(BW|Latency)\s+Test$")
_DEVICE = re.compile(r"\bDevice\s*:\s*(\S+)")
_LINK = re.compile(r"\bLink type\s*:\s*(\S+)")
_COLUMN = re.compile(r"(#bytes|#iterations)|\s*([^\[\]#]+?)\[([^\]]*)\]")
_KNOWN = (
    re.compile(r"^-{10,}$"),
    re.compile(r"^\*+$"),
    re.compile(r"^\*.*\*$"),
    re.compile(r"^(local|remote) address:"),
    re.compile(r"^GID:"),
    re.compile(r"^allocated mmap buffer\b"),
    re.compile(r"^Conflicting CPU frequency values detected\b"),
    re.compile(r"^(Warning|WARNING)\b"),
)
_BW_UNITS = {"Gb/sec": 1.0, "MB/sec": 8e-3}
"""Bandwidth units perftest prints and their factor to Gb/s (MB = 10^6 bytes in perftest)."""


@dataclass(frozen=True)
class PerftestResult:
    """One perftest test: the device (rail) and its figure per message size."""

    file: str
    line: int
    tool: str
    host: str
    """The file's name without its suffix (perftest prints no host name)."""
    device: str
    link_type: str
    sizes_bytes: tuple[int, ...]
    values: tuple[float, ...]
    """Average bandwidth [Gb/s] (``*_bw``) or typical latency [us] (``*_lat``) per size."""

    @property
    def is_bandwidth(self) -> bool:
        return self.tool.endswith("_bw")


@dataclass
class _Test:
    line: int
    tool: str
    device: str = ""
    link_type: str = ""
    columns: tuple[tuple[str, str], ...] | None = None
    rows: list[tuple[int, float]] | None = None
    closed: bool = False


def parse_perftest(src: Source) -> tuple[PerftestResult, ...]:
    """The tests of an already-read file (see :func:`read_perftest`).

    Parameters
    ----------
    src : Source
        The file's name, lines and hash (:func:`planner.measure.text.read_lines`).

    Returns
    -------
    tuple of PerftestResult
        The tests, in file order.
    """
    tests: list[_Test] = []
    current: _Test | None = None
    for number, raw in enumerate(src.lines, start=1):
        text = raw.strip()
        if not text:
            continue
        title = _TITLE.match(text)
        if title:
            key = (title.group(1), title.group(2))
            if key not in TOOLS:
                raise refuse(
                    src.name,
                    number,
                    msg(
                        "{title}: not read (allowed: {allowed})",
                        title=text,
                        allowed=", ".join(TOOLS.values()),
                    ),
                )
            current = _Test(line=number, tool=TOOLS[key])
            tests.append(current)
            continue
        if current is None:
            if any(p.match(text) for p in _KNOWN):
                continue
            raise refuse(
                src.name,
                number,
                msg("not perftest output: no '... BW Test' or '... Latency Test' title before this line"),
            )
        _read_line(src.name, number, text, current)
    if not tests:
        raise refuse(src.name, 1, msg("no perftest test found (is this another tool's output?)"))
    return tuple(_result(src.name, t, len(src.lines)) for t in tests)


def _read_line(name: str, number: int, text: str, test: _Test) -> None:
    if text.startswith("#bytes"):
        test.columns = _columns(name, number, text, test.tool)
        test.rows = []
        return
    if text[0].isdigit() and test.columns is not None and not test.closed:
        assert test.rows is not None
        test.rows.append(_row(name, number, text, test))
        return
    if re.match(r"^-{10,}$", text) and test.rows:
        test.closed = True
        return
    if test.columns is None and ":" in text:  # the settings block: "Key : value" pairs
        device = _DEVICE.search(text)
        link = _LINK.search(text)
        test.device = device.group(1) if device else test.device
        test.link_type = link.group(1) if link else test.link_type
        return
    if any(p.match(text) for p in _KNOWN):
        return
    raise refuse(name, number, msg("not a line perftest prints here: {text!r}", text=text[:60]))


def _columns(name: str, number: int, text: str, tool: str) -> tuple[tuple[str, str], ...]:
    """(name, unit) of each column; the units must be the ones perftest prints."""
    pairs = tuple(
        (m.group(1), "") if m.group(1) else (m.group(2).strip(), m.group(3)) for m in _COLUMN.finditer(text)
    )
    names = [c for c, _ in pairs]
    want = "BW average" if tool.endswith("_bw") else "t_typical"
    if names[:2] != ["#bytes", "#iterations"] or want not in names:
        raise refuse(name, number, msg("unexpected perftest columns: {text}", text=text[:100]))
    for column, unit in pairs[2:]:
        allowed = ("Gb/sec", "MB/sec", "Mpps") if tool.endswith("_bw") else ("usec",)
        if unit not in allowed:
            raise refuse(
                name,
                number,
                msg(
                    "column {column} is in [{unit}] where perftest prints {allowed} (units changed?)",
                    column=column,
                    unit=unit,
                    allowed=" or ".join(f"[{a}]" for a in allowed),
                ),
            )
    return pairs


def _row(name: str, number: int, text: str, test: _Test) -> tuple[int, float]:
    assert test.columns is not None
    tokens = split_row(name, number, text, test.columns)
    try:
        values = [float(t) for t in tokens]
    except ValueError:
        raise refuse(name, number, msg("a result row holds text where perftest prints numbers")) from None
    if any(v != v or v < 0 or v == float("inf") for v in values):
        raise refuse(name, number, msg("a value is out of range"))
    index = next(i for i, (c, _) in enumerate(test.columns) if c in ("BW average", "t_typical"))
    value = values[index]
    if test.tool.endswith("_bw"):
        value *= _BW_UNITS[test.columns[index][1]]
    return int(values[0]), value


def _result(name: str, test: _Test, last_line: int) -> PerftestResult:
    if not test.rows:
        raise refuse(
            name, last_line, msg("the test that starts at line {start} has no result rows", start=test.line)
        )
    if not test.closed:
        raise refuse(
            name,
            last_line,
            msg(
                "the test that starts at line {start} ends without its closing line of dashes (truncated file?)",
                start=test.line,
            ),
        )
    return PerftestResult(
        file=name,
        line=test.line,
        tool=test.tool,
        host=PurePath(name).stem,
        device=test.device or "?",
        link_type=test.link_type,
        sizes_bytes=tuple(s for s, _ in test.rows),
        values=tuple(v for _, v in test.rows),
    )


read_perftest = Reader(parse_perftest)
"""Every test in a perftest output file (a path, or an upload's bytes with its ``name``), in file
order."""
