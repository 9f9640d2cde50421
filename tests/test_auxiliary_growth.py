"""Auxiliary fabrics grow with the cluster: no plan fails on management or storage switches."""

from __future__ import annotations

import pytest

from planner.catalog import Catalog, load_catalog
from planner.engine import plan
from planner.errors import InputError
from planner.inputs.scenario import Scenario


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_131072_gpus_plan_on_an_ethernet_preset(catalog: Catalog) -> None:
    # 16,384 nodes: the 32-port in-band switch holds 32^3/4 = 8,192 ports in three tiers, so the
    # in-band fabric grows a fourth tier instead of failing (it failed above ~65k GPUs before).
    p = plan(scenario=Scenario(gpus=131_072, design_id="rail8-npo"), catalog=catalog)
    assert p.topology.tiers == 3
    assert p.auxiliary.inband_fabric.tiers == 4
    assert (
        p.auxiliary.inband_fabric.leaves == 1041
    )  # ceil((16,384 nodes + 263 storage units) / 16) = ceil(16,647 / 16)


def test_ib_hdr_beyond_four_tiers_names_the_compute_fabric(catalog: Catalog) -> None:
    # 40-port HDR, rail-optimized: 40 blocks x 20 pods x 20 leaves / 8 rails x 20 nodes x 8 GPUs
    # = 320,000 GPUs (ib-ndr now plans 131,072 GPUs in four tiers: tests/test_scale_out.py).
    with pytest.raises(InputError, match=r"four-tier limit of this design \(320000 GPUs with 40-port"):
        plan(scenario=Scenario(gpus=1_048_576, design_id="ib-hdr"), catalog=catalog)
