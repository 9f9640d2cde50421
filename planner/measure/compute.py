"""Calibrate the training model's compute efficiency from a training log.

The workload estimate (:func:`planner.performance.workload.estimate_workload`) turns a job into
tokens per second through the kernel efficiency, whose ceiling ``eta_max`` is a catalog rule
(``training_efficiency_max_fraction``, per GPU as ``training_efficiency_max_fraction_<gpu>``,
see :mod:`planner.performance.training.efficiency`). The fit finds the ``eta_max`` for which the
estimate's tokens per second equal the log's median (Brent's method: the throughput rises with
``eta_max``); when no value in range reaches the log, it refuses and says which end bounds it.

References
----------
R. P. Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 4
(``scipy.optimize.brentq``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from planner.catalog import Catalog
from planner.catalog.schema import SizingRule
from planner.engine import Plan
from planner.errors import InputError
from planner.i18n.message import msg
from planner.inputs.training import TrainingJob
from planner.measure.training import TrainingLog
from planner.performance.training.efficiency import efficiency_coefficients
from planner.performance.workload import estimate_workload

RULE = "training_efficiency_max_fraction"
RANGE = (0.05, 1.0)
"""Range searched for ``eta_max`` [-]: a share of the GPU's peak."""


@dataclass(frozen=True)
class ComputeFit:
    """The fitted compute-efficiency ceiling of one GPU and the throughputs behind it."""

    rule_id: str
    default: float
    fitted: float
    measured_tokens_per_s: float
    default_tokens_per_s: float
    """The estimate's throughput with the catalog value [tokens/s]."""
    achieved_tflops_per_gpu: float
    """The estimate's achieved TFLOP/s per GPU at the fitted value (the log's throughput)."""
    file: str


def _with_rule(catalog: Catalog, rule_id: str, value: float) -> Catalog:
    general = catalog.sizing_rules[RULE]
    rule = SizingRule.model_validate(
        {
            **general.model_dump(),
            "id": rule_id,
            "value": value,
            "assumption": True,
            "reason": "trial value of a fit",
        }
    )
    return replace(catalog, sizing_rules={**catalog.sizing_rules, rule_id: rule})


def fit_compute_efficiency(*, plan: Plan, catalog: Catalog, log: TrainingLog, job: TrainingJob) -> ComputeFit:
    """The ``eta_max`` of ``plan``'s GPU for which the estimate of ``job`` runs as fast as ``log``.

    Parameters
    ----------
    plan : Plan
        The plan of the cluster the log was measured on.
    catalog : Catalog
        The catalog (the GPU's default ``eta_max``).
    log : TrainingLog
        The training log's steps.
    job : TrainingJob
        The job the log ran (model size, sequence length, parallelism).

    Returns
    -------
    ComputeFit
        The rule id, catalog and fitted ``eta_max`` [fraction], measured and default throughput
        [tokens/s] and the achieved compute per GPU [TFLOP/s].

    Raises
    ------
    InputError
        The log's throughput lies outside what any ``eta_max`` in :data:`RANGE` gives.
    """
    from scipy.optimize import brentq

    rule_id = f"{RULE}_{plan.gpu_id}"
    default = efficiency_coefficients(catalog, gpu_id=plan.gpu_id).max_fraction
    measured = log.tokens_per_s(seq_len=job.seq_len)

    def tokens_per_s(value: float) -> float:
        return estimate_workload(job=job, plan=plan, catalog=_with_rule(catalog, rule_id, value)).tokens_per_s

    low, high = (tokens_per_s(v) for v in RANGE)
    if not low <= measured <= high:
        end = RANGE[1] if measured > high else RANGE[0]
        raise InputError(
            msg(
                "{file}: the log's {measured:.0f} tokens/s lies outside what the training model gives "
                "({low:.0f} to {high:.0f} tokens/s for a compute efficiency of {lo} to {hi}; bound by {end}): "
                "check --params-b, --seq-len and the GPU count",
                file=log.file,
                measured=measured,
                low=low,
                high=high,
                lo=RANGE[0],
                hi=RANGE[1],
                end=end,
            )
        )
    fitted = float(brentq(lambda v: tokens_per_s(v) - measured, *RANGE, xtol=1e-5))
    estimate = estimate_workload(job=job, plan=plan, catalog=_with_rule(catalog, rule_id, fitted))
    return ComputeFit(
        rule_id=rule_id,
        default=default,
        fitted=fitted,
        measured_tokens_per_s=measured,
        default_tokens_per_s=tokens_per_s(default),
        achieved_tflops_per_gpu=estimate.achieved_tflops_per_gpu,
        file=log.file,
    )


def compute_override(fit: ComputeFit, *, catalog: Catalog, source: str, as_of: str) -> dict[str, object]:
    """The sizing-rule record of the fitted value (a complete record: the GPU may have none yet).

    Parameters
    ----------
    fit : ComputeFit
        The fit (:func:`fit_compute_efficiency`).
    catalog : Catalog
        The catalog whose general rule gives the record's name and unit.
    source : str
        Where the log came from, for the record's ``source``.
    as_of : str
        Date of the measurement (YYYY-MM-DD).

    Returns
    -------
    dict of str to object
        The ``sizing_rules`` record: id, name, value [fraction], unit, source, as_of, notes.
    """
    general = catalog.sizing_rules[RULE]
    return {
        "id": fit.rule_id,
        "name": f"{general.name} (calibrated)",
        "value": float(f"{fit.fitted:.6g}"),
        "unit": general.unit,
        "source": source,
        "as_of": as_of,
        "assumption": False,
        "notes": (
            f"Calibration from a training log: median {fit.measured_tokens_per_s:.0f} tokens/s against "
            f"{fit.default_tokens_per_s:.0f} with the catalog value {fit.default:.4g}; agreement with the same "
            "log checks the fit, it does not validate the model."
        ),
    }
