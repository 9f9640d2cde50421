"""Tenant placement: the tenant file, the allocator's properties (no GPU or guaranteed port given
twice, every guarantee met or reported, a dedicated plane shared with nobody), the worked example,
the design comparison and the CLI."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner import plan
from planner.catalog import load_catalog
from planner.cli import run
from planner.errors import InputError
from planner.inputs.scenario import Scenario
from planner.tenancy.fabric import FabricView, fabric_view
from planner.tenancy.place import Placement, place
from planner.tenancy.run import compare_designs, cost_inputs, placement_to_dict
from planner.tenancy.tenants import ISOLATIONS, TenantSet, load_tenants, tenants_from_data

EXAMPLE = [
    {"name": "foundation", "gpus": 512, "isolation": "plane", "bandwidth_gbit_per_s_per_gpu": 400, "storage_gbyte_per_s": 100},
    {"name": "finetune", "gpus": 256, "isolation": "leaf", "bandwidth_gbit_per_s_per_gpu": 400, "storage_gbyte_per_s": 50},
    {"name": "inference", "gpus": 128, "isolation": "domain", "bandwidth_gbit_per_s_per_gpu": 200},
    {"name": "research", "gpus": 128, "isolation": "shared", "bandwidth_gbit_per_s_per_gpu": 100},
]  # fmt: skip
"""The README's worked example: 1024 GPUs shared by four tenants with different isolation."""

FABRICS = [
    ("rail8-npo", 512),
    ("rail4-npo", 512),
    ("ib-ndr", 512),
    ("gb200-nvl72-ib-ndr", 576),
    ("ib-ndr", 8),
]
"""Fabrics of the property tests: 8 and 4 planes, one plane with rail leaves, 18-server scale-up
domains with switch trays, and a cluster without a scale-out fabric."""


@cache
def _fabric(design: str, gpus: int) -> tuple[FabricView, object]:
    catalog = load_catalog()
    p = plan(scenario=Scenario(gpus=gpus, design_id=design), catalog=catalog)
    return fabric_view(plan=p, catalog=catalog), cost_inputs(p)


def _place(design: str, gpus: int, tenants: TenantSet) -> Placement:
    view, cost = _fabric(design, gpus)
    return place(view=view, tenants=tenants, cost=cost)  # type: ignore[arg-type]


