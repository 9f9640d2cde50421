"""IT and facility power by category, and the racks that hold the cluster.

Notes
-----
IT power [kW] = sum of category maxima; average IT = maximum x load factor; facility power =
IT x PUE (the cooling method's default PUE unless overridden). Heat equals IT power.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from planner.catalog import Catalog
from planner.catalog.schema import Pdu
from planner.errors import InputError
from planner.i18n.message import msg
from planner.units import ceil_div, w_to_kw

POWER_CATEGORIES = (
    "gpus",
    "servers",
    "nics",
    "fabric_switches",
    "optics",
    "storage",
    "management",
)


@dataclass(frozen=True)
class Power:
    by_category_kw: Mapping[str, float]
    it_kw: float
    it_avg_kw: float
    pue: float
    facility_kw: float
    facility_avg_kw: float
    node_kw: float


def power_summary(
    *, by_category_w: Mapping[str, float], pue: float, load_factor: float, node_w: float
) -> Power:
    """Sum categories into IT and facility power.

    Parameters
    ----------
    by_category_w : Mapping[str, float]
        Maximum power per category of :data:`POWER_CATEGORIES` [W]; a missing category is 0 W.
    pue : float
        Power usage effectiveness, facility power / IT power [ratio], 1 or more.
    load_factor : float
        Average IT power as a fraction of the maximum [fraction], in (0, 1].
    node_w : float
        Maximum power of one server [W].

    Returns
    -------
    Power
        Per category and IT power [kW] (``sum / 1000``), average IT = IT x load factor [kW],
        facility = IT x PUE [kW], average facility = IT x load factor x PUE [kW], server [kW].
    """
    by_category_kw = {name: w_to_kw(by_category_w.get(name, 0.0)) for name in POWER_CATEGORIES}
    it_kw = sum(by_category_kw.values())
    return Power(
        by_category_kw=by_category_kw,
        it_kw=it_kw,
        it_avg_kw=it_kw * load_factor,
        pue=pue,
        facility_kw=it_kw * pue,
        facility_avg_kw=it_kw * load_factor * pue,
        node_kw=w_to_kw(node_w),
    )


@dataclass(frozen=True)
class Racks:
    compute_racks: int
    network_racks: int
    nodes_per_rack: int
    rack_power_limit_kw: float
    layout: tuple[tuple[str, int, float], ...]
    """(rack kind, count, kW per rack), full compute racks first."""

    @property
    def total(self) -> int:
        return self.compute_racks + self.network_racks

    @property
    def max_rack_kw(self) -> float:
        return max((kw for _, _, kw in self.layout), default=0.0)


def rack_layout(
    *,
    nodes: int,
    node_kw: float,
    node_rack_units: int,
    usable_rack_units: int,
    rack_power_limit_kw: float,
    infra_kw: float,
    infra_rack_units: int,
    network_fill_fraction: float,
) -> Racks:
    """Place nodes under the rack power and space limits, and infrastructure in network racks.

    Nodes per rack = min(floor(limit / node kW), floor(usable U / node U)); network racks =
    max(ceil(infrastructure U / (usable U x fill)), ceil(infrastructure kW / limit), 1).

    Parameters
    ----------
    nodes : int
        Servers to place [count].
    node_kw : float
        Maximum power of one server [kW].
    node_rack_units : int
        Height of one server [U].
    usable_rack_units : int
        Rack units usable for equipment in one rack [U].
    rack_power_limit_kw : float
        Power one rack may draw [kW].
    infra_kw : float
        Power of the switches, storage and management gear placed in network racks [kW].
    infra_rack_units : int
        Height of that gear [U].
    network_fill_fraction : float
        Fraction of a network rack's usable units filled [fraction], in (0, 1].

    Returns
    -------
    Racks
        Compute and network racks, servers per rack [count], layout (kind, count, kW per rack).

    Raises
    ------
    InputError
        One server exceeds a rack's power or space (names the limit and its allowed range).
    """
    by_power = int(rack_power_limit_kw // node_kw) if node_kw > 0 else nodes
    by_space = usable_rack_units // node_rack_units
    per_rack = min(by_power, by_space)
    if per_rack < 1:
        raise InputError(
            msg(
                "facility.rack_power_limit_kw: one server needs {node_kw:.1f} kW and {node_u} U; "
                "the rack allows {limit_kw:g} kW and {usable_u} U (allowed: {node_kw:.1f} to 300 kW)",
                node_kw=node_kw,
                node_u=node_rack_units,
                limit_kw=rack_power_limit_kw,
                usable_u=usable_rack_units,
            )
        )
    compute_racks = ceil_div(nodes, per_rack)
    usable_infra_u = max(1, int(usable_rack_units * network_fill_fraction))
    network_racks = max(
        ceil_div(infra_rack_units, usable_infra_u),
        ceil_div(int(infra_kw * 1000), int(rack_power_limit_kw * 1000)),
        1,
    )
    layout: list[tuple[str, int, float]] = []
    full, remainder = divmod(nodes, per_rack)
    if full:
        layout.append(("compute", full, per_rack * node_kw))
    if remainder:
        layout.append(("compute", 1, remainder * node_kw))
    layout.append(("network", network_racks, infra_kw / network_racks))
    return Racks(
        compute_racks=compute_racks,
        network_racks=network_racks,
        nodes_per_rack=per_rack,
        rack_power_limit_kw=rack_power_limit_kw,
        layout=tuple(layout),
    )


def pdus_for_rack(catalog: Catalog, *, rack_kw: float) -> tuple[Pdu, int]:
    """The PDU model and count per rack for a rack power limit.

    The cheapest PDU that carries the whole limit, ``pdus_per_rack`` of them (A+B feeds); if
    none is large enough, the largest, as many per feed as the limit needs.

    Parameters
    ----------
    catalog : Catalog
        Catalog holding the PDUs (``capacity_kw`` [kW], ``unit_cost_usd`` [USD]) and the
        ``pdus_per_rack`` sizing rule [count].
    rack_kw : float
        Power one rack may draw [kW].

    Returns
    -------
    tuple[Pdu, int]
        The PDU model and the PDUs per rack [count]: ``feeds`` when one PDU carries ``rack_kw``,
        else ``feeds * ceil(rack_kw / largest capacity)``.
    """
    feeds = int(catalog.sizing_rules["pdus_per_rack"].value)
    fitting = [p for p in catalog.pdus.values() if p.capacity_kw >= rack_kw]
    if fitting:
        return min(fitting, key=lambda p: (p.unit_cost_usd, p.id)), feeds
    largest = max(catalog.pdus.values(), key=lambda p: (p.capacity_kw, p.id))
    return largest, feeds * ceil_div(int(rack_kw * 1000), int(largest.capacity_kw * 1000))
