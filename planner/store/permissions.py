"""Who may read, write and list which saved scenarios, as the store applies it: each rule is
:mod:`planner.access`'s, checked on the row the database returns (never on what a caller says)."""

from __future__ import annotations

import dataclasses

from sqlalchemy import ColumnElement, or_

from planner.access import (
    TEAM_MAX_CHARS,
    AccessDeniedError,
    Permission,
    may_read,
    may_write,
    require,
    strip_internal_pricing,
)
from planner.i18n.message import msg
from planner.store.base import StoreBase
from planner.store.models import ScenarioRow
from planner.store.records import SavedScenario


class PermissionRules(StoreBase):
    """The access checks every store operation goes through."""

    def _need(self, permission: Permission, what: str) -> None:
        require(identity=self._actor, permission=permission, what=what)

    def _readable(self, row: ScenarioRow) -> ScenarioRow:
        self._need(Permission.SCENARIOS, "saved scenarios")
        if not may_read(identity=self._actor, owner=row.owner, team=row.team):
            raise AccessDeniedError(
                msg("scenario {id}: not shared with {user}", id=row.id, user=self._actor.user)
            )
        return row

    def _writable(self, row: ScenarioRow) -> ScenarioRow:
        self._readable(row)
        if not may_write(identity=self._actor, owner=row.owner, team=row.team):  # pragma: no cover
            raise AccessDeniedError(
                msg("scenario {id}: not shared with {user}", id=row.id, user=self._actor.user)
            )
        return row

    def _visible(self) -> ColumnElement[bool] | None:
        """The rows this actor may list; ``None``: every row."""
        self._need(Permission.SCENARIOS, "saved scenarios")
        if self._actor.can(Permission.ALL_SCENARIOS):
            return None
        teams = [team for team in self._actor.teams if team]
        mine = ScenarioRow.owner == self._actor.user
        return or_(mine, ScenarioRow.team.in_(teams)) if teams else mine

    def _shown(self, saved: SavedScenario) -> SavedScenario:
        """``saved`` as the actor may see it (no internal prices for roles without costs)."""
        scenario = strip_internal_pricing(identity=self._actor, scenario=saved.scenario)
        return saved if scenario is saved.scenario else dataclasses.replace(saved, scenario=scenario)

    def _team(self, team: str | None) -> str:
        wanted = self._actor.team if team is None else " ".join(str(team).split())[:TEAM_MAX_CHARS]
        if wanted and wanted not in self._actor.teams and not self._actor.can(Permission.ALL_SCENARIOS):
            raise AccessDeniedError(
                msg("team: {user} is not a member of {team}", user=self._actor.user, team=repr(wanted))
            )
        return wanted
