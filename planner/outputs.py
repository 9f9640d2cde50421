"""Plain data views of plans: the JSON object of ``planner plan``, BOM and sweep tables.

The keys here are an interface other tools rely on (issue "Planning engine, catalog and CLI").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from planner.engine import Plan

if TYPE_CHECKING:
    import pandas as pd


def _r(value: float, digits: int = 3) -> float:
    return round(float(value), digits)


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    """The JSON-ready summary of a plan (numbers rounded for reading, units in the keys).

    Parameters
    ----------
    plan : Plan
        The plan.

    Returns
    -------
    dict of str to Any
        Design, sizes, notes, assumptions, vendor claims and each result section, each number's
        unit in its key.
    """
    return {
        "design": plan.design_id,
        "design_name": plan.design_name,
        "gpu": plan.gpu_id,
        "server": plan.server_id,
        "gpus_requested": plan.gpus_requested,
        "gpus": plan.gpus,
        "nodes": plan.nodes,
        "racks": plan.racks.total,
        "notes": list(plan.notes),
        "assumptions": [
            {"kind": a.kind, "topic": a.topic, "text": a.text, "source": a.source} for a in plan.assumptions
        ],
        "vendor_claims": [
            {"metric": c.metric, "text": c.text_en, "value_pct": c.value_pct, "status": c.status}
            for c in plan.claims
        ],
        "fabric": _fabric_dict(plan),
        "scale_up": _scale_up_dict(plan),
        "auxiliary": {
            "storage_units": plan.auxiliary.storage_units,
            "storage_switches": plan.auxiliary.storage_fabric.switches,
            "inband_switches": plan.auxiliary.inband_fabric.switches,
            "oob_switches": plan.auxiliary.oob_fabric.switches,
        },
        "pools": _pools_dict(plan),
        "bandwidth": _bandwidth_dict(plan),
        "latency": _latency_dict(plan),
        "power": _power_dict(plan),
        "rack_layout": _racks_dict(plan),
        "cooling": _cooling_dict(plan),
        "cost": _cost_dict(plan),
        "bom": _bom_list(plan),
    }


def _attrs(obj: object, *names: str) -> dict[str, Any]:
    """``{name: obj.name}`` for the JSON keys that are the attribute's own name."""
    return {name: getattr(obj, name) for name in names}


_TOPOLOGY_KEYS = (
    "tiers",
    "planes",
    "rails",
    "ports_per_gpu",
    "port_speed_gbit_per_s",
    "oversubscription",
    "radix",
    "leaf_down_ports",
    "leaf_up_ports",
    "endpoints_per_plane",
    "max_gpus_two_tier",
    "max_gpus_three_tier",
    "max_gpus_four_tier",
)
"""Fields of :class:`~planner.fabric.topology.Topology` in the fabric object, under their own names."""


def _fabric_dict(plan: Plan) -> dict[str, Any]:
    topo = plan.topology
    return {
        **_attrs(topo, *_TOPOLOGY_KEYS),
        "nics": plan.nics,
        "ports_per_server": plan.server_ports.ports,
        "gpus_per_port": topo.gpus_per_port,
        "nics_per_server": plan.nics // plan.nodes,
        "ports_per_nic": plan.server_ports.ports_per_nic,
        "planes_per_port": plan.server_ports.planes_per_port,
        "link_speed_gbit_per_s": plan.server_ports.link_speed_gbit_per_s,
        "switches": {
            "leaf": topo.switches_leaf,
            "spine": topo.switches_spine,
            "core": topo.switches_core,
            "total": topo.switches_total,
        },
        "links": {
            "node_leaf": topo.links_node_leaf,
            "leaf_spine": topo.links_leaf_spine,
            "spine_core": topo.links_spine_core,
        },
        # the fourth tier beside the three-tier keys (whose dicts keep their shape): 0 below four
        "top_tier": {"switches": topo.switches_top, "links_core_top": topo.links_core_top},
        "ports": {
            t.tier: {"provisioned": t.ports_provisioned, "used": t.ports_used, "free": t.ports_free}
            for t in topo.tier_counts
        },
        "media": [
            {
                "link_class": m.link_class,
                "links": m.links,
                "length_m": m.length_m,
                "medium": m.medium,
                "cable": m.cable_id,
                "lower_optic": m.lower.optic_id,
                "lower_units": m.lower.units,
                "upper_optic": m.upper.optic_id,
                "upper_units": m.upper.units,
            }
            for m in plan.media
        ],
        "transceivers": plan.transceivers,
        "cables": plan.cables,
    }


def _scale_up_dict(plan: Plan) -> dict[str, Any]:
    """The scale-up domains: size, count, servers per domain, switches and links (0 inside a server)."""
    su = plan.scale_up
    return {
        **_attrs(su, "domain_gpus", "domains", "servers_per_domain"),
        "switch": su.switch_id,
        **_attrs(su, "switches_per_domain", "switches", "links_per_gpu", "link_gbit_per_s", "links"),
        "gbyte_per_s_per_gpu": _r(plan.bandwidth.fabric.scale_up.bandwidth_gbyte_per_s),
    }


