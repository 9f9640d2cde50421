"""Resolve a scenario against the catalog: which records a plan uses, and the node count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from planner.catalog import Catalog
from planner.catalog.memo import IdentityCache
from planner.catalog.schema import (
    Cooling,
    Design,
    EnergyPrice,
    ExchangeRate,
    Gpu,
    Nic,
    Optic,
    Rack,
    Record,
    Server,
    Storage,
    Switch,
)
from planner.design import FabricParams
from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs.scenario import PRODUCT_RANGE_GPUS, Facility, Scenario
from planner.units import ceil_div

R = TypeVar("R", bound=Record)


class Resolved(NamedTuple):
    """Everything a plan needs, looked up once (a named tuple: made at every size of a sweep, it
    costs about a third of what a frozen dataclass of its 26 fields does to build)."""

    scenario: Scenario
    design: Design
    design_id: str
    design_name: str
    fabric: FabricParams
    gpu: Gpu
    server: Server
    nic: Nic
    switch: Switch
    spine_switch: Switch
    core_switch: Switch
    scale_up_switch: Switch | None
    """The switch (tray) joining servers into one scale-up domain; ``None`` inside a server."""
    optic: Optic
    node_optic: Optic
    rack: Rack
    cooling: Cooling
    storage: Storage
    energy_price: EnergyPrice
    exchange_rate: ExchangeRate
    radix: int
    spine_radix: int
    core_radix: int
    nodes: int
    gpus: int
    notes: tuple[str, ...]
    used: tuple[tuple[str, Record], ...]
    """(family, record) of every catalog record the plan uses."""


def _pick(records: Mapping[str, R], record_id: str, *, family: str, field: str) -> R:
    """The record ``record_id`` of one family; :class:`InputError` names the field and the ids."""
    if record_id not in records:
        known = ", ".join(sorted(records)) or "none"
        raise InputError(
            msg(
                "{field}: unknown {family} id {record_id!r} (known: {known})",
                field=field,
                family=family,
                record_id=record_id,
                known=known,
            )
        )
    return records[record_id]


@dataclass(frozen=True)
class _FabricRecords:
    nic: Nic
    switch: Switch
    spine_switch: Switch
    core_switch: Switch
    optic: Optic
    node_optic: Optic
    radices: tuple[int, int, int]
    """Ports at the fabric's speed of the leaf, spine and core switch."""


_PRICED_FAMILIES = (
    "gpus",
    "servers",
    "nics",
    "switches",
    "optics",
    "cables",
    "racks",
    "pdus",
    "storage",
    "cooling",
)


def _cooling(catalog: Catalog, cooling_id: str, server: Server) -> tuple[Cooling, tuple[str, ...]]:
    """The cooling record and, when the default cooling does not suit the server, a note.

    The default cooling (``Facility().cooling_id``) gives way to the server's first supported kind
    (DGX A100 is air-cooled only), with a note; any other cooling the server cannot take is an
    error naming the field.
    """
    cooling = _pick(catalog.cooling, cooling_id, family="cooling", field="facility.cooling_id")
    if cooling.kind in server.cooling:
        return cooling, ()
    substitute = next((c for _, c in sorted(catalog.cooling.items()) if c.kind == server.cooling[0]), None)
    if cooling_id != Facility().cooling_id or substitute is None:
        raise InputError(
            msg(
                "facility.cooling_id: {server} supports {supported} cooling, not {kind}",
                server=server.id,
                supported=", ".join(server.cooling),
                kind=cooling.kind,
            )
        )
    note = msg(
        "{server} takes {supported} cooling only: {used} is used instead of the default {default}",
        server=server.id,
        supported=", ".join(server.cooling),
        used=substitute.id,
        default=cooling_id,
    )
    return substitute, (note,)


@dataclass(frozen=True)
class _Lookups:
    """What :func:`resolve` looks up that the number of GPUs does not change."""

    design: Design
    design_id: str
    design_name: str
    fabric: FabricParams
    fabric_records: _FabricRecords
    gpu: Gpu
    server: Server
    rack: Rack
    cooling: Cooling
    cooling_notes: tuple[str, ...]
    storage: Storage
    energy_price: EnergyPrice
    exchange_rate: ExchangeRate
    scale_up_switch: Switch | None
    gpus_per_unit: int
    """GPUs bought at a time (:func:`_gpus_per_unit`) [count]."""
    used: tuple[tuple[str, Record], ...]
    """(family, record) of every record used."""


