"""What the store hands back: frozen, picklable records (never ORM objects).

Streamlit can cache them, and they cannot change under the caller's feet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from planner.inputs.scenario import Scenario


def iso(stamp: datetime | None) -> str | None:
    """A timestamp as ISO 8601 text (UTC), or ``None``."""
    return None if stamp is None else stamp.isoformat()


@dataclass(frozen=True, kw_only=True)
class ScenarioSummary:
    """One saved scenario as a list shows it: label, latest version and headline inputs."""

    id: int
    name: str
    customer: str
    notes: str
    tags: tuple[str, ...]
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (timestamps as ISO 8601 UTC text)."""
        return {
            "id": self.id,
            "name": self.name,
            "customer": self.customer,
            "tags": list(self.tags),
            "notes": self.notes,
            "version": self.version,
            "gpus": self.gpus,
            "design_id": self.design_id,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "deleted_at": iso(self.deleted_at),
            "owner": self.owner,
            "team": self.team,
        }


@dataclass(frozen=True, kw_only=True)
class VersionInfo:
    """One save of a scenario."""

    scenario_id: int
    version: int
    saved_at: datetime
    author: str
    comment: str
    gpus: int
    """GPUs requested in this version [count]."""
    design_id: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "scenario_id": self.scenario_id,
            "version": self.version,
            "saved_at": iso(self.saved_at),
            "author": self.author,
            "comment": self.comment,
            "gpus": self.gpus,
            "design_id": self.design_id,
        }


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
class AuditEntry:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "id": self.id,
            "at": iso(self.at),
            "actor": self.actor,
            "role": self.role,
            "action": self.action,
            "scenario_id": self.scenario_id,
            "version": self.version,
            "detail": self.detail,
        }
