"""The orchestrator: one scenario in, one frozen :class:`Plan` out.

Each step calls one pure function (topology, media, auxiliary fabrics, power, racks, cooling,
BOM, cost, bandwidth, latency); this module only wires them. The BOM lines are written by
:func:`planner.bom.bom_lines`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from planner.bom import Equipment, bom_lines, link_class_label, tier_switch
from planner.catalog import Catalog, with_calibration
from planner.catalog.memo import IdentityCache, per_catalog
from planner.catalog.schema import Record, Switch
from planner.cost import BomLine, Cost, cost_summary
from planner.design import VendorClaim
from planner.fabric.auxiliary import (
    AuxiliaryFabrics,
    aux_link_counts,
    aux_link_media,
    aux_server_optics_w,
    size_auxiliary,
)
from planner.fabric.collectives import (
    Bandwidth,
    auto_time_us,
    bandwidth,
    build_fabric,
    coefficients,
    with_reduction,
)
from planner.fabric.media import (
    FABRIC_LINK_CLASSES,
    LinkMedia,
    build_link_media,
    length_field,
)
from planner.fabric.network import Latency, path_latency_ns
from planner.fabric.scale_up import ScaleUpDomain, in_server_domain, switched_domain
from planner.fabric.topology import ServerPorts, Topology, build_topology, server_ports
from planner.facility.cooling import CoolingResult, cooling_summary
from planner.facility.power import Power, Racks, power_summary, rack_layout
from planner.handoff.runs import MAX_LAID_OUT_CABLES, CableRun, cable_runs
from planner.i18n.message import msg
from planner.inputs.layout import LayoutParams
from planner.inputs.scenario import Scenario
from planner.resolve import Resolved, link_gbit_per_s, resolve
from planner.units import ceil_div, w_to_kw


@dataclass(frozen=True)
class Assumption:
    """One assumption or source behind a plan's numbers."""

    kind: str
    """``"assumption"`` (a figure chosen with a reason) or ``"source"`` (a cited figure)."""
    topic: str
    text: str
    source: str


@dataclass(frozen=True)
class SwitchModels:
    """Catalog id of the compute-fabric switch model at each tier (``None`` where a tier is absent)."""

    leaf_id: str
    spine_id: str | None = None
    core_id: str | None = None


@dataclass(frozen=True)
class SizedCluster:
    """The cluster as sized before it is priced: what the layout of its cables reads
    (:class:`planner.handoff.sized.Sized`); a :class:`Plan` holds each field under the same name."""

    scenario: Scenario
    nodes: int
    server_id: str
    topology: Topology
    media: tuple[LinkMedia, ...]
    aux_media: tuple[LinkMedia, ...]
    auxiliary: AuxiliaryFabrics
    scale_up: ScaleUpDomain
    server_ports: ServerPorts
    switch_models: SwitchModels
    power: Power
    racks: Racks


@dataclass(frozen=True)
class Plan:
    """Everything the engine computes for one scenario. Frozen and picklable."""

    scenario: Scenario
    design_id: str
    design_name: str
    gpu_id: str
    gpu_name: str
    server_id: str
    gpus_requested: int
    gpus: int
    nodes: int
    nics: int
    topology: Topology
    media: tuple[LinkMedia, ...]
    auxiliary: AuxiliaryFabrics
    bandwidth: Bandwidth
    latency: Latency
    power: Power
    racks: Racks
    cooling: CoolingResult
    cost: Cost
    bom: tuple[BomLine, ...]
    notes: tuple[str, ...]
    assumptions: tuple[Assumption, ...]
    claims: tuple[VendorClaim, ...]
    switch_models: SwitchModels
    """The switch model of each tier of the compute fabric."""
    server_ports: ServerPorts
    """NICs, ports and links of one server on the compute fabric."""
    scale_up: ScaleUpDomain
    """The scale-up domains: size, servers, switches and links."""
    aux_media: tuple[LinkMedia, ...] = ()
    """Links of the storage, front-end, in-band and out-of-band fabrics, one per link class
    (:data:`planner.fabric.media.AUX_LINK_CLASSES`), each with its medium and optics."""

    @property
    def transceivers(self) -> int:
        """Optical ends of the compute fabric: pluggable modules plus NPO/CPO ports."""
        return sum(m.transceivers for m in self.media)

    @property
    def cables(self) -> int:
        """Cables of the compute fabric (one per link)."""
        return sum(m.links for m in self.media)


