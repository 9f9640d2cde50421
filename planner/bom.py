"""The bill of materials of a plan: one line per item, from the sized fabric, facility and catalog.

:func:`bom_lines` writes the lines; :func:`planner.engine.plan` calls it once the topology,
media, auxiliary fabrics, racks and cooling are sized, and :func:`planner.cost.cost_summary`
prices the result. Each line carries its record's id, category, translatable description,
quantity, unit price (the scenario's override when it has one) and source.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import NamedTuple

from planner.catalog import Catalog
from planner.catalog.memo import IdentityCache, per_catalog
from planner.catalog.schema import CostFactor, Pdu, Record, Switch
from planner.cost import BomLine
from planner.fabric.auxiliary import AuxiliaryFabrics
from planner.fabric.media import LinkMedia, cable_unit_cost_usd
from planner.fabric.scale_up import ScaleUpDomain
from planner.fabric.topology import Topology
from planner.facility.cooling import CoolingResult
from planner.facility.power import Racks, pdus_for_rack
from planner.handoff.runs import CableRun
from planner.i18n.message import Message, kept_msg, msg
from planner.resolve import Resolved
from planner.units import ceil_div

_TIER_SWITCH_FIELD = {"leaf": "switch", "spine": "spine_switch", "core": "core_switch", "top": "core_switch"}
"""The :class:`Resolved` field holding each tier's switch model."""


def tier_switch(r: Resolved, tier: str) -> Switch:
    """The switch model of one tier (leaf, spine, core, or top: the core model one tier up).

    Parameters
    ----------
    r : Resolved
        The resolved scenario (its leaf, spine and core switch records).
    tier : str
        ``leaf``, ``spine``, ``core`` or ``top``.

    Returns
    -------
    Switch
        The catalog record of the tier's switch.
    """
    switch: Switch = getattr(r, _TIER_SWITCH_FIELD[tier])
    return switch


_LINK_CLASS_LABEL: dict[str, Message] = {
    "node_leaf": msg("node-leaf"),
    "leaf_spine": msg("leaf-spine"),
    "spine_core": msg("spine-core"),
    "core_top": msg("core-top"),
}


def link_class_label(link_class: str) -> Message:
    """The translatable name of a link class (``node-leaf``, ``storage fabric: between tiers``).

    Parameters
    ----------
    link_class : str
        A compute (``node_leaf`` ...) or auxiliary (``storage_uplink`` ...) link class.

    Returns
    -------
    Message
        The class's name for a reader.
    """
    return {**_LINK_CLASS_LABEL, **_AUX_LINK_LABEL}[link_class]


def _joined(labels: list[Message]) -> Message:
    """Link class labels one after another (``node-leaf leaf-spine``), translatable as a whole."""
    if len(labels) == 1:
        return labels[0]
    return msg("{first} {rest}", first=labels[0], rest=_joined(labels[1:]))


_AUX_LINK_LABEL: dict[str, Message] = {
    "storage_access": msg("storage fabric: servers and storage to leaves"),
    "storage_uplink": msg("storage fabric: between tiers"),
    "frontend_access": msg("front-end network: servers to leaves"),
    "frontend_uplink": msg("front-end network: between tiers"),
    "inband_access": msg("in-band management: servers and storage to leaves"),
    "inband_uplink": msg("in-band management: between tiers"),
    "oob_access": msg("out-of-band management: BMC and switch management ports"),
    "oob_uplink": msg("out-of-band management: between tiers"),
}


def _line(
    r: Resolved,
    record: Record,
    category: str,
    description: str,
    quantity: int,
    unit_cost: float,
    link_classes: tuple[str, ...] = (),
    *,
    quantity_unit: str = "",
    length_m: float | None = None,
) -> BomLine:
    """One BOM line of a catalog record, at the scenario's price override when it has one."""
    return BomLine(
        id=record.id,
        category=category,
        description=description,
        quantity=quantity,
        unit_cost_usd=r.scenario.price_overrides_usd.get(record.id, unit_cost),
        source=record.source or _assumption(record.reason),
        link_classes=link_classes,
        quantity_unit=quantity_unit,
        length_m=length_m,
    )


