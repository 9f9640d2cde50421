"""What an optimized design changes beyond its objective: cooling, facility power, rack count.

The optimizer minimises one figure (CAPEX, TCO) or maximises the GPUs; it may buy that with a
change the customer cares about as much: air cooling instead of liquid, 29 % more facility power
for a 2.2 % saving. Each such change is named, and a large one is marked so the app asks before
the design is taken over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from planner.engine import Plan

ChangeKind = Literal["cooling", "facility_power", "racks"]

LARGE_FRACTION = 0.10
"""A change of facility power or rack count by more than this share [-] is large: it reaches the
site's power feed or floor space, which a CAPEX saving of a few percent rarely pays for."""


@dataclass(frozen=True)
class MaterialChange:
    """One change of the optimized plan against the preset's, beyond the objective."""

    kind: ChangeKind
    before: float | str
    """The preset plan's value: facility power [kW], racks [count] or the cooling id."""
    after: float | str
    relative: float | None
    """(after - before) / before [-]; ``None`` for the cooling method."""
    large: bool


def material_changes(*, preset: Plan, optimized: Plan) -> tuple[MaterialChange, ...]:
    """The cooling method, facility power and rack count where the optimized plan differs.

    Parameters
    ----------
    preset : Plan
        The plan of the scenario as given.
    optimized : Plan
        The plan the optimizer found.

    Returns
    -------
    tuple of MaterialChange
        Each changed quantity with its value before and after (facility power [kW], racks
        [count] or the cooling id), the relative change [fraction] and whether it is large.

    Notes
    -----
    Facility power is IT power x PUE at maximum load [kW]; a change counts as large above
    :data:`LARGE_FRACTION`, and any change of cooling method is large (it changes the building).

    >>> from planner import Scenario, load_catalog, plan
    >>> catalog = load_catalog()
    >>> liquid = plan(scenario=Scenario(gpus=256), catalog=catalog)
    >>> air = plan(scenario=Scenario(gpus=256, facility={"cooling_id": "air"}), catalog=catalog)
    >>> [c.kind for c in material_changes(preset=liquid, optimized=air)]
    ['cooling', 'facility_power']
    """
    changes: list[MaterialChange] = []
    cooling = (preset.scenario.facility.cooling_id, optimized.scenario.facility.cooling_id)
    if cooling[0] != cooling[1]:
        changes.append(MaterialChange("cooling", cooling[0], cooling[1], None, True))
    for kind, before, after in (
        ("facility_power", preset.power.facility_kw, optimized.power.facility_kw),
        ("racks", float(preset.racks.total), float(optimized.racks.total)),
    ):
        if round(after, 1) == round(before, 1):
            continue
        relative = (after - before) / before if before else None
        large = relative is None or abs(relative) > LARGE_FRACTION
        changes.append(MaterialChange(kind, before, after, relative, large))  # type: ignore[arg-type]
    return tuple(changes)
