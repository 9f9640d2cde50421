"""Calibrate the collective model from a cluster's own nccl-tests runs.

The fit is least squares (SciPy) on ``log(T_model / T_measured)`` over every measured size, in
two steps that mirror the alpha-beta model: the bandwidth efficiencies (scale-up ring, NVLS,
network ``nccl_efficiency``) from the sizes of at least :data:`BANDWIDTH_MIN_BYTES`, where the
beta term dominates, then the step latencies (scale-up, NVLS, network alpha) from the sizes of
at most :data:`LATENCY_MAX_BYTES` with the efficiencies held. A coefficient the runs do not
depend on (a network level no run crossed, NVLS on a GPU without it, a ring the model never
picks) is not fitted: it keeps its catalog value and the result says why. The fit reports its
residual per size and the leave-one-out error (each size predicted by a fit without it).

Notes
-----
Fitted on the same runs it is then compared with, a calibration checks that the model can
reproduce the cluster; it does not validate the model (``docs/measure.md``).

References
----------
P. Virtanen et al., "SciPy 1.0", Nature Methods 17, 2020 (``scipy.optimize.least_squares``,
trust-region reflective with bounds).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from planner.catalog import Catalog
from planner.engine import Plan
from planner.engine import plan as make_plan
from planner.errors import InputError, PlannerError
from planner.i18n.message import Message, msg
from planner.inputs.calibration import PROVENANCE_SECTION, CalibrationOverride, calibration_from_override
from planner.measure.model import (
    BANDWIDTH_PARAMETERS,
    LATENCY_PARAMETERS,
    PARAMETERS,
    Baseline,
    Probe,
    baseline,
    fabric_with,
    group_of,
    predict,
)
from planner.measure.nccl import Run
from planner.units import GIB, KIB, MIB

BANDWIDTH_MIN_BYTES = 64 * MIB
"""Smallest size used to fit the efficiencies [B] (assumption: at 64 MiB the beta term is over
90 % of a ring all-reduce's time on the preset designs)."""

LATENCY_MAX_BYTES = 64 * KIB
"""Largest size used to fit the step latencies [B] (assumption: below 64 KiB the alpha term is
over 90 % of the time on the preset designs)."""

BOUNDS: Mapping[str, tuple[float, float]] = {
    "scale_up_ring_efficiency": (0.02, 1.0),
    "nvls_efficiency": (0.02, 1.0),
    "nccl_efficiency": (0.02, 1.0),
    "scale_up_alpha_us": (0.01, 1000.0),
    "nvls_alpha_us": (0.01, 1000.0),
    "network_alpha_us": (0.01, 1000.0),
}
"""Allowed range of each fitted coefficient (efficiencies cannot pass the line rate; the NIC
record's ``alpha_us`` range is 0 to 1000 us)."""

SMALL_WEIGHT = 0.1
"""Weight of a residual below :data:`BANDWIDTH_MIN_BYTES` in the joint fit (assumption): the
alpha-beta model has one step latency per level, NCCL switches protocols with the size, so the
joint fit favours the large sizes that set the plan's busbw and the acceptance's verdict."""

MIN_SENSITIVITY = 0.01
"""A coefficient is determined when some measured time changes by at least 1 % per e-fold of it
(d log T / d log theta >= 0.01); below that the runs do not depend on it."""

CEILING_TOLERANCE = 0.05
"""Largest error at the largest sizes accepted when a coefficient sits on its bound [-]: beyond
it the runs need an efficiency above the line rate, which the model cannot reproduce."""


@dataclass(frozen=True, kw_only=True)
class Point(Probe):
    """One measured size of one run, with the group it ran on (the call, then what it measured)."""

    run: Run
    time_s: float
    busbw_gbyte_per_s: float


@dataclass(frozen=True)
class FittedCoefficient:
    """One coefficient: its catalog value and, where the runs determine it, the fitted value."""

    name: str
    default: float
    fitted: float | None
    """``None`` when not determined (``reason`` says why)."""
    reason: str = ""


@dataclass(frozen=True)
class Residual:
    """The fit at one measured size."""

    file: str
    collective: str
    gpus: int
    size_bytes: int
    measured_busbw_gbyte_per_s: float
    fitted_busbw_gbyte_per_s: float
    leave_one_out_busbw_gbyte_per_s: float | None
    """Predicted by a fit without this size (``None``: the size was in neither fit)."""

    @property
    def residual_fraction(self) -> float:
        """(fitted - measured) / measured [-]."""
        return self.fitted_busbw_gbyte_per_s / self.measured_busbw_gbyte_per_s - 1.0

    @property
    def leave_one_out_fraction(self) -> float | None:
        if self.leave_one_out_busbw_gbyte_per_s is None:
            return None
        return self.leave_one_out_busbw_gbyte_per_s / self.measured_busbw_gbyte_per_s - 1.0


@dataclass(frozen=True)
class InputFile:
    """A measured file's identity (the override's provenance)."""

    name: str
    sha256: str
    tools: tuple[str, ...]
    hosts: tuple[str, ...]


@dataclass(frozen=True)
class Calibration:
    """The fitted coefficients of one plan's collective model, and how well they fit."""

    design_id: str
    gpu_id: str
    gpus: int
    nic_id: str
    coefficients: tuple[FittedCoefficient, ...]
    residuals: tuple[Residual, ...]
    files: tuple[InputFile, ...]
    measured_on: str
    """Date of the measurements (YYYY-MM-DD), the override's ``as_of``."""
    compute_rule: Mapping[str, Any] | None = None
    """The compute-efficiency record fitted from a training log
    (:func:`planner.measure.compute.compute_override`), if any."""
    in_switch_reduction: str | None = None
    """``"nvls"`` or ``"sharp"`` when the fit was made on the plan with that in-switch reduction
    instead of the plan's own (the runs say so, or only it reproduces them): plan with it."""

    def value(self, name: str) -> float:
        """The coefficient as the fit leaves it (fitted, else the catalog's)."""
        c = next(c for c in self.coefficients if c.name == name)
        return c.default if c.fitted is None else c.fitted

    @property
    def hosts(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h for f in self.files for h in f.hosts))