_KEPT_LINES: IdentityCache[BomLine] = IdentityCache(max_entries=4096)
"""Lines of the items whose count changes seldom with the cluster's size (fabric and scale-up
switches; storage and management: :func:`_auxiliary_lines`; racks, PDUs and CDUs:
:func:`_rack_lines`), and of the GPUs and servers (the same in every
design of a sweep at one size), by record, description, category, quantity and price."""


def _kept_line(
    r: Resolved, record: Record, category: str, description: str, quantity: int, unit_cost: float
) -> BomLine:
    """:func:`_line`, the same object for the same record and description (by identity), category,
    quantity and price (with its type: an int price stays apart from the equal float, as given)."""
    price = r.scenario.price_overrides_usd.get(record.id, unit_cost)
    values = (category, quantity, type(quantity), price, type(price))
    kept = _KEPT_LINES.get((record, description), values)
    if kept is None:
        line = _line(r, record, category, description, quantity, unit_cost)
        kept = _KEPT_LINES.put((record, description), values, line)
    return kept


@functools.lru_cache(maxsize=1024)
def _assumption(reason: str | None) -> Message:
    """The source of a record that has none: its reason for being an assumption."""
    return msg("assumption: {reason}", reason=reason)


@functools.lru_cache(maxsize=256)
def _compute_descriptions(gpu: str, server: str, nic: str) -> tuple[Message, Message, Message]:
    """The GPU, server and fabric NIC lines' descriptions, from the records' names."""
    return (
        msg("GPU {name}", name=gpu),
        msg("Server {name} (without GPUs and fabric NICs)", name=server),
        msg("Fabric NIC {name}", name=nic),
    )


def _compute_lines(r: Resolved, topo: Topology, nics: int) -> list[BomLine]:
    """GPUs, servers, fabric NICs and the fabric switches of each tier."""
    gpu, server, nic = _compute_descriptions(r.gpu.name, r.server.name, r.nic.name)
    lines = [
        _kept_line(r, r.gpu, "gpus", gpu, r.gpus, r.gpu.unit_cost_usd),
        _kept_line(r, r.server, "servers", server, r.nodes, r.server.chassis_cost_usd),
        _line(r, r.nic, "nics", nic, nics, r.nic.unit_cost_usd),
    ]
    for tier in topo.tier_counts:
        model = tier_switch(r, tier.tier)
        description = _tier_switch_description(tier.tier, model.name)
        lines.append(_kept_line(r, model, "fabric_switches", description, tier.switches, model.unit_cost_usd))
    return lines


def _scale_up_lines(r: Resolved, scale_up: ScaleUpDomain) -> list[BomLine]:
    """The scale-up switch trays of domains across servers (their copper spine is in the tray price)."""
    switch = r.scale_up_switch
    if switch is None:
        return []
    description = kept_msg(
        "Scale-up switch {name} ({per_domain} per {domain}-GPU domain)",
        name=switch.name,
        per_domain=scale_up.switches_per_domain,
        domain=scale_up.domain_gpus,
    )
    return [_kept_line(r, switch, "fabric_switches", description, scale_up.switches, switch.unit_cost_usd)]


@functools.lru_cache(maxsize=256)
def _tier_switch_description(tier: str, name: str) -> Message:
    """A fabric switch line's description, made once per tier and switch name."""
    if tier == "leaf":
        return msg("Leaf switch {name}", name=name)
    if tier == "spine":
        return msg("Spine switch {name}", name=name)
    if tier == "top":
        return msg("Top-tier switch {name} (fourth tier)", name=name)
    return msg("Core switch {name}", name=name)


