"""Rule test: the counted Clos can be cabled exactly, every leaf reaching every spine equally.

From a :class:`Topology`, wire one plane explicitly (node ports to leaves, leaf uplinks to the
spines of their pod, spine uplinks to their core group) and check that every port count the
builder reports is accounted for, no switch port is used twice (per-switch use <= radix) and the
even-spread rule of docs/model.md (topology section) holds.
"""

from __future__ import annotations

from collections import Counter

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


def used_ports(links: Counter[tuple[Port, Port]]) -> Counter[Port]:
    used: Counter[Port] = Counter()
    for (a, b), n in links.items():
        used[a] += n
        used[b] += n
    return used


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
    # no switch port used twice: per-switch use within the radix, leaf down ports within d
    for (tier, _), n in used.items():
        assert tier == "node" or n <= radix
    counts: dict[str, int] = {tc.tier: tc.switches_per_plane for tc in t.tier_counts}
    assert all(i < counts[tier] for (tier, i) in used if tier != "node")
    # every leaf reaches every spine of its pod with the same number of links
    pair = Counter(n for ((a, _), (b, _)), n in links.items() if (a, b) == ("leaf", "spine"))
    if t.tiers >= 2:
        assert set(pair) == {t.links_per_leaf_spine_pair}
        pod_spines = counts["spine"] // max(len(t.leaves_per_pod), 1) if t.tiers == 3 else counts["spine"]
        for leaf in range(counts["leaf"]):
            reached = [b for (a, b) in links if a == ("leaf", leaf)]
            assert len(reached) == pod_spines
        assert t.leaf_up_ports % pod_spines == 0
