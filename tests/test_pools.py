"""The disaggregated pools: storage and front-end sized from their own targets (planner/fabric/pools.py).

Golden numbers carry their derivation; the catalog figures are data/storage.yaml
(ddn_ai400x2_turbo: 80 GB/s write and read, 500 TB, 8 x 200G ports) and data/sizing.yaml
(0.122 GB/s and 1 TB per GPU, 2 storage ports per node).
"""

from __future__ import annotations

import json

import pytest

from planner.catalog import Catalog, load_catalog
from planner.cli import run
from planner.engine import plan
from planner.fabric.topology import small_clos
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.outputs import plan_to_dict
from planner.units import ceil_div


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def with_pools(gpus: int, design_id: str = "rail8-npo", **pools: object) -> Scenario:
    return scenario_from_data({"gpus": gpus, "design_id": design_id, "pools": pools})


@pytest.mark.parametrize("design_id", ["rail4-npo", "rail8-npo", "ib-ndr"])
@pytest.mark.parametrize("gpus", [8, 1024, 16_384])
def test_default_pools_are_todays_per_gpu_rule(catalog: Catalog, design_id: str, gpus: int) -> None:
    p = plan(scenario=Scenario(gpus=gpus, design_id=design_id), catalog=catalog)
    aux = p.auxiliary
    # the rule as it was: max(ceil(GPUs x 0.122 / 80), ceil(GPUs x 1 / 500), 1) units, 2 ports a node
    units = max(1, ceil_div(round(gpus * 0.122 * 1000), 80_000), ceil_div(gpus * 1000, 500_000))
    assert aux.storage_units == units and aux.storage_pool.from_rule
    assert aux.storage_fabric.switches == small_clos(endpoints=p.nodes * 2 + units * 8, radix=256).switches
    assert not aux.frontend.dedicated and aux.frontend.switches == 0
    assert not [line for line in p.bom if line.description.startswith("Front-end")]
    # the same targets given explicitly buy the same plan, line for line
    explicit = plan(
        scenario=with_pools(
            gpus, design_id, storage_write_gbyte_per_s=gpus * 0.122, storage_capacity_tbyte=float(gpus)
        ),
        catalog=catalog,
    )
    assert [(x.id, x.quantity) for x in explicit.bom] == [(x.id, x.quantity) for x in p.bom]
    assert explicit.cost.capex_usd == pytest.approx(p.cost.capex_usd)


def test_1024_gpus_storage_is_bound_by_capacity(catalog: Catalog) -> None:
    # write 1,024 x 0.122 = 124.9 GB/s -> 2 units; capacity 1,024 TB / 500 -> 3 units
    pool = plan(scenario=Scenario(gpus=1024), catalog=catalog).auxiliary.storage_pool
    assert (pool.units, pool.bound) == (3, "capacity")
    assert pool.write_target_gbyte_per_s == pytest.approx(124.928)


def test_storage_pool_is_independent_of_the_gpu_count(catalog: Catalog) -> None:
    # 4,000 TB / 500 = 8 units whether 1,024 or 8,192 GPUs use them (the rule would buy 3 and 17)
    sizes = [
        plan(
            scenario=with_pools(g, storage_capacity_tbyte=4000.0, storage_write_gbyte_per_s=100.0),
            catalog=catalog,
        )
        for g in (1024, 8192)
    ]
    assert [p.auxiliary.storage_units for p in sizes] == [8, 8]
    assert [p.auxiliary.storage_pool.bound for p in sizes] == ["capacity", "capacity"]
    # and compute does not move when storage grows: 100 TB vs 100,000 TB on 1,024 GPUs (the small
    # pool keeps the 2 units the per-GPU write rule needs: 124.9 GB/s / 80; the large one 200)
    small, large = (
        plan(scenario=with_pools(1024, storage_capacity_tbyte=tb), catalog=catalog)
        for tb in (100.0, 100_000.0)
    )
    assert small.topology == large.topology and small.gpus == large.gpus
    assert (small.auxiliary.storage_units, large.auxiliary.storage_units) == (2, 200)