def _media_lines(
    r: Resolved, catalog: Catalog, media: tuple[LinkMedia, ...], runs: Mapping[str, CableRun]
) -> list[BomLine]:
    """Cable lines per link class (one per ordered length), then one line per optic model summed
    over the link classes."""
    lines = []
    optic_units: dict[str, int] = {}
    optic_classes: dict[str, list[str]] = {}
    for m in media:
        for end in (m.lower, m.upper):
            if end.optic_id and end.units:
                optic_units[end.optic_id] = optic_units.get(end.optic_id, 0) + end.units
                served = optic_classes.setdefault(end.optic_id, [])
                if m.link_class not in served:
                    served.append(m.link_class)
        lines += _cable_lines(r, catalog, m, runs)
    for optic_id in sorted(optic_units):
        optic = catalog.optics[optic_id]
        classes = tuple(optic_classes[optic_id])
        description = _optics_description(optic.name, optic.integrated, classes)
        lines.append(
            _line(r, optic, "optics", description, optic_units[optic_id], optic.unit_cost_usd, classes)
        )
    return lines


@functools.lru_cache(maxsize=1024)
def _optics_description(name: str, integrated: bool, link_classes: tuple[str, ...]) -> Message:
    """An optic line's description (ports or modules, and the compute link classes they serve),
    made once per optic and link classes."""
    links = _joined([_LINK_CLASS_LABEL[link_class] for link_class in link_classes])
    if integrated:
        return msg("{name} (ports; {links})", name=name, links=links)
    return msg("{name} (modules; {links})", name=name, links=links)


@functools.lru_cache(maxsize=4096)
def _cable_description(name: str, length_m: float, link_class: str) -> Message:
    """A cable line's description, made once per cable, ordered length [m] and link class."""
    return msg(
        "{name}, {length_m:g} m ({link})", name=name, length_m=length_m, link=link_class_label(link_class)
    )


@functools.lru_cache(maxsize=1024)
def _modules_description(name: str, link_class: str) -> Message:
    """An auxiliary link class's transceiver line, made once per optic and link class."""
    return msg("{name} (modules; {links})", name=name, links=_AUX_LINK_LABEL[link_class])


def _cable_lines(r: Resolved, catalog: Catalog, m: LinkMedia, runs: Mapping[str, CableRun]) -> list[BomLine]:
    """The cables of one link class: a line per length the layout orders them at, each priced at
    its length.

    Notes
    -----
    ``unit_cost_usd = cable unit cost + cost per metre x ordered length``
    (:func:`planner.fabric.media.cable_unit_cost_usd`). The lengths are the layout's
    (:func:`planner.handoff.runs.cable_runs`); a class the layout does not wire (the fourth tier's
    core-top links), or a plan too large to lay out, keeps the scenario's one length
    (``facility.link_lengths``) for all its cables.
    """
    cable = catalog.cables[m.cable_id]
    run = runs.get(m.link_class)
    laid_out = run is not None and run.cable_part == m.cable_id and run.cables == m.links
    bins = run.ordered_m if run is not None and laid_out else ((m.length_m, m.links),)
    lines = []
    for length_m, count in bins:
        description = _cable_description(cable.name, length_m, m.link_class)
        cost = cable_unit_cost_usd(cable, length_m)
        lines.append(_line(r, cable, "cables", description, count, cost, (m.link_class,), length_m=length_m))
    return lines


def _aux_media_lines(
    r: Resolved, catalog: Catalog, media: tuple[LinkMedia, ...], runs: Mapping[str, CableRun]
) -> list[BomLine]:
    """Cable lines (one per ordered length) and one transceiver line per auxiliary link class (both ends take the
    class's one single-port optic, so a class has one optic model)."""
    lines: list[BomLine] = []
    overrides = r.scenario.price_overrides_usd
    for m in media:
        if m.link_class in runs:
            lines += _aux_class_lines(r, catalog, m, runs)
            continue
        # without a layout a class's lines follow from its media, the catalog and the two prices
        # (each price's type too: an int price stays apart from the equal float, as given)
        cable_usd, optic_usd = overrides.get(m.cable_id), overrides.get(m.upper.optic_id or "")
        values = (cable_usd, type(cable_usd), optic_usd, type(optic_usd))
        kept = _KEPT_AUX_LINES.get((m, catalog), values)
        if kept is None:
            kept = _KEPT_AUX_LINES.put((m, catalog), values, _aux_class_lines(r, catalog, m, runs))
        lines += kept
    return lines


