"""Refit the serving model's prefill coefficients to their two calibration cases, run by hand.

    .venv/bin/python bench/fit_serving_prefill.py

Solves ``serving_prefill_compute_efficiency`` and ``serving_prefill_layer_overhead_us``
(``data/serving.yaml``) so that ``planner validate``'s own predictions meet the two ``calibration``
TensorRT-LLM first-token cases exactly: LLaMA 70B at 2,048 tokens (compute-bound: sets the
efficiency) and LLaMA 7B at 128 tokens (weights and fixed cost: sets the cost per layer). Prints the
values and the residuals; copy them into ``data/serving.yaml``. Validation cases are never used.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.optimize import least_squares

from planner import Catalog, load_catalog
from planner.validation import load_cases
from planner.validation.run import evaluate

CATALOG = load_catalog()
RULES = ("serving_prefill_compute_efficiency", "serving_prefill_layer_overhead_us")
CASES = ("trtllm-v061-llama70b-ttft-2048", "trtllm-v061-llama7b-ttft-128")


def patched(values: tuple[float, float]) -> Catalog:
    """The bundled catalog with the two prefill coefficients set to ``values``."""
    rules = dict(CATALOG.sizing_rules)
    for rule, value in zip(RULES, values, strict=True):
        rules[rule] = rules[rule].model_copy(update={"value": value})
    return dataclasses.replace(CATALOG, sizing_rules=rules)


def main() -> None:
    cases = [c for c in load_cases() if c.id in CASES]
    assert all(c.role == "calibration" for c in cases) and len(cases) == len(CASES)

    def residuals(x: list[float]) -> list[float]:
        catalog = patched((float(x[0]), float(x[1])))
        out = []
        for case in cases:
            result = evaluate(case, catalog=catalog)
            assert result.predicted is not None and isinstance(case.published, float | int), case.id
            out.append(result.predicted / float(case.published) - 1)
        return out

    fit = least_squares(residuals, [0.42, 100.0], bounds=([0.05, 0.0], [1.0, 1e4]), diff_step=1e-3)
    for rule, value in zip(RULES, fit.x, strict=True):
        print(f"{rule} = {value:.3f}")
    for case, r in zip(cases, fit.fun, strict=True):
        print(f"  {case.id:<40} residual {r * 100:+.2f} %")


if __name__ == "__main__":
    main()