def points_of(runs: Sequence[Run], base: Baseline) -> tuple[Point, ...]:
    """Every measured size of every run with a positive bandwidth.

    Parameters
    ----------
    runs : sequence of Run
        nccl-tests runs.
    base : Baseline
        The plan's fabric and catalog coefficients.

    Returns
    -------
    tuple of Point
        Each usable size: run, collective, GPUs and GPUs per domain [count], size [B], measured
        time [s] and busbw [GB/s].
    """
    out = []
    for run in runs:
        gpus, m = group_of(run=run, base=base)
        for row in run.rows:
            if row.busbw_gbyte_per_s > 0 and row.size_bytes > 0 and gpus > 1:
                out.append(
                    Point(
                        run.collective,
                        gpus,
                        m,
                        row.size_bytes,
                        run=run,
                        time_s=row.time_us * 1e-6,
                        busbw_gbyte_per_s=row.busbw_gbyte_per_s,
                    )
                )
    return tuple(out)


def calibrate(
    *,
    plan: Plan,
    catalog: Catalog,
    runs: Sequence[Run],
    files: Sequence[InputFile],
    measured_on: str | None = None,
) -> Calibration:
    """Fit the collective model's coefficients to ``runs`` on ``plan``'s fabric.

    In-switch reduction: when the runs say they reduced in the switches (NCCL_DEBUG=INFO lines,
    :func:`planner.measure.nccl.in_switch_of`) and the plan does not, the fit is made first on the
    plan with that reduction; when the plan's own algorithms cannot reach the runs (a coefficient
    beyond its range), on the plan with ``nvls``, then ``sharp`` (each only where it changes the
    plan's fabric). The result names the reduction it used (:attr:`Calibration.in_switch_reduction`).

    Parameters
    ----------
    plan
        The plan of the measured cluster (its design, GPU and size).
    catalog
        The catalog the plan was made with (the coefficients' starting values).
    runs
        nccl-tests runs (:func:`planner.measure.nccl.read_nccl_tests`).
    files
        The files the runs came from, for the provenance.
    measured_on
        Date of the measurements (YYYY-MM-DD); default today.

    Returns
    -------
    Calibration
        The fitted coefficients with their catalog values and ranges, the residual per measured
        size, the input files with their hashes, the hosts, the date and the in-switch reduction
        used.

    Raises
    ------
    InputError
        No run has a usable size, or the runs need a coefficient beyond its range on the plan and
        on every in-switch reduction tried (the plan's own refusal is the one raised).
    """
    own_error: InputError | None = None
    for mode, on in _candidates(plan, catalog, runs):
        try:
            cal = _fit(plan=on, catalog=catalog, runs=runs, files=files, measured_on=measured_on)
        except InputError as exc:
            own_error = exc if mode is None else own_error
            continue
        if mode is None:
            return cal
        if _reproduces(cal):
            return replace(cal, in_switch_reduction=mode)
    raise cast(InputError, own_error)  # the plan's own fit is always tried, so it is set


