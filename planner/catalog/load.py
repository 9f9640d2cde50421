"""Load the component catalog from ``data/`` and optional user override files.

A catalog file is YAML or JSON: a mapping from a family section (``gpus``, ``switches``, ...)
to a list of records. A user file overrides a built-in record field by field (same ``id``) or
adds new records. Cross-references are checked once every file is merged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from planner.catalog.memo import per_catalog
from planner.catalog.schema import (
    FAMILIES,
    Cable,
    Cooling,
    CostFactor,
    Design,
    EnergyPrice,
    ExchangeRate,
    Gpu,
    Nic,
    Optic,
    Pdu,
    Rack,
    Record,
    Server,
    SizingRule,
    Storage,
    Switch,
)
from planner.errors import CatalogError, joined, shorten
from planner.files import CATALOG_FILE, empty_file_error, read_mapping
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.calibration import PROVENANCE_SECTION, CalibrationOverride

DATA_DIR = Path(os.environ.get("PLANNER_DATA_DIR", Path(__file__).resolve().parents[2] / "data"))
"""Folder of the bundled catalog (``data/`` at the project root; PLANNER_DATA_DIR overrides)."""

REQUIRED_COST_FACTORS = (
    "installation_fraction",
    "spares_fraction",
    "maintenance_fraction_per_year",
    "space_usd_per_rack_year",
)
REQUIRED_SIZING_RULES = (
    "storage_write_gbyte_per_s_per_gpu",
    "storage_tbyte_per_gpu",
    "storage_ports_per_node",
    "inband_ports_per_node",
    "oob_ports_per_node",
    "pdus_per_rack",
    "network_rack_fill_fraction",
)


@dataclass(frozen=True)
class Catalog:
    """Every component family, keyed by id. Immutable; look records up with :meth:`get`."""

    gpus: Mapping[str, Gpu]
    servers: Mapping[str, Server]
    nics: Mapping[str, Nic]
    switches: Mapping[str, Switch]
    optics: Mapping[str, Optic]
    cables: Mapping[str, Cable]
    racks: Mapping[str, Rack]
    pdus: Mapping[str, Pdu]
    cooling: Mapping[str, Cooling]
    storage: Mapping[str, Storage]
    energy_prices: Mapping[str, EnergyPrice]
    exchange_rates: Mapping[str, ExchangeRate]
    cost_factors: Mapping[str, CostFactor]
    sizing_rules: Mapping[str, SizingRule]
    designs: Mapping[str, Design]

    def family(self, name: str) -> Mapping[str, Record]:
        """Records of one family by section name (``"gpus"``, ``"switches"``, ...)."""
        if name not in FAMILIES:
            raise CatalogError(
                msg(
                    "unknown catalog family {name} (known: {known})",
                    name=repr(name),
                    known=", ".join(FAMILIES),
                )
            )
        records: Mapping[str, Record] = getattr(self, name)
        return records

    def get(self, family: str, record_id: str) -> Record:
        """Return one record; :class:`CatalogError` names the family and the known ids."""
        records = self.family(family)
        if record_id not in records:
            known = ", ".join(sorted(records)) or "none"
            raise CatalogError(
                msg(
                    "unknown {family} id {id} (known: {known})",
                    family=family,
                    id=repr(record_id),
                    known=known,
                )
            )
        return records[record_id]

    def records(self) -> Iterable[tuple[str, Record]]:
        """Every (family, record) pair, in a stable order."""
        for family in FAMILIES:
            for record_id in sorted(self.family(family)):
                yield family, self.family(family)[record_id]


def _read_file(path: Path, *, bundled: bool) -> dict[str, Any]:
    """The mapping in a catalog file; an empty bundled file is no records, an empty user file
    an error, as it is when uploaded (``ui/upload.py``). Only bundled files may use YAML
    aliases (see :mod:`planner.files`)."""
    data = read_mapping(path, what=CATALOG_FILE, error=CatalogError, trusted=bundled)
    if data is None and not bundled:
        raise empty_file_error(name=str(path), what=CATALOG_FILE, error=CatalogError)
    return data or {}


def _raw_records(path: Path, data: Mapping[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """Check the file's shape and return ``{family: {id: raw record}}``."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for family, items in data.items():
        if family == PROVENANCE_SECTION:
            continue  # a calibration's provenance (planner calibrate writes it), not records
        if family not in FAMILIES:
            raise CatalogError(
                msg(
                    "{file}: unknown section {section} (allowed: {known})",
                    file=str(path),
                    section=shorten(repr(family)),
                    known=", ".join(FAMILIES),
                )
            )
        if not isinstance(items, list):
            raise CatalogError(
                msg(
                    "{file}: section {section} must be a list of records",
                    file=str(path),
                    section=repr(family),
                )
            )
        seen: dict[str, dict[str, Any]] = {}
        for index, item in enumerate(items):
            # an id is text (YAML may read a numeric slug as an int); anything else, such as a
            # list, would be expanded by str() and could be huge
            if not isinstance(item, dict) or not isinstance(item.get("id"), str | int):
                raise CatalogError(
                    msg(
                        "{file}: {family}[{index}] must be a mapping with an 'id'",
                        file=str(path),
                        family=family,
                        index=index,
                    )
                )
            record_id = shorten(str(item["id"]))
            if record_id in seen:
                raise CatalogError(
                    msg(
                        "{file}: duplicate id {id} in {family}",
                        file=str(path),
                        id=repr(record_id),
                        family=family,
                    )
                )
            seen[record_id] = item
        out[family] = seen
    return out