def test_dataset_read_target_binds(catalog: Catalog) -> None:
    # 2,000 GB/s read / 80 GB/s per unit = 25 units (write 124.9 GB/s needs 2, capacity 3)
    pool = plan(
        scenario=with_pools(1024, storage_read_gbyte_per_s=2000.0), catalog=catalog
    ).auxiliary.storage_pool
    assert (pool.units, pool.bound, pool.read_gbyte_per_s) == (25, "read", 2000.0)


def test_storage_ports_per_node_follow_the_bandwidth_target(catalog: Catalog) -> None:
    # 10,000 GB/s over 128 nodes = 78.1 GB/s = 625 Gb/s per node -> ceil(625 / 200) = 4 ports (rule: 2)
    p = plan(scenario=with_pools(1024, storage_write_gbyte_per_s=10_000.0), catalog=catalog)
    pool = p.auxiliary.storage_pool
    assert (pool.ports_per_node, pool.units) == (4, 125)
    assert p.auxiliary.storage_fabric.endpoints == 128 * 4 + 125 * 8


def test_frontend_network_from_a_per_gpu_target(catalog: Catalog) -> None:
    # 50 Gb/s x 8 GPUs = 400 Gb/s per node on ConnectX-7 2 x 200G: 2 ports, 1 NIC per node;
    # 128 nodes x 2 + ceil(3,200 / 200) = 16 border ports = 272 ports on 256 x 200G switches:
    # ceil(272 / 128) = 3 leaves, 2 spines (the smallest divisor of 128 holding 384 uplinks)
    p = plan(
        scenario=with_pools(1024, frontend_gbit_per_s_per_gpu=50.0, frontend_egress_gbit_per_s=3200.0),
        catalog=catalog,
    )
    fe = p.auxiliary.frontend
    assert (fe.dedicated, fe.ports_per_node, fe.nics, fe.border_ports) == (True, 2, 128, 16)
    assert fe.fabric.switches_by_tier == (3, 2)
    lines = {x.description.split(" ")[2]: x.quantity for x in p.bom if x.description.startswith("Front-end")}
    assert lines == {"NIC": 128, "switch": 5}
    # the same target per node is the same network; the compute fabric and GPUs are untouched
    per_node = plan(
        scenario=with_pools(1024, frontend_gbit_per_s_per_node=400.0, frontend_egress_gbit_per_s=3200.0),
        catalog=catalog,
    )
    assert per_node.auxiliary.frontend == fe
    base = plan(scenario=Scenario(gpus=1024), catalog=catalog)
    assert base.topology == p.topology
    # its switches are managed out of band, and it costs what its lines say
    assert p.auxiliary.oob_fabric.endpoints == base.auxiliary.oob_fabric.endpoints + 5
    assert p.cost.by_category_usd["management"] > base.cost.by_category_usd["management"]


def test_json_pools_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(
        [
            "plan",
            "--gpus",
            "1024",
            "--storage-capacity-tbyte",
            "8000",
            "--frontend-gbit-per-gpu",
            "50",
            "--format",
            "json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    storage, frontend = data["pools"]["storage"], data["pools"]["frontend"]
    assert (storage["units"], storage["bound"], storage["capacity_tbyte"]) == (16, "capacity", 8000.0)
    assert (frontend["dedicated"], frontend["nic"], frontend["ports_per_node"]) == (True, "cx7_2x200g", 2)
    # every key of the default plan is kept; pools is an addition
    default = plan_to_dict(plan(scenario=Scenario(gpus=1024), catalog=load_catalog()))
    assert set(default) <= set(data)
    assert default["pools"]["frontend"]["dedicated"] is False
    assert default["pools"]["frontend"]["gbit_per_s_per_node"] == 100.0  # one 100G in-band port


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--storage-write-gbyte-per-s", "-3"], "pools.storage_write_gbyte_per_s"),
        (["--storage-capacity-tbyte", "0"], "pools.storage_capacity_tbyte"),
        (["--frontend-gbit-per-gpu", "10", "--frontend-gbit-per-node", "80"], "frontend_gbit_per_s_per_gpu"),
        (["--frontend-gbit-per-gpu", "10", "--frontend-nic", "cx8_800g"], "pools.frontend_nic_id"),
        (["--frontend-gbit-per-gpu", "10", "--frontend-nic", "nope"], "pools.frontend_nic_id: unknown"),
    ],
)
def test_bad_pool_targets_exit_2_naming_the_field(
    args: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(["plan", "--gpus", "64", *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and field in err[0]
