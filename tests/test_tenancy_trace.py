"""The job mix measured, not assumed: the generator is the fit of the Helios study's published Venus
figures (data/traces/helios_venus.yaml -> data/tenancy_jobs.yaml), published trace tables read
directly, and the simulator checked against figures the study publishes (validation area
``tenancy``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from planner.cli import run
from planner.errors import InputError
from planner.jobmix.jobs import bundled_mix, read_trace_csv
from planner.jobmix.trace_fit import fit_job_mix, load_published_trace, rounded, size_buckets
from planner.validation.run import run_all

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "traces"
HELIOS = FIXTURES / "helios_cluster_log_readme.csv"
ALIBABA = FIXTURES / "openb_pod_list_default_sample.csv"
RECORDS = {
    r["id"]: r
    for r in yaml.safe_load((ROOT / "data" / "tenancy_jobs.yaml").read_text(encoding="utf-8"))["sizing_rules"]
}


@pytest.fixture(scope="module")
def fit():  # type: ignore[no-untyped-def]
    return fit_job_mix(load_published_trace())


def test_the_data_file_holds_the_fit(fit) -> None:  # type: ignore[no-untyped-def]
    # every trace-determined figure of data/tenancy_jobs.yaml is the fit's value, rounded as stated
    fitted = rounded(fit)
    assert {k: RECORDS[k]["value"] for k in fitted} == fitted
    # and none of them is marked as an assumption: each cites the Helios study
    for rule_id in fitted:
        assert not RECORDS[rule_id].get("assumption") and "Helios" in RECORDS[rule_id]["source"]
    # the only assumption left is the one the trace cannot determine (it has no priority field)
    assert [k for k, r in RECORDS.items() if r.get("assumption")] == ["tenancy_jobs_high_priority_share"]


def test_the_size_shares_are_the_published_cdf_differences(fit) -> None:  # type: ignore[no-untyped-def]
    # Venus CDF by jobs at 1, 2, 4, 8 GPUs: 0.5184, 0.5738, 0.6480, 0.8998 -> buckets 1, 2, (2,4], (4,8]
    shares = fit.share_by_gpus
    assert shares[1] == pytest.approx(0.5184, abs=1e-9)
    assert shares[2] == pytest.approx(0.5738 - 0.5184, abs=1e-9)
    assert shares[4] == pytest.approx(0.6480 - 0.5738, abs=1e-9)
    assert shares[8] == pytest.approx(0.8998 - 0.6480, abs=1e-9)
    # the '>64' column (plotted at 80) is the 128 bucket: 1 - CDF(64) = 1 - 0.9871
    assert shares[128] == pytest.approx(1 - 0.9871, abs=1e-9)
    assert sum(shares.values()) == pytest.approx(1.0, abs=1e-9)


def test_run_times_reproduce_the_published_mean_and_gpu_time(fit) -> None:  # type: ignore[no-untyped-def]
    trace = load_published_trace()
    jobs, _ = size_buckets(trace.job_size_cdf)
    # the per-size means are scaled so that the mix's mean run time is the published 13,040.6 s
    mean = sum(jobs[b] * fit.mean_run_time_s_by_gpus[b] for b in fit.mean_run_time_s_by_gpus)
    assert mean == pytest.approx(trace.summary.mean_gpu_job_run_time_s, rel=1e-9)
    # GPU time per job: published 1.2346e10 GPU s / 125,303 jobs = 98,526; the bucketing (a 12-GPU
    # job counted as 16) moves it by well under 1 %
    q = fit.quality
    assert q.model_mean_gpu_s_per_job == pytest.approx(q.published_mean_gpu_s_per_job, rel=0.01)
    # the clipped log-normal mixture follows the published run-time CDF to 0.04 RMS, 0.09 at worst
    assert q.run_time_cdf_rms_error < 0.04 and q.run_time_cdf_max_error < 0.09
    # its clipped mean per size is the mean the GPU-time shares give
    mix = bundled_mix()
    for gpus, target in fit.mean_run_time_s_by_gpus.items():
        assert mix.mean_duration_s(gpus) == pytest.approx(target, rel=0.01)


def test_helios_cluster_log_is_read_as_published() -> None:
    # the Helios README's three example rows: submitted 18:41:01, :27, :28 -> arrivals 0, 26, 27 s
    jobs = read_trace_csv(HELIOS, cluster_gpus=64)
    assert [(j.arrival_s, j.gpus, j.duration_s, j.priority) for j in jobs] == [
        (0.0, 1, 36848.0, 0),
        (26.0, 4, 249.0, 0),
        (27.0, 1, 675233.0, 0),
    ]


def test_alibaba_2023_pod_list_is_read_as_published() -> None:
    jobs = read_trace_csv(ALIBABA, cluster_gpus=64)
    # 40 rows: 4 CPU-only pods and 3 pending pods (no scheduled_time) are left out
    assert len(jobs) == 33
    # openb-pod-0000 (creation 0, scheduled 0, deleted 12,537,496) and the GPU-sharing
    # openb-pod-0001 (gpu_milli 460: one whole GPU; created 427,061, deleted 12,902,960)
    assert (jobs[0].arrival_s, jobs[0].gpus, jobs[0].duration_s) == (0.0, 1, 12537496.0)
    assert (jobs[1].arrival_s, jobs[1].gpus, jobs[1].duration_s) == (427061.0, 1, 12902960.0 - 427061.0)
    # openb-pod-0017: 8 GPUs, created and scheduled 9,437,497, deleted 10,769,854
    eight = [j for j in jobs if j.arrival_s == 9437497.0]
    assert [(j.gpus, j.duration_s) for j in eight] == [(8, 10769854.0 - 9437497.0)]
    assert {j.gpus for j in jobs} == {1, 2, 4, 8}


@pytest.mark.parametrize("published", [HELIOS, ALIBABA], ids=["helios", "alibaba-2023"])
def test_a_published_trace_simulates_like_the_same_jobs_in_the_product_csv(
    published: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jobs = read_trace_csv(published, cluster_gpus=64)
    own = tmp_path / "own.csv"
    own.write_text(
        "arrival_s,gpus,duration_s\n" + "".join(f"{j.arrival_s!r},{j.gpus},{j.duration_s!r}\n" for j in jobs),
        encoding="utf-8",
    )
    results = []
    for trace in (published, own):
        argv = ["tenants", "simulate", "--gpus", "64", "--design", "rail8-npo", "--trace", str(trace),
                "--policy", "topology", "--format", "json"]  # fmt: skip
        assert run(argv) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1] and results[0]["jobs"] == len(jobs)


def test_bad_published_rows_name_file_line_and_column(tmp_path: Path) -> None:
    header = HELIOS.read_text(encoding="utf-8").splitlines()[0]
    helios = tmp_path / "cluster_log.csv"
    helios.write_text(header + "\n1,u,vc,2,1,1,COMPLETED,2020-06-09 18:41,x,y,10,0\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"cluster_log.csv: line 2: submit_time: .*YYYY-MM-DD HH:MM:SS"):
        read_trace_csv(helios, cluster_gpus=64)
    pods = tmp_path / "pods.csv"
    pods.write_text(
        ALIBABA.read_text(encoding="utf-8").splitlines()[0] + "\np,1,1,1,1000,,LS,Running,1,5,8\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"line 2: deletion_time: '5' is not allowed \(allowed: 8 to"):
        read_trace_csv(pods, cluster_gpus=64)
    big = tmp_path / "big.csv"
    big.write_text(header + "\n1,u,vc,128,1,16,COMPLETED,2020-06-09 18:41:01,a,b,10,0\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: gpus: 128 is not allowed \(allowed: 1 to 64\)"):
        read_trace_csv(big, cluster_gpus=64)


def test_the_simulator_agrees_with_what_the_study_publishes() -> None:
    # validation/cases/tenancy.yaml: Venus's monthly utilisation (64-87 %) and mean queueing delay
    # (1,253 s), neither of which the fit used; tolerances and sources are in the case file
    results = {r.id: r for r in run_all(area="tenancy")}
    assert set(results) == {"helios-venus-gpu-utilization", "helios-venus-mean-queue-delay"}
    assert all(r.role == "validation" for r in results.values())
    assert [r.status for r in results.values()] == ["pass", "pass"], results
    assert not math.isnan(results["helios-venus-gpu-utilization"].predicted or math.nan)