def _tier_switches(r: Resolved, tiers: int) -> tuple[Switch, ...]:
    """The switch model of each tier bottom up, for a fabric of ``tiers`` tiers."""
    return (r.switch, r.spine_switch, r.core_switch, r.core_switch)[:tiers]


def _switch_models(r: Resolved, topo: Topology) -> SwitchModels:
    ids = {t.tier: tier_switch(r, t.tier).id for t in topo.tier_counts}
    # without a scale-out fabric the leaf model is the one a forced fabric would buy
    return _models(ids.get("leaf", r.switch.id), ids.get("spine"), ids.get("core"))


@functools.lru_cache(maxsize=256)
def _models(leaf_id: str, spine_id: str | None, core_id: str | None) -> SwitchModels:
    """:class:`SwitchModels` made once per ids (a sweep's sizes share a handful)."""
    return SwitchModels(leaf_id=leaf_id, spine_id=spine_id, core_id=core_id)


def _fabric_media(r: Resolved, topo: Topology, nics: int, catalog: Catalog) -> tuple[LinkMedia, ...]:
    lengths = r.scenario.facility.link_lengths
    switches = {t.tier: t.switches for t in topo.tier_counts}
    leaf, spine, core = switches.get("leaf", 0), switches.get("spine", 0), switches.get("core", 0)
    # (links, devices at the lower and the upper end, length [m]) of each class; core-top links
    # run between network rows like spine-core links: the same length
    classes = {
        "node_leaf": (topo.links_node_leaf, nics, leaf, lengths.node_leaf_m),
        "leaf_spine": (topo.links_leaf_spine, leaf, spine, lengths.leaf_spine_m),
        "spine_core": (topo.links_spine_core, spine, core, lengths.spine_core_m),
        "core_top": (topo.links_core_top, core, switches.get("top", 0), lengths.spine_core_m),
    }
    media = []
    for link_class in FABRIC_LINK_CLASSES:
        links, lower_devices, upper_devices, length_m = classes[link_class]
        if links == 0:
            continue
        media.append(
            build_link_media(
                catalog=catalog,
                link_class=link_class,
                links=links,
                length_m=length_m,
                speed_gbit_per_s=link_gbit_per_s(r.fabric),
                lower_devices=lower_devices,
                upper_devices=upper_devices,
                lower_optic=r.node_optic if link_class == "node_leaf" else r.optic,
                upper_optic=r.optic,
                forced_id=r.fabric.link_media.get(link_class),
                links_per_lower_port=r.fabric.planes_per_port if link_class == "node_leaf" else 1,
            )
        )
    return tuple(media)


def _paths(
    r: Resolved, topo: Topology, media: tuple[LinkMedia, ...], serdes_fec_ns_per_link: float
) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
    """Latency components [ns] of the shortest (one leaf) and the longest (top tier) path.

    Without a scale-out fabric both are the scale-up path: two links and, in a domain across
    servers, its switch (inside a server the catalog has no switch latency: links only).
    """
    if not topo.tiers:
        switch_ns = r.scale_up_switch.latency_ns if r.scale_up_switch else 0.0
        path = path_latency_ns(
            link_latency_ns=(0.0, 0.0),
            nic_latency_ns=0.0,
            switch_latency_ns=(switch_ns,),
            serdes_fec_ns_per_link=serdes_fec_ns_per_link,
        )
        return path, path
    per_class: dict[str, float] = {m.link_class: m.latency_ns_per_link for m in media}
    order = list(FABRIC_LINK_CLASSES[: topo.tiers])
    worst_links = tuple(per_class[c] for c in order) + tuple(per_class[c] for c in reversed(order))
    best_links = (per_class["node_leaf"], per_class["node_leaf"])
    tier_switches = _tier_switches(r, topo.tiers)
    path_switches = tier_switches + tuple(reversed(tier_switches[:-1]))
    worst = path_latency_ns(
        link_latency_ns=worst_links,
        nic_latency_ns=r.nic.latency_ns,
        switch_latency_ns=tuple(x.latency_ns for x in path_switches),
        serdes_fec_ns_per_link=serdes_fec_ns_per_link,
    )
    best = path_latency_ns(
        link_latency_ns=best_links,
        nic_latency_ns=r.nic.latency_ns,
        switch_latency_ns=(r.switch.latency_ns,),
        serdes_fec_ns_per_link=serdes_fec_ns_per_link,
    )
    return best, worst


def _latency(
    topo: Topology,
    best: tuple[tuple[str, float], ...],
    worst: tuple[tuple[str, float], ...],
    small_allreduce_us: float,
) -> Latency:
    return Latency(
        min_switch_hops=topo.min_switch_hops,
        max_switch_hops=topo.max_switch_hops,
        components_ns=worst,
        gpu_to_gpu_min_ns=sum(ns for _, ns in best),
        gpu_to_gpu_ns=sum(ns for _, ns in worst),
        allreduce_small_us=small_allreduce_us,
    )


