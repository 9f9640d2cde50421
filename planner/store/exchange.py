"""Import and export of saved scenarios as JSON documents.

An export is an envelope around the scenario, so a file says what it is and which layout it uses::

    {
      "format": "gpu-cluster-planner/scenario",
      "schema_version": 1,
      "name": "Acme 1024 GPUs", "customer": "Acme", "tags": ["workshop"], "notes": "",
      "exported_at": "2025-11-29T18:00:00+00:00",
      "exported_from": {"scenario_id": 3, "version": 2},
      "scenario": { ...the fields of planner.inputs.scenario.Scenario... }
    }

An import accepts that envelope, or a bare scenario object (what ``scenario_to_json`` writes).
Anything else -- not JSON, another format, an unknown ``schema_version``, unknown keys, values out
of range -- is rejected with :class:`ImportRejectedError` naming the problem, before the store is
touched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from planner.errors import InputError, with_source
from planner.files import parse_text
from planner.i18n import error_text
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.store.fields import clean_customer, clean_name, clean_notes, clean_tags
from planner.store.records import SavedScenario

EXPORT_FORMAT = "gpu-cluster-planner/scenario"
"""The ``format`` of an exported document."""

EXPORT_SCHEMA_VERSION = 1
"""The envelope layout this code writes and reads."""

MAX_IMPORT_BYTES = 5_000_000
"""Largest document accepted [bytes]; a scenario is a few kilobytes."""

_ENVELOPE_MARKERS = ("format", "schema_version")

_T = TypeVar("_T")


@dataclass(frozen=True, kw_only=True)
class ScenarioDocument:
    """A scenario with its label, as read from an import (validated, not yet stored)."""

    name: str
    """The name in the document; empty when it had none."""
    customer: str
    tags: tuple[str, ...]
    notes: str
    scenario: Scenario


class _Origin(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario_id: int = Field(ge=1)
    version: int = Field(ge=1)


class _Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str
    schema_version: int
    name: str = Field(default="", max_length=200)
    customer: str = Field(default="", max_length=200)
    tags: list[str] = Field(default_factory=list)
    notes: str = ""
    exported_at: str | None = None
    exported_from: _Origin | None = None
    scenario: dict[str, Any]


def export_document(saved: SavedScenario, *, exported_at: datetime | None = None) -> dict[str, Any]:
    """The export envelope of one opened version (a JSON-ready mapping)."""
    stamp = exported_at or datetime.now(UTC)
    return {
        "format": EXPORT_FORMAT,
        "schema_version": EXPORT_SCHEMA_VERSION,
        "name": saved.record.name,
        "customer": saved.record.customer,
        "tags": list(saved.record.tags),
        "notes": saved.record.notes,
        "exported_at": stamp.isoformat(),
        "exported_from": {"scenario_id": saved.record.id, "version": saved.version.version},
        "scenario": saved.scenario.model_dump(mode="json"),
    }


def export_json(saved: SavedScenario, *, exported_at: datetime | None = None) -> str:
    """The export envelope as indented JSON text (UTF-8, Chinese kept readable)."""
    return json.dumps(export_document(saved, exported_at=exported_at), indent=2, ensure_ascii=False) + "\n"


def _decode(text: str | bytes, *, source: str) -> Any:
    """The JSON value of a document (strict JSON by :func:`planner.files.parse_text`), after the
    size check; a text is read as the UTF-8 it would be in a file."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_IMPORT_BYTES:
        raise InputError(
            msg(
                "{source}: larger than {limit:,} bytes; not a scenario export",
                source=source,
                limit=MAX_IMPORT_BYTES,
            )
        )
    return parse_text(raw, name=source, error=InputError, syntax="json")


def _labelled(source: str, build: Callable[[], _T]) -> _T:
    """Run a field cleaner, prefixing its message with the document's name."""
    try:
        return build()
    except InputError as exc:
        raise InputError(with_source(source, error_text(exc))) from None


def parse_document(text: str | bytes, *, source: str = "import") -> ScenarioDocument:
    """Read and validate an exported document (or a bare scenario object).

    Parameters
    ----------
    text
        The file's content.
    source
        How to name the document in messages (a file name).

    Raises
    ------
    InputError
        The document is malformed, of another format or an unknown schema version, or a value is
        out of range; the message names the field. (The store re-raises it as
        :class:`~planner.store.errors.ImportRejectedError`.)
    """
    data = _decode(text, source=source)
    if not isinstance(data, dict):
        raise InputError(
            msg(
                "{source}: expected a JSON object (a scenario export), got a {type}",
                source=source,
                type=type(data).__name__,
            )
        )
    if not any(marker in data for marker in _ENVELOPE_MARKERS):
        scenario = scenario_from_data(data, source=source)
        return ScenarioDocument(name="", customer="", tags=(), notes="", scenario=scenario)
    if data.get("format") != EXPORT_FORMAT:
        raise InputError(
            msg(
                "{source}: format: expected {expected} (got {value})",
                source=source,
                expected=repr(EXPORT_FORMAT),
                value=repr(data.get("format")),
            )
        )
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise InputError(
            msg(
                "{source}: schema_version: must be a whole number (got {value})",
                source=source,
                value=repr(version),
            )
        )
    if version != EXPORT_SCHEMA_VERSION:
        raise InputError(
            msg(
                "{source}: schema_version {version} is unknown; this planner reads version {known} "
                "(export it again from this version of the planner)",
                source=source,
                version=version,
                known=EXPORT_SCHEMA_VERSION,
            )
        )
    envelope = parse(_Envelope, data, source=source)
    scenario = scenario_from_data(envelope.scenario, source=with_source(source, msg("scenario")))
    return ScenarioDocument(
        name=_labelled(source, lambda: clean_name(envelope.name)) if envelope.name.strip() else "",
        customer=_labelled(source, lambda: clean_customer(envelope.customer)),
        tags=_labelled(source, lambda: clean_tags(envelope.tags)),
        notes=_labelled(source, lambda: clean_notes(envelope.notes)),
        scenario=scenario,
    )
