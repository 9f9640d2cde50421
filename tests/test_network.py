"""Plan bandwidth and latency: goldens, calibration checks against the published NCCL figures
the coefficients were fitted to, and the path latency breakdown."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner import Catalog, Scenario, plan
from planner.catalog import load_catalog
from planner.units import GIB


def test_busbw_rises_with_message_size_towards_the_bound(catalog: Catalog) -> None:
    p = plan(scenario=Scenario(gpus=256, design_id="ib-ndr"), catalog=catalog)
    sizes = [size for size, _, _ in p.bandwidth.curve]
    busbw = [value for _, value, _ in p.bandwidth.curve]
    assert sizes[0] == 1024 and sizes[-1] == 8 * GIB
    assert busbw == sorted(busbw)
    assert busbw[-1] < min(p.bandwidth.scale_up_gbyte_per_s, p.bandwidth.network_gbyte_per_s) + 1e-9


def test_ndr_nic_busbw_calibration_check(catalog: Catalog) -> None:
    # CALIBRATION CHECK, not validation: the NIC's nccl_efficiency 0.94 was set from this quote.
    # NCCL maintainer, NVIDIA/nccl-tests issue 290: "For NDR @ 400Gbps you should see 46-48GB/s
    # per NIC". With B200 (NVLink5, 900 GB/s per direction) the scale-up level is faster than the
    # network, so the 1 GiB all-reduce busbw on 1024 GPUs is network-bound; per NIC (8 per node)
    # it must fall in the quoted 46-48 GB/s range (bound 8 x 50 x 0.94 / 8 = 47 GB/s, less the
    # latency term of the NVLS + tree across 128 domains).
    p = plan(scenario=Scenario(gpus=1024, design_id="ib-ndr", gpu_id="b200_hgx"), catalog=catalog)
    assert p.bandwidth.allreduce_bound == "network"
    per_nic = p.bandwidth.allreduce_busbw_gbyte_per_s / 8
    assert 46.0 <= per_nic <= 48.0, per_nic
    assert "bounded by the network level" in p.bandwidth.explanation


def _no_nvls_catalog(tmp_path: Path) -> Catalog:
    override = tmp_path / "no_nvls.yaml"
    override.write_text("gpus:\n  - id: h100_sxm\n    nvls_allreduce: false\n", encoding="utf-8")
    return load_catalog(overrides=[override])


def test_h100_node_golden_with_and_without_nvls(catalog: Catalog, tmp_path: Path) -> None:
    # One 8 x H100 node never touches the network. 1 GiB = 2^30 B, n = m = 8, busbw factor 1.75.
    # With NVLS (nvls_efficiency 0.61, nvls_alpha_us 10): B_nvls = 0.61 x 450 = 274.5 GB/s,
    #   T = 10 us + 2^30 / 274.5e9 s = 10 + 3911.628 us = 3921.628 us,
    #   busbw = 1.75 x 2^30 / 3921.628e-6 / 1e9 = 479.150 GB/s (NVLS picked: ring takes 5169 us).
    # CALIBRATION CHECK: nvls_efficiency was fitted to NCCL's ~480 GB/s (nccl-tests issue 212).
    p = plan(scenario=Scenario(gpus=8, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=catalog)
    assert p.bandwidth.allreduce_algorithm == "nvls"
    assert p.bandwidth.allreduce_bound == "scale-up"
    assert p.bandwidth.allreduce_busbw_gbyte_per_s == pytest.approx(479.150, abs=1e-3)
    # Without NVLS (catalog override): ring, B_up = 0.81 x 450 = 364.5 GB/s, alpha 2 x 7 x 1 us,
    #   T = 14 us + 1.75 x 2^30 / 364.5e9 s = 14 + 5155.139 us = 5169.139 us,
    #   busbw = 1.75 x 2^30 / 5169.139e-6 / 1e9 = 363.513 GB/s (NCCL ring: 365-370 GB/s, the
    #   calibration of scale_up_ring_efficiency).
    ring = plan(
        scenario=Scenario(gpus=8, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=_no_nvls_catalog(tmp_path)
    )
    assert ring.bandwidth.allreduce_algorithm == "ring"
    assert ring.bandwidth.allreduce_busbw_gbyte_per_s == pytest.approx(363.513, abs=1e-3)


def test_scale_up_bound_uses_domain_not_node(catalog: Catalog, tmp_path: Path) -> None:
    # The old plan model multiplied per-GPU network bandwidth by GPUs per NODE: 16-GPU nodes in
    # 8-GPU domains reported twice the egress. The network bound is m x B_net with m = the domain.
    override = tmp_path / "sixteen.yaml"
    override.write_text("servers:\n  - id: hgx_h100_8gpu\n    gpus_per_node: 16\n", encoding="utf-8")
    big = load_catalog(overrides=[override])
    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=big)
    fabric = p.bandwidth.fabric
    assert fabric.domain_gpus == 8
    assert p.bandwidth.network_gbyte_per_s == pytest.approx(8 * fabric.levels[1].bandwidth_gbyte_per_s)


def test_alltoall_shows_the_rail_difference(catalog: Catalog) -> None:
    # BR100's BLink (256 GB/s per direction) bounds all-reduce for both NPO designs; all-to-all
    # leaves through the GPU's own ports, so 8 rails give about twice 4 rails. The all-reduce
    # figures differ only by the per-level alpha of each topology (below 0.1 % at 1 GiB).
    four = plan(scenario=Scenario(gpus=1024, design_id="rail4-npo"), catalog=catalog)
    eight = plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog)
    assert four.bandwidth.allreduce_bound == eight.bandwidth.allreduce_bound == "scale-up"
    assert math.isclose(
        four.bandwidth.allreduce_busbw_gbyte_per_s, eight.bandwidth.allreduce_busbw_gbyte_per_s, rel_tol=1e-3
    )
    ratio = eight.bandwidth.alltoall_busbw_gbyte_per_s / four.bandwidth.alltoall_busbw_gbyte_per_s
    assert ratio == pytest.approx(2.0, rel=0.02)


def test_latency_breakdown_sums_and_grows_with_tiers(catalog: Catalog) -> None:
    small = plan(scenario=Scenario(gpus=256, design_id="ib-ndr"), catalog=catalog)
    large = plan(scenario=Scenario(gpus=4096, design_id="ib-ndr"), catalog=catalog)
    assert (small.topology.tiers, large.topology.tiers) == (2, 3)
    assert (small.latency.max_switch_hops, large.latency.max_switch_hops) == (3, 5)
    assert math.isclose(sum(ns for _, ns in large.latency.components_ns), large.latency.gpu_to_gpu_ns)
    assert large.latency.gpu_to_gpu_ns > small.latency.gpu_to_gpu_ns > small.latency.gpu_to_gpu_min_ns
    # NPO ports carry no DSP: per link only 2 + 2 ns of optics versus 60 + 60 ns for pluggables
    nic = catalog.nics["cx7_400g"]
    switch = catalog.switches["qm9700_ndr"]
    serdes_ns = catalog.sizing_rules["serdes_fec_ns_per_link"].value
    # ib-ndr, 2 tiers, worst path: 4 links (10, 30, 30, 10 m), 3 switches.
    # host/NIC 600 + FEC 4 x 100 + optics 4 x 120 + propagation 80 m x 5 ns + 3 x 130
    expected = nic.latency_ns + 4 * serdes_ns + 4 * 120 + 80 * 5 + 3 * switch.latency_ns
    assert serdes_ns == 100.0
    assert small.latency.gpu_to_gpu_ns == pytest.approx(expected)


def test_serdes_coefficient_is_overridable(tmp_path: Path) -> None:
    # serdes_fec_ns_per_link is data: +50 ns per link adds 4 x 50 = 200 ns on the 4-link worst path.
    override = tmp_path / "serdes.yaml"
    override.write_text("sizing_rules:\n  - id: serdes_fec_ns_per_link\n    value: 150\n", encoding="utf-8")
    base = plan(scenario=Scenario(gpus=256, design_id="ib-ndr"), catalog=load_catalog())
    slower = plan(scenario=Scenario(gpus=256, design_id="ib-ndr"), catalog=load_catalog(overrides=[override]))
    assert slower.latency.gpu_to_gpu_ns - base.latency.gpu_to_gpu_ns == pytest.approx(200.0)
