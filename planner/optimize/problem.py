"""What the optimizer is asked, and the numbers it works on, prepared from catalog and scenario.

Everything the MILP needs is computed here once, in plain Python, from the same catalog records
and engine functions the planner uses: switch options with their leaf port split, media options
per link class priced per link, cooling options, per-node power and cost, and the auxiliary
(storage and management) fabrics.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.schema import Cooling, Record
from planner.engine import electricity_usd_per_kwh
from planner.errors import InputError
from planner.fabric.auxiliary import (
    AuxiliaryFabrics,
    aux_link_counts,
    aux_link_media,
    aux_server_optics_w,
    size_auxiliary,
)
from planner.fabric.media import LINK_CLASSES, LinkClass, MediaOption, cable_unit_cost_usd, media_options
from planner.fabric.topology import (
    build_topology,
    leaf_port_split,
    max_nodes,
    ports_per_node_per_plane,
    server_ports,
)
from planner.facility.power import pdus_for_rack
from planner.i18n.message import msg
from planner.inputs.optimize import OptimizeRequest
from planner.inputs.scenario import Scenario
from planner.resolve import Resolved, resolve
from planner.units import present_value_factor

PRICED_FAMILIES = ("gpus", "servers", "nics", "switches", "optics", "cables", "racks", "pdus", "storage")


@dataclass(frozen=True)
class SwitchOption:
    id: str
    radix: int
    down: int
    up: int
    unit_cost_usd: float
    power_max_w: float
    rack_units: int


@dataclass(frozen=True)
class CoolingOption:
    id: str
    pue: float
    capex_usd_per_kw: float
    liquid_capture_fraction: float
    cdu_capacity_kw: float | None
    cdu_unit_cost_usd: float
    rack_limit_kw: float
    """min(rack power limit, what this cooling can remove per rack) [kW]."""


@dataclass(frozen=True)
class AuxLinear:
    """Storage and management fabrics as an affine function of nodes: a + b x nodes."""

    cost_usd: tuple[float, float]
    power_w: tuple[float, float]
    rack_units: tuple[float, float]


@dataclass(frozen=True)
class AuxStep:
    """What the out-of-band fabric adds once the compute fabric has ``fabric_switches`` switches.

    Every compute switch takes one BMC port on the OOB fabric, whose switch count is a step
    function of its ports (:func:`planner.fabric.topology.small_clos`).
    """

    fabric_switches: int
    """Compute switches over all planes at which this step applies [count]."""
    cost_usd: float
    power_w: float
    rack_units: float


@dataclass(frozen=True)
class Problem:
    """Numbers of one optimization problem."""

    request: OptimizeRequest
    scenario: Scenario
    resolved: Resolved
    catalog: Catalog
    nodes_fixed: int | None
    nodes_max: int
    gpus_per_node: int
    ports_per_node_per_plane: int
    ports_per_node: int
    planes: int
    rail_optimized: bool
    leaf_options: tuple[SwitchOption, ...]
    spine_options: tuple[SwitchOption, ...]
    core_options: tuple[SwitchOption, ...]
    media: dict[LinkClass, tuple[MediaOption, ...]]
    cooling: tuple[CoolingOption, ...]
    node_power_w: float
    """GPUs + server + fabric NICs of one node, without node-end optics [W]."""
    node_cost_usd: float
    node_rack_units: int
    usable_rack_units: int
    network_fill_fraction: float
    rack_cost_by_cooling: dict[str, float]
    """Rack plus its PDUs [USD], by cooling option (PDUs follow that option's rack limit)."""
    aux: AuxLinear
    """Storage and management at the fewest compute switches any candidate needs."""
    aux_steps: tuple[AuxStep, ...]
    """OOB increments above that (fixed node count only; empty when maximising GPUs)."""
    services_fraction: float
    maintenance_fraction_per_year: float
    space_usd_per_rack_year: float
    electricity_usd_per_kwh: float
    load_factor: float
    pv_factor: float


def priced_catalog(catalog: Catalog, overrides: dict[str, float]) -> Catalog:
    """The catalog with the scenario's unit price overrides written into the records.

    Parameters
    ----------
    catalog : Catalog
        The catalog.
    overrides : dict of str to float
        Unit price per record id [USD] (a server's chassis price).

    Returns
    -------
    Catalog
        A copy with the prices replaced; ``catalog`` itself when there are none.
    """
    if not overrides:
        return catalog
    changed: dict[str, dict[str, Record]] = {}
    for family in PRICED_FAMILIES:
        records = dict(catalog.family(family))
        for record_id, price in overrides.items():
            record = records.get(record_id)
            if record is None:
                continue
            field = "chassis_cost_usd" if family == "servers" else "unit_cost_usd"
            records[record_id] = record.model_copy(update={field: price})
        changed[family] = records
    fields = {f: getattr(catalog, f) for f in catalog.__dataclass_fields__}
    fields.update(changed)
    return Catalog(**fields)


def _switch_options(
    catalog: Catalog, r: Resolved, *, choose: bool, fixed_id: str
) -> tuple[SwitchOption, ...]:
    speed = r.fabric.port_speed_gbit_per_s
    models = (
        [s for s in catalog.switches.values() if s.family == r.fabric.family and not s.management]
        if choose
        else [catalog.switches[fixed_id]]
    )
    options = []
    for switch in sorted(models, key=lambda s: s.id):
        radix = switch.radix_by_speed.get(speed)
        if radix is None:
            continue
        down, up = leaf_port_split(radix=radix, oversubscription=r.fabric.oversubscription)
        options.append(
            SwitchOption(
                switch.id, radix, down, up, switch.unit_cost_usd, switch.power_max_w, switch.rack_units
            )
        )
    return tuple(options)


def _cooling_options(
    catalog: Catalog, r: Resolved, *, choose: bool, rack_kw: float
) -> tuple[CoolingOption, ...]:
    methods: list[Cooling] = (
        [c for c in catalog.cooling.values() if c.kind in r.server.cooling] if choose else [r.cooling]
    )
    pue_override = r.scenario.facility.pue_override
    return tuple(
        CoolingOption(
            id=c.id,
            pue=pue_override if pue_override is not None else c.pue_default,
            capex_usd_per_kw=c.capex_usd_per_kw,
            liquid_capture_fraction=c.liquid_capture_fraction,
            cdu_capacity_kw=c.cdu_capacity_kw,
            cdu_unit_cost_usd=c.cdu_unit_cost_usd,
            rack_limit_kw=min(rack_kw, c.max_rack_kw),
        )
        for c in sorted(methods, key=lambda c: c.id)
    )


def _aux_totals(
    catalog: Catalog, r: Resolved, aux: AuxiliaryFabrics, nodes: int
) -> tuple[float, float, float]:
    """Cost [USD], power [W] and rack units of storage and management fabrics, with their cables
    and optics as the engine prices them (the optics in the servers are in the node power)."""
    switches = (
        (aux.storage_switch, aux.storage_fabric.switches),
        (aux.inband_switch, aux.inband_fabric.switches),
        (aux.oob_switch, aux.oob_fabric.switches),
    )
    cost = aux.storage_units * aux.storage.unit_cost_usd + sum(s.unit_cost_usd * n for s, n in switches)
    power = aux.storage_units * aux.storage.power_w + sum(s.power_max_w * n for s, n in switches)
    space = aux.storage_units * aux.storage.rack_units + sum(s.rack_units * n for s, n in switches)
    counts = aux_link_counts(aux, nodes=nodes)
    media = aux_link_media(catalog=catalog, counts=counts, lengths=r.scenario.facility.link_lengths)
    for m in media:
        cost += m.links * cable_unit_cost_usd(catalog.cables[m.cable_id], m.length_m)
        if m.upper.optic_id:
            cost += m.transceivers * catalog.optics[m.upper.optic_id].unit_cost_usd
        power += m.power_w
    return cost, power - aux_server_optics_w(catalog, counts, media), space


def _aux_server_w_per_node(catalog: Catalog, r: Resolved) -> float:
    """Auxiliary optics in one GPU server [W] (storage, front-end and in-band ports beyond copper's
    reach; the same per node at every size)."""
    aux = _auxiliary(catalog, r, 1, 0)
    counts = aux_link_counts(aux, nodes=1)
    media = aux_link_media(catalog=catalog, counts=counts, lengths=r.scenario.facility.link_lengths)
    return aux_server_optics_w(catalog, counts, media)


def _auxiliary(catalog: Catalog, r: Resolved, nodes: int, fabric_switches: int) -> AuxiliaryFabrics:
    return size_auxiliary(
        catalog=catalog,
        storage=r.storage,
        gpus=nodes * r.server.gpus_per_node,
        nodes=nodes,
        fabric_switches=fabric_switches,
    )


def _aux_linear(
    catalog: Catalog, r: Resolved, nodes_lo: int, nodes_hi: int, switches_guess: int
) -> AuxLinear:
    """Storage + management cost, power and space at two sizes, as a line through both."""
    lo = _aux_totals(catalog, r, _auxiliary(catalog, r, nodes_lo, switches_guess), nodes_lo)
    hi = _aux_totals(catalog, r, _auxiliary(catalog, r, nodes_hi, switches_guess), nodes_hi)
    span = max(1, nodes_hi - nodes_lo)
    lines = []
    for a, b in zip(lo, hi, strict=True):
        slope = (b - a) / span
        lines.append((a - slope * nodes_lo, slope))
    return AuxLinear(cost_usd=lines[0], power_w=lines[1], rack_units=lines[2])


def _aux_steps(catalog: Catalog, r: Resolved, nodes: int, switches: tuple[int, ...]) -> tuple[AuxStep, ...]:
    """The OOB fabric's increment at each compute switch count a candidate mix builds.

    Only the OOB fabric depends on the compute switches (one management port, so one OOB cable,
    each; its switches and uplinks grow in steps). The counts are the engine's for every (leaf,
    spine, core) model mix, ``switches[0]`` the fewest (already in :class:`AuxLinear`); stepping
    only there keeps the model small (a handful of binaries, not one per OOB switch) and exact for
    every design the engine can build.
    """
    previous = _aux_totals(catalog, r, _auxiliary(catalog, r, nodes, switches[0]), nodes)
    steps = []
    for count in switches[1:]:
        totals = _aux_totals(catalog, r, _auxiliary(catalog, r, nodes, count), nodes)
        added = [now - before for now, before in zip(totals, previous, strict=True)]
        if any(added):
            steps.append(AuxStep(count, added[0], added[1], added[2]))
        previous = totals
    return tuple(steps)


def _fabric_switch_counts(
    r: Resolved,
    nodes: int,
    leaf: tuple[SwitchOption, ...],
    spine: tuple[SwitchOption, ...],
    core: tuple[SwitchOption, ...],
) -> tuple[int, ...]:
    """Compute switches (all planes) the engine builds for each candidate mix, ascending, distinct."""
    counts = set()
    for lo, sp, co in itertools.product(leaf, spine, core):
        try:
            topology = build_topology(
                nodes=nodes,
                gpus_per_node=r.server.gpus_per_node,
                fabric=r.fabric,
                radix=lo.radix,
                spine_radix=sp.radix,
                core_radix=co.radix,
            )
        except InputError:
            continue
        counts.add(topology.switches_total)
    return tuple(sorted(counts)) or (0,)


def prepare(*, scenario: Scenario, catalog: Catalog, request: OptimizeRequest) -> Problem:
    """Collect every number the MILP needs (see module docstring).

    Parameters
    ----------
    scenario : Scenario
        The scenario to optimize.
    catalog : Catalog
        The catalog (its prices overridden by the scenario's).
    request : OptimizeRequest
        Objective, limits and which choices are open.

    Returns
    -------
    Problem
        The options, coefficients, prices and bounds the MILP is built from.
    """
    catalog = priced_catalog(catalog, scenario.price_overrides_usd)
    facility = scenario.facility
    if request.rack_kw is not None:
        scenario = scenario.with_updates(
            facility={**facility.model_dump(), "rack_power_limit_kw": request.rack_kw}
        )
        facility = scenario.facility
    r = resolve(scenario=scenario, catalog=catalog)
    fabric = r.fabric
    gpn = r.server.gpus_per_node
    q = ports_per_node_per_plane(gpus_per_node=gpn, fabric=fabric)
    leaf = _switch_options(catalog, r, choose=request.choose_switches, fixed_id=r.switch.id)
    spine = _switch_options(catalog, r, choose=request.choose_switches, fixed_id=r.spine_switch.id)
    core = _switch_options(catalog, r, choose=request.choose_switches, fixed_id=r.core_switch.id)
    nodes_fixed, nodes_max = _node_range(r, request, q, leaf, spine, core)
    # the OOB fabric counts every compute switch; maximising GPUs keeps the zero-switch line
    switches = (0,) if nodes_fixed is None else _fabric_switch_counts(r, nodes_fixed, leaf, spine, core)
    server = server_ports(gpus_per_node=gpn, fabric=fabric, nic_ports=r.nic.ports)
    nics_per_node = server.nics
    factors = catalog.cost_factors
    cooling_options = _cooling_options(
        catalog, r, choose=request.choose_cooling, rack_kw=facility.rack_power_limit_kw
    )
    return Problem(
        request=request,
        scenario=scenario,
        resolved=r,
        catalog=catalog,
        nodes_fixed=nodes_fixed,
        nodes_max=nodes_max,
        gpus_per_node=gpn,
        ports_per_node_per_plane=q,
        ports_per_node=server.links,
        planes=fabric.planes,
        rail_optimized=fabric.rail_optimized,
        leaf_options=leaf,
        spine_options=spine,
        core_options=core,
        media=_media_table(catalog, r, choose=request.choose_media),
        cooling=cooling_options,
        node_power_w=gpn * r.gpu.tdp_w
        + r.server.base_power_w
        + nics_per_node * r.nic.power_w
        + _aux_server_w_per_node(catalog, r),
        node_cost_usd=gpn * r.gpu.unit_cost_usd
        + r.server.chassis_cost_usd
        + nics_per_node * r.nic.unit_cost_usd,
        node_rack_units=r.server.rack_units,
        usable_rack_units=r.rack.usable_rack_units,
        network_fill_fraction=catalog.sizing_rules["network_rack_fill_fraction"].value,
        rack_cost_by_cooling={
            c.id: r.rack.unit_cost_usd + _pdu_cost(catalog, c.rack_limit_kw) for c in cooling_options
        },
        aux=_aux_linear(catalog, r, 1 if nodes_fixed is None else nodes_fixed, nodes_max, switches[0]),
        aux_steps=() if nodes_fixed is None else _aux_steps(catalog, r, nodes_fixed, switches),
        services_fraction=factors["installation_fraction"].value + factors["spares_fraction"].value,
        maintenance_fraction_per_year=factors["maintenance_fraction_per_year"].value,
        space_usd_per_rack_year=factors["space_usd_per_rack_year"].value,
        electricity_usd_per_kwh=electricity_usd_per_kwh(r),
        load_factor=facility.load_factor,
        pv_factor=present_value_factor(rate=facility.discount_rate, years=facility.years),
    )


def _node_range(
    r: Resolved,
    request: OptimizeRequest,
    q: int,
    leaf: tuple[SwitchOption, ...],
    spine: tuple[SwitchOption, ...],
    core: tuple[SwitchOption, ...],
) -> tuple[int | None, int]:
    """The fixed node count (``None`` when maximising GPUs) and the most nodes the model may use.

    Raises
    ------
    InputError
        When even the largest three-tier fabric of the candidate switches holds too few nodes.
    """
    gpn = r.server.gpus_per_node
    nodes_fixed = None if request.objective == "max-gpus" else r.nodes
    largest = max(
        max_nodes(
            tiers=3,
            q=q,
            radix=lo.radix,
            down=lo.down,
            rail_optimized=r.fabric.rail_optimized,
            spine_radix=sp.radix,
            core_radix=co.radix,
        )
        for lo in leaf
        for sp in spine
        for co in core
    )
    nodes_max = nodes_fixed if nodes_fixed is not None else min(largest, max(1, request.max_gpus // gpn))
    if nodes_max > largest:
        raise InputError(
            msg(
                "gpus: {gpus} GPUs exceed the three-tier limit of every candidate switch "
                "({max_gpus} GPUs; allowed: 1 to {max_gpus})",
                gpus=nodes_max * gpn,
                max_gpus=largest * gpn,
            )
        )
    return nodes_fixed, nodes_max


def _media_table(catalog: Catalog, r: Resolved, *, choose: bool) -> dict[LinkClass, tuple[MediaOption, ...]]:
    """The media the model may pick per link class (only the engine's own pick when not choosing)."""
    link_lengths = r.scenario.facility.link_lengths
    lengths = {
        "node_leaf": link_lengths.node_leaf_m,
        "leaf_spine": link_lengths.leaf_spine_m,
        "spine_core": link_lengths.spine_core_m,
    }
    media: dict[LinkClass, tuple[MediaOption, ...]] = {}
    for link_class in LINK_CLASSES:
        options = media_options(
            catalog=catalog,
            link_class=link_class,
            length_m=lengths[link_class],
            speed_gbit_per_s=r.fabric.port_speed_gbit_per_s,
            lower_optic=r.node_optic if link_class == "node_leaf" else r.optic,
            upper_optic=r.optic,
            nic_ports=r.nic.ports,
        )
        if not choose:
            options = options[:1] if options[0].media_id is None else _engine_default(options, r, link_class)
        media[link_class] = options
    return media


def _pdu_cost(catalog: Catalog, rack_kw: float) -> float:
    pdu, count = pdus_for_rack(catalog, rack_kw=rack_kw)
    return pdu.unit_cost_usd * count


def _engine_default(
    options: tuple[MediaOption, ...], r: Resolved, link_class: LinkClass
) -> tuple[MediaOption, ...]:
    """The medium the engine picks by reach when nothing is forced: cheapest copper, else the design's optic."""
    copper = [o for o in options if o.medium in ("dac", "acc", "aec")]
    if copper:
        return (copper[0],)
    preferred = r.node_optic.id if link_class == "node_leaf" else r.optic.id
    chosen = [o for o in options if o.media_id in (preferred, r.optic.id)]
    return (chosen[0],) if chosen else options[:1]
