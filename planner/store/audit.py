"""The audit log: who did what, when, as the store's acting (server-side) identity. Rows are only
added; an admin reads everyone's lines, others their own."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from planner.access import Permission
from planner.errors import InputError
from planner.i18n.message import msg
from planner.store.base import _check_paging, _now
from planner.store.models import AuditRow
from planner.store.permissions import PermissionRules
from planner.store.records import AuditEntry

AUDIT_ACTIONS = frozenset(
    {"save", "import", "export", "delete", "restore", "read", "open_share", "sign_in", "refused"}
)
"""What the audit log records (``export``: a scenario file, a proposal, a BOM file)."""


class AuditTrail(PermissionRules):
    """Writing and reading the audit log."""

    def _audit(
        self,
        session: Session,
        *,
        action: str,
        scenario_id: int | None = None,
        version: int | None = None,
        detail: str = "",
    ) -> None:
        if action not in AUDIT_ACTIONS:
            raise InputError(
                msg(
                    "action: must be one of {known} (got {value})",
                    known=", ".join(sorted(AUDIT_ACTIONS)),
                    value=repr(action),
                )
            )
        session.add(
            AuditRow(
                at=_now(),
                actor=self._actor.user,
                role=self._actor.role,
                action=action,
                scenario_id=scenario_id,
                version=version,
                detail=str(detail)[:2000],
            )
        )

    def record(
        self, *, action: str, detail: str, scenario_id: int | None = None, version: int | None = None
    ) -> None:
        """Add a line to the audit log (the app's exports: a proposal, a BOM file)."""
        with self._writing() as session:
            self._audit(session, action=action, scenario_id=scenario_id, version=version, detail=detail)

    def audit_log(self, *, limit: int = 200, offset: int = 0) -> tuple[AuditEntry, ...]:
        """The audit log, newest first; an admin sees everyone's lines, others their own."""
        _check_paging(limit=limit, offset=offset)
        statement = select(AuditRow)
        if not self._actor.can(Permission.ALL_SCENARIOS):
            statement = statement.where(AuditRow.actor == self._actor.user)
        statement = statement.order_by(AuditRow.id.desc()).limit(limit).offset(offset)
        with self._reading() as session:
            return tuple(AuditEntry.from_row(row) for row in session.scalars(statement))
