"""Failure rates calibrated to Llama 3, Young's checkpoint interval, goodput, failure impacts.

The failure rates are catalog records (``data/reliability.yaml``) derived from the Llama 3 run's
419 interruptions and Alibaba HPN's link/ToR ratio, so the tests that reproduce those figures are
calibration checks (they check the wiring and the rounding), not validations.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import Catalog, Scenario, plan
from planner.catalog import load_catalog
from planner.catalog.rules import rule_values
from planner.design import FabricParams
from planner.errors import CatalogError, InputError
from planner.fabric.topology import build_topology
from planner.inputs.reliability import ReliabilityParams, reliability_params
from planner.performance.reliability import (
    COEFFICIENT_IDS,
    FAILURE_CLASSES,
    LLAMA3_CATEGORIES,
    LLAMA3_COUNTS,
    LLAMA3_HOURS,
    LLAMA3_NETWORK_LINKS,
    LLAMA3_NETWORK_SWITCHES,
    LLAMA3_UNEXPECTED_INTERRUPTIONS,
    ComponentCounts,
    goodput_curve,
    goodput_fraction,
    interruptions_per_hour,
    reliability,
    reliability_coefficients,
    wasted_fractions,
    young_interval_s,
)

HOURS_PER_MONTH = 730.5

COEF = reliability_coefficients()
"""The bundled catalog's coefficients (``data/reliability.yaml``)."""
LINK_RATE_PER_MILLION_H = COEF.rates_per_million_h["link"]
SWITCH_RATE_PER_MILLION_H = COEF.rates_per_million_h["switch"]
HPN_LINK_FAILURE_FRACTION_PER_MONTH = COEF.hpn_link_failure_fraction_per_month
HPN_TOR_FAILURE_FRACTION_PER_MONTH = COEF.hpn_tor_failure_fraction_per_month


# --- calibration -----------------------------------------------------------------------------


def test_table5_categories_sum_to_419_and_map_to_classes() -> None:
    # arXiv 2407.21783 Table 5: 18 categories, 419 unexpected interruptions in 54 days.
    assert sum(count for count, _ in LLAMA3_CATEGORIES.values()) == LLAMA3_UNEXPECTED_INTERRUPTIONS
    classes = {cls for _, cls in LLAMA3_CATEGORIES.values()}
    assert classes == {"gpu", "software", "host", "nic", "network"}
    by_class = {c: sum(n for n, k in LLAMA3_CATEGORIES.values() if k == c) for c in classes}
    assert by_class == {"gpu": 268, "software": 63, "host": 46, "nic": 7, "network": 35}


def test_calibration_check_rates_fitted_to_llama3_give_back_its_419_within_one_percent() -> None:
    """CALIBRATION check, not a validation: the catalog's rates were derived from these same 419
    interruptions (``data/reliability.yaml`` notes), so this re-reads them and only checks the
    wiring and the rounding. Tolerance 1 %: each rate is rounded to three significant figures."""
    per_hour = interruptions_per_hour(counts=LLAMA3_COUNTS)
    predicted = sum(per_hour.values()) * LLAMA3_HOURS
    assert predicted == pytest.approx(LLAMA3_UNEXPECTED_INTERRUPTIONS, rel=0.01)
    # class by class too, the network class being links + switches
    assert per_hour["gpu"] * LLAMA3_HOURS == pytest.approx(268, rel=0.01)
    assert per_hour["software"] * LLAMA3_HOURS == pytest.approx(63, rel=0.01)
    assert per_hour["host"] * LLAMA3_HOURS == pytest.approx(46, rel=0.01)
    assert per_hour["nic"] * LLAMA3_HOURS == pytest.approx(7, rel=0.01)
    assert (per_hour["link"] + per_hour["switch"]) * LLAMA3_HOURS == pytest.approx(35, rel=0.01)
    # "about one every three hours": 1296 h / 419 = 3.09 h
    assert 1.0 / sum(per_hour.values()) == pytest.approx(LLAMA3_HOURS / 419, rel=0.01)


