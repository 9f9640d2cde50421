"""The validation runner: every case evaluates, calibration stays apart from validation, the known
gaps are exactly the failing validation cases, ``planner validate`` and the generated docs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from planner import load_catalog
from planner.cli import run
from planner.cli import validate as validate_cli
from planner.report import validation_docs as validation_report
from planner.validation.cases import AREAS, ValidationCase, calibration_twins, load_cases
from planner.validation.run import CaseResult, error_fraction, evaluate, summarize, summary_line

ROOT = Path(__file__).resolve().parents[1]
KNOWN_GAPS = ROOT / "validation" / "known_gaps.yaml"


@pytest.fixture(scope="module")
def results(validation_results: tuple[CaseResult, ...]) -> tuple[CaseResult, ...]:
    return validation_results


def _gaps() -> dict[str, dict[str, object]]:
    data = yaml.safe_load(KNOWN_GAPS.read_text(encoding="utf-8"))
    return {g["id"]: g for g in data["gaps"]}


def _case(**changes: object) -> ValidationCase:
    """The 2-SU DGX B200 SuperPOD spine count with ``changes`` applied to its inputs."""
    case = next(c for c in load_cases() if c.id == "superpod-b200-ndr-2su-spine")
    return case.model_copy(update={"inputs": case.inputs.model_copy(update=changes)})


def test_every_case_is_evaluated(results: tuple[CaseResult, ...]) -> None:
    assert [r.id for r in results] == [c.id for c in load_cases()]
    for r in results:
        if r.status == "not_modelled":
            assert r.predicted is None and r.error_fraction is None and r.reason, r.id
        else:
            assert r.predicted is not None and r.error_fraction is not None, r.id


def test_status_follows_the_tolerance(results: tuple[CaseResult, ...]) -> None:
    for r in results:
        if r.status != "not_modelled":
            assert r.predicted is not None
            inside = (
                r.published_low * (1 - r.tolerance) <= r.predicted <= r.published_high * (1 + r.tolerance)
            )
            assert (r.status == "pass") == inside, r.id


def test_failing_validation_cases_are_exactly_the_known_gaps(results: tuple[CaseResult, ...]) -> None:
    """A new failure must be listed with its reason; a listed case that passes must leave the list."""
    gaps = _gaps()
    failing = {r.id for r in results if r.role == "validation" and r.status == "fail"}
    assert failing - set(gaps) == set(), "validation cases failing but not in validation/known_gaps.yaml"
    assert set(gaps) - failing == set(), "listed in validation/known_gaps.yaml but no longer failing"
    by_id = {r.id: r for r in results}
    for case_id, gap in gaps.items():
        assert str(gap["reason"]).strip() and str(gap["closes_it"]).strip(), case_id
        measured = by_id[case_id].error_fraction
        # the error a gap states is the one planner validate gives, to the percent point
        assert measured is not None and float(str(gap["measured_error"])) == pytest.approx(
            measured, abs=0.01
        ), (
            case_id,
            measured,
        )


def test_contradicting_cases_never_pass_together_and_their_gaps_name_them(
    results: tuple[CaseResult, ...],
) -> None:
    """A pair no prediction can meet is named on both sides; at most one of it passes, and a failing
    one's known gap names the case that contradicts it."""
    by_id = {r.id: r for r in results}
    gaps = _gaps()
    contradicted = [r for r in results if r.contradicted_by]
    assert contradicted, "the 26.06.01 GPT-OSS rows contradict the 26.06 and 26.08 rows of the same inputs"
    for r in contradicted:
        for other in r.contradicted_by:
            assert r.id in by_id[other].contradicted_by, (r.id, other)
            assert not (r.status == "pass" and by_id[other].status == "pass"), (r.id, other)
        if r.role == "validation" and r.status == "fail":
            assert any(other in str(gaps[r.id]["reason"]) for other in r.contradicted_by), r.id
    line = str(summary_line(results))
    validation = [r for r in contradicted if r.role == "validation"]
    passed = sum(r.status == "pass" for r in validation)
    assert f"; {len(validation)} contradicted by a case of identical inputs" in line
    assert f"{passed} of those pass); calibration" in line