_KEPT_AUX_LINES: IdentityCache[tuple[BomLine, ...]] = IdentityCache(max_entries=1024)
"""An auxiliary link class's lines by its media, the catalog and the class's two price overrides: a
sweep's designs share these classes' media at each size
(:func:`planner.fabric.media.build_aux_link_media` keeps them), so their lines are made once."""


def _aux_class_lines(
    r: Resolved, catalog: Catalog, m: LinkMedia, runs: Mapping[str, CableRun]
) -> tuple[BomLine, ...]:
    """The cable lines of one auxiliary link class and its transceiver line."""
    lines = _cable_lines(r, catalog, m, runs)
    if m.upper.optic_id:
        optic = catalog.optics[m.upper.optic_id]
        description = _modules_description(optic.name, m.link_class)
        lines.append(
            _line(r, optic, "optics", description, m.transceivers, optic.unit_cost_usd, (m.link_class,))
        )
    return tuple(lines)


def _frontend_lines(r: Resolved, aux: AuxiliaryFabrics) -> list[BomLine]:
    """A dedicated front-end network's NICs and switches (none when the in-band network carries it)."""
    fe = aux.frontend
    if fe.nic is None or fe.switch is None:
        return []
    nic, switch = _frontend_descriptions(fe.nic.name, fe.switch.name)
    return [
        _line(r, fe.nic, "management", nic, fe.nics, fe.nic.unit_cost_usd),
        _line(r, fe.switch, "management", switch, fe.switches, fe.switch.unit_cost_usd),
    ]


@functools.lru_cache(maxsize=256)
def _frontend_descriptions(nic: str, switch: str) -> tuple[Message, Message]:
    """The front-end NIC and switch lines' descriptions, from the records' names."""
    return (
        msg("Front-end (north-south) NIC {name}", name=nic),
        msg("Front-end (north-south) switch {name}", name=switch),
    )


def _kind_and_name(text: Message) -> Message:
    """``text`` (a kind, then the record's ``{name}``), or the name alone when the name already
    begins with the kind ("In-band management switch, 32 x 100GbE"), so no line says it twice."""
    name = str(text.params["name"])
    kind = text.template.removesuffix(" {name}")
    return msg("{name}", name=name) if name.lower().startswith(kind.lower()) else text


def _auxiliary_lines(r: Resolved, aux: AuxiliaryFabrics) -> tuple[BomLine, ...]:
    """Storage, its fabric, the front-end network, and the in-band and out-of-band management
    switches: kept by their records (by identity), counts and prices, which a sweep's sizes seldom
    change."""
    fe = aux.frontend
    records = (aux.storage, aux.storage_switch, aux.inband_switch, aux.oob_switch, fe.nic, fe.switch)
    overrides = r.scenario.price_overrides_usd
    # each price's type too: an int price stays apart from the equal float, as given
    prices = [overrides.get(record.id) for record in records if record is not None]
    counts = (aux.storage_units, aux.storage_fabric.switches, aux.inband_fabric.switches)
    values = (*counts, aux.oob_fabric.switches, fe.nics, fe.switches, *prices, *map(type, prices))
    kept = _KEPT_AUXILIARY_LINES.get(records, values)
    if kept is None:
        kept = _KEPT_AUXILIARY_LINES.put(records, values, _made_auxiliary_lines(r, aux))
    return kept


_KEPT_AUXILIARY_LINES: IdentityCache[tuple[BomLine, ...]] = IdentityCache(max_entries=1024)
""":func:`_auxiliary_lines` by the records, counts and prices they are made of."""


def _made_auxiliary_lines(r: Resolved, aux: AuxiliaryFabrics) -> tuple[BomLine, ...]:
    """:func:`_auxiliary_lines`, every time."""
    storage, storage_switch, inband, oob = _auxiliary_descriptions(
        aux.storage.name, aux.storage_switch.name, aux.inband_switch.name, aux.oob_switch.name
    )
    return (
        _line(r, aux.storage, "storage", storage, aux.storage_units, aux.storage.unit_cost_usd),
        _line(
            r,
            aux.storage_switch,
            "storage",
            storage_switch,
            aux.storage_fabric.switches,
            aux.storage_switch.unit_cost_usd,
        ),
        _line(
            r,
            aux.inband_switch,
            "management",
            inband,
            aux.inband_fabric.switches,
            aux.inband_switch.unit_cost_usd,
        ),
        _line(r, aux.oob_switch, "management", oob, aux.oob_fabric.switches, aux.oob_switch.unit_cost_usd),
        *_frontend_lines(r, aux),
    )


