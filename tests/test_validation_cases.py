"""The published validation cases load, cite their source and keep calibration apart."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from planner.catalog import load_catalog
from planner.errors import CatalogError
from planner.validation import AREAS, ValidationCase, by_role, contradictions, load_cases

CASES = load_cases()

REQUIRED_FIELDS = [name for name, field in ValidationCase.model_fields.items() if field.is_required()]

VALID_CASE = {
    "id": "dgx-h100-max-power",
    "area": "power",
    "role": "validation",
    "quantity": "server_power_kw",
    "published": 10.2,
    "unit": "kW",
    "tolerance": {"relative": 0.02, "reason": "a maximum rating from the vendor"},
    "source": {
        "citation": "NVIDIA, DGX H100 User Guide",
        "locator": "Introduction",
        "url": "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html",
    },
    "inputs": {"gpus": 8, "gpu_id": "h100_sxm"},
}


def _write(folder: Path, area: str, cases: list[dict[str, object]]) -> Path:
    path = folder / f"{area}.yaml"
    path.write_text(yaml.safe_dump({"cases": cases}))
    return path


def test_every_case_loads_with_a_unique_id() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= 40


def test_every_case_cites_a_source_with_a_locator() -> None:
    for case in CASES:
        assert case.source.locator.strip(), case.id
        assert case.source.url.startswith("https://"), case.id


def test_validation_and_calibration_are_counted_apart() -> None:
    roles = by_role(CASES)
    assert len(roles["validation"]) >= 15
    assert len(roles["calibration"]) >= 1
    assert len(roles["validation"]) + len(roles["calibration"]) == len(CASES)


def test_every_area_has_a_validation_case() -> None:
    for area in AREAS:
        assert any(c.area == area and c.role == "validation" for c in CASES), area


def test_known_calibration_figures_are_marked_calibration() -> None:
    # Coefficients fitted to these figures: reliability rates (419 interruptions), nccl_efficiency 0.94
    # (46-48 GB/s), SCALE_UP_RING_EFFICIENCY 0.81 (ring busbw), base_power_w (10.2 kW).
    roles = {c.id: c.role for c in CASES}
    for case_id in (
        "llama3-unexpected-interruptions-54d",
        "ndr-400g-busbw-per-nic",
        "h100-8gpu-ring-busbw",
        "dgx-h100-max-power",
    ):
        assert roles[case_id] == "calibration", case_id


def test_catalog_references_exist() -> None:
    catalog = load_catalog()
    for case in CASES:
        inputs = case.inputs
        for family, record_id in (
            ("gpus", inputs.gpu_id),
            ("designs", inputs.design_id),
            ("servers", inputs.server_id),
            ("switches", inputs.switch_id),
        ):
            if record_id is not None:
                catalog.get(family, record_id)
        assert inputs.gpu_id is None or inputs.gpu is None, case.id


def test_training_layouts_multiply_to_the_gpu_count() -> None:
    for case in CASES:
        i = case.inputs
        if None not in (i.gpus, i.tp, i.pp, i.dp):
            assert i.tp * i.pp * i.dp * (i.cp or 1) == i.gpus, case.id  # type: ignore[operator]


def test_megatron_table_rows_are_all_present() -> None:
    # arXiv 2104.04473 Table 1 has ten rows, 1.7B to 1008B parameters.
    rows = [c for c in CASES if c.id.startswith("megatron-sc21-gpt-")]
    assert len(rows) == 10
    assert {c.published for c in rows} == {135, 137, 138, 140, 142, 148, 155, 163}


def test_agrees_uses_the_relative_tolerance() -> None:
    case = ValidationCase.model_validate(VALID_CASE)
    # 10.2 kW +/- 2 %: 9.996 ... 10.404
    assert case.agrees(model_value=10.4)
    assert not case.agrees(model_value=10.5)
    ranged = ValidationCase.model_validate({**VALID_CASE, "published": {"low": 46, "high": 48}})
    assert ranged.agrees(model_value=48.9) and not ranged.agrees(model_value=49.0)


def _variant(case_id: str, published: object, **inputs: object) -> ValidationCase:
    stated = {"gpus": 8, "gpu_id": "h100_sxm", **inputs}
    return ValidationCase.model_validate(
        {**VALID_CASE, "id": case_id, "published": published, "inputs": stated}
    )


def test_cases_of_identical_inputs_whose_figures_no_prediction_meets_contradict() -> None:
    # 10.2 kW +/- 2 % accepts 9.996 ... 10.404; 10.7 +/- 2 % accepts 10.486 ... 10.914: no overlap.
    # 10.5 accepts 10.29 ... 10.71, which meets both; a range 10.0-10.5 accepts 9.8 ... 10.71.
    base, far, between = _variant("a", 10.2), _variant("b", 10.7), _variant("c", 10.5)
    ranged = _variant("d", {"low": 10.0, "high": 10.5})
    assert contradictions((base, far, between, ranged)) == {"a": ("b",), "b": ("a",)}
    # the same figures on different inputs are two configurations, not a contradiction
    assert contradictions((base, _variant("e", 10.7, gpus=16))) == {}
    # nor are two quantities of the same configuration
    other = ValidationCase.model_validate(
        {**VALID_CASE, "id": "f", "published": 10.7, "quantity": "rack_power_kw"}
    )
    assert contradictions((base, other)) == {}


@pytest.mark.parametrize("field", REQUIRED_FIELDS)
def test_a_case_missing_a_required_field_fails_to_load(tmp_path: Path, field: str) -> None:
    broken = {k: v for k, v in VALID_CASE.items() if k != field}
    path = _write(tmp_path, "power", [broken])
    with pytest.raises(CatalogError, match=rf"power\.yaml: cases\[0\].*{field}: Field required"):
        load_cases(directory=tmp_path)
    assert path.exists()


@pytest.mark.parametrize("field", ["citation", "locator", "url"])
def test_a_source_missing_a_field_fails_to_load(tmp_path: Path, field: str) -> None:
    source = {k: v for k, v in VALID_CASE["source"].items() if k != field}  # type: ignore[attr-defined]
    _write(tmp_path, "power", [{**VALID_CASE, "source": source}])
    with pytest.raises(CatalogError, match=rf"source\.{field}: Field required"):
        load_cases(directory=tmp_path)


def test_a_valid_file_loads(tmp_path: Path) -> None:
    _write(tmp_path, "power", [VALID_CASE])
    assert [c.id for c in load_cases(directory=tmp_path)] == ["dgx-h100-max-power"]


def test_duplicate_ids_across_files_fail(tmp_path: Path) -> None:
    _write(tmp_path, "power", [VALID_CASE])
    _write(tmp_path, "topology", [{**VALID_CASE, "area": "topology"}])
    with pytest.raises(CatalogError, match=r"topology\.yaml: id 'dgx-h100-max-power' is already used"):
        load_cases(directory=tmp_path)


def test_a_case_in_the_wrong_file_fails(tmp_path: Path) -> None:
    _write(tmp_path, "memory", [VALID_CASE])
    with pytest.raises(CatalogError, match=r"area: 'power' does not match the file name 'memory\.yaml'"):
        load_cases(directory=tmp_path)


def test_unknown_fields_and_bad_values_are_named(tmp_path: Path) -> None:
    _write(tmp_path, "power", [{**VALID_CASE, "inputs": {"gpus": 8, "gpu_count": 8}}])
    with pytest.raises(CatalogError, match=r"inputs\.gpu_count: unknown key"):
        load_cases(directory=tmp_path)
    _write(tmp_path, "power", [{**VALID_CASE, "published": {"low": 48, "high": 46}}])
    with pytest.raises(CatalogError, match=r"low \(48\.0\) must not exceed high"):
        load_cases(directory=tmp_path)
    _write(tmp_path, "power", [{**VALID_CASE, "role": "calibration"}])
    with pytest.raises(CatalogError, match=r"must name the fitted coefficient"):
        load_cases(directory=tmp_path)


def test_an_empty_folder_or_a_bad_file_fails(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match=r"no validation case files"):
        load_cases(directory=tmp_path)
    (tmp_path / "power.yaml").write_text("- just a list\n")
    with pytest.raises(CatalogError, match=r"power\.yaml"):
        load_cases(directory=tmp_path)