def test_calibration_is_counted_apart(results: tuple[CaseResult, ...]) -> None:
    v, c = summarize(results, role="validation"), summarize(results, role="calibration")
    assert v.total + c.total == len(results)
    assert v.total == sum(r.role == "validation" for r in results)
    line = summary_line(results)
    assert line.startswith(f"validation: {v.passed} pass / {v.failed} fail / {v.not_modelled} not modelled")
    assert f"calibration (fitted, not evidence): {c.passed} pass" in line


def test_a_validation_figure_of_a_calibrated_run_is_counted_apart(results: tuple[CaseResult, ...]) -> None:
    """The same training run on paper (GPU, count, model, layout, precision) from another release
    repeats its calibration twin: weak evidence, named in the summary and the table."""
    by_id = {c.id: c for c in load_cases()}
    calibrated = by_id["megatron-bridge-qwen3-30b-a3b-h100-fp8"]
    again = calibrated.model_copy(update={"id": "again", "role": "validation"})
    other_layout = again.model_copy(
        update={"id": "other-layout", "inputs": again.inputs.model_copy(update={"ep": 4})}
    )
    assert calibration_twins((calibrated, again, other_layout)) == {"again": calibrated.id}
    assert calibration_twins((again,)) == {}, "no calibration case, no twin"
    twins = [r for r in results if r.calibration_twin]
    assert twins and all(
        r.role == "validation" and by_id[r.calibration_twin].role == "calibration" for r in twins
    )
    line = str(summary_line(results))
    assert f"({len(twins)} of them the same run on paper as a calibration case" in line


def test_error_is_measured_to_the_nearer_end_of_a_range() -> None:
    # 45.3 below 46-48: (45.3 - 46) / 46; 50 above: (50 - 48) / 48; inside: 0
    assert error_fraction(predicted=45.3, low=46, high=48) == pytest.approx(-0.7 / 46)
    assert error_fraction(predicted=50, low=46, high=48) == pytest.approx(2 / 48)
    assert error_fraction(predicted=47, low=46, high=48) == 0.0


def test_a_switch_count_goes_through_the_engine() -> None:
    # 64 DGX B200 x 8 rails on 64-port QM9700: 16 leaves (32 down / 32 up), 512 uplinks / 64 = 8 spines
    result = evaluate(_case(), catalog=load_catalog())
    assert (result.status, result.predicted) == ("pass", 8.0)
    wrong = evaluate(_case(gpus=1024, nodes=128), catalog=load_catalog())
    assert (wrong.status, wrong.predicted) == ("fail", 16.0)


def test_what_the_model_cannot_take_is_not_modelled_never_a_number() -> None:
    catalog = load_catalog()
    no_gpu = evaluate(_case(gpu_id=None, gpu="B300 (DGX B300)"), catalog=catalog)
    assert (no_gpu.status, no_gpu.predicted) == ("not_modelled", None)
    assert "B300" in no_gpu.reason
    no_design = evaluate(_case(design_id=None, fabric="XDR, 8 rails"), catalog=catalog)
    assert no_design.status == "not_modelled" and "XDR" in no_design.reason
    # 4 ports for 8 GPUs is a design ratio now (gpus_per_port); 3 for 8 divides neither way
    odd_nics = evaluate(_case(nics_per_node=3), catalog=catalog)
    assert odd_nics.status == "not_modelled" and "3 NIC ports" in odd_nics.reason
    # a fabric without a design preset: the reason names the fabric, not the layout
    cp = _training_case("llama3-405b-16384gpu-seq128k", design_id=None)
    assert "fabric without a design preset: Meta RoCE" in evaluate(cp, catalog=catalog).reason
    fp32 = _training_case("megatron-sc21-gpt-39p1b", precision="fp32")
    assert "fp32 math" in evaluate(fp32, catalog=catalog).reason


def _training_case(case_id: str, **changes: object) -> ValidationCase:
    case = next(c for c in load_cases() if c.id == case_id)
    return case.model_copy(update={"inputs": case.inputs.model_copy(update=changes)})


