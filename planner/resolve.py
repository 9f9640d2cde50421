"""Resolve a scenario against the catalog: which records a plan uses, and the node count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from planner.catalog import Catalog
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
from planner.scenario import PRODUCT_RANGE_GPUS, Scenario
from planner.units import ceil_div

R = TypeVar("R", bound=Record)


@dataclass(frozen=True)
class Resolved:
    """Everything a plan needs, looked up once."""

    scenario: Scenario
    design: Design
    design_id: str
    design_name: str
    fabric: FabricParams
    custom_fabric: bool
    gpu: Gpu
    server: Server
    nic: Nic
    switch: Switch
    spine_switch: Switch
    core_switch: Switch
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
        raise InputError(f"{field}: unknown {family} id {record_id!r} (known: {known})")
    return records[record_id]


def resolve(*, scenario: Scenario, catalog: Catalog) -> Resolved:
    """Look up every record the scenario names and derive node and GPU counts.

    Raises
    ------
    InputError
        Naming the scenario field whose id is unknown or whose combination is impossible.
    """
    design = _pick(catalog.designs, scenario.design_id, family="designs", field="design_id")
    fabric = scenario.fabric or design.fabric
    gpu = _pick(catalog.gpus, scenario.gpu_id or design.default_gpu_id, family="gpus", field="gpu_id")
    server = _pick(
        catalog.servers, scenario.server_id or gpu.default_server_id, family="servers", field="server_id"
    )
    if gpu.form_factor not in server.form_factors:
        raise InputError(
            f"server_id: {server.id} takes {', '.join(server.form_factors)} GPUs, "
            f"not {gpu.id} ({gpu.form_factor})"
        )
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
    radices = []
    for field, chosen in (
        ("fabric.switch_id", switch),
        ("fabric.spine_switch_id", spine_switch),
        ("fabric.core_switch_id", core_switch),
    ):
        if chosen.family != fabric.family:
            raise InputError(
                f"{field}: {chosen.id} is an {chosen.family} switch, the design is {fabric.family}"
            )
        if chosen.management:
            raise InputError(f"{field}: {chosen.id} is a management switch, not a fabric switch")
        ports = chosen.radix_by_speed.get(fabric.port_speed_gbit_per_s)
        if ports is None:
            speeds = ", ".join(f"{s}G" for s in sorted(chosen.radix_by_speed))
            raise InputError(
                f"fabric.port_speed_gbit_per_s: {chosen.id} has no {fabric.port_speed_gbit_per_s}G "
                f"ports (allowed: {speeds})"
            )
        radices.append(ports)
    if fabric.family not in nic.families:
        raise InputError(f"fabric.nic_id: {nic.id} does not support {fabric.family}")
    if nic.port_speed_gbit_per_s != fabric.port_speed_gbit_per_s:
        raise InputError(
            f"fabric.nic_id: {nic.id} runs at {nic.port_speed_gbit_per_s}G, the fabric at "
            f"{fabric.port_speed_gbit_per_s}G"
        )
    for name, o in (("fabric.optics_id", optic), ("fabric.node_optics_id", node_optic)):
        if o.speed_gbit_per_s != fabric.port_speed_gbit_per_s:
            raise InputError(
                f"{name}: {o.id} serves {o.speed_gbit_per_s}G ports, the fabric runs at "
                f"{fabric.port_speed_gbit_per_s}G"
            )
    for link_class, media_id in fabric.link_media.items():
        forced = catalog.cables.get(media_id) or catalog.optics.get(media_id)
        if forced is None:
            raise InputError(
                f"fabric.link_media.{link_class}: {media_id!r} is neither a cable nor an optic id"
            )
    facility = scenario.facility
    rack = _pick(catalog.racks, facility.rack_id, family="racks", field="facility.rack_id")
    cooling = _pick(catalog.cooling, facility.cooling_id, family="cooling", field="facility.cooling_id")
    if cooling.kind not in server.cooling:
        raise InputError(
            f"facility.cooling_id: {server.id} supports {', '.join(server.cooling)} cooling, "
            f"not {cooling.kind}"
        )
    storage_id = scenario.storage_id or sorted(catalog.storage)[0]
    storage = _pick(catalog.storage, storage_id, family="storage", field="storage_id")
    energy = _pick(
        catalog.energy_prices,
        facility.energy_price_id,
        family="energy_prices",
        field="facility.energy_price_id",
    )
    rate = _pick(catalog.exchange_rates, "cny", family="exchange_rates", field="exchange rate")
    for key in scenario.price_overrides_usd:
        if not any(
            key in catalog.family(f)
            for f in (
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
        ):
            raise InputError(f"price_overrides_usd.{key}: no priced catalog record has this id")

    notes: list[str] = []
    nodes = ceil_div(scenario.gpus, server.gpus_per_node)
    gpus = nodes * server.gpus_per_node
    if gpus != scenario.gpus:
        notes.append(
            f"{scenario.gpus} GPUs rounded up to {nodes} whole nodes of "
            f"{server.gpus_per_node} GPUs = {gpus} GPUs"
        )
    low, high = PRODUCT_RANGE_GPUS
    if not low <= gpus <= high:
        notes.append(
            f"{gpus} GPUs is outside the {low}-{high} range the tool is tuned for; "
            "figures still follow the same model"
        )
    if fabric.scale_up_domain_gpus > server.gpus_per_node:
        notes.append(
            f"scale-up domain of {fabric.scale_up_domain_gpus} GPUs capped at the node's "
            f"{server.gpus_per_node} GPUs (scale-up across nodes is not modelled)"
        )
    if scenario.fabric is not None:
        notes.append("custom fabric: parameters differ from the preset")
    used: list[tuple[str, Record]] = [
        ("designs", design),
        ("gpus", gpu),
        ("servers", server),
        ("nics", nic),
        ("switches", switch),
        *[("switches", x) for x in (spine_switch, core_switch) if x.id != switch.id],
        ("optics", optic),
        ("racks", rack),
        ("cooling", cooling),
        ("storage", storage),
        ("energy_prices", energy),
        ("exchange_rates", rate),
    ]
    if node_optic.id != optic.id:
        used.append(("optics", node_optic))
    return Resolved(
        scenario=scenario,
        design=design,
        design_id=design.id if scenario.fabric is None else f"{design.id}-custom",
        design_name=design.name if scenario.fabric is None else f"{design.name} (custom)",
        fabric=fabric,
        custom_fabric=scenario.fabric is not None,
        gpu=gpu,
        server=server,
        nic=nic,
        switch=switch,
        spine_switch=spine_switch,
        core_switch=core_switch,
        optic=optic,
        node_optic=node_optic,
        rack=rack,
        cooling=cooling,
        storage=storage,
        energy_price=energy,
        exchange_rate=rate,
        radix=radices[0],
        spine_radix=radices[1],
        core_radix=radices[2],
        nodes=nodes,
        gpus=gpus,
        notes=tuple(notes),
        used=tuple(used),
    )
