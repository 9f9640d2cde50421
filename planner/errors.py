"""Typed errors raised by the engine.

Every error carries a message meant for a person: it names the field and, where there is one,
the allowed range. The CLI prints ``str(error)`` on one line and exits with code 2; the web app
shows it next to the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from planner.i18n import error_text
from planner.i18n.message import Message, msg


class PlannerError(Exception):
    """Base class of every error the engine raises on purpose."""


class InputError(PlannerError, ValueError):
    """A scenario or option is outside what the engine accepts."""


class CatalogError(PlannerError, ValueError):
    """A catalog file is malformed, or a record or reference is missing."""


class InfeasibleError(PlannerError):
    """No design satisfies the constraints; the message names the binding limit."""


class MissingExtraError(PlannerError):
    """An optional part of the product is used without its extra's packages installed."""


@contextmanager
def extra_needed(*, extra: str, feature: str) -> Iterator[None]:
    """Around the imports of an optional part: a missing package becomes one line naming the
    extra that installs it (pyproject.toml's ``[project.optional-dependencies]``).

    Parameters
    ----------
    extra
        The extra's name, as in ``pip install 'gpu-cluster-planner[sweep]'``.
    feature
        What needs it, as the user asked for it (``planner sweep``).

    Yields
    ------
    None
        Control, inside the block.

    Raises
    ------
    MissingExtraError
        An import inside the block found no module.

    >>> try:
    ...     with extra_needed(extra="sweep", feature="planner sweep"):
    ...         import not_a_module_of_this_machine
    ... except MissingExtraError as exc:
    ...     print(exc)
    planner sweep needs the optional 'sweep' packages (not_a_module_of_this_machine is not installed): pip install 'gpu-cluster-planner[sweep]'
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        raise MissingExtraError(
            msg(
                "{feature} needs the optional '{extra}' packages ({module} is not installed): "
                "pip install 'gpu-cluster-planner[{extra}]'",
                feature=feature,
                extra=extra,
                module=exc.name or "?",
            )
        ) from None


def joined(parts: Sequence[str]) -> str:
    """``parts`` in one line, kept as :class:`Message` objects so each part stays translatable.

    Parameters
    ----------
    parts : sequence of str
        The parts, messages or plain text.

    Returns
    -------
    str
        The parts joined by ``"; "``, a :class:`Message` when there are two or more.

    Examples
    --------
    >>> m = joined([msg("{n} servers", n=2), "x", msg("cooling")])
    >>> str(m), m.template
    ('2 servers; x; cooling', '{first}; {rest}')
    """
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return msg("{first}; {rest}", first=parts[0], rest=joined(parts[1:]))


def with_source(source: str, problem: str) -> Message:
    """``"source: problem"``: a message prefixed with what it is about (a file, a field).

    Parameters
    ----------
    source : str
        What the problem is about (a file, a field).
    problem : str
        The problem.

    Returns
    -------
    Message
        The message.
    """
    return msg("{source}: {problem}", source=source, problem=problem)


def field_bounds(info: FieldInfo) -> tuple[float | None, float | None]:
    """The bounds ``(lo, hi)`` a pydantic field declares with ``ge``/``gt`` and ``le``/``lt``
    (``None`` where it has none): the range messages and input widgets show.

    Parameters
    ----------
    info : FieldInfo
        A pydantic field.

    Returns
    -------
    tuple of (float or None, float or None)
        Lower and upper bound, in the field's unit.
    """
    lo: Any = None
    hi: Any = None
    for meta in info.metadata:
        for name in ("ge", "gt"):
            lo = getattr(meta, name, None) if getattr(meta, name, None) is not None else lo
        for name in ("le", "lt"):
            hi = getattr(meta, name, None) if getattr(meta, name, None) is not None else hi
    return lo, hi


def _field_range(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> tuple[str, str] | None:
    """The allowed range ``(lo, hi)`` of a pydantic field, or ``None`` when unbounded."""
    if model is None or not loc:
        return None
    current: Any = model
    info = None
    for part in loc:
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(str(part))
        if info is None:
            return None
        current = info.annotation
    if info is None:
        return None
    lo, hi = field_bounds(info)
    if lo is None and hi is None:
        return None
    return ("-inf" if lo is None else str(lo), "inf" if hi is None else str(hi))


def _bound(value: Any) -> Any:
    """A bound as pydantic prints it: a whole float without its ``.0`` (``le=3000.0`` -> 3000)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


