"""Refit the training kernel-efficiency coefficients to the calibration cases, run by hand.

    .venv/bin/python bench/fit_training_efficiency.py

Fits, by least squares on the relative error of ``planner validate``'s own prediction:

- ``max_fraction``, ``width_half`` and ``tokens_half`` of ``data/training.yaml`` to every
  ``calibration`` training case on the A100 (the element-wise coefficient ``k``, the attention-score
  and FP8-cast bytes are counted, not fitted);
- for every other GPU with ``calibration`` training cases, its own ``max_fraction_<gpu_id>`` (the
  share of peak its matrix units sustain), the curve's shape kept; its MXFP8 rows (``fp8_recipe:
  mxfp8``) fit ``max_fraction_<gpu_id>_mxfp8`` instead;
- for a framework release other than the latest (a case's ``software_release``), its own
  ``max_fraction_<gpu_id>_<release>`` on that release's calibration cases;
- each MFU bound ``training_kernel_efficiency_bound_<gpu_id>_<precision>`` the catalog states (not an
  assumption), on the calibration case its source names: where no curve rule's source names that
  case too, the bound is fitted to it by least squares and the row fits nothing else (the curve
  overshoots the run, H100 BF16); where the case also fits the GPU's curve, the bound is that run's
  kernel efficiency under the fitted curve (the tightest bound that leaves the run as fitted: B200
  and H100 FP8).

Prints the fit and the residuals; copy the values into ``data/training.yaml``. Validation cases are
never used, nor mixture-of-experts calibration cases (``bench/fit_moe_overhead.py`` fits those).
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.optimize import least_squares

from planner import Catalog, load_catalog
from planner.performance.training.efficiency import LATEST_RELEASE, MXFP8, release_suffix
from planner.validation import ValidationCase, load_cases
from planner.validation.run import _estimate, evaluate

CATALOG = load_catalog()
GENERAL = (
    "training_efficiency_max_fraction",
    "training_efficiency_width_half",
    "training_efficiency_tokens_half",
)
REFERENCE_GPU = "a100_sxm_80gb"
QUANTITIES = ("model_flops_utilization", "tokens_per_s", "achieved_tflops_per_gpu")
BOUND = "training_kernel_efficiency_bound"


def bound_rule(case: ValidationCase) -> str:
    """The MFU-bound rule id a case's GPU and precision would have (FP16 shares BF16's peak)."""
    precision = "fp8" if case.inputs.precision == "fp8" else "bf16"
    return f"{BOUND}_{case.inputs.gpu_id}_{precision}"


def names(prefix: str, case: ValidationCase) -> bool:
    """Whether the source of a catalog rule whose id starts with ``prefix`` (not an assumption)
    names the case."""
    return any(
        rule_id.startswith(prefix) and not rule.assumption and case.id in (rule.source or "")
        for rule_id, rule in CATALOG.sizing_rules.items()
    )


def bound_source(case: ValidationCase) -> bool:
    """Whether the case is the source run of its GPU and precision's (stated, not assumed) bound."""
    rule = CATALOG.sizing_rules.get(bound_rule(case))
    return rule is not None and not rule.assumption and case.id in (rule.source or "")


def tightest_bounds(cases: Sequence[ValidationCase]) -> None:
    """Each bound whose source run also fits the curve: that run's kernel efficiency, unbounded."""
    for case in cases:
        estimate, _ = _estimate(case, unbounded(CATALOG), stand_in=False)
        tightest = math.ceil(estimate.compute_efficiency * 1000) / 1000  # rounded up: the run is not slowed
        print(f"{bound_rule(case)} = {tightest:.3f}  (kernel efficiency of {case.id})")


def recipe_key(case: ValidationCase) -> str:
    """The rule-id suffix of a case's FP8 recipe: ``_mxfp8`` for MXFP8 block scaling, else empty."""
    return f"_{MXFP8}" if case.inputs.precision == "fp8" and case.inputs.fp8_recipe == MXFP8 else ""


def unbounded(catalog: Catalog) -> Catalog:
    """The catalog without its kernel-efficiency bounds: the curve is fitted unbounded."""
    return dataclasses.replace(
        catalog, sizing_rules={k: v for k, v in catalog.sizing_rules.items() if not k.startswith(BOUND)}
    )


