"""The model's error per family, measured on the validation suite.

A family is a kind of headline figure: dense training throughput, MoE training throughput,
serving prefill (time to first token), serving decode (output tokens/s), collective bus
bandwidth, power, cost. Its residuals are ``r_i = ln(predicted_i / published_i)`` over the
*validation* cases the model evaluates (calibration cases are fitted, so they are never evidence;
nor is a validation figure of a calibrated run from another release, its calibration twin, which
agrees with the fit by construction; ``validation/README.md``). A throughput quoted as time per
work (GPU-hours per trillion tokens) is inverted so that every training residual reads as a
throughput error.

Notes
-----
Fit (``scipy.stats.norm.fit``, maximum likelihood): bias ``mu = mean(r)``, spread ``sigma =
std(r)``. The headline band uses the root-mean-square error ``rms = sqrt(mu^2 + sigma^2)``: the
model's value is not shifted by the bias (that would tune the model on the cases that check it),
so the band has to hold the bias as well as the scatter. The band is the central 80 % interval of
``N(0, rms)`` in log space, quoted as ``+/- x`` with ``x = exp(z_0.9 rms) - 1`` (``z_0.9 =
1.2816``), the same P10-P90 span the price Monte Carlo reports (:mod:`planner.performance.uncertainty`).
A family with no validation case has no band from evidence: its spread is ``None`` and the
decision's Monte Carlo draws only the input uncertainties for it (the cost family: prices).

The fitted values are written to ``validation/error_bands.yaml`` by ``make validation``
(:func:`render_bands`), and ``tests/test_decision_bands.py`` fails when the file differs from a
fresh fit, so every band shown is reproducible from the suite.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Literal, get_args

import yaml

from planner.errors import CatalogError
from planner.files import parse_text, read_bytes
from planner.i18n.message import msg

if TYPE_CHECKING:
    from planner.validation.cases import ValidationCase
    from planner.validation.run import CaseResult

Family = Literal[
    "training_dense",
    "training_moe",
    "serving_prefill",
    "serving_decode",
    "collectives",
    "power",
    "cost",
]
FAMILIES: tuple[Family, ...] = get_args(Family)

BANDS_PATH = Path(__file__).resolve().parents[2] / "validation" / "error_bands.yaml"
"""Where ``make validation`` writes the fitted bands."""

BAND_COVERAGE = 0.8
"""Central share of the error distribution a band covers [-] (P10 to P90)."""

Z_BAND = NormalDist().inv_cdf(0.5 + BAND_COVERAGE / 2)
"""Standard-normal quantile of the band's upper end: 1.2816 for 80 %."""

_TRAINING_RATES = ("achieved_tflops_per_gpu", "model_flops_utilization", "tokens_per_s")
_TRAINING_TIMES = ("gpu_hours_per_trillion_tokens",)


@dataclass(frozen=True, kw_only=True)
class ErrorBand:
    """The model's error on one family of figures, from its validation residuals."""

    family: str
    cases: int
    """Validation cases behind the fit [count]; 0 = no evidence."""
    bias_log: float
    """Mean of ln(predicted / published) [-]; positive = the model reads high."""
    spread_log: float
    """Standard deviation of the residuals [-] (maximum likelihood, N in the denominator)."""

    @property
    def rms_log(self) -> float:
        """Root-mean-square residual, sqrt(bias^2 + spread^2) [-]: the width the draws use."""
        return math.hypot(self.bias_log, self.spread_log)

    @property
    def half_width_fraction(self) -> float:
        """The band's half-width as a fraction of the value [-]: exp(z rms) - 1 (module notes).

        >>> round(ErrorBand(family="x", cases=3, bias_log=0.03, spread_log=0.04).half_width_fraction, 4)
        0.0662
        """
        return math.exp(Z_BAND * self.rms_log) - 1.0

    def label(self) -> str:
        """``+/-6.6 % (3 published cases)``, or that no published case measures it."""
        if self.cases == 0:
            return msg("no published case")
        if self.cases == 1:
            return msg("±{percent:.0f} % (1 published case)", percent=100 * self.half_width_fraction)
        return msg(
            "±{percent:.0f} % ({cases} published cases)",
            percent=100 * self.half_width_fraction,
            cases=self.cases,
        )


