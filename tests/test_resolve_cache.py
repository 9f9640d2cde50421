"""The size-independent lookups of :func:`planner.resolve.resolve`, kept per catalog and ids.

A sweep resolves one scenario at many sizes; the records it names are looked up once
(``planner.resolve._KEPT_LOOKUPS``). These tests check that a kept answer is what a fresh
lookup gives for every field the answer depends on, and that only the very same catalog hits.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from planner import engine
from planner import resolve as resolve_module
from planner.catalog import Catalog
from planner.catalog.memo import IdentityCache
from planner.engine import plan
from planner.errors import InputError
from planner.inputs.scenario import Facility, Scenario
from planner.resolve import Resolved, resolve

BASE = Scenario(design_id="rail8-npo", gpus=512)

# each scenario differs from BASE (planned first, so its lookups are kept) in one id the lookups
# read: a key that left that id out would hand back BASE's records, and the comparison would fail
VARIANTS: dict[str, dict[str, Any]] = {
    "size": {"gpus": 1000},
    "design": {"design_id": "ib-ndr"},
    "scale-up design": {"design_id": "gb200-nvl72-ib-ndr", "gpus": 144},
    "gpu": {"gpu_id": "b300_hgx"},
    "server": {"gpu_id": "a100_sxm_80gb", "server_id": "dgx_a100_8gpu"},
    "storage": {"storage_id": "nvme_storage_node_2u"},
    "rack": {"facility": Facility(rack_id="rack_48u")},
    "cooling": {"facility": Facility(cooling_id="immersion")},
    "energy": {"facility": Facility(energy_price_id="cn_guizhou_dc")},
    "unknown rack": {"facility": Facility(rack_id="no_such_rack")},
}


def _fresh(scenario: Scenario, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> Resolved | str:
    """``resolve`` with an empty cache: the answer computed from scratch (or its error)."""
    with monkeypatch.context() as m:
        m.setattr(resolve_module, "_KEPT_LOOKUPS", IdentityCache(max_entries=8))
        return _outcome(scenario, catalog)


def _outcome(scenario: Scenario, catalog: Catalog) -> Resolved | str:
    try:
        return resolve(scenario=scenario, catalog=catalog)
    except InputError as e:
        return f"InputError: {e}"


@pytest.mark.parametrize("name", VARIANTS)
def test_kept_lookups_equal_a_fresh_resolve(
    name: str, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolve(scenario=BASE, catalog=catalog)  # BASE's lookups kept
    scenario = BASE.model_copy(update=VARIANTS[name])
    kept = _outcome(scenario, catalog)
    assert kept == _fresh(scenario, catalog, monkeypatch)
    assert kept != _outcome(BASE, catalog)  # the variant does change the answer


def test_custom_fabric_is_its_own_entry(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    preset = resolve(scenario=BASE, catalog=catalog)
    fabric = preset.fabric.model_copy(update={"switch_id": "th6_102t_switch"})
    custom = BASE.model_copy(update={"fabric": fabric})
    kept = _outcome(custom, catalog)
    assert kept == _fresh(custom, catalog, monkeypatch)
    assert isinstance(kept, Resolved) and kept.design_id == "rail8-npo-custom"


def test_sizes_share_the_very_records_and_only_that_catalog_hits(catalog: Catalog) -> None:
    small = resolve(scenario=BASE, catalog=catalog)
    large = resolve(scenario=BASE.model_copy(update={"gpus": 1024}), catalog=catalog)
    assert (small.nodes, large.nodes) == (64, 128)  # 512 and 1024 GPUs over 8 per server
    assert large.used is small.used and large.switch is small.switch
    other = copy.copy(catalog)  # equal records, another catalog: looked up afresh
    assert resolve(scenario=BASE, catalog=other).used is not small.used


def test_a_kept_scale_up_design_still_checks_the_size(catalog: Catalog) -> None:
    nvl72 = Scenario(design_id="gb200-nvl72-ib-ndr", gpus=144)
    kept = resolve(scenario=nvl72, catalog=catalog)  # its lookups kept, the tray among its records
    assert kept.scale_up_switch is not None and ("switches", kept.scale_up_switch) in kept.used
    with pytest.raises(InputError, match=r"fabric\.scale_up_domain_gpus"):
        resolve(scenario=nvl72.model_copy(update={"gpus": 36}), catalog=catalog)  # under one domain of 72


def test_sizes_of_a_design_share_one_assumption_list(catalog: Catalog) -> None:
    small = plan(scenario=BASE, catalog=catalog, layout_cable_lengths=False)
    large = plan(scenario=BASE.model_copy(update={"gpus": 1024}), catalog=catalog, layout_cable_lengths=False)
    assert large.assumptions is small.assumptions
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine, "_ASSUMPTION_LISTS", IdentityCache(max_entries=8))
        fresh = plan(scenario=BASE, catalog=catalog, layout_cable_lengths=False)
    assert fresh.assumptions == small.assumptions and fresh.assumptions is not small.assumptions
