"""Rule test: the counted Clos can be cabled exactly, every leaf reaching every spine equally.

From a :class:`Topology`, wire one plane explicitly (node ports to leaves, leaf uplinks to the
spines of their pod, spine uplinks to their core group, and in four tiers core uplinks to their
top group) and check that every port count the
builder reports is accounted for, no switch port is used twice (per-switch use <= radix) and the
even-spread rule of docs/model.md (topology section) holds.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.design import FabricParams
from planner.errors import InputError
from planner.fabric.topology import Topology, build_topology

Port = tuple[str, int]


def wire_plane(t: Topology) -> Counter[tuple[Port, Port]]:
    """Links of one plane between (tier, index) pairs, from the builder's counts."""
    links: Counter[tuple[Port, Port]] = Counter()
    q, down = t.ports_per_node_per_plane, t.leaf_down_ports
    leaves = t.switches_leaf // t.planes
    rail_opt = t.rails > t.planes
    per_rail = leaves // q if rail_opt else leaves
    for node in range(t.nodes):
        for port in range(q):
            leaf = port * per_rail + node // down if rail_opt else node // (down // q)
            links[(("node", node), ("leaf", leaf))] += 1
    if t.tiers == 1:
        return links
    spines = t.switches_spine // t.planes
    if t.tiers == 2:
        for leaf in range(leaves):
            for spine in range(spines):
                links[(("leaf", leaf), ("spine", spine))] += t.leaf_up_ports // spines
        return links
    if t.tiers == 4:
        return _wire_four_tiers(t, links)
    group = t.cores_per_group
    first = 0
    for pod, pod_leaves in enumerate(t.leaves_per_pod):
        for leaf in range(first, first + pod_leaves):
            for j in range(t.leaf_up_ports):
                links[(("leaf", leaf), ("spine", pod * t.leaf_up_ports + j))] += 1
        first += pod_leaves
        for j in range(t.leaf_up_ports):
            for c in range(group):
                per_core = -(-pod_leaves // group)
                links[(("spine", pod * t.leaf_up_ports + j), ("core", j * group + c))] += per_core
    return links


def _wire_four_tiers(t: Topology, links: Counter[tuple[Port, Port]]) -> Counter[tuple[Port, Port]]:
    """Leaves to the spines of their pod, spines to their core group in their block, cores to
    their top group (docs/model.md, "Four tiers")."""
    up, group, tops = t.leaf_up_ports, t.cores_per_group, t.tops_per_group
    cores_per_block = up * group
    first_leaf = pod = 0
    for block, pods_in_block in enumerate(t.pods_per_block):
        for _ in range(pods_in_block):
            pod_leaves = t.leaves_per_pod[pod]
            for leaf in range(first_leaf, first_leaf + pod_leaves):
                for j in range(up):
                    links[(("leaf", leaf), ("spine", pod * up + j))] += 1
            for j in range(up):
                for x in range(group):
                    links[(("spine", pod * up + j), ("core", block * cores_per_block + j * group + x))] += 1
            first_leaf += pod_leaves
            pod += 1
        for index in range(cores_per_block):
            for y in range(tops):
                per_top = -(-pods_in_block // tops)
                links[(("core", block * cores_per_block + index), ("top", index * tops + y))] += per_top
    return links


def used_ports(links: Counter[tuple[Port, Port]]) -> Counter[Port]:
    used: Counter[Port] = Counter()
    for (a, b), n in links.items():
        used[a] += n
        used[b] += n
    return used


@pytest.mark.slow  # the property over 80 random fabrics of up to 9,600 GPUs, wired port by port (~20 s CPU)
@settings(max_examples=80, deadline=None)
@given(
    radix=st.sampled_from([16, 32, 36, 40, 48, 64, 72, 128, 144, 256]),
    nodes=st.integers(1, 1200),
    gpus_per_node=st.sampled_from([1, 4, 8]),
    rail_optimized=st.booleans(),
    oversubscription=st.sampled_from([1.0, 2.0, 3.0]),
)
def test_every_port_and_link_is_accounted_for(
    radix: int, nodes: int, gpus_per_node: int, rail_optimized: bool, oversubscription: float
) -> None:
    fabric = FabricParams.model_validate(
        {
            "family": "infiniband",
            "ports_per_gpu": 1,
            "port_speed_gbit_per_s": 400,
            "planes": 1,
            "rail_optimized": rail_optimized,
            "switch_id": "sw",
            "nic_id": "nic",
            "optics_id": "opt",
            "oversubscription": oversubscription,
        }
    )
    try:
        t = build_topology(nodes=nodes, gpus_per_node=gpus_per_node, fabric=fabric, radix=radix)
    except InputError:
        return  # beyond three tiers or a node too wide for a leaf: named elsewhere
    links = wire_plane(t)
    used = used_ports(links)
    # every port the builder reports is cabled, and only those
    by_tier: Counter[str] = Counter()
    for (tier, _), n in used.items():
        by_tier[tier] += n
    for tc in t.tier_counts:
        assert by_tier[tc.tier] == tc.ports_used
        assert tc.ports_used <= tc.ports_provisioned
    kinds: Counter[tuple[str, str]] = Counter()
    for ((a, _), (b, _)), n in links.items():
        kinds[(a, b)] += n
    assert kinds[("node", "leaf")] == t.links_node_leaf
    assert kinds[("leaf", "spine")] == t.links_leaf_spine
    assert kinds[("spine", "core")] == t.links_spine_core
    assert kinds[("core", "top")] == t.links_core_top
    # no switch port used twice: per-switch use within the radix, leaf down ports within d
    for (tier, _), n in used.items():
        assert tier == "node" or n <= radix
    counts: dict[str, int] = {tc.tier: tc.switches_per_plane for tc in t.tier_counts}
    assert all(i < counts[tier] for (tier, i) in used if tier != "node")
    # every leaf reaches every spine of its pod with the same number of links
    pair = Counter(n for ((a, _), (b, _)), n in links.items() if (a, b) == ("leaf", "spine"))
    if t.tiers >= 2:
        assert set(pair) == {t.links_per_leaf_spine_pair}
        pod_spines = counts["spine"] // max(len(t.leaves_per_pod), 1) if t.tiers >= 3 else counts["spine"]
        for leaf in range(counts["leaf"]):
            reached = [b for (a, b) in links if a == ("leaf", leaf)]
            assert len(reached) == pod_spines
        assert t.leaf_up_ports % pod_spines == 0


@settings(max_examples=60, deadline=None)
@given(
    radix=st.sampled_from([8, 12, 16]),
    fill=st.floats(0.0, 1.0),
    gpus_per_node=st.sampled_from([1, 2, 4]),
    rail_optimized=st.booleans(),
    oversubscription=st.sampled_from([1.0, 3.0]),
)
def test_four_tiers_account_for_every_port_and_spread_evenly(
    radix: int, fill: float, gpus_per_node: int, rail_optimized: bool, oversubscription: float
) -> None:
    """Between the three- and four-tier limits of small radices: the same accounting, and every
    spine reaches every core of its block's group, every core every top switch of its group,
    with equal link counts."""
    base = fabric_params(rail_optimized=rail_optimized, oversubscription=oversubscription)
    try:
        probe = build_topology(nodes=1, gpus_per_node=gpus_per_node, fabric=base, radix=radix)
    except InputError:
        return  # a node too wide for a leaf at this radix
    low = probe.max_gpus_three_tier // gpus_per_node + 1
    high = probe.max_gpus_four_tier // gpus_per_node
    nodes = low + int(fill * (high - low))
    t = build_topology(nodes=nodes, gpus_per_node=gpus_per_node, fabric=base, radix=radix)
    assert t.tiers == 4 and t.max_switch_hops == 7
    links = wire_plane(t)
    used = used_ports(links)
    by_tier: Counter[str] = Counter()
    for (tier, _), n in used.items():
        by_tier[tier] += n
    for tc in t.tier_counts:
        assert by_tier[tc.tier] == tc.ports_used
        assert tc.ports_used <= tc.ports_provisioned
    assert all(n <= radix for (tier, _), n in used.items() if tier != "node")
    counts: dict[str, int] = {tc.tier: tc.switches_per_plane for tc in t.tier_counts}
    assert all(i < counts[tier] for (tier, i) in used if tier != "node")
    assert {n for ((a, _), (b, _)), n in links.items() if (a, b) == ("spine", "core")} == {1}
    core_top: dict[int, list[int]] = {}
    for (a, b), n in links.items():
        if (a[0], b[0]) == ("core", "top"):
            core_top.setdefault(a[1], []).append(n)
    assert sorted(core_top) == list(range(counts["core"]))
    for reached in core_top.values():
        assert len(reached) == t.tops_per_group and len(set(reached)) == 1
    assert sum(sum(v) for v in core_top.values()) == t.links_core_top


def fabric_params(*, rail_optimized: bool, oversubscription: float) -> FabricParams:
    return FabricParams.model_validate(
        {
            "family": "infiniband",
            "ports_per_gpu": 1,
            "port_speed_gbit_per_s": 400,
            "planes": 1,
            "rail_optimized": rail_optimized,
            "switch_id": "sw",
            "nic_id": "nic",
            "optics_id": "opt",
            "oversubscription": oversubscription,
        }
    )