def family_of(case: ValidationCase) -> Family | None:
    """The family a validation case measures, or ``None`` (topology, memory, reliability counts).

    Parameters
    ----------
    case : ValidationCase
        A validation case (its area, quantity and inputs).

    Returns
    -------
    Family or None
        ``training_dense``, ``training_moe``, ``serving_prefill``, ``serving_decode``,
        ``collectives`` or ``power``; ``None`` for the other quantities.
    """
    if case.area == "training" and case.quantity in (*_TRAINING_RATES, *_TRAINING_TIMES):
        return "training_moe" if (case.inputs.experts or 1) > 1 else "training_dense"
    if case.area == "serving":
        return "serving_prefill" if case.quantity == "ttft_ms" else "serving_decode"
    if case.area == "collectives":
        return "collectives"
    if case.area == "power":
        return "power"
    return None


def residuals(
    results: Sequence[CaseResult], cases: Mapping[str, ValidationCase]
) -> dict[Family, list[float]]:
    """ln(predicted / published) of every evaluated validation case, by family.

    Parameters
    ----------
    results : sequence of CaseResult
        Results of a validation run.
    cases : mapping of str to ValidationCase
        The cases by id.

    Returns
    -------
    dict of Family to list of float
        Log residuals per family [dimensionless, natural log], signed so that positive means the
        model is optimistic (times negated).
    """
    out: dict[Family, list[float]] = {f: [] for f in FAMILIES}
    for result in results:
        family = family_of(cases[result.id])
        if family is None or result.role != "validation" or result.predicted is None:
            continue
        if result.calibration_twin:  # the same run on paper as a fitted case: no evidence of error
            continue
        if result.predicted <= 0 or result.published <= 0:
            continue
        r = math.log(result.predicted / result.published)
        out[family].append(-r if result.quantity in _TRAINING_TIMES else r)
    return out


def fit_band(family: str, values: Sequence[float]) -> ErrorBand:
    """Bias and spread of one family's residuals (``scipy.stats.norm.fit``).

    Parameters
    ----------
    family : str
        The family's name.
    values : sequence of float
        Its log residuals [dimensionless].

    Returns
    -------
    ErrorBand
        Case count, bias (mean) and spread (standard deviation) of the residuals [log].

    Examples
    --------
    >>> b = fit_band("collectives", [0.01, -0.03, 0.02])
    >>> b.cases, round(b.bias_log, 4), round(b.spread_log, 4)
    (3, 0.0, 0.0216)
    """
    if not values:
        return ErrorBand(family=family, cases=0, bias_log=0.0, spread_log=0.0)
    if len(values) == 1:
        return ErrorBand(family=family, cases=1, bias_log=float(values[0]), spread_log=0.0)
    from scipy import stats  # the fit only: the bands' readers (every CLI command) need no SciPy

    mu, sigma = stats.norm.fit(list(values))
    return ErrorBand(family=family, cases=len(values), bias_log=float(mu), spread_log=float(sigma))


def fit_bands(
    results: Sequence[CaseResult] | None = None, cases: Sequence[ValidationCase] | None = None
) -> dict[str, ErrorBand]:
    """Every family's band from a validation run (a fresh run of the whole suite by default).

    Parameters
    ----------
    results : sequence of CaseResult or None
        Results of a validation run; ``None`` runs the suite.
    cases : sequence of ValidationCase or None
        The cases; ``None`` loads them all.

    Returns
    -------
    dict of str to ErrorBand
        The band of each family.
    """
    from planner.validation.cases import load_cases
    from planner.validation.run import run_all

    chosen = load_cases() if cases is None else tuple(cases)
    results = run_all(cases=chosen) if results is None else results
    by_id = {c.id: c for c in chosen}
    return {family: fit_band(family, values) for family, values in residuals(results, by_id).items()}


_HEADER = """\
# The model's error per family, fitted to the validation suite's residuals (ln(predicted /
# published) of the validation cases; calibration cases excluded). Written by `make validation`
# (planner/decision/bands.py:render_bands); do not edit by hand. tests/test_decision_bands.py
# fails when this file differs from a fresh fit. Band = +/- (exp(1.2816 rms) - 1), rms =
# sqrt(bias^2 + spread^2): the central 80 % of the error (docs/model.md, "Decisions").
"""