_RECORD_ASSUMPTIONS: IdentityCache[Assumption] = IdentityCache(max_entries=8192)
"""A record's entry by the record (and its family): the same in every plan that uses it, so a sweep
builds it once (a catalog has a few hundred records)."""


def _record_assumption(family: str, record: Record) -> Assumption:
    """The plan's entry for one catalog record: its reason, or its source (cached per record)."""
    hit = _RECORD_ASSUMPTIONS.get((record,), (family,))
    if hit is not None:
        return hit
    topic = f"{family}.{record.id}"
    if record.assumption:
        reason = msg("{name}: {reason}", name=record.name, reason=record.reason)
        entry = Assumption("assumption", topic, reason, "assumption")
    else:
        noted = msg("{name} ({notes})", name=record.name, notes=record.notes)
        text = noted if record.notes else record.name
        # a message: the app and the PDF show the cited source in the reader's language
        cited = msg("{source} ({as_of})", source=record.source, as_of=record.as_of)
        entry = Assumption("source", topic, text, cited)
    return _RECORD_ASSUMPTIONS.put((record,), (family,), entry)


@per_catalog
def _catalog_wide_assumptions(catalog: Catalog) -> tuple[tuple[tuple[str, str], Assumption], ...]:
    """``((family, id), entry)`` of the records every plan lists: cost factors and sizing rules."""
    records: list[tuple[str, Record]] = [("cost_factors", x) for x in catalog.cost_factors.values()]
    records += [("sizing_rules", x) for x in catalog.sizing_rules.values()]
    return tuple(((family, record.id), _record_assumption(family, record)) for family, record in records)


_ASSUMPTION_LISTS: IdentityCache[tuple[Assumption, ...]] = IdentityCache(max_entries=256)
"""A plan's assumptions by the catalog, floor, link lengths and tuple of records they are made from
(:func:`_assumptions`); each entry keeps its catalog alive, and a sweep needs one per design."""


def _assumptions(r: Resolved, catalog: Catalog) -> tuple[Assumption, ...]:
    """:func:`_listed_assumptions`, made once for every plan that uses the same catalog records on
    the same floor, link lengths and load factor without a calibration: every size of a sweep."""
    if r.scenario.calibration is not None:
        return _listed_assumptions(r, catalog)
    facility = r.scenario.facility
    # the floor, the link lengths and the records by identity (a sweep's sizes share them, and
    # resolve hands every size of a design the same tuple of records): no model hashed
    made_of = (catalog, r.scenario.floor, facility.link_lengths, r.used)
    values = (facility.load_factor,)
    hit = _ASSUMPTION_LISTS.get(made_of, values)
    if hit is not None:
        return hit
    return _ASSUMPTION_LISTS.put(made_of, values, _listed_assumptions(r, catalog))


def _listed_assumptions(r: Resolved, catalog: Catalog) -> tuple[Assumption, ...]:
    """One entry per catalog record used (its reason or its source), then the model's own choices."""
    items: list[Assumption] = []
    seen = set()
    for family, record in r.used:
        key = (family, record.id)
        if key not in seen:
            seen.add(key)
            items.append(_record_assumption(family, record))
    items += [entry for key, entry in _catalog_wide_assumptions(catalog) if key not in seen]
    return (*_calibration_assumption(r.scenario), *items, *_model_assumptions(r))


def floor_text(floor: LayoutParams | None) -> str:
    """The floor the BOM's cable lengths come from, in words: the scenario's own (``floor``) or
    the default one (``None``); row length, rows, rack footprint, aisles [m].

    Parameters
    ----------
    floor : LayoutParams or None
        The scenario's floor (``Scenario.floor``: row length, rows, rack footprint, aisles, tray
        height and service loop [m]); ``None`` for the default floor.

    Returns
    -------
    str
        The floor in one sentence (a translatable message), its lengths in metres.

    Examples
    --------
    >>> print(floor_text(None))
    the rack layout's floor (the default floor): rows up to 12 m long, as many rows as needed; racks 0.6 x 1.2 m, cold aisle 1.2 m, hot aisle 1.2 m, cable tray 0.3 m above the racks, 1.5 m service loop per cable
    """
    used = floor or LayoutParams()  # the engine's floor_text(scenario.floor): None says "default"
    origin = msg("the scenario's floor") if floor is not None else msg("the default floor")
    rows = (
        msg("as many rows as needed")
        if used.max_rows is None
        else msg("at most {max_rows} rows", max_rows=used.max_rows)
    )
    return msg(
        "the rack layout's floor ({origin}): rows up to {row_length_m:g} m long, {rows}; racks "
        "{rack_width_m:g} x {rack_depth_m:g} m, cold aisle {cold_aisle_m:g} m, hot aisle {hot_aisle_m:g} m, "
        "cable tray {tray_height_m:g} m above the racks, {slack_m:g} m service loop per cable",
        origin=origin,
        rows=rows,
        row_length_m=used.row_length_m,
        rack_width_m=used.rack_width_m,
        rack_depth_m=used.rack_depth_m,
        cold_aisle_m=used.cold_aisle_m,
        hot_aisle_m=used.hot_aisle_m,
        tray_height_m=used.tray_height_m,
        slack_m=used.slack_m,
    )


