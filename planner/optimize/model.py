"""The mixed-integer program, built as a list of steps (PyPSA's ``define_*`` style).

Per plane (planes are identical copies, so every count is multiplied by ``planes``):

- choices: one leaf, one spine and one core switch model (binaries ``y``), one tier structure
  (``t1``, ``t2``, ``t3``), one medium per link class (``z``), one cooling method (``w``);
- counts (integers): nodes ``N`` (fixed, or the decision when maximising GPUs), leaves ``L_m``,
  spines ``S_m``, cores ``C_m``, pods ``P``, leaf uplinks ``U``, racks, CDUs;
- ports: one switch when ``N q <= k``; leaves per rail ``>= N / d_m`` (rail-optimized) or
  ``>= N / floor(d_m / q)``; ``U = sum u_m L_m``; two tiers: spines ``S = d``, a divisor of
  the leaf's ``u`` (binaries per leaf model, spine model and divisor), ``k_S d >= L u`` and
  ``leaves <= k_S``; three tiers: pods ``P >= leaves / (k_S / 2)``, spines ``= P u``,
  ``k_C C >= U``, ``P <= k_C``; media cost ``= links x cost per link`` (linearised with big-M);
- auxiliary: storage and management affine in nodes, plus the OOB fabric's steps with the
  compute switch count (fixed node count); cooling bought per whole kW;
- limits: rack power and space per cooling method, facility power ``PUE_j x IT <= cap``,
  ``CAPEX <= budget``;
- objective: CAPEX, TCO, or GPUs (ties broken by CAPEX).

Variables live in dicts keyed by catalog id; constraint names are structured
(``budget``, ``power_cap``, ``leaf_rule__<id>``...), never looked up by name in results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import pulp

from planner.fabric.media import LINK_CLASSES, LinkClass
from planner.optimize.problem import AuxStep, CoolingOption, Problem

ModelObjective = Literal["capex", "tco", "max-gpus", "power"]


@dataclass
class ModelVars:
    """Handles to the variables and expressions of one model: what each ``define_*`` step made."""

    nodes: Nodes
    choice: _Choices
    leaf: _Leaves
    upper: _Upper
    media: _Media
    power: _Power
    cooling: _Cooling
    money: _Money
    slack: dict[str, pulp.LpVariable] = field(default_factory=dict)

    @property
    def leaves(self) -> dict[str, pulp.LpVariable]:
        """Leaves ``L_m`` of each leaf model, per plane [count]."""
        return self.leaf.leaves

    @property
    def spines(self) -> dict[str, pulp.LpVariable]:
        """Spines ``S_m`` of each spine model, per plane [count]."""
        return self.upper.spines

    @property
    def capex(self) -> pulp.LpAffineExpression:
        """CAPEX of the design [USD]."""
        return self.money.capex


def _binaries(lp: pulp.LpProblem, prefix: str, keys: list[str]) -> dict[str, pulp.LpVariable]:
    return {k: lp.add_variable(f"{prefix}__{k}", cat=pulp.LpBinary) for k in keys}


def _integers(lp: pulp.LpProblem, prefix: str, keys: list[str], upper: int) -> dict[str, pulp.LpVariable]:
    return {k: lp.add_variable(f"{prefix}__{k}", lowBound=0, upBound=upper, cat=pulp.LpInteger) for k in keys}


def build_model(
    problem: Problem, *, objective: ModelObjective | None = None, elastic: bool = False
) -> tuple[pulp.LpProblem, ModelVars]:
    """Build the MILP for ``problem``, one ``define_*``/``add_*`` step after the other.

    Parameters
    ----------
    objective
        Overrides the request's objective (``"power"`` minimises facility power: used for Pareto
        fronts).
    elastic
        Add non-negative slacks to the budget and power cap and minimise them (normalised): the
        slacks then say by how much each limit must move for a design to exist.

    Returns
    -------
    tuple of (pulp.LpProblem, ModelVars)
        The MILP, ready to solve, and the variables and expressions each step defined.
    """
    p = problem
    goal: ModelObjective = objective or p.request.objective
    sense = pulp.LpMaximize if goal == "max-gpus" and not elastic else pulp.LpMinimize
    lp = pulp.LpProblem("cluster_bom", sense)
    m = _Build(lp=lp, p=p, nodes=define_nodes(lp, p))
    choice = define_choices(m)
    leaf = define_leaves(m, choice)
    upper = define_spines_and_cores(m, choice, leaf)
    media = define_media(m, leaf, upper)
    power = define_power(m, leaf, upper, media)
    cool = define_cooling(m, power, media)
    money = define_money(m, power, media, cool)
    slack = add_limits(m, money.capex, cool.facility_kw, elastic=elastic)
    add_objective(m, goal, money=money, facility_kw=cool.facility_kw, slack=slack, elastic=elastic)
    return lp, ModelVars(m.nodes, choice, leaf, upper, media, power, cool, money, slack)


Nodes: TypeAlias = pulp.LpVariable | int
"""The node count: a fixed number, or the decision variable when maximising GPUs."""


@dataclass(frozen=True, kw_only=True)
class _Build:
    """The model under construction, as every step after :func:`define_nodes` takes it."""

    lp: pulp.LpProblem
    """The MILP the step adds its variables and constraints to."""
    p: Problem
    """The prepared problem: options, prices, limits."""
    nodes: Nodes
    """The node count [count] (:func:`define_nodes`)."""


def _big_nodes(p: Problem) -> int:
    return p.nodes_max


def _big_leaves(p: Problem) -> int:
    return p.nodes_max * p.ports_per_node_per_plane


def _big_links(p: Problem) -> int:
    return _big_leaves(p) * max(o.up for o in p.leaf_options)


def define_nodes(lp: pulp.LpProblem, p: Problem) -> Nodes:
    """Step 1: the node count, fixed or (when maximising GPUs) the decision.

    Parameters
    ----------
    lp : pulp.LpProblem
        The model the variable is added to.
    p : Problem
        The prepared problem (fixed node count or its upper bound).

    Returns
    -------
    Nodes
        The node count [count]: an int when fixed, else an integer variable in ``1..nodes_max``.
    """
    if p.nodes_fixed is not None:
        return p.nodes_fixed
    return lp.add_variable("nodes", lowBound=1, upBound=p.nodes_max, cat=pulp.LpInteger)


@dataclass(frozen=True)
class _Choices:
    tiers: dict[int, pulp.LpVariable]
    leaf: dict[str, pulp.LpVariable]
    spine: dict[str, pulp.LpVariable]
    core: dict[str, pulp.LpVariable]


def define_choices(m: _Build) -> _Choices:
    """Step 2: one tier structure, one leaf model, a spine model with spines, a core model with cores.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).

    Returns
    -------
    _Choices
        Binaries for the tier count (1 to 3) and for each leaf, spine and core model.
    """
    lp, p = m.lp, m.p
    tiers = {t: lp.add_variable(f"tiers__{t}", cat=pulp.LpBinary) for t in (1, 2, 3)}
    lp += pulp.lpSum(tiers.values()) == 1, "one_tier_structure"
    y_leaf = _binaries(lp, "leaf_model", [o.id for o in p.leaf_options])
    y_spine = _binaries(lp, "spine_model", [o.id for o in p.spine_options])
    y_core = _binaries(lp, "core_model", [o.id for o in p.core_options])
    lp += pulp.lpSum(y_leaf.values()) == 1, "one_leaf_model"
    lp += pulp.lpSum(y_spine.values()) == tiers[2] + tiers[3], "one_spine_model_if_spines"
    lp += pulp.lpSum(y_core.values()) == tiers[3], "one_core_model_if_cores"
    return _Choices(tiers, y_leaf, y_spine, y_core)


@dataclass(frozen=True)
class _Leaves:
    leaves: dict[str, pulp.LpVariable]
    all_leaves: pulp.LpAffineExpression
    uplinks: pulp.LpVariable


def define_leaves(m: _Build, choice: _Choices) -> _Leaves:
    """Step 3: leaves of the chosen model, enough down ports for every node, and their uplinks.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    choice : _Choices
        The tier and model binaries (:func:`define_choices`).

    Returns
    -------
    _Leaves
        Leaves per model [count], their sum, and the leaf uplinks [count].
    """
    lp, p, nodes = m.lp, m.p, m.nodes
    q = p.ports_per_node_per_plane
    big_nodes, big_leaves, big_links = _big_nodes(p), _big_leaves(p), _big_links(p)
    tiers, y_leaf = choice.tiers, choice.leaf
    leaf_ids = [o.id for o in p.leaf_options]
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
    return _Leaves(leaves, all_leaves, uplinks)


@dataclass(frozen=True)
class _Upper:
    spines: dict[str, pulp.LpVariable]
    cores: dict[str, pulp.LpVariable]
    spine_core_links: pulp.LpVariable
    spine_split: dict[tuple[str, str, int], pulp.LpVariable]
    """Two tiers: 1 when leaf model, spine model and spine count ``d`` are the design's."""