@st.composite
def tenant_sets(draw: st.DrawFn, cluster_gpus: int) -> TenantSet:
    count = draw(st.integers(1, 6))
    budget = cluster_gpus
    items = []
    for n in range(count):
        if budget < 1:
            break
        gpus = draw(st.integers(1, max(1, min(budget, cluster_gpus // 2 + 1))))
        budget -= gpus
        items.append(
            {
                "name": f"t{n}",
                "gpus": gpus,
                "isolation": draw(st.sampled_from(ISOLATIONS)),
                "bandwidth_gbit_per_s_per_gpu": draw(st.sampled_from([0, 100, 200, 400, 800, 1600])),
                "storage_gbyte_per_s": draw(st.sampled_from([0, 10, 40, 100])),
            }
        )
    return tenants_from_data(items)


def _check_properties(placement: Placement, tenants: TenantSet) -> None:
    gpus = [g for t in placement.tenants for g in t.gpu_slots]
    assert len(gpus) == len(set(gpus)), "a GPU given twice"
    ports = [p for t in placement.tenants for p in t.ports]
    assert len(ports) == len(set(ports)), "a guaranteed port given twice"
    unmet = {(u.name, u.field): u.shortfall for u in placement.unmet}
    for t, asked in zip(placement.tenants, tenants.tenants, strict=True):
        assert t.allocated_gpus == len(t.gpu_slots)
        if t.allocated_gpus < asked.gpus:
            assert unmet[(t.name, "gpus")] == pytest.approx(asked.gpus - t.allocated_gpus)
        else:
            assert (t.name, "gpus") not in unmet
        short_bw = asked.bandwidth_gbit_per_s_per_gpu - t.guaranteed_gbit_per_s_per_gpu
        if short_bw > 1e-9:
            assert unmet[(t.name, "bandwidth_gbit_per_s_per_gpu")] == pytest.approx(short_bw)
        else:
            assert (t.name, "bandwidth_gbit_per_s_per_gpu") not in unmet
        short_storage = asked.storage_gbyte_per_s - t.storage_gbyte_per_s
        assert (short_storage > 1e-9) == ((t.name, "storage_gbyte_per_s") in unmet)
    for t in placement.tenants:
        if t.isolation == "plane" and t.allocated_gpus:
            others = {s for o in placement.tenants if o.name != t.name for s in o.switches}
            assert not set(t.switches) & others, "a dedicated-plane tenant shares a switch"
            assert not set(t.planes) & {p for o in placement.tenants if o.name != t.name for p in o.planes}
    assert placement.free_gpus == placement.cluster_gpus - len(gpus)


@pytest.mark.parametrize(("design", "gpus"), FABRICS)
def test_placement_properties_hold_for_any_tenant_set(design: str, gpus: int) -> None:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(tenants=tenant_sets(gpus))
    def check(tenants: TenantSet) -> None:
        _check_properties(_place(design, gpus, tenants), tenants)

    check()


def test_worked_example_on_rail8_npo_and_ib_ndr() -> None:
    tenants = tenants_from_data(EXAMPLE)
    rail8, ib = compare_designs(
        scenario=Scenario(gpus=1024), catalog=load_catalog(), tenants=tenants, designs=("rail8-npo", "ib-ndr")
    )
    _check_properties(rail8, tenants)
    _check_properties(ib, tenants)
    foundation, finetune, inference, research = rail8.tenants
    # 400 Gb/s per GPU over 200 Gb/s per plane (1600 Gb/s on 8 planes) = 2 dedicated planes
    assert foundation.planes == ("p1", "p2")
    assert foundation.guaranteed_gbit_per_s_per_gpu == 400
    assert finetune.planes == ("p3", "p4", "p5", "p6", "p7", "p8")
    # best effort of the others: 6 planes x 200 Gb/s
    assert research.best_effort_gbit_per_s_per_gpu == pytest.approx(1200)
    # dark links: 512 foundation GPUs x 6 other planes + 512 other GPUs x 2 foundation planes
    assert rail8.stranded_ports == 512 * 6 + 512 * 2
    assert rail8.stranded_gpus == 0 and rail8.unmet == ()
    # a leaf group of rail8-npo at 1024 GPUs is 16 servers (128 GPUs): 256 GPUs span two, 3 hops
    assert finetune.worst_hops == 3 and inference.worst_hops == 1
    assert sum(t.capex_share_usd for t in rail8.tenants) == pytest.approx(
        _plan_capex("rail8-npo") - rail8.unallocated_capex_usd
    )
    # the foundation tenant pays for the links its planes darken: above its GPU share
    assert foundation.usd_per_gpu_hour > research.usd_per_gpu_hour
    # ib-ndr has one plane: the plane tenant cannot be isolated and is not placed
    assert {(u.name, u.field): u.shortfall for u in ib.unmet} == {
        ("foundation", "isolation"): 1,  # planes it asked for on a one-plane fabric: 400 / 400
        ("foundation", "gpus"): 512,
        ("foundation", "bandwidth_gbit_per_s_per_gpu"): 400,
    }
    assert ib.tenants[0].allocated_gpus == 0 and ib.free_gpus == 512
    # a leaf group of ib-ndr at 1024 GPUs is 32 servers (8 rails x 32 down ports): 256 GPUs, 1 hop
    assert ib.tenants[1].worst_hops == 1 and ib.tenants[1].allocated_gpus == 256


def _plan_capex(design: str) -> float:
    return plan(scenario=Scenario(gpus=1024, design_id=design), catalog=load_catalog()).cost.capex_usd


def test_ids_are_the_hand_off_device_ids() -> None:
    from planner.handoff import build_wiring

    catalog = load_catalog()
    p = plan(scenario=Scenario(gpus=576, design_id="gb200-nvl72-ib-ndr"), catalog=catalog)
    devices = {d.device_id for d in build_wiring(plan=p, catalog=catalog).devices}
    tenants = tenants_from_data(
        [{"name": "a", "gpus": 144, "isolation": "domain"}, {"name": "b", "gpus": 300}]
    )
    placement = _place("gb200-nvl72-ib-ndr", 576, tenants)
    for t in placement.tenants:
        assert set(t.servers) <= devices and set(t.switches) <= devices
    # two 72-GPU domains with their NVSwitch trays
    assert placement.tenants[0].allocated_gpus == 144
    assert any(s.startswith("nvsw-") for s in placement.tenants[0].switches)


def test_leaf_isolation_strands_the_rest_of_a_leaf_group() -> None:
    # ib-ndr at 1024 GPUs: a leaf group is 32 servers = 256 GPUs; 100 GPUs reserve all 256
    placement = _place_1024("ib-ndr", [{"name": "a", "gpus": 100, "isolation": "leaf"}])
    assert placement.tenants[0].allocated_gpus == 256
    assert placement.stranded_gpus == 156


def _place_1024(design: str, items: list[dict[str, object]]) -> Placement:
    catalog = load_catalog()
    p = plan(scenario=Scenario(gpus=1024, design_id=design), catalog=catalog)
    view = fabric_view(plan=p, catalog=catalog)
    return place(view=view, tenants=tenants_from_data(items), cost=cost_inputs(p))


def test_oversubscribed_guarantee_reported_with_its_shortfall() -> None:
    # one tenant asking 500 Gb/s per GPU on ib-ndr (400 Gb/s per GPU): short by 100
    placement = _place(
        "ib-ndr", 512, tenants_from_data([{"name": "a", "gpus": 64, "bandwidth_gbit_per_s_per_gpu": 500}])
    )
    assert [(u.field, u.shortfall) for u in placement.unmet] == [("bandwidth_gbit_per_s_per_gpu", 100.0)]


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("[{name: a, gpus: 2000}]", "gpus"),
        ("[{name: a, gpus: 8, isolation: rack}]", "tenants.0.isolation"),
        ("[{name: a, gpus: 8, bandwidth_gbit_per_s_per_gpu: -1}]", "tenants.0.bandwidth_gbit_per_s_per_gpu"),
        ("[{name: a, gpus: 8}, {name: a, gpus: 8}]", "tenants.1.name"),
        ("[{name: a, gpus: 8, colour: red}]", "tenants.0.colour"),
    ],
)
def test_bad_tenant_files_exit_2_with_one_line_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, field: str
) -> None:
    path = tmp_path / "tenants.yaml"
    path.write_text(content, encoding="utf-8")
    assert run(["tenants", "place", "--gpus", "1024", "--design", "rail8-npo", "--tenants", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and f"{field}:" in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tenants.yaml"]


def test_place_json_has_the_interface_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tenants.json"
    path.write_text(json.dumps(EXAMPLE[1:]), encoding="utf-8")
    code = run(
        [
            "tenants",
            "place",
            "--gpus",
            "512",
            "--design",
            "rail8-npo",
            "--tenants",
            str(path),
            "--format",
            "json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert {"tenants", "stranded_gpus", "unmet"} <= set(data)
    keys = {"name", "gpus", "isolation", "servers", "switches", "planes", "racks", "guaranteed_gbit_per_s_per_gpu",
            "worst_hops", "capex_share_usd", "usd_per_gpu_hour"}  # fmt: skip
    assert all(keys <= set(t) for t in data["tenants"])
    assert data["tenants"][0]["servers"][0].startswith("gpu-node-")


def test_compare_table_lists_every_design(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tenants.yaml"
    path.write_text("[{name: a, gpus: 64, isolation: plane}, {name: b, gpus: 64}]", encoding="utf-8")
    assert run(["tenants", "compare", "--gpus", "256", "--tenants", str(path)]) == 0
    out = capsys.readouterr().out
    assert all(d in out for d in ("rail4-npo", "rail8-npo", "ib-ndr"))


def test_load_tenants_reads_a_mapping_and_bytes() -> None:
    tenants = load_tenants(b"tenants:\n  - {name: a, gpus: 8, isolation: leaf}\n", name="t.yaml")
    assert tenants.tenants[0].isolation == "leaf"
    with pytest.raises(InputError, match="empty"):
        load_tenants(b"", name="t.yaml")


def test_placement_to_dict_leaves_out_per_gpu_lists() -> None:
    placement = _place("ib-ndr", 512, tenants_from_data([{"name": "a", "gpus": 8}]))
    tenant = placement_to_dict(placement)["tenants"][0]
    assert "gpu_slots" not in tenant and "ports" not in tenant