def _calibration_assumption(scenario: Scenario) -> tuple[Assumption, ...]:
    """The scenario's calibration and its provenance, first in the list (none without one)."""
    cal = scenario.calibration
    if cal is None:
        return ()
    overridden = ", ".join(f"{family}.{r['id']}" for family, items in cal.records.items() for r in items)
    files = "; ".join(f"{f.name} (sha256 {f.sha256})" for f in cal.files) or "-"
    text = msg(
        "calibrated to the customer's own measurements ({measured}; hosts {hosts}; measured on {date}); "
        "overridden catalog values: {overridden}; files: {files}",
        measured=cal.measured,
        hosts=", ".join(cal.hosts) or "-",
        date=cal.measured_on,
        overridden=overridden,
        files=files,
    )
    source = msg(
        "measured on the built cluster, fitted by planner calibrate ({date}); agreement with the same "
        "runs checks the fit, it does not validate the model",
        date=cal.measured_on,
    )
    return (Assumption("source", "calibration", text, source),)


def _model_assumptions(r: Resolved) -> list[Assumption]:
    """The modelling choices behind the numbers that no catalog record carries."""
    lengths = r.scenario.facility.link_lengths
    floor = r.scenario.layout_floor

    def chosen(topic: str, text: str) -> Assumption:
        return Assumption("assumption", topic, text, "assumption")

    return [
        chosen("model.floor", floor_text(r.scenario.floor)),
        chosen(
            "model.link_lengths",
            msg(
                "media chosen for cable lengths node-leaf {node_leaf_m:g} m, leaf-spine {leaf_spine_m:g} m, "
                "spine-core {spine_core_m:g} m (editable); each cable is priced at the length the rack "
                "layout gives it ({row_length_m:g} m rows, network rows amid the compute rows), "
                "ordered at the next standard length",
                row_length_m=floor.row_length_m,
                node_leaf_m=lengths.node_leaf_m,
                leaf_spine_m=lengths.leaf_spine_m,
                spine_core_m=lengths.spine_core_m,
            ),
        ),
        chosen(
            "model.switch_placement",
            msg("all fabric, storage and management switches and storage sit in network racks"),
        ),
        chosen("model.heat", msg("heat load equals maximum IT power")),
        chosen("model.cdu_redundancy", msg("CDUs sized N+1")),
        chosen(
            "model.auxiliary_cabling",
            msg(
                "storage, front-end and management cabling: access links at the node-leaf length, "
                "links between their switch tiers at the leaf-spine length; medium by reach "
                "(copper, else a single-port optic at each end); front-end border ports to the "
                "site network and PDU management ports are not cabled"
            ),
        ),
        chosen(
            "model.energy",
            msg(
                "energy at load factor {load_factor:.0%} of maximum facility power",
                load_factor=r.scenario.facility.load_factor,
            ),
        ),
    ]


