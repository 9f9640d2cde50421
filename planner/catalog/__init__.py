"""Component catalog: schema (one model per family) and loading with user overrides."""

from __future__ import annotations

from planner.catalog.load import (
    DATA_DIR,
    Catalog,
    catalog_files,
    load_catalog,
    load_catalog_from_data,
    with_calibration,
)
from planner.catalog.schema import FAMILIES

__all__ = [
    "DATA_DIR",
    "FAMILIES",
    "Catalog",
    "catalog_files",
    "load_catalog",
    "load_catalog_from_data",
    "with_calibration",
]
