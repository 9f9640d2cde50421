"""The synthetic job generator reproduces the distribution its data states (data/tenancy_jobs.yaml)
within sampling error, reads that data from the catalog (so ``--catalog`` overrides it), and every
figure there is either sourced or an assumption with its reason."""

from __future__ import annotations

import dataclasses
import math
import statistics
from pathlib import Path

import pytest
import yaml

from planner import load_catalog
from planner.errors import CatalogError
from planner.jobmix.jobs import JobMix, bundled_mix, job_mix, synthetic_jobs

DATA = Path(__file__).resolve().parents[1] / "data" / "tenancy_jobs.yaml"
RECORDS = {r["id"]: r for r in yaml.safe_load(DATA.read_text(encoding="utf-8"))["sizing_rules"]}
N = 20_000
CLUSTER_GPUS = 1024


@pytest.fixture(scope="module")
def jobs() -> tuple:  # type: ignore[type-arg]
    return synthetic_jobs(count=N, cluster_gpus=CLUSTER_GPUS, seed=11, load=0.8)


def _cdf(mix: JobMix, x_s: float) -> float:
    """P(run time <= x) of the stated mix: the size shares' mixture of log-normals (clipped at
    ``max_duration_s``, which changes nothing below it)."""
    total = sum(mix.size_weights.values())
    return sum(
        w
        / total
        * 0.5
        * (1 + math.erf((math.log(x_s) - math.log(mix.median(g))) / (mix.sigma * math.sqrt(2))))
        for g, w in mix.size_weights.items()
    )


def _within_sampling_error(probability: float, target: float, n: int) -> bool:
    """|p - target| below four binomial standard errors (a false alarm about once in 16,000 runs)."""
    return abs(probability - target) <= 4 * math.sqrt(target * (1 - target) / n)


def test_every_figure_is_sourced_or_a_reasoned_assumption() -> None:
    for record in RECORDS.values():
        assert (record.get("source") and record.get("as_of")) or (
            record.get("assumption") and record.get("reason")
        )
    # sizes, run times and rate are fitted to the Helios study (tests/test_tenancy_trace.py checks
    # the values); only the priority share is an assumption
    assumed = {k for k, r in RECORDS.items() if r.get("assumption")}
    assert assumed == {"tenancy_jobs_high_priority_share"}
    assert all("Helios" in RECORDS[k]["source"] for k in RECORDS if k not in assumed)


def test_the_mix_is_the_data() -> None:
    mix = job_mix(load_catalog())
    assert mix == bundled_mix()
    assert mix.size_weights[1] == RECORDS["tenancy_jobs_share_1_gpu"]["value"]
    assert mix.median_s[8] == RECORDS["tenancy_jobs_median_8_gpu_s"]["value"]
    assert mix.sigma == RECORDS["tenancy_jobs_duration_sigma"]["value"]
    # every power-of-two size has its own median; a size between two uses the lower one's
    assert set(mix.median_s) == set(mix.size_weights)
    assert mix.median(12) == mix.median(8) != mix.median(16)
    assert mix.max_duration_s == pytest.approx(RECORDS["tenancy_jobs_max_duration_h"]["value"] * 3600)


def test_share_of_single_gpu_jobs_and_of_high_priority(jobs: tuple) -> None:  # type: ignore[type-arg]
    mix = bundled_mix()
    stated = mix.size_weights[1] / sum(mix.size_weights.values())
    single = sum(j.gpus == 1 for j in jobs) / N
    assert _within_sampling_error(single, stated, N), (single, stated)
    high = sum(j.priority == 1 for j in jobs) / N
    assert _within_sampling_error(high, mix.high_priority_share, N), (high, mix.high_priority_share)
    assert {j.gpus for j in jobs} <= set(mix.size_weights)


def test_median_run_times(jobs: tuple) -> None:  # type: ignore[type-arg]
    mix = bundled_mix()
    # each size's median: the stated log-normal puts half of that size's jobs below it
    for gpus in (1, 8):
        own = [j.duration_s for j in jobs if j.gpus == gpus]
        below = sum(d <= mix.median(gpus) for d in own) / len(own)
        assert _within_sampling_error(below, 0.5, len(own)), (gpus, below)
    # the whole stream's median: the mixture's CDF at the sample median is one half
    sample_median = statistics.median(j.duration_s for j in jobs)
    assert _within_sampling_error(_cdf(mix, sample_median), 0.5, N), sample_median


def test_offered_load_is_the_requested_share_of_the_cluster(jobs: tuple) -> None:  # type: ignore[type-arg]
    span_s = jobs[-1].arrival_s - jobs[0].arrival_s
    offered = sum(j.gpus * j.duration_s for j in jobs) / (CLUSTER_GPUS * span_s)
    # heavy-tailed run times (sigma 2.8, clipped at 24 days) make the sample mean noisy: the largest
    # jobs (128 GPUs, 1.3 % of them) carry a tenth of the GPU time
    assert offered == pytest.approx(0.8, rel=0.25)


def test_a_catalog_override_changes_the_stream() -> None:
    catalog = load_catalog()
    rules = dict(catalog.sizing_rules)
    for rule_id in rules:
        if rule_id.startswith("tenancy_jobs_share_") and rule_id != "tenancy_jobs_share_8_gpu":
            rules[rule_id] = rules[rule_id].model_copy(update={"value": 0.0})
    only_eight = job_mix(dataclasses.replace(catalog, sizing_rules=rules))
    stream = synthetic_jobs(count=500, cluster_gpus=64, seed=3, mix=only_eight)
    assert {j.gpus for j in stream} == {8}
    del rules["tenancy_jobs_duration_sigma"]
    with pytest.raises(CatalogError, match="tenancy_jobs_duration_sigma"):
        job_mix(dataclasses.replace(catalog, sizing_rules=rules))


def test_same_seed_same_stream() -> None:
    a = synthetic_jobs(count=200, cluster_gpus=256, seed=5)
    assert a == synthetic_jobs(count=200, cluster_gpus=256, seed=5)
    assert a != synthetic_jobs(count=200, cluster_gpus=256, seed=6)
