"""The disaggregated pools: storage and front-end (north-south) network, each sized on its own.

Notes
-----
The source document's section 2.2 splits a cluster into compute, storage and network pools that
grow independently. Compute is the plan's GPUs; the other two are sized here from their own
targets (``Scenario.pools``), so a larger dataset or a faster checkpoint buys storage without a
GPU more, and a larger cluster keeps its storage unless the targets say otherwise.

Storage (``docs/model.md``, "Disaggregated pools"):

- targets: checkpoint write ``W`` [GB/s], dataset read ``R`` [GB/s], capacity ``C`` [TB]; an
  empty target takes today's per-GPU rule (``W = GPUs x storage_write_gbyte_per_s_per_gpu``,
  ``C = GPUs x storage_tbyte_per_gpu``, ``R`` none), so default plans keep their numbers;
- units ``= max(ceil(W / w), ceil(R / r), ceil(C / c), 1)`` for a unit's write ``w``, read ``r``
  and capacity ``c``; the binding term is reported;
- storage ports per node ``= max(storage_ports_per_node, ceil(8 max(W, R) / (nodes x speed)))``:
  the rule's ports unless the targets need more line rate per node.

Front-end: with no target, north-south traffic rides the in-band management network (today's
plan, nothing added); with a per-GPU or per-node target ``B`` [Gb/s] a dedicated Ethernet fabric:
ports per node ``= ceil(B_node / s)`` at the front-end NIC's port speed ``s``, NICs per node
``= ceil(ports / NIC ports)``, border ports ``= ceil(egress / s)`` toward the site network, and a
non-blocking Clos (:func:`planner.fabric.topology.small_clos`) of the cheapest Ethernet fabric
switch with ``s`` ports over all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from planner.catalog import Catalog
from planner.catalog.memo import per_catalog
from planner.catalog.schema import Nic, Storage, Switch
from planner.errors import CatalogError, InputError
from planner.fabric.topology import SmallClos, small_clos
from planner.i18n.message import msg
from planner.inputs.scenario import Pools
from planner.units import ceil_div

StorageBound = Literal["write", "read", "capacity", "minimum"]


@dataclass(frozen=True)
class StoragePool:
    """Storage units sized from write, read and capacity targets."""

    storage: Storage
    units: int
    """Storage units (appliances or servers) [count]."""
    write_target_gbyte_per_s: float
    """Checkpoint write target of the whole pool [GB/s]."""
    read_target_gbyte_per_s: float
    """Dataset read target of the whole pool (0 = none) [GB/s]."""
    capacity_target_tbyte: float
    """Usable capacity target [TB]."""
    bound: StorageBound
    """The target that sets the unit count."""
    ports_per_node: int
    """Storage-fabric ports of one GPU server [count]."""
    from_rule: bool
    """``True`` when every target is today's per-GPU rule (no pool target set)."""

    @property
    def write_gbyte_per_s(self) -> float:
        """Write bandwidth the units provide [GB/s]."""
        return self.units * self.storage.write_bandwidth_gbyte_per_s

    @property
    def read_gbyte_per_s(self) -> float:
        """Read bandwidth the units provide [GB/s]."""
        return self.units * self.storage.read_bandwidth_gbyte_per_s

    @property
    def capacity_tbyte(self) -> float:
        """Usable capacity the units provide [TB]."""
        return self.units * self.storage.capacity_tbyte


@dataclass(frozen=True)
class FrontendPool:
    """The north-south network: a dedicated fabric, or the in-band network when none is asked for."""

    dedicated: bool
    """``False``: the in-band management network carries north-south traffic (no target set)."""
    gbit_per_s_per_node: float
    """Target per GPU server, or the in-band line rate when not dedicated [Gb/s]."""
    port_speed_gbit_per_s: int
    """Speed of one front-end port [Gb/s]."""
    ports_per_node: int
    """Front-end ports of one GPU server [count]."""
    nic: Nic | None
    """The front-end NIC (``None`` when not dedicated: the server's own in-band port)."""
    nics: int
    """Front-end NICs of the cluster [count]."""
    border_ports: int
    """Ports toward the site network for the egress target [count]."""
    switch: Switch | None
    """The front-end switch model (``None`` when not dedicated)."""
    fabric: SmallClos
    """The dedicated fabric (no switches when not dedicated)."""

    @property
    def switches(self) -> int:
        return self.fabric.switches


def _rule(catalog: Catalog, rule_id: str) -> float:
    return catalog.sizing_rules[rule_id].value


def _units(need: float, per_unit: float) -> int:
    """``ceil(need / per_unit)`` on values rounded to 1/1000 (no float residue adds a unit)."""
    return ceil_div(round(need * 1000), round(per_unit * 1000)) if need > 0 else 0