_KEPT_LOOKUPS: IdentityCache[_Lookups] = IdentityCache(max_entries=256)
""":func:`_look_up`'s answers by the catalog, the scenario's own fabric and the ids it names: the
same at every size of a sweep, so a sweep looks its records up once per design."""


def _lookups(scenario: Scenario, catalog: Catalog) -> _Lookups:
    """:func:`_look_up`, made once per catalog, custom fabric and ids (every size of a sweep)."""
    facility = scenario.facility
    made_of = (catalog, scenario.fabric)
    ids = (
        scenario.design_id,
        scenario.gpu_id,
        scenario.server_id,
        scenario.storage_id,
        facility.rack_id,
        facility.cooling_id,
        facility.energy_price_id,
    )
    hit = _KEPT_LOOKUPS.get(made_of, ids)
    if hit is not None:
        return hit
    return _KEPT_LOOKUPS.put(made_of, ids, _look_up(scenario, catalog))


def _look_up(scenario: Scenario, catalog: Catalog) -> _Lookups:
    """The records the scenario's ids name, checked to fit together; errors name the field."""
    design = _pick(catalog.designs, scenario.design_id, family="designs", field="design_id")
    fabric = scenario.fabric or design.fabric
    gpu, server = _compute_records(scenario, catalog, design)
    f = _fabric_records(catalog, fabric)
    facility = scenario.facility
    rack = _pick(catalog.racks, facility.rack_id, family="racks", field="facility.rack_id")
    cooling, cooling_notes = _cooling(catalog, facility.cooling_id, server)
    storage_id = scenario.storage_id or sorted(catalog.storage)[0]
    storage = _pick(catalog.storage, storage_id, family="storage", field="storage_id")
    energy = _pick(
        catalog.energy_prices,
        facility.energy_price_id,
        family="energy_prices",
        field="facility.energy_price_id",
    )
    rate = _pick(catalog.exchange_rates, "cny", family="exchange_rates", field="exchange rate")
    scale_up_switch = _scale_up_switch(catalog, fabric)
    used: list[tuple[str, Record]] = [
        ("designs", design),
        ("gpus", gpu),
        ("servers", server),
        ("nics", f.nic),
        ("switches", f.switch),
        *[("switches", x) for x in (f.spine_switch, f.core_switch) if x.id != f.switch.id],
        ("optics", f.optic),
        ("racks", rack),
        ("cooling", cooling),
        ("storage", storage),
        ("energy_prices", energy),
        ("exchange_rates", rate),
    ]
    if f.node_optic.id != f.optic.id:
        used.append(("optics", f.node_optic))
    if scale_up_switch is not None:
        used.append(("switches", scale_up_switch))
    custom = scenario.fabric is not None
    return _Lookups(
        design=design,
        design_id=f"{design.id}-custom" if custom else design.id,
        design_name=msg("{name} (custom)", name=design.name) if custom else design.name,
        fabric=fabric,
        fabric_records=f,
        gpu=gpu,
        server=server,
        rack=rack,
        cooling=cooling,
        cooling_notes=cooling_notes,
        storage=storage,
        energy_price=energy,
        exchange_rate=rate,
        scale_up_switch=scale_up_switch,
        gpus_per_unit=_gpus_per_unit(fabric, server, scale_up_switch),
        used=tuple(used),
    )


