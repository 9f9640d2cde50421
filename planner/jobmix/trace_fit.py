"""The synthetic job generator fitted to a published GPU-cluster trace study.

The figures a trace study publishes (``data/traces/<cluster>.yaml``: the CDF of job sizes by
number of jobs and by GPU time, the CDF of run times, the job count, the mean run time) determine
every parameter of :class:`planner.jobmix.jobs.JobMix` but the priority share:

* **sizes**: the share of jobs of each power-of-two bucket ``(b/2, b]`` is the difference of the
  size CDF at ``b`` and ``b/2``; the last bucket holds every job above the CDF's last finite size;
* **mean run time per size**: the bucket's share of GPU time ``t_b`` over its share of jobs
  ``c_b`` is ``b E[T_b]`` up to one constant ``k``, fixed by the published mean run time:
  ``E[T_b] = k t_b / (c_b b)`` with ``sum_b c_b E[T_b] = mean``;
* **shape**: run times are log-normal with one ``sigma`` for every size, clipped at the longest run
  time the study shows (its run-time CDF reaches 1 there); each size's ``mu_b`` is solved so that
  the clipped mean is ``E[T_b]``, and ``sigma`` minimises the squared distance between the
  mixture's CDF and the published run-time CDF (:func:`scipy.optimize.minimize_scalar`);
* **arrivals**: Poisson at the published GPU-job count over the trace's period.

``python -m planner.jobmix.trace_fit`` prints the fit and its quality; ``tests/test_tenancy_trace.py``
checks that ``data/tenancy_jobs.yaml`` holds exactly these values.

References
----------
Q. Hu, P. Sun, S. Yan, Y. Wen, T. Zhang, "Characterization and Prediction of Deep Learning
Workloads in Large-Scale GPU Datacenters", SC '21 (arXiv 2109.01313), and its artifact repository
(HeliosArtifact): the figures in ``data/traces/helios_venus.yaml``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planner.errors import CatalogError
from planner.files import read_mapping
from planner.i18n.message import msg

TRACES = Path(__file__).resolve().parents[2] / "data" / "traces"
"""Published trace figures, one file per cluster."""
DEFAULT_TRACE = TRACES / "helios_venus.yaml"
"""The trace the bundled generator is fitted to (the Helios study's Venus cluster, 1,022 GPUs)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TraceSummary(_Frozen):
    """The study's summary statistics of the cluster's GPU jobs."""

    locator: str = Field(min_length=1)
    gpu_jobs: int = Field(ge=1, description="GPU jobs in the period [count].")
    mean_gpu_job_run_time_s: float = Field(gt=0, description="Mean run time of a GPU job [s].")
    median_gpu_job_run_time_s: float = Field(ge=0, description="Median run time of a GPU job [s].")
    mean_gpu_job_queue_delay_s: float = Field(ge=0, description="Mean queueing delay of a GPU job [s].")
    median_gpu_job_queue_delay_s: float = Field(ge=0, description="Median queueing delay [s].")
    mean_gpus_per_gpu_job: float = Field(ge=1, description="Mean GPUs of a GPU job [count].")
    gpu_time_s: dict[str, float] = Field(description="GPU time by final state [GPU s].")


class SizeCdf(_Frozen):
    """CDF of job sizes, by number of jobs and by GPU time, at the listed GPU counts."""

    locator: str = Field(min_length=1)
    gpus: tuple[int, ...] = Field(min_length=2)
    by_jobs: tuple[float, ...]
    by_gpu_time: tuple[float, ...]

    @model_validator(mode="after")
    def _aligned(self) -> SizeCdf:
        if not len(self.gpus) == len(self.by_jobs) == len(self.by_gpu_time):
            raise ValueError("gpus, by_jobs and by_gpu_time must have the same length")
        for series in (self.by_jobs, self.by_gpu_time):
            if any(b < a for a, b in itertools.pairwise(series)) or not 0 <= series[0] <= series[-1] == 1:
                raise ValueError("a CDF must rise from [0, 1] to 1")
        return self


class RunTimeCdf(_Frozen):
    """CDF of GPU-job run times at the listed run times."""

    locator: str = Field(min_length=1)
    run_time_s: tuple[float, ...] = Field(min_length=3)
    fraction: tuple[float, ...]

    @model_validator(mode="after")
    def _aligned(self) -> RunTimeCdf:
        if len(self.run_time_s) != len(self.fraction) or self.fraction[-1] != 1:
            raise ValueError("run_time_s and fraction must align, and the CDF must end at 1")
        return self


class MonthlyUtilization(_Frozen):
    """Average GPU utilisation of the cluster, one value per month of the period."""

    locator: str = Field(min_length=1)
    fraction: tuple[float, ...] = Field(min_length=1)


class PublishedTrace(_Frozen):
    """What a trace study publishes about one cluster (``data/traces/<cluster>.yaml``)."""

    cluster: str
    cluster_gpus: int = Field(ge=1)
    period: str
    period_days: float = Field(gt=0)
    source: str = Field(min_length=1)
    as_of: str
    summary: TraceSummary
    job_size_cdf: SizeCdf
    run_time_cdf: RunTimeCdf
    monthly_utilization: MonthlyUtilization

    @property
    def gpu_jobs_per_day(self) -> float:
        """Published GPU jobs over the period [jobs/day]."""
        return self.summary.gpu_jobs / self.period_days

    @property
    def mean_utilization(self) -> float:
        """Mean of the published monthly utilisations [-]."""
        values = self.monthly_utilization.fraction
        return sum(values) / len(values)


def load_published_trace(path: Path = DEFAULT_TRACE) -> PublishedTrace:
    """The published figures of one cluster (bundled: the Helios study's Venus).

    Parameters
    ----------
    path : Path
        YAML file of the figures; defaults to :data:`DEFAULT_TRACE`.

    Returns
    -------
    PublishedTrace
        The trace's cluster size [GPUs], period, job-size CDF [fraction], run-time CDF [s,
        fraction], monthly utilisation [fraction] and summary, each with its source.

    Raises
    ------
    CatalogError
        The file is missing, malformed, or a figure is out of range (names the field).
    """
    data = read_mapping(path, what=msg("trace figures file"), error=CatalogError, trusted=True)
    try:
        return PublishedTrace.model_validate(data)
    except ValueError as exc:
        raise CatalogError(f"{path.name}: {str(exc).splitlines()[0]}") from None


def clipped_lognormal_mean(*, mu: float, sigma: float, cap_s: float) -> float:
    """E[min(T, cap)] of a log-normal ``T`` (``ln T ~ N(mu, sigma^2)``).

    Parameters
    ----------
    mu : float
        Mean of ``ln T`` [ln s].
    sigma : float
        Standard deviation of ``ln T`` [-], above zero.
    cap_s : float
        Clip [s]; ``inf`` for none.

    Returns
    -------
    float
        Mean of the clipped run time [s].

    Notes
    -----
    ``E[min(T, c)] = e^(mu + sigma^2/2) Phi((ln c - mu - sigma^2) / sigma) + c (1 - Phi((ln c - mu) / sigma))``.

    >>> round(clipped_lognormal_mean(mu=0.0, sigma=1.0, cap_s=math.inf), 4)  # e^(1/2)
    1.6487
    """
    if math.isinf(cap_s):
        return math.exp(mu + sigma**2 / 2)
    log_cap = math.log(cap_s)
    return math.exp(mu + sigma**2 / 2) * _phi((log_cap - mu - sigma**2) / sigma) + cap_s * (
        1 - _phi((log_cap - mu) / sigma)
    )


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


@dataclass(frozen=True)
class FitQuality:
    """How well the fitted generator reproduces the published figures."""

    run_time_cdf_rms_error: float
    """Root-mean-square distance of the fitted run-time CDF from the published one [-]."""
    run_time_cdf_max_error: float
    """Largest distance of the two CDFs at the published points [-]."""
    model_median_run_time_s: float
    """Median run time of the fitted mixture [s] (published: the summary's median)."""
    model_mean_gpu_s_per_job: float
    """Mean GPU time of a generated job [GPU s]."""
    published_mean_gpu_s_per_job: float
    """Published GPU time over GPU jobs [GPU s]."""


@dataclass(frozen=True)
class TraceFit:
    """The generator's parameters as the trace determines them."""

    share_by_gpus: dict[int, float]
    """Share of jobs by (power-of-two) GPU count [-]."""
    mean_run_time_s_by_gpus: dict[int, float]
    """Mean (clipped) run time by GPU count [s]."""
    median_run_time_s_by_gpus: dict[int, float]
    """Median run time by GPU count, ``e^mu_b`` [s]."""
    sigma: float
    """Log-normal shape shared by every size [-]."""
    max_run_time_s: float
    """Run times are clipped here: the published run-time CDF reaches 1 at this point [s]."""
    gpu_jobs_per_day: float
    """Poisson arrival rate of GPU jobs [jobs/day]."""
    offered_load: float
    """Generated GPU time over the trace cluster's capacity at that rate [-]."""
    quality: FitQuality


def size_buckets(cdf: SizeCdf) -> tuple[dict[int, float], dict[int, float]]:
    """Shares of jobs and of GPU time by power-of-two bucket ``(b/2, b]``.

    Parameters
    ----------
    cdf : SizeCdf
        Published cumulative shares of jobs and of GPU time [fraction] at GPU counts [count].

    Returns
    -------
    tuple[dict[int, float], dict[int, float]]
        Share of jobs and share of GPU time [fraction] by bucket upper bound ``b`` [GPUs].

    >>> jobs, time = size_buckets(SizeCdf(locator="x", gpus=(1, 2, 4, 6), by_jobs=(0.5, 0.75, 0.9, 1.0),
    ...                                    by_gpu_time=(0.1, 0.3, 0.6, 1.0)))
    >>> {b: round(v, 3) for b, v in jobs.items()}, {b: round(v, 3) for b, v in time.items()}
    ({1: 0.5, 2: 0.25, 4: 0.15, 8: 0.1}, {1: 0.1, 2: 0.2, 4: 0.3, 8: 0.4})
    """
    by_jobs = dict(zip(cdf.gpus, cdf.by_jobs, strict=True))
    by_time = dict(zip(cdf.gpus, cdf.by_gpu_time, strict=True))
    largest = max(cdf.gpus)
    top = 1 << (largest - 1).bit_length()
    jobs: dict[int, float] = {}
    time: dict[int, float] = {}
    below_jobs = below_time = 0.0
    bucket = 1
    while bucket <= top:
        upto = max((g for g in cdf.gpus if g <= bucket), default=None)
        if bucket == top:
            upto_jobs, upto_time = 1.0, 1.0
        elif upto is None:
            upto_jobs = upto_time = 0.0
        else:
            upto_jobs, upto_time = by_jobs[upto], by_time[upto]
        jobs[bucket], time[bucket] = upto_jobs - below_jobs, upto_time - below_time
        below_jobs, below_time = upto_jobs, upto_time
        bucket *= 2
    return jobs, time


def fit_job_mix(trace: PublishedTrace) -> TraceFit:
    """Fit the generator to ``trace`` (see the module notes for each step).

    Parameters
    ----------
    trace : PublishedTrace
        The published figures (:func:`load_published_trace`).

    Returns
    -------
    TraceFit
        Shares, mean and median run time per size [s], ``sigma`` [-], the clip [s], the arrival
        rate [jobs/day], the offered load on the trace's cluster [-] and the fit's quality.
    """
    from scipy import optimize, stats  # SciPy only for the fit, not on the generator's path

    jobs, time = size_buckets(trace.job_size_cdf)
    sizes = [b for b in jobs if jobs[b] > 0]
    ratio = {b: time[b] / (jobs[b] * b) for b in sizes}
    scale = trace.summary.mean_gpu_job_run_time_s / sum(jobs[b] * ratio[b] for b in sizes)
    mean_s = {b: scale * ratio[b] for b in sizes}
    cap_s = trace.run_time_cdf.run_time_s[trace.run_time_cdf.fraction.index(1.0)]

    def mus(sigma: float) -> dict[int, float]:
        return {
            b: optimize.brentq(
                lambda mu, b=b: clipped_lognormal_mean(mu=mu, sigma=sigma, cap_s=cap_s) - mean_s[b],
                -50.0,
                50.0,
            )
            for b in sizes
        }

    def cdf(sigma: float, mu: dict[int, float], x_s: float) -> float:
        if x_s >= cap_s:
            return 1.0
        return float(sum(jobs[b] * stats.norm.cdf((math.log(x_s) - mu[b]) / sigma) for b in sizes))

    points = list(zip(trace.run_time_cdf.run_time_s, trace.run_time_cdf.fraction, strict=True))

    def loss(sigma: float) -> float:
        mu = mus(sigma)
        return sum((cdf(sigma, mu, x) - f) ** 2 for x, f in points)

    best = optimize.minimize_scalar(loss, bounds=(0.2, 6.0), method="bounded", options={"xatol": 1e-6})
    sigma = float(best.x)
    mu = mus(sigma)
    errors = [abs(cdf(sigma, mu, x) - f) for x, f in points]
    median = optimize.brentq(lambda x: cdf(sigma, mu, x) - 0.5, 1e-3, cap_s)
    mean_gpu_s = sum(jobs[b] * b * mean_s[b] for b in sizes)
    published_gpu_s = sum(trace.summary.gpu_time_s.values()) / trace.summary.gpu_jobs
    rate_per_s = trace.gpu_jobs_per_day / 86_400
    return TraceFit(
        share_by_gpus={b: jobs[b] for b in sizes},
        mean_run_time_s_by_gpus=mean_s,
        median_run_time_s_by_gpus={b: math.exp(mu[b]) for b in sizes},
        sigma=sigma,
        max_run_time_s=cap_s,
        gpu_jobs_per_day=trace.gpu_jobs_per_day,
        offered_load=rate_per_s * mean_gpu_s / trace.cluster_gpus,
        quality=FitQuality(
            run_time_cdf_rms_error=math.sqrt(sum(e * e for e in errors) / len(errors)),
            run_time_cdf_max_error=max(errors),
            model_median_run_time_s=float(median),
            model_mean_gpu_s_per_job=mean_gpu_s,
            published_mean_gpu_s_per_job=published_gpu_s,
        ),
    )


def rounded(fit: TraceFit) -> dict[str, float]:
    """The fit as the ``tenancy_jobs_*`` sizing-rule values ``data/tenancy_jobs.yaml`` holds.

    Parameters
    ----------
    fit : TraceFit
        A fit (:func:`fit_job_mix`).

    Returns
    -------
    dict[str, float]
        Rule id to value: shares [fraction] to 4 decimals, median run times [s] to the second,
        ``sigma`` [-] to 3 decimals, the clip [h] to 3 decimals, the rate [jobs/day] to 0.1.
    """
    values: dict[str, float] = {}
    for gpus, share in fit.share_by_gpus.items():
        values[f"tenancy_jobs_share_{gpus}_gpu"] = round(share, 4)
    for gpus, median in fit.median_run_time_s_by_gpus.items():
        values[f"tenancy_jobs_median_{gpus}_gpu_s"] = float(round(median))
    values["tenancy_jobs_duration_sigma"] = round(fit.sigma, 3)
    values["tenancy_jobs_max_duration_h"] = round(fit.max_run_time_s / 3600, 3)
    values["tenancy_jobs_gpu_jobs_per_day"] = round(fit.gpu_jobs_per_day, 1)
    return values


def main() -> None:  # pragma: no cover - a maintainer's report
    """Print the fit of the bundled trace and its quality."""
    trace = load_published_trace()
    fit = fit_job_mix(trace)
    print(f"fitted to {trace.cluster} ({trace.cluster_gpus} GPUs, {trace.period})")
    for rule_id, value in rounded(fit).items():
        print(f"  {rule_id}: {value:g}")
    q = fit.quality
    print(f"  run-time CDF: rms error {q.run_time_cdf_rms_error:.4f}, max {q.run_time_cdf_max_error:.4f}")
    print(
        f"  median run time {q.model_median_run_time_s:.0f} s (published "
        f"{trace.summary.median_gpu_job_run_time_s:.0f} s); GPU time per job "
        f"{q.model_mean_gpu_s_per_job:.0f} GPU s (published {q.published_mean_gpu_s_per_job:.0f})"
    )
    print(
        f"  offered load on {trace.cluster_gpus} GPUs: {fit.offered_load:.3f} (published mean "
        f"utilisation {trace.mean_utilization:.3f})"
    )


if __name__ == "__main__":  # pragma: no cover
    main()
