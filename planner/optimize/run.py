"""Optimize: solve the MILP, turn the solution into a normal design, check it with the engine.

The optimizer's result is a scenario with an explicit fabric (switch model per tier, medium per
link class) and facility (cooling, rack limit); :func:`planner.plan` evaluates it, so the BOM,
power, cooling, cost and export code are the same as for any plan. The MILP prices twin-port
modules per port, storage/management per node and every cable of a link class at the scenario's
one length; the engine rounds per switch and prices each cable at the length the plan's layout
orders it at (:mod:`planner.handoff.runs`), and its figures are the ones reported. Its plan is
therefore checked against every limit, and the solve is repeated with the limit tightened by
the overshoot when needed (at most a few times).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pulp

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import InfeasibleError, PlannerError
from planner.fabric.media import LINK_CLASSES
from planner.i18n.message import Message, msg
from planner.inputs.optimize import OptimizeRequest
from planner.inputs.scenario import Scenario
from planner.optimize.model import ModelVars, build_model
from planner.optimize.problem import Problem, prepare
from planner.optimize.solve import SolveOutcome, solve, value
from planner.outputs import plan_to_dict

REPAIR_ROUNDS = 5

OBJECTIVE_UNITS = {"capex": "USD", "tco": "USD", "max-gpus": "GPUs"}
"""What :attr:`OptimizeResult.objective_value` counts, by objective."""


def objective_value(p: Plan, objective: str) -> float:
    """The objective of ``p`` as the engine computes it: CAPEX [USD], TCO [USD] or GPUs.

    The MILP's own objective is an estimate (modules priced per port, storage as a straight
    line, cables at the scenario's one length per link class) and, for ``max-gpus``, counts
    nodes; the figure reported is the engine's.

    Parameters
    ----------
    p : Plan
        The plan.
    objective : str
        ``capex``, ``tco`` or ``max-gpus``.

    Returns
    -------
    float
        CAPEX or TCO [USD], or GPUs [count].
    """
    if objective == "max-gpus":
        return float(p.gpus)
    return float(p.cost.tco_usd if objective == "tco" else p.cost.capex_usd)


def fabric_held_note(p: Plan) -> Message:
    """Why a cost objective can cost more than a point of the bandwidth Pareto front.

    The cost objectives choose switches, media and cooling for the scenario's fabric; its ports
    per GPU and oversubscription stay as set. The bandwidth front
    (:func:`planner.optimize.pareto.bandwidth_front`) varies both, so its cheaper points buy
    less bandwidth per GPU.

    Parameters
    ----------
    p : Plan
        The optimized plan; its topology gives ports per GPU, port speed [Gbit/s] and
        oversubscription.

    Returns
    -------
    Message
        The note, translatable.
    """
    topology = p.topology
    return msg(
        "this design keeps the scenario's {ports} port(s) of {speed:g}G per GPU and "
        "{ratio:g}:1 oversubscription; the bandwidth Pareto front also varies ports per GPU and "
        "oversubscription, so it can list cheaper designs with less bandwidth per GPU",
        ports=topology.ports_per_gpu,
        speed=topology.port_speed_gbit_per_s,
        ratio=topology.oversubscription,
    )


@dataclass(frozen=True)
class OptimizeResult:
    """An optimized design, its plan, and how the solve went."""

    plan: Plan
    scenario: Scenario
    preset_plan: Plan
    objective: str
    objective_value: float
    """The objective as the engine evaluates the plan returned: CAPEX or TCO [USD], or the
    GPU count for ``max-gpus`` (:func:`objective_value`); not the MILP's internal estimate."""
    status: str
    solver: str
    solve_time_s: float
    gap: float | None
    saving_vs_preset_usd: float | None
    choices: dict[str, Any]
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The plan's JSON object plus an ``optimizer`` section."""
        data = plan_to_dict(self.plan)
        data["optimizer"] = {
            "status": self.status,
            "objective": self.objective,
            "objective_value": round(self.objective_value, 2),
            "objective_unit": OBJECTIVE_UNITS[self.objective],
            "solver": self.solver,
            "solve_time_s": round(self.solve_time_s, 4),
            "gap": self.gap,
            "saving_vs_preset_usd": None
            if self.saving_vs_preset_usd is None
            else round(self.saving_vs_preset_usd, 2),
            "preset_capex_usd": round(self.preset_plan.cost.capex_usd, 2),
            "preset_design": self.preset_plan.design_id,
            "choices": self.choices,
            "notes": list(self.notes),
        }
        return data