@functools.lru_cache(maxsize=256)
def _auxiliary_descriptions(
    storage: str, storage_switch: str, inband: str, oob: str
) -> tuple[Message, Message, Message, Message]:
    """The storage, storage switch, in-band and out-of-band switch lines' descriptions, from the
    records' names."""
    return (
        msg("Storage {name}", name=storage),
        msg("Storage fabric switch {name}", name=storage_switch),
        _kind_and_name(msg("In-band management switch {name}", name=inband)),
        _kind_and_name(msg("Out-of-band management switch {name}", name=oob)),
    )


@per_catalog
def _pdus_for_rack(catalog: Catalog, rack_kw: float) -> tuple[Pdu, int]:
    """:func:`planner.facility.power.pdus_for_rack`, chosen once per catalog and rack limit [kW]."""
    return pdus_for_rack(catalog, rack_kw=rack_kw)


def _facility_lines(
    r: Resolved, catalog: Catalog, racks: Racks, cooling: CoolingResult, it_kw: float
) -> list[BomLine]:
    """Racks, their PDUs, cooling per kW of IT load and the CDUs."""
    rack_text, cooling_text = _facility_descriptions(r.rack.name, r.cooling.name)
    # PDUs are sized for what a rack may draw (its power limit), A and B feeds each carrying it all
    pdu, per_rack = _pdus_for_rack(catalog, racks.rack_power_limit_kw)
    rack, pdus, *cdus = _rack_lines(r, rack_text, pdu, per_rack, racks.total, cooling.cdus)
    per_kw = _line(
        r,
        r.cooling,
        "cooling",
        cooling_text,
        ceil_div(int(it_kw * 1000), 1000),
        r.cooling.capex_usd_per_kw,
        quantity_unit="kW",
    )
    return [rack, pdus, per_kw, *cdus]


def _rack_lines(
    r: Resolved, rack_text: str, pdu: Pdu, per_rack: int, racks: int, cdus: int
) -> tuple[BomLine, ...]:
    """The racks (described by ``rack_text``, made of the rack's and cooling's names), their PDUs
    and the CDUs (none without): kept by their records (by identity), counts and prices, which a
    sweep's sizes seldom change."""
    records = (r.rack, pdu, r.cooling)
    overrides = r.scenario.price_overrides_usd
    # each price's type too: an int price stays apart from the equal float, as given
    prices = [overrides.get(record.id) for record in records]
    values = (per_rack, racks, cdus, *prices, *map(type, prices))
    kept = _KEPT_RACK_LINES.get(records, values)
    if kept is not None:
        return kept
    lines = [
        _line(r, r.rack, "racks_power", rack_text, racks, r.rack.unit_cost_usd),
        _line(
            r,
            pdu,
            "racks_power",
            msg("PDU {name} ({per_rack} per rack)", name=pdu.name, per_rack=per_rack),
            racks * per_rack,
            pdu.unit_cost_usd,
        ),
    ]
    if cdus:
        description = msg("Coolant distribution unit ({cdus}, N+1)", cdus=cdus)
        lines.append(_line(r, r.cooling, "cooling", description, cdus, r.cooling.cdu_unit_cost_usd))
    return _KEPT_RACK_LINES.put(records, values, tuple(lines))


_KEPT_RACK_LINES: IdentityCache[tuple[BomLine, ...]] = IdentityCache(max_entries=1024)
""":func:`_rack_lines` by the records, counts and prices they are made of."""


@functools.lru_cache(maxsize=256)
def _facility_descriptions(rack: str, cooling: str) -> tuple[Message, Message]:
    """The rack and cooling lines' descriptions, from the records' names."""
    return msg("Rack {name}", name=rack), msg(
        "Cooling infrastructure, {name} (per kW of IT load)", name=cooling
    )


