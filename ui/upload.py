"""Catalog override uploads: bytes in, a validated override or a message out. Never raises.

Pure (no Streamlit) so tests can feed it any file; the catalog page only shows the outcome.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import PurePath

from planner import CatalogError
from planner.catalog import load_catalog_from_data
from planner.errors import shorten
from planner.files import CATALOG_FILE, MAX_FILE_BYTES, empty_file_error, read_mapping
from planner.i18n import error_text
from planner.i18n.message import msg

MAX_UPLOAD_BYTES = MAX_FILE_BYTES
"""Largest upload [bytes]: the reader's limit, so an upload and a ``--catalog`` file agree."""
SUFFIXES = ("yaml", "yml", "json")


@dataclass(frozen=True)
class UploadResult:
    ok: bool
    message: str
    """The validation error (one line naming file, record and field), or a summary; a
    :class:`~planner.i18n.message.Message` when the engine made it, so it can be translated."""
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
        return UploadResult(False, msg("{file}: expected a .yaml, .yml or .json file", file=shorten(name)))
    try:  # the size, depth and alias limits are the reader's, as for a --catalog file
        data = read_mapping(content, name=name, what=CATALOG_FILE, error=CatalogError)
        if data is None:
            raise empty_file_error(name=name, what=CATALOG_FILE, error=CatalogError)
    except CatalogError as exc:
        return UploadResult(False, error_text(exc))
    try:
        load_catalog_from_data(data, name=name)
    except CatalogError as exc:
        return UploadResult(False, error_text(exc))
    except Exception as exc:  # an upload must never crash the page, whatever it holds
        detail = shorten(f"{type(exc).__name__}: {exc}")
        return UploadResult(
            False, msg("{file}: cannot be used ({detail})", file=shorten(name), detail=detail)
        )
    records = tuple(
        (family, str(item.get("id")))
        for family, items in data.items()
        for item in items
        if isinstance(item, dict)
    )
    override_json = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return UploadResult(True, name, override_json=override_json, records=records)
