"""The public functions of the documented packages say what they take and give, with units.

Each public function (as ``make docs`` lists it: :func:`tools.api_docs.public_members`) of the
packages below has a numpydoc ``Parameters`` section when it takes arguments and a ``Returns``
(or ``Yields``) section when it returns a value; ``tools/api_docs.py`` turns both into the API
reference's headings. The rest of the engine is documented by its owners and joins this list
when its sections are written.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from types import ModuleType

import pytest

from tools.api_docs import public_members

DOCUMENTED = (
    "planner.access",
    "planner.atomic",
    "planner.catalog",
    "planner.cli",
    "planner.cost",
    "planner.decision",
    "planner.design",
    "planner.errors",
    "planner.fabric",
    "planner.facility",
    "planner.files",
    "planner.handoff",
    "planner.i18n",
    "planner.inputs",
    "planner.jobmix",
    "planner.measure",
    "planner.optimize",
    "planner.outputs",
    "planner.performance.optic_failures",
    "planner.performance.reliability",
    "planner.performance.serving",
    "planner.performance.training",
    "planner.performance.uncertainty",
    "planner.performance.workload",
    "planner.progress",
    "planner.queueing",
    "planner.report",
    "planner.resolve",
    "planner.sheets",
    "planner.store",
    "planner.sweep",
    "planner.tenancy",
    "planner.units",
    "planner.validation",
)
"""Packages and modules whose public functions carry both sections."""
PARAMETERS = re.compile(r"^Parameters\n-{3,}$", re.MULTILINE)
RETURNS = re.compile(r"^(Returns|Yields)\n-{3,}$", re.MULTILINE)


def _documented() -> Iterator[ModuleType]:
    """Every module of :data:`DOCUMENTED`, imported (only those: not the whole engine)."""
    for name in DOCUMENTED:
        module = importlib.import_module(name)
        yield module
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{name}."):
            yield importlib.import_module(info.name)


def missing_sections(function: object) -> list[str]:
    """The sections ``function``'s docstring lacks: ``Parameters`` when it takes an argument,
    ``Returns`` when its annotation is not ``None``."""
    assert inspect.isfunction(function)
    doc = inspect.getdoc(function) or ""
    signature = inspect.signature(function)
    missing = []
    if signature.parameters and not PARAMETERS.search(doc):
        missing.append("Parameters")
    if signature.return_annotation not in (None, "None", inspect.Signature.empty) and not RETURNS.search(doc):
        missing.append("Returns")
    return missing


FUNCTIONS = [
    (f"{module.__name__}.{name}", obj)
    for module in _documented()
    for name, obj in public_members(module)
    if inspect.isfunction(obj)
]


def test_the_documented_packages_have_public_functions() -> None:
    assert len(FUNCTIONS) >= 60
    assert {name.rsplit(".", 1)[0] for name, _ in FUNCTIONS} >= {
        "planner.units",
        "planner.cost",
        "planner.queueing",
    }


@pytest.mark.parametrize(("name", "function"), FUNCTIONS, ids=[name for name, _ in FUNCTIONS])
def test_public_function_has_parameters_and_returns(name: str, function: object) -> None:
    assert missing_sections(function) == [], f"{name}: add the sections with units (numpydoc)"


def test_the_check_can_fail() -> None:
    def undocumented(x_w: float) -> float:
        """Kilowatts."""
        return x_w / 1000

    def documented(x_w: float) -> float:
        """Kilowatts.

        Parameters
        ----------
        x_w
            Power [W].

        Returns
        -------
        float
            Power [kW].
        """
        return x_w / 1000

    assert missing_sections(undocumented) == ["Parameters", "Returns"]
    assert missing_sections(documented) == []
