"""Refit the training kernel-efficiency coefficients to the calibration cases, run by hand.

    .venv/bin/python bench/fit_training_efficiency.py

Fits ``max_fraction``, ``width_half`` and ``tokens_half`` of ``data/training.yaml`` (the element-wise
coefficient ``k`` and the attention-score bytes are counted, not fitted) by least squares on the relative error of the estimate
against every ``calibration`` case of the ``model_flops_utilization`` quantity whose GPU and
design are in the catalog; prints the fit and the residuals. Validation cases are never used.
Each case's job is the one ``planner validate`` runs (every input the case states).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.optimize import least_squares

from planner import load_catalog
from planner.performance.collectives import fabric_from_plan
from planner.performance.training.efficiency import EfficiencyCoefficients, efficiency_coefficients
from planner.performance.training.flops import model_flops_per_token
from planner.performance.workload import best_layout, job_shape
from planner.resolve import resolve
from planner.validation import ValidationCase, load_cases
from planner.validation.run import _plan as plan_of_case
from planner.validation.run import _training_job as training_job_of_case

CATALOG = load_catalog()


def predicted_mfu(case: ValidationCase, coefficients: EfficiencyCoefficients) -> float:
    """End-to-end MFU of a case's layout with the given coefficients [-]."""
    i = case.inputs
    assert i.gpus
    p, _ = plan_of_case(case, CATALOG)
    gpu = resolve(scenario=p.scenario, catalog=CATALOG).gpu
    job = training_job_of_case(case)
    best, _, _, _ = best_layout(
        job, fabric_from_plan(plan=p, catalog=CATALOG), peak_flops=gpu.bf16_dense_tflops * 1e12,
        gpus=i.gpus, hbm_gbyte=gpu.hbm_gbyte, hbm_gbyte_per_s=gpu.hbm_bandwidth_gbyte_per_s,
        coefficients=coefficients,
    )  # fmt: skip
    lay = best.lay
    tokens_per_s = lay.micro_batches * lay.dp * lay.micro_batch_seqs * job.seq_len / best.step.total_s
    per_token = model_flops_per_token(job_shape(job), seq_len=job.seq_len)
    return per_token * tokens_per_s / i.gpus / (gpu.bf16_dense_tflops * 1e12)


def main() -> None:
    cases = [
        c for c in load_cases()
        if c.role == "calibration" and c.quantity == "model_flops_utilization" and c.inputs.gpu_id
        and isinstance(c.published, float)
    ]  # fmt: skip
    published = {c.id: c.published for c in cases if isinstance(c.published, float)}
    counted = efficiency_coefficients(CATALOG)

    def residuals(x: list[float]) -> list[float]:
        c = dataclasses.replace(counted, max_fraction=x[0], width_half=x[1], tokens_half=x[2])
        return [predicted_mfu(case, c) / published[case.id] - 1 for case in cases]

    fit = least_squares(residuals, [0.8, 300, 300], bounds=([0.3, 1, 1], [1.0, 1e5, 1e5]), diff_step=1e-3)
    print(f"max_fraction {fit.x[0]:.3f}  width_half {fit.x[1]:.0f}  tokens_half {fit.x[2]:.0f}")
    for case, r in zip(cases, fit.fun, strict=True):
        print(f"  {case.id:<28} residual {r * 100:+.2f} %")


if __name__ == "__main__":
    main()
