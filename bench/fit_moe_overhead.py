"""Refit the mixture-of-experts framework costs per routed copy to their calibration cases, run by hand.

    .venv/bin/python bench/fit_moe_overhead.py

Fits each group of rules of ``FITS`` (``data/moe.yaml``) by least squares on the relative error
of ``planner validate``'s own prediction for the ``calibration`` training cases with experts that
the group applies to (the kernel-efficiency coefficients of the dense layers stay as
``bench/fit_training_efficiency.py`` left them; the element-wise bytes of the expert layers are
counted, not fitted):

- ``moe_copy_overhead_ns`` and ``moe_host_wait_us`` together: the host-synchronised path on H100
  (cases without graph-captured fused dispatch on the GPU the general record belongs to,
  ``GENERAL_FIT_GPU``; other GPUs without a value of their own take a fit scaled by HBM bandwidth), a cost
  per routed copy and a wait per expert-layer forward; the two H100 rows differ in routed copies
  per layer pass (65,536 and 16,384), which separates the two; the two H100 rows are Megatron-Core's;
- ``moe_copy_overhead_ns_automodel``: NeMo AutoModel's path (cases with ``moe_framework``
  automodel), the host wait kept from the fit before;
- ``moe_copy_overhead_ns_b200_hgx``: the same path on B200, the host wait kept from H100 (a host
  cost; the two B200 rows have the same copies per layer pass and cannot separate the two);
- ``moe_graphed_copy_overhead_ns``: HybridEP, which permutes the tokens inside its own kernels, and
  a fused dispatcher with the router and preprocessing in CUDA graphs (the host wait stays where the
  dispatch still synchronises with the host; its one calibration row is graphed);
- ``moe_full_graph_copy_overhead_ns``: a fused or HybridEP dispatcher inside a CUDA graph of the whole
  iteration (``full_iteration_graph``), nothing launched from the host per layer; one calibration row.

The groups are fitted in that order, each with the ones before it fixed (their cases do not use the
later rules). Prints each fit and its residuals; copy the values into ``data/moe.yaml``. Validation
cases are never used.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.optimize import least_squares

from planner import Catalog, load_catalog
from planner.performance.training.moe import GENERAL_FIT_GPU
from planner.validation import ValidationCase, load_cases
from planner.validation.run import evaluate


def _full_graph(case: ValidationCase) -> bool:
    """The cases whose per-copy cost is ``c_f``: a fused or HybridEP dispatcher inside a graph of the
    whole iteration (planner/performance/training/schedule.py ``StepModel``)."""
    return bool(case.inputs.full_iteration_graph) and case.inputs.moe_dispatcher in ("fused", "hybridep")


def _graphed(case: ValidationCase) -> bool:
    """The cases whose per-copy cost is ``c_g``: HybridEP (it permutes inside its own kernels) or a
    fused dispatcher captured in CUDA graphs (planner/performance/training/schedule.py ``StepModel``),
    not inside a full-iteration graph."""
    dispatcher = case.inputs.moe_dispatcher
    captured = dispatcher == "hybridep" or (bool(case.inputs.moe_graphed_dispatch) and dispatcher == "fused")
    return captured and not _full_graph(case)


def _automodel(case: ValidationCase) -> bool:
    return case.inputs.moe_framework == "automodel"


FITS: tuple[tuple[tuple[str, ...], tuple[float, ...], Callable[[ValidationCase], bool]], ...] = (
    (
        ("moe_copy_overhead_ns", "moe_host_wait_us"), (300.0, 1000.0),
        lambda c: not _graphed(c) and not _automodel(c) and c.inputs.gpu_id == GENERAL_FIT_GPU,
    ),
    (("moe_copy_overhead_ns_automodel",), (50.0,), _automodel),
    (("moe_copy_overhead_ns_b200_hgx",), (100.0,), lambda c: not _graphed(c) and c.inputs.gpu_id == "b200_hgx"),
    (("moe_graphed_copy_overhead_ns",), (20.0,), _graphed),
    (("moe_full_graph_copy_overhead_ns",), (5.0,), _full_graph),
)  # fmt: skip
"""Rules fitted together, their starting values [ns, us], and the calibration cases they apply to."""


def patched(catalog: Catalog, rule: str, value: float) -> Catalog:
    """``catalog`` with the sizing rule ``rule`` set to ``value``."""
    rules = dict(catalog.sizing_rules)
    rules[rule] = rules[rule].model_copy(update={"value": value})
    return dataclasses.replace(catalog, sizing_rules=rules)


def patched_all(catalog: Catalog, rules: Sequence[str], values: Sequence[float]) -> Catalog:
    """``catalog`` with each of ``rules`` set to its value."""
    for rule, value in zip(rules, values, strict=True):
        catalog = patched(catalog, rule, float(value))
    return catalog


def residuals(cases: Sequence[ValidationCase], catalog: Catalog) -> list[float]:
    """Relative error of each case's prediction with ``catalog``."""
    out = []
    for case in cases:
        result = evaluate(case, catalog=catalog)
        assert result.predicted is not None and isinstance(case.published, float | int), case.id
        out.append(result.predicted / float(case.published) - 1)
    return out


def main() -> None:
    moe_calibration = [
        c for c in load_cases()
        if c.role == "calibration" and c.area == "training" and (c.inputs.experts or 1) > 1
    ]  # fmt: skip
    catalog = load_catalog()
    for rules, start, applies in FITS:
        cases = [c for c in moe_calibration if applies(c)]
        base = catalog
        result = least_squares(
            lambda x, b=base, r=rules, cs=cases: residuals(cs, patched_all(b, r, x)),
            list(start), bounds=([0.0] * len(rules), [1e5] * len(rules)), diff_step=1e-3,
        )  # fmt: skip
        catalog = patched_all(catalog, rules, result.x)
        for rule, value in zip(rules, result.x, strict=True):
            print(f"{rule} = {value:.1f}")
        for case, r in zip(cases, result.fun, strict=True):
            print(f"  {case.id:<50} residual {r * 100:+.2f} %")


if __name__ == "__main__":
    main()