@per_catalog
def _services(catalog: Catalog) -> tuple[tuple[CostFactor, Message, str], ...]:
    """(cost factor, description, source) of installation and of spares, once per catalog."""
    installation = catalog.cost_factors["installation_fraction"]
    spares = catalog.cost_factors["spares_fraction"]
    return tuple(
        (factor, description, factor.source or _assumption(factor.reason))
        for factor, description in (
            (
                installation,
                msg("Installation and integration ({fraction:.0%} of hardware)", fraction=installation.value),
            ),
            (spares, msg("Spare parts ({fraction:.0%} of hardware)", fraction=spares.value)),
        )
    )


def _service_lines(catalog: Catalog, hardware_usd: float) -> list[BomLine]:
    """Installation and spares, each a catalog fraction of the hardware (cooling excluded)."""
    return [
        BomLine(
            id=factor.id,
            category="services",
            description=description,
            quantity=1,
            unit_cost_usd=hardware_usd * factor.value,
            source=source,
        )
        for factor, description, source in _services(catalog)
    ]


class Equipment(NamedTuple):
    """What a plan buys and powers before its racks: the compute fabric, the scale-up domains and
    the auxiliary fabrics (the BOM lists it, the power draw adds it up; a named tuple: made at
    every size of a sweep)."""

    topology: Topology
    """The compute fabric's switch and link counts."""
    media: tuple[LinkMedia, ...]
    """Media of the compute fabric's link classes (cables [count], optics [modules])."""
    nics: int
    """Fabric NICs [count]."""
    auxiliary: AuxiliaryFabrics
    """Storage, front-end and management fabrics."""
    scale_up: ScaleUpDomain
    """The scale-up domains (switch trays [count])."""
    aux_media: tuple[LinkMedia, ...]
    """Media of the auxiliary link classes."""


def bom_lines(
    *,
    r: Resolved,
    catalog: Catalog,
    equipment: Equipment,
    racks: Racks,
    cooling: CoolingResult,
    it_kw: float,
    runs: tuple[CableRun, ...] = (),
) -> tuple[BomLine, ...]:
    """The plan's bill of materials: one line per item, each at the scenario's price override.

    Compute (GPUs, servers, fabric NICs, fabric switches per tier), scale-up switch trays, the
    compute fabric's cables per link class and optics per model, storage and management, the
    auxiliary fabrics' cables and optics, racks, PDUs and cooling, then installation and spares.

    Parameters
    ----------
    r
        The resolved scenario (records, counts and price overrides).
    catalog
        The catalog the records come from (cables, optics, PDUs and cost factors are looked up).
    equipment
        The compute fabric (switches, links, media, NICs [count]), the scale-up domains and the
        auxiliary fabrics with their media.
    racks
        Rack layout [racks], with each rack's power limit [kW] for its PDUs.
    cooling
        Cooling result (CDUs [count]).
    it_kw
        Maximum IT power [kW]: cooling infrastructure is priced per kW (rounded up).
    runs
        The cables of the plan's layout by ordered length [m] per link class
        (:func:`planner.handoff.runs.cable_runs`): each class's cables are priced at those lengths,
        one line per length; a class without runs at the scenario's one length.

    Returns
    -------
    tuple of BomLine
        Lines with a quantity above zero; installation and spares [USD] are each
        ``hardware_usd x fraction``, hardware being every other line except cooling (the
        fractions are the catalog's ``cost_factors``).
    """
    by_class = {run.link_class: run for run in runs}
    kit = equipment
    lines = [
        *_compute_lines(r, kit.topology, kit.nics),
        *_scale_up_lines(r, kit.scale_up),
        *_media_lines(r, catalog, kit.media, by_class),
        *_auxiliary_lines(r, kit.auxiliary),
        *_aux_media_lines(r, catalog, kit.aux_media, by_class),
        *_facility_lines(r, catalog, racks, cooling, it_kw),
    ]
    hardware_usd = sum(x.total_usd for x in lines if x.category != "cooling")
    lines += _service_lines(catalog, hardware_usd)
    return tuple(x for x in lines if x.quantity > 0)