def _reproduces(cal: Calibration) -> bool:
    """Whether the fit meets every run at its largest size within :data:`CEILING_TOLERANCE`: the
    test an in-switch reduction the plan does not use must pass to explain the runs."""
    largest: dict[tuple[str, str, int], Residual] = {}
    for r in cal.residuals:
        key = (r.file, r.collective, r.gpus)
        if key not in largest or r.size_bytes > largest[key].size_bytes:
            largest[key] = r
    return bool(largest) and all(abs(r.residual_fraction) <= CEILING_TOLERANCE for r in largest.values())


IN_SWITCH_MODES = ("nvls", "sharp")
"""In-switch reductions a fit may use instead of the plan's own, in the order tried."""


def _said(runs: Sequence[Run]) -> str | None:
    """The in-switch reduction the runs say they used (SHARP over NVLS), if any."""
    said = {r.in_switch for r in runs}
    return "sharp" if "sharp" in said else "nvls" if "nvls" in said else None


def _uses(plan: Plan, mode: str) -> bool:
    fabric = plan.bandwidth.fabric
    return fabric.in_network_reduction if mode == "sharp" else fabric.nvls


def _candidates(plan: Plan, catalog: Catalog, runs: Sequence[Run]) -> Iterator[tuple[str | None, Plan]]:
    """(in-switch reduction, plan) to fit on, in order: what the runs say (when the plan lacks
    it), the plan itself, then :data:`IN_SWITCH_MODES` (each planned only when reached)."""
    said = _said(runs)
    tried: set[str] = set()
    if said is not None and not _uses(plan, said):
        tried.add(said)
        other = _replanned(plan, catalog, said)
        if other is not None:
            yield said, other
    yield None, plan
    for mode in IN_SWITCH_MODES:
        if runs and mode not in tried and plan.scenario.in_switch_reduction != mode:
            other = _replanned(plan, catalog, mode)
            if other is not None:
                yield mode, other


def _replanned(plan: Plan, catalog: Catalog, mode: str) -> Plan | None:
    """The plan with in-switch reduction ``mode``, or ``None`` when that changes nothing."""
    try:
        scenario = plan.scenario.with_updates(in_switch_reduction=mode)
        other = make_plan(scenario=scenario, catalog=catalog)
    except PlannerError:
        return None
    return None if other.bandwidth.fabric == plan.bandwidth.fabric else other


def _fit(
    *,
    plan: Plan,
    catalog: Catalog,
    runs: Sequence[Run],
    files: Sequence[InputFile],
    measured_on: str | None,
) -> Calibration:
    """:func:`calibrate` on one plan's fabric."""
    base = baseline(plan=plan, catalog=catalog)
    points = points_of(runs, base)
    if runs and not points:
        raise InputError(msg("no measured size with a positive bandwidth on more than one GPU to fit"))
    if not runs:
        unfitted = dict.fromkeys(PARAMETERS, msg("no nccl-tests run given"))
        return _calibration(plan, base, files, measured_on, fitted={}, reasons=unfitted, residuals=())
    large = [p for p in points if p.size_bytes >= BANDWIDTH_MIN_BYTES]
    small = [p for p in points if p.size_bytes <= LATENCY_MAX_BYTES]
    reasons: dict[str, str] = {}
    fitted: dict[str, float] = {}
    bandwidth = _stage(base, large, BANDWIDTH_PARAMETERS, {}, reasons, msg("no size of 64 MiB or more"))
    fitted.update(bandwidth)
    latency = _stage(base, small, LATENCY_PARAMETERS, dict(fitted), reasons, msg("no size of 64 KiB or less"))
    fitted.update(latency)
    fitted, loo = _joint(base, points, fitted, reasons)
    _check_ceiling(base, large, fitted)
    fabric = fabric_with(base=base, values=fitted)
    residuals = tuple(
        Residual(
            p.run.file,
            p.collective,
            p.gpus,
            p.size_bytes,
            p.busbw_gbyte_per_s,
            predict(fabric, p).busbw_gbyte_per_s,
            loo.get(id(p)),
        )
        for p in points
    )
    return _calibration(plan, base, files, measured_on, fitted=fitted, reasons=reasons, residuals=residuals)


