"""Clos and fat-tree arithmetic against hand derivations and published reference designs."""

from __future__ import annotations

import pytest

from planner.design import FabricParams
from planner.errors import InputError
from planner.fabric.topology import build_topology, leaf_port_split, small_clos


def fabric(**changes: object) -> FabricParams:
    base: dict[str, object] = {
        "family": "ethernet",
        "ports_per_gpu": 1,
        "port_speed_gbit_per_s": 400,
        "planes": 1,
        "rail_optimized": False,
        "switch_id": "sw",
        "nic_id": "nic",
        "optics_id": "opt",
    }
    base.update(changes)
    return FabricParams.model_validate(base)


# Non-rail-optimized, one port per GPU, 1-GPU "nodes": endpoints == nodes, so the textbook
# limits apply directly. k = 64 (NDR: 64 x 400G).
K = 64


def topo(nodes: int, **changes: object):  # type: ignore[no-untyped-def]
    return build_topology(nodes=nodes, gpus_per_node=1, fabric=fabric(**changes), radix=K)


def test_single_switch_up_to_radix() -> None:
    # E <= k: one switch, one hop.
    t = topo(K)
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.max_switch_hops) == (1, 1, 0, 1)


def test_two_tier_limit_is_k_squared_over_two() -> None:
    # k^2/2 = 2048 endpoints: k leaves of k/2 down ports, and 64*32/64 = 32 spines.
    t = topo(K * K // 2)
    assert (t.tiers, t.switches_leaf, t.switches_spine) == (2, 64, 32)
    assert t.max_gpus_two_tier == K * K // 2
    # one more endpoint needs a third tier
    assert topo(K * K // 2 + 1).tiers == 3


def test_three_tier_limit_is_k_cubed_over_four() -> None:
    # k^3/4 = 65536 endpoints: 64 pods x 32 leaves = 2048 leaves, 64 pods x 32 spines = 2048
    # spines, 2048*32/64 = 1024 cores = (k/2)^2; 5k^2/4 = 5120 switches (Al-Fares et al. 2008).
    t = topo(K**3 // 4)
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.switches_core) == (3, 2048, 2048, 1024)
    assert t.switches_total == 5 * K * K // 4
    assert t.max_switch_hops == 5
    # one more endpoint needs a fourth tier (docs/model.md, "Four tiers")
    assert topo(K**3 // 4 + 1).tiers == 4


def test_four_tier_limit_is_k_to_the_fourth_over_eight() -> None:
    # k^4/8 = 2,097,152 endpoints: 64 blocks x 32 pods x 32 leaves = 65,536 leaves and as many
    # spines and cores; top groups of t = 32 (one per block): 32 x 32 x 32 = 32,768 top switches,
    # (2 x 4 - 1) (k/2)^3 = 7 x 32,768 = 229,376 switches (a 4-level k-ary fat tree).
    t = topo(K**4 // 8)
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.switches_core, t.switches_top) == (
        4,
        65536,
        65536,
        65536,
        32768,
    )
    assert t.switches_total == 7 * (K // 2) ** 3
    assert t.max_switch_hops == 7
    with pytest.raises(InputError, match=r"four-tier limit .*allowed: 1 to 2097152"):
        topo(K**4 // 8 + 1)


# NVIDIA DGX SuperPOD reference architecture (DGX B200, "DGX SuperPOD Architecture" table,
# docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200, read 2026-11):
# compute fabric of 64-port NDR switches, 8 rails, one 400G port per GPU.
# (SUs, nodes, GPUs, leaf, spine, core, node-leaf, leaf-spine, spine-core cables). Exact match.
SUPERPOD_TABLE = [
    (2, 64, 512, 16, 8, 0, 512, 512, 0),
    (4, 128, 1024, 32, 16, 0, 1024, 1024, 0),
    (8, 256, 2048, 64, 32, 0, 2048, 2048, 0),
    (16, 512, 4096, 128, 128, 64, 4096, 4096, 4096),
    (32, 1024, 8192, 256, 256, 128, 8192, 8192, 8192),
    (64, 2048, 16384, 512, 512, 256, 16384, 16384, 16384),
]


@pytest.mark.parametrize(
    ("sus", "nodes", "gpus", "leaf", "spine", "core", "node_leaf", "leaf_spine", "spine_core"),
    SUPERPOD_TABLE,
)
def test_rail_optimized_fat_tree_matches_superpod_table(
    sus: int,
    nodes: int,
    gpus: int,
    leaf: int,
    spine: int,
    core: int,
    node_leaf: int,
    leaf_spine: int,
    spine_core: int,
) -> None:
    # e.g. 4 SU: leaves per rail = ceil(128 / 32) = 4 -> 8 rails x 4 = 32 leaves; spines = 32 x 32 / 64 = 16.
    # 16 SU: 128 leaves exceed one spine layer (64), so pods of 32 leaves: 4 pods x 32 spines = 128 spines,
    # cores = 128 x 32 / 64 = 64.
    t = build_topology(nodes=nodes, gpus_per_node=8, fabric=fabric(rail_optimized=True), radix=K)
    assert sus * 32 == nodes
    assert nodes * 8 == gpus
    assert (t.switches_leaf, t.switches_spine, t.switches_core) == (leaf, spine, core)
    assert (t.links_node_leaf, t.links_leaf_spine, t.links_spine_core) == (node_leaf, leaf_spine, spine_core)


def test_rail_optimized_leaf_uplinks_are_cabled_in_full() -> None:
    # 10 nodes x 8 rails: 8 leaves with 10 of 32 down ports used, still 32 uplinks each.
    t = build_topology(nodes=10, gpus_per_node=8, fabric=fabric(rail_optimized=True), radix=K)
    assert t.tiers == 2
    assert t.switches_leaf == 8
    assert t.links_leaf_spine == 8 * 32
    assert t.switches_spine == 4  # 256 uplinks / 64 ports


def test_planes_copy_the_fabric() -> None:
    # rail8-npo at 1024 GPUs: 8 planes, per plane 128 nodes x 8 ports = 1024 endpoints on
    # 256-port switches (d = 128): whole nodes per leaf = 128 / 8 = 16 -> 8 leaves, 8*128/256 = 4 spines.
    f = fabric(ports_per_gpu=8, planes=8, port_speed_gbit_per_s=200)
    t = build_topology(nodes=128, gpus_per_node=8, fabric=f, radix=256)
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.rails) == (2, 64, 32, 8)


def test_oversubscription_splits_leaf_ports() -> None:
    assert leaf_port_split(radix=64, oversubscription=1.0) == (32, 32)
    assert leaf_port_split(radix=64, oversubscription=3.0) == (48, 16)
    # 480 / 48 = 10 leaves, 10*16/64 = 2.5 -> at least 3 spines; 3 does not divide a leaf's
    # 16 uplinks (5+5+6), so the even-spread rule takes the next divisor: 4 spines, 4 links each
    # (was 3 before the rule; each spine uses 40 of 64 ports).
    t = topo(480, oversubscription=3.0)
    assert (t.switches_leaf, t.switches_spine, t.oversubscription) == (10, 4, 3.0)
    assert t.links_per_leaf_spine_pair == 4


def test_planes_must_divide_ports() -> None:
    with pytest.raises(InputError, match=r"fabric\.planes"):
        build_topology(nodes=4, gpus_per_node=1, fabric=fabric(ports_per_gpu=4, planes=8), radix=K)


def test_small_clos() -> None:
    assert small_clos(endpoints=0, radix=48).switches == 0
    assert small_clos(endpoints=48, radix=48).switches == 1
    c = small_clos(endpoints=49, radix=48)  # ceil(49 / 24) = 3 leaves; 3 x 24 uplinks / 48 -> 2 spines
    assert (c.leaves, c.spines) == (3, 2)


# NVIDIA DGX SuperPOD with DGX B300 systems and Quantum-X800 InfiniBand, reference architecture
# RA-11339-001 (2025), "DGX SuperPOD Architecture", Table 3 (docs.nvidia.com/dgx-superpod/
# reference-architecture/scalable-infrastructure-b300-xdr): 72 DGX B300 per SU, 8 rails of one
# 800G XDR port per GPU, 144-port Q3400 leaves (72 down, 72 up). (SUs, leaves, spines).
# Leaves per rail = ceil(72 SU / 72); spines = smallest divisor of 72 >= leaves x 72 / 144:
# 1 SU 8 x 72 / 144 = 4 (18 links per pair); 2 SU 8 (9); 4 SU 16 -> 18 (4 links each, the
# published figure the plain ceil missed); 8 SU 32 -> 36 (2 each); 18 SU 144 leaves = 72 (1 each).
XDR_SUPERPOD = [(1, 8, 4), (2, 16, 8), (4, 32, 18), (8, 64, 36), (18, 144, 72)]


@pytest.mark.parametrize(("sus", "leaf", "spine"), XDR_SUPERPOD)
def test_xdr_superpod_spines_spread_leaf_uplinks_evenly(sus: int, leaf: int, spine: int) -> None:
    f = fabric(family="infiniband", port_speed_gbit_per_s=800, rail_optimized=True)
    t = build_topology(nodes=72 * sus, gpus_per_node=8, fabric=f, radix=144)
    assert (t.tiers, t.switches_leaf, t.switches_spine) == (2, leaf, spine)
    assert t.links_node_leaf == t.links_leaf_spine == 576 * sus
    assert 72 % spine == 0 and t.links_per_leaf_spine_pair == 72 // spine


def test_small_clos_grows_past_three_tiers() -> None:
    # 32-port in-band switch: k^3/4 = 8192 ports in three tiers; 16,500 need a fourth:
    # tier i < 4 buys ceil(E / 16^i) blocks of 16^(i-1): 1032, 65 x 16 = 1040, 5 x 256 = 1280;
    # top = 1280 x 16 / 32 = 640.
    c = small_clos(endpoints=16_500, radix=32)
    assert c.switches_by_tier == (1032, 1040, 1280, 640)
    assert c.links_by_tier == (1032 * 16, 1040 * 16, 1280 * 16)
    assert small_clos(endpoints=8192, radix=32).tiers == 3
