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
from planner.tenancy.jobs import JobMix, bundled_mix, job_mix, synthetic_jobs

DATA = Path(__file__).resolve().parents[1] / "data" / "tenancy_jobs.yaml"
RECORDS = {r["id"]: r for r in yaml.safe_load(DATA.read_text(encoding="utf-8"))["sizing_rules"]}
N = 20_000
CLUSTER_GPUS = 1024


@pytest.fixture(scope="module")
def jobs() -> tuple:  # type: ignore[type-arg]
    return synthetic_jobs(count=N, cluster_gpus=CLUSTER_GPUS, seed=11, load=0.8)


def _cdf(mix: JobMix, x_s: float) -> float:
    """P(run time <= x) of the stated mix: the size shares' mixture of log-normals."""
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
    # the medians are read from the Philly study's Figure 2, everything else is an assumption
    medians = {k for k in RECORDS if k.startswith("tenancy_jobs_median_")}
    assert medians and all("Figure 2" in RECORDS[k]["source"] for k in medians)
    assert all(r.get("assumption") for k, r in RECORDS.items() if k not in medians)


def test_the_mix_is_the_data() -> None:
    mix = job_mix(load_catalog())
    assert mix == bundled_mix()
    assert mix.size_weights[1] == RECORDS["tenancy_jobs_share_1_gpu"]["value"]
    assert mix.median_s[8] == RECORDS["tenancy_jobs_median_8_gpu_s"]["value"]
    assert mix.sigma == RECORDS["tenancy_jobs_duration_sigma"]["value"]
    # a size uses the median of the largest listed size not above it (the Philly buckets 1, 2-4,
    # 5-8, over 8): a 4-GPU job runs like a 2-GPU one, a 64-GPU job like a 16-GPU one
    assert mix.median(4) == mix.median(2) and mix.median(64) == mix.median(16) != mix.median(8)


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
    # heavy-tailed run times (sigma 1.5) make the sample mean noisy: about 6 % standard error here
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
