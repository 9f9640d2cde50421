"""Heat load, liquid/air split, coolant and air flow, CDUs and rack-density feasibility.

Notes
-----
heat [kW] = IT power; liquid [kW] = server heat x capture fraction; air = heat - liquid;
coolant flow [L/min] = liquid / (c_p x dT) / rho x 60; CDUs = ceil(liquid / CDU capacity) + 1
(N+1 redundancy, an assumption of common practice).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog.schema import Cooling
from planner.units import (
    M3_PER_S_TO_CFM,
    airflow_m3_per_s,
    ceil_div,
    coolant_flow_l_per_min,
    kw_to_btu_per_h,
    kw_to_refrigeration_tons,
)


@dataclass(frozen=True)
class CoolingResult:
    method: str
    heat_load_kw: float
    heat_load_btu_per_h: float
    refrigeration_tons: float
    liquid_kw: float
    air_kw: float
    coolant_flow_l_per_min: float
    airflow_m3_per_s: float
    airflow_cfm: float
    cdus: int
    max_rack_kw: float
    cooling_limit_kw_per_rack: float
    density_feasible: bool


def cooling_summary(*, cooling: Cooling, it_kw: float, server_kw: float, max_rack_kw: float) -> CoolingResult:
    """Cooling figures for ``it_kw`` of which ``server_kw`` sits on liquid-cooled servers.

    Parameters
    ----------
    cooling : Cooling
        The cooling method (liquid capture fraction [fraction], coolant and air temperature
        rise [K], CDU capacity [kW], densest rack it cools [kW]).
    it_kw : float
        IT power, equal to the heat load [kW].
    server_kw : float
        The part of ``it_kw`` drawn by servers, the share liquid can capture [kW].
    max_rack_kw : float
        Densest rack of the layout [kW].

    Returns
    -------
    CoolingResult
        Heat load [kW, BTU/h, TR]; liquid = server kW x capture [kW]; air = heat - liquid [kW];
        coolant flow [L/min] and air flow [m^3/s, CFM] (:mod:`planner.units`); CDUs =
        ceil(liquid / CDU capacity) + 1 [count] (N+1); whether the densest rack is within the
        method's limit.
    """
    liquid_kw = server_kw * cooling.liquid_capture_fraction
    air_kw = it_kw - liquid_kw
    flow = coolant_flow_l_per_min(heat_kw=liquid_kw, delta_t_k=cooling.coolant_delta_t_k)
    air = airflow_m3_per_s(heat_kw=air_kw, delta_t_k=cooling.air_delta_t_k)
    cdus = 0
    if liquid_kw > 0 and cooling.cdu_capacity_kw:
        cdus = ceil_div(int(liquid_kw * 1000), int(cooling.cdu_capacity_kw * 1000)) + 1
    return CoolingResult(
        method=cooling.kind,
        heat_load_kw=it_kw,
        heat_load_btu_per_h=kw_to_btu_per_h(it_kw),
        refrigeration_tons=kw_to_refrigeration_tons(it_kw),
        liquid_kw=liquid_kw,
        air_kw=air_kw,
        coolant_flow_l_per_min=flow,
        airflow_m3_per_s=air,
        airflow_cfm=air * M3_PER_S_TO_CFM,
        cdus=cdus,
        max_rack_kw=max_rack_kw,
        cooling_limit_kw_per_rack=cooling.max_rack_kw,
        density_feasible=max_rack_kw <= cooling.max_rack_kw,
    )
