"""Hand-off wiring (issue 17, "Must show"): for every preset at 64, 256 and 1024 GPUs the cabling
plan has the BOM's cables and optics, no switch port twice, every GPU port on the leaf of its own
rail on each plane, and leaf uplinks spread evenly over the spines."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from handoff_fixtures import CATALOG, cases, preset_handoff

from planner.handoff import naming
from planner.handoff.cabling import Handoff
from planner.handoff.wiring import balanced_block

CASES = cases()
IDS = [f"{d}-{g}" for d, g in CASES]


def _bom(h: Handoff, category: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for line in h.plan.bom:
        if line.category == category:
            found[line.id] += line.quantity
    return found


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_cables_and_optics_equal_the_bom(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    cables = Counter(c.cable_part for c in h.cables)
    assert cables == _bom(h, "cables")
    # the compute fabric's cables and optics, then the storage and management fabrics' (issue 17)
    aux_cables = sum(m.links for m in h.plan.aux_media)
    assert len(h.cables) == h.plan.cables + aux_cables
    assert Counter(h.wiring.transceivers()) == _bom(h, "optics")
    aux_optics = sum(m.transceivers for m in h.plan.aux_media)
    assert sum(h.wiring.transceivers().values()) == h.plan.transceivers + aux_optics


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_every_port_is_used_at_most_once(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    ends = Counter((c.a_device, c.a_port) for c in h.cables) + Counter(
        (c.b_device, c.b_port) for c in h.cables
    )
    assert [end for end, n in ends.items() if n > 1] == []
    ports = {d.device_id: set(d.interfaces) for d in h.wiring.devices}
    assert all(port in ports[device] for device, port in ends), "every cabled port is an interface"
    assert len({c.cable_id for c in h.cables}) == len(h.cables)


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_every_gpu_port_lands_on_the_leaf_of_its_rail_on_each_plane(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    topo = h.plan.topology
    devices = {d.device_id: d for d in h.wiring.devices}
    node_links = [link for link in h.wiring.links if link.link_class == "node_leaf"]
    assert len(node_links) == topo.links_node_leaf
    leaves_of: dict[tuple[str, int], set[str]] = defaultdict(set)
    planes_of: dict[tuple[str, int | None], set[int]] = defaultdict(set)
    for link in node_links:
        leaf = devices[link.b_device]
        assert leaf.role == "leaf" and leaf.plane == link.plane
        if leaf.rail is not None:
            assert leaf.rail == link.rail, (link.a_device, link.a_port, link.b_device)
        leaves_of[(link.a_device, link.plane)].add(link.b_device)
        planes_of[(link.a_device, link.gpu)].add(link.plane)
    if topo.rails == topo.planes:
        # one leaf set per plane: all of a server's links on a plane meet on one leaf
        assert all(len(leaves) == 1 for leaves in leaves_of.values())
    # every GPU reaches every plane (a GPU's p ports, one per plane, on the NPO designs)
    if topo.ports_per_gpu >= topo.planes:
        assert all(planes == set(range(topo.planes)) for planes in planes_of.values())


def test_gpu_i_goes_to_rail_i_on_the_rail_optimized_presets() -> None:
    """ib-ndr at 1024 GPUs: GPU i of every server (port i) lands on a leaf named rail i + 1."""
    h = preset_handoff("ib-ndr", 1024)
    for link in h.wiring.links:
        if link.link_class == "node_leaf":
            assert link.gpu == link.rail
            assert link.b_device.startswith(f"leaf-p1-r{link.gpu + 1}-")


@pytest.mark.parametrize(("design_id", "gpus"), CASES, ids=IDS)
def test_leaf_uplinks_spread_evenly_over_the_spines(design_id: str, gpus: int) -> None:
    h = preset_handoff(design_id, gpus)
    topo = h.plan.topology
    per_leaf: dict[str, Counter[str]] = defaultdict(Counter)
    for link in h.wiring.links:
        if link.link_class == "leaf_spine":
            per_leaf[link.a_device][link.b_device] += 1
    if topo.tiers < 2:  # one switch per plane (or none): no uplinks at all
        assert per_leaf == {} and topo.switches_spine == 0
        return
    assert len(per_leaf) == topo.switches_leaf
    spines_per_plane = topo.switches_spine // topo.planes
    for leaf, spines in per_leaf.items():
        assert sum(spines.values()) == topo.leaf_up_ports, leaf
        assert len(set(spines.values())) == 1, f"{leaf}: uneven {spines}"
        expected = spines_per_plane if topo.tiers == 2 else topo.leaf_up_ports
        assert len(spines) == expected, leaf
        assert all(s.startswith(f"spine-p{leaf.split('-')[1][1:]}-") for s in spines), "same plane"


def test_three_tier_spines_spread_over_their_core_group() -> None:
    """ib-hdr at 1024 GPUs is three tiers: each spine sends ceil(m / c) links to each core of its group."""
    h = preset_handoff("ib-hdr", 1024)
    topo = h.plan.topology
    assert topo.tiers == 3
    per_spine: dict[str, Counter[str]] = defaultdict(Counter)
    for link in h.wiring.links:
        if link.link_class == "spine_core":
            per_spine[link.a_device][link.b_device] += 1
    assert len(per_spine) == topo.switches_spine
    for spine, cores in per_spine.items():
        assert len(cores) == topo.cores_per_group and len(set(cores.values())) == 1, spine


def test_device_ids_are_the_documented_names() -> None:
    h = preset_handoff("ib-ndr", 1024)
    ids = [d.device_id for d in h.wiring.devices]
    assert len(set(ids)) == len(ids)
    assert ids[0] == "gpu-node-0001" and "leaf-p1-r3-01" in ids and "spine-p1-01" in ids
    assert naming.spine_id(plane=0, pod=1, index=6) == "spine-p1-pod02-07"
    assert naming.server_id(9_999, count=10_000) == "gpu-node-10000"


def test_device_ids_do_not_move_with_the_layout() -> None:
    """A tenant-placement feature reuses the ids: a different floor keeps every device's name."""
    from planner.handoff.cabling import build_handoff
    from planner.inputs.layout import LayoutParams

    h = preset_handoff("rail8-npo", 256)
    other = build_handoff(plan=h.plan, catalog=CATALOG, params=LayoutParams(row_length_m=3.0))
    assert [d.device_id for d in other.wiring.devices] == [d.device_id for d in h.wiring.devices]
    assert {r.name for r in other.layout.racks} != {r.name for r in h.layout.racks}


def test_balanced_blocks_fill_the_first_bins_first() -> None:
    # 7 servers on 3 leaves: 3, 2, 2
    bins = Counter(balanced_block(i, items=7, bins=3)[0] for i in range(7))
    assert bins == Counter({0: 3, 1: 2, 2: 2})
