"""The serving request travels with the scenario (JSON/YAML, the store and its export, old saves
without it) and shows in the comparison and the proposal (section, contents, workbook sheet)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from openpyxl import load_workbook
from store_fixtures import saved_without

from planner import Scenario, load_catalog, plan
from planner.errors import InputError
from planner.inputs import serving as request_module
from planner.inputs.scenario import load_scenario, scenario_from_data, scenario_to_json
from planner.inputs.serving import ServingRequest
from planner.performance.serving import estimate_serving
from planner.report import proposal, serving_section
from planner.store import ScenarioStore

pytest_plugins = ["store_fixtures"]

CATALOG = load_catalog()
# Llama 2 70B shape (GQA, 8 KV heads) in FP8: fits every design's 64 GPUs with room for a batch
SERVING = {
    "params_b": 70.0,
    "layers": 80,
    "hidden_size": 8192,
    "kv_heads": 8,
    "precision": "fp8",
    "input_tokens": 2048,
    "output_tokens": 256,
}


def with_serving(gpus: int = 64) -> Scenario:
    return Scenario(gpus=gpus, design_id="rail8-npo", serving=SERVING)


def test_the_engine_and_the_scenario_share_one_request_model() -> None:
    assert request_module.ServingRequest is ServingRequest
    assert type(with_serving().serving) is ServingRequest


def test_a_scenario_without_serving_has_none() -> None:
    assert Scenario().serving is None
    assert scenario_from_data({"gpus": 64}).serving is None


def test_serving_round_trips_through_json_and_yaml(tmp_path: Path) -> None:
    scenario = with_serving()
    assert scenario_from_data(json.loads(scenario_to_json(scenario))) == scenario
    file = tmp_path / "s.yaml"
    file.write_text(yaml.safe_dump(json.loads(scenario_to_json(scenario))), encoding="utf-8")
    assert load_scenario(file).serving == scenario.serving


def test_a_bad_serving_request_names_the_field() -> None:
    with pytest.raises(InputError, match=r"serving\.params_b"):
        scenario_from_data({"serving": {**SERVING, "params_b": -1}})
    with pytest.raises(InputError, match=r"serving\.flavour"):
        scenario_from_data({"serving": {**SERVING, "flavour": "x"}})


def test_the_store_and_its_export_keep_the_request(store: ScenarioStore) -> None:
    saved = store.create(name="Serving", scenario=with_serving())
    assert store.load(scenario_id=saved.id).scenario.serving == with_serving().serving
    imported = store.import_json(text=store.export_json(scenario_id=saved.id))
    assert imported.scenario.serving == with_serving().serving


def test_a_scenario_saved_before_serving_existed_still_opens(store: ScenarioStore) -> None:
    scenario_id, old_json = saved_without(store, "serving")
    loaded = store.load(scenario_id=scenario_id)
    assert (loaded.scenario.gpus, loaded.scenario.serving) == (256, None)
    assert store.import_json(text=json.dumps(old_json)).scenario.serving is None


def test_the_comparison_rows_are_the_engines_figures() -> None:
    scenario = with_serving()
    plans = (
        plan(scenario=scenario, catalog=CATALOG),
        plan(scenario=scenario.with_updates(design_id="ib-ndr"), catalog=CATALOG),
    )
    found = serving_section.serving_of(plans=plans, catalog=CATALOG, request=scenario.serving)
    assert found is not None and len(found.estimates) == 2 and not found.problems
    frame = serving_section.serving_frame(found, {"rail8-npo": "A", "ib-ndr": "B"}, "en")
    assert list(frame.columns) == ["A", "B"]
    direct = estimate_serving(request=found.request, plan=plans[1], catalog=CATALOG)
    assert frame.loc["Output tokens/s per GPU", "B"] == serving_section._cell(
        round(direct.tokens_per_s_per_gpu, 1)
    )
    assert frame.loc["Time per output token [ms]", "B"] == serving_section._cell(
        round(direct.tpot_s * 1e3, 2)
    )
    zh = serving_section.serving_frame(found, {}, "zh")
    assert "每 GPU 输出 token/s" in zh.index
    assert serving_section.serving_of(plans=plans, catalog=CATALOG, request=None) is None


def test_a_design_that_cannot_serve_is_named_not_dropped_silently() -> None:
    scenario = Scenario(gpus=8, design_id="rail8-npo", serving={**SERVING, "params_b": 5000.0, "layers": None,
                                                                  "hidden_size": None})  # fmt: skip
    p = plan(scenario=scenario, catalog=CATALOG)
    found = serving_section.serving_of(plans=(p,), catalog=CATALOG, request=scenario.serving)
    assert found is not None and not found.estimates
    assert serving_section.serving_frame(found, {}, "en").empty
    (line,) = serving_section.problem_lines(found, {"rail8-npo": "8-rail"}, "en")
    assert line.startswith("8-rail: ")


def _proposal(scenario: Scenario, lang: str) -> proposal.Proposal:
    options = proposal.options_from_data(
        {"lang": lang, "edition": "internal", "design_ids": ["rail8-npo", "ib-ndr"]}
    )
    return proposal.build_proposal(scenario=scenario, catalog=CATALOG, options=options)


def _html(p: proposal.Proposal) -> str:
    html = proposal.proposal_html(p, {key: "data:," for key, _ in proposal.chart_figures(p)})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_no_request_no_section_and_no_sheet() -> None:
    p = _proposal(Scenario(gpus=64, design_id="rail8-npo"), "en")
    assert p.serving is None
    assert serving_section.ANCHOR not in [a for _, a in proposal.sections(p)]
    assert "Serving" not in [s.title for s in proposal.workbook_sheets(p)]


@pytest.mark.parametrize(("lang", "title", "row"), [("en", "Serving", "Time to first token [ms]"),
                                                    ("zh", "推理服务", "首 token 时延 TTFT [ms]")])  # fmt: skip
def test_the_proposal_has_a_serving_section_and_sheet(lang: str, title: str, row: str) -> None:
    p = _proposal(with_serving(), lang)
    assert p.serving is not None
    keys = [k for k, _ in proposal.sections(p)]
    # after the cost, before the rack elevations and the assumptions
    assert keys[-3:] == [serving_section.SECTION_KEY, "export.sec.elevations", "export.sec.assumptions"]
    body = _html(p)
    assert title in body and row in body
    e = p.serving.estimates[0][1]
    assert serving_section._cell(round(e.ttft_s * 1e3, 1)) in body
    sheets = {s.title: s for s in proposal.workbook_sheets(p)}
    assert title in sheets
    assert [r["design"] for r in sheets[title].rows] == [p.names[q.design_id] for q, _ in p.serving.estimates]
    book = load_workbook(io.BytesIO(proposal.workbook(p)))
    assert title in book.sheetnames
    assert isinstance(book[title].cell(row=2, column=3).value, int | float)