def test_context_parallelism_zero_and_no_recompute_are_evaluated() -> None:
    """Inputs the training model v2 takes are passed, never reported as not modelled."""
    catalog = load_catalog()
    # Llama 3 405B at 128k tokens, cp = 16, on the NDR preset (400 Gb/s per GPU like Meta's RoCE)
    cp = evaluate(_training_case("llama3-405b-16384gpu-seq128k", design_id="ib-ndr"), catalog=catalog)
    assert cp.status != "not_modelled" and cp.predicted is not None and cp.predicted > 0, cp.reason
    zero3 = evaluate(_training_case("megatron-sc21-gpt-39p1b", zero_stage=3), catalog=catalog)
    assert zero3.predicted is not None, zero3.reason
    no_recompute = evaluate(
        _training_case("korthikanti-mfu-22b", recompute="none", sequence_parallel=True), catalog=catalog
    )
    assert no_recompute.predicted is not None, no_recompute.reason


def test_flops_are_read_as_the_source_counts_them() -> None:
    """Megatron SC21 counts hardware FLOPs (recomputation included), Llama 3 model FLOPs: under
    full recomputation hardware / model = 8 / 6 for the layers, a little less with the logits."""
    catalog = load_catalog()
    hardware = evaluate(_training_case("megatron-sc21-gpt-39p1b"), catalog=catalog)
    model = evaluate(_training_case("megatron-sc21-gpt-39p1b", flops_counted="model"), catalog=catalog)
    assert hardware.predicted is not None and model.predicted is not None
    assert 1.25 < hardware.predicted / model.predicted <= 8 / 6 + 1e-9
    unstated = evaluate(_training_case("megatron-sc21-gpt-39p1b", flops_counted=None), catalog=catalog)
    assert unstated.status == "not_modelled" and "recomputation" in unstated.reason


def test_zero_state_memory_is_the_papers_arithmetic() -> None:
    # 7.5e9 parameters, dp 64: stage 0 16 B, stage 1 4 + 12/64 B, stage 2 2 + 14/64 B per parameter
    catalog = load_catalog()
    for stage, gbyte in ((0, 120.0), (1, 7.5 * (4 + 12 / 64)), (2, 7.5 * (2 + 14 / 64))):
        r = evaluate(_training_case("zero-7p5b-baseline", zero_stage=stage), catalog=catalog)
        assert r.predicted == pytest.approx(gbyte), stage


# --- planner validate ---------------------------------------------------------------------------


def test_cli_areas_are_the_schema_areas() -> None:
    assert validate_cli.AREAS == AREAS


def test_validate_exit_code_follows_the_validation_cases(
    results: tuple[CaseResult, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    # the command hides nothing: any failing validation case, known gap or not, exits 1
    failing = any(r.role == "validation" and r.status == "fail" for r in results)
    assert run(["validate"]) == (1 if failing else 0)
    out = capsys.readouterr().out
    assert str(summary_line(results)) in out
    # calibration cases never fail the command
    assert run(["validate", "--role", "calibration"]) == 0


def test_validate_json_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["validate", "--area", "topology", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {c["area"] for c in data["cases"]} == {"topology"}
    assert set(data["summary"]) == {"validation", "calibration"}
    assert run(["validate", "--area", "power", "--format", "markdown"]) == 0
    assert "| [dgx-h100-max-power](https://docs.nvidia.com" in capsys.readouterr().out


def test_validate_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["validate", "--area", "optics"]) == 2
    assert "--area" in capsys.readouterr().err


# --- generated docs -----------------------------------------------------------------------------


def test_docs_and_readme_are_up_to_date(results: tuple[CaseResult, ...]) -> None:
    """Regenerate in memory; run ``make validation`` when this fails."""
    docs = validation_report.DOCS_PATH.read_text(encoding="utf-8")
    assert docs == validation_report.render_docs(results), "docs/validation.md is stale: make validation"
    readme = validation_report.README_PATH.read_text(encoding="utf-8")
    assert readme == validation_report.render_readme(readme, results), "README.md is stale: make validation"


def test_readme_block_is_replaced_between_the_markers(results: tuple[CaseResult, ...]) -> None:
    text = f"intro\n{validation_report.BEGIN}\nold\n{validation_report.END}\nrest\n"
    new = validation_report.render_readme(text, results)
    assert new.startswith(f"intro\n{validation_report.BEGIN}\nvalidation: ")
    assert new.endswith(f"{validation_report.END}\nrest\n") and "old" not in new
    assert "| training |" in new


def test_every_area_has_a_chart_symbol_and_a_label() -> None:
    from planner.report.validation import AREA_KEYS, AREA_SYMBOLS
    from planner.validation.cases import AREAS

    assert set(AREA_SYMBOLS) == set(AREAS) == set(AREA_KEYS)