def plan(*, scenario: Scenario, catalog: Catalog, layout_cable_lengths: bool = True) -> Plan:
    """Size, power, cool and cost one cluster.

    Parameters
    ----------
    scenario
        The validated request.
    catalog
        Component catalog (see :func:`planner.catalog.load_catalog`).
    layout_cable_lengths
        Price the cables at the lengths of the plan's layout on the scenario's floor
        (``scenario.floor``, the default floor when empty; :func:`planner.handoff.runs.cable_runs`),
        one BOM line per ordered length; ``False``
        prices every cable of a link class at the scenario's one length
        (``facility.link_lengths``): a sweep over many sizes does, and says so.

    Returns
    -------
    Plan
        Frozen result; ``planner.outputs.plan_to_dict`` gives its JSON form.

    Raises
    ------
    InputError
        A scenario field is outside what the design and catalog allow; the message names it
        (``layout.max_rows``, ``layout.row_length_m``: the floor holds no layout of the racks).
    """
    catalog = with_calibration(catalog, scenario.calibration)
    r = resolve(scenario=scenario, catalog=catalog)
    kit, ports, aux_server_w = _equipment(r, catalog)
    topo, media, nics, aux, scale_up = kit.topology, kit.media, kit.nics, kit.auxiliary, kit.scale_up
    draw = _power_draw(r, catalog, kit, aux_server_w)
    power = power_summary(
        by_category_w=draw.by_category_w,
        pue=_pue(r),
        load_factor=scenario.facility.load_factor,
        node_w=draw.server_w / r.nodes,
    )
    racks = _racks(r, catalog, topo, aux, draw, scale_up)
    cooling = cooling_summary(
        cooling=r.cooling, it_kw=power.it_kw, server_kw=w_to_kw(draw.server_w), max_rack_kw=racks.max_rack_kw
    )
    parts: dict[str, Any] = {
        "scenario": scenario,
        "nodes": r.nodes,
        "server_id": r.server.id,
        "topology": topo,
        "media": media,
        "aux_media": kit.aux_media,
        "auxiliary": aux,
        "scale_up": scale_up,
        "server_ports": ports,
        "switch_models": _switch_models(r, topo),
        "power": power,
        "racks": racks,
    }
    # the cable layout reads the sized cluster; a sweep's size, priced without one, builds none
    sized = SizedCluster(**parts) if layout_cable_lengths else None
    bom, cable_notes = _bom(r, catalog, sized, kit, cooling, racks, power.it_kw)
    bw, latency = _performance(
        r, catalog, topo, media, ports.per_gpu_gbit_per_s if topo.tiers else 0.0, scale_up
    )
    return Plan(
        **parts,
        design_id=r.design_id,
        design_name=r.design_name,
        gpu_id=r.gpu.id,
        gpu_name=r.gpu.name,
        gpus_requested=scenario.gpus,
        gpus=r.gpus,
        nics=nics,
        bandwidth=bw,
        latency=latency,
        cooling=cooling,
        cost=_cost(r, catalog, bom, power, racks),
        bom=bom,
        notes=_notes(r, cooling, bw, topo, scale_up) + cable_notes,
        assumptions=_assumptions(r, catalog),
        claims=r.design.claims,
    )


def _equipment(r: Resolved, catalog: Catalog) -> tuple[Equipment, ServerPorts, float]:
    """The scale-up domains, the compute fabric (topology, NICs, media) and the auxiliary fabrics;
    one server's ports on the compute fabric, and the power of the auxiliary optics in the
    servers [W]."""
    scale_up = _scale_up(r)
    topo = build_topology(
        nodes=r.nodes,
        gpus_per_node=r.server.gpus_per_node,
        fabric=r.fabric,
        radix=r.radix,
        spine_radix=r.spine_radix,
        core_radix=r.core_radix,
        scale_out=r.gpus > scale_up.domain_gpus or r.scenario.force_scale_out_fabric,
    )
    ports = server_ports(gpus_per_node=r.server.gpus_per_node, fabric=r.fabric, nic_ports=r.nic.ports)
    nics = r.nodes * ports.nics if topo.tiers else 0
    media = _fabric_media(r, topo, nics, catalog)
    aux, aux_media, aux_server_w = _auxiliary(r, catalog, topo, scale_up)
    kit = Equipment(
        topology=topo, media=media, nics=nics, auxiliary=aux, scale_up=scale_up, aux_media=aux_media
    )
    return kit, ports, aux_server_w


def _bom(
    r: Resolved,
    catalog: Catalog,
    sized: SizedCluster | None,
    kit: Equipment,
    cooling: CoolingResult,
    racks: Racks,
    it_kw: float,
) -> tuple[tuple[BomLine, ...], tuple[str, ...]]:
    """The BOM, its cables at the lengths of the plan's layout of ``sized`` (``None``: the
    scenario's one length per link class), and what the plan says of those lengths."""
    runs = cable_runs(plan=sized, catalog=catalog, params=r.scenario.floor) if sized is not None else ()
    lines = bom_lines(
        r=r, catalog=catalog, equipment=kit, racks=racks, cooling=cooling, it_kw=it_kw, runs=runs
    )
    return lines, _cable_notes(sized, catalog, runs)


