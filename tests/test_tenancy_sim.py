"""The job-mix simulator: the M/M/c closed form, reproducibility, the policies' locality,
preemption, and the trace CSV import."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from scipy import stats

from planner.cli import run
from planner.errors import InputError
from planner.jobmix.jobs import Job, poisson_jobs, read_trace_csv, synthetic_jobs
from planner.jobmix.simulate import SimCluster, percentile, simulate
from planner.queueing import erlang_c_wait_s


@pytest.mark.slow  # 8 simulated runs of 20,000 jobs each (~5 s CPU)
def test_single_gpu_jobs_match_the_m_m_c_queueing_delay() -> None:
    """16 GPUs, Poisson arrivals at load 0.8, exponential 100 s jobs: Erlang C gives W_q = 9.53 s.

    a = lambda / mu = 12.8 Erlang on c = 16 servers; the closed form lies in the 99 % t-interval
    of the mean delay over 8 independent runs of 20,000 jobs.
    """
    cluster = SimCluster.uniform(servers=2, gpus_per_server=8, servers_per_group=2)
    rate, mean_s = 0.8 * 16 / 100.0, 100.0
    expected = erlang_c_wait_s(servers=16, arrival_per_s=rate, service_per_s=1 / mean_s)
    assert expected == pytest.approx(9.5276, abs=1e-3)
    means = [
        simulate(
            cluster=cluster,
            jobs=poisson_jobs(count=20_000, rate_per_s=rate, mean_duration_s=mean_s, seed=seed),
            policy="first-fit",
        ).mean_queue_delay_s
        for seed in range(8)
    ]
    half = stats.t.ppf(0.995, len(means) - 1) * statistics.stdev(means) / len(means) ** 0.5
    assert abs(statistics.mean(means) - expected) <= half
    assert half < 0.5 * expected  # the interval is tight enough to mean something


def test_erlang_c_reduces_to_m_m_1() -> None:
    # M/M/1: W_q = rho / (mu - lambda) = 0.9 / 0.1 = 9 s
    assert erlang_c_wait_s(servers=1, arrival_per_s=0.9, service_per_s=1.0) == pytest.approx(9.0)


def test_same_seed_same_result_and_another_seed_differs() -> None:
    cluster = SimCluster.uniform(servers=32, gpus_per_server=8, servers_per_group=16)

    def once(seed: int) -> dict[str, object]:
        jobs = synthetic_jobs(count=2000, cluster_gpus=cluster.gpus, seed=seed, load=0.9)
        return simulate(cluster=cluster, jobs=jobs, policy="topology", preempt=True).to_dict()

    assert once(3) == once(3)
    assert once(3) != once(4)


def test_topology_policy_spans_fewer_hops_and_fragments_less_than_first_fit() -> None:
    cluster = SimCluster.uniform(servers=32, gpus_per_server=8, servers_per_group=16)
    jobs = synthetic_jobs(count=3000, cluster_gpus=cluster.gpus, seed=7, load=0.9)
    first = simulate(cluster=cluster, jobs=jobs, policy="first-fit")
    topo = simulate(cluster=cluster, jobs=jobs, policy="topology")
    assert topo.spanning_jobs < first.spanning_jobs
    assert topo.fragmentation < first.fragmentation
    assert 0 < topo.utilization <= 1 and 0 < first.utilization <= 1


def test_a_high_priority_job_preempts_and_the_stopped_job_resumes() -> None:
    # one 8-GPU server: A (normal) runs 0-100 s; B (high) arrives at 10 s for 10 s
    cluster = SimCluster.uniform(servers=1, gpus_per_server=8, servers_per_group=1)
    jobs = [Job(0.0, 8, 100.0, 0), Job(10.0, 8, 10.0, 1)]
    waiting = simulate(cluster=cluster, jobs=jobs, policy="topology")
    assert waiting.preemptions == 0 and waiting.queue_delay_s["p99"] == pytest.approx(90.0)
    preempting = simulate(cluster=cluster, jobs=jobs, policy="topology", preempt=True)
    assert preempting.preemptions == 1 and preempting.queue_delay_s["p99"] == 0.0
    # A stopped after 10 s resumes at 20 s with 90 s left; busy all the arrival window (0-10 s)
    assert preempting.utilization == pytest.approx(1.0)


def test_percentile_is_nearest_rank() -> None:
    assert percentile(list(range(1, 101)), 95) == 95
    assert percentile([], 50) == 0.0


def test_trace_csv_is_read_and_bad_rows_name_line_and_column(tmp_path: Path) -> None:
    good = tmp_path / "trace.csv"
    good.write_text("arrival_s,gpus,duration_s,priority\n5,8,60,1\n0,1,30,0\n", encoding="utf-8")
    jobs = read_trace_csv(good, cluster_gpus=64)
    assert [j.arrival_s for j in jobs] == [0.0, 5.0] and jobs[1].priority == 1
    bad = tmp_path / "bad.csv"
    bad.write_text("arrival_s,gpus,duration_s\n0,1,30\n1,128,30\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 3: gpus: '128' is not allowed \(allowed: 1 to 64\)"):
        read_trace_csv(bad, cluster_gpus=64)
    missing = tmp_path / "missing.csv"
    missing.write_text("arrival_s,gpus\n0,1\n", encoding="utf-8")
    with pytest.raises(InputError, match="missing column duration_s"):
        read_trace_csv(missing, cluster_gpus=64)


def test_cli_simulate_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tenants", "simulate", "--gpus", "128", "--design", "rail8-npo", "--synthetic", "--jobs", "500",
            "--policy", "first-fit", "--seed", "5", "--format", "json"]  # fmt: skip
    assert run(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert run(argv) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert {"jobs", "utilization", "queue_delay_s", "fragmentation", "spanning_jobs"} <= set(first)
    assert set(first["queue_delay_s"]) == {"p50", "p95", "p99"} and first["jobs"] == 500


def test_cli_simulate_bad_trace_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.csv"
    trace.write_text("arrival_s,gpus,duration_s\n0,-1,30\n", encoding="utf-8")
    argv = [
        "tenants",
        "simulate",
        "--gpus",
        "64",
        "--design",
        "rail8-npo",
        "--trace",
        str(trace),
        "--policy",
        "topology",
    ]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gpus:" in err