def _pools_dict(plan: Plan) -> dict[str, Any]:
    """The storage and front-end pools: targets, what was bought, and what it provides."""
    pool, fe = plan.auxiliary.storage_pool, plan.auxiliary.frontend
    return {
        "storage": {
            "system": pool.storage.id,
            "units": pool.units,
            "bound": pool.bound,
            "from_per_gpu_rule": pool.from_rule,
            "write_target_gbyte_per_s": _r(pool.write_target_gbyte_per_s),
            "read_target_gbyte_per_s": _r(pool.read_target_gbyte_per_s),
            "capacity_target_tbyte": _r(pool.capacity_target_tbyte),
            "write_gbyte_per_s": _r(pool.write_gbyte_per_s),
            "read_gbyte_per_s": _r(pool.read_gbyte_per_s),
            "capacity_tbyte": _r(pool.capacity_tbyte),
            "ports_per_node": pool.ports_per_node,
            "switch": plan.auxiliary.storage_switch.id,
            "switches": plan.auxiliary.storage_fabric.switches,
        },
        "frontend": {
            "dedicated": fe.dedicated,
            "gbit_per_s_per_node": _r(fe.gbit_per_s_per_node),
            "port_speed_gbit_per_s": fe.port_speed_gbit_per_s,
            "ports_per_node": fe.ports_per_node,
            "nic": fe.nic.id if fe.nic else None,
            "nics": fe.nics,
            "border_ports": fe.border_ports,
            "switch": fe.switch.id if fe.switch else plan.auxiliary.inband_switch.id,
            "switches": fe.switches if fe.dedicated else plan.auxiliary.inband_fabric.switches,
            "tiers": fe.fabric.tiers if fe.dedicated else plan.auxiliary.inband_fabric.tiers,
        },
    }


def _bandwidth_dict(plan: Plan) -> dict[str, Any]:
    bw = plan.bandwidth
    return {
        "per_gpu_gbit_per_s": _r(bw.per_gpu_gbit_per_s),
        "bisection_tbit_per_s": _r(bw.bisection_tbit_per_s),
        "allreduce_busbw_gbyte_per_s": _r(bw.allreduce_busbw_gbyte_per_s),
        "allreduce_bound": bw.allreduce_bound,
        "alltoall_busbw_gbyte_per_s": _r(bw.alltoall_busbw_gbyte_per_s),
        "alltoall_bound": bw.alltoall_bound,
        "scale_up_gbyte_per_s": _r(bw.scale_up_gbyte_per_s),
        "network_gbyte_per_s": _r(bw.network_gbyte_per_s),
        "explanation": bw.explanation,
    }


def _latency_dict(plan: Plan) -> dict[str, Any]:
    return {
        "min_switch_hops": plan.latency.min_switch_hops,
        "max_switch_hops": plan.latency.max_switch_hops,
        "gpu_to_gpu_ns": _r(plan.latency.gpu_to_gpu_ns, 1),
        "gpu_to_gpu_min_ns": _r(plan.latency.gpu_to_gpu_min_ns, 1),
        "components_ns": {name: _r(ns, 1) for name, ns in plan.latency.components_ns},
        "allreduce_small_us": _r(plan.latency.allreduce_small_us, 2),
    }


def _power_dict(plan: Plan) -> dict[str, Any]:
    return {
        "it_kw": _r(plan.power.it_kw),
        "it_avg_kw": _r(plan.power.it_avg_kw),
        "pue": plan.power.pue,
        "facility_kw": _r(plan.power.facility_kw),
        "node_kw": _r(plan.power.node_kw),
        "by_category_kw": {k: _r(v) for k, v in plan.power.by_category_kw.items()},
    }


def _racks_dict(plan: Plan) -> dict[str, Any]:
    return {
        "compute_racks": plan.racks.compute_racks,
        "network_racks": plan.racks.network_racks,
        "nodes_per_rack": plan.racks.nodes_per_rack,
        "max_rack_kw": _r(plan.racks.max_rack_kw),
        "rack_power_limit_kw": plan.racks.rack_power_limit_kw,
    }


def _cooling_dict(plan: Plan) -> dict[str, Any]:
    return {
        "method": plan.cooling.method,
        "heat_load_kw": _r(plan.cooling.heat_load_kw),
        "heat_load_btu_per_h": _r(plan.cooling.heat_load_btu_per_h, 0),
        "refrigeration_tons": _r(plan.cooling.refrigeration_tons),
        "liquid_kw": _r(plan.cooling.liquid_kw),
        "air_kw": _r(plan.cooling.air_kw),
        "coolant_flow_l_per_min": _r(plan.cooling.coolant_flow_l_per_min, 1),
        "airflow_cfm": _r(plan.cooling.airflow_cfm, 0),
        "cdus": plan.cooling.cdus,
        "density_feasible": plan.cooling.density_feasible,
    }