def _calibration(
    plan: Plan,
    base: Baseline,
    files: Sequence[InputFile],
    measured_on: str | None,
    *,
    fitted: Mapping[str, float],
    reasons: Mapping[str, str],
    residuals: tuple[Residual, ...],
) -> Calibration:
    """The calibration of ``plan``: each coefficient fitted, or at the catalog's value with the
    reason it was not determined; dated ``measured_on`` (default today)."""
    return Calibration(
        design_id=plan.design_id,
        gpu_id=plan.gpu_id,
        gpus=plan.gpus,
        nic_id=base.nic_id,
        coefficients=tuple(
            FittedCoefficient(name, base.values[name], fitted.get(name), reasons.get(name, ""))
            for name in PARAMETERS
        ),
        residuals=residuals,
        files=tuple(files),
        measured_on=measured_on or dt.date.today().isoformat(),
    )


def _residuals(
    base: Baseline, points: Sequence[Point], names: Sequence[str], fixed: Mapping[str, float]
) -> Any:
    """The residual function of log parameters: log(T_model / T_measured) per point."""
    import numpy as np

    def f(x: Any) -> Any:
        fabric = fabric_with(
            base=base, values={**fixed, **{n: math.exp(v) for n, v in zip(names, x, strict=True)}}
        )
        return np.array([_weight(p) * math.log(predict(fabric, p).time_s / p.time_s) for p in points])

    return f


def _weight(p: Point) -> float:
    """Weight of a point's residual: 1 in the bandwidth regime, :data:`SMALL_WEIGHT` below it."""
    return 1.0 if p.size_bytes >= BANDWIDTH_MIN_BYTES else SMALL_WEIGHT


def _sensitive(base: Baseline, points: Sequence[Point], name: str, fixed: Mapping[str, float]) -> bool:
    """Whether some point's time moves by :data:`MIN_SENSITIVITY` per e-fold of ``name``,
    tried from the catalog value and from each end of its range."""
    lo, hi = BOUNDS[name]
    start = fixed.get(name, base.values[name])
    for value in (start, lo, hi):
        f = _residuals(base, points, [name], {**fixed})
        x = math.log(min(max(value, lo), hi))
        step = 0.05
        delta = (f([x + step]) - f([x - step])) / (2 * step)
        if len(delta) and float(abs(delta).max()) >= MIN_SENSITIVITY:
            return True
    return False


def _stage(
    base: Baseline,
    points: Sequence[Point],
    names: Sequence[str],
    fixed: dict[str, float],
    reasons: dict[str, str],
    none_measured: Message,
) -> dict[str, float]:
    """Fit the ``names`` that ``points`` determine (the others held at ``fixed`` or the catalog);
    name in ``reasons`` why each other one is not fitted."""
    if not points:
        for name in names:
            reasons[name] = none_measured
        return {}
    free = []
    for name in names:
        if _sensitive(base, points, name, fixed):
            free.append(name)
        else:
            reasons[name] = _why_not(base, points, name)
    if not free:
        return {}
    return _solve(base, points, free, fixed)


