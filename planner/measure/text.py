"""Reading a measurement file as lines, within the limits every reader of user files keeps.

A measurement file is text that a tool printed. It is read through :func:`planner.files.read_bytes`
(at most :data:`planner.files.MAX_FILE_BYTES`, regular files only) and split into at most
:data:`MAX_LINES` lines. Every refusal is one line that names the file and the line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from planner.errors import InputError, shorten
from planner.files import MAX_FILE_BYTES, read_bytes
from planner.i18n.message import Message, msg

MAX_LINES = 100_000
"""Most lines read from one measurement file [lines]; a full nccl-tests sweep of all six tools
with 24 sizes and 1024 rank lines is under 2,000 lines."""

MEASUREMENT_FILE = msg("measurement file")


class MeasurementError(InputError):
    """A measurement file that cannot be read as what it claims to be; the message names the
    file and the line."""


@dataclass(frozen=True)
class Source:
    """A measurement file's text and identity."""

    name: str
    """How messages name the file (its path, or an upload's name)."""
    lines: tuple[str, ...]
    sha256: str
    """SHA-256 of the file's bytes (the override's provenance)."""


def refuse(source: str, line: int, problem: str) -> MeasurementError:
    """The error for ``line`` (1-based) of ``source``: ``file: line N: problem``.

    Parameters
    ----------
    source : str
        The file name.
    line : int
        Line number, 1-based.
    problem : str
        Why the line is refused.

    Returns
    -------
    MeasurementError
        The error, to raise.
    """
    return MeasurementError(
        msg("{file}: line {line}: {problem}", file=shorten(source), line=line, problem=problem)
    )


def split_row(source: str, line: int, text: str, columns: Sequence[object]) -> list[str]:
    """The white-space separated fields of a table row, one per column of its header; a row with
    more or fewer is refused naming the file and line.

    Parameters
    ----------
    source : str
        The file name.
    line : int
        Line number, 1-based.
    text : str
        The row.
    columns : sequence of object
        The header's columns.

    Returns
    -------
    list of str
        The fields, one per column.

    Raises
    ------
    MeasurementError
        The row has more or fewer fields than the header.
    """
    tokens = text.split()
    if len(tokens) != len(columns):
        raise refuse(
            source,
            line,
            msg(
                "{found} fields where the header has {expected} (truncated or edited line?)",
                found=len(tokens),
                expected=len(columns),
            ),
        )
    return tokens


def read_lines(source: Path | bytes, *, name: str | None = None) -> Source:
    """The file's lines (UTF-8; a byte-order mark and ``\\r`` line ends dropped).

    Parameters
    ----------
    source : Path or bytes
        The file, or an upload's bytes.
    name : str or None
        The upload's file name (used in messages); ``None`` for a path.

    Returns
    -------
    Source
        The file's name, lines and sha256.

    Raises
    ------
    MeasurementError
        The file cannot be read, is not UTF-8 text, or breaks a limit; the message names the
        line where the limit was reached.
    """
    import hashlib

    label = name if name is not None else str(source)
    try:
        data = read_bytes(source, name=label, what=MEASUREMENT_FILE, error=MeasurementError)
    except MeasurementError as exc:
        if "larger than" in str(exc):
            raise _too_large(source, label) from None
        raise
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise refuse(label, line, msg("not UTF-8 text")) from None
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise refuse(label, MAX_LINES + 1, _too_many())
    if not any(line.strip() for line in lines):
        raise refuse(label, 1, msg("the file is empty"))
    return Source(name=label, lines=tuple(lines), sha256=hashlib.sha256(data).hexdigest())


_T = TypeVar("_T")


class Reader(Generic[_T]):
    """A measurement format's reader: the file's lines (:func:`read_lines`), then the format's
    parser (``parse_nccl_tests``, ``parse_perftest``, ``parse_training_log``).

    Parameters
    ----------
    parse : callable
        The parser of an already-read file.
    """

    def __init__(self, parse: Callable[[Source], _T]) -> None:
        self.parse = parse

    def __call__(self, source: Path | bytes, *, name: str | None = None) -> _T:
        """What the parser reads in a file (a path, or an upload's bytes with its ``name``).

        Parameters
        ----------
        source : Path or bytes
            The file, or an upload's bytes.
        name : str or None
            The upload's file name (used in messages); ``None`` for a path.

        Returns
        -------
        object
            The parser's result (runs, tests or a training log).

        Raises
        ------
        MeasurementError
            One line naming the file, the line and why it is refused.
        """
        return self.parse(read_lines(source, name=name))


def _too_many() -> Message:
    return msg("more than {limit} lines (a measurement file holds fewer)", limit=MAX_LINES)


def _too_large(source: Path | bytes, label: str) -> MeasurementError:
    """Name the line at which a file passes :data:`MAX_FILE_BYTES` (or :data:`MAX_LINES`)."""
    if isinstance(source, bytes):
        head = source[:MAX_FILE_BYTES]
    else:
        with open(source, "rb") as handle:
            head = handle.read(MAX_FILE_BYTES)
    line = head.count(b"\n") + 1
    if line > MAX_LINES:
        return refuse(label, MAX_LINES + 1, _too_many())
    return refuse(label, line, msg("the file is larger than {limit} MB", limit=f"{MAX_FILE_BYTES / 1e6:g}"))
