"""Published figures the performance model is checked against (``validation/cases/*.yaml``).

See ``validation/README.md`` for what a case is and why calibration and validation cases are
kept apart.
"""

from planner.validation.cases import (
    AREAS,
    CASES_DIR,
    ROLES,
    CaseInputs,
    CaseSource,
    PublishedRange,
    Tolerance,
    ValidationCase,
    by_role,
    calibration_twins,
    contradictions,
    load_cases,
)

__all__ = [
    "AREAS",
    "CASES_DIR",
    "ROLES",
    "CaseInputs",
    "CaseSource",
    "PublishedRange",
    "Tolerance",
    "ValidationCase",
    "by_role",
    "calibration_twins",
    "contradictions",
    "load_cases",
]