def _cable_notes(sized: SizedCluster | None, catalog: Catalog, runs: tuple[CableRun, ...]) -> tuple[str, ...]:
    """What the plan says of its cable lengths: a plan too large to lay out keeps the scenario's
    one length per link class; a layout run beyond its medium's reach names the field to raise."""
    if sized is None:  # a sweep's size: priced at the scenario's lengths, as the sweep says
        return ()
    cables = sum(m.links for m in (*sized.media, *sized.aux_media))
    if not runs and cables:
        return (
            msg(
                "the BOM prices cables at the scenario's one length per link class: the plan's "
                "{cables:,} cables are more than the {limit:,} the layout is drawn for",
                cables=cables,
                limit=MAX_LAID_OUT_CABLES,
            ),
        )
    beyond = [run for run in runs if run.longest_m > run.reach_m]
    parts = {**catalog.cables, **catalog.optics} if beyond else {}
    return tuple(
        msg(
            "{link}: the layout runs cables up to {length_m:g} m, beyond the {reach_m:g} m that "
            "{part} reaches; set facility.link_lengths.{field} to at least {length_m:g} so the plan "
            "picks a medium that reaches",
            link=link_class_label(run.link_class),
            length_m=run.longest_m,
            reach_m=run.reach_m,
            part=parts[run.reach_part].name,
            field=length_field(run.link_class),
        )
        for run in beyond
    )


def _auxiliary(
    r: Resolved, catalog: Catalog, topo: Topology, scale_up: ScaleUpDomain
) -> tuple[AuxiliaryFabrics, tuple[LinkMedia, ...], float]:
    """Storage and front-end pools from the scenario's targets, and the management networks (whose
    OOB ports count every compute and scale-up switch); the media of their link classes, and the
    power of their optics in the servers [W]."""
    aux = size_auxiliary(
        catalog=catalog,
        storage=r.storage,
        gpus=r.gpus,
        nodes=r.nodes,
        fabric_switches=topo.switches_total + scale_up.switches,
        pools=r.scenario.pools,
        gpus_per_node=r.server.gpus_per_node,
    )
    counts = aux_link_counts(aux, nodes=r.nodes)
    media = aux_link_media(catalog=catalog, counts=counts, lengths=r.scenario.facility.link_lengths)
    return aux, media, aux_server_optics_w(catalog, counts, media)


def _scale_up(r: Resolved) -> ScaleUpDomain:
    """The scale-up domains: inside each server, or across servers on the design's switch trays."""
    fabric = r.fabric
    if r.scale_up_switch is None or fabric.scale_up_links_per_gpu is None:
        return in_server_domain(
            gpus=r.gpus, gpus_per_node=r.server.gpus_per_node, domain_gpus=fabric.scale_up_domain_gpus
        )
    return switched_domain(
        gpus=r.gpus,
        gpus_per_node=r.server.gpus_per_node,
        domain_gpus=fabric.scale_up_domain_gpus,
        switch=r.scale_up_switch,
        links_per_gpu=fabric.scale_up_links_per_gpu,
        scale_up_gbyte_per_s=r.gpu.scale_up_bandwidth_gbyte_per_s,
    )


class _Draw(NamedTuple):
    """The power draw of a plan, split as the racks are (a named tuple: made at every size)."""

    by_category_w: dict[str, float]
    """Maximum power of each BOM category [W]."""
    server_w: float
    """All servers with their GPUs, NICs and node-end optics [W]."""
    infra_w: float
    """Everything that is not a server: switches, fabric optics, storage [W]."""


def _power_draw(r: Resolved, catalog: Catalog, kit: Equipment, aux_server_optics_w: float) -> _Draw:
    """Maximum power by category, and the part that sits in the servers (with the scale-up
    switch trays, which sit in the compute racks beside them).

    Optics: the compute and the auxiliary link classes; the auxiliary optics plugged into the
    servers (``aux_server_optics_w``) load the compute racks like the node-end compute optics."""
    node_end_optics_w = 0.0
    aux = kit.auxiliary
    scale_up_w = kit.scale_up.switches * r.scale_up_switch.power_max_w if r.scale_up_switch else 0.0
    fe = aux.frontend
    frontend_nic_w = fe.nics * fe.nic.power_w if fe.nic else 0.0
    frontend_switch_w = fe.switches * fe.switch.power_max_w if fe.switch else 0.0
    for m in kit.media:
        if m.link_class == "node_leaf" and m.lower.optic_id:
            node_end_optics_w = m.lower.units * catalog.optics[m.lower.optic_id].power_w
    by_category_w = {
        "gpus": r.gpus * r.gpu.tdp_w,
        "servers": r.nodes * r.server.base_power_w,
        "nics": kit.nics * r.nic.power_w,
        "fabric_switches": sum(
            t.switches * tier_switch(r, t.tier).power_max_w for t in kit.topology.tier_counts
        )
        + scale_up_w,
        "optics": sum(m.power_w for m in (*kit.media, *kit.aux_media)),
        "storage": aux.storage_units * aux.storage.power_w
        + aux.storage_fabric.switches * aux.storage_switch.power_max_w,
        "management": aux.inband_fabric.switches * aux.inband_switch.power_max_w
        + aux.oob_fabric.switches * aux.oob_switch.power_max_w
        + frontend_switch_w
        + frontend_nic_w,
    }
    # node-end optics plug into the server's NICs and front-end NICs sit in the servers, so both
    # load the compute racks
    server_w = (
        by_category_w["gpus"]
        + by_category_w["servers"]
        + by_category_w["nics"]
        + node_end_optics_w
        + scale_up_w
        + frontend_nic_w
        + aux_server_optics_w
    )
    return _Draw(by_category_w, server_w, sum(by_category_w.values()) - server_w)