def _chosen(choice: dict[str, pulp.LpVariable]) -> str | None:
    picked = [key for key, var in choice.items() if value(var) > 0.5]
    return picked[0] if picked else None


def solution_scenario(problem: Problem, v: ModelVars) -> tuple[Scenario, dict[str, Any]]:
    """The scenario (explicit fabric and facility) that the solved model describes.

    Parameters
    ----------
    problem : Problem
        The problem the model was built from.
    v : ModelVars
        The solved model's variables.

    Returns
    -------
    tuple of (Scenario, dict of str to Any)
        The scenario and the names of the choices it holds (tiers, switches, media, cooling,
        nodes).
    """
    tiers = next(t for t, var in v.choice.tiers.items() if value(var) > 0.5)
    leaf = _chosen(v.choice.leaf)
    spine = _chosen(v.choice.spine) if tiers >= 2 else None
    core = _chosen(v.choice.core) if tiers == 3 else None
    cooling = _chosen(v.cooling.choice)
    used_classes = LINK_CLASSES[:tiers]
    link_media: dict[str, str] = {}
    media_names: dict[str, str] = {}
    for link_class in used_classes:
        index = next(i for i, var in v.media.choice[link_class].items() if value(var) > 0.5)
        option = problem.media[link_class][index]
        media_names[link_class] = option.media_id or option.medium
        if option.media_id is not None:
            link_media[link_class] = option.media_id
    base = problem.resolved.fabric
    fabric = base.model_copy(
        update={
            "switch_id": leaf,
            "spine_switch_id": spine,
            "core_switch_id": core if core != spine else None,
            "link_media": link_media,
        }
    )
    nodes = round(value(v.nodes))
    cooling_option = next(c for c in problem.cooling if c.id == cooling)
    facility = problem.scenario.facility.model_dump()
    facility.update({"cooling_id": cooling, "rack_power_limit_kw": cooling_option.rack_limit_kw})
    gpus = problem.scenario.gpus if problem.nodes_fixed is not None else nodes * problem.gpus_per_node
    scenario = problem.scenario.with_updates(
        gpus=gpus, fabric=fabric.model_dump(), facility=facility, name=problem.scenario.name or "optimized"
    )
    choices = {
        "tiers": tiers,
        "leaf_switch": leaf,
        "spine_switch": spine,
        "core_switch": core,
        "media": media_names,
        "cooling": cooling,
        "nodes": nodes,
        "compute_racks": round(value(v.cooling.compute_racks)),
        "network_racks": round(value(v.cooling.network_racks)),
        "cdus": {k: round(value(var)) for k, var in v.cooling.cdus.items() if value(var) > 0.5},
    }
    return scenario, choices


def describe_choices(p: Plan) -> dict[str, Any]:
    """What a plan is built from, read off the plan itself (so it always matches the design).

    Parameters
    ----------
    p : Plan
        The plan.

    Returns
    -------
    dict of str to Any
        Tiers, switch models, medium per link class, cooling id, nodes, compute and network
        racks and CDUs [count].
    """
    forced: dict[str, str] = (
        {str(k): v for k, v in p.scenario.fabric.link_media.items()} if p.scenario.fabric else {}
    )
    return {
        "tiers": p.topology.tiers,
        "leaf_switch": p.switch_models.leaf_id,
        "spine_switch": p.switch_models.spine_id,
        "core_switch": p.switch_models.core_id,
        "media": {m.link_class: forced.get(m.link_class, m.medium) for m in p.media},
        "cooling": p.scenario.facility.cooling_id,
        "nodes": p.nodes,
        "compute_racks": p.racks.compute_racks,
        "network_racks": p.racks.network_racks,
        "cdus": p.cooling.cdus,
    }