def patched(values: dict[str, float], base: Catalog | None = None) -> Catalog:
    """The catalog ``base`` (the bundled one) with these sizing-rule values (a new id copies the
    general rule)."""
    base = base or CATALOG
    rules = dict(base.sizing_rules)
    for rule_id, value in values.items():
        template = rules.get(rule_id) or rules[GENERAL[0]]
        rules[rule_id] = template.model_copy(update={"id": rule_id, "value": value})
    return dataclasses.replace(base, sizing_rules=rules)


def residuals(
    cases: Sequence[ValidationCase], names: Sequence[str], x: Sequence[float], base: Catalog | None = None
) -> list[float]:
    """Relative error of each case's prediction with the rules ``names`` set to ``x``."""
    catalog = patched(dict(zip(names, x, strict=True)), base)
    out = []
    for case in cases:
        result = evaluate(case, catalog=catalog)
        assert result.predicted is not None and isinstance(case.published, float | int), case.id
        out.append(result.predicted / float(case.published) - 1)
    return out


def fit(
    cases: Sequence[ValidationCase],
    names: Sequence[str],
    start: list[float],
    bounds: tuple[list[float], list[float]],
    base: Catalog | None = None,
) -> None:
    result = least_squares(lambda x: residuals(cases, names, x, base), start, bounds=bounds, diff_step=1e-3)
    for name, value in zip(names, result.x, strict=True):
        print(f"{name} = {value:.3f}")
    for case, r in zip(cases, result.fun, strict=True):
        print(f"  {case.id:<40} residual {r * 100:+.2f} %")


def main() -> None:
    cases = [
        c for c in load_cases()
        if c.role == "calibration" and c.area == "training" and c.quantity in QUANTITIES and c.inputs.gpu_id
        and c.inputs.gpu_id in CATALOG.gpus and (c.inputs.experts or 1) == 1
        and evaluate(c, catalog=CATALOG).predicted is not None
    ]  # fmt: skip
    sources = [c for c in cases if bound_source(c)]
    bounded = [c for c in sources if not names(GENERAL[0], c)]  # fit the bound and nothing else
    cases = [c for c in cases if c not in bounded]
    for rule_id in sorted({bound_rule(c) for c in bounded}):
        fit([c for c in bounded if bound_rule(c) == rule_id], [rule_id], [0.5], ([0.2], [1.0]))
    tightest_bounds([c for c in sources if c not in bounded])
    latest = [c for c in cases if c.inputs.software_release in (None, LATEST_RELEASE)]
    general = [c for c in latest if c.inputs.gpu_id == REFERENCE_GPU]
    free = unbounded(CATALOG)  # the curve is fitted unbounded; the bounds are set on it above
    fit(general, GENERAL, [0.8, 300, 100], ([0.3, 1, 1], [1.0, 1e5, 1e5]), free)
    for gpu_id in sorted({str(c.inputs.gpu_id) for c in latest} - {REFERENCE_GPU}):
        # per-tensor FP8 (and BF16) rows fit max_fraction_<gpu_id>, MXFP8 rows max_fraction_<gpu_id>_mxfp8
        for key in sorted({recipe_key(c) for c in latest if c.inputs.gpu_id == gpu_id}):
            own = [c for c in latest if c.inputs.gpu_id == gpu_id and recipe_key(c) == key]
            fit(own, [f"{GENERAL[0]}_{gpu_id}{key}"], [0.8], ([0.3], [1.0]), free)
    # an older framework release: its own max_fraction per GPU, on its own calibration rows
    releases = {(str(c.inputs.gpu_id), str(c.inputs.software_release)) for c in cases if c not in latest}
    for gpu_id, release in sorted(releases):
        own = [c for c in cases if (c.inputs.gpu_id, c.inputs.software_release) == (gpu_id, release)]
        fit(own, [f"{GENERAL[0]}_{gpu_id}_{release_suffix(release)}"], [0.7], ([0.3], [1.0]), free)


if __name__ == "__main__":
    main()