def _pue(r: Resolved) -> float:
    facility = r.scenario.facility
    return facility.pue_override if facility.pue_override is not None else r.cooling.pue_default


def _racks(
    r: Resolved, catalog: Catalog, topo: Topology, aux: AuxiliaryFabrics, draw: _Draw, scale_up: ScaleUpDomain
) -> Racks:
    """Compute racks filled to the power limit, network racks holding every switch and storage.

    A domain across servers (an NVL72 rack) is placed whole: its trays and scale-up switches
    are one unit (split over the fewest racks whose space holds it), and a rack holds at least
    one unit even above the facility's power limit (the cooling check then says whether the
    facility can remove its heat).
    """
    infra_u = (
        sum(t.switches * tier_switch(r, t.tier).rack_units for t in topo.tier_counts)
        + aux.storage_units * aux.storage.rack_units
        + aux.storage_fabric.switches * aux.storage_switch.rack_units
        + aux.inband_fabric.switches * aux.inband_switch.rack_units
        + aux.oob_fabric.switches * aux.oob_switch.rack_units
        + (aux.frontend.switches * aux.frontend.switch.rack_units if aux.frontend.switch else 0)
    )
    per_unit, switches_per_unit = 1, 0
    if r.scale_up_switch is not None:
        # a domain taller than a rack (NVL144-class) is split over the fewest racks that hold it
        domain_u = (
            scale_up.servers_per_domain * r.server.rack_units
            + scale_up.switches_per_domain * r.scale_up_switch.rack_units
        )
        split = ceil_div(domain_u, r.rack.usable_rack_units)
        per_unit = ceil_div(scale_up.servers_per_domain, split)
        switches_per_unit = ceil_div(scale_up.switches_per_domain, split)
    unit_kw = w_to_kw(draw.server_w / r.nodes) * per_unit
    unit_u = per_unit * r.server.rack_units
    if r.scale_up_switch is not None:
        unit_u += switches_per_unit * r.scale_up_switch.rack_units
    racks = rack_layout(
        nodes=ceil_div(r.nodes, per_unit),
        node_kw=unit_kw,
        node_rack_units=unit_u,
        usable_rack_units=r.rack.usable_rack_units,
        rack_power_limit_kw=max(r.scenario.facility.rack_power_limit_kw, unit_kw if per_unit > 1 else 0.0),
        infra_kw=w_to_kw(draw.infra_w),
        infra_rack_units=infra_u,
        network_fill_fraction=catalog.sizing_rules["network_rack_fill_fraction"].value,
    )
    # a unit of several servers (a domain across servers) was laid out as one node
    return replace(racks, nodes_per_rack=racks.nodes_per_rack * per_unit) if per_unit > 1 else racks


def electricity_usd_per_kwh(r: Resolved) -> float:
    """The electricity price a plan is costed at [USD/kWh]: the scenario's own when it states one,
    else that of its energy price record (``facility.energy_price_id``); the optimizer prices the
    same.

    Parameters
    ----------
    r : Resolved
        The resolved scenario.

    Returns
    -------
    float
        Electricity price [USD/kWh].
    """
    return r.scenario.facility.electricity_usd_per_kwh or r.energy_price.usd_per_kwh