def _validate(path: str, family: str, raw: Mapping[str, Any]) -> Record:
    prefix = f"{family}[{shorten(str(raw.get('id')))}]."
    return parse(FAMILIES[family], raw, source=path, prefix=prefix, error=CatalogError)


def _built(
    merged: Mapping[str, Mapping[str, Mapping[str, Any]]], *, source_of: Callable[[str, str], str]
) -> Catalog:
    """The catalog of the merged raw records by family and id: each record validated in id order
    (its messages name ``source_of(family, id)``, the file or upload it came from), then the
    references between families checked."""
    built = {
        family: {
            record_id: _validate(source_of(family, record_id), family, raw)
            for record_id, raw in sorted(records.items())
        }
        for family, records in merged.items()
    }
    catalog = Catalog(**built)  # type: ignore[arg-type]
    _check_references(catalog)
    return catalog


def _check_references(catalog: Catalog) -> None:
    """Every id a record names must exist, and auxiliary rules the engine needs must be there."""
    problems: list[str] = []  # Messages, joined into one translatable line

    def need(family: str, record_id: str | None, where: str) -> None:
        if record_id is not None and record_id not in catalog.family(family):
            problems.append(
                msg(
                    "{where} refers to unknown {family} id {id}",
                    where=where,
                    family=family,
                    id=repr(record_id),
                )
            )

    for gpu in catalog.gpus.values():
        need("servers", gpu.default_server_id, f"gpus[{gpu.id}].default_server_id")
        server = catalog.servers.get(gpu.default_server_id)
        if server is not None and gpu.form_factor not in server.form_factors:
            problems.append(
                msg(
                    "gpus[{gpu}]: default server {server} does not take {form_factor} GPUs",
                    gpu=gpu.id,
                    server=repr(server.id),
                    form_factor=gpu.form_factor,
                )
            )
    for design in catalog.designs.values():
        fabric = design.fabric
        need("switches", fabric.switch_id, f"designs[{design.id}].fabric.switch_id")
        need("nics", fabric.nic_id, f"designs[{design.id}].fabric.nic_id")
        need("optics", fabric.optics_id, f"designs[{design.id}].fabric.optics_id")
        need("optics", fabric.node_optics_id, f"designs[{design.id}].fabric.node_optics_id")
        need("gpus", design.default_gpu_id, f"designs[{design.id}].default_gpu_id")
    for name in REQUIRED_COST_FACTORS:
        need("cost_factors", name, msg("the engine"))
    for name in REQUIRED_SIZING_RULES:
        need("sizing_rules", name, msg("the engine"))
    for family in ("racks", "pdus", "cooling", "storage", "energy_prices", "exchange_rates"):
        if not catalog.family(family):
            problems.append(msg("the catalog needs at least one {family} record", family=family))
    if not any(s.management for s in catalog.switches.values()):
        problems.append(msg("the catalog needs at least one management switch (management: true)"))
    if problems:
        raise CatalogError(joined(problems))


def catalog_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """The bundled catalog files, sorted by name.

    Parameters
    ----------
    data_dir : Path
        Folder of the catalog files; defaults to :data:`DATA_DIR` (``data/``).

    Returns
    -------
    list[Path]
        Its ``*.yaml`` and ``*.json`` files, sorted by name.
    """
    return sorted([*data_dir.glob("*.yaml"), *data_dir.glob("*.json")])


