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
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from planner.catalog import Catalog, load_catalog
from planner.engine import plan
from planner.errors import InputError, PlannerError, with_source
from planner.files import parse_scenario_export
from planner.i18n import error_text
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.store.audit import AuditTrail
from planner.store.errors import ImportRejectedError
from planner.store.fields import clean_customer, clean_name, clean_notes, clean_tags
from planner.store.models import NAME_MAX_CHARS
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


def export_json(saved: SavedScenario, *, exported_at: datetime | None = None) -> str:
    """The export envelope of one opened version as indented JSON text (UTF-8, Chinese kept
    readable).

    Parameters
    ----------
    saved : SavedScenario
        The opened version.
    exported_at : datetime or None
        Export time; ``None`` for now (UTC).

    Returns
    -------
    str
        The JSON text, ending in a newline: format, schema version, name, customer, tags, notes,
        export time, origin and scenario.
    """
    stamp = exported_at or datetime.now(UTC)
    document = {
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
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


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

    Returns
    -------
    ScenarioDocument
        The document's name, customer, tags, notes and validated scenario.

    Raises
    ------
    InputError
        The document is malformed, of another format or an unknown schema version, or a value is
        out of range; the message names the field. (The store re-raises it as
        :class:`~planner.store.errors.ImportRejectedError`.)
    """
    data = parse_scenario_export(text, source=source, limit_bytes=MAX_IMPORT_BYTES)
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


# -- the store's import and export ----------------------------------------------------------------


class Exchange(AuditTrail):
    """Import and export of saved scenarios as documents (see module notes)."""

    if TYPE_CHECKING:  # provided by planner.store.repository.ScenarioStore, the one subclass
        load: Callable[..., SavedScenario]
        """:meth:`ScenarioStore.load <planner.store.repository.ScenarioStore.load>`."""
        _insert: Callable[..., SavedScenario]

    def _bundled_catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    # -- import and export -----------------------------------------------------------------------

    def export_json(self, *, scenario_id: int, version: int | None = None, audit: bool = True) -> str:
        """One version of a scenario as an export document (JSON text; see :mod:`.exchange`).

        For a role without internal costs the document has no price overrides. The export is
        recorded in the audit log, unless ``audit`` is false: a page that prepares the file
        before anyone asks for it records the download itself (:meth:`record`)."""
        saved = self.load(scenario_id=scenario_id, version=version, include_deleted=True, audit="")
        if not audit:
            return export_json(saved)
        with self._writing() as session:
            self._audit(
                session, action="export", scenario_id=saved.id, version=saved.version.version,
                detail="scenario JSON",
            )  # fmt: skip
        return export_json(saved)

    def import_json(
        self,
        *,
        text: str | bytes,
        source: str = "import",
        name: str | None = None,
        author: str = "",
        catalog: Catalog | None = None,
    ) -> SavedScenario:
        """Save an export document (or a bare scenario object) as a new scenario.

        The whole document is validated first, then planned exactly as a save is (an unknown
        design or GPU, a size the design cannot build, a cooling method the server does not
        support are refused here, not when the scenario is opened); a document that fails
        either raises :class:`ImportRejectedError` and changes nothing.

        Parameters
        ----------
        text
            The document.
        source
            Its name in messages (e.g. the file name).
        name
            Name of the new scenario; default: the document's name, else the scenario's own
            name, else "Imported scenario".
        catalog
            The catalog the scenario is planned on (default: the bundled one).
        """
        try:
            document = parse_document(text, source=source)
            label = clean_name(name) if name is not None else ""
            _plannable(document.scenario, catalog=catalog or self._bundled_catalog(), source=source)
        except InputError as exc:
            raise ImportRejectedError(
                msg("import rejected, nothing was saved: {problem}", problem=error_text(exc))
            ) from None
        label = label or document.name or document.scenario.name.strip() or "Imported scenario"
        return self._insert(
            name=label[:NAME_MAX_CHARS],
            scenario=document.scenario,
            customer=document.customer,
            tags=document.tags,
            notes=document.notes,
            author=author,
            comment=f"imported from {source}"[:2000],
            team=None,
            action="import",
        )


def _plannable(scenario: Scenario, *, catalog: Catalog, source: str) -> None:
    """Plan ``scenario`` as a save would; its error, naming the field, as an :class:`InputError`."""
    try:
        plan(scenario=scenario, catalog=catalog)
    except PlannerError as exc:  # InfeasibleError and CatalogError are refusals of this document too
        raise InputError(with_source(source, error_text(exc))) from None