def _cost(r: Resolved, catalog: Catalog, bom: tuple[BomLine, ...], power: Power, racks: Racks) -> Cost:
    facility = r.scenario.facility
    return cost_summary(
        lines=bom,
        gpus=r.gpus,
        facility_avg_kw=power.facility_avg_kw,
        electricity_usd_per_kwh=electricity_usd_per_kwh(r),
        maintenance_fraction_per_year=catalog.cost_factors["maintenance_fraction_per_year"].value,
        racks=racks.total,
        space_usd_per_rack_year=catalog.cost_factors["space_usd_per_rack_year"].value,
        years=facility.years,
        discount_rate=facility.discount_rate,
        utilization=facility.utilization,
        usd_to_cny=facility.usd_to_cny or r.exchange_rate.per_usd,
        currency=facility.currency,
    )


_coefficients = per_catalog(coefficients)
"""The collective model's coefficients, read from a catalog once (they are its sizing rules)."""


def _performance(
    r: Resolved,
    catalog: Catalog,
    topo: Topology,
    media: tuple[LinkMedia, ...],
    per_gpu_gbit_per_s: float,
    scale_up: ScaleUpDomain,
) -> tuple[Bandwidth, Latency]:
    """Collective bandwidth of the fabric and the GPU-to-GPU latency of its paths.

    Every bandwidth figure and the 8-byte all-reduce latency come from one
    :class:`planner.fabric.collectives.CollectiveFabric`, the one Workload and Reliability use.
    """
    fabric = r.fabric
    coeffs = _coefficients(catalog)
    best, worst = _paths(r, topo, media, coeffs.serdes_fec_ns_per_link)
    tiers = _tier_switches(r, topo.tiers)
    levels = build_fabric(
        gpus=r.gpus,
        gpus_per_node=r.server.gpus_per_node,
        domain_gpus=scale_up.domain_gpus,
        nodes=topo.nodes,
        tiers=topo.tiers,
        radix=topo.radix,
        leaf_down_ports=topo.leaf_down_ports,
        ports_per_node_per_plane=topo.ports_per_node_per_plane,
        rail_optimized=fabric.rail_optimized,
        oversubscription=topo.oversubscription,
        per_gpu_gbit_per_s=per_gpu_gbit_per_s,
        nccl_efficiency=r.nic.nccl_efficiency,
        nic_alpha_us=r.nic.alpha_us,
        scale_up_line_gbyte_per_s=r.gpu.scale_up_bandwidth_gbyte_per_s,
        nvls_capable=r.gpu.nvls_allreduce,
        switch_reduces=tuple(s.in_network_reduction for s in tiers),
        path_min_ns=sum(ns for _, ns in best),
        path_max_ns=sum(ns for _, ns in worst),
        max_switch_hops=topo.max_switch_hops,
        coefficients=coeffs,
        label=r.design_id,
    )
    levels = with_reduction(levels, r.scenario.in_switch_reduction)
    bw = bandwidth(
        fabric=levels, per_gpu_gbit_per_s=per_gpu_gbit_per_s, oversubscription=topo.oversubscription
    )
    small_us = auto_time_us(fabric=levels, collective="all_reduce", message_bytes=8)
    return bw, _latency(topo, best, worst, small_us)


def _notes(
    r: Resolved, cooling: CoolingResult, bw: Bandwidth, topo: Topology, scale_up: ScaleUpDomain
) -> tuple[str, ...]:
    notes = [*r.notes, *bw.fabric.notes]
    if not topo.tiers:
        notes.append(
            msg(
                "{gpus} GPUs fit one {domain}-GPU scale-up domain: no scale-out switches, NICs, links "
                "or optics are planned (set force_scale_out_fabric to plan them)",
                gpus=r.gpus,
                domain=scale_up.domain_gpus,
            )
        )
    if not cooling.density_feasible:
        notes.append(
            msg(
                "densest rack draws {rack_kw:.1f} kW, above the {limit_kw:g} kW that {cooling} can remove: "
                "lower facility.rack_power_limit_kw or choose liquid cooling",
                rack_kw=cooling.max_rack_kw,
                limit_kw=cooling.cooling_limit_kw_per_rack,
                cooling=r.cooling.name,
            )
        )
    notes.append(bw.explanation)
    return tuple(notes)


def price_of(plan_: Plan) -> Mapping[str, float]:
    """Unit prices used by a plan, by catalog id [USD] (for editing prices in place).

    Parameters
    ----------
    plan_ : Plan
        The plan whose BOM lines carry the prices.

    Returns
    -------
    Mapping of str to float
        Unit price of each catalog record on the BOM [USD per unit; a cable line's price at its
        ordered length], installation and spares left out (they are fractions, not prices).
    """
    return {line.id: line.unit_cost_usd for line in plan_.bom if line.category != "services"}
