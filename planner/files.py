"""Reading the YAML/JSON files users hand us (catalog overrides, scenarios, uploads), in one place.

Every way in — a path on the command line, the bytes of a browser upload — goes through
:func:`read_mapping`, so the same bytes give the same data or the same message wherever they
come from: UTF-8 with or without a byte-order mark, ``.json`` parsed as strict JSON, anything
else as YAML (``safe_load``, which also reads JSON), and one line naming the file when the bytes
cannot be decoded or parsed. Readers that take JSON only whatever the name (the scenario JSON of
a proposal, the store's import) use :func:`parse_text` with ``syntax="json"``. Strict JSON
refuses ``NaN`` and ``Infinity`` (Python's ``json`` would accept them) and a syntax error names
its line and column.

The bytes come from people we do not control, so the reader has limits, each named in its
one-line message: at most :data:`MAX_FILE_BYTES` are read (a device such as ``/dev/zero`` or a
FIFO is refused before it is opened), nesting at most :data:`MAX_DEPTH` levels (deeper input
would otherwise end in Python's ``RecursionError``), and no YAML aliases: PyYAML shares an
aliased node instead of copying it, so 0.6 KB of nested aliases ("billion laughs") is a small
object graph that the first ``str()`` or ``json.dumps`` expands to gigabytes. The bundled
``data/*.yaml`` use anchors for repeated source texts; :func:`read_trusted_mapping` reads them
with aliases allowed (and the same size and depth limits).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path, PurePath
from typing import Any, Literal

import yaml

from planner.errors import PlannerError, shorten
from planner.i18n import error_text
from planner.i18n.message import Message, msg

Syntax = Literal["json", "yaml"]
"""How a file is parsed: strict JSON, or YAML (which also reads JSON)."""


MAX_FILE_BYTES = 2_000_000
"""Largest file or upload read [bytes]: the bundled catalog is under 100 kB, a scenario under 2 kB."""

MAX_DEPTH = 64
"""Deepest nesting of mappings and lists [levels]; real files use fewer than 6."""


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return shorten(text.splitlines()[0]) if text else "syntax error"


def too_large_error(
    *, name: str, what: Message, error: type[PlannerError], limit: int = MAX_FILE_BYTES
) -> PlannerError:
    """The error for a file or upload above ``limit`` [bytes]."""
    return error(
        msg(
            "{file}: {what} larger than {limit} MB",
            file=shorten(name),
            what=what,
            limit=f"{limit / 1_000_000:g}",
        )
    )


def read_bytes(
    source: Path | bytes,
    *,
    name: str,
    what: Message,
    error: type[PlannerError],
    limit: int = MAX_FILE_BYTES,
) -> bytes:
    """The raw bytes of ``source`` (a path is read; bytes are returned as they are).

    At most ``limit`` bytes are read, and only from a regular file: a FIFO or a device
    (``/dev/zero``) is refused by its type, before it is opened (opening a FIFO waits for a
    writer). Raises ``error`` naming ``name`` when the file cannot be read or is too large.
    """
    if isinstance(source, bytes):
        if len(source) > limit:
            raise too_large_error(name=name, what=what, error=error, limit=limit)
        return source
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            raise error(msg("{file}: not a regular file; name a {what}", file=shorten(name), what=what))
        with open(source, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise error(
            msg("{file}: cannot read {what} ({reason})", file=shorten(name), what=what, reason=reason)
        ) from None
    if len(data) > limit:
        raise too_large_error(name=name, what=what, error=error, limit=limit)
    return data


def _depth_error(name: str, error: type[PlannerError]) -> PlannerError:
    return error(msg("{file}: nesting deeper than {limit} levels", file=shorten(name), limit=MAX_DEPTH))


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether ``data`` nests mappings and lists more than ``limit`` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


class _RefusedError(Exception):
    """Raised inside the YAML loader; turned into the caller's error with the file's name."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


class _UserYamlLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses aliases and counts nesting while it builds the node tree,
    so a deep or alias-laden file stops at the first offending node instead of later."""

    allow_aliases = False

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if not self.allow_aliases and self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise _RefusedError(
                msg("YAML aliases are not allowed (line {line})", line=mark.line + 1 if mark else 0)
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _RefusedError(msg("nesting deeper than {limit} levels", limit=MAX_DEPTH))
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _TrustedYamlLoader(_UserYamlLoader):
    """The bundled catalog's loader: aliases allowed (shared source texts), depth still counted."""

    allow_aliases = True


