"""Reading the YAML/JSON files users hand us (catalog overrides, scenarios, uploads), in one place.

Every way in — a path on the command line, the bytes of a browser upload — goes through
:func:`read_mapping`, so the same bytes give the same data or the same message wherever they
come from: UTF-8 with or without a byte-order mark, ``.json`` parsed as strict JSON, anything
else as YAML (``safe_load``, which also reads JSON), and one line naming the file when the bytes
cannot be decoded or parsed. Readers that take JSON only whatever the name (the scenario JSON of
a proposal, the store's import) use :func:`parse_text` with ``syntax="json"``. Strict JSON
refuses ``NaN`` and ``Infinity`` (Python's ``json`` would accept them) and a syntax error names
its line and column.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath
from typing import Any, Literal

import yaml

from planner.errors import PlannerError
from planner.i18n import error_text
from planner.i18n.message import Message, msg

Syntax = Literal["json", "yaml"]
"""How a file is parsed: strict JSON, or YAML (which also reads JSON)."""


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "syntax error"


def read_bytes(source: Path | bytes, *, name: str, what: Message, error: type[PlannerError]) -> bytes:
    """The raw bytes of ``source`` (a path is read; bytes are returned as they are).

    Raises ``error`` naming ``name`` when the file cannot be read.
    """
    if isinstance(source, bytes):
        return source
    try:
        return source.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise error(
            msg("{file}: cannot read {what} ({reason})", file=name, what=what, reason=reason)
        ) from None


def _reject_constant(name: str) -> float:
    raise ValueError(msg("{name} is not a number JSON allows", name=name))


def parse_json(text: str, *, name: str, error: type[PlannerError]) -> Any:
    """Parse strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` are refused like a syntax error.

    >>> parse_json('{"a": [1,', name="x.json", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: x.json: not valid JSON (Expecting value at line 1 column 10)
    >>> parse_json('{"a": NaN}', name="x.json", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: x.json: not valid JSON (NaN is not a number JSON allows)
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:  # a ValueError too: caught first
        raise error(
            msg(
                "{source}: not valid JSON ({detail} at line {line} column {column})",
                source=name,
                detail=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    except ValueError as exc:  # NaN or Infinity, refused by _reject_constant
        raise error(msg("{file}: not valid JSON ({detail})", file=name, detail=error_text(exc))) from None


def parse_text(content: bytes, *, name: str, error: type[PlannerError], syntax: Syntax | None = None) -> Any:
    """Decode ``content`` (UTF-8, a leading byte-order mark dropped) and parse it.

    ``syntax`` picks the parser; by default ``name`` does: a ``.json`` suffix is parsed as
    strict JSON (:func:`parse_json`), anything else as YAML. Raises ``error`` naming ``name`` on
    a decoding or syntax error.

    >>> parse_text(b'\\xef\\xbb\\xbf{"gpus": 8}', name="s.json", error=ValueError)
    {'gpus': 8}
    >>> parse_text(b"gpus: [8", name="s.yaml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: not valid YAML/JSON (while parsing a flow sequence)
    """
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            msg("{file}: not UTF-8 text (invalid byte at offset {offset})", file=name, offset=exc.start)
        ) from None
    if (syntax or ("json" if PurePath(name).suffix.lower() == ".json" else "yaml")) == "json":
        return parse_json(text, name=name, error=error)
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        # YAML reads JSON too, so a .yaml/.yml (or suffix-less) file may hold either
        raise error(
            msg("{file}: not valid YAML/JSON ({detail})", file=name, detail=_first_line(exc))
        ) from None


def read_mapping(
    source: Path | bytes, *, name: str | None = None, what: Message, error: type[PlannerError]
) -> dict[str, Any] | None:
    """Read a YAML or JSON file that must hold a mapping; ``None`` when it holds nothing.

    Parameters
    ----------
    source
        A path, or the bytes of the file (an upload).
    name
        How messages name the file, and whose suffix picks the syntax; defaults to the path.
    what
        What the file is, for messages: ``msg("catalog file")``, ``msg("scenario file")``.
    error
        The :class:`PlannerError` subclass to raise.

    Raises
    ------
    PlannerError
        ``error``, in one line naming the file, when it cannot be read, decoded or parsed, or
        holds something other than a mapping.
    """
    if name is None:
        if isinstance(source, bytes):
            raise TypeError("read_mapping: name the file when passing its bytes")
        name = str(source)
    data = parse_text(read_bytes(source, name=name, what=what, error=error), name=name, error=error)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise error(msg("{file}: a {what} must be a mapping", file=name, what=what))
    return data


def empty_file_error(*, name: str, what: Message, error: type[PlannerError]) -> PlannerError:
    """The error for a file that holds nothing where content is required."""
    return error(msg("{file}: the {what} is empty", file=name, what=what))


CATALOG_FILE = msg("catalog file")
"""``what`` of a catalog (override) file."""

SCENARIO_FILE = msg("scenario file")
"""``what`` of a scenario file."""
