"""The mixed-integer program, built as a list of steps (PyPSA's ``define_*`` style).

Per plane (planes are identical copies, so every count is multiplied by ``planes``):

- choices: one leaf, one spine and one core switch model (binaries ``y``), one tier structure
  (``t1``, ``t2``, ``t3``), one medium per link class (``z``), one cooling method (``w``);
- counts (integers): nodes ``N`` (fixed, or the decision when maximising GPUs), leaves ``L_m``,
  spines ``S_m``, cores ``C_m``, pods ``P``, leaf uplinks ``U``, racks, CDUs;
- ports: one switch when ``N q <= k``; leaves per rail ``>= N / d_m`` (rail-optimized) or
  ``>= N / floor(d_m / q)``; ``U = sum u_m L_m``; two tiers: ``sum k_S S >= U`` and
  ``leaves <= k_S``; three tiers: pods ``P >= leaves / (k_S / 2)``, spines ``= P u``,
  ``k_C C >= U``, ``P <= k_C``; media cost ``= links x cost per link`` (linearised with big-M);
- limits: rack power and space per cooling method, facility power ``PUE_j x IT <= cap``,
  ``CAPEX <= budget``;
- objective: CAPEX, TCO, or GPUs (ties broken by CAPEX).

Variables live in dicts keyed by catalog id; constraint names are structured
(``budget``, ``power_cap``, ``leaf_rule__<id>``...), never looked up by name in results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pulp

from planner.fabric.media import LINK_CLASSES, LinkClass
from planner.optimize.problem import Problem

ModelObjective = Literal["capex", "tco", "max-gpus", "power"]
ELASTIC_LIMITS = ("budget", "power_cap")


@dataclass
class ModelVars:
    """Handles to the variables and expressions of one model."""

    nodes: pulp.LpVariable | int
    tiers: dict[int, pulp.LpVariable]
    leaf_choice: dict[str, pulp.LpVariable]
    spine_choice: dict[str, pulp.LpVariable]
    core_choice: dict[str, pulp.LpVariable]
    leaves: dict[str, pulp.LpVariable]
    spines: dict[str, pulp.LpVariable]
    cores: dict[str, pulp.LpVariable]
    media_choice: dict[LinkClass, dict[int, pulp.LpVariable]]
    cooling_choice: dict[str, pulp.LpVariable]
    compute_racks: pulp.LpVariable
    network_racks: pulp.LpVariable
    cdus: dict[str, pulp.LpVariable]
    capex: pulp.LpAffineExpression
    hardware: pulp.LpAffineExpression
    opex: pulp.LpAffineExpression
    tco: pulp.LpAffineExpression
    it_kw: pulp.LpAffineExpression
    facility_kw: pulp.LpVariable
    slack: dict[str, pulp.LpVariable] = field(default_factory=dict)


def _binaries(lp: pulp.LpProblem, prefix: str, keys: list[str]) -> dict[str, pulp.LpVariable]:
    return {k: lp.add_variable(f"{prefix}__{k}", cat=pulp.LpBinary) for k in keys}


def _integers(lp: pulp.LpProblem, prefix: str, keys: list[str], upper: int) -> dict[str, pulp.LpVariable]:
    return {k: lp.add_variable(f"{prefix}__{k}", lowBound=0, upBound=upper, cat=pulp.LpInteger) for k in keys}


def build_model(
    problem: Problem, *, objective: ModelObjective | None = None, elastic: bool = False
) -> tuple[pulp.LpProblem, ModelVars]:
    """Build the MILP for ``problem``.

    Parameters
    ----------
    objective
        Overrides the request's objective (``"power"`` minimises facility power: used for Pareto
        fronts).
    elastic
        Add non-negative slacks to the budget and power cap and minimise them (normalised): the
        slacks then say by how much each limit must move for a design to exist.
    """
    p = problem
    goal: ModelObjective = objective or p.request.objective
    sense = pulp.LpMaximize if goal == "max-gpus" and not elastic else pulp.LpMinimize
    lp = pulp.LpProblem("cluster_bom", sense)
    q, planes = p.ports_per_node_per_plane, p.planes

    # --- step 1: nodes -----------------------------------------------------------------
    nodes: pulp.LpVariable | int
    if p.nodes_fixed is not None:
        nodes = p.nodes_fixed
    else:
        nodes = lp.add_variable("nodes", lowBound=1, upBound=p.nodes_max, cat=pulp.LpInteger)
    big_nodes = p.nodes_max
    big_leaves = p.nodes_max * q
    max_up = max(o.up for o in p.leaf_options)
    big_links = big_leaves * max_up

    # --- step 2: choices ---------------------------------------------------------------
    tiers = {t: lp.add_variable(f"tiers__{t}", cat=pulp.LpBinary) for t in (1, 2, 3)}
    lp += pulp.lpSum(tiers.values()) == 1, "one_tier_structure"
    leaf_ids = [o.id for o in p.leaf_options]
    spine_ids = [o.id for o in p.spine_options]
    core_ids = [o.id for o in p.core_options]
    y_leaf = _binaries(lp, "leaf_model", leaf_ids)
    y_spine = _binaries(lp, "spine_model", spine_ids)
    y_core = _binaries(lp, "core_model", core_ids)
    lp += pulp.lpSum(y_leaf.values()) == 1, "one_leaf_model"
    lp += pulp.lpSum(y_spine.values()) == tiers[2] + tiers[3], "one_spine_model_if_spines"
    lp += pulp.lpSum(y_core.values()) == tiers[3], "one_core_model_if_cores"

    # --- step 3: leaves ----------------------------------------------------------------
    leaves = _integers(lp, "leaves", leaf_ids, big_leaves)
    per_rail = _integers(lp, "leaves_per_rail", leaf_ids, big_nodes)
    lp += (
        nodes * q <= pulp.lpSum(o.radix * y_leaf[o.id] for o in p.leaf_options) + big_leaves * (1 - tiers[1]),
        "single_switch_holds_all_ports",
    )
    for o in p.leaf_options:
        lp += leaves[o.id] >= y_leaf[o.id], f"leaf_at_least_one__{o.id}"
        lp += leaves[o.id] <= big_leaves * y_leaf[o.id], f"leaf_only_if_chosen__{o.id}"
        off = big_leaves * (1 - y_leaf[o.id]) + big_leaves * tiers[1]
        if p.rail_optimized:
            lp += (
                o.down * per_rail[o.id] >= nodes - big_nodes * (1 - y_leaf[o.id]) - big_nodes * tiers[1],
                (f"leaf_rule_rail__{o.id}"),
            )
            lp += leaves[o.id] >= q * per_rail[o.id], f"leaf_rails__{o.id}"
        elif o.down // q == 0:
            lp += y_leaf[o.id] <= tiers[1], f"leaf_too_small_for_a_node__{o.id}"
        else:
            lp += (o.down // q) * leaves[o.id] >= nodes - off * (o.down // q), f"leaf_rule_nodes__{o.id}"
    all_leaves = pulp.lpSum(leaves.values())
    uplinks = lp.add_variable("leaf_uplinks", lowBound=0, upBound=big_links, cat=pulp.LpInteger)
    lp += uplinks >= pulp.lpSum(o.up * leaves[o.id] for o in p.leaf_options) - big_links * tiers[1], "uplinks"

    # --- step 4: spines and cores ------------------------------------------------------
    spines = _integers(lp, "spines", spine_ids, big_links)
    cores = _integers(lp, "cores", core_ids, big_links)
    pods = lp.add_variable("pods", lowBound=0, upBound=big_leaves, cat=pulp.LpInteger)
    lp += (
        all_leaves
        <= pulp.lpSum(o.radix * y_spine[o.id] for o in p.spine_options) + big_leaves * (1 - tiers[2]),
        "two_tier_spine_reaches_every_leaf",
    )
    for o in p.spine_options:
        lp += spines[o.id] <= big_links * y_spine[o.id], f"spine_only_if_chosen__{o.id}"
        lp += (
            o.radix * spines[o.id] >= uplinks - big_links * (1 - y_spine[o.id]) - big_links * tiers[3],
            (f"spine_ports_two_tier__{o.id}"),
        )
        lp += (
            (o.radix // 2) * pods
            >= all_leaves - big_leaves * (1 - y_spine[o.id]) - big_leaves * (1 - tiers[3]),
            f"pods__{o.id}",
        )
        for leaf in p.leaf_options:
            lp += (
                spines[o.id] >= leaf.up * pods - big_links * (3 - y_leaf[leaf.id] - y_spine[o.id] - tiers[3]),
                f"spines_per_pod__{leaf.id}__{o.id}",
            )
    for o in p.core_options:
        lp += cores[o.id] <= big_links * y_core[o.id], f"core_only_if_chosen__{o.id}"
        lp += o.radix * cores[o.id] >= uplinks - big_links * (1 - y_core[o.id]), f"core_ports__{o.id}"
    lp += (
        pods <= pulp.lpSum(o.radix * y_core[o.id] for o in p.core_options) + big_leaves * (1 - tiers[3]),
        ("cores_reach_every_pod"),
    )
    spine_core_links = lp.add_variable("spine_core_links", lowBound=0, upBound=big_links, cat=pulp.LpInteger)
    lp += spine_core_links >= uplinks - big_links * (1 - tiers[3]), "spine_core_links"

    # --- step 5: media -----------------------------------------------------------------
    links: dict[LinkClass, pulp.LpAffineExpression] = {
        "node_leaf": pulp.LpAffineExpression(nodes * q) if isinstance(nodes, int) else nodes * q,
        "leaf_spine": pulp.LpAffineExpression(uplinks),
        "spine_core": pulp.LpAffineExpression(spine_core_links),
    }
    big_class = {"node_leaf": big_nodes * q, "leaf_spine": big_links, "spine_core": big_links}
    z: dict[LinkClass, dict[int, pulp.LpVariable]] = {}
    media_cost = []
    media_power = []
    node_end_power = []
    for link_class in LINK_CLASSES:
        z[link_class] = {}
        for index, option in enumerate(p.media[link_class]):
            choice = lp.add_variable(f"media__{link_class}__{index}", cat=pulp.LpBinary)
            carried = lp.add_variable(f"media_links__{link_class}__{index}", lowBound=0)
            lp += (
                carried >= links[link_class] - big_class[link_class] * (1 - choice),
                (f"media_links__{link_class}__{index}"),
            )
            z[link_class][index] = choice
            media_cost.append(option.cost_usd_per_link * carried)
            media_power.append(option.power_w_per_link * carried)
            node_end_power.append(option.node_end_power_w_per_link * carried)
        lp += pulp.lpSum(z[link_class].values()) == 1, f"one_medium__{link_class}"

    # --- step 6: power -----------------------------------------------------------------
    switch_counts = [(leaves, p.leaf_options), (spines, p.spine_options), (cores, p.core_options)]
    switch_power_w = planes * pulp.lpSum(o.power_max_w * v[o.id] for v, opts in switch_counts for o in opts)
    switch_cost = planes * pulp.lpSum(o.unit_cost_usd * v[o.id] for v, opts in switch_counts for o in opts)
    switch_units = planes * pulp.lpSum(o.rack_units * v[o.id] for v, opts in switch_counts for o in opts)
    aux_cost = p.aux.cost_usd[0] + p.aux.cost_usd[1] * nodes
    aux_power = p.aux.power_w[0] + p.aux.power_w[1] * nodes
    aux_units = p.aux.rack_units[0] + p.aux.rack_units[1] * nodes
    # servers carry the node-end optics; network racks carry switches, switch-end optics, storage
    server_w = p.node_power_w * nodes + planes * pulp.lpSum(node_end_power)
    infra_w = switch_power_w + planes * (pulp.lpSum(media_power) - pulp.lpSum(node_end_power)) + aux_power
    it_kw = (server_w + infra_w) / 1000.0
    infra_kw = infra_w / 1000.0
    big_kw = (p.node_power_w * p.nodes_max * 4 + 1e6) / 1000.0

    # --- step 7: cooling, racks, CDUs --------------------------------------------------
    cooling_ids = [c.id for c in p.cooling]
    w = _binaries(lp, "cooling", cooling_ids)
    lp += pulp.lpSum(w.values()) == 1, "one_cooling_method"
    facility_kw = lp.add_variable("facility_kw", lowBound=0)
    cooling_cost = []
    cdus: dict[str, pulp.LpVariable] = {}
    compute_racks = lp.add_variable("compute_racks", lowBound=0, cat=pulp.LpInteger)
    network_racks = lp.add_variable("network_racks", lowBound=1, cat=pulp.LpInteger)
    usable_infra_units = max(1, int(p.usable_rack_units * p.network_fill_fraction))
    lp += usable_infra_units * network_racks >= switch_units + aux_units, "network_rack_space"
    for c in p.cooling:
        lp += facility_kw >= c.pue * it_kw - c.pue * big_kw * (1 - w[c.id]), f"facility_power__{c.id}"
        covered = lp.add_variable(f"cooled_kw__{c.id}", lowBound=0)
        lp += covered >= it_kw - big_kw * (1 - w[c.id]), f"cooled_kw__{c.id}"
        cooling_cost.append(c.capex_usd_per_kw * covered)
        lp += (
            c.rack_limit_kw * network_racks >= infra_kw - big_kw * (1 - w[c.id]),
            f"network_rack_power__{c.id}",
        )
        if c.liquid_capture_fraction > 0 and c.cdu_capacity_kw:
            cdus[c.id] = lp.add_variable(f"cdus__{c.id}", lowBound=0, cat=pulp.LpInteger)
            liquid_kw = c.liquid_capture_fraction * server_w / 1000.0
            lp += (
                cdus[c.id]
                >= liquid_kw / c.cdu_capacity_kw + 1 - (big_kw / c.cdu_capacity_kw + 1) * (1 - w[c.id]),
                f"cdus__{c.id}",
            )
            cooling_cost.append(c.cdu_unit_cost_usd * cdus[c.id])
        for index, option in enumerate(p.media["node_leaf"]):
            node_kw = (p.node_power_w + p.ports_per_node * option.node_end_power_w_per_link) / 1000.0
            per_rack = min(int(c.rack_limit_kw // node_kw), p.usable_rack_units // p.node_rack_units)
            choice = z["node_leaf"][index]
            if per_rack < 1:
                lp += w[c.id] + choice <= 1, f"node_does_not_fit_rack__{c.id}__{index}"
                continue
            lp += (
                per_rack * compute_racks >= nodes - big_nodes * (2 - w[c.id] - choice),
                (f"compute_racks__{c.id}__{index}"),
            )

    # --- step 8: money -----------------------------------------------------------------
    racks = compute_racks + network_racks
    big_racks = p.nodes_max + big_leaves + 10
    rack_cost = []
    for c in p.cooling:
        racks_here = lp.add_variable(f"racks__{c.id}", lowBound=0)
        lp += racks_here >= racks - big_racks * (1 - w[c.id]), f"racks__{c.id}"
        rack_cost.append(p.rack_cost_by_cooling[c.id] * racks_here)
    hardware = (
        p.node_cost_usd * nodes
        + switch_cost
        + planes * pulp.lpSum(media_cost)
        + pulp.lpSum(rack_cost)
        + aux_cost
    )
    capex = (1 + p.services_fraction) * hardware + pulp.lpSum(cooling_cost)
    opex = (
        facility_kw * p.load_factor * 8760.0 * p.electricity_usd_per_kwh
        + p.maintenance_fraction_per_year * hardware
        + p.space_usd_per_rack_year * racks
    )
    tco = capex + p.pv_factor * opex

    # --- step 9: limits ----------------------------------------------------------------
    slack: dict[str, pulp.LpVariable] = {}
    if p.request.budget_usd is not None:
        slack["budget"] = lp.add_variable("slack__budget", lowBound=0)
        lp += capex <= p.request.budget_usd + (slack["budget"] if elastic else 0), "budget"
    if p.request.power_cap_kw is not None:
        slack["power_cap"] = lp.add_variable("slack__power_cap", lowBound=0)
        lp += facility_kw <= p.request.power_cap_kw + (slack["power_cap"] if elastic else 0), "power_cap"

    # --- step 10: objective ------------------------------------------------------------
    if elastic:
        lp += (
            pulp.lpSum(
                slack[name] / (p.request.budget_usd if name == "budget" else p.request.power_cap_kw or 1.0)
                for name in slack
            )
            + 1e-9 * capex
        )
    elif goal == "capex":
        lp += capex
    elif goal == "tco":
        lp += tco
    elif goal == "power":
        lp += facility_kw + 1e-9 * capex
    else:
        # GPUs first; CAPEX only breaks ties (its weight keeps it below one node's worth).
        lp += nodes - capex / (10.0 * max(1.0, p.node_cost_usd * p.nodes_max * 4))

    return lp, ModelVars(
        nodes=nodes,
        tiers=tiers,
        leaf_choice=y_leaf,
        spine_choice=y_spine,
        core_choice=y_core,
        leaves=leaves,
        spines=spines,
        cores=cores,
        media_choice=z,
        cooling_choice=w,
        compute_racks=compute_racks,
        network_racks=network_racks,
        cdus=cdus,
        capex=capex,
        hardware=hardware,
        opex=opex,
        tco=tco,
        it_kw=it_kw,
        facility_kw=facility_kw,
        slack=slack,
    )
