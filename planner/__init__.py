"""GPU Cluster Planner engine: size, compare and cost GPU cluster network designs.

A pure library (no Streamlit, no network). Entry points take keyword arguments only::

    from planner import load_catalog, Scenario, plan
    result = plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=load_catalog())
"""

from __future__ import annotations

from planner.catalog import Catalog, load_catalog
from planner.compare import DEFAULT_DESIGNS, compare, crossovers, default_sizes, sweep
from planner.engine import Plan, plan
from planner.errors import CatalogError, InfeasibleError, InputError, PlannerError
from planner.outputs import plan_to_dict
from planner.scenario import Facility, LinkLengths, Scenario, load_scenario, scenario_from_data

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
