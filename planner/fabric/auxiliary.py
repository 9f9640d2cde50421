"""Storage and management fabrics, sized from rules in the catalog so the BOM is complete.

Notes
-----
- storage units = max(ceil(GPUs x write GB/s per GPU / unit write GB/s),
  ceil(GPUs x TB per GPU / unit TB), 1);
- storage fabric: a non-blocking leaf-spine for nodes x storage ports per node + storage ports,
  on the cheapest non-management Ethernet switch that has ports at the storage port speed;
- in-band management: one leaf-spine of the in-band management switch for node and storage
  ports; out-of-band: BMC ports of nodes, storage and every switch on the OOB switch.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.schema import Storage, Switch
from planner.errors import CatalogError
from planner.fabric.topology import SmallClos, small_clos
from planner.i18n.message import msg
from planner.units import ceil_div


@dataclass(frozen=True)
class AuxiliaryFabrics:
    storage: Storage
    storage_units: int
    storage_switch: Switch
    storage_fabric: SmallClos
    inband_switch: Switch
    inband_fabric: SmallClos
    oob_switch: Switch
    oob_fabric: SmallClos


def _rule(catalog: Catalog, rule_id: str) -> float:
    return catalog.sizing_rules[rule_id].value


def _cheapest_switch(catalog: Catalog, *, speed: int, management: bool) -> tuple[Switch, int]:
    """Cheapest switch per port at ``speed`` among management or fabric Ethernet switches."""
    candidates = [
        (s.unit_cost_usd / s.radix_by_speed[speed], s.id, s)
        for s in catalog.switches.values()
        if s.family == "ethernet" and s.management == management and speed in s.radix_by_speed
    ]
    if not candidates:
        if management:
            raise CatalogError(msg("catalog: no management switch has {speed}G ports", speed=speed))
        raise CatalogError(msg("catalog: no Ethernet fabric switch has {speed}G ports", speed=speed))
    _, _, switch = min(candidates)
    return switch, switch.radix_by_speed[speed]


def _management_switch(catalog: Catalog, *, fastest: bool) -> tuple[Switch, int]:
    """The in-band (fastest ports) or out-of-band (slowest ports) management switch."""
    options = []
    for switch in catalog.switches.values():
        if switch.management:
            speed = max(switch.radix_by_speed) if fastest else min(switch.radix_by_speed)
            options.append((-speed if fastest else speed, switch.unit_cost_usd, switch.id, switch))
    _, _, _, chosen = min(options)
    speed = max(chosen.radix_by_speed) if fastest else min(chosen.radix_by_speed)
    return chosen, chosen.radix_by_speed[speed]


def size_auxiliary(
    *, catalog: Catalog, storage: Storage, gpus: int, nodes: int, fabric_switches: int
) -> AuxiliaryFabrics:
    """Size storage, in-band and out-of-band management for ``gpus`` on ``nodes`` servers."""
    write_needed = gpus * _rule(catalog, "storage_write_gbyte_per_s_per_gpu")
    capacity_needed = gpus * _rule(catalog, "storage_tbyte_per_gpu")
    units = max(
        1,
        ceil_div(round(write_needed * 1000), round(storage.write_bandwidth_gbyte_per_s * 1000)),
        ceil_div(round(capacity_needed * 1000), round(storage.capacity_tbyte * 1000)),
    )
    storage_switch, storage_radix = _cheapest_switch(
        catalog, speed=storage.port_speed_gbit_per_s, management=False
    )
    storage_ports = nodes * int(_rule(catalog, "storage_ports_per_node")) + units * storage.network_ports
    storage_fabric = small_clos(endpoints=storage_ports, radix=storage_radix)
    inband_switch, inband_radix = _management_switch(catalog, fastest=True)
    inband_ports = nodes * int(_rule(catalog, "inband_ports_per_node")) + units
    inband_fabric = small_clos(endpoints=inband_ports, radix=inband_radix)
    oob_switch, oob_radix = _management_switch(catalog, fastest=False)
    oob_ports = (
        nodes * int(_rule(catalog, "oob_ports_per_node"))
        + units
        + fabric_switches
        + storage_fabric.switches
        + inband_fabric.switches
    )
    # OOB switches manage themselves through their uplinks; a flat leaf-spine suffices.
    oob_fabric = small_clos(endpoints=oob_ports, radix=oob_radix)
    return AuxiliaryFabrics(
        storage=storage,
        storage_units=units,
        storage_switch=storage_switch,
        storage_fabric=storage_fabric,
        inband_switch=inband_switch,
        inband_fabric=inband_fabric,
        oob_switch=oob_switch,
        oob_fabric=oob_fabric,
    )
