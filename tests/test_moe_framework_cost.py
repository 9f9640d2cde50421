"""Megatron-Core's per-copy framework cost on GPUs without a fit of their own
(planner/performance/training/moe.py ``scaled_copy_overhead_ns``; docs/model.md, "framework cost per
copy on other GPUs").

Each test can fail: the expected values carry their derivation from data/moe.yaml (H100 fit 339 ns,
B200 fit 128 ns) and data/gpus.yaml (HBM bandwidths).
"""

from __future__ import annotations

import pytest

from planner import Catalog, load_catalog
from planner.catalog import load_catalog_from_data
from planner.performance.training.efficiency import efficiency_coefficients
from planner.performance.training.moe import copy_overhead_fits, moe_coefficients, scaled_copy_overhead_ns

H100_NS, B200_NS = 339.0, 128.0
"""data/moe.yaml: moe_copy_overhead_ns (DGX-H100 rows, 25.11) and moe_copy_overhead_ns_b200_hgx (26.02)."""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_the_fits_are_keyed_by_the_gpu_they_were_fitted_on(catalog: Catalog) -> None:
    # the general record is the H100 fit; the AutoModel record is a framework's, not a GPU's
    assert copy_overhead_fits(catalog) == {"h100_sxm": H100_NS, "b200_hgx": B200_NS}


def test_a_fitted_gpu_keeps_its_own_value(catalog: Catalog) -> None:
    assert scaled_copy_overhead_ns(catalog, gpu_id="h100_sxm") == H100_NS
    assert scaled_copy_overhead_ns(catalog, gpu_id="b200_hgx") == B200_NS
    assert moe_coefficients(catalog, gpu_id="b200_hgx").copy_overhead_ns == B200_NS


@pytest.mark.parametrize("gpu_id", ["gb300", "b300_hgx", "gb200"])
def test_blackwell_gpus_without_a_fit_take_b200s_at_the_same_bandwidth(catalog: Catalog, gpu_id: str) -> None:
    # 8,000 GB/s like the B200 (|ln 1| = 0 against |ln(8000 / 3350)| = 0.87): 128 x 8000 / 8000;
    # before the rule they took the H100's 339 ns
    assert catalog.gpus[gpu_id].hbm_bandwidth_gbyte_per_s == 8000
    assert moe_coefficients(catalog, gpu_id=gpu_id).copy_overhead_ns == pytest.approx(B200_NS)


def test_the_nearest_fit_is_scaled_by_the_bandwidth_ratio(catalog: Catalog) -> None:
    # H200, 4,800 GB/s: |ln(4800/3350)| = 0.36 < |ln(8000/4800)| = 0.51, so the H100's: 339 x 3350 / 4800
    assert scaled_copy_overhead_ns(catalog, gpu_id="h200_sxm") == pytest.approx(339 * 3350 / 4800)
    # MI300X, 5,300 GB/s: |ln(5300/3350)| = 0.46 > |ln(8000/5300)| = 0.41, so the B200's: 128 x 8000 / 5300
    assert scaled_copy_overhead_ns(catalog, gpu_id="mi300x") == pytest.approx(128 * 8000 / 5300)
    # H800, the H100's bandwidth: the H100's value unscaled
    assert scaled_copy_overhead_ns(catalog, gpu_id="h800_sxm") == pytest.approx(H100_NS)


def test_the_two_fits_agree_with_a_device_cost_within_ten_per_cent(catalog: Catalog) -> None:
    # the evidence for the rule: the H100 fit scaled to B200's bandwidth, 339 x 3350 / 8000 = 142 ns,
    # against the B200's own 128 ns (fitted on other rows of another release): within 10 %, where a host
    # cost would not move between the two DGX systems' x86 hosts
    h100, b200 = catalog.gpus["h100_sxm"], catalog.gpus["b200_hgx"]
    scaled = H100_NS * h100.hbm_bandwidth_gbyte_per_s / b200.hbm_bandwidth_gbyte_per_s
    assert scaled == pytest.approx(141.96, abs=0.01)
    assert abs(scaled / B200_NS - 1.0) < 0.11


def test_a_gpus_own_record_and_the_framework_still_win(catalog: Catalog) -> None:
    record = {"id": "moe_copy_overhead_ns_gb300", "name": "test", "value": 50.0, "unit": "ns"}
    own = load_catalog_from_data({"sizing_rules": [{**record, "assumption": True, "reason": "test"}]})
    assert moe_coefficients(own, gpu_id="gb300").copy_overhead_ns == 50.0
    # the new fit becomes a neighbour too: GB200 (8,000 GB/s) ties with B200 and GB300, the first id wins
    assert scaled_copy_overhead_ns(own, gpu_id="gb200") == pytest.approx(B200_NS)
    # NeMo AutoModel's own cost replaces any GPU's (data/moe.yaml moe_copy_overhead_ns_automodel, 0 ns)
    assert moe_coefficients(catalog, gpu_id="gb300", framework="automodel").copy_overhead_ns == 0.0


def test_without_a_gpu_the_general_record_is_kept(catalog: Catalog) -> None:
    assert moe_coefficients(catalog).copy_overhead_ns == H100_NS
    assert scaled_copy_overhead_ns(catalog, gpu_id="no-such-gpu") == H100_NS


def test_b300_takes_the_blackwell_ultra_kernel_ceiling(catalog: Catalog) -> None:
    # data/training.yaml: the B300 is the GB300's die; without its own records it fell back to the general
    # A100-fitted 0.797, above every Blackwell fit
    gb300 = efficiency_coefficients(catalog, gpu_id="gb300", precision="mxfp8").max_fraction
    b300 = efficiency_coefficients(catalog, gpu_id="b300_hgx", precision="mxfp8").max_fraction
    assert b300 == gb300 == 0.692
    assert efficiency_coefficients(catalog, gpu_id="b300_hgx", precision="fp8").max_fraction == 0.728
    general = efficiency_coefficients(catalog).max_fraction
    assert b300 < general


@pytest.mark.parametrize("gpu_id", ["a100_sxm_80gb", "br100", "ascend_910c"])
def test_below_the_span_of_the_fits_the_nearest_fit_is_taken_unscaled(catalog: Catalog, gpu_id: str) -> None:
    # 2,039, 2,300 and 3,200 GB/s, below the H100's 3,350: the bandwidth law is checked only between the
    # two fits, so no extrapolation (scaled it would be 339 x 3350 / 2300 = 494 ns on BR100)
    assert catalog.gpus[gpu_id].hbm_bandwidth_gbyte_per_s < 3350
    assert scaled_copy_overhead_ns(catalog, gpu_id=gpu_id) == H100_NS