def _violations(p: Plan, request: OptimizeRequest) -> dict[str, float]:
    """How far the engine's plan exceeds each limit (positive = broken)."""
    over: dict[str, float] = {}
    if request.budget_usd is not None and p.cost.capex_usd > request.budget_usd * (1 + 1e-9):
        over["budget"] = p.cost.capex_usd - request.budget_usd
    if request.power_cap_kw is not None and p.power.facility_kw > request.power_cap_kw * (1 + 1e-9):
        over["power_cap"] = p.power.facility_kw - request.power_cap_kw
    return over


def explain_infeasible(problem: Problem) -> str:
    """Relax the budget and power cap (elastic slacks) and say which must move, and by how much.

    Parameters
    ----------
    problem : Problem
        The problem no design meets.

    Returns
    -------
    str
        The limits that must move and by how much (budget [USD], power cap [kW]), or why no
        relaxation helps.
    """
    request = problem.request
    if request.budget_usd is None and request.power_cap_kw is None:
        return msg("no design fits: no switch, medium and cooling combination meets the port and rack limits")
    lp, v = build_model(problem, elastic=True)
    outcome = solve(lp, time_limit_s=request.time_limit_s)
    if not outcome.has_solution:
        return msg("no design fits even with the budget and power cap relaxed: the port or rack limits bind")
    size = (
        msg("{gpus} GPUs", gpus=problem.nodes_fixed * problem.gpus_per_node)
        if problem.nodes_fixed is not None
        else msg("one node of {gpus} GPUs", gpus=problem.gpus_per_node)
    )
    parts: list[Message] = []
    budget_short = value(v.slack["budget"]) if "budget" in v.slack else 0.0
    power_short = value(v.slack["power_cap"]) if "power_cap" in v.slack else 0.0
    if power_short > 1e-6 and request.power_cap_kw is not None:
        parts.append(
            msg(
                "power_cap_kw: the cap of {cap_kw:,.0f} kW is below the {need_kw:,.0f} kW "
                "of facility power that {size} need at least (short by {short_kw:,.0f} kW)",
                cap_kw=request.power_cap_kw,
                need_kw=request.power_cap_kw + power_short,
                size=size,
                short_kw=power_short,
            )
        )
    if budget_short > 1e-6 and request.budget_usd is not None:
        parts.append(
            msg(
                "budget_usd: the budget of {budget_usd:,.0f} USD is below the {need_usd:,.0f} USD "
                "the cheapest design for {size} costs (short by {short_usd:,.0f} USD)",
                budget_usd=request.budget_usd,
                need_usd=request.budget_usd + budget_short,
                size=size,
                short_usd=budget_short,
            )
        )
    if not parts:
        return msg("infeasible for a reason the limits do not explain")
    return parts[0] if len(parts) == 1 else msg("{first}; {second}", first=parts[0], second=parts[1])


def _solve_once(problem: Problem) -> tuple[SolveOutcome, ModelVars, float]:
    lp, v = build_model(problem)
    outcome = solve(lp, time_limit_s=problem.request.time_limit_s)
    return outcome, v, value(lp.objective)


@dataclass(frozen=True)
class _Found:
    plan: Plan
    scenario: Scenario
    objective_value: float
    outcome: SolveOutcome
    choices: dict[str, Any]
    notes: tuple[str, ...]