def _joint(
    base: Baseline, points: Sequence[Point], staged: Mapping[str, float], reasons: dict[str, str]
) -> tuple[dict[str, float], dict[int, float]]:
    """Every determined coefficient refitted on every size together (the staged values as the
    start), and the leave-one-out busbw of each point id.

    A coefficient the fitted model no longer depends on (another level bounds every size at the
    fitted values: the runs only bound it from one side) is dropped with its reason and the rest
    refitted, so no value is written that the runs did not determine.
    """
    names = list(staged)
    values: dict[str, float] = {}
    while names:
        values = _solve(base, points, names, {}, start=staged)
        loose = [n for n in names if not _sensitive_at(base, points, n, values)]
        if not loose:
            break
        for name in loose:
            reasons[name] = msg(
                "at the fitted values another level or algorithm bounds every measured size, so the runs "
                "only bound it from one side; measure a group that it limits"
            )
        names = [n for n in names if n not in loose]
        staged = {n: values[n] for n in names}
    if not names:
        return {}, {}
    loo: dict[int, float] = {}
    if len(points) > len(names):
        for i, p in enumerate(points):
            rest = [q for j, q in enumerate(points) if j != i]
            trial = _solve(base, rest, names, {}, start=values)
            loo[id(p)] = predict(fabric_with(base=base, values=trial), p).busbw_gbyte_per_s
    return values, loo


def _sensitive_at(base: Baseline, points: Sequence[Point], name: str, values: Mapping[str, float]) -> bool:
    """Whether some point's time moves by :data:`MIN_SENSITIVITY` per e-fold of ``name`` at ``values``."""
    f = _residuals(base, points, [name], {k: v for k, v in values.items() if k != name})
    x = math.log(values[name])
    step = 0.05
    delta = (f([x + step]) - f([x - step])) / (2 * step)
    return bool(len(delta)) and float(abs(delta).max()) >= MIN_SENSITIVITY * SMALL_WEIGHT


def _solve(
    base: Baseline,
    points: Sequence[Point],
    names: Sequence[str],
    fixed: Mapping[str, float],
    start: Mapping[str, float] | None = None,
) -> dict[str, float]:
    from scipy.optimize import least_squares

    lower = [math.log(BOUNDS[n][0]) for n in names]
    upper = [math.log(BOUNDS[n][1]) for n in names]
    x0 = [
        min(max(math.log((start or {}).get(n, base.values[n])), lo + 1e-9), hi - 1e-9)
        for n, lo, hi in zip(names, lower, upper, strict=True)
    ]
    starts = [x0]
    if start is None:
        # a bandwidth efficiency the catalog's values mask (another level bounds every size, so its
        # gradient is zero there) is still reached from a start with it halved
        starts += [
            [
                max(x - math.log(2.0), lo + 1e-9) if i == k else x
                for i, (x, lo) in enumerate(zip(x0, lower, strict=True))
            ]
            for k, n in enumerate(names)
            if n.endswith("_efficiency")
        ]
    residuals = _residuals(base, points, names, fixed)
    results = [least_squares(residuals, x, bounds=(lower, upper), method="trf") for x in starts]
    best = min(results, key=lambda r: float(r.cost))
    return {n: math.exp(v) for n, v in zip(names, best.x, strict=True)}


def _why_not(base: Baseline, points: Sequence[Point], name: str) -> Message:
    """Why the runs cannot determine ``name``."""
    spans_network = any(math.ceil(p.gpus / p.gpus_per_domain) > 1 for p in points)
    if name in ("nccl_efficiency", "network_alpha_us") and not spans_network:
        return msg(
            "no run crossed the network: every run stays inside one {domain}-GPU scale-up domain",
            domain=base.fabric.domain_gpus,
        )
    if name in ("nvls_efficiency", "nvls_alpha_us") and not base.fabric.nvls:
        return msg("the plan's scale-up domain has no NVLS")
    if name in ("scale_up_ring_efficiency", "scale_up_alpha_us") and not any(
        p.gpus_per_domain > 1 for p in points
    ):
        return msg("no run has two GPUs in one scale-up domain")
    return msg(
        "the measured times do not depend on it in the model (another level or algorithm bounds "
        "every measured size); measure a collective that uses it"
    )


