"""A scenario's calibration: the catalog override fitted to the customer's own measurements.

``planner calibrate`` (and the Measurements page) fit the collective model to a built cluster's
nccl-tests runs and write a catalog override; saved with a scenario (:attr:`Scenario.calibration
<planner.inputs.scenario.Scenario.calibration>`), the override travels with it through the store,
the JSON export and the share link, and every plan of that scenario uses the overridden values,
exactly as ``--catalog override.yaml`` does (:func:`planner.catalog.load.with_calibration`).

The provenance says what was measured, on which hosts, when, and the input files' hashes. The
records themselves are checked against the catalog's schema when they are applied (a
:class:`planner.errors.CatalogError` names the record and the field); here only their shape is
checked: the families a calibration writes, a bounded number of records, each with an id.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs import parse, read_input_file

CALIBRATED_FAMILIES = ("sizing_rules", "nics")
"""Catalog families a calibration overrides: the collective model's rules (scale-up and NVLS
efficiencies and step latencies, the compute efficiency) and the NIC's ``nccl_efficiency`` and
``alpha_us`` (:func:`planner.measure.calibrate.override_mapping`)."""

MAX_RECORDS = 32
"""Most records of one family in a calibration [count] (a fit writes at most seven)."""

MAX_HOSTS = 1024
"""Most host names in a calibration's provenance [count] (one per server of a 8192-GPU cluster)."""

MAX_FILES = 64
"""Most measured files in a calibration's provenance [count]."""

DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"


class MeasuredFile(BaseModel):
    """One measured file of a calibration: its name and content hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=255, description="File name as uploaded or given.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the file's bytes (hex).")


class CalibrationOverride(BaseModel):
    """The calibration a scenario carries: the override records and their provenance.

    ``records`` maps a catalog family (:data:`CALIBRATED_FAMILIES`) to its override records, each
    with the calibration's ``source`` and ``as_of`` (the form ``--catalog`` files take).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    measured: str = Field(
        min_length=1, max_length=500, description="What was measured (tools and collectives)."
    )
    hosts: tuple[str, ...] = Field(
        default=(), max_length=MAX_HOSTS, description="Hosts the measurements ran on."
    )
    measured_on: str = Field(pattern=DATE_PATTERN, description="Date of the measurements (YYYY-MM-DD).")
    files: tuple[MeasuredFile, ...] = Field(
        default=(), max_length=MAX_FILES, description="The measured files and their hashes."
    )
    design_id: str = Field(default="", max_length=64, description="Design the fit was made on.")
    gpus: int = Field(default=0, ge=0, le=1_048_576, description="GPUs of the measured plan [count].")
    in_switch_reduction: Literal["nvls", "sharp"] | None = Field(
        default=None,
        description="In-switch reduction the fit used instead of the plan's own; empty = the plan's own.",
    )
    records: dict[str, tuple[dict[str, Any], ...]] = Field(
        description="Override records by catalog family (sizing_rules, nics)."
    )

    @field_validator("hosts")
    @classmethod
    def _short_hosts(cls, hosts: tuple[str, ...]) -> tuple[str, ...]:
        for index, host in enumerate(hosts):
            if not host or len(host) > 255:
                raise ValueError(msg("host {index}: 1 to 255 characters", index=index))
        return hosts

    @field_validator("records")
    @classmethod
    def _known_families(
        cls, records: dict[str, tuple[dict[str, Any], ...]]
    ) -> dict[str, tuple[dict[str, Any], ...]]:
        if not records:
            raise ValueError(msg("no override records (a calibration writes sizing_rules or nics)"))
        for family, items in records.items():
            if family not in CALIBRATED_FAMILIES:
                raise ValueError(
                    msg(
                        "{family}: not a family a calibration overrides (allowed: {known})",
                        family=repr(family[:40]),
                        known=", ".join(CALIBRATED_FAMILIES),
                    )
                )
            if not 1 <= len(items) <= MAX_RECORDS:
                raise ValueError(msg("{family}: 1 to {limit} records", family=family, limit=MAX_RECORDS))
            for index, item in enumerate(items):
                if not isinstance(item.get("id"), str) or not item["id"]:
                    raise ValueError(
                        msg("{family}[{index}]: a record needs an 'id'", family=family, index=index)
                    )
        return records

    def override(self) -> Mapping[str, list[dict[str, Any]]]:
        """The records as a catalog override mapping (what a ``--catalog`` file holds)."""
        return {family: [dict(r) for r in items] for family, items in self.records.items()}

    @property
    def label(self) -> str:
        """One line: what was measured, on how many hosts, when."""
        hosts = f", {len(self.hosts)} hosts" if self.hosts else ""
        return f"{self.measured}{hosts}, {self.measured_on}"


PROVENANCE_SECTION = "provenance"
"""Key of an override file's provenance (``planner calibrate`` writes it; the catalog loader skips it)."""


def calibration_from_override(data: Mapping[str, Any], *, source: str) -> CalibrationOverride:
    """The calibration in an override file written by ``planner calibrate`` (its ``provenance``
    section and its records); :class:`InputError` names the file and the field.

    Parameters
    ----------
    data : mapping of str to Any
        The override file's content: the provenance section and catalog records.
    source : str
        The file's name, opening each message.

    Returns
    -------
    CalibrationOverride
        The records and their provenance.
    """
    provenance = data.get(PROVENANCE_SECTION)
    if not isinstance(provenance, Mapping):
        raise InputError(
            msg(
                "{source}: no provenance section: a calibration is the file planner calibrate writes",
                source=source,
            )
        )
    records = {k: v for k, v in data.items() if k != PROVENANCE_SECTION}
    return parse(
        CalibrationOverride, {**provenance, "records": records}, source=source, prefix="calibration."
    )


CALIBRATION_FILE = msg("calibration file")
"""``what`` of a calibration (an override file written by ``planner calibrate``)."""


def load_calibration(source: str | Path | bytes, *, name: str | None = None) -> CalibrationOverride:
    """Read a calibration from an override file ``planner calibrate`` wrote (a path, or an
    upload's bytes named by ``name``).

    Parameters
    ----------
    source : str, Path or bytes
        The file, or an upload's bytes.
    name : str or None
        The upload's file name (used in messages); ``None`` for a path.

    Returns
    -------
    CalibrationOverride
        The records and their provenance.

    Raises
    ------
    InputError
        The file cannot be read, is empty, or is no calibration.
    """
    data, name = read_input_file(source, name=name, what=CALIBRATION_FILE)
    return calibration_from_override(data, source=name)


__all__ = [
    "CALIBRATED_FAMILIES",
    "CALIBRATION_FILE",
    "PROVENANCE_SECTION",
    "CalibrationOverride",
    "MeasuredFile",
    "calibration_from_override",
    "load_calibration",
]
