"""What the store hands back: frozen, picklable records (never ORM objects).

Streamlit can cache them, and they cannot change under the caller's feet.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Self

from planner.inputs.scenario import Scenario


def iso(stamp: datetime | None) -> str | None:
    """A timestamp as ISO 8601 text (UTC), or ``None``.

    Parameters
    ----------
    stamp : datetime or None
        A timestamp.

    Returns
    -------
    str or None
        The ISO 8601 text.
    """
    return None if stamp is None else stamp.isoformat()


def _json_ready(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, kw_only=True)
class _Record:
    """A frozen record of the store: read from a database row, written as JSON-ready fields."""

    @classmethod
    def from_row(cls, row: object, **given: Any) -> Self:
        """The record of an ORM ``row``: the fields in ``given`` as given, every other field from the
        row's attribute of the same name."""
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
        return cls(**{name: given[name] if name in given else getattr(row, name) for name in names})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields, in their declared order (timestamps as ISO 8601 UTC text, tuples as
        lists)."""
        return {f.name: _json_ready(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True, kw_only=True)
class ScenarioSummary(_Record):
    """One saved scenario as a list shows it: label, latest version and headline inputs."""

    id: int
    name: str
    customer: str
    tags: tuple[str, ...]
    notes: str
    version: int
    """The latest version; pass it as ``expected_version`` when saving an edit of it."""
    gpus: int
    """GPUs requested in the latest version [count]."""
    design_id: str
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    """When it was moved to the trash; ``None`` while it is live."""
    owner: str = "local"
    """Who created it (``local``: saved without sign-in)."""
    team: str = ""
    """The team it is shared with (``""``: its owner only)."""

    @property
    def deleted(self) -> bool:
        """Whether the scenario is in the trash (soft-deleted, restorable)."""
        return self.deleted_at is not None


@dataclass(frozen=True, kw_only=True)
class VersionInfo(_Record):
    """One save of a scenario."""

    scenario_id: int
    version: int
    saved_at: datetime
    author: str
    comment: str
    gpus: int
    """GPUs requested in this version [count]."""
    design_id: str


@dataclass(frozen=True, kw_only=True)
class SavedScenario:
    """One version of a saved scenario, opened: the record, the version and its inputs."""

    record: ScenarioSummary
    """The scenario as it is now (name, tags, latest version, ...)."""
    version: VersionInfo
    """The version that was opened (the latest unless another was asked for)."""
    scenario: Scenario
    """The inputs saved in that version, exactly as they were saved."""

    @property
    def id(self) -> int:
        """The scenario's id."""
        return self.record.id

    @property
    def is_latest(self) -> bool:
        """Whether the opened version is the latest one."""
        return self.version.version == self.record.version


@dataclass(frozen=True, kw_only=True)
class AuditEntry(_Record):
    """One line of the audit log: who did what, when."""

    id: int
    at: datetime
    actor: str
    """The user (an e-mail or subject; ``local`` without sign-in)."""
    role: str
    action: str
    """``save``, ``import``, ``export``, ``delete``, ``restore`` or an export of the app (``export``)."""
    scenario_id: int | None
    version: int | None
    detail: str