def render_bands(bands: Mapping[str, ErrorBand]) -> str:
    """The text of ``validation/error_bands.yaml``.

    Parameters
    ----------
    bands : mapping of str to ErrorBand
        The band of each family.

    Returns
    -------
    str
        The YAML text: header comment, then each family's cases, bias and spread [log] and
        half-width [fraction].
    """
    rows = {
        family: {
            "cases": b.cases,
            "bias_log": round(b.bias_log, 4),
            "spread_log": round(b.spread_log, 4),
            "half_width_fraction": round(b.half_width_fraction, 4),
        }
        for family, b in bands.items()
    }
    return _HEADER + yaml.safe_dump({"families": rows}, sort_keys=False)


def write_bands(path: Path = BANDS_PATH) -> Path:
    """Fit the bands on a fresh validation run and write them (``make validation``).

    Parameters
    ----------
    path : Path
        The file to write.

    Returns
    -------
    Path
        ``path``.
    """
    path.write_text(render_bands(fit_bands()), encoding="utf-8")
    return path


@lru_cache(maxsize=4)
def load_bands(path: Path = BANDS_PATH) -> dict[str, ErrorBand]:
    """The fitted bands of ``validation/error_bands.yaml``; every family is present."""
    data = parse_text(read_bytes(path, name=str(path), what=msg("error bands file"), error=CatalogError),
                      name=str(path), error=CatalogError, trusted=True)  # fmt: skip
    families = data.get("families", {}) if isinstance(data, dict) else {}
    missing = [f for f in FAMILIES if f not in families]
    if missing:
        raise CatalogError(msg("{file}: no band for {families}", file=str(path), families=", ".join(missing)))
    return {
        f: ErrorBand(
            family=f,
            cases=int(families[f]["cases"]),
            bias_log=float(families[f]["bias_log"]),
            spread_log=float(families[f]["spread_log"]),
        )
        for f in FAMILIES
    }


def training_band(*, experts: int) -> ErrorBand:
    """The band of a training job's headline figures (step time, tokens/s, time to train).

    Parameters
    ----------
    experts : int
        Experts of the model (1: dense) [count].

    Returns
    -------
    ErrorBand
        The ``training_moe`` band when ``experts > 1``, else ``training_dense``.
    """
    return load_bands()["training_moe" if experts > 1 else "training_dense"]


def headline_note(band: ErrorBand) -> str:
    """``model error on step time, tokens/s and time to train: +/-17 % (33 published cases)``.

    Parameters
    ----------
    band : ErrorBand
        The band of the figures.

    Returns
    -------
    str
        The note, translatable.
    """
    return msg("model error on step time, tokens/s and time to train: {band}", band=band.label())


def band_dict(band: ErrorBand) -> dict[str, object]:
    """The band as JSON: family, cases, half-width [-], bias [-, log].

    Parameters
    ----------
    band : ErrorBand
        A band.

    Returns
    -------
    dict of str to object
        ``family``, ``cases`` [count], ``band_fraction`` [fraction] and ``bias_log`` [log].
    """
    return {
        "family": band.family,
        "cases": band.cases,
        "band_fraction": band.half_width_fraction,
        "bias_log": band.bias_log,
    }


def serving_note() -> str:
    """``model error: time to first token +/-x % (N published cases); tokens/s +/-y % (M ...)``.

    Returns
    -------
    str
        The note, translatable, with the prefill and decode bands.
    """
    bands = load_bands()
    return msg(
        "model error: time to first token {prefill}; tokens/s {decode}",
        prefill=bands["serving_prefill"].label(),
        decode=bands["serving_decode"].label(),
    )


def serving_band_dicts() -> dict[str, dict[str, object]]:
    """The serving bands as JSON: ``ttft`` (prefill family) and ``tokens_per_s`` (decode family).

    Returns
    -------
    dict of str to dict
        ``ttft`` and ``tokens_per_s``, each as :func:`band_dict` gives it.
    """
    bands = load_bands()
    return {"ttft": band_dict(bands["serving_prefill"]), "tokens_per_s": band_dict(bands["serving_decode"])}
