"""Every long computation reports between chunks and stops when asked (``planner/progress.py``):
a Steps whose ``should_stop`` turns true after a few reports ends the computation early with
``CancelledError``, having heard fewer reports than a full run makes."""

from __future__ import annotations

from typing import Any, cast

import pytest

from planner.catalog import load_catalog
from planner.compare import sweep
from planner.decision.draws import DecisionSpec, decide
from planner.inputs.scenario import Scenario
from planner.inputs.training import TrainingJob
from planner.jobmix.jobs import synthetic_jobs
from planner.jobmix.simulate import SimCluster, simulate
from planner.performance.uncertainty import MonteCarloSpec, monte_carlo
from planner.progress import CancelledError, checkpoint, part_of


class StopAfter:
    """Stops once it has heard ``reports`` reports (``None``: never); records what it heard."""

    def __init__(self, reports: int | None) -> None:
        self.reports = reports
        self.heard: list[tuple[int, int]] = []

    def progress(self, *, done: int, total: int) -> None:
        self.heard.append((done, total))

    def should_stop(self) -> bool:
        return self.reports is not None and len(self.heard) >= self.reports


def test_a_checkpoint_without_steps_does_nothing_and_one_that_says_stop_raises() -> None:
    checkpoint(None, done=1, total=2)
    steps = StopAfter(1)
    with pytest.raises(CancelledError, match="stopped after 3 of 7 steps"):
        checkpoint(steps, done=3, total=7)
    assert steps.heard == [(3, 7)]


def test_parts_report_a_share_of_the_whole() -> None:
    steps = StopAfter(None)
    checkpoint(part_of(steps, index=2, count=3), done=1, total=4)
    assert steps.heard == [(9, 12)]  # part 2 of 3 starts at 2 x 4 = 8 of 3 x 4 = 12


def test_the_sweep_stops_when_asked() -> None:
    catalog = load_catalog()
    full = StopAfter(None)
    sweep(
        scenario=Scenario(),
        catalog=catalog,
        design_ids=("rail4-npo", "rail8-npo"),
        sizes=(64, 128, 256),
        steps=full,
    )
    total = full.heard[-1][1]
    assert len(full.heard) == total >= 4  # one report before each (design, size) planned
    stopping = StopAfter(2)
    with pytest.raises(CancelledError, match=f"stopped after 1 of {total} steps"):
        sweep(
            scenario=Scenario(), catalog=catalog, design_ids=("rail4-npo", "rail8-npo"), sizes=(64, 128, 256),
            steps=stopping,
        )  # fmt: skip
    assert len(stopping.heard) == 2 < len(full.heard)


def test_the_designs_monte_carlo_stops_when_asked() -> None:
    catalog = load_catalog()
    spec = DecisionSpec(samples=200, seed=1)
    designs = ("rail4-npo", "rail8-npo", "ib-ndr")
    full = StopAfter(None)
    decide(scenario=Scenario(gpus=256), catalog=catalog, design_ids=designs, spec=spec, steps=full)
    assert full.heard == [(0, 3), (1, 3), (2, 3)]  # one report before each design's draws
    stopping = StopAfter(1)
    with pytest.raises(CancelledError):
        decide(scenario=Scenario(gpus=256), catalog=catalog, design_ids=designs, spec=spec, steps=stopping)
    assert stopping.heard == [(0, 3)]


def test_the_uncertainty_study_stops_when_asked() -> None:
    spec = MonteCarloSpec(samples=2000, seed=3)
    job = TrainingJob(params_b=70, tokens_b=1000)
    stopping = StopAfter(2)
    with pytest.raises(CancelledError, match="stopped after 500 of 2000 steps"):  # chunks of 500 samples
        monte_carlo(job=job, scenario=Scenario(gpus=256), catalog=load_catalog(), spec=spec, steps=stopping)
    assert stopping.heard == [(0, 2000), (500, 2000)]


def test_the_job_mix_simulation_stops_when_asked() -> None:
    cluster = SimCluster(gpus_per_server=8, leaf_group=(0,) * 16, group_pod=(0,), tiers=1)
    jobs = synthetic_jobs(count=500, cluster_gpus=cluster.gpus, seed=1, load=0.8)
    full = StopAfter(None)
    simulate(cluster=cluster, jobs=jobs, policy="first-fit", steps=full)
    assert len(full.heard) == 50  # every 2 % of 500 jobs finished
    stopping = StopAfter(3)
    with pytest.raises(CancelledError, match="stopped after 30 of 500 steps"):
        simulate(cluster=cluster, jobs=jobs, policy="first-fit", steps=stopping)
    assert len(stopping.heard) == 3


def test_a_pareto_front_stops_when_asked() -> None:
    from planner.inputs.optimize import request_from_data
    from planner.optimize.pareto import bandwidth_front

    stopping = StopAfter(2)
    with pytest.raises(CancelledError, match="stopped after 1 of"):
        bandwidth_front(
            scenario=Scenario(gpus=512, design_id="rail8-npo"), catalog=load_catalog(),
            request=request_from_data({}), steps=stopping,
        )  # fmt: skip
    assert [done for done, _ in stopping.heard] == [0, 1]  # one report before each port count's solves


def test_a_proposal_build_stops_before_it_draws_anything() -> None:
    from planner.report import proposal

    p = proposal.build_proposal(
        scenario=Scenario(gpus=128), catalog=load_catalog(), options=proposal.options_from_data({})
    )
    stopping = StopAfter(1)
    never_used = cast("Any", object())  # a browser would fail the test if called: none is needed
    with pytest.raises(CancelledError, match="stopped after 0 of 3 steps"):
        proposal.render_pdf(p, browser=never_used, steps=stopping)
    assert stopping.heard == [(0, 3)]
