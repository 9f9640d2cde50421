"""Catalog override uploads: bytes in, a validated override or a message out. Never raises.

Pure (no Streamlit) so tests can feed it any file; the catalog page only shows the outcome.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import yaml

from planner import CatalogError
from planner.catalog import load_catalog_from_data

MAX_UPLOAD_BYTES = 2_000_000
SUFFIXES = ("yaml", "yml", "json")


@dataclass(frozen=True)
class UploadResult:
    ok: bool
    message: str
    """The validation error (one line naming file, record and field), or a summary."""
    override_json: str = ""
    """Canonical JSON of the override (the cache key of every plan that uses it)."""
    records: tuple[tuple[str, str], ...] = ()
    """(family, id) of every record the file sets."""


def read_override(name: str, content: bytes) -> UploadResult:
    """Parse and validate an uploaded catalog override against the bundled catalog.

    >>> read_override("x.yaml", b"gpus: [{id: br100, tdp_w: 99999}]").message.startswith("x.yaml: gpus[br100].tdp_w")
    True
    >>> read_override("x.yaml", b"gpus: [{id: br100, unit_cost_usd: 9000}]").ok
    True
    """
    suffix = PurePath(name).suffix.lower().lstrip(".")
    if suffix not in SUFFIXES:
        return UploadResult(False, f"{name}: expected a .yaml, .yml or .json file")
    if len(content) > MAX_UPLOAD_BYTES:
        return UploadResult(False, f"{name}: file larger than {MAX_UPLOAD_BYTES // 1_000_000} MB")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return UploadResult(False, f"{name}: not UTF-8 text")
    try:
        data: Any = json.loads(text) if suffix == "json" else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else "syntax error"
        return UploadResult(False, f"{name}: not valid {'JSON' if suffix == 'json' else 'YAML'} ({first})")
    if data is None:
        return UploadResult(False, f"{name}: the file is empty")
    if not isinstance(data, dict):
        return UploadResult(False, f"{name}: must be a mapping of family sections to lists of records")
    try:
        load_catalog_from_data(data, name=name)
    except CatalogError as exc:
        return UploadResult(False, str(exc))
    except Exception as exc:  # an upload must never crash the page, whatever it holds
        return UploadResult(False, f"{name}: cannot be used ({type(exc).__name__}: {exc})")
    records = tuple(
        (family, str(item.get("id")))
        for family, items in data.items()
        for item in items
        if isinstance(item, dict)
    )
    override_json = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return UploadResult(True, name, override_json=override_json, records=records)
