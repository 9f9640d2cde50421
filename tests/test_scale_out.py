"""100k-class scale-out: four tiers where three run out, on Ethernet and InfiniBand presets.

Counts are derived by hand in the comments (docs/model.md, "Four tiers").
"""

from __future__ import annotations

import json

import pytest

from planner.catalog import Catalog, load_catalog
from planner.cli import run
from planner.engine import plan
from planner.inputs.scenario import Scenario
from planner.outputs import plan_to_dict


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_ib_ndr_plans_131072_gpus_in_four_tiers(catalog: Catalog) -> None:
    # 16,384 DGX H100, 8 rails of 64-port NDR: 8 x ceil(16,384 / 32) = 4,096 leaves in 128 pods
    # of 32; 4 blocks of 32 pods; 128 x 32 = 4,096 spines; 4 x 32 x 32 = 4,096 cores; top groups
    # of t = 2 (the smallest divisor of 32 with 4 x ceil(32 / t) <= 64): 32 x 32 x 2 = 2,048.
    p = plan(scenario=Scenario(gpus=131_072, design_id="ib-ndr"), catalog=catalog)
    t = p.topology
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.switches_core, t.switches_top) == (
        4,
        4096,
        4096,
        4096,
        2048,
    )
    # non-blocking: every tier carries the 131,072 GPU links
    assert (t.links_node_leaf, t.links_leaf_spine, t.links_spine_core, t.links_core_top) == (131_072,) * 4
    assert all(tc.ports_free == 0 for tc in t.tier_counts)
    assert p.latency.max_switch_hops == 7
    assert t.max_gpus_three_tier == 65_536 and t.max_gpus_four_tier == 2_097_152
    # the core-top links are priced and their switches are on the BOM
    assert [m.link_class for m in p.media] == ["node_leaf", "leaf_spine", "spine_core", "core_top"]
    top_lines = [line for line in p.bom if line.description.startswith("Top-tier switch")]
    assert [line.quantity for line in top_lines] == [2048]


def test_ethernet_preset_plans_131072_gpus(catalog: Catalog) -> None:
    # rail8-npo: 8 planes of 256 x 200G, a node puts 8 ports on each plane; leaves hold
    # floor(128 / 8) = 16 nodes: 16,384 / 16 = 1,024 leaves per plane, within three tiers
    # (256 pods x 128 leaves); 8 planes x 1,024 = 8,192 leaves.
    p = plan(scenario=Scenario(gpus=131_072, design_id="rail8-npo"), catalog=catalog)
    assert p.topology.tiers == 3
    assert p.topology.switches_leaf == 8 * 1024


def test_json_reports_tiers_and_switch_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["plan", "--gpus", "131072", "--design", "ib-ndr", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    fabric = data["fabric"]
    assert fabric["tiers"] == 4
    # switches.total counts the top tier; its own counts sit in top_tier
    assert fabric["switches"] == {"leaf": 4096, "spine": 4096, "core": 4096, "total": 14336}
    assert fabric["top_tier"] == {"switches": 2048, "links_core_top": 131_072}
    assert fabric["max_gpus_four_tier"] == 2_097_152
    # every key of a three-tier plan is still there
    small = plan_to_dict(plan(scenario=Scenario(gpus=1024, design_id="ib-ndr"), catalog=load_catalog()))
    assert set(small) <= set(data) and set(small["fabric"]) <= set(fabric)


@pytest.mark.parametrize("design_id", ["rail4-npo", "rail8-npo", "ib-ndr", "ib-xdr", "ib-hdr"])
@pytest.mark.parametrize("gpus", [65_536, 131_072, 262_144])
def test_no_plan_fails_on_an_auxiliary_fabric(catalog: Catalog, design_id: str, gpus: int) -> None:
    # up to the compute fabric's four-tier limit the storage and management fabrics grow with it
    p = plan(scenario=Scenario(gpus=gpus, design_id=design_id), catalog=catalog)
    aux = p.auxiliary
    assert aux.inband_fabric.leaves >= p.nodes // aux.inband_fabric.radix
    assert aux.storage_fabric.switches > 0 and aux.oob_fabric.switches > 0


def test_beyond_four_tiers_exits_2_naming_gpus(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["plan", "--gpus", "1048576", "--design", "ib-hdr"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "gpus: 1048576 GPUs exceed the four-tier limit of this design (320000 GPUs" in err[0]


def test_every_preset_plans_131072_gpus(catalog: Catalog) -> None:
    # no preset stops on its compute or auxiliary fabrics at 100k class (domains round up)
    for design_id in sorted(catalog.designs):
        p = plan(scenario=Scenario(gpus=131_072, design_id=design_id), catalog=catalog)
        assert p.gpus >= 131_072 and p.topology.tiers in (3, 4), design_id


def test_spectrum_x_multiplane_preset_at_1024_gpus(catalog: Catalog) -> None:
    # 128 B300 servers; each GPU's 800G port splits into 2 x 400G links, one per plane, so a
    # node puts 8 links on each of the 2 planes; 51.2T switches at 128 x 400G, 64 down:
    # leaves 8 rails x ceil(128 / 64) = 16 per plane, spines the smallest divisor of 64 uplinks
    # >= 16 x 64 / 128 = 8 -> 8 per plane; links 128 x 8 x 2 = 2,048 at 400G; modules: one 800G
    # DR8 per NIC port (1,024) and one twin-port 2 x 400G per two switch ports (1,024).
    p = plan(scenario=Scenario(gpus=1024, design_id="spectrumx-800g-2plane"), catalog=catalog)
    t = p.topology
    assert (t.planes, t.tiers, t.switches_leaf, t.switches_spine) == (2, 2, 32, 16)
    assert (p.server_ports.link_speed_gbit_per_s, p.bandwidth.per_gpu_gbit_per_s) == (400, 800.0)
    node_leaf = p.media[0]
    assert (node_leaf.links, node_leaf.lower.units, node_leaf.upper.units) == (2048, 1024, 1024)


def test_uec_800g_preset_at_1024_gpus(catalog: Catalog) -> None:
    # one plane at 800G on 102.4T switches (128 x 800G, 64 down): 8 rails x 2 = 16 leaves,
    # 8 spines; 1,024 node links with a DR8 at the NIC and a twin-port 1.6T module per two
    # switch ports (512)
    p = plan(scenario=Scenario(gpus=1024, design_id="uec-800g-th6"), catalog=catalog)
    t = p.topology
    assert (t.tiers, t.switches_leaf, t.switches_spine, t.port_speed_gbit_per_s) == (2, 16, 8, 800)
    node_leaf = p.media[0]
    assert (node_leaf.lower.optic_id, node_leaf.upper.optic_id) == ("osfp_800g_dr8", "osfp_1600g_2xdr4")
    assert (node_leaf.lower.units, node_leaf.upper.units) == (1024, 512)
    assert "thor_ultra_800g" in {line.id for line in p.bom}