def test_llama3_network_counts_are_a_64_port_three_tier_fat_tree() -> None:
    fabric = FabricParams(
        family="ethernet",
        ports_per_gpu=1,
        port_speed_gbit_per_s=400,
        planes=1,
        rail_optimized=False,
        switch_id="sw",
        nic_id="nic",
        optics_id="opt",
    )
    topo = build_topology(nodes=16_384, gpus_per_node=1, fabric=fabric, radix=64)
    assert topo.tiers == 3
    assert (topo.links_total, topo.switches_total) == (LLAMA3_NETWORK_LINKS, LLAMA3_NETWORK_SWITCHES)


def test_calibration_check_network_rates_agree_with_alibaba_hpn_within_a_factor_of_two() -> None:
    """HPN (SIGCOMM 2024): 0.057 % of links and 0.051 % of ToRs fail per month. The link-rate
    check is the independent one (HPN's absolute link rate is not used in the fit); the switch
    rate is the link rate times HPN's own ToR/link ratio, so its check is implied by the link
    one. Both are calibrations, not validations."""
    hpn_link = HPN_LINK_FAILURE_FRACTION_PER_MONTH / HOURS_PER_MONTH * 1e6  # 0.78 per 1e6 h
    hpn_tor = HPN_TOR_FAILURE_FRACTION_PER_MONTH / HOURS_PER_MONTH * 1e6  # 0.70 per 1e6 h
    assert 0.5 <= LINK_RATE_PER_MILLION_H / hpn_link <= 2.0
    assert 0.5 <= SWITCH_RATE_PER_MILLION_H / hpn_tor <= 2.0


def test_llama3_goodput_is_above_ninety_percent() -> None:
    # Llama 3 kept "more than 90 % effective training time" (section 3.3.4). Our first-order
    # model with its checkpoint (405e9 x 14 B = 5.67 TB) written and read at Tectonic's 2 TB/s
    # sustained (section 3.3.1) and a 10 min restart must agree.
    mtbi_s = 3600.0 / sum(interruptions_per_hour(counts=LLAMA3_COUNTS).values())
    delta_s = 405e9 * 14 / 2e12
    restart_s = 600.0 + delta_s
    tau = young_interval_s(checkpoint_write_s=delta_s, mtbi_s=mtbi_s)
    g = goodput_fraction(interval_s=tau, checkpoint_write_s=delta_s, mtbi_s=mtbi_s, restart_s=restart_s)
    assert 0.90 < g < 1.0


# --- Young / Daly ----------------------------------------------------------------------------


def test_young_interval_golden() -> None:
    # delta = 30 s, M = 5 h = 18000 s: tau* = sqrt(2 x 30 x 18000) = sqrt(1.08e6) = 1039.23 s;
    # waste = 30/1039.23 + 1039.23/36000 + 300/18000 = 0.028868 + 0.028868 + 0.016667.
    tau = young_interval_s(checkpoint_write_s=30, mtbi_s=18000)
    assert tau == pytest.approx(1039.2305, rel=1e-6)
    g = goodput_fraction(interval_s=tau, checkpoint_write_s=30, mtbi_s=18000, restart_s=300)
    assert g == pytest.approx(1 - 2 * math.sqrt(30 / 36000) - 300 / 18000, rel=1e-9)


positive = st.floats(min_value=0.1, max_value=1e6)


@settings(max_examples=300, deadline=None)
@given(
    delta=st.floats(min_value=0.1, max_value=3600),
    mtbi=st.floats(min_value=3600, max_value=1e7),
    restart=st.floats(min_value=0, max_value=3600),
    eps=st.sampled_from([1e-3, 1e-2, 0.1, 0.5]),
)
def test_young_optimum_is_a_minimum_of_the_computed_loss(
    delta: float, mtbi: float, restart: float, eps: float
) -> None:
    tau = young_interval_s(checkpoint_write_s=delta, mtbi_s=mtbi)

    def loss(t: float) -> float:
        return sum(wasted_fractions(interval_s=t, checkpoint_write_s=delta, mtbi_s=mtbi, restart_s=restart))

    assert loss(tau) <= loss(tau * (1 + eps)) + 1e-15
    assert loss(tau) <= loss(tau * (1 - eps)) + 1e-15