def _check_ceiling(base: Baseline, large: Sequence[Point], fitted: Mapping[str, float]) -> None:
    """Refuse a fit that needs an efficiency above its range (the model cannot reach the runs):
    a fitted efficiency on its bound, or, where no efficiency was fitted because a fixed ceiling
    (the NVLS tree's per-head ceiling, :func:`planner.fabric.collectives.nvls_tree_cap_gbyte_per_s`)
    bounds every size, runs beyond the model with every efficiency at its bound."""
    if not large:
        return
    worst = max(large, key=lambda p: p.size_bytes)
    fabric = fabric_with(base=base, values=fitted)
    for name, value in fitted.items():
        if value >= BOUNDS[name][1] * 0.999:
            _refuse_beyond(name, worst, predict(fabric, worst).busbw_gbyte_per_s)
    if not any(name in fitted for name in BANDWIDTH_PARAMETERS):
        best = fabric_with(
            base=base, values={**fitted, **{name: BOUNDS[name][1] for name in BANDWIDTH_PARAMETERS}}
        )
        _refuse_beyond(", ".join(BANDWIDTH_PARAMETERS), worst, predict(best, worst).busbw_gbyte_per_s)


def _refuse_beyond(name: str, worst: Point, model: float) -> None:
    """Raise when the run's busbw at its largest size is beyond ``model`` [GB/s] by more than
    :data:`CEILING_TOLERANCE`; ``name`` names the coefficients at their upper bound (1.0)."""
    if worst.busbw_gbyte_per_s > model * (1 + CEILING_TOLERANCE):
        raise InputError(
            msg(
                "{name}: the runs need more than {bound} (busbw {measured:.1f} GB/s at {size} B "
                "against the model's ceiling of {model:.1f} GB/s on this plan): the collective model "
                "cannot reproduce them, so nothing is fitted",
                name=name,
                bound=1.0,
                measured=worst.busbw_gbyte_per_s,
                size=worst.size_bytes,
                model=model,
            )
        )


# --- the override file -----------------------------------------------------------------------

_RULE_IDS = frozenset({"scale_up_ring_efficiency", "nvls_efficiency", "scale_up_alpha_us", "nvls_alpha_us"})
"""Fitted coefficients written as the ``sizing_rules`` record of the same id."""
_NIC_FIELDS = {"nccl_efficiency": "nccl_efficiency", "network_alpha_us": "alpha_us"}
"""Fitted coefficient -> the field of the NIC record it overrides."""


def provenance(cal: Calibration) -> str:
    """What was measured, on which hosts, and the input files' hashes (one line).

    Parameters
    ----------
    cal : Calibration
        A calibration.

    Returns
    -------
    str
        The provenance line (tools, hosts, file names and sha256, design and GPUs).
    """
    tools = sorted({t for f in cal.files for t in f.tools})
    files = "; ".join(f"{f.name} (sha256 {f.sha256})" for f in cal.files)
    hosts = ", ".join(cal.hosts) or "hosts not named in the files"
    reduction = f" with in-switch reduction {cal.in_switch_reduction}" if cal.in_switch_reduction else ""
    return (
        f"measured: nccl-tests {', '.join(tools)} on {hosts}; files: {files}; fitted by planner "
        f"calibrate for design {cal.design_id}, {cal.gpus} x {cal.gpu_id}{reduction} (least squares, "
        "docs/measure.md)"
    )


def override_mapping(cal: Calibration) -> dict[str, list[dict[str, Any]]]:
    """The catalog override (``--catalog``) holding the fitted coefficients with their provenance.

    Parameters
    ----------
    cal : Calibration
        A calibration.

    Returns
    -------
    dict of str to list of dict
        Catalog records by family (``sizing_rules``, ``nics``), each fitted value with source,
        as_of and notes; empty when nothing was fitted.
    """
    source = provenance(cal)
    notes = (
        "Calibration from the customer's own runs: agreement with those same runs checks the fit, "
        "it does not validate the model. Fit: " + "; ".join(_fit_summary(cal))
    )
    common = {"source": source, "as_of": cal.measured_on, "assumption": False, "notes": notes}
    rules = [
        {"id": c.name, "value": _rounded(c.fitted), **common}
        for c in cal.coefficients
        if c.fitted is not None and c.name in _RULE_IDS
    ]
    nic_fields = {
        _NIC_FIELDS[c.name]: _rounded(c.fitted)
        for c in cal.coefficients
        if c.fitted is not None and c.name in _NIC_FIELDS
    }
    if cal.compute_rule is not None:
        rules.append(dict(cal.compute_rule))
    out: dict[str, list[dict[str, Any]]] = {}
    if rules:
        out["sizing_rules"] = rules
    if nic_fields:
        out["nics"] = [{"id": cal.nic_id, **nic_fields, **common}]
    return out