def size_storage_pool(
    *, catalog: Catalog, storage: Storage, gpus: int, nodes: int, pools: Pools
) -> StoragePool:
    """Storage units and per-node storage ports for the pool's targets (module notes).

    Parameters
    ----------
    catalog : Catalog
        Holds the per-GPU storage rules (``sizing_rules``).
    storage : Storage
        The storage unit model: bandwidths [GB/s], capacity [TB] and port speed [Gbit/s].
    gpus : int
        GPUs in the cluster [count].
    nodes : int
        GPU servers [count].
    pools : Pools
        The write, read and capacity targets; unset ones follow the rules.

    Returns
    -------
    StoragePool
        Storage units [count], the targets [GB/s, TB], the term that bound the count and the
        storage ports per node [count].
    """
    write = (
        pools.storage_write_gbyte_per_s
        if pools.storage_write_gbyte_per_s is not None
        else gpus * _rule(catalog, "storage_write_gbyte_per_s_per_gpu")
    )
    capacity = (
        pools.storage_capacity_tbyte
        if pools.storage_capacity_tbyte is not None
        else gpus * _rule(catalog, "storage_tbyte_per_gpu")
    )
    read = pools.storage_read_gbyte_per_s or 0.0
    terms: list[tuple[int, StorageBound]] = [
        (_units(write, storage.write_bandwidth_gbyte_per_s), "write"),
        (_units(read, storage.read_bandwidth_gbyte_per_s), "read"),
        (_units(capacity, storage.capacity_tbyte), "capacity"),
        (1, "minimum"),
    ]
    # the first of the largest terms names the bound: write before read before capacity
    units, bound = max(terms, key=lambda term: term[0])
    per_node_gbit = 8.0 * max(write, read) / nodes
    ports_per_node = max(
        int(_rule(catalog, "storage_ports_per_node")),
        ceil_div(round(per_node_gbit * 1000), storage.port_speed_gbit_per_s * 1000),
    )
    return StoragePool(
        storage=storage,
        units=units,
        write_target_gbyte_per_s=write,
        read_target_gbyte_per_s=read,
        capacity_target_tbyte=capacity,
        bound=bound,
        ports_per_node=ports_per_node,
        from_rule=pools.storage_write_gbyte_per_s is None
        and pools.storage_capacity_tbyte is None
        and pools.storage_read_gbyte_per_s is None,
    )


def cheapest_fabric_switch(catalog: Catalog, *, speed: int) -> tuple[Switch, int]:
    """Cheapest Ethernet fabric (non-management) switch per port at ``speed``, and its ports.

    Parameters
    ----------
    catalog : Catalog
        Switches to choose from.
    speed : int
        Port speed [Gbit/s].

    Returns
    -------
    tuple of (Switch, int)
        The switch and its ports at ``speed`` [count].

    Raises
    ------
    CatalogError
        No Ethernet fabric switch has ports of ``speed``.
    """
    return _cheapest_fabric_switch(catalog, speed)


@per_catalog
def _cheapest_fabric_switch(catalog: Catalog, speed: int) -> tuple[Switch, int]:
    """:func:`cheapest_fabric_switch`, searched once per catalog and speed (every plan asks)."""
    candidates = [
        (s.unit_cost_usd / s.radix_by_speed[speed], s.id, s)
        for s in catalog.switches.values()
        if s.family == "ethernet" and not s.management and speed in s.radix_by_speed
    ]
    if not candidates:
        raise CatalogError(msg("catalog: no Ethernet fabric switch has {speed}G ports", speed=speed))
    _, _, switch = min(candidates)
    return switch, switch.radix_by_speed[speed]


def size_frontend_pool(
    *, catalog: Catalog, gpus_per_node: int, nodes: int, pools: Pools, inband_gbit_per_s_per_node: float
) -> FrontendPool:
    """The front-end network for the pool's target, or the in-band network when none is set.

    Parameters
    ----------
    catalog : Catalog
        NICs and switches to choose from.
    gpus_per_node : int
        GPUs per server [count]; turns a per-GPU target into a per-server one.
    nodes : int
        GPU servers [count].
    pools : Pools
        The front-end target, NIC and egress.
    inband_gbit_per_s_per_node : float
        In-band bandwidth of one server [Gbit/s], reported when no target is set.

    Returns
    -------
    FrontendPool
        Whether the network is dedicated, its bandwidth per server [Gbit/s], port speed [Gbit/s],
        ports per server, NICs and border ports [count], switch and fabric.

    Raises
    ------
    InputError
        ``pools.frontend_nic_id`` is unknown or not an Ethernet NIC.
    """
    target = pools.frontend_gbit_per_s_per_node
    if pools.frontend_gbit_per_s_per_gpu is not None:
        target = pools.frontend_gbit_per_s_per_gpu * gpus_per_node
    if target is None:
        return FrontendPool(
            dedicated=False,
            gbit_per_s_per_node=inband_gbit_per_s_per_node,
            port_speed_gbit_per_s=0,
            ports_per_node=0,
            nic=None,
            nics=0,
            border_ports=0,
            switch=None,
            fabric=small_clos(endpoints=0, radix=1),
        )
    nic = _frontend_nic(catalog, pools.frontend_nic_id)
    speed = nic.port_speed_gbit_per_s
    ports = ceil_div(round(target * 1000), speed * 1000)
    border = ceil_div(round(pools.frontend_egress_gbit_per_s * 1000), speed * 1000)
    switch, radix = cheapest_fabric_switch(catalog, speed=speed)
    return FrontendPool(
        dedicated=True,
        gbit_per_s_per_node=target,
        port_speed_gbit_per_s=speed,
        ports_per_node=ports,
        nic=nic,
        nics=nodes * ceil_div(ports, nic.ports),
        border_ports=border,
        switch=switch,
        fabric=small_clos(endpoints=nodes * ports + border, radix=radix),
    )


def _frontend_nic(catalog: Catalog, nic_id: str) -> Nic:
    nic = catalog.nics.get(nic_id)
    if nic is None:
        known = ", ".join(sorted(n.id for n in catalog.nics.values() if "ethernet" in n.families))
        raise InputError(
            msg(
                "pools.frontend_nic_id: unknown nics id {nic_id!r} (known Ethernet NICs: {known})",
                nic_id=nic_id,
                known=known,
            )
        )
    if "ethernet" not in nic.families:
        raise InputError(
            msg(
                "pools.frontend_nic_id: {nic_id} is not an Ethernet NIC (the front-end network is Ethernet)",
                nic_id=nic_id,
            )
        )
    return nic
