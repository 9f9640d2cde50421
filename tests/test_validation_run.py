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
from planner.validation.cases import AREAS, ValidationCase, load_cases
from planner.validation.run import CaseResult, error_fraction, evaluate, run_all, summarize, summary_line

ROOT = Path(__file__).resolve().parents[1]
KNOWN_GAPS = ROOT / "validation" / "known_gaps.yaml"


@pytest.fixture(scope="module")
def results() -> tuple[CaseResult, ...]:
    return run_all()


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
        assert measured is not None and (measured > 0) == (float(str(gap["measured_error"])) > 0), case_id


def test_calibration_is_counted_apart(results: tuple[CaseResult, ...]) -> None:
    v, c = summarize(results, role="validation"), summarize(results, role="calibration")
    assert v.total + c.total == len(results)
    assert v.total == sum(r.role == "validation" for r in results)
    line = summary_line(results)
    assert line.startswith(f"validation: {v.passed} pass / {v.failed} fail / {v.not_modelled} not modelled")
    assert f"calibration (fitted, not evidence): {c.passed} pass" in line


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
    half_nics = evaluate(_case(nics_per_node=4), catalog=catalog)
    assert half_nics.status == "not_modelled" and "4 NIC ports" in half_nics.reason
    cp = next(c for c in load_cases() if c.id == "llama3-405b-16384gpu-seq128k")
    assert "context parallelism" in evaluate(cp, catalog=catalog).reason


# --- planner validate ---------------------------------------------------------------------------


def test_cli_areas_are_the_schema_areas() -> None:
    assert validate_cli.AREAS == AREAS


def test_validate_exit_code_follows_the_validation_cases(
    results: tuple[CaseResult, ...], capsys: pytest.CaptureFixture[str]
) -> None:
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