def optimize(*, scenario: Scenario, catalog: Catalog, request: OptimizeRequest) -> OptimizeResult:
    """Find the best design for ``request``; raise :class:`InfeasibleError` naming the binding limit.

    Parameters
    ----------
    scenario : Scenario
        The scenario; its design is the preset.
    catalog : Catalog
        The catalog the designs are built from.
    request : OptimizeRequest
        Objective, limits, open choices and solver time limit [s].

    Returns
    -------
    OptimizeResult
        The best plan and its scenario, the preset plan, the objective value, solver status,
        time [s] and gap [fraction], the saving against the preset [USD], the choices and notes.

    Raises
    ------
    InfeasibleError
        No design meets the limits; the message names each limit that must move and by how much.
    InputError
        The scenario or request is invalid.
    """
    problem = prepare(scenario=scenario, catalog=catalog, request=request)
    preset = plan(scenario=problem.scenario, catalog=catalog)
    preset_ok = not _violations(preset, request)
    try:
        found = _search(problem, catalog)
    except InfeasibleError:
        # The MILP's estimates can be a little off; the preset, checked by the engine, stands.
        if request.objective == "max-gpus" or not preset_ok:
            raise
        found = _Found(
            preset,
            problem.scenario,
            0.0,
            SolveOutcome("optimal", "engine check", 0.0, None),
            {},
            (msg("the preset is the only design found that meets the limits"),),
        )
    if request.objective == "max-gpus":
        found = _extend(found, catalog, request, problem.nodes_max * problem.gpus_per_node)
    notes = list(found.notes)
    result_plan, candidate = found.plan, found.scenario
    saving: float | None = None
    if request.objective != "max-gpus":
        metric = "tco_usd" if request.objective == "tco" else "capex_usd"
        preset_value = float(getattr(preset.cost, metric))
        if preset_ok and preset_value < float(getattr(result_plan.cost, metric)):
            # The MILP prices modules per port, the engine per switch: if that puts the preset
            # ahead, the preset is the answer (it meets the same limits).
            notes.append(msg("the preset is already the cheapest design that meets the limits"))
            candidate, result_plan = problem.scenario, preset
        saving = preset_value - float(getattr(result_plan.cost, metric))
        if not preset_ok:
            notes.append(msg("the preset itself breaks the limits; the saving compares against it anyway"))
        notes.append(fabric_held_note(result_plan))
    if found.outcome.status == "feasible":
        notes.append(msg("time limit reached: the design is feasible, optimality not proven"))
    return OptimizeResult(
        plan=result_plan,
        scenario=candidate,
        preset_plan=preset,
        objective=request.objective,
        objective_value=objective_value(result_plan, request.objective),
        status=found.outcome.status,
        solver=found.outcome.solver,
        solve_time_s=found.outcome.solve_time_s,
        gap=found.outcome.gap,
        saving_vs_preset_usd=saving,
        choices=describe_choices(result_plan),
        notes=tuple(notes),
    )


def _search(problem: Problem, catalog: Catalog) -> _Found:
    """Solve, check with the engine, tighten broken limits by the overshoot and solve again."""
    request = problem.request
    notes: list[str] = []
    working = problem
    total_time = 0.0
    for _ in range(REPAIR_ROUNDS):
        outcome, v, objective_value = _solve_once(working)
        total_time += outcome.solve_time_s
        if not outcome.has_solution:
            raise InfeasibleError(explain_infeasible(problem))
        candidate, choices = solution_scenario(working, v)
        result_plan = plan(scenario=candidate, catalog=catalog)
        over = _violations(result_plan, request)
        if not over:
            timed = SolveOutcome(outcome.status, outcome.solver, total_time, outcome.gap)
            return _Found(result_plan, candidate, objective_value, timed, choices, tuple(notes))
        update: dict[str, float] = {}
        if "budget" in over and working.request.budget_usd is not None:
            update["budget_usd"] = working.request.budget_usd - over["budget"] * 1.01
        if "power_cap" in over and working.request.power_cap_kw is not None:
            update["power_cap_kw"] = working.request.power_cap_kw - over["power_cap"] * 1.01
        if any(x <= 0 for x in update.values()):
            break
        notes.append(msg("engine check tightened {limits} and solved again", limits=", ".join(sorted(over))))
        working = replace(working, request=working.request.model_copy(update=update))
    raise InfeasibleError(explain_infeasible(problem))


def _extend(found: _Found, catalog: Catalog, request: OptimizeRequest, gpus_max: int) -> _Found:
    """Add whole nodes with the same choices while the engine says every limit still holds.

    The MILP prices storage and management as a straight line through the smallest and largest
    size; the engine's step functions can leave room for a few more nodes.
    """
    best_plan, best_scenario = found.plan, found.scenario
    step = best_plan.gpus // max(1, best_plan.nodes)
    added = 0
    while best_plan.gpus + step <= gpus_max:
        try:
            bigger_scenario = best_scenario.with_updates(gpus=best_plan.gpus + step)
            bigger = plan(scenario=bigger_scenario, catalog=catalog)
        except PlannerError:  # a size past some fabric's or facility's limit: the last one fitted
            break
        if _violations(bigger, request):
            break
        best_plan, best_scenario, added = bigger, bigger_scenario, added + 1
    if not added:
        return found
    note = msg("engine check: {added} more node(s) fit with the same choices", added=added)
    return replace(found, plan=best_plan, scenario=best_scenario, notes=(*found.notes, note))