def _counts(gpus: int) -> ComponentCounts:
    # a two-tier cluster with one 400G port per GPU: 2 links and 3/64 switches per GPU
    return ComponentCounts(
        gpus=gpus, servers=max(1, gpus // 8), nic_ports=gpus, links=2 * gpus, switches=max(1, 3 * gpus // 64)
    )


@settings(max_examples=200, deadline=None)
@given(
    small=st.integers(min_value=8, max_value=8192),
    extra=st.integers(min_value=8, max_value=100_000),
    delta=st.floats(min_value=1, max_value=600),
    restart=st.floats(min_value=0, max_value=3600),
)
def test_goodput_falls_as_gpus_grow_at_a_fixed_failure_rate(
    small: int, extra: int, delta: float, restart: float
) -> None:
    def optimal_goodput(gpus: int) -> float:
        mtbi_s = 3600.0 / sum(interruptions_per_hour(counts=_counts(gpus)).values())
        tau = young_interval_s(checkpoint_write_s=delta, mtbi_s=mtbi_s)
        return goodput_fraction(interval_s=tau, checkpoint_write_s=delta, mtbi_s=mtbi_s, restart_s=restart)

    assert optimal_goodput(small + extra) <= optimal_goodput(small)


# --- on planned clusters -------------------------------------------------------------------


def _plan(catalog: Catalog, design: str, gpus: int = 1024):  # type: ignore[no-untyped-def]
    return plan(scenario=Scenario(gpus=gpus, design_id=design, gpu_id="h100_sxm"), catalog=catalog)


def test_interruptions_are_units_times_rates(catalog: Catalog) -> None:
    p = _plan(catalog, "ib-ndr")
    r = reliability(plan=p, params=ReliabilityParams(params_b=70))
    # 1024 GPUs x (12.6 + 2.97) + 128 servers x 17.3 + 1024 NIC ports x 0.33
    # + 2048 links x 0.537 + 48 switches x 0.48, per 1e6 h, x 24 h
    expected = (1024 * 15.57 + 128 * 17.3 + 1024 * 0.33 + 2048 * 0.537 + 48 * 0.48) / 1e6 * 24
    assert r.interruptions_per_day == pytest.approx(expected, rel=1e-9)
    assert r.mtbi_hours == pytest.approx(24 / expected, rel=1e-9)
    # checkpoint 70e9 x 14 B = 980 GB onto 3 storage units of 80 GB/s
    assert r.checkpoint_gbyte == pytest.approx(980.0)
    assert r.checkpoint_write_s == pytest.approx(980 / (p.auxiliary.storage_units * 80.0))
    assert r.checkpoint_interval_s == pytest.approx(math.sqrt(2 * r.checkpoint_write_s * r.mtbi_hours * 3600))
    assert sum(c.interruptions_per_day for c in r.by_class) == pytest.approx(r.interruptions_per_day)
    assert {c.failure_class for c in r.by_class} == set(FAILURE_CLASSES)


def test_failure_rate_scale_is_linear(catalog: Catalog) -> None:
    p = _plan(catalog, "rail4-npo")
    base = reliability(plan=p, params=ReliabilityParams(params_b=70))
    double = reliability(plan=p, params=ReliabilityParams(params_b=70, failure_rate_scale=2.0))
    assert double.interruptions_per_day == pytest.approx(2 * base.interruptions_per_day)
    assert double.goodput < base.goodput
    assert base.optimal_goodput(failure_rate_scale=2.0) == pytest.approx(double.goodput)


def test_failure_impacts_per_design(catalog: Catalog) -> None:
    impacts = {}
    for design in ("rail4-npo", "rail8-npo", "ib-ndr"):
        result = reliability(plan=_plan(catalog, design), params=ReliabilityParams(params_b=70))
        impacts[design] = {i.element: i for i in result.failure_impacts}
    # one port per GPU: a NIC link or leaf cuts GPUs off; the single plane is everything
    ib = impacts["ib-ndr"]
    assert ib["node-leaf link"].gpu_bandwidth_lost_fraction == 1.0 and not ib["node-leaf link"].survivable
    assert ib["leaf switch"].gpus_affected == 32 and not ib["leaf switch"].survivable
    assert ib["plane"].job_bandwidth_lost_fraction == 1.0
    # 16 spines per plane: one spine is 1/16 of cross-leaf bandwidth
    assert ib["spine switch"].gpu_bandwidth_lost_fraction == pytest.approx(1 / 16)
    # 4 and 8 planes: any single element or plane costs 1/4 or 1/8 and the job survives
    for design, planes in (("rail4-npo", 4), ("rail8-npo", 8)):
        for element in ("node-leaf link", "leaf switch", "plane"):
            assert impacts[design][element].gpu_bandwidth_lost_fraction == pytest.approx(1 / planes)
            assert impacts[design][element].survivable


def test_network_failover_removes_survivable_network_interruptions(catalog: Catalog) -> None:
    for design in ("rail4-npo", "rail8-npo"):
        p = _plan(catalog, design)
        off = reliability(plan=p, params=ReliabilityParams(params_b=70))
        on = reliability(plan=p, params=ReliabilityParams(params_b=70, network_failover=True))
        network = {"nic", "link", "switch"}
        assert all(c.interruptions_per_day == 0 for c in on.by_class if c.failure_class in network)
        survived = sum(c.interruptions_per_day for c in off.by_class if c.failure_class in network)
        assert on.degradations_per_day == pytest.approx(survived)
        assert on.interruptions_per_day == pytest.approx(off.interruptions_per_day - survived)
    # ib-ndr: NIC ports and node-leaf links still stop the job; inter-switch links do not
    ib = reliability(
        plan=_plan(catalog, "ib-ndr"), params=ReliabilityParams(params_b=70, network_failover=True)
    )
    link = next(c for c in ib.by_class if c.failure_class == "link")
    assert link.interruptions_per_day == pytest.approx(1024 * 0.537e-6 * 24)
    assert ib.notes


def test_goodput_falls_with_cluster_size_on_plans(catalog: Catalog) -> None:
    # fixed checkpoint write bandwidth so only the failure rate grows with the GPUs
    params = ReliabilityParams(params_b=70, write_bandwidth_gbyte_per_s=100)
    goodputs = [
        reliability(plan=_plan(catalog, "rail8-npo", n), params=params).goodput for n in (64, 256, 1024)
    ]
    assert goodputs == sorted(goodputs, reverse=True)


def test_goodput_curve_peaks_at_the_optimum(catalog: Catalog) -> None:
    r = reliability(plan=_plan(catalog, "ib-ndr"), params=ReliabilityParams(params_b=405))
    curve = goodput_curve(result=r)
    best = curve.loc[curve["goodput"].idxmax()]
    assert bool(best["optimal"])
    assert best["checkpoint_interval_min"] == pytest.approx(r.checkpoint_interval_min)
    assert int(curve["optimal"].sum()) == 1
    fixed = reliability(
        plan=_plan(catalog, "ib-ndr"), params=ReliabilityParams(params_b=405, checkpoint_interval_min=600)
    )
    assert fixed.checkpoint_interval_min == 600 and fixed.goodput < r.goodput


def test_params_need_a_checkpoint_size() -> None:
    with pytest.raises(InputError, match="params_b or checkpoint_gbyte"):
        reliability_params({})
    with pytest.raises(InputError, match=r"restart_min: .*allowed: 0 to 1440"):
        reliability_params({"params_b": 7, "restart_min": -1})
    assert reliability_params({"checkpoint_gbyte": 10}).checkpoint_gbyte == 10


# --- coefficients are catalog records --------------------------------------------------------


def test_coefficients_are_the_bundled_records(catalog: Catalog) -> None:
    # Same numbers as before they moved to data/reliability.yaml (three significant figures of
    # 268/21.233664, 63/21.233664, 46/2.654208, 7/21.233664, the link split, x 0.8947).
    assert rule_values(catalog, COEFFICIENT_IDS, needed_by="test") == {
        "failure_rate_gpu_per_million_h": 12.6,
        "failure_rate_software_per_million_h": 2.97,
        "failure_rate_host_per_million_h": 17.3,
        "failure_rate_nic_per_million_h": 0.330,
        "failure_rate_link_per_million_h": 0.537,
        "failure_rate_switch_per_million_h": 0.480,
        "hpn_link_failure_fraction_per_month": 0.00057,
        "hpn_tor_failure_fraction_per_month": 0.00051,
        "checkpoint_bytes_per_param": 14.0,
        "checkpoint_restart_min": 10.0,
    }
    for rule_id in COEFFICIENT_IDS:
        record = catalog.sizing_rules[rule_id]
        assert record.unit
        if rule_id.startswith("failure_rate_"):
            # a rate derived from the figure a test checks says so
            assert (
                record.source and record.as_of and (record.notes or "").startswith("Calibration: fitted to")
            )


def test_switch_rate_is_the_link_rate_times_the_hpn_ratio() -> None:
    # 0.537 x 0.051 / 0.057 = 0.4805: the switch record is derived, not a separate calibration
    ratio = HPN_TOR_FAILURE_FRACTION_PER_MONTH / HPN_LINK_FAILURE_FRACTION_PER_MONTH
    switch_rate, link_rate = SWITCH_RATE_PER_MILLION_H, LINK_RATE_PER_MILLION_H
    assert switch_rate == pytest.approx(link_rate * ratio, rel=0.002)


def test_catalog_override_of_a_rate_changes_the_result(
    catalog: Catalog, write_yaml: Callable[[str, Any], Path]
) -> None:
    # Doubling the GPU rate (12.6 -> 25.2) adds 1024 GPUs x 12.6 / 1e6 x 24 h = 0.3097 per day.
    path = write_yaml(
        "rates.yaml", {"sizing_rules": [{"id": "failure_rate_gpu_per_million_h", "value": 25.2}]}
    )
    overridden = load_catalog(overrides=[path])
    p = _plan(catalog, "ib-ndr")
    params = ReliabilityParams(params_b=70)
    base = reliability(plan=p, params=params, catalog=catalog)
    more = reliability(plan=p, params=params, catalog=overridden)
    assert more.interruptions_per_day - base.interruptions_per_day == pytest.approx(1024 * 12.6e-6 * 24)
    assert more.goodput < base.goodput
    gpu = next(c for c in more.by_class if c.failure_class == "gpu")
    assert gpu.rate_per_million_hours == 25.2
    per_hour = interruptions_per_hour(counts=LLAMA3_COUNTS, catalog=overridden)
    assert per_hour["gpu"] * LLAMA3_HOURS == pytest.approx(2 * 268, rel=0.01)


def test_catalog_override_of_checkpoint_defaults_and_explicit_params_win(
    catalog: Catalog, write_yaml: Callable[[str, Any], Path]
) -> None:
    path = write_yaml(
        "ckpt.yaml",
        {
            "sizing_rules": [
                {"id": "checkpoint_bytes_per_param", "value": 16.0},
                {"id": "checkpoint_restart_min", "value": 20.0},
            ]
        },
    )
    overridden = load_catalog(overrides=[path])
    p = _plan(catalog, "ib-ndr")
    base = reliability(plan=p, params=ReliabilityParams(params_b=70), catalog=catalog)
    more = reliability(plan=p, params=ReliabilityParams(params_b=70), catalog=overridden)
    # 70e9 x 16 B = 1120 GB; restart 20 min + read instead of 10 min + read
    assert base.checkpoint_gbyte == pytest.approx(980.0)
    assert more.checkpoint_gbyte == pytest.approx(1120.0)
    read_s = more.checkpoint_gbyte / more.read_bandwidth_gbyte_per_s
    assert more.restart_s == pytest.approx(1200.0 + read_s)
    given = ReliabilityParams(params_b=70, checkpoint_bytes_per_param=14.0, restart_min=10.0)
    assert reliability(plan=p, params=given, catalog=overridden) == base


def test_missing_coefficient_record_is_named(catalog: Catalog) -> None:
    rules = {k: v for k, v in catalog.sizing_rules.items() if k != "failure_rate_nic_per_million_h"}
    with pytest.raises(CatalogError, match="failure_rate_nic_per_million_h"):
        reliability_coefficients(replace(catalog, sizing_rules=rules))


def test_cli_catalog_override_changes_the_reliability(
    write_yaml: Callable[[str, Any], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from planner.cli import run

    args = ["reliability", "--gpus", "1024", "--gpu", "h100_sxm", "--design", "ib-ndr", "--params-b", "70"]
    args += ["--format", "json"]
    assert run(args) == 0
    base = json.loads(capsys.readouterr().out)
    path = write_yaml(
        "rates.yaml", {"sizing_rules": [{"id": "failure_rate_host_per_million_h", "value": 34.6}]}
    )
    assert run([*args, "--catalog", str(path)]) == 0
    more = json.loads(capsys.readouterr().out)
    # 128 servers x 17.3 / 1e6 x 24 h = 0.05315 more per day
    assert more["interruptions_per_day"] - base["interruptions_per_day"] == pytest.approx(
        128 * 17.3e-6 * 24, abs=2e-4
    )
