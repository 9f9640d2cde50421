"""Typed errors of the scenario store.

Each carries a message for a person (the CLI prints it on one line and exits 2; the web app shows
it beside the form). :class:`ConflictError` also carries what the caller tried to save, so the
caller can offer "save as a new scenario" or "reload" and nothing is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.errors import InputError, PlannerError
from planner.i18n.message import msg

if TYPE_CHECKING:
    from planner.inputs.scenario import Scenario


class StoreError(PlannerError):
    """The scenario store cannot do what was asked (database unreachable, record state, ...)."""


class ScenarioNotFoundError(StoreError, LookupError):
    """No saved scenario (or no such version of it) has the requested id."""


class ScenarioDeletedError(StoreError):
    """The scenario is in the trash: restore it before saving to it."""


class ImportRejectedError(StoreError, InputError):
    """An imported document is malformed or of an unknown schema; nothing was changed."""


class ConflictError(StoreError):
    """Someone saved the scenario after the caller loaded it (optimistic locking).

    Nothing was written. ``rejected`` is the scenario the caller tried to save: save it with
    :meth:`ScenarioStore.create` (a new scenario), or reload ``current_version`` and redo the edit.

    Parameters
    ----------
    scenario_id
        The scenario that was saved concurrently.
    expected_version
        The version the caller's edit was based on.
    current_version
        The latest version in the store now.
    rejected
        The scenario the caller tried to save.
    """

    def __init__(
        self, *, scenario_id: int, expected_version: int, current_version: int, rejected: Scenario
    ) -> None:
        self.scenario_id = scenario_id
        self.expected_version = expected_version
        self.current_version = current_version
        self.rejected = rejected
        super().__init__(
            msg(
                "scenario {id} changed since you opened it: you edited version {expected} but version "
                "{current} is the latest. Nothing was saved; save your changes as a new scenario, or "
                "reload version {current} and apply them again",
                id=scenario_id,
                expected=expected_version,
                current=current_version,
            )
        )

    def __reduce__(self) -> tuple[object, ...]:
        # Exceptions pickle by their positional args; ours are keyword-only.
        return (
            _rebuild_conflict,
            (self.scenario_id, self.expected_version, self.current_version, self.rejected),
        )


def _rebuild_conflict(
    scenario_id: int, expected_version: int, current_version: int, rejected: Scenario
) -> ConflictError:
    return ConflictError(
        scenario_id=scenario_id,
        expected_version=expected_version,
        current_version=current_version,
        rejected=rejected,
    )