_PROBLEMS: dict[str, Callable[[Mapping[str, Any]], Message]] = {
    # pydantic's English for its common error types, as translatable templates; ``_problem``
    # keeps pydantic's own text whenever a template no longer reproduces it exactly
    "greater_than": lambda c: msg("Input should be greater than {gt}", gt=_bound(c["gt"])),
    "greater_than_equal": lambda c: msg("Input should be greater than or equal to {ge}", ge=_bound(c["ge"])),
    "less_than": lambda c: msg("Input should be less than {lt}", lt=_bound(c["lt"])),
    "less_than_equal": lambda c: msg("Input should be less than or equal to {le}", le=_bound(c["le"])),
    "int_parsing": lambda c: msg("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": lambda c: msg("Input should be a valid integer"),
    "int_from_float": lambda c: msg("Input should be a valid integer, got a number with a fractional part"),
    "float_parsing": lambda c: msg("Input should be a valid number, unable to parse string as a number"),
    "float_type": lambda c: msg("Input should be a valid number"),
    "finite_number": lambda c: msg("Input should be a finite number"),
    "bool_parsing": lambda c: msg("Input should be a valid boolean, unable to interpret input"),
    "bool_type": lambda c: msg("Input should be a valid boolean"),
    "string_type": lambda c: msg("Input should be a valid string"),
    "string_too_short": lambda c: msg("String should have at least {min_length} characters", **c),
    "string_too_long": lambda c: msg("String should have at most {max_length} characters", **c),
    "string_pattern_mismatch": lambda c: msg("String should match pattern '{pattern}'", pattern=c["pattern"]),
    "literal_error": lambda c: msg("Input should be {expected}", expected=c["expected"]),
    "enum": lambda c: msg("Input should be {expected}", expected=c["expected"]),
    "missing": lambda c: msg("Field required"),
    "dict_type": lambda c: msg("Input should be a valid dictionary"),
    "list_type": lambda c: msg("Input should be a valid list"),
    "model_type": lambda c: msg(
        "Input should be a valid dictionary or instance of {class_name}", class_name=c["class_name"]
    ),
    "too_short": lambda c: msg(
        "List should have at least {min_length} items after validation, not {actual_length}", **c
    ),
    "too_long": lambda c: msg(
        "List should have at most {max_length} items after validation, not {actual_length}", **c
    ),
    "value_error": lambda c: msg("Value error, {error}", error=error_text(c["error"])),
}


def _problem(kind: str, english: str, context: Mapping[str, Any]) -> str:
    """pydantic's message as a translatable :class:`Message` when the type is a common one."""
    make = _PROBLEMS.get(kind)
    if make is None:
        return english
    try:
        problem = make(context)
    except (KeyError, IndexError, ValueError):
        return english
    # pydantic words some messages differently (plurals, versions): its English always wins
    return problem if problem == english else english


SHORTEN_CHARS = 80
"""How much of a value from outside an error message repeats before it is cut."""
PATH_SCAN_CHARS = 4096
"""Longest text :func:`shorten` looks through for a path to cut in the middle (Linux's
``PATH_MAX``); a longer text is no file name and is cut at its end."""
_TOKEN = re.compile(r"[^\s'\"`()\[\]{}<>,;]+")
"""A run of characters a path can hold, without the quotes and brackets around it in a message."""
_SEPARATORS = "/\\"


def _last_separator(text: str) -> int:
    return max(text.rfind(sep) for sep in _SEPARATORS)


def _keep_file_name(text: str, limit: int) -> str | None:
    """``text`` with the middle of its longest path (two separators or more) replaced by ``…``,
    its folders kept from the start as far as the budget allows and its last part (the file name)
    whole; ``None`` when the text outside the path and the file name alone exceed ``limit``."""
    paths = [m for m in _TOKEN.finditer(text) if sum(m[0].count(sep) for sep in _SEPARATORS) >= 2]
    if not paths:
        return None
    path = max(paths, key=lambda m: len(m[0]))
    token = path[0]
    name_at = _last_separator(token.rstrip(_SEPARATORS))
    budget = limit - (len(text) - len(token)) - (len(token) - name_at)
    if name_at <= 0 or budget < 0:
        return None
    head = token[:budget]
    head = head[: _last_separator(head) + 1]
    return text[: path.start()] + head + "…" + token[name_at:] + text[path.end() :]


def shorten(text: str, limit: int = SHORTEN_CHARS) -> str:
    """``text`` cut to ``limit`` characters plus an ellipsis: an error line echoes what it was
    given, and a 50 MB name must not become a 50 MB message.

    A text holding a path (a run of characters with two ``/`` or ``\\`` or more) loses the middle
    of that path instead of its end, so the message still names the file: the result is then the
    text's start, the path's first folders, ``…``, the file name and the text's end, again at most
    ``limit`` characters plus the ellipsis. When even that does not fit (a file name or a text
    around it longer than ``limit``, or a text longer than :data:`PATH_SCAN_CHARS`), the end is
    cut as for any text.

    Parameters
    ----------
    text : str
        The text.
    limit : int
        Characters kept [count].

    Returns
    -------
    str
        The text, shortened.

    Examples
    --------
    >>> shorten("x" * 100, 5)
    'xxxxx…'
    >>> shorten("short")
    'short'
    >>> shorten("/very/long/" + "deep/" * 20 + "name.yaml", 24)
    '/very/long/…/name.yaml'
    """
    if len(text) <= limit:
        return text
    if len(text) <= PATH_SCAN_CHARS:
        kept = _keep_file_name(text, limit)
        if kept is not None:
            return kept
    return text[:limit] + "…"


def _item(field: str, problem: str, given: Any, shown: bool, allowed: tuple[str, str] | None) -> Message:
    value = shorten(repr(given)) if shown else ""
    if not shown and allowed is None:
        return msg("{field}: {problem}", field=field, problem=problem)
    if allowed is None:
        return msg("{field}: {problem} (got {value})", field=field, problem=problem, value=value)
    low, high = allowed
    if not shown:
        return msg(
            "{field}: {problem} (allowed: {low} to {high})", field=field, problem=problem, low=low, high=high
        )
    return msg(
        "{field}: {problem} (got {value}) (allowed: {low} to {high})",
        field=field,
        problem=problem,
        value=value,
        low=low,
        high=high,
    )


def describe_validation_error(
    error: ValidationError, *, model: type[BaseModel] | None = None, prefix: str = ""
) -> str:
    """Summarise a pydantic error in one line: ``field: problem (allowed: lo to hi); ...``.

    The result and each part are :class:`Message` objects: the field path, the value given and
    the allowed range are parameters, and pydantic's text for the common error types is a
    template too, so the whole line can be shown in another language.

    Parameters
    ----------
    error : ValidationError
        The pydantic error.
    model : type of BaseModel or None
        The model validated, for the allowed ranges of its fields.
    prefix : str
        Put before each field path.

    Returns
    -------
    str
        The line, a :class:`Message`.
    """
    parts: list[str] = []
    for item in error.errors():
        loc = tuple(item.get("loc", ()))
        # each key cut: an unknown key from a file may be megabytes long; the prefix is ours
        field = (
            prefix + ".".join(shorten(str(p)) for p in loc)
            if loc
            else msg("{prefix}(top level)", prefix=prefix)
        )
        given = item.get("input")
        shown = not isinstance(given, dict | list)
        kind = str(item.get("type", ""))
        cause = (item.get("ctx") or {}).get("error")
        if not loc and kind == "value_error" and isinstance(cause, BaseException):
            # a check across fields words its own line and names the fields it is about
            parts.append(msg("{prefix}{problem}", prefix=prefix, problem=error_text(cause)))
            continue
        if kind == "extra_forbidden":
            problem: str = msg("unknown key")
            shown = False
        else:
            problem = _problem(kind, str(item.get("msg", "invalid value")), item.get("ctx") or {})
        parts.append(_item(field, problem, given, shown, _field_range(model, loc)))
    return joined(parts)
