"""The cables counted per pair of devices (planner/handoff/pairs.py, what the engine prices) are the
port-by-port wiring's cables (planner/handoff/wiring.py, what the hand-off files list): the same
cables between the same devices, the same optic units on each device, the same layout and every
ordered-length bin equal, for every design preset at 8 to 4,096 GPUs (issue 29/24: the plan lays
its cables out without building each link)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from handoff_fixtures import CATALOG, FACILITY, PRESETS, gpus_for

from planner import plan
from planner.engine import Plan
from planner.handoff import runs, wiring
from planner.handoff.layout import Layout, build_layout
from planner.handoff.pairs import cable_pairs, spine_down_ports
from planner.handoff.runs import CableRun, laid_out_cables, link_lengths_m, runs_of
from planner.handoff.wiring import Wiring, build_wiring, modules_by_device
from planner.inputs.layout import LayoutParams
from planner.inputs.scenario import scenario_from_data

SIZES = (8, 64, 100, 512, 1000, 1024, 4096)
"""GPU counts of the issue's spread (a rack-scale design at least one domain: gpus_for)."""


def _cases() -> list[tuple[str, int]]:
    return sorted({(d, gpus_for(d, g)) for d in PRESETS for g in SIZES})


def _plan(design_id: str, gpus: int) -> Plan:
    data = {"gpus": gpus, "design_id": design_id, "facility": FACILITY.get(design_id, {})}
    return plan(scenario=scenario_from_data(data), catalog=CATALOG, layout_cable_lengths=False)


def _port_by_port(p: Plan, params: LayoutParams) -> tuple[Wiring, Layout, tuple[CableRun, ...]]:
    """The reference: every link built, laid out one by one (what the engine did before)."""
    wired = build_wiring(plan=p, catalog=CATALOG)
    layout = build_layout(plan=p, catalog=CATALOG, wiring=wired, params=params)
    return wired, layout, runs_of(wired, link_lengths_m(wired, layout), CATALOG)


@pytest.mark.parametrize(("design_id", "gpus"), _cases())
def test_the_counted_cables_are_the_wired_cables(design_id: str, gpus: int) -> None:
    p = _plan(design_id, gpus)
    wired, layout, expected = _port_by_port(p, LayoutParams())
    pairs = cable_pairs(plan=p, catalog=CATALOG)
    links = Counter((x.link_class, x.a_device, x.b_device) for x in wired.links)
    counted = {(c.media.link_class, a, b): n for c in pairs.classes for (a, b), n in c.pairs().items()}
    assert counted == dict(links)
    assert [c.media.link_class for c in pairs.classes] == list(
        dict.fromkeys(x.link_class for x in wired.links)
    )
    assert dict(pairs.modules) == modules_by_device(wired.links)
    got, got_layout = laid_out_cables(plan=p, catalog=CATALOG, params=LayoutParams())
    assert got_layout == layout
    assert got == expected  # every class, part, ordered length and count, the longest run and the reach
    assert sum(r.cables for r in got) == len(wired.links)


VARIANTS: dict[str, tuple[str, int, dict[str, Any]]] = {
    # what no preset has: two ports a NIC (one module group per NIC at the server end)
    "two-port NICs": ("rail4-npo", 64, {"fabric": {"nic_id": "cx7_2x200g", "ports_per_nic": 2, "planes": 1}}),
    # one 800G port split over two planes (the legs of a port share its module)
    "planes per port": (
        "ib-xdr",
        1024,
        {
            "fabric": {
                "planes_per_port": 2,
                "planes": 2,
                "optics_id": "osfp_800g_2xdr4",
                "node_optics_id": "osfp_800g_dr8",
            }
        },
    ),
    "front-end fabric": ("ib-ndr", 256, {"pools": {"frontend_gbit_per_s_per_gpu": 100}}),
    "leaves per plane": ("ib-ndr", 512, {"fabric": {"rail_optimized": False}}),
    "oversubscribed": ("rail8-npo", 1024, {"fabric": {"oversubscription": 3.0}}),
}
"""Fabrics the presets do not reach (tests/test_ports.py's variants, a front-end target)."""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_counted_cables_hold_on_fabrics_no_preset_has(variant: str) -> None:
    design_id, gpus, changes = VARIANTS[variant]
    data: dict[str, Any] = {"gpus": gpus, "design_id": design_id, **changes}
    if "fabric" in changes:
        data["fabric"] = {**CATALOG.designs[design_id].fabric.model_dump(), **changes["fabric"]}
    p = plan(scenario=scenario_from_data(data), catalog=CATALOG, layout_cable_lengths=False)
    wired, layout, expected = _port_by_port(p, LayoutParams())
    pairs = cable_pairs(plan=p, catalog=CATALOG)
    counted = {(c.media.link_class, a, b): n for c in pairs.classes for (a, b), n in c.pairs().items()}
    assert counted == dict(Counter((x.link_class, x.a_device, x.b_device) for x in wired.links))
    assert dict(pairs.modules) == modules_by_device(wired.links)
    assert laid_out_cables(plan=p, catalog=CATALOG, params=LayoutParams()) == (expected, layout)


@pytest.mark.parametrize(
    ("design_id", "gpus"), [("rail8-npo", 512), ("gb200-nvl72-ib-ndr", 144), ("ib-hdr", 1024)]
)
@pytest.mark.parametrize(
    "floor",
    [
        LayoutParams(row_length_m=3.0),  # five racks a row: many rows, runs across them
        LayoutParams(row_length_m=60.0, cold_aisle_m=1.8, hot_aisle_m=0.9, tray_height_m=0.45, slack_m=3.0),
    ],
)
def test_the_counted_runs_hold_on_another_floor(design_id: str, gpus: int, floor: LayoutParams) -> None:
    p = _plan(design_id, gpus)
    _, layout, expected = _port_by_port(p, floor)
    got, got_layout = laid_out_cables(plan=p, catalog=CATALOG, params=floor)
    assert got_layout == layout and got == expected


def test_a_new_size_is_priced_without_building_a_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's cable lengths come from the counts: a plan at a size not planned before builds
    no :class:`planner.handoff.wiring.Link` (17,836 of them at 1,024 GPUs on rail8-npo)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a link was built")

    monkeypatch.setattr(wiring, "Link", refuse)
    runs._CACHE.clear()
    p = plan(scenario=scenario_from_data({"gpus": 1016, "design_id": "rail8-npo"}), catalog=CATALOG)
    assert len({line.length_m for line in p.bom if line.link_classes == ("node_leaf",)}) > 1


@pytest.mark.parametrize(("up", "spines"), [(3, 2), (128, 4), (7, 3), (2, 5), (10, 4)])
def test_two_tier_spine_ports_shared_at_a_leaf_boundary(up: int, spines: int) -> None:
    """No preset has a leaf's up ports a non-multiple of the spines, where the wiring's two-tier
    rule (leaf ``i``'s link ``t`` on spine ``t mod S``, port ``i floor(U / S) + floor(t / S)``)
    lands two leaves' cables on one spine port: the counted ports equal the wiring rule's, port by
    port (U = 3, S = 2, 6 leaves: spine 0 takes 2 cables a leaf on 5 x 1 + 2 = 7 ports)."""
    leaves = 6
    for s in range(spines):
        ports = {
            i * (up // spines) + t // spines for i in range(leaves) for t in range(up) if t % spines == s
        }
        if ports:
            assert spine_down_ports(leaves=leaves, up=up, spines=spines, spine=s) == len(ports)
    assert spine_down_ports(leaves=6, up=3, spines=2, spine=0) == 7
