"""The decision: workload mix, cost per outcome, the Monte Carlo's probabilities, the sentence and
``planner compare --workload`` (planner/decision/; docs/model.md, "Decisions")."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from planner.catalog import Catalog, load_catalog
from planner.cli import run
from planner.decision.draws import DecisionSpec, decide, decide_outcomes, probability_best
from planner.decision.outcome import DesignOutcome, design_outcome, design_outcomes, usd_per_million_tokens
from planner.decision.sentence import percent, recommendation
from planner.engine import plan
from planner.errors import InputError
from planner.i18n import translate
from planner.inputs.scenario import (
    Scenario,
    load_workload,
    scenario_from_data,
    scenario_to_json,
    workload_from_data,
)

DESIGNS = ("rail4-npo", "rail8-npo", "ib-ndr")
DENSE_70B = [{"kind": "training", "name": "70B dense", "weight": 1, "params_b": 70, "tokens_b": 1000}]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def dense(catalog: Catalog) -> tuple[DesignOutcome, ...]:
    scenario = Scenario(gpus=1024, workload=workload_from_data(DENSE_70B))
    return design_outcomes(scenario=scenario, catalog=catalog, design_ids=DESIGNS)


def _write(tmp_path: Path, data: object, name: str = "mix.yaml") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return path


# --- the workload mix in the scenario -------------------------------------------------------


def test_a_scenario_keeps_its_workload_through_json() -> None:
    scenario = Scenario(workload=workload_from_data(DENSE_70B))
    again = scenario_from_data(json.loads(scenario_to_json(scenario)))
    assert again == scenario and again.workload[0].training is not None
    assert again.workload[0].training.params_b == 70


def test_an_old_scenario_opens_unchanged_with_no_workload() -> None:
    assert scenario_from_data({"gpus": 64}).workload == ()


def test_a_bad_workload_entry_is_one_line_naming_the_field(tmp_path: Path) -> None:
    bad = [{"kind": "training", "params_b": 70, "tokens_b": -1}]
    with pytest.raises(InputError, match=r"workload\.0\.training\.tokens_b") as info:
        load_workload(_write(tmp_path, bad))
    assert "\n" not in str(info.value)
    with pytest.raises(InputError, match="non-empty list"):
        load_workload(_write(tmp_path, {"kind": "training"}))


# --- cost per outcome ------------------------------------------------------------------------


def test_cost_per_outcome_is_the_hour_price_over_the_tokens(dense: tuple[DesignOutcome, ...]) -> None:
    for o in dense:
        # N C 10^6 / (3600 R): 1,024 GPUs at C USD/GPU-h producing R tokens/s
        expected = 1024 * o.usd_per_gpu_hour * 1e6 / (3600 * o.tokens_per_s)
        assert o.cost_per_outcome == pytest.approx(expected)
    # 1,024 GPUs x 2 USD/h = 2,048 USD/h over 3.6e9 tokens/h = 0.5689 USD per million tokens
    assert usd_per_million_tokens(gpus=1024, usd_per_gpu_hour=2.0, tokens_per_s=1e6) == pytest.approx(
        0.568888, rel=1e-5
    )


def test_weights_are_shares_of_the_cluster_time(catalog: Catalog) -> None:
    p = plan(scenario=Scenario(gpus=256, design_id="rail8-npo"), catalog=catalog)
    one = design_outcome(plan=p, workload=workload_from_data(DENSE_70B), catalog=catalog)
    twice = design_outcome(plan=p, workload=workload_from_data(DENSE_70B * 2), catalog=catalog)
    # the same job twice at equal shares is the same work at the same rate
    assert twice.cost_per_outcome == pytest.approx(one.cost_per_outcome)
    assert [e.weight for e in twice.entries] == [0.5, 0.5]


# --- the probabilities -----------------------------------------------------------------------


def test_probabilities_sum_to_one_and_ties_split() -> None:
    costs = np.array([[1.0, 1.0, 2.0], [2.0, 1.0, 3.0]])
    # draw 1: designs 0 and 1 tie (half each); draw 2: design 1 alone
    assert probability_best(costs).tolist() == [0.25, 0.75, 0.0]


def test_two_identical_designs_get_equal_probabilities(
    catalog: Catalog, dense: tuple[DesignOutcome, ...]
) -> None:
    twin = (dense[1], dataclasses.replace(dense[1]))
    n = 4000
    decision = decide_outcomes(outcomes=twin, catalog=catalog, spec=DecisionSpec(samples=n, seed=3))
    p = [d.p_best for d in decision.designs]
    # each is a share of n draws with expectation 1/2: sampling s.d. sqrt(0.25 / n) = 0.0079; 4 s.d.
    assert p[0] == pytest.approx(0.5, abs=4 * math.sqrt(0.25 / n))
    assert sum(p) == pytest.approx(1.0)


def test_widening_the_model_error_never_raises_the_top_probability(
    catalog: Catalog, dense: tuple[DesignOutcome, ...]
) -> None:
    tops = []
    for scale in (0.0, 1.0, 2.0, 4.0, 8.0):
        decision = decide_outcomes(
            outcomes=dense, catalog=catalog, spec=DecisionSpec(model_error_scale=scale)
        )
        tops.append(max(d.p_best for d in decision.designs))
    assert all(later <= earlier for earlier, later in itertools.pairwise(tops)), tops
    assert tops[-1] < tops[0]  # and the widest error does lower it


def test_a_design_cheaper_and_faster_in_every_draw_has_probability_one(
    catalog: Catalog, dense: tuple[DesignOutcome, ...]
) -> None:
    base = dense[2]
    # the same design with every GPU at half price (the largest cost: cheaper in every price draw)
    gpu_line = next(line for line in base.plan.bom if line.category == "gpus")
    cheap_plan = plan(
        scenario=base.plan.scenario.with_updates(
            price_overrides_usd={gpu_line.id: gpu_line.unit_cost_usd / 2}
        ),
        catalog=catalog,
    )
    cheap = design_outcome(plan=cheap_plan, workload=workload_from_data(DENSE_70B), catalog=catalog)
    faster = dataclasses.replace(cheap, entries=tuple(
        dataclasses.replace(e, compute_s=e.compute_s / 2, network_s=e.network_s / 2, tokens_per_s=e.tokens_per_s * 2)
        for e in cheap.entries
    ))  # fmt: skip
    decision = decide_outcomes(
        outcomes=(base, faster), catalog=catalog, spec=DecisionSpec(model_error_scale=2.0)
    )
    assert [d.p_best for d in decision.designs] == [0.0, 1.0]


def test_the_draws_are_seeded(catalog: Catalog, dense: tuple[DesignOutcome, ...]) -> None:
    a, b = (decide_outcomes(outcomes=dense, catalog=catalog, spec=DecisionSpec(seed=7)) for _ in range(2))
    assert [d.p_best for d in a.designs] == [d.p_best for d in b.designs]
    assert [d.cost_per_outcome_low for d in a.designs] == [d.cost_per_outcome_low for d in b.designs]


def test_the_sentence_names_margin_probability_and_both_costs(
    catalog: Catalog, dense: tuple[DesignOutcome, ...]
) -> None:
    decision = decide_outcomes(outcomes=dense, catalog=catalog, rule="cost_per_outcome")
    best, runner = decision.recommended, decision.runner_up
    assert runner is not None
    en = recommendation(decision, catalog=catalog)
    assert f"{percent(decision.margin_fraction)} % lower" in en and "of draws" in en
    assert f"{best.cost_per_outcome:.3g}" in en and f"{runner.cost_per_outcome:.3g}" in en
    zh = translate(en, "zh")
    assert "抽样" in zh and f"{best.cost_per_outcome:.3g}" in zh and "lower" not in zh
    alone = recommendation(decision, catalog=catalog, compare_designs=False)
    assert catalog.designs[runner.design_id].name not in alone


# --- planner compare ----------------------------------------------------------------------------


def test_compare_with_a_workload_prints_the_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mix = _write(tmp_path, DENSE_70B)
    code = run(["compare", "--gpus", "1024", "--designs", ",".join(DESIGNS), "--workload", str(mix),
                "--format", "json", "--samples", "500"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rule"] == "cost_per_outcome"
    assert out["outcome_unit"] == "USD per million trained tokens"
    assert out["recommended"] in DESIGNS
    assert [d["design"] for d in out["designs"]] == list(DESIGNS)
    for d in out["designs"]:
        assert d["cost_per_outcome_low"] < d["cost_per_outcome"] < d["cost_per_outcome_high"]
        assert d["time_to_train_days"] > 0
    assert sum(d["p_best"] for d in out["designs"]) == pytest.approx(1.0)


def test_compare_without_a_workload_ranks_by_price_per_gpu_hour(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "--gpus", "1024", "--format", "json", "--samples", "200"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rule"] == "price_per_gpu_hour"
    assert "GPU-hour" in out["outcome_unit"] and "no workload" in out["outcome_unit"]
    assert sum(d["p_best"] for d in out["designs"]) == pytest.approx(1.0)


def test_compare_refuses_a_bad_workload_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mix = _write(tmp_path, [{"kind": "serving", "weight": 0}])
    assert run(["compare", "--gpus", "64", "--workload", str(mix)]) == 2
    err = capsys.readouterr().err
    assert "workload.0.weight" in err and err.count("\n") == 1


def test_decide_names_a_repeated_design(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="each design once"):
        decide(scenario=Scenario(gpus=64), catalog=catalog, design_ids=("ib-ndr", "ib-ndr"))


# --- the proposal's executive summary (HTML; the printed PDF: tests/test_decision_surfaces.py) ---


def _summary_text(scenario: Scenario, **options: object) -> str:
    import collections
    import html
    import re

    from planner.report import proposal

    p = proposal.build_proposal(
        scenario=scenario, catalog=load_catalog(), options=proposal.options_from_data(dict(options))
    )
    page = proposal.proposal_html(p, collections.defaultdict(lambda: "data:,"))
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_proposal_says_when_there_is_no_workload() -> None:
    text = _summary_text(Scenario(gpus=256), lang="en", edition="internal")
    assert "No workload given: this compares the price per GPU-hour" in text


def test_a_customer_proposal_may_leave_the_comparison_out(catalog: Catalog) -> None:
    scenario = Scenario(gpus=1024, design_id="ib-ndr", workload=workload_from_data(DENSE_70B))
    full = _summary_text(scenario, lang="en", edition="customer")
    alone = _summary_text(scenario, lang="en", edition="customer", compare_designs=False)
    others = [catalog.designs[d].name for d in ("rail4-npo", "rail8-npo")]
    assert all(name in full for name in others)
    assert not any(name in alone for name in others), "no other design is named"
    assert "USD per million trained tokens" in alone and "P10" in alone


def test_a_serving_load_is_priced_per_served_token(catalog: Catalog) -> None:
    from planner.decision.outcome import outcome_unit

    chat = workload_from_data(
        [{"kind": "serving", "params_b": 70, "input_tokens": 2048, "output_tokens": 512}]
    )
    p = plan(scenario=Scenario(gpus=64, design_id="rail8-npo", gpu_id="h100_sxm"), catalog=catalog)
    outcome = design_outcome(plan=p, workload=chat, catalog=catalog)
    assert outcome_unit(chat) == "USD per million served tokens"
    entry = outcome.entries[0]
    assert entry.family == "serving_decode" and entry.time_to_train_days is None
    # 64 GPUs at C USD/GPU-h over R output tokens/s
    expected = 64 * p.cost.usd_per_gpu_hour * 1e6 / (3600 * entry.tokens_per_s)
    assert outcome.cost_per_outcome == pytest.approx(expected)
