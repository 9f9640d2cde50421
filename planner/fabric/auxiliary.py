"""Storage, front-end and management fabrics, sized from rules in the catalog so the BOM is complete.

Notes
-----
- storage units and ports per node: the storage pool (:func:`planner.fabric.pools.size_storage_pool`;
  with no pool targets, max(ceil(GPUs x write GB/s per GPU / unit write GB/s),
  ceil(GPUs x TB per GPU / unit TB), 1) and the rule's ports per node);
- storage fabric: a non-blocking leaf-spine for nodes x storage ports per node + storage ports,
  on the cheapest non-management Ethernet switch that has ports at the storage port speed;
- front-end: the front-end pool (:func:`planner.fabric.pools.size_frontend_pool`), the in-band
  network unless a front-end target is set;
- in-band management: one leaf-spine of the in-band management switch for node and storage
  ports; out-of-band: BMC ports of nodes, storage and every switch on the OOB switch.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.schema import Storage, Switch
from planner.fabric.pools import (
    FrontendPool,
    StoragePool,
    cheapest_fabric_switch,
    size_frontend_pool,
    size_storage_pool,
)
from planner.fabric.topology import SmallClos, small_clos
from planner.scenario import Pools


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
    storage_pool: StoragePool
    """The storage pool behind ``storage_units``: targets, the binding one, ports per node."""
    frontend: FrontendPool
    """The north-south network: dedicated, or the in-band network when no target is set."""


def _rule(catalog: Catalog, rule_id: str) -> float:
    return catalog.sizing_rules[rule_id].value


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
    *,
    catalog: Catalog,
    storage: Storage,
    gpus: int,
    nodes: int,
    fabric_switches: int,
    pools: Pools | None = None,
    gpus_per_node: int = 8,
) -> AuxiliaryFabrics:
    """Size storage, front-end, in-band and out-of-band management for ``gpus`` on ``nodes`` servers.

    ``pools`` holds the storage and front-end targets (empty: today's per-GPU rule, and the
    in-band network as the front end); ``gpus_per_node`` turns a per-GPU front-end target into
    a per-server one.
    """
    pools = pools or Pools()
    pool = size_storage_pool(catalog=catalog, storage=storage, gpus=gpus, nodes=nodes, pools=pools)
    units = pool.units
    storage_switch, storage_radix = cheapest_fabric_switch(catalog, speed=storage.port_speed_gbit_per_s)
    storage_ports = nodes * pool.ports_per_node + units * storage.network_ports
    storage_fabric = small_clos(endpoints=storage_ports, radix=storage_radix)
    inband_switch, inband_radix = _management_switch(catalog, fastest=True)
    inband_per_node = int(_rule(catalog, "inband_ports_per_node"))
    inband_ports = nodes * inband_per_node + units
    inband_fabric = small_clos(endpoints=inband_ports, radix=inband_radix)
    frontend = size_frontend_pool(
        catalog=catalog,
        gpus_per_node=gpus_per_node,
        nodes=nodes,
        pools=pools,
        inband_gbit_per_s_per_node=inband_per_node * max(inband_switch.radix_by_speed),
    )
    oob_switch, oob_radix = _management_switch(catalog, fastest=False)
    oob_ports = (
        nodes * int(_rule(catalog, "oob_ports_per_node"))
        + units
        + fabric_switches
        + storage_fabric.switches
        + inband_fabric.switches
        + frontend.switches
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
        storage_pool=pool,
        frontend=frontend,
    )
