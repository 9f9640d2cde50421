"""Validation cases that state their own scale-out fabric (``inputs.stated_fabric``): planned on the
stand-in design for their GPU with the network scaled to the stated line rate, never a design
preset (``validation/README.md``, "A fabric without a design preset")."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from planner import load_catalog
from planner.catalog import Catalog
from planner.validation.cases import StatedFabric, ValidationCase, load_cases
from planner.validation.run import _plan, _stated_fabric, evaluate


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _bloom(**changes: object) -> ValidationCase:
    """BLOOM-176B on Jean Zay (4 x Omni-Path 100 Gb/s per 8-GPU node) with ``changes`` to its inputs."""
    case = next(c for c in load_cases() if c.id == "bloom-176b-384gpu")
    return case.model_copy(update={"inputs": case.inputs.model_copy(update=changes)})


def test_network_levels_scale_to_the_stated_line_rate_per_gpu(catalog: Catalog) -> None:
    case = _bloom()
    plan, _ = _plan(case, catalog)
    stand_in = plan.bandwidth.fabric
    fabric, note = _stated_fabric(case, catalog, plan)
    assert fabric is not None
    # 4 ports x 100 Gb/s / 8 GPUs = 50 Gb/s per GPU; the A100 stand-in ib-hdr has one 200 Gb/s
    # port per GPU: factor 50 / 200 = 0.25 on every network level, none on the NVLink level
    assert fabric.scale_up == stand_in.scale_up
    for mine, theirs in zip(fabric.levels[1:], stand_in.levels[1:], strict=True):
        assert mine.bandwidth_gbyte_per_s == pytest.approx(0.25 * theirs.bandwidth_gbyte_per_s)
        assert mine.alpha_us == theirs.alpha_us
    assert "4 x 100 Gb/s per server" in note and "ib-hdr at 0.25" in note
    assert "omni_path at infiniband efficiency" in note


def test_the_result_names_the_stated_fabric(catalog: Catalog) -> None:
    result = evaluate(_bloom(), catalog=catalog)
    assert result.status != "not_modelled"
    assert "stated fabric 4 x 100 Gb/s per server" in result.reason


def test_without_a_stated_fabric_the_case_is_not_modelled(catalog: Catalog) -> None:
    result = evaluate(_bloom(stated_fabric=None), catalog=catalog)
    assert result.status == "not_modelled"
    assert "fabric without a design preset: Jean Zay" in result.reason


def test_a_design_preset_wins_over_a_stated_fabric(catalog: Catalog) -> None:
    case = _bloom(design_id="ib-hdr")
    plan, _ = _plan(case, catalog)
    assert _stated_fabric(case, catalog, plan) == (None, "")
    assert "stated fabric" not in evaluate(case, catalog=catalog).reason


def test_a_stated_fabric_takes_only_the_topologies_the_model_builds() -> None:
    stated = _bloom().inputs.stated_fabric
    assert stated is not None
    with pytest.raises(ValidationError, match="topology"):
        StatedFabric.model_validate({**stated.model_dump(), "topology": "hypercube"})


def test_stated_fabrics_are_not_design_presets(catalog: Catalog) -> None:
    # the fabric of a published run stays in its case: no design for it in users' lists
    assert all("omni" not in d.id and "jean" not in d.id for d in catalog.designs.values())
