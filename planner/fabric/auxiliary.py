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
  ports; out-of-band: BMC ports of nodes, storage and every switch on the OOB switch;
- links (:func:`aux_link_counts`): per fabric an access class (every endpoint port to a leaf, the
  front end's border ports excepted: they go to the site network, outside the plan) and an
  uplink class (every link between the fabric's tiers, ``sum(links_by_tier)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from planner.catalog import Catalog
from planner.catalog.memo import IdentityCache, per_catalog
from planner.catalog.schema import Storage, Switch
from planner.fabric.media import (
    AUX_LINK_CLASSES,
    AuxLinkClass,
    LinkMedia,
    build_aux_link_media,
    length_field,
)
from planner.fabric.pools import (
    FrontendPool,
    StoragePool,
    cheapest_fabric_switch,
    size_frontend_pool,
    size_storage_pool,
)
from planner.fabric.topology import SmallClos, small_clos
from planner.inputs.scenario import LinkLengths, Pools


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
    inband_ports_per_node: int = 1
    """In-band management ports of one GPU server [count]."""
    oob_ports_per_node: int = 1
    """Out-of-band (BMC) ports of one GPU server [count]."""

    @property
    def inband_speed_gbit_per_s(self) -> int:
        """In-band management port speed: the in-band switch's fastest ports [Gb/s]."""
        return max(self.inband_switch.radix_by_speed)

    @property
    def oob_speed_gbit_per_s(self) -> int:
        """Out-of-band port speed: the OOB switch's slowest ports (1GbE) [Gb/s]."""
        return min(self.oob_switch.radix_by_speed)


@dataclass(frozen=True)
class AuxLinkCount:
    """The links of one auxiliary link class, before a medium is chosen."""

    link_class: AuxLinkClass
    links: int
    speed_gbit_per_s: int
    lower_devices: int
    """Devices at the lower end: endpoints (access) or switches below the top tier (uplinks)."""
    upper_devices: int
    server_ports: int
    """Lower-end ports that sit in GPU servers (their optics load the compute racks) [count]."""

    @property
    def access(self) -> bool:
        """Endpoint-to-leaf links (``True``) or links between the fabric's tiers."""
        return self.link_class.endswith("_access")


def _uplinks(link_class: AuxLinkClass, clos: SmallClos, speed: int) -> AuxLinkCount:
    tiers = clos.switches_by_tier
    return AuxLinkCount(
        link_class=link_class,
        links=sum(clos.links_by_tier),
        speed_gbit_per_s=speed,
        lower_devices=sum(tiers[:-1]),
        upper_devices=sum(tiers[1:]),
        server_ports=0,
    )


def aux_link_counts(aux: AuxiliaryFabrics, *, nodes: int) -> tuple[AuxLinkCount, ...]:
    """Links of every auxiliary class (module notes), access then uplink per fabric.

    Access links = the fabric's endpoints: storage ``nodes x storage ports per node + units x
    unit ports``; front end ``nodes x front-end ports per node`` (its border ports are not
    cabled); in-band ``nodes x in-band ports per node + units``; out-of-band ``nodes x BMC
    ports per node + units + every switch's management port`` (the OOB switches excepted).

    Parameters
    ----------
    aux : AuxiliaryFabrics
        The sized auxiliary fabrics (:func:`size_auxiliary`).
    nodes : int
        GPU servers of the cluster [count].

    Returns
    -------
    tuple of AuxLinkCount
        One record per auxiliary link class (storage, front end, in-band, out-of-band; access
        then uplink each): links [count], speed [Gbit/s], devices at each end [count] and the
        GPU servers' ports among the access links [count].
    """
    oob_server_ports = nodes * aux.oob_ports_per_node
    oob_endpoints = aux.oob_fabric.endpoints
    counts = [
        *_shared_counts(aux, nodes),
        AuxLinkCount(
            link_class="oob_access",
            links=oob_endpoints,
            speed_gbit_per_s=aux.oob_speed_gbit_per_s,
            lower_devices=oob_endpoints - oob_server_ports + nodes,
            upper_devices=aux.oob_fabric.leaves,
            server_ports=oob_server_ports,
        ),
        _uplinks("oob_uplink", aux.oob_fabric, aux.oob_speed_gbit_per_s),
    ]
    return tuple(c for c in counts if c.links > 0)


_KEPT_COUNTS: IdentityCache[tuple[AuxLinkCount, ...]] = IdentityCache(max_entries=1024)
"""The storage, front-end and in-band classes of :func:`aux_link_counts` by the parts they are
counted from and the counts they read: a sweep's designs share them at each size
(:func:`size_auxiliary` keeps them)."""


def _shared_counts(aux: AuxiliaryFabrics, nodes: int) -> tuple[AuxLinkCount, ...]:
    """The storage, front-end and in-band link classes (access then uplink each), kept."""
    parts = (
        aux.storage,
        aux.storage_pool,
        aux.storage_fabric,
        aux.frontend,
        aux.inband_switch,
        aux.inband_fabric,
    )
    values = (nodes, aux.storage_units, aux.inband_ports_per_node)
    kept = _KEPT_COUNTS.get(parts, values)
    return kept if kept is not None else _KEPT_COUNTS.put(parts, values, _counted_shared(aux, nodes))


def _counted_shared(aux: AuxiliaryFabrics, nodes: int) -> tuple[AuxLinkCount, ...]:
    """:func:`_shared_counts`, every time."""
    units, fe = aux.storage_units, aux.frontend
    storage_speed = aux.storage.port_speed_gbit_per_s
    counts = [
        AuxLinkCount(
            link_class="storage_access",
            links=aux.storage_fabric.endpoints,
            speed_gbit_per_s=storage_speed,
            lower_devices=nodes + units,
            upper_devices=aux.storage_fabric.leaves,
            server_ports=nodes * aux.storage_pool.ports_per_node,
        ),
        _uplinks("storage_uplink", aux.storage_fabric, storage_speed),
    ]
    if fe.dedicated:  # else the in-band network carries the front end: no links of its own
        fe_ports = nodes * fe.ports_per_node
        counts += [
            AuxLinkCount(
                link_class="frontend_access",
                links=fe_ports,
                speed_gbit_per_s=fe.port_speed_gbit_per_s,
                lower_devices=nodes,
                upper_devices=fe.fabric.leaves,
                server_ports=fe_ports,
            ),
            _uplinks("frontend_uplink", fe.fabric, fe.port_speed_gbit_per_s),
        ]
    counts += [
        AuxLinkCount(
            link_class="inband_access",
            links=aux.inband_fabric.endpoints,
            speed_gbit_per_s=aux.inband_speed_gbit_per_s,
            lower_devices=nodes + units,
            upper_devices=aux.inband_fabric.leaves,
            server_ports=nodes * aux.inband_ports_per_node,
        ),
        _uplinks("inband_uplink", aux.inband_fabric, aux.inband_speed_gbit_per_s),
    ]
    return tuple(counts)


def aux_link_media(
    *, catalog: Catalog, counts: tuple[AuxLinkCount, ...], lengths: LinkLengths
) -> tuple[LinkMedia, ...]:
    """Medium, cables and optics of every auxiliary link class, each at the length of
    :func:`planner.fabric.media.length_field` (access: node-leaf; uplinks: leaf-spine).

    Parameters
    ----------
    catalog : Catalog
        Cables, optics and fibers to choose from.
    counts : tuple of AuxLinkCount
        The auxiliary link classes to equip (:func:`aux_link_counts`).
    lengths : LinkLengths
        The facility's link lengths [m], one per ``facility.link_lengths`` field.

    Returns
    -------
    tuple of LinkMedia
        Medium, cable and optic counts, power [W] and latency [ns] of each class, in the order of
        ``counts``.

    Raises
    ------
    InputError
        No medium of the catalog reaches a class's length (naming its ``facility.link_lengths`` field).
    """
    media = []
    for c in counts:
        field, named = _LENGTH_FIELDS[c.link_class]
        media.append(
            build_aux_link_media(
                catalog=catalog,
                link_class=c.link_class,
                links=c.links,
                length_m=getattr(lengths, field),
                speed_gbit_per_s=c.speed_gbit_per_s,
                lower_devices=c.lower_devices,
                upper_devices=c.upper_devices,
                length_field=named,
            )
        )
    return tuple(media)


_LENGTH_FIELDS: dict[str, tuple[str, str]] = {
    link_class: (length_field(link_class), f"facility.link_lengths.{length_field(link_class)}")
    for link_class in AUX_LINK_CLASSES
}
"""Each auxiliary class's ``facility.link_lengths`` field, bare and as the input names it."""


def aux_server_optics_w(
    catalog: Catalog, counts: tuple[AuxLinkCount, ...], media: tuple[LinkMedia, ...]
) -> float:
    """Power of the auxiliary optics plugged into the GPU servers [W]:
    ``sum(server ports x optic W)`` over the access classes (single-port modules, one per port).

    Parameters
    ----------
    catalog : Catalog
        Holds each optic's power [W].
    counts : tuple of AuxLinkCount
        The auxiliary link classes with their server ports [count].
    media : tuple of LinkMedia
        The medium chosen for each class (:func:`aux_link_media`).

    Returns
    -------
    float
        Power of the optics in the GPU servers' auxiliary ports [W]; 0 where every access link is
        copper.
    """
    by_class = {m.link_class: m for m in media}
    total = 0.0
    for c in counts:
        optic_id = by_class[c.link_class].lower.optic_id
        if optic_id:
            total += c.server_ports * catalog.optics[optic_id].power_w
    return total


def _rule(catalog: Catalog, rule_id: str) -> float:
    return catalog.sizing_rules[rule_id].value


@per_catalog
def _management_switch(catalog: Catalog, fastest: bool, /) -> tuple[Switch, int]:
    """The in-band (fastest ports) or out-of-band (slowest ports) management switch, searched
    once per catalog (every plan asks)."""
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

    Parameters
    ----------
    catalog : Catalog
        Switches and the ``sizing_rules`` per-node and per-GPU rules.
    storage : Storage
        The storage unit model the storage pool is built of.
    gpus : int
        GPUs in the cluster [count].
    nodes : int
        GPU servers [count].
    fabric_switches : int
        Switches of the compute fabric [count]; each takes one out-of-band management port.
    pools : Pools or None
        Storage and front-end targets; ``None`` for the per-GPU rules.
    gpus_per_node : int
        GPUs per server [count].

    Returns
    -------
    AuxiliaryFabrics
        Storage units [count], the storage and front-end pools, and each fabric's switches.
    """
    pools = pools or Pools()
    if catalog.storage.get(storage.id) is storage:  # the catalog's own record: its id names it
        shared = _kept_shared(catalog, storage.id, gpus, nodes, pools, gpus_per_node)
    else:
        shared = _shared(catalog, storage, gpus, nodes, pools, gpus_per_node)
    pool, units = shared.pool, shared.pool.units
    storage_fabric, inband_fabric, frontend = shared.storage_fabric, shared.inband_fabric, shared.frontend
    oob_switch, oob_radix = _management_switch(catalog, False)
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
        storage_switch=shared.storage_switch,
        storage_fabric=storage_fabric,
        inband_switch=shared.inband_switch,
        inband_fabric=inband_fabric,
        oob_switch=oob_switch,
        oob_fabric=oob_fabric,
        storage_pool=pool,
        frontend=frontend,
        inband_ports_per_node=shared.inband_ports_per_node,
        oob_ports_per_node=int(_rule(catalog, "oob_ports_per_node")),
    )


class _Shared(NamedTuple):
    """The part of the auxiliary fabrics the compute fabric does not change: the storage pool and
    fabric, the in-band network and the front end (the out-of-band network counts every fabric
    switch's management port, so it is sized per plan)."""

    pool: StoragePool
    storage_switch: Switch
    storage_fabric: SmallClos
    inband_switch: Switch
    inband_fabric: SmallClos
    inband_ports_per_node: int
    frontend: FrontendPool


def _shared(
    catalog: Catalog, storage: Storage, gpus: int, nodes: int, pools: Pools, gpus_per_node: int, /
) -> _Shared:
    """Storage, in-band and front-end fabrics of :func:`size_auxiliary` (module notes)."""
    pool = size_storage_pool(catalog=catalog, storage=storage, gpus=gpus, nodes=nodes, pools=pools)
    storage_switch, storage_radix = cheapest_fabric_switch(catalog, speed=storage.port_speed_gbit_per_s)
    storage_ports = nodes * pool.ports_per_node + pool.units * storage.network_ports
    inband_switch, inband_radix = _management_switch(catalog, True)
    inband_per_node = int(_rule(catalog, "inband_ports_per_node"))
    frontend = size_frontend_pool(
        catalog=catalog,
        gpus_per_node=gpus_per_node,
        nodes=nodes,
        pools=pools,
        inband_gbit_per_s_per_node=inband_per_node * max(inband_switch.radix_by_speed),
    )
    return _Shared(
        pool=pool,
        storage_switch=storage_switch,
        storage_fabric=small_clos(endpoints=storage_ports, radix=storage_radix),
        inband_switch=inband_switch,
        inband_fabric=small_clos(endpoints=nodes * inband_per_node + pool.units, radix=inband_radix),
        inband_ports_per_node=inband_per_node,
        frontend=frontend,
    )


@per_catalog
def _kept_shared(
    catalog: Catalog, storage_id: str, gpus: int, nodes: int, pools: Pools, gpus_per_node: int, /
) -> _Shared:
    """:func:`_shared` on the catalog's storage record ``storage_id``, remembered per catalog and
    arguments: a sweep's designs ask for the same storage and management fabrics at each size."""
    return _shared(catalog, catalog.storage[storage_id], gpus, nodes, pools, gpus_per_node)
