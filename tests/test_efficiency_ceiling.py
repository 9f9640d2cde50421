"""Efficiency ceilings per accelerator and precision, and the plausibility note."""

from __future__ import annotations

import dataclasses

from planner import Scenario, load_catalog, plan
from planner.performance.training.efficiency import efficiency_coefficients, published_ceiling
from planner.performance.workload import estimate_workload, training_job

CATALOG = load_catalog()
ACCELERATORS = (
    "a100_sxm_80gb",
    "h100_sxm",
    "h200_sxm",
    "b200_hgx",
    "gb200",
    "mi300x",
    "ascend_910c",
    "br100",
)


def test_every_accelerator_has_a_published_or_assumed_ceiling_per_precision() -> None:
    for gpu_id in ACCELERATORS:
        for precision in ("bf16", "fp8"):
            rule = CATALOG.sizing_rules[f"training_best_published_mfu_{gpu_id}_{precision}"]
            assert 0 < rule.value < 1
            assert rule.assumption or (rule.source and rule.as_of), rule.id


def test_a_precision_specific_rule_wins_over_the_gpu_rule() -> None:
    base = CATALOG.sizing_rules["training_efficiency_max_fraction_h100_sxm"]
    rules = dict(CATALOG.sizing_rules)
    rules["training_efficiency_max_fraction_h100_sxm_bf16"] = base.model_copy(
        update={"id": "training_efficiency_max_fraction_h100_sxm_bf16", "value": 0.5}
    )
    catalog = dataclasses.replace(CATALOG, sizing_rules=rules)
    assert efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="bf16").max_fraction == 0.5
    assert efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="fp8").max_fraction == base.value


def test_an_estimate_above_the_best_published_mfu_says_so() -> None:
    # 70B FP8 on 64 H100 at default settings: the model's MFU (49.3 %, tests/test_plausibility.py) is
    # above NeMo 25.02's GPT-3 175B run, 47.1 % by the estimate's FLOP count (within the slack)
    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=CATALOG)
    job = training_job({"params_b": 70, "tokens_b": 1000, "precision": "fp8"})
    e = estimate_workload(job=job, plan=p, catalog=CATALOG)
    ceiling = published_ceiling(CATALOG, gpu_id="h100_sxm", precision="fp8")
    assert ceiling is not None and e.end_to_end_mfu > ceiling.mfu
    assert any("above the best published 47%" in n and "NeMo 25.02" in n for n in e.notes)
    # a slow flat efficiency stays below it: no note
    slow = estimate_workload(
        job=training_job({"params_b": 70, "tokens_b": 1000, "precision": "fp8", "mfu": 0.3}),
        plan=p,
        catalog=CATALOG,
    )
    assert not any("best published" in n for n in slow.notes)