def _trusted_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The bundled catalog's loader: libyaml's (the same safe constructor and resolver, so the same
    values, about ten times faster to parse: it is most of a CLI command's start-up) when PyYAML
    was built with it, else :class:`_TrustedYamlLoader`."""
    return getattr(yaml, "CSafeLoader", _TrustedYamlLoader)


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
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise _depth_error(name, error) from None
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
        raise error(
            msg("{file}: not valid JSON ({detail})", file=name, detail=shorten(error_text(exc)))
        ) from None
    if _deeper_than(data, MAX_DEPTH):
        raise _depth_error(name, error)
    return data


def parse_text(
    content: bytes,
    *,
    name: str,
    error: type[PlannerError],
    syntax: Syntax | None = None,
    trusted: bool = False,
) -> Any:
    """Decode ``content`` (UTF-8, a leading byte-order mark dropped) and parse it.

    ``syntax`` picks the parser; by default ``name`` does: a ``.json`` suffix is parsed as
    strict JSON (:func:`parse_json`), anything else as YAML. Raises ``error`` naming ``name`` on
    a decoding or syntax error, on nesting deeper than :data:`MAX_DEPTH` and on a YAML alias
    (unless ``trusted``: the bundled catalog). The size is the caller's to bound
    (:func:`read_bytes`, or its own limit before decoding).

    >>> parse_text(b'\\xef\\xbb\\xbf{"gpus": 8}', name="s.json", error=ValueError)
    {'gpus': 8}
    >>> parse_text(b"gpus: [8", name="s.yaml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: not valid YAML/JSON (while parsing a flow sequence)
    >>> parse_text(b"a: &x [1]\\nb: *x", name="s.yaml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: YAML aliases are not allowed (line 2)
    """
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            msg("{file}: not UTF-8 text (invalid byte at offset {offset})", file=name, offset=exc.start)
        ) from None
    if (syntax or ("json" if PurePath(name).suffix.lower() == ".json" else "yaml")) == "json":
        return parse_json(text, name=name, error=error)
    loader = (_trusted_loader() if trusted else _UserYamlLoader)(text)
    try:
        data = loader.get_single_data()
        if trusted and _deeper_than(data, MAX_DEPTH):  # libyaml's loader does not count as it goes
            raise _RefusedError(msg("nesting deeper than {limit} levels", limit=MAX_DEPTH))
        return data
    except _RefusedError as exc:
        raise error(msg("{file}: {problem}", file=name, problem=exc.message)) from None
    except RecursionError:  # a deep flow collection may recurse in the parser before composing
        raise _depth_error(name, error) from None
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        # YAML reads JSON too, so a .yaml/.yml (or suffix-less) file may hold either; a
        # scalar the constructor cannot build (a 5000-digit int, 2024-13-45) is a ValueError
        raise error(
            msg("{file}: not valid YAML/JSON ({detail})", file=name, detail=_first_line(exc))
        ) from None
    finally:
        loader.dispose()


def read_mapping(
    source: Path | bytes,
    *,
    name: str | None = None,
    what: Message,
    error: type[PlannerError],
    trusted: bool = False,
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
    trusted
        The file ships with the planner (``data/``): YAML aliases are allowed. Never for a
        file or upload a user names.

    Raises
    ------
    PlannerError
        ``error``, in one line naming the file, when it cannot be read, decoded or parsed, or
        holds something other than a mapping, or breaks a limit (size, depth, aliases).
    """
    if name is None:
        if isinstance(source, bytes):
            raise TypeError("read_mapping: name the file when passing its bytes")
        name = str(source)
    content = read_bytes(source, name=name, what=what, error=error)
    data = parse_text(content, name=name, error=error, trusted=trusted)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise error(msg("{file}: a {what} must be a mapping", file=shorten(name), what=what))
    return data


def empty_file_error(*, name: str, what: Message, error: type[PlannerError]) -> PlannerError:
    """The error for a file that holds nothing where content is required."""
    return error(msg("{file}: the {what} is empty", file=name, what=what))


CATALOG_FILE = msg("catalog file")
"""``what`` of a catalog (override) file."""

SCENARIO_FILE = msg("scenario file")
"""``what`` of a scenario file."""