def resolve(*, scenario: Scenario, catalog: Catalog) -> Resolved:
    """Look up every record the scenario names and derive node and GPU counts.

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Catalog
        The catalog its ids refer to.

    Returns
    -------
    Resolved
        The design, fabric, GPU, server, NIC, switch, optic, rack, cooling, storage, energy
        price and exchange rate records, the switch radices and node and GPU counts [count],
        the notes and the records used.

    Raises
    ------
    InputError
        Naming the scenario field whose id is unknown or whose combination is impossible.
    """
    k = _lookups(scenario, catalog)
    fabric, server, f, scale_up_switch = k.fabric, k.server, k.fabric_records, k.scale_up_switch
    _check_price_overrides(scenario, catalog)
    if scale_up_switch is not None:
        _check_domain_fits(scenario, fabric)
    nodes = ceil_div(scenario.gpus, k.gpus_per_unit) * (k.gpus_per_unit // server.gpus_per_node)
    return Resolved(
        scenario=scenario,
        design=k.design,
        design_id=k.design_id,
        design_name=k.design_name,
        fabric=fabric,
        gpu=k.gpu,
        server=server,
        nic=f.nic,
        switch=f.switch,
        spine_switch=f.spine_switch,
        core_switch=f.core_switch,
        scale_up_switch=scale_up_switch,
        optic=f.optic,
        node_optic=f.node_optic,
        rack=k.rack,
        cooling=k.cooling,
        storage=k.storage,
        energy_price=k.energy_price,
        exchange_rate=k.exchange_rate,
        radix=f.radices[0],
        spine_radix=f.radices[1],
        core_radix=f.radices[2],
        nodes=nodes,
        gpus=nodes * server.gpus_per_node,
        notes=k.cooling_notes
        + _sizing_notes(scenario, fabric, server, nodes, spans_servers=scale_up_switch is not None),
        used=k.used,
    )


def _scale_up_switch(catalog: Catalog, fabric: FabricParams) -> Switch | None:
    """The scale-up switch of a domain across servers; ``None`` inside a server."""
    if fabric.scale_up_switch_id is None:
        return None
    return _pick(
        catalog.switches, fabric.scale_up_switch_id, family="switches", field="fabric.scale_up_switch_id"
    )


def _check_domain_fits(scenario: Scenario, fabric: FabricParams) -> None:
    """A cluster smaller than one scale-up domain across servers is refused."""
    if scenario.gpus < fabric.scale_up_domain_gpus:
        raise InputError(
            msg(
                "fabric.scale_up_domain_gpus: a domain of {domain} GPUs is larger than the cluster's "
                "{gpus} GPUs (allowed: at least {domain} GPUs on this design)",
                domain=fabric.scale_up_domain_gpus,
                gpus=scenario.gpus,
            )
        )


def _gpus_per_unit(fabric: FabricParams, server: Server, scale_up_switch: Switch | None) -> int:
    """GPUs bought at a time: whole scale-up domains across servers (racks), else whole servers."""
    domain = fabric.scale_up_domain_gpus
    if scale_up_switch is not None and domain % server.gpus_per_node == 0:
        return domain
    return server.gpus_per_node


def _compute_records(scenario: Scenario, catalog: Catalog, design: Design) -> tuple[Gpu, Server]:
    """The GPU and the server, checked to take each other."""
    gpu = _pick(catalog.gpus, scenario.gpu_id or design.default_gpu_id, family="gpus", field="gpu_id")
    server = _pick(
        catalog.servers, scenario.server_id or gpu.default_server_id, family="servers", field="server_id"
    )
    if gpu.form_factor not in server.form_factors:
        raise InputError(
            msg(
                "server_id: {server} takes {form_factors} GPUs, not {gpu} ({form_factor})",
                server=server.id,
                form_factors=", ".join(server.form_factors),
                gpu=gpu.id,
                form_factor=gpu.form_factor,
            )
        )
    return gpu, server


def _fabric_records(catalog: Catalog, fabric: FabricParams) -> _FabricRecords:
    """NIC, switch per tier and optics of the fabric, each checked against its family and speed."""
    nic = _pick(catalog.nics, fabric.nic_id, family="nics", field="fabric.nic_id")
    switch = _pick(catalog.switches, fabric.switch_id, family="switches", field="fabric.switch_id")
    optic = _pick(catalog.optics, fabric.optics_id, family="optics", field="fabric.optics_id")
    node_optic = _pick(
        catalog.optics,
        fabric.node_optics_id or fabric.optics_id,
        family="optics",
        field="fabric.node_optics_id",
    )
    spine_switch = _pick(
        catalog.switches,
        fabric.spine_switch_id or fabric.switch_id,
        family="switches",
        field="fabric.spine_switch_id",
    )
    core_switch = _pick(
        catalog.switches,
        fabric.core_switch_id or spine_switch.id,
        family="switches",
        field="fabric.core_switch_id",
    )
    radices = (
        _radix(fabric, "fabric.switch_id", switch),
        _radix(fabric, "fabric.spine_switch_id", spine_switch),
        _radix(fabric, "fabric.core_switch_id", core_switch),
    )
    _check_nic(fabric, nic)
    # a multi-plane port splits at the node end: the switch ends run at the link speed
    for name, o, gbit in (
        ("fabric.optics_id", optic, link_gbit_per_s(fabric)),
        ("fabric.node_optics_id", node_optic, fabric.port_speed_gbit_per_s),
    ):
        if o.speed_gbit_per_s != gbit:
            raise InputError(
                msg(
                    "{field}: {optic} serves {optic_gbit}G ports, the fabric runs at {fabric_gbit}G",
                    field=name,
                    optic=o.id,
                    optic_gbit=o.speed_gbit_per_s,
                    fabric_gbit=gbit,
                )
            )
    for link_class, media_id in fabric.link_media.items():
        if catalog.cables.get(media_id) is None and catalog.optics.get(media_id) is None:
            raise InputError(
                msg(
                    "fabric.link_media.{link_class}: {media_id!r} is neither a cable nor an optic id",
                    link_class=link_class,
                    media_id=media_id,
                )
            )
    return _FabricRecords(nic, switch, spine_switch, core_switch, optic, node_optic, radices)


def link_gbit_per_s(fabric: FabricParams) -> int:
    """Speed of one switch link: the port speed over the planes a port is split into [Gb/s].

    Parameters
    ----------
    fabric : FabricParams
        The design's fabric.

    Returns
    -------
    int
        Link speed [Gbit/s].
    """
    return fabric.port_speed_gbit_per_s // fabric.planes_per_port


def _radix(fabric: FabricParams, field: str, chosen: Switch) -> int:
    """Ports of ``chosen`` at the fabric's speed, once it is known to be a fabric switch of the family."""
    if chosen.family != fabric.family:
        raise InputError(
            msg(
                "{field}: {switch} is an {switch_family} switch, the design is {family}",
                field=field,
                switch=chosen.id,
                switch_family=chosen.family,
                family=fabric.family,
            )
        )
    if chosen.management:
        raise InputError(
            msg(
                "{field}: {switch} is a management switch, not a fabric switch", field=field, switch=chosen.id
            )
        )
    ports = chosen.radix_by_speed.get(link_gbit_per_s(fabric))
    if ports is None:
        raise InputError(
            msg(
                "fabric.port_speed_gbit_per_s: {switch} has no {gbit}G ports (allowed: {speeds})",
                switch=chosen.id,
                gbit=link_gbit_per_s(fabric),
                speeds=", ".join(f"{s}G" for s in sorted(chosen.radix_by_speed)),
            )
        )
    return ports


def _check_nic(fabric: FabricParams, nic: Nic) -> None:
    if fabric.family not in nic.families:
        raise InputError(
            msg("fabric.nic_id: {nic} does not support {family}", nic=nic.id, family=fabric.family)
        )
    if nic.port_speed_gbit_per_s != fabric.port_speed_gbit_per_s:
        raise InputError(
            msg(
                "fabric.nic_id: {nic} runs at {nic_gbit}G, the fabric at {fabric_gbit}G",
                nic=nic.id,
                nic_gbit=nic.port_speed_gbit_per_s,
                fabric_gbit=fabric.port_speed_gbit_per_s,
            )
        )


def _check_price_overrides(scenario: Scenario, catalog: Catalog) -> None:
    for key in scenario.price_overrides_usd:
        if not any(key in catalog.family(f) for f in _PRICED_FAMILIES):
            raise InputError(msg("price_overrides_usd.{key}: no priced catalog record has this id", key=key))


def _sizing_notes(
    scenario: Scenario, fabric: FabricParams, server: Server, nodes: int, *, spans_servers: bool
) -> tuple[str, ...]:
    """What the engine changed or could not model about the request."""
    notes: list[str] = []
    gpus = nodes * server.gpus_per_node
    if gpus != scenario.gpus and spans_servers:
        notes.append(
            msg(
                "{requested} GPUs rounded up to {domains} whole scale-up domains of {domain} GPUs = {gpus} GPUs",
                requested=scenario.gpus,
                domains=gpus // fabric.scale_up_domain_gpus,
                domain=fabric.scale_up_domain_gpus,
                gpus=gpus,
            )
        )
    elif gpus != scenario.gpus:
        notes.append(
            msg(
                "{requested} GPUs rounded up to {nodes} whole nodes of {per_node} GPUs = {gpus} GPUs",
                requested=scenario.gpus,
                nodes=nodes,
                per_node=server.gpus_per_node,
                gpus=gpus,
            )
        )
    low, high = PRODUCT_RANGE_GPUS
    if not low <= gpus <= high:
        notes.append(
            msg(
                "{gpus} GPUs is outside the {low}-{high} range the tool is tuned for; "
                "figures still follow the same model",
                gpus=gpus,
                low=low,
                high=high,
            )
        )
    if fabric.scale_up_domain_gpus > server.gpus_per_node and not spans_servers:
        notes.append(
            msg(
                "scale-up domain of {domain} GPUs capped at the node's {per_node} GPUs "
                "(set fabric.scale_up_switch_id for a domain across servers)",
                domain=fabric.scale_up_domain_gpus,
                per_node=server.gpus_per_node,
            )
        )
    if scenario.fabric is not None:
        notes.append(msg("custom fabric: parameters differ from the preset"))
    return tuple(notes)
