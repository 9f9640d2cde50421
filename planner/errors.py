"""Typed errors raised by the engine.

Every error carries a message meant for a person: it names the field and, where there is one,
the allowed range. The CLI prints ``str(error)`` on one line and exits with code 2; the web app
shows it next to the input.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError


class PlannerError(Exception):
    """Base class of every error the engine raises on purpose."""


class InputError(PlannerError, ValueError):
    """A scenario or option is outside what the engine accepts."""


class CatalogError(PlannerError, ValueError):
    """A catalog file is malformed, or a record or reference is missing."""


class InfeasibleError(PlannerError):
    """No design satisfies the constraints; the message names the binding limit."""


def _field_range(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> str:
    """Return ``" (allowed: lo to hi)"`` for a pydantic field, or ``""`` when unbounded."""
    if model is None or not loc:
        return ""
    current: Any = model
    info = None
    for part in loc:
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return ""
        info = current.model_fields.get(str(part))
        if info is None:
            return ""
        current = info.annotation
    if info is None:
        return ""
    lo: Any = None
    hi: Any = None
    for meta in info.metadata:
        lo = getattr(meta, "ge", None) if getattr(meta, "ge", None) is not None else lo
        lo = getattr(meta, "gt", None) if getattr(meta, "gt", None) is not None else lo
        hi = getattr(meta, "le", None) if getattr(meta, "le", None) is not None else hi
        hi = getattr(meta, "lt", None) if getattr(meta, "lt", None) is not None else hi
    if lo is None and hi is None:
        return ""
    return f" (allowed: {'-inf' if lo is None else lo} to {'inf' if hi is None else hi})"


def describe_validation_error(
    error: ValidationError, *, model: type[BaseModel] | None = None, prefix: str = ""
) -> str:
    """Summarise a pydantic error in one line: ``field: problem (allowed: lo to hi); ...``."""
    parts = []
    for item in error.errors():
        loc = tuple(item.get("loc", ()))
        field = ".".join(str(p) for p in loc) or "(top level)"
        given = item.get("input")
        shown = "" if isinstance(given, dict | list) else f" (got {given!r})"
        message = str(item.get("msg", "invalid value"))
        if item.get("type") == "extra_forbidden":
            message, shown = "unknown key", ""
        parts.append(f"{prefix}{field}: {message}{shown}{_field_range(model, loc)}")
    return "; ".join(parts)
