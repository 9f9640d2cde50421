"""Reliability by optic kind (planner/performance/optic_failures.py; docs/model.md section 15)."""

from __future__ import annotations

import math

import pytest

from planner.catalog import Catalog
from planner.engine import plan
from planner.inputs.scenario import Scenario
from planner.performance.optic_failures import (
    OPTIC_KINDS,
    failure_step_times,
    optic_failure_loads,
    optic_rates,
    optic_throughput_factor,
    step_slowdown,
)


def test_every_kind_has_a_rate_a_repair_time_and_a_source_or_reason(catalog: Catalog) -> None:
    rates = optic_rates(catalog)
    assert set(rates) == set(OPTIC_KINDS)
    for kind in OPTIC_KINDS:
        for rule_id in (f"optic_failure_rate_{kind}_per_million_h", f"optic_repair_h_{kind}"):
            record = catalog.sizing_rules[rule_id]
            assert (record.source and record.as_of) or (record.assumption and record.reason), rule_id
    # an engine inside the package is repaired by replacing the switch: the longest repair
    assert rates["cpo"].repair_h > rates["npo"].repair_h > rates["pluggable"].repair_h


def test_an_npo_engine_takes_its_switch_down_a_module_only_its_link(catalog: Catalog) -> None:
    npo = optic_failure_loads(
        plan=plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog), catalog=catalog
    )
    ib = optic_failure_loads(
        plan=plan(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=catalog), catalog=catalog
    )
    assert {load.kind for load in npo} == {"npo"} and {load.kind for load in ib} == {"pluggable"}
    leaf = next(load for load in npo if load.link_class == "leaf_spine" and load.end == "lower")
    assert leaf.element == "leaf switch" and leaf.repair_h == 4.0
    # rail8-npo, 1,024 GPUs: 8,192 leaf uplink ports on 64 leaves = 128 per leaf = 16 engines of
    # 8 ports each, 64 x 16 = 1,024 engines at 0.385 per 10^6 h = 0.00946 failures per day
    assert leaf.units == 1024
    assert leaf.failures_per_day == pytest.approx(1024 * 0.385e-6 * 24)
    # a leaf is one plane of eight: its GPUs lose 1/8 of their bandwidth while it is repaired
    assert leaf.bandwidth_lost_fraction == pytest.approx(1 / 8)
    assert all(load.element == "link" for load in ib)


def test_step_slowdown_and_the_throughput_factor() -> None:
    # 20 % of the step is exposed communication, 1/8 of the bandwidth lost: 0.2 x (1/8) / (7/8)
    assert step_slowdown(network_share=0.2, bandwidth_lost_fraction=0.125) == pytest.approx(0.2 / 7)
    assert step_slowdown(network_share=0.2, bandwidth_lost_fraction=1.0) == 0.0  # an interruption
    assert optic_throughput_factor(loads=(), network_share=0.2) == 1.0


def test_one_failed_element_stretches_only_the_network_part(catalog: Catalog) -> None:
    rail8 = failure_step_times(
        plan=plan(scenario=Scenario(gpus=1024, design_id="rail8-npo"), catalog=catalog),
        compute_s=3.0,
        network_s=0.7,
    )
    # one plane of eight down: 3.0 + 0.7 / (7/8) = 3.8 s
    assert rail8["plane"] == pytest.approx(3.8)
    ib = failure_step_times(
        plan=plan(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=catalog),
        compute_s=3.0,
        network_s=0.7,
    )
    # one port per GPU: a failed node-leaf link cuts a GPU off, the job stops until it restarts
    assert math.isinf(ib["node-leaf link"])
