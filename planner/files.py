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

One strict reading of numbers and keys, the same in files, uploads, the store's import, URL
parameters and the command line (:func:`parse_decimal`, :func:`parse_whole`,
:func:`argparse_number`): numbers are ASCII decimal (``128``, ``-1.5``, ``2e3``); full-width or
Arabic-Indic digits, ``1_000``, padded `` 12 ``, hexadecimal, octal and YAML 1.1's sexagesimal
``1:20`` (= 80) and ``yes``/``no``/``on``/``off`` booleans are refused with a message naming the
value, and so is a key given twice in one mapping (JSON or YAML), naming the key. A control
character (NUL included) in a YAML file is refused in one line like any other syntax error.
"""

from __future__ import annotations

import json
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any, Literal

import yaml

from planner.errors import InputError, PlannerError, shorten
from planner.i18n import error_text
from planner.i18n.message import Message, msg

Syntax = Literal["json", "yaml"]
"""How a file is parsed: strict JSON, or YAML (which also reads JSON)."""


MAX_FILE_BYTES = 2_000_000
"""Largest file or upload read [bytes]: the bundled catalog is under 100 kB, a scenario under 2 kB."""

MAX_DEPTH = 64
"""Deepest nesting of mappings and lists [levels]; real files use fewer than 6."""


DECIMAL = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
"""An ASCII decimal number: what every number a user types or files must look like."""
WHOLE = re.compile(r"[-+]?[0-9]+")
"""An ASCII whole number."""
YAML_BOOLEANS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
"""The booleans of YAML 1.2 (YAML 1.1's ``yes``/``no``/``on``/``off`` are refused)."""


def _number_error(text: str, field: str, kind: Message) -> InputError:
    digits = "".join(str(unicodedata.digit(c, "")) for c in text if c.isdigit())
    hint = msg(" (non-ASCII digits: write {digits})", digits=digits) if not text.isascii() and digits else ""
    return InputError(
        msg(
            "{field}: {value} is not {kind} written with ASCII digits 0-9{hint}",
            field=field,
            value=repr(shorten(text, 40)),
            kind=kind,
            hint=hint,
        )
    )


def parse_decimal(text: str, *, field: str) -> float:
    """``text`` as a number, read strictly: ASCII decimal only, nothing around it.

    Raises :class:`planner.errors.InputError` naming ``field`` otherwise (``１２８``, ``1_000``,
    `` 12 ``, ``0x40``, ``nan``, ``inf``).

    Parameters
    ----------
    text : str
        The text as given.
    field : str
        The option or field named in the error.

    Returns
    -------
    float
        The number.

    Examples
    --------
    >>> parse_decimal("2.5e3", field="--rack-kw")
    2500.0
    >>> parse_decimal("１２８", field="--gpus")
    Traceback (most recent call last):
    ...
    planner.errors.InputError: --gpus: '１２８' is not a number written with ASCII digits 0-9 (non-ASCII digits: write 128)
    """
    if not DECIMAL.fullmatch(text):
        raise _number_error(text, field, msg("a number"))
    return float(text)


def parse_whole(text: str, *, field: str) -> int:
    """``text`` as a whole number, read strictly (ASCII digits, an optional sign, nothing else).

    Parameters
    ----------
    text : str
        The text as given.
    field : str
        The option or field named in the error.

    Returns
    -------
    int
        The number.

    Raises
    ------
    InputError
        ``text`` is not a whole number of at most 30 characters.

    Examples
    --------
    >>> parse_whole("-12", field="x"), parse_whole("0", field="x")
    (-12, 0)
    >>> parse_whole(" 12 ", field="--jobs")
    Traceback (most recent call last):
    ...
    planner.errors.InputError: --jobs: ' 12 ' is not a whole number written with ASCII digits 0-9
    """
    if not WHOLE.fullmatch(text) or len(text) > 30:
        raise _number_error(text, field, msg("a whole number"))
    return int(text)


def argparse_number(field: str, *, whole: bool = False) -> Callable[[str], float | int]:
    """An argparse ``type=`` for a numeric option: :func:`parse_whole` or :func:`parse_decimal`,
    its message as argparse's (one line, exit 2).

    Parameters
    ----------
    field : str
        The option, named in the error.
    whole : bool
        Whether only whole numbers are accepted.

    Returns
    -------
    callable
        The converter: text to number.

    Examples
    --------
    >>> argparse_number("--rack-kw")("40")
    40.0
    """
    import argparse

    def convert(text: str) -> float | int:
        try:
            return parse_whole(text, field=field) if whole else parse_decimal(text, field=field)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = "whole number" if whole else "number"
    return convert


def _strict_strings(data: Any, name: str, error: type[PlannerError]) -> None:
    """Refuse a string value that a model would read as a number but that is not ASCII decimal
    (``"１２８"``, ``" 12 "``, ``"1_000"``): one rule for numbers, quoted or not."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, str) and any(c.isdigit() for c in item) and not DECIMAL.fullmatch(item):
            try:
                float(item)
            except ValueError:
                continue
            raise error(
                msg("{file}: {problem}", file=name, problem=_number_error(item, where, msg("a number")))
            )


HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
"""Unicode categories refused in names: control characters (ESC, CR, NUL), format characters
(right-to-left override U+202E, zero-width space U+200B, byte-order mark) and lone surrogates. They
make a name read differently from what it holds (``"invoice\u202eexe.pdf"`` shows as
``invoicefdp.exe``) or rewrite a terminal (ESC sequences)."""


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` a name must not hold, as ``U+XXXX``, or ``None``.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str or None
        The code point as ``U+XXXX``; ``None`` when there is none.

    Examples
    --------
    >>> hidden_character("Acme 1024"), hidden_character("abc\u202eexe"), hidden_character("a\x1b[2J")
    (None, 'U+202E', 'U+001B')
    """
    for char in text:
        if unicodedata.category(char) in HIDDEN_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def check_plain_text(text: str, *, field: str) -> str:
    """``text`` unchanged, or :class:`planner.errors.InputError` naming ``field`` when it holds a
    control, bidirectional-override or zero-width character (:func:`hidden_character`).

    Parameters
    ----------
    text : str
        The text.
    field : str
        The field named in the error.

    Returns
    -------
    str
        ``text``.
    """
    found = hidden_character(text)
    if found is not None:
        raise InputError(
            msg(
                "{field}: must be one line without control, bidirectional or zero-width characters (found {char})",
                field=field,
                char=found,
            )
        )
    return text


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return shorten(text.splitlines()[0]) if text else "syntax error"


def too_large_error(
    *, name: str, what: Message, error: type[PlannerError], limit: int = MAX_FILE_BYTES
) -> PlannerError:
    """The error for a file or upload above ``limit`` [bytes].

    Parameters
    ----------
    name : str
        The file's name.
    what : Message
        What the file is (``scenario file``).
    error : type of PlannerError
        The error class.
    limit : int
        Size limit [bytes].

    Returns
    -------
    PlannerError
        The error, to raise.
    """
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

    Parameters
    ----------
    source : Path or bytes
        The file, or an upload's bytes.
    name : str
        The file's name, used in messages.
    what : Message
        What the file is.
    error : type of PlannerError
        The error class raised.
    limit : int
        Size limit [bytes].

    Returns
    -------
    bytes
        The content.
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


def _syntax_error(*, name: str, error: type[PlannerError], exc: Exception) -> PlannerError:
    """The one-line error for text the YAML reader, parser or constructor refuses."""
    return error(msg("{file}: not valid YAML/JSON ({detail})", file=name, detail=_first_line(exc)))


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
    strict = True
    """One strict reading: duplicate keys and YAML 1.1 scalar forms refused (not in ``data/``)."""

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

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if self.strict and isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if isinstance(key, list | dict):
                    continue  # unhashable: SafeLoader refuses it with its own message
                if key in seen:
                    raise _RefusedError(
                        msg(
                            "duplicate key {key} (line {line})",
                            key=repr(key),
                            line=key_node.start_mark.line + 1,
                        )
                    )
                seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def _strict_scalar(self, node: Any, kind: Message, ok: bool) -> None:
        if self.strict and not ok:
            raise _RefusedError(
                msg(
                    "{value} (line {line}) is not {kind} this planner reads: YAML 1.1 forms (1:20, 0x40, "
                    "010, 1_000, yes/no/on/off) are refused; write it in decimal, true/false, or quote it",
                    value=repr(shorten(str(node.value), 40)),
                    line=node.start_mark.line + 1,
                    kind=kind,
                )
            )

    def construct_yaml_int(self, node: Any) -> Any:
        text = str(node.value)
        self._strict_scalar(
            node, msg("a whole number"), bool(WHOLE.fullmatch(text)) and not _leading_zero(text)
        )
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node: Any) -> Any:
        text = str(node.value)
        special = text.lower().lstrip("+-") in {".inf", ".nan"}
        self._strict_scalar(node, msg("a number"), special or bool(DECIMAL.fullmatch(text)))
        return super().construct_yaml_float(node)

    def construct_yaml_bool(self, node: Any) -> Any:
        self._strict_scalar(node, msg("a boolean"), str(node.value) in YAML_BOOLEANS)
        return super().construct_yaml_bool(node)