def _cost_dict(plan: Plan) -> dict[str, Any]:
    cost = plan.cost
    return {
        "capex_usd": _r(cost.capex_usd, 2),
        "opex_usd_per_year": _r(cost.opex_usd_per_year, 2),
        "tco_usd": _r(cost.tco_usd, 2),
        "usd_per_gpu_hour": _r(cost.usd_per_gpu_hour, 4),
        "usd_per_gpu": _r(cost.usd_per_gpu, 2),
        "years": cost.years,
        "discount_rate": cost.discount_rate,
        "by_category_usd": {k: _r(v, 2) for k, v in cost.by_category_usd.items()},
        "opex_by_item_usd_per_year": {k: _r(v, 2) for k, v in cost.opex_by_item_usd_per_year.items()},
        "currency": cost.currency,
        "electricity_usd_per_kwh": cost.electricity_usd_per_kwh,
        "usd_to_cny": cost.usd_to_cny,
        "capex_cny": _r(cost.capex_usd * cost.usd_to_cny, 2),
        "tco_cny": _r(cost.tco_usd * cost.usd_to_cny, 2),
    }


BOM_COLUMNS = ("id", "category", "description", "quantity", "unit_cost_usd", "total_usd", "source")
"""Fields of a :class:`~planner.bom.BomLine`: the BOM table's columns and its JSON keys."""
_BOM_MONEY = ("unit_cost_usd", "total_usd")


def _bom_list(plan: Plan) -> list[dict[str, Any]]:
    """The BOM lines, prices rounded to cents."""
    return [
        {
            name: _r(value, 2) if name in _BOM_MONEY else value
            for name, value in _attrs(line, *BOM_COLUMNS).items()
        }
        for line in plan.bom
    ]


def bom_frame(plan: Plan) -> pd.DataFrame:
    """The BOM as a tidy table with unit-suffixed columns.

    Parameters
    ----------
    plan : Plan
        The plan.

    Returns
    -------
    pandas.DataFrame
        One row per BOM line, the columns of :data:`BOM_COLUMNS` (quantity [count], prices [USD]).
    """
    import pandas as pd  # here, not at the top: `planner plan --format json` needs no pandas

    return pd.DataFrame([_attrs(x, *BOM_COLUMNS) for x in plan.bom], columns=list(BOM_COLUMNS))


SUMMARY_COLUMNS = (
    "design",
    "gpus",
    "nodes",
    "racks",
    "tiers",
    "switches",
    "transceivers",
    "per_gpu_gbit_per_s",
    "allreduce_busbw_gbyte_per_s",
    "alltoall_busbw_gbyte_per_s",
    "gpu_to_gpu_ns",
    "it_kw",
    "facility_kw",
    "kw_per_gpu",
    "capex_usd",
    "usd_per_gpu",
    "network_capex_usd",
    "opex_usd_per_year",
    "tco_usd",
    "usd_per_gpu_hour",
    "usd_per_alltoall_gbyte_per_s",
)

NETWORK_CATEGORIES = ("nics", "fabric_switches", "optics", "cables")


def plan_summary_row(plan: Plan) -> dict[str, Any]:
    """One flat row of headline figures: the unit of sweeps and comparison tables.

    Parameters
    ----------
    plan : Plan
        The plan.

    Returns
    -------
    dict of str to Any
        Headline figures, each number's unit in its key (GPUs, kW, USD, GB/s ...).
    """
    cats = plan.cost.by_category_usd
    return {
        "design": plan.design_id,
        "gpus": plan.gpus,
        "nodes": plan.nodes,
        "racks": plan.racks.total,
        "tiers": plan.topology.tiers,
        "switches": plan.topology.switches_total,
        "transceivers": plan.transceivers,
        "per_gpu_gbit_per_s": plan.bandwidth.per_gpu_gbit_per_s,
        "allreduce_busbw_gbyte_per_s": plan.bandwidth.allreduce_busbw_gbyte_per_s,
        "alltoall_busbw_gbyte_per_s": plan.bandwidth.alltoall_busbw_gbyte_per_s,
        "gpu_to_gpu_ns": plan.latency.gpu_to_gpu_ns,
        "it_kw": plan.power.it_kw,
        "facility_kw": plan.power.facility_kw,
        "kw_per_gpu": plan.power.it_kw / plan.gpus,
        "capex_usd": plan.cost.capex_usd,
        "usd_per_gpu": plan.cost.usd_per_gpu,
        "network_capex_usd": sum(cats[c] for c in NETWORK_CATEGORIES),
        "opex_usd_per_year": plan.cost.opex_usd_per_year,
        "tco_usd": plan.cost.tco_usd,
        "usd_per_gpu_hour": plan.cost.usd_per_gpu_hour,
        "usd_per_alltoall_gbyte_per_s": plan.cost.capex_usd
        / (plan.gpus * plan.bandwidth.alltoall_busbw_gbyte_per_s),
    }


def summary_frame(plans: Sequence[Plan]) -> pd.DataFrame:
    """Headline figures of several plans, one row each.

    Parameters
    ----------
    plans : sequence of Plan
        The plans.

    Returns
    -------
    pandas.DataFrame
        One row per plan, the columns of :data:`SUMMARY_COLUMNS`.
    """
    import pandas as pd

    return pd.DataFrame([plan_summary_row(p) for p in plans], columns=list(SUMMARY_COLUMNS))