def load_catalog(*, overrides: Iterable[str | Path] = (), data_dir: str | Path | None = None) -> Catalog:
    """Load the bundled catalog, then apply user files in order, then check references.

    The result is cached per (overrides, folder): a second call with the same files returns the
    same (immutable) catalog object.

    Parameters
    ----------
    overrides
        User catalog files (YAML or JSON). A record whose id exists replaces the given fields
        of the built-in record; a new id adds a record.
    data_dir
        Folder of the bundled catalog; defaults to :data:`DATA_DIR`.

    Returns
    -------
    Catalog
        Every family's records by id, each with its unit-named fields and source, validated and
        cross-checked.

    Raises
    ------
    CatalogError
        With the file, the record and the field named.
    """
    return _load_cached(
        tuple(str(Path(p)) for p in overrides), str(data_dir) if data_dir is not None else str(DATA_DIR)
    )


@lru_cache(maxsize=16)
def _load_cached(overrides: tuple[str, ...], data_dir: str) -> Catalog:
    merged: dict[str, dict[str, dict[str, Any]]] = {family: {} for family in FAMILIES}
    origin: dict[tuple[str, str], str] = {}
    for path in catalog_files(Path(data_dir)):
        for family, records in _raw_records(path, _read_file(path, bundled=True)).items():
            for record_id, raw in records.items():
                if record_id in merged[family]:
                    raise CatalogError(
                        msg(
                            "{file}: duplicate id {id} in {family} (also in {other})",
                            file=str(path),
                            id=repr(record_id),
                            family=family,
                            other=origin[(family, record_id)],
                        )
                    )
                merged[family][record_id] = dict(raw)
                origin[(family, record_id)] = str(path)
    for override in overrides:
        path = Path(override)
        for family, records in _raw_records(path, _read_file(path, bundled=False)).items():
            for record_id, raw in records.items():
                base = merged[family].get(record_id, {})
                merged[family][record_id] = {**base, **raw}
                origin[(family, record_id)] = str(path)
    return _built(merged, source_of=lambda family, record_id: origin[(family, record_id)])


def load_catalog_from_data(data: Mapping[str, Any], *, name: str = "<upload>") -> Catalog:
    """Apply an already-parsed override mapping (an upload) to the bundled catalog.

    Parameters
    ----------
    data : Mapping[str, Any]
        Family section (``gpus``, ``switches``, ...) to a list of records, as in a catalog file;
        a record with a known id replaces the given fields, a new id adds a record.
    name : str
        The upload's name, used in error messages.

    Returns
    -------
    Catalog
        The bundled catalog with the records applied, validated and cross-checked.

    Raises
    ------
    CatalogError
        With the upload, the record and the field named.
    """
    return apply_override(load_catalog(), data, name=name)


def apply_override(base: Catalog, data: Mapping[str, Any], *, name: str) -> Catalog:
    """``base`` with an already-parsed override mapping applied, field by field, as a
    ``--catalog`` file is.

    Parameters
    ----------
    base : Catalog
        The catalog to start from (bundled, or already overridden).
    data : Mapping[str, Any]
        Family section to a list of records; a known id replaces the given fields, a new id
        adds a record.
    name : str
        How messages name the override.

    Returns
    -------
    Catalog
        ``base`` with the records applied, validated and cross-checked.

    Raises
    ------
    CatalogError
        Naming ``name``, the record and the field.
    """
    merged: dict[str, dict[str, Any]] = {
        f: {k: v.model_dump() for k, v in base.family(f).items()} for f in FAMILIES
    }
    for family, records in _raw_records(Path(name), data).items():
        for record_id, raw in records.items():
            merged[family][record_id] = {**merged[family].get(record_id, {}), **raw}
    return _built(merged, source_of=lambda _family, _record_id: name)


def with_calibration(catalog: Catalog, calibration: CalibrationOverride | None) -> Catalog:
    """``catalog`` with a scenario's calibration applied (itself when there is none).

    The one code path of a calibration: its records merged by :func:`apply_override`, as a
    ``--catalog`` file of the same records would be. Remembered per catalog object and
    calibration, so every plan of a calibrated scenario shares one catalog.

    Parameters
    ----------
    catalog : Catalog
        The catalog the scenario is planned with.
    calibration : CalibrationOverride or None
        The scenario's calibration: fitted coefficients (each in its record's unit) with their
        measurement's provenance.

    Returns
    -------
    Catalog
        ``catalog`` with the calibrated records; ``catalog`` itself without a calibration.
    """
    if calibration is None:
        return catalog
    return _calibrated(catalog, calibration.model_dump_json())


@per_catalog
def _calibrated(catalog: Catalog, calibration_json: str) -> Catalog:
    calibration = CalibrationOverride.model_validate_json(calibration_json)
    return apply_override(catalog, calibration.override(), name=msg("the scenario's calibration"))


__all__ = [
    "DATA_DIR",
    "Catalog",
    "apply_override",
    "catalog_files",
    "load_catalog",
    "load_catalog_from_data",
    "with_calibration",
]