def define_spines_and_cores(m: _Build, choice: _Choices, leaf: _Leaves) -> _Upper:
    """Step 4: spines (two tiers: all uplinks spread evenly; three tiers: per pod) and cores.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    choice : _Choices
        The tier and model binaries.
    leaf : _Leaves
        The leaves and their uplinks (:func:`define_leaves`).

    Returns
    -------
    _Upper
        Spines and cores per model [count], spine-core links [count] and the two-tier split
        variables.
    """
    lp, p = m.lp, m.p
    big_leaves, big_links = _big_leaves(p), _big_links(p)
    tiers, y_spine, y_core = choice.tiers, choice.spine, choice.core
    uplinks, all_leaves = leaf.uplinks, leaf.all_leaves
    spines = _integers(lp, "spines", [o.id for o in p.spine_options], big_links)
    cores = _integers(lp, "cores", [o.id for o in p.core_options], big_links)
    pods = lp.add_variable("pods", lowBound=0, upBound=big_leaves, cat=pulp.LpInteger)
    lp += (
        all_leaves
        <= pulp.lpSum(o.radix * y_spine[o.id] for o in p.spine_options) + big_leaves * (1 - tiers[2]),
        "two_tier_spine_reaches_every_leaf",
    )
    split = _add_two_tier_spines(m, choice, leaf, spines)
    for o in p.spine_options:
        lp += spines[o.id] <= big_links * y_spine[o.id], f"spine_only_if_chosen__{o.id}"
        lp += (
            (o.radix // 2) * pods
            >= all_leaves - big_leaves * (1 - y_spine[o.id]) - big_leaves * (1 - tiers[3]),
            f"pods__{o.id}",
        )
        for lo in p.leaf_options:
            lp += (
                spines[o.id]
                >= lo.up * pods - big_links * (3 - choice.leaf[lo.id] - y_spine[o.id] - tiers[3]),
                f"spines_per_pod__{lo.id}__{o.id}",
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
    return _Upper(spines, cores, spine_core_links, split)


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _add_two_tier_spines(
    m: _Build, choice: _Choices, leaf: _Leaves, spines: dict[str, pulp.LpVariable]
) -> dict[tuple[str, str, int], pulp.LpVariable]:
    """Two tiers: the engine's even spread, ``spines = d`` for a divisor ``d`` of the leaf's ``u``.

    Every leaf then has ``u / d`` links to every spine (``docs/model.md``, leaf-spine rule); the
    spine ports must hold all uplinks, ``k_S d >= leaves u``. Cost drives ``d`` to the smallest
    such divisor, the engine's count. One binary per (leaf model, spine model, divisor).
    """
    lp, p = m.lp, m.p
    big_links, tiers = _big_links(p), choice.tiers
    split = {
        (lo.id, so.id, d): lp.add_variable(f"spine_split__{lo.id}__{so.id}__{d}", cat=pulp.LpBinary)
        for lo in p.leaf_options
        for so in p.spine_options
        for d in _divisors(lo.up)
    }
    lp += pulp.lpSum(split.values()) == tiers[2], "one_spine_split_if_two_tiers"
    for lo in p.leaf_options:
        pair_sum = pulp.lpSum(z for (li, _, _), z in split.items() if li == lo.id)
        lp += pair_sum <= choice.leaf[lo.id], f"spine_split_leaf__{lo.id}"
    for so in p.spine_options:
        chosen = {key: z for key, z in split.items() if key[1] == so.id}
        lp += pulp.lpSum(chosen.values()) <= choice.spine[so.id], f"spine_split_spine__{so.id}"
        lp += (
            spines[so.id] >= pulp.lpSum(d * z for (_, _, d), z in chosen.items()),
            f"spines_even_spread__{so.id}",
        )
        for lo in p.leaf_options:
            pair = {d: z for (li, _, d), z in chosen.items() if li == lo.id}
            lp += (
                so.radix * pulp.lpSum(d * z for d, z in pair.items())
                >= lo.up * leaf.leaves[lo.id] - big_links * (1 - pulp.lpSum(pair.values())),
                f"spine_ports_two_tier__{lo.id}__{so.id}",
            )
    return split


@dataclass(frozen=True)
class _Media:
    choice: dict[LinkClass, dict[int, pulp.LpVariable]]
    cost_usd: pulp.LpAffineExpression
    """Per plane."""
    power_w: pulp.LpAffineExpression
    """Per plane, both ends."""
    node_end_power_w: pulp.LpAffineExpression
    """Per plane, the optics plugged into the servers."""


def define_media(m: _Build, leaf: _Leaves, upper: _Upper) -> _Media:
    """Step 5: one medium per link class; its cost and power follow the links it carries (big-M).

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    leaf : _Leaves
        The leaf uplinks [count].
    upper : _Upper
        The spine-core links [count].

    Returns
    -------
    _Media
        The medium binaries per link class, media cost [USD], power [W] and node-end power [W]
        per plane.
    """
    lp, p, nodes = m.lp, m.p, m.nodes
    q = p.ports_per_node_per_plane
    big_links = _big_links(p)
    links: dict[LinkClass, pulp.LpAffineExpression] = {
        "node_leaf": pulp.LpAffineExpression(nodes * q) if isinstance(nodes, int) else nodes * q,
        "leaf_spine": pulp.LpAffineExpression(leaf.uplinks),
        "spine_core": pulp.LpAffineExpression(upper.spine_core_links),
    }
    big_class = {"node_leaf": _big_nodes(p) * q, "leaf_spine": big_links, "spine_core": big_links}
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
    return _Media(z, pulp.lpSum(media_cost), pulp.lpSum(media_power), pulp.lpSum(node_end_power))


@dataclass(frozen=True)
class _Power:
    switch_cost_usd: pulp.LpAffineExpression
    switch_units: pulp.LpAffineExpression
    aux_cost_usd: pulp.LpAffineExpression
    aux_units: pulp.LpAffineExpression
    server_w: pulp.LpAffineExpression
    it_kw: pulp.LpAffineExpression
    infra_kw: pulp.LpAffineExpression
    big_kw: float


def define_power(m: _Build, leaf: _Leaves, upper: _Upper, media: _Media) -> _Power:
    """Step 6: IT power of servers and network racks, with the switch and auxiliary totals.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    leaf : _Leaves
        Leaves per model [count].
    upper : _Upper
        Spines and cores per model [count].
    media : _Media
        Media cost [USD] and power [W] (:func:`define_media`).

    Returns
    -------
    _Power
        Switch and auxiliary cost [USD] and rack units [U], server power [W], IT and network-rack
        power [kW] and the big-M bound on IT power [kW].
    """
    lp, p, nodes = m.lp, m.p, m.nodes
    planes = p.planes
    switch_counts = [
        (leaf.leaves, p.leaf_options),
        (upper.spines, p.spine_options),
        (upper.cores, p.core_options),
    ]
    all_switches = pulp.lpSum(count for v, _ in switch_counts for count in v.values())
    aux_steps = _add_aux_steps(lp, p, planes * all_switches)
    switch_power_w = planes * pulp.lpSum(o.power_max_w * v[o.id] for v, opts in switch_counts for o in opts)
    switch_cost = planes * pulp.lpSum(o.unit_cost_usd * v[o.id] for v, opts in switch_counts for o in opts)
    switch_units = planes * pulp.lpSum(o.rack_units * v[o.id] for v, opts in switch_counts for o in opts)
    steps = list(aux_steps.items())
    aux_cost = p.aux.cost_usd[0] + p.aux.cost_usd[1] * nodes + pulp.lpSum(s.cost_usd * z for s, z in steps)
    aux_power = p.aux.power_w[0] + p.aux.power_w[1] * nodes + pulp.lpSum(s.power_w * z for s, z in steps)
    aux_units = (
        p.aux.rack_units[0] + p.aux.rack_units[1] * nodes + pulp.lpSum(s.rack_units * z for s, z in steps)
    )
    # servers carry the node-end optics; network racks carry switches, switch-end optics, storage
    server_w = p.node_power_w * nodes + planes * media.node_end_power_w
    infra_w = switch_power_w + planes * (media.power_w - media.node_end_power_w) + aux_power
    return _Power(
        switch_cost_usd=switch_cost,
        switch_units=switch_units,
        aux_cost_usd=aux_cost,
        aux_units=aux_units,
        server_w=server_w,
        it_kw=(server_w + infra_w) / 1000.0,
        infra_kw=infra_w / 1000.0,
        big_kw=(p.node_power_w * p.nodes_max * 4 + 1e6) / 1000.0,
    )


def _add_aux_steps(
    lp: pulp.LpProblem, p: Problem, fabric_switches: pulp.LpAffineExpression
) -> dict[AuxStep, pulp.LpVariable]:
    """The OOB fabric's steps (one BMC port per compute switch): binary ``s_i`` is 1 from its count on.

    ``F <= F_i - 1 + M s_i``, and ``s_i <= s_(i-1)`` (steps are taken in order).
    """
    big = _big_links(p) * 3 * p.planes
    on: dict[AuxStep, pulp.LpVariable] = {}
    previous: pulp.LpVariable | None = None
    for step in p.aux_steps:
        z = lp.add_variable(f"aux_step__{step.fabric_switches}", cat=pulp.LpBinary)
        lp += fabric_switches <= step.fabric_switches - 1 + big * z, f"aux_step__{step.fabric_switches}"
        if previous is not None:
            lp += z <= previous, f"aux_step_order__{step.fabric_switches}"
        on[step], previous = z, z
    return on


@dataclass(frozen=True)
class _Cooling:
    choice: dict[str, pulp.LpVariable]
    facility_kw: pulp.LpVariable
    cost_usd: pulp.LpAffineExpression
    cdus: dict[str, pulp.LpVariable]
    compute_racks: pulp.LpVariable
    network_racks: pulp.LpVariable


def define_cooling(m: _Build, power: _Power, media: _Media) -> _Cooling:
    """Step 7: one cooling method, facility power through its PUE, racks and CDUs within its limits.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    power : _Power
        IT, server and network-rack power (:func:`define_power`).
    media : _Media
        The media expressions.

    Returns
    -------
    _Cooling
        The cooling binaries, facility power [kW], cooling cost [USD], CDUs per method and
        compute and network racks [count].
    """
    lp, p = m.lp, m.p
    big_kw, it_kw = power.big_kw, power.it_kw
    w = _binaries(lp, "cooling", [c.id for c in p.cooling])
    lp += pulp.lpSum(w.values()) == 1, "one_cooling_method"
    facility_kw = lp.add_variable("facility_kw", lowBound=0)
    cooling_cost = []
    cdus: dict[str, pulp.LpVariable] = {}
    compute_racks = lp.add_variable("compute_racks", lowBound=0, cat=pulp.LpInteger)
    network_racks = lp.add_variable("network_racks", lowBound=1, cat=pulp.LpInteger)
    usable_infra_units = max(1, int(p.usable_rack_units * p.network_fill_fraction))
    lp += usable_infra_units * network_racks >= power.switch_units + power.aux_units, "network_rack_space"
    for c in p.cooling:
        lp += facility_kw >= c.pue * it_kw - c.pue * big_kw * (1 - w[c.id]), f"facility_power__{c.id}"
        covered = lp.add_variable(f"cooled_kw__{c.id}", lowBound=0, cat=pulp.LpInteger)
        lp += covered >= it_kw - big_kw * (1 - w[c.id]), f"cooled_kw__{c.id}"
        cooling_cost.append(c.capex_usd_per_kw * covered)
        lp += (
            c.rack_limit_kw * network_racks >= power.infra_kw - big_kw * (1 - w[c.id]),
            f"network_rack_power__{c.id}",
        )
        if c.liquid_capture_fraction > 0 and c.cdu_capacity_kw:
            cdus[c.id] = lp.add_variable(f"cdus__{c.id}", lowBound=0, cat=pulp.LpInteger)
            liquid_kw = c.liquid_capture_fraction * power.server_w / 1000.0
            lp += (
                cdus[c.id]
                >= liquid_kw / c.cdu_capacity_kw + 1 - (big_kw / c.cdu_capacity_kw + 1) * (1 - w[c.id]),
                f"cdus__{c.id}",
            )
            cooling_cost.append(c.cdu_unit_cost_usd * cdus[c.id])
        _add_compute_racks(m, c, w[c.id], media, compute_racks)
    return _Cooling(w, facility_kw, pulp.lpSum(cooling_cost), cdus, compute_racks, network_racks)


def _add_compute_racks(
    m: _Build,
    c: CoolingOption,
    chosen: pulp.LpVariable,
    media: _Media,
    compute_racks: pulp.LpVariable,
) -> None:
    """Compute racks for cooling ``c``: nodes per rack depend on the node-end optic's power."""
    lp, p = m.lp, m.p
    for index, option in enumerate(p.media["node_leaf"]):
        node_kw = (p.node_power_w + p.ports_per_node * option.node_end_power_w_per_link) / 1000.0
        per_rack = min(int(c.rack_limit_kw // node_kw), p.usable_rack_units // p.node_rack_units)
        medium = media.choice["node_leaf"][index]
        if per_rack < 1:
            lp += chosen + medium <= 1, f"node_does_not_fit_rack__{c.id}__{index}"
            continue
        lp += (
            per_rack * compute_racks >= m.nodes - _big_nodes(p) * (2 - chosen - medium),
            (f"compute_racks__{c.id}__{index}"),
        )


@dataclass(frozen=True)
class _Money:
    hardware: pulp.LpAffineExpression
    capex: pulp.LpAffineExpression
    opex: pulp.LpAffineExpression
    tco: pulp.LpAffineExpression


def define_money(m: _Build, power: _Power, media: _Media, cool: _Cooling) -> _Money:
    """Step 8: hardware, CAPEX (services on hardware, cooling on top), OPEX and TCO.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count).
    power : _Power
        Switch and auxiliary cost [USD].
    media : _Media
        Media cost per plane [USD].
    cool : _Cooling
        Cooling choice, cost [USD], facility power [kW] and racks [count].

    Returns
    -------
    _Money
        Hardware [USD], CAPEX [USD], OPEX [USD/year] and TCO [USD] expressions.
    """
    lp, p = m.lp, m.p
    racks = cool.compute_racks + cool.network_racks
    big_racks = p.nodes_max + _big_leaves(p) + 10
    rack_cost = []
    for c in p.cooling:
        racks_here = lp.add_variable(f"racks__{c.id}", lowBound=0)
        lp += racks_here >= racks - big_racks * (1 - cool.choice[c.id]), f"racks__{c.id}"
        rack_cost.append(p.rack_cost_by_cooling[c.id] * racks_here)
    hardware = (
        p.node_cost_usd * m.nodes
        + power.switch_cost_usd
        + p.planes * media.cost_usd
        + pulp.lpSum(rack_cost)
        + power.aux_cost_usd
    )
    capex = (1 + p.services_fraction) * hardware + cool.cost_usd
    opex = (
        cool.facility_kw * p.load_factor * 8760.0 * p.electricity_usd_per_kwh
        + p.maintenance_fraction_per_year * hardware
        + p.space_usd_per_rack_year * racks
    )
    return _Money(hardware, capex, opex, capex + p.pv_factor * opex)


def add_limits(
    m: _Build,
    capex: pulp.LpAffineExpression,
    facility_kw: pulp.LpVariable,
    *,
    elastic: bool,
) -> dict[str, pulp.LpVariable]:
    """Step 9: budget and power cap, each with a slack that only the elastic model may use.

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count); the
        request holds the budget [USD] and power cap [kW].
    capex : pulp.LpAffineExpression
        CAPEX [USD].
    facility_kw : pulp.LpVariable
        Facility power [kW].
    elastic : bool
        Whether the slacks may be non-zero.

    Returns
    -------
    dict of str to pulp.LpVariable
        The slack of each limit set (``budget`` [USD], ``power_cap`` [kW]).
    """
    lp, p = m.lp, m.p
    slack: dict[str, pulp.LpVariable] = {}
    if p.request.budget_usd is not None:
        slack["budget"] = lp.add_variable("slack__budget", lowBound=0)
        lp += capex <= p.request.budget_usd + (slack["budget"] if elastic else 0), "budget"
    if p.request.power_cap_kw is not None:
        slack["power_cap"] = lp.add_variable("slack__power_cap", lowBound=0)
        lp += facility_kw <= p.request.power_cap_kw + (slack["power_cap"] if elastic else 0), "power_cap"
    return slack


def add_objective(
    m: _Build,
    goal: ModelObjective,
    *,
    money: _Money,
    facility_kw: pulp.LpVariable,
    slack: dict[str, pulp.LpVariable],
    elastic: bool,
) -> None:
    """Step 10: the objective (elastic: the normalised slacks, CAPEX only as a tie-break).

    Parameters
    ----------
    m : _Build
        The model under construction (MILP, prepared problem, node count; the
        limits normalise the slacks).
    goal : ModelObjective
        ``capex``, ``tco``, ``power`` or ``max-gpus``.
    money : _Money
        CAPEX and TCO [USD].
    facility_kw : pulp.LpVariable
        Facility power [kW].
    slack : dict of str to pulp.LpVariable
        The limits' slacks (:func:`add_limits`).
    elastic : bool
        Minimise the normalised slacks instead of ``goal``.
    """
    lp, p, capex = m.lp, m.p, money.capex
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
        lp += money.tco
    elif goal == "power":
        lp += facility_kw + 1e-9 * capex
    else:
        # GPUs first; CAPEX only breaks ties (its weight keeps it below one node's worth).
        lp += m.nodes - capex / (10.0 * max(1.0, p.node_cost_usd * p.nodes_max * 4))
