"""Collective alpha-beta costs: hand-derived goldens, published NCCL figures, properties."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import Catalog, Scenario, plan
from planner.design import FabricParams
from planner.errors import InputError
from planner.fabric.collectives import MESSAGE_SIZES_BYTES
from planner.performance.collectives import (
    COLLECTIVES,
    Collective,
    CollectiveFabric,
    FabricLevel,
    busbw_curve,
    busbw_factor,
    busbw_vs_gpus,
    collective_time,
    collectives_frame,
    fabric_from_plan,
    send_recv_time_s,
    two_level_fabric,
)
from planner.units import GIB, KIB

# 16 GPUs in 2 domains of 8; scale-up 300 GB/s, network 50 GB/s per GPU; alpha 1 us / 5 us.
FABRIC = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
GB = 1e9


def test_busbw_factors_are_nccl_tests() -> None:
    # nccl-tests doc/PERFORMANCE.md: all-reduce 2(n-1)/n; AG, RS, A2A (n-1)/n; broadcast 1.
    assert busbw_factor(collective="all_reduce", gpus=16) == pytest.approx(30 / 16)
    for c in ("all_gather", "reduce_scatter", "all_to_all"):
        assert busbw_factor(collective=c, gpus=16) == pytest.approx(15 / 16)
    assert busbw_factor(collective="broadcast", gpus=16) == 1.0


def test_all_reduce_goldens_per_algorithm() -> None:
    # B = min(300, 8 x 50) = 300 GB/s (scale-up bound).
    # ring:  2*((16-2)*1 + (2-1)*5) us = 38 us (14 NVLink hops at 1 us and 1 network hop at
    #        5 us per traversal, NCCL's nInterSteps) + 2*15/16 * 1e9 / 300e9 = 6250 us -> 6288 us
    # hier:  2*7*1 + 2*1*5 = 24 us + 6250 us                         -> 6274 us
    # tree:  2*ceil(log2 16)*5 = 40 us + 2 * 1e9 / 300e9 = 6666.7 us -> 6706.7 us
    times = {
        a: collective_time(fabric=FABRIC, collective="all_reduce", message_bytes=GB, algorithm=a).time_us
        for a in ("ring", "hierarchical", "tree")
    }
    assert times["ring"] == pytest.approx(6288.0)
    assert times["hierarchical"] == pytest.approx(6274.0)
    assert times["tree"] == pytest.approx(6706.667, rel=1e-6)
    auto = collective_time(fabric=FABRIC, collective="all_reduce", message_bytes=GB)
    assert auto.algorithm == "hierarchical"
    assert auto.bound_level == "scale-up"
    assert auto.regime == "bandwidth"


def test_small_message_prefers_tree_and_is_latency_bound() -> None:
    # 1 KiB: ring 38 us, hierarchical 24 us, tree 40 us of alpha: hierarchical wins;
    # on 16 domains of 1 GPU (m = 1) hierarchical = ring, and the tree's log2 steps win.
    t = collective_time(fabric=FABRIC, collective="all_reduce", message_bytes=KIB)
    assert (t.algorithm, t.regime) == ("hierarchical", "latency")
    flat = two_level_fabric(gpus=16, domain_gpus=1, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    assert collective_time(fabric=flat, collective="all_reduce", message_bytes=KIB).algorithm == "tree"
    assert collective_time(fabric=flat, collective="all_reduce", message_bytes=8 * GIB).algorithm == "ring"


def test_network_bound_all_reduce_names_the_leaf() -> None:
    # network 25 GB/s per GPU: 8 x 25 = 200 < 300, so B = 200 GB/s and the leaf bounds.
    # hierarchical: 24 us + 2*15/16 * 1e9 / 200e9 = 24 + 9375 us = 9399 us.
    f = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=25)
    t = collective_time(fabric=f, collective="all_reduce", message_bytes=GB, algorithm="hierarchical")
    assert t.time_us == pytest.approx(9399.0)
    assert t.bound_level == "leaf"


def test_in_network_reduction_halves_network_traffic() -> None:
    # SHARP: each GPU sends its 1/m shard once: S / (m B_net) = 1e9 / (8 x 25e9) = 5000 us,
    # below the scale-up phase 2*15/16 * 1e9 / 300e9 = 6250 us; alpha 2*7*1 + 2*5 = 24 us.
    f = two_level_fabric(
        gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=25, in_network_reduction=True
    )
    t = collective_time(fabric=f, collective="all_reduce", message_bytes=GB)
    assert t.algorithm == "in_network"
    assert t.time_us == pytest.approx(6274.0)
    assert t.bound_level == "scale-up"
    with pytest.raises(InputError, match="algorithm"):
        collective_time(fabric=FABRIC, collective="all_reduce", message_bytes=GB, algorithm="in_network")


def test_data_parallel_group_runs_at_gpu_injection() -> None:
    # one GPU per domain (beside 8-way TP): B = min(300, 1 x 50) = 50 GB/s;
    # ring on 2 GPUs: 2*1*5 us + 2*1/2 * 1e9 / 50e9 = 10 us + 20 ms.
    t = collective_time(
        fabric=FABRIC, collective="all_reduce", message_bytes=GB, gpus=2, gpus_per_domain=1, algorithm="ring"
    )
    assert t.time_us == pytest.approx(20010.0)
    assert t.busbw_gbyte_per_s == pytest.approx(1e9 / 20010e-6 / 1e9, rel=1e-9)


def test_all_to_all_golden() -> None:
    # 1.6 GB per GPU, n = 16, m = 8: inside 7/16 x 1.6e9 / 300e9 = 2.333 ms, across
    # 8/16 x 1.6e9 / 50e9 = 16 ms (network bound); alpha ceil(log2 16) x 5 us = 20 us.
    t = collective_time(fabric=FABRIC, collective="all_to_all", message_bytes=1.6e9)
    assert t.time_us == pytest.approx(16020.0)
    assert t.bound_level == "leaf"
    assert t.busbw_gbyte_per_s == pytest.approx(15 / 16 * 1.6e9 / 16020e-6 / 1e9)


def test_all_gather_and_broadcast_goldens() -> None:
    # all-gather hierarchical: 7*1 + 1*5 = 12 us + 15/16 * 1e9 / 300e9 = 3125 us
    ag = collective_time(fabric=FABRIC, collective="all_gather", message_bytes=GB)
    assert ag.time_us == pytest.approx(3137.0)
    # broadcast ring (chain): 14 NVLink hops x 1 us + 1 network hop x 5 us = 19 us
    # + 1e9 / 300e9 = 3333.3 us
    bc = collective_time(fabric=FABRIC, collective="broadcast", message_bytes=GB, algorithm="ring")
    assert bc.time_us == pytest.approx(3352.333, rel=1e-6)


def test_ring_pays_the_network_latency_only_on_network_hops() -> None:
    # NCCL's tuning model (src/graph/tuning.cc, nInterSteps): of a ring all-reduce's 2(n-1)
    # steps, 2(g-1) cross the network, the rest NVLink. 128 GPUs in 16 domains of 8, 1 KiB
    # (beta negligible): alpha = 2 x ((128 - 16) x 1 + 15 x 5) us = 374 us, where charging every
    # step the network's 5 us would give 2 x 127 x 5 = 1270 us.
    f = two_level_fabric(gpus=128, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    t = collective_time(fabric=f, collective="all_reduce", message_bytes=KIB, algorithm="ring")
    assert t.latency_s * 1e6 == pytest.approx(374.0)
    # one GPU per domain (a data-parallel group): every hop crosses the network, 2 x 15 x 5 us
    dp = collective_time(
        fabric=f, collective="all_reduce", message_bytes=KIB, gpus=16, gpus_per_domain=1, algorithm="ring"
    )
    assert dp.latency_s * 1e6 == pytest.approx(150.0)


def _nvls_fabric(gpus: int) -> CollectiveFabric:
    # H100-like: NVLS 274.5 GB/s, network 47 GB/s per GPU, NCCL's Hopper NVLS-tree ceilings
    f = two_level_fabric(
        gpus=gpus, domain_gpus=8, scale_up_gbyte_per_s=364.5, network_gbyte_per_s=47, nvls_gbyte_per_s=274.5
    )
    return dataclasses.replace(f, nvls_tree_head_gbyte_per_s=(57.7, 45.5))


def test_nvls_tree_is_held_to_its_per_head_ceiling() -> None:
    # 2 domains: NVLS phase 274.5 GB/s algbw = 1.875 x 274.5 = 514.7 GB/s busbw; network 8 x 47
    # x 1.875 = 705 GB/s; the ceiling 8 heads x 57.7 = 461.6 GB/s busbw binds. At 8 GiB the
    # latency (10 us + 2 x 1 x 5 us = 20 us) against 1.875 x 8 GiB / 461.6e9 = 34.9 ms: 461.3.
    t = collective_time(
        fabric=_nvls_fabric(16), collective="all_reduce", message_bytes=8 * GIB, algorithm="nvls"
    )
    assert t.busbw_gbyte_per_s == pytest.approx(461.3, abs=0.1)
    assert t.bound_level == "scale-up"
    # 4 domains: the ceiling is 8 x 45.5 = 364 GB/s, the network (tau = 2) 1.9375 x 376 / 2 = 364.25
    t4 = collective_time(
        fabric=_nvls_fabric(32), collective="all_reduce", message_bytes=8 * GIB, algorithm="nvls"
    )
    assert t4.busbw_gbyte_per_s == pytest.approx(364.0, abs=0.3)
    # one domain: NVLS alone, no tree, no ceiling: 1.75 x 274.5 = 480.4 less 10 us of latency
    one = collective_time(
        fabric=_nvls_fabric(8), collective="all_reduce", message_bytes=8 * GIB, algorithm="nvls"
    )
    assert one.busbw_gbyte_per_s == pytest.approx(480.2, abs=0.1)


def test_point_to_point() -> None:
    # across domains: 5 us + 50e6 / 50e9 = 1005 us; inside: 1 us + 50e6 / 300e9 = 167.7 us
    assert send_recv_time_s(fabric=FABRIC, message_bytes=50e6, domains_apart=1) == pytest.approx(1005e-6)
    assert send_recv_time_s(fabric=FABRIC, message_bytes=50e6, domains_apart=0) == pytest.approx(
        1e-6 + 50e6 / 300e9
    )


def test_one_gpu_moves_nothing() -> None:
    t = collective_time(fabric=FABRIC, collective="all_reduce", message_bytes=GB, gpus=1)
    assert (t.time_s, t.busbw_gbyte_per_s, t.bound_level) == (0.0, 0.0, "none")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gpus": 17}, "gpus"),
        ({"gpus": 0}, "gpus"),
        ({"gpus": 8, "gpus_per_domain": 9}, "gpus_per_domain"),
        ({"message_bytes": -1}, "message_bytes"),
        ({"collective": "all_to_all", "algorithm": "ring"}, "algorithm"),
    ],
)
def test_bad_arguments_name_the_field(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"fabric": FABRIC, "collective": "all_reduce", "message_bytes": GB, **kwargs}
    with pytest.raises(InputError, match=f"^{field}:"):
        collective_time(**args)  # type: ignore[arg-type]


# --- on planned clusters -------------------------------------------------------------------


def _plan(catalog: Catalog, design: str, gpus: int = 1024, gpu: str = "h100_sxm", **fabric: object):  # type: ignore[no-untyped-def]
    scenario = Scenario(gpus=gpus, design_id=design, gpu_id=gpu)
    if fabric:
        base = catalog.designs[design].fabric.model_dump()
        scenario = scenario.with_updates(fabric=FabricParams.model_validate({**base, **fabric}))
    return plan(scenario=scenario, catalog=catalog)


@pytest.mark.parametrize("design", ["rail4-npo", "rail8-npo", "ib-ndr"])
def test_whole_cluster_bound_names_the_fabric_level(catalog: Catalog, design: str) -> None:
    # the plan's coarse bound (scale-up / network) is the collectives model's level, coarsened
    p = _plan(catalog, design)
    f = fabric_from_plan(plan=p, catalog=catalog)
    ar = collective_time(fabric=f, collective="all_reduce", message_bytes=8 * GIB)
    coarse = "scale-up" if ar.bound_level == "scale-up" else "network"
    assert coarse == p.bandwidth.allreduce_bound
    assert f == p.bandwidth.fabric  # the plan carries the very fabric the performance pages use


def test_ndr_nic_busbw_calibration_check(catalog: Catalog) -> None:
    # CALIBRATION CHECK, not validation: the NIC's nccl_efficiency 0.94 was set from this quote.
    # "For NDR @ 400Gbps you should see 46-48GB/s per NIC" (NVIDIA/nccl-tests issue 290):
    # an all-reduce between GPUs on different nodes, one per node, runs through one NIC each.
    f = fabric_from_plan(plan=_plan(catalog, "ib-ndr"), catalog=catalog)
    t = collective_time(fabric=f, collective="all_reduce", message_bytes=8 * GIB, gpus=16, gpus_per_domain=1)
    assert 46.0 <= t.busbw_gbyte_per_s <= 48.0


def test_h100_node_ring_and_nvls_calibration_check(catalog: Catalog) -> None:
    # CALIBRATION CHECK: scale_up_ring_efficiency (0.81) and nvls_efficiency (0.61) were fitted
    # to NVIDIA/nccl-tests issue 212 (H100 8-GPU node: ring about 365-370 GB/s, NVLS about
    # 470-480 GB/s). 8 GiB on 8 GPUs: ring 1.75 x 8 GiB / (14 us + 1.75 x 8 GiB / 364.5e9)
    # = 364.4 GB/s; NVLS 1.75 x 8 GiB / (10 us + 8 GiB / 274.5e9) = 480.2 GB/s.
    f = fabric_from_plan(plan=_plan(catalog, "ib-ndr"), catalog=catalog)
    ring = collective_time(fabric=f, collective="all_reduce", message_bytes=8 * GIB, gpus=8, algorithm="ring")
    assert ring.busbw_gbyte_per_s == pytest.approx(364.4, abs=0.05)
    assert ring.top_level == "scale-up"
    auto = collective_time(fabric=f, collective="all_reduce", message_bytes=8 * GIB, gpus=8)
    assert auto.algorithm == "nvls"
    assert auto.busbw_gbyte_per_s == pytest.approx(480.2, abs=0.05)
    # NVLS switched off: the tuner falls back to the ring (hierarchical = ring inside one domain)
    off = fabric_from_plan(plan=_plan(catalog, "ib-ndr"), catalog=catalog, nvls=False)
    t = collective_time(fabric=off, collective="all_reduce", message_bytes=8 * GIB, gpus=8)
    assert t.busbw_gbyte_per_s == pytest.approx(364.4, abs=0.05)


def test_nvls_tree_ceiling_follows_the_nvlink_generation(catalog: Catalog) -> None:
    # data/collectives.yaml carries NCCL's perChMaxNVLSTreeBws: Hopper (NVLink 4, 450 GB/s)
    # 57.7 / 45.5 GB/s per head, Blackwell (NVLink 5, 900 GB/s) 96 / 80
    h100 = fabric_from_plan(plan=_plan(catalog, "ib-ndr", gpus=16), catalog=catalog)
    assert h100.nvls_tree_head_gbyte_per_s == (57.7, 45.5)
    b300 = fabric_from_plan(
        plan=_plan(catalog, "spectrumx-800g-2plane", gpus=16, gpu="b300_hgx"), catalog=catalog
    )
    assert b300.nvls_tree_head_gbyte_per_s == (96.0, 80.0)


def test_oversubscribed_spine_bounds_cross_leaf_traffic(catalog: Catalog) -> None:
    # leaf 2:1: the spine level carries leaf bandwidth / 2, so a data-parallel group spanning
    # many leaves is bound by the spine; within one leaf, by the leaf (the NIC).
    p = _plan(catalog, "rail8-npo", oversubscription=2.0)
    f = fabric_from_plan(plan=p, catalog=catalog)
    leaf, spine = f.levels[1], f.levels[2]
    assert spine.bandwidth_gbyte_per_s == pytest.approx(leaf.bandwidth_gbyte_per_s / 2)
    wide = collective_time(fabric=f, collective="all_reduce", message_bytes=GIB, gpus=128, gpus_per_domain=1)
    assert wide.bound_level == "spine"
    narrow = collective_time(fabric=f, collective="all_reduce", message_bytes=GIB, gpus=2, gpus_per_domain=1)
    assert narrow.bound_level == "leaf"


def test_three_tier_fabric_has_every_level(catalog: Catalog) -> None:
    f = fabric_from_plan(plan=_plan(catalog, "ib-ndr", gpus=16384), catalog=catalog)
    assert [level.name for level in f.levels] == ["scale-up", "leaf", "spine", "core"]
    reaches = [level.reach_domains for level in f.levels]
    assert reaches == sorted(reaches)
    assert reaches[-1] == f.domains
    alphas = [level.alpha_us for level in f.levels[1:]]
    assert alphas == sorted(alphas)


def test_in_network_reduction_only_where_the_switch_has_it(catalog: Catalog) -> None:
    ib = fabric_from_plan(plan=_plan(catalog, "ib-ndr"), catalog=catalog, in_network_reduction=True)
    eth = fabric_from_plan(plan=_plan(catalog, "rail8-npo"), catalog=catalog, in_network_reduction=True)
    assert ib.in_network_reduction and not eth.in_network_reduction
    # asked for and unavailable: a note says so instead of silently ignoring it
    assert ib.notes == ()
    assert any("SHARP" in note for note in eth.notes)


def test_nvls_requested_on_a_gpu_without_it_adds_a_note(catalog: Catalog) -> None:
    br100 = fabric_from_plan(plan=_plan(catalog, "rail8-npo", gpu="br100"), catalog=catalog, nvls=True)
    assert not br100.nvls
    assert any("NVLS" in note for note in br100.notes)
    h100 = fabric_from_plan(plan=_plan(catalog, "ib-ndr"), catalog=catalog, nvls=True)
    assert h100.nvls and h100.notes == ()


def test_curves_cover_1kib_to_8gib(catalog: Catalog) -> None:
    f = fabric_from_plan(plan=_plan(catalog, "rail4-npo"), catalog=catalog)
    curve = busbw_curve(fabric=f, collective="all_reduce")
    assert list(curve["message_bytes"]) == list(MESSAGE_SIZES_BYTES)
    assert curve["message_bytes"].iloc[0] == KIB and curve["message_bytes"].iloc[-1] == 8 * GIB
    assert curve["regime"].iloc[0] == "latency" and curve["regime"].iloc[-1] == "bandwidth"
    assert curve["busbw_gbyte_per_s"].is_monotonic_increasing
    scaling = busbw_vs_gpus(fabric=f, collective="all_to_all")
    assert list(scaling["gpus"]) == [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    # all-to-all falls once the group leaves the scale-up domain
    assert scaling["busbw_gbyte_per_s"].iloc[3] < scaling["busbw_gbyte_per_s"].iloc[2]
    frame = collectives_frame(plans=[_plan(catalog, d) for d in ("rail4-npo", "ib-ndr")], catalog=catalog)
    assert len(frame) == 2 * 2 * len(MESSAGE_SIZES_BYTES)
    assert set(frame["design"]) == {"rail4-npo", "ib-ndr"}


def test_eight_rails_double_all_to_all_of_four(catalog: Catalog) -> None:
    # all-to-all crosses the network at the GPU's injection rate: 8 x 200G vs 4 x 200G.
    t4, t8 = (
        collective_time(
            fabric=fabric_from_plan(plan=_plan(catalog, d), catalog=catalog),
            collective="all_to_all",
            message_bytes=GIB,
        )
        for d in ("rail4-npo", "rail8-npo")
    )
    assert t8.busbw_gbyte_per_s == pytest.approx(2 * t4.busbw_gbyte_per_s, rel=0.02)


# --- properties ------------------------------------------------------------------------------


def _fabric(
    up: float, leaf: float, spine: float, domains: int, domain: int, alpha: float
) -> CollectiveFabric:
    return CollectiveFabric(
        gpus=domains * domain,
        domain_gpus=domain,
        levels=(
            FabricLevel("scale-up", 1, up, 1.0),
            FabricLevel("leaf", max(1, domains // 4), leaf, alpha),
            FabricLevel("spine", domains, spine, alpha + 1.0),
        ),
    )


bandwidths = st.floats(min_value=1.0, max_value=2000.0)


@settings(max_examples=200, deadline=None)
@given(
    up=bandwidths,
    leaf=bandwidths,
    spine=bandwidths,
    factor=st.floats(min_value=1.0, max_value=10.0),
    domains=st.integers(min_value=1, max_value=64),
    domain=st.sampled_from([1, 2, 4, 8]),
    collective=st.sampled_from(COLLECTIVES),
    size=st.floats(min_value=1.0, max_value=16 * GIB),
    level=st.integers(min_value=0, max_value=2),
)
def test_more_bandwidth_never_slows_a_collective(
    up: float,
    leaf: float,
    spine: float,
    factor: float,
    domains: int,
    domain: int,
    collective: Collective,
    size: float,
    level: int,
) -> None:
    base = _fabric(up, leaf, spine, domains, domain, 5.0)
    bw = [up, leaf, spine]
    bw[level] *= factor
    faster = _fabric(bw[0], bw[1], bw[2], domains, domain, 5.0)
    slow_s = collective_time(fabric=base, collective=collective, message_bytes=size).time_s
    fast_s = collective_time(fabric=faster, collective=collective, message_bytes=size).time_s
    assert fast_s <= slow_s * (1 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(
    small=st.floats(min_value=1.0, max_value=GIB),
    factor=st.floats(min_value=1.0, max_value=64.0),
    collective=st.sampled_from(COLLECTIVES),
    domains=st.integers(min_value=1, max_value=64),
)
def test_time_grows_with_size_and_busbw_stays_below_the_bound(
    small: float, factor: float, collective: Collective, domains: int
) -> None:
    f = _fabric(300.0, 50.0, 25.0, domains, 8, 5.0)
    t_small = collective_time(fabric=f, collective=collective, message_bytes=small)
    t_large = collective_time(fabric=f, collective=collective, message_bytes=small * factor)
    assert t_large.time_s >= t_small.time_s
    # no busbw above the fastest level, times two for in-network style shortcuts
    assert t_large.busbw_gbyte_per_s <= 2 * 300.0 + 1e-9
