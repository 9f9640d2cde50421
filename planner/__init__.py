"""GPU Cluster Planner engine: size, compare and cost GPU cluster network designs.

A pure library (no Streamlit, no network). Entry points take keyword arguments only::

    from planner import load_catalog, Scenario, plan
    result = plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=load_catalog())

The public names are loaded on first use (PEP 562 ``__getattr__``), so ``import planner.cli``
or ``import planner.errors`` does not pay for pandas and the engine; ``from planner import Plan``
works as before.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.catalog import Catalog, load_catalog
    from planner.compare import DEFAULT_DESIGNS, compare, crossovers, default_sizes, sweep
    from planner.engine import Plan, plan
    from planner.errors import CatalogError, InfeasibleError, InputError, PlannerError
    from planner.inputs.scenario import Facility, LinkLengths, Scenario, load_scenario, scenario_from_data
    from planner.outputs import plan_to_dict

_HOMES: dict[str, str] = {
    "Catalog": "planner.catalog",
    "load_catalog": "planner.catalog",
    "DEFAULT_DESIGNS": "planner.compare",
    "compare": "planner.compare",
    "crossovers": "planner.compare",
    "default_sizes": "planner.compare",
    "sweep": "planner.compare",
    "Plan": "planner.engine",
    "plan": "planner.engine",
    "CatalogError": "planner.errors",
    "InfeasibleError": "planner.errors",
    "InputError": "planner.errors",
    "PlannerError": "planner.errors",
    "plan_to_dict": "planner.outputs",
    "Facility": "planner.inputs.scenario",
    "LinkLengths": "planner.inputs.scenario",
    "Scenario": "planner.inputs.scenario",
    "load_scenario": "planner.inputs.scenario",
    "scenario_from_data": "planner.inputs.scenario",
}
"""Public name -> the module that defines it (a fixed table of this package's own modules)."""

__all__ = [
    "DEFAULT_DESIGNS",
    "Catalog",
    "CatalogError",
    "Facility",
    "InfeasibleError",
    "InputError",
    "LinkLengths",
    "Plan",
    "PlannerError",
    "Scenario",
    "compare",
    "crossovers",
    "default_sizes",
    "load_catalog",
    "load_scenario",
    "plan",
    "plan_to_dict",
    "scenario_from_data",
    "sweep",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'planner' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """This package, keeping its public names when a submodule of the same name is imported.

    Importing ``planner.compare`` binds the module as the package attribute ``compare``; with the
    names loaded lazily that would hide the function :func:`planner.compare.compare` from
    ``from planner import compare``. The function wins, as it did when the names were imported
    up front (the submodule stays in ``sys.modules``, where ``from planner.compare import ...``
    finds it).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