for _tag, _method in (
    ("tag:yaml.org,2002:int", _UserYamlLoader.construct_yaml_int),
    ("tag:yaml.org,2002:float", _UserYamlLoader.construct_yaml_float),
    ("tag:yaml.org,2002:bool", _UserYamlLoader.construct_yaml_bool),
):
    _UserYamlLoader.add_constructor(_tag, _method)


def _leading_zero(text: str) -> bool:
    """``010`` (YAML 1.1 octal, 8) and ``-00``: a zero before other digits."""
    digits = text.lstrip("+-")
    return len(digits) > 1 and digits.startswith("0")


class _TrustedYamlLoader(_UserYamlLoader):
    """The bundled catalog's loader: aliases allowed (shared source texts), depth still counted."""

    allow_aliases = True
    strict = False


def _trusted_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The bundled catalog's loader: libyaml's (the same safe constructor and resolver, so the same
    values, about ten times faster to parse: it is most of a CLI command's start-up) when PyYAML
    was built with it, else :class:`_TrustedYamlLoader`."""
    return getattr(yaml, "CSafeLoader", _TrustedYamlLoader)


def _reject_constant(name: str) -> float:
    raise ValueError(msg("{name} is not a number JSON allows", name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(msg("duplicate key {key}", key=repr(key)))
        seen[key] = value
    return seen


def parse_json(text: str, *, name: str, error: type[PlannerError]) -> Any:
    """Parse strict JSON: ``NaN``, ``Infinity`` and ``-Infinity`` are refused like a syntax error.

    Parameters
    ----------
    text : str
        The JSON text.
    name : str
        The file's name, used in messages.
    error : type of PlannerError
        The error class raised.

    Returns
    -------
    Any
        The parsed value.

    Examples
    --------
    >>> parse_json('{"a": [1,', name="x.json", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: x.json: not valid JSON (Expecting value at line 1 column 10)
    >>> parse_json('{"a": NaN}', name="x.json", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: x.json: not valid JSON (NaN is not a number JSON allows)
    >>> parse_json('{"gpus": 64, "gpus": 128}', name="s.json", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.json: not valid JSON (duplicate key 'gpus')
    """
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
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


def decode_text(content: bytes, *, name: str, error: type[PlannerError]) -> str:
    """``content`` as UTF-8 text, a leading byte-order mark dropped; raises ``error`` naming
    ``name`` and the offset of the first byte that is not UTF-8.

    Parameters
    ----------
    content : bytes
        The file's bytes.
    name : str
        The file's name, used in messages.
    error : type of PlannerError
        The error class raised.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> decode_text(b"\\xef\\xbb\\xbfgpus,8", name="t.csv", error=ValueError)
    'gpus,8'
    >>> decode_text(b"ok\\xff", name="t.csv", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: t.csv: not UTF-8 text (invalid byte at offset 2)
    """
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            msg("{file}: not UTF-8 text (invalid byte at offset {offset})", file=name, offset=exc.start)
        ) from None


def parse_scenario_export(data: str | bytes, *, source: str, limit_bytes: int) -> dict[str, Any]:
    """The JSON object of a scenario export (a proposal's scenario JSON, the store's import):
    at most ``limit_bytes`` [bytes] (a text counts as the UTF-8 it would be in a file), strict
    JSON by :func:`parse_text`, and an object. :class:`InputError` names ``source``.

    Parameters
    ----------
    data : str or bytes
        The JSON text or bytes.
    source : str
        The file's name, used in messages.
    limit_bytes : int
        Size limit [bytes].

    Returns
    -------
    dict of str to Any
        The JSON object.

    Examples
    --------
    >>> parse_scenario_export('{"gpus": 64}', source="s.json", limit_bytes=100)
    {'gpus': 64}
    >>> parse_scenario_export("[64]", source="s.json", limit_bytes=100)
    Traceback (most recent call last):
    ...
    planner.errors.InputError: s.json: expected a JSON object (a scenario export), got a list
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > limit_bytes:
        raise InputError(
            msg(
                "{source}: larger than {limit:,} bytes; not a scenario export",
                source=source,
                limit=limit_bytes,
            )
        )
    parsed = parse_text(raw, name=source, error=InputError, syntax="json")
    if not isinstance(parsed, dict):
        raise InputError(
            msg(
                "{source}: expected a JSON object (a scenario export), got a {type}",
                source=source,
                type=type(parsed).__name__,
            )
        )
    return parsed


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

    Parameters
    ----------
    content : bytes
        The file's bytes.
    name : str
        The file's name, used in messages; its suffix picks the syntax.
    error : type of PlannerError
        The error class raised.
    syntax : Syntax or None
        ``json`` or ``yaml``; ``None`` to go by ``name``.
    trusted : bool
        Whether YAML aliases are allowed (the bundled catalog).

    Returns
    -------
    Any
        The parsed value.

    Examples
    --------
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
    >>> parse_text(b"gpus: 64\\0", name="s.yaml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: not valid YAML/JSON (unacceptable character #x0000: special characters are not allowed)
    >>> parse_text(b"restart_min: 1:20", name="s.yaml", error=ValueError)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: '1:20' (line 1) is not a whole number this planner reads: YAML 1.1 forms ...
    >>> parse_text(b"gpus: 64\\ngpus: 128", name="s.yaml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: s.yaml: duplicate key 'gpus' (line 2)
    """
    text = decode_text(content, name=name, error=error)
    if (syntax or ("json" if PurePath(name).suffix.lower() == ".json" else "yaml")) == "json":
        data = parse_json(text, name=name, error=error)
    else:
        data = _parse_yaml(text, name=name, error=error, trusted=trusted)
    if not trusted:
        _strict_strings(data, name, error)
    return data


def _parse_yaml(text: str, *, name: str, error: type[PlannerError], trusted: bool) -> Any:
    try:
        loader = (_trusted_loader() if trusted else _UserYamlLoader)(text)
    except yaml.YAMLError as exc:  # the reader refuses a control character (NUL) up front
        raise _syntax_error(name=name, error=error, exc=exc) from None
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
        raise _syntax_error(name=name, error=error, exc=exc) from None
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

    Returns
    -------
    dict of str to Any or None
        The mapping; ``None`` when the file holds nothing.

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
    """The error for a file that holds nothing where content is required.

    Parameters
    ----------
    name : str
        The file's name.
    what : Message
        What the file is.
    error : type of PlannerError
        The error class.

    Returns
    -------
    PlannerError
        The error, to raise.
    """
    return error(msg("{file}: the {what} is empty", file=name, what=what))


CATALOG_FILE = msg("catalog file")
"""``what`` of a catalog (override) file."""

SCENARIO_FILE = msg("scenario file")
"""``what`` of a scenario file."""
