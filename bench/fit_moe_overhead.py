"""Refit the mixture-of-experts framework cost per routed copy to its calibration cases, run by hand.

    .venv/bin/python bench/fit_moe_overhead.py

Fits ``moe_copy_overhead_ns`` (``data/moe.yaml``) by least squares on the relative error of
``planner validate``'s own prediction for every ``calibration`` training case with experts (the
kernel-efficiency coefficients of the dense layers stay as ``bench/fit_training_efficiency.py``
left them; the element-wise bytes of the expert layers are counted, not fitted). Prints the fit and
the residuals; copy the value into ``data/moe.yaml``. Validation cases are never used.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.optimize import least_squares

from planner import Catalog, load_catalog
from planner.validation import ValidationCase, load_cases
from planner.validation.run import evaluate

CATALOG = load_catalog()
RULE = "moe_copy_overhead_ns"


def patched(value: float) -> Catalog:
    """The bundled catalog with the framework cost set to ``value`` [ns]."""
    rules = dict(CATALOG.sizing_rules)
    rules[RULE] = rules[RULE].model_copy(update={"value": value})
    return dataclasses.replace(CATALOG, sizing_rules=rules)


def residuals(cases: Sequence[ValidationCase], value: float) -> list[float]:
    """Relative error of each case's prediction with the cost set to ``value``."""
    catalog = patched(value)
    out = []
    for case in cases:
        result = evaluate(case, catalog=catalog)
        assert result.predicted is not None and isinstance(case.published, float | int), case.id
        out.append(result.predicted / float(case.published) - 1)
    return out


def main() -> None:
    cases = [
        c for c in load_cases()
        if c.role == "calibration" and c.area == "training" and (c.inputs.experts or 1) > 1
    ]  # fmt: skip
    result = least_squares(
        lambda x: residuals(cases, float(x[0])), [300.0], bounds=([0.0], [1e5]), diff_step=1e-3
    )
    print(f"{RULE} = {result.x[0]:.0f}")
    for case, r in zip(cases, result.fun, strict=True):
        print(f"  {case.id:<45} residual {r * 100:+.2f} %")


if __name__ == "__main__":
    main()