def _rounded(value: float | None) -> float:
    return float(f"{value:.6g}") if value is not None else 0.0


def _fit_summary(cal: Calibration) -> list[str]:
    parts = []
    errors = [abs(r.residual_fraction) for r in cal.residuals if r.size_bytes >= BANDWIDTH_MIN_BYTES]
    if errors:
        parts.append(f"largest residual at >= 64 MiB {max(errors):.1%}")
    loo = [abs(r.leave_one_out_fraction) for r in cal.residuals if r.leave_one_out_fraction is not None]
    if loo:
        parts.append(f"largest leave-one-out error {max(loo):.1%}")
    missing = [c.name for c in cal.coefficients if c.fitted is None]
    if missing:
        parts.append("catalog values kept for " + ", ".join(missing))
    return parts


def calibration_override(cal: Calibration) -> CalibrationOverride:
    """The override with its provenance, as a scenario carries it (:attr:`Scenario.calibration`).

    Parameters
    ----------
    cal : Calibration
        A calibration with at least one fitted value.

    Returns
    -------
    CalibrationOverride
        The records and their provenance (tools, hosts, date, file hashes, design, GPUs).

    Raises
    ------
    InputError
        Nothing was fitted: there is no override to carry.
    """
    tools = sorted({t for f in cal.files for t in f.tools} or {r.collective + "_perf" for r in cal.residuals})
    parts = [f"nccl-tests {', '.join(tools)}"] if tools else []
    if cal.compute_rule is not None:
        parts.append("training log")
    measured = "; ".join(parts) or "nccl-tests"
    provenance = {
        "measured": measured,
        "hosts": list(cal.hosts),
        "measured_on": cal.measured_on,
        "files": [{"name": f.name, "sha256": f.sha256} for f in cal.files],
        "design_id": cal.design_id,
        "gpus": cal.gpus,
        "in_switch_reduction": cal.in_switch_reduction,
    }
    return calibration_from_override(
        {PROVENANCE_SECTION: provenance, **override_mapping(cal)}, source=msg("calibration")
    )


def override_yaml(cal: Calibration) -> str:
    """The override as YAML text, with a header saying what wrote it and its provenance section
    (which the catalog loader skips and ``planner scenarios save --calibration`` reads).

    Parameters
    ----------
    cal : Calibration
        A calibration.

    Returns
    -------
    str
        The YAML document, header comment first.
    """
    import yaml

    header = (
        "# Catalog override written by `planner calibrate` (docs/measure.md): the collective model's\n"
        "# coefficients fitted to measured nccl-tests runs. Use it with --catalog, upload it in the\n"
        "# app, or save it with a scenario (planner scenarios save --calibration). Each record's\n"
        "# source names the runs, hosts and input file hashes.\n"
    )
    records = override_mapping(cal)
    if records:
        document: dict[str, Any] = {
            PROVENANCE_SECTION: calibration_override(cal).model_dump(mode="json", exclude={"records"}),
            **records,
        }
    else:
        document = {}
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    return header + body


def busbw_at_gib(runs: Sequence[Run]) -> float | None:
    """Measured all-reduce busbw at 1 GiB of the largest run that has it [GB/s].

    Parameters
    ----------
    runs : sequence of Run
        nccl-tests runs.

    Returns
    -------
    float or None
        busbw [GB/s]; ``None`` when no all-reduce run measured 1 GiB.
    """
    candidates = [r for r in runs if r.collective == "all_reduce" and r.busbw_at(GIB) is not None]
    if not candidates:
        return None
    return max(candidates, key=lambda r: r.gpus).busbw_at(GIB)
