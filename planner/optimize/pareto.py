"""Pareto fronts by the epsilon-constraint method; every point is a full design with its plan.

- cost vs facility power: minimise CAPEX subject to facility power <= epsilon, for epsilon from
  the cheapest design's power down to the least power any design needs;
- cost vs per-GPU bandwidth: the fabric variants (ports per GPU, oversubscription) each solved
  for minimum CAPEX; for every bandwidth level epsilon, the cheapest variant with at least
  epsilon of effective per-GPU bandwidth.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.i18n.message import msg
from planner.inputs.optimize import OptimizeRequest
from planner.inputs.scenario import Scenario
from planner.optimize.model import build_model
from planner.optimize.problem import prepare
from planner.optimize.run import optimize, solution_scenario
from planner.optimize.solve import solve
from planner.progress import Steps, checkpoint
from planner.resolve import resolve

OVERSUBSCRIPTIONS = (1.0, 2.0, 3.0)
PORTS_PER_GPU = (1, 2, 4, 8)


@dataclass(frozen=True)
class ParetoPoint:
    label: str
    capex_usd: float
    facility_kw: float
    per_gpu_gbit_per_s: float
    """Effective per-GPU network bandwidth: ports x speed / oversubscription [Gb/s]."""
    scenario: Scenario
    plan: Plan


def _point(label: str, p: Plan, scenario: Scenario) -> ParetoPoint:
    return ParetoPoint(
        label=label,
        capex_usd=p.cost.capex_usd,
        facility_kw=p.power.facility_kw,
        per_gpu_gbit_per_s=p.bandwidth.per_gpu_gbit_per_s / p.topology.oversubscription,
        scenario=scenario,
        plan=p,
    )


def _non_dominated(points: list[ParetoPoint], *, key: str) -> tuple[ParetoPoint, ...]:
    """Keep points no other point beats on both CAPEX and ``key`` (power: lower; bandwidth: higher)."""
    sign = 1.0 if key == "facility_kw" else -1.0
    ordered = sorted(points, key=lambda x: (sign * getattr(x, key), x.capex_usd))
    front: list[ParetoPoint] = []
    for candidate in ordered:
        if not front or candidate.capex_usd < front[-1].capex_usd - 1e-6:
            front.append(candidate)
    return tuple(front)


def power_front(
    *,
    scenario: Scenario,
    catalog: Catalog,
    request: OptimizeRequest,
    points: int = 6,
    steps: Steps | None = None,
) -> tuple[ParetoPoint, ...]:
    """CAPEX vs facility power, cheapest first; ``steps`` hears of each solve and may stop the
    front (:mod:`planner.progress`).

    Parameters
    ----------
    scenario : Scenario
        The scenario whose design is optimized.
    catalog : Catalog
        The catalog the designs are built from.
    request : OptimizeRequest
        Limits, choices and the solver time limit [s]; its objective and power cap are replaced.
    points : int
        Points of the front, 2 to 50 [count].
    steps : Steps or None
        Progress listener; may stop the front.

    Returns
    -------
    tuple of ParetoPoint
        Each point's label, CAPEX [USD], facility power [kW], per-GPU bandwidth [Gbit/s],
        scenario and plan.

    Raises
    ------
    InputError
        ``points`` is below 2.
    InfeasibleError
        No design meets the limits.
    """
    if points < 2:
        raise InputError(msg("points: a front needs at least 2 points (allowed: 2 to 50)"))
    capex_request = request.model_copy(update={"objective": "capex", "power_cap_kw": None})
    cheapest = optimize(scenario=scenario, catalog=catalog, request=capex_request)
    problem = prepare(scenario=scenario, catalog=catalog, request=capex_request)
    lp, v = build_model(problem, objective="power")
    outcome = solve(lp, time_limit_s=request.time_limit_s)
    if not outcome.has_solution:
        raise InfeasibleError(msg("no design meets the limits, so there is no front"))
    lean_scenario, _ = solution_scenario(problem, v)
    from planner.engine import plan

    lean_kw = plan(scenario=lean_scenario, catalog=catalog).power.facility_kw
    high_kw = cheapest.plan.power.facility_kw
    found = [_point("min CAPEX", cheapest.plan, cheapest.scenario)]
    for step in range(1, points):
        checkpoint(steps, done=step, total=points)
        cap = high_kw - (high_kw - lean_kw) * step / (points - 1)
        try:
            result = optimize(
                scenario=scenario,
                catalog=catalog,
                request=capex_request.model_copy(update={"power_cap_kw": max(cap, 1e-3)}),
            )
        except InfeasibleError:
            continue
        found.append(_point(f"<= {cap:,.0f} kW", result.plan, result.scenario))
    return _non_dominated(found, key="facility_kw")


def bandwidth_front(
    *, scenario: Scenario, catalog: Catalog, request: OptimizeRequest, steps: Steps | None = None
) -> tuple[ParetoPoint, ...]:
    """CAPEX vs effective per-GPU bandwidth over the fabric variants of the scenario's design;
    ``steps`` hears of each variant solved and may stop the front (:mod:`planner.progress`).

    Parameters
    ----------
    scenario : Scenario
        The scenario whose fabric is varied (ports per GPU, oversubscription).
    catalog : Catalog
        The catalog the designs are built from.
    request : OptimizeRequest
        Limits and choices; the objective is CAPEX.
    steps : Steps or None
        Progress listener; may stop the front.

    Returns
    -------
    tuple of ParetoPoint
        The non-dominated points: label, CAPEX [USD], facility power [kW], per-GPU bandwidth
        [Gbit/s], scenario and plan.
    """
    base = resolve(scenario=scenario, catalog=catalog).fabric
    capex_request = request.model_copy(update={"objective": "capex"})
    planes_follow_ports = base.planes == base.ports_per_gpu
    candidates: list[ParetoPoint] = []
    for index, ports in enumerate(PORTS_PER_GPU):
        checkpoint(steps, done=index, total=len(PORTS_PER_GPU))
        planes = ports if planes_follow_ports else base.planes
        if ports % planes and planes % ports:
            continue
        for ratio in OVERSUBSCRIPTIONS:
            fabric = base.model_copy(
                update={"ports_per_gpu": ports, "planes": planes, "oversubscription": ratio}
            )
            variant = scenario.with_updates(fabric=fabric.model_dump())
            try:
                result = optimize(scenario=variant, catalog=catalog, request=capex_request)
            except (InfeasibleError, InputError):
                continue
            label = f"{ports} x {base.port_speed_gbit_per_s}G, {ratio:g}:1"
            candidates.append(_point(label, result.plan, result.scenario))
    levels = sorted({c.per_gpu_gbit_per_s for c in candidates})
    front = []
    for epsilon in levels:
        eligible = [c for c in candidates if c.per_gpu_gbit_per_s >= epsilon - 1e-9]
        front.append(min(eligible, key=lambda c: (c.capex_usd, -c.per_gpu_gbit_per_s)))
    unique = {id(p): p for p in front}
    return _non_dominated(list(unique.values()), key="per_gpu_gbit_per_s")
