"""Reading YAML/JSON files that users hand us (catalog overrides, scenarios), in one place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from planner.errors import PlannerError


def read_mapping(path: Path, *, what: str, error: type[PlannerError]) -> dict[str, Any] | None:
    """Parse a YAML or JSON file (by suffix) that must hold a mapping; ``None`` when empty.

    Raises ``error`` (one line naming the file) when it cannot be read, does not parse, or holds
    something other than a mapping.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{path}: cannot read {what} file ({exc.strerror})") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else "syntax error"
        raise error(f"{path}: not valid YAML/JSON ({first})") from None
    if data is None:
        return None
    if not isinstance(data, dict):
        raise error(f"{path}: a {what} file must be a mapping")
    return data
