"""The model's error bands: fitted to the validation suite's residuals, reproducible from
``make validation`` (planner/decision/bands.py; validation/error_bands.yaml)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from planner.decision.bands import (
    BANDS_PATH,
    FAMILIES,
    Z_BAND,
    ErrorBand,
    family_of,
    fit_band,
    fit_bands,
    load_bands,
    render_bands,
    residuals,
)
from planner.validation.cases import ValidationCase, load_cases
from planner.validation.run import CaseResult


@pytest.fixture(scope="module")
def cases() -> tuple[ValidationCase, ...]:
    return load_cases()


@pytest.fixture(scope="module")
def results(validation_results: tuple[CaseResult, ...]) -> tuple[CaseResult, ...]:
    return validation_results  # every case of load_cases(), evaluated once for the run


@pytest.fixture(scope="module")
def by_family(cases: tuple[ValidationCase, ...], results: tuple[CaseResult, ...]) -> dict[str, list[float]]:
    return {str(family): values for family, values in residuals(results, {c.id: c for c in cases}).items()}


def test_the_bands_file_is_what_make_validation_writes(
    cases: tuple[ValidationCase, ...], results: tuple[CaseResult, ...]
) -> None:
    fresh = render_bands(fit_bands(results, cases))
    assert BANDS_PATH.read_text(encoding="utf-8") == fresh, "stale: run `make validation`"


@pytest.mark.parametrize("family", FAMILIES)
def test_each_band_reproduces_its_validation_residuals(
    family: str, by_family: dict[str, list[float]]
) -> None:
    values = np.array(by_family[family])
    band = load_bands()[family]
    assert band.cases == len(values)
    if len(values) == 0:
        assert band.half_width_fraction == 0.0
        return
    # the stored bias and spread are the residuals' mean and (population) s.d., to the file's 4 decimals
    assert band.bias_log == pytest.approx(values.mean(), abs=5e-5)
    assert band.spread_log == pytest.approx(values.std(), abs=5e-5)
    # the band's log half-width z rms holds at least as many residuals as it claims to (80 %)
    # whenever the residuals are near normal; the RMS includes the bias, so the share inside
    # is never below half even for a skewed family
    inside = np.mean(np.abs(values) <= Z_BAND * band.rms_log + 1e-9)
    assert inside >= 0.5, (family, inside)


def test_calibration_cases_are_never_evidence(
    cases: tuple[ValidationCase, ...], results: tuple[CaseResult, ...]
) -> None:
    ids = {c.id for c in cases}
    calibration = [r for r in results if r.role == "calibration" and r.predicted is not None]
    assert calibration, "the suite has evaluated calibration cases"
    by_id = {c.id: c for c in cases if c.id in ids}
    only = residuals(calibration, by_id)
    assert all(not v for v in only.values())


def test_a_calibration_twin_is_no_evidence_either(
    cases: tuple[ValidationCase, ...], results: tuple[CaseResult, ...]
) -> None:
    # a validation figure of a calibrated run from another release agrees with the fit by construction
    twins = [r for r in results if r.calibration_twin and r.predicted is not None]
    assert twins, "the suite has validation cases with a calibration twin"
    by_id = {c.id: c for c in cases}
    assert all(not v for v in residuals(twins, by_id).values())
    # the same result without its twin counts
    untied = [dataclasses.replace(r, calibration_twin="") for r in twins]
    assert sum(len(v) for v in residuals(untied, by_id).values()) == len(twins)


def test_every_training_rate_case_has_a_family(cases: tuple[ValidationCase, ...]) -> None:
    moe = [c for c in cases if c.area == "training" and (c.inputs.experts or 1) > 1]
    assert moe and all(family_of(c) == "training_moe" for c in moe if c.quantity == "tokens_per_s")


def test_band_arithmetic() -> None:
    # residuals 0.01, -0.03, 0.02: mean 0, population s.d. sqrt((1 + 9 + 4) / 3) / 100 = 0.0216
    band = fit_band("collectives", [0.01, -0.03, 0.02])
    assert band.spread_log == pytest.approx(math.sqrt(14 / 3) / 100)
    # half-width exp(1.2816 x 0.0216) - 1 = 2.8 %
    assert band.half_width_fraction == pytest.approx(math.exp(1.28155 * 0.0216025) - 1, rel=1e-4)
    assert "3 published cases" in band.label()
    assert ErrorBand(family="cost", cases=0, bias_log=0.0, spread_log=0.0).label() == "no published case"
