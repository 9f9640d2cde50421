"""What a sweep keeps from one size to the next changes no result.

A sweep reuses texts (:func:`planner.i18n.message.kept_msg`), the assumption list and catalog
searches across its sizes, and copies the validated scenario with each GPU count
(``planner.compare._with_gpus``). Each test below fails if a kept object leaks from one plan into
another where it does not belong. The full check over three sweeps, every field of their plans and
a grid sweep is ``bench/sweep_digest.py`` (run before and after a change, then compared).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from planner import Catalog, InputError, Scenario, sweep
from planner.engine import plan
from planner.fabric.collectives import (
    MESSAGE_SIZES_BYTES,
    auto_time_us,
    busbw_sweep_gbyte_per_s,
    collective_time,
    two_level_fabric,
)
from planner.fabric.topology import build_topology, server_ports
from planner.i18n.message import Message, kept_msg, msg
from planner.outputs import plan_summary_row
from planner.resolve import resolve

COMPARE_MODULE = importlib.import_module("planner.compare")


def test_a_kept_message_is_the_message_msg_makes() -> None:
    kept = kept_msg("{n} servers in {where}", n=4, where=msg("rack"))
    made = msg("{n} servers in {where}", n=4, where=msg("rack"))
    assert kept == made and kept.template == made.template and kept.params == made.params
    assert kept_msg("{n} servers in {where}", n=4, where=msg("rack")) is kept


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"x": -0.0}, {"x": 0.0}),  # equal floats that print differently ("-0" and "0")
        ({"x": True}, {"x": 1}),  # True == 1, yet a count of 1 makes the noun singular
        ({"x": 1}, {"x": 1.0}),  # equal numbers of different types
        ({"x": msg("rack")}, {"x": "rack"}),  # the message translates, the plain text does not
        ({"x": msg("{name}", name="rack")}, {"x": msg("rack")}),  # one text, two templates
    ],
)
def test_kept_messages_stay_apart_where_their_parameters_differ(
    first: dict[str, object], second: dict[str, object]
) -> None:
    a, b = kept_msg("{x} servers", **first), kept_msg("{x} servers", **second)
    assert a is not b
    for kept, params in ((a, first), (b, second)):
        assert type(kept.params["x"]) is type(params["x"])
        assert str(kept) == str(msg("{x} servers", **params))


def test_a_parameter_that_cannot_be_hashed_is_filled_each_time() -> None:
    kept = kept_msg("{ids}", ids=["a", "b"])
    assert isinstance(kept, Message) and str(kept) == "['a', 'b']"


def test_each_sweep_size_is_the_scenario_with_updates_would_make() -> None:
    base = Scenario(design_id="ib-ndr", price_overrides_usd={"br100": 9000.0})
    for gpus in (1, 64, 1_048_576):
        assert COMPARE_MODULE._with_gpus(base, gpus) == base.with_updates(gpus=gpus)
    for bad in (0, 1_048_577, True, 64.0):  # refused as with_updates refuses them, same message
        with pytest.raises(InputError) as expected:
            base.with_updates(gpus=bad)
        with pytest.raises(InputError) as got:
            COMPARE_MODULE._with_gpus(base, bad)
        assert str(got.value) == str(expected.value)


def test_a_sweep_row_is_the_row_of_the_same_plan_made_alone(catalog: Catalog) -> None:
    # a sweep on one design, then each size planned alone after a sweep on another floor and
    # link lengths (whose kept assumptions and texts must not leak into these plans)
    scenario = Scenario(design_id="rail8-npo")
    rows = sweep(scenario=scenario, catalog=catalog, design_ids=["rail8-npo"], sizes=[64, 512]).rows
    other = scenario.model_validate(
        {"facility": {"link_lengths": {"node_leaf_m": 3}, "load_factor": 0.5}, "floor": {"row_length_m": 20}}
    )
    sweep(scenario=other, catalog=catalog, design_ids=["rail8-npo"], sizes=[64, 512])
    for row, gpus in zip(rows, (64, 512), strict=True):
        alone = plan(scenario=scenario.with_updates(gpus=gpus), catalog=catalog, layout_cable_lengths=False)
        assert row == plan_summary_row(alone)
        floor_note = next(a for a in alone.assumptions if a.topic == "model.link_lengths")
        assert "node-leaf 10 m" in floor_note.text and "12 m rows" in floor_note.text


def test_plans_on_different_floors_keep_their_own_assumptions(catalog: Catalog) -> None:
    default = plan(scenario=Scenario(gpus=64), catalog=catalog, layout_cable_lengths=False)
    other = plan(
        scenario=Scenario(gpus=64, facility={"load_factor": 0.5}),
        catalog=catalog,
        layout_cable_lengths=False,
    )
    energy = {
        p.scenario.facility.load_factor: next(a for a in p.assumptions if a.topic == "model.energy")
        for p in (default, other)
    }
    assert "80%" in energy[0.8].text and "50%" in energy[0.5].text
    # everything else the two lists say is the same
    assert [dataclasses.astuple(a) for a in default.assumptions if a.topic != "model.energy"] == [
        dataclasses.astuple(a) for a in other.assumptions if a.topic != "model.energy"
    ]


def test_a_plans_busbw_curve_is_worked_out_when_first_read(catalog: Catalog) -> None:
    # a sweep never reads the curve, so it is not made with the plan; read, it is the sweep of
    # busbw over every message size on the plan's fabric, kept on the plan
    p = plan(scenario=Scenario(design_id="ib-ndr", gpus=512), catalog=catalog, layout_cable_lengths=False)
    assert "curve" not in vars(p.bandwidth)
    fabric = p.bandwidth.fabric
    allreduce = busbw_sweep_gbyte_per_s(
        fabric=fabric, collective="all_reduce", sizes_bytes=MESSAGE_SIZES_BYTES
    )
    alltoall = busbw_sweep_gbyte_per_s(
        fabric=fabric, collective="all_to_all", sizes_bytes=MESSAGE_SIZES_BYTES
    )
    curve = p.bandwidth.curve
    assert curve == tuple(zip(MESSAGE_SIZES_BYTES, allreduce, alltoall, strict=True))
    assert p.bandwidth.curve is curve


@pytest.mark.parametrize(
    ("radix", "spine_radix", "gpus_per_node", "nic_ports"),
    [(64, None, 8, 1), (32, None, 8, 1), (64, 128, 8, 2), (64, None, 4, 1)],
)
def test_a_fabrics_kept_ports_follow_its_switches_and_server(
    catalog: Catalog, radix: int, spine_radix: int | None, gpus_per_node: int, nic_ports: int
) -> None:
    # one fabric object with other radices, servers and NICs (the order kept, then asked) gives
    # what a fresh count of the same inputs gives
    fabric = catalog.designs["ib-ndr"].fabric
    for nodes in (4, 200):
        kept = build_topology(
            nodes=nodes, gpus_per_node=gpus_per_node, fabric=fabric, radix=radix, spine_radix=spine_radix
        )
        ports = server_ports(gpus_per_node=gpus_per_node, fabric=fabric, nic_ports=nic_ports)
        fresh_fabric = fabric.model_copy()  # another object: nothing kept for it
        assert kept == build_topology(
            nodes=nodes,
            gpus_per_node=gpus_per_node,
            fabric=fresh_fabric,
            radix=radix,
            spine_radix=spine_radix,
        )
        assert ports == server_ports(gpus_per_node=gpus_per_node, fabric=fresh_fabric, nic_ports=nic_ports)


def test_a_kept_bom_line_keeps_an_int_price_apart_from_the_equal_float(catalog: Catalog) -> None:
    # a kept line is found by record, description, quantity and price; 20,000 and 20,000.0 are
    # equal and hash alike, so without the price's type one would take the other's line
    bom = importlib.import_module("planner.bom")
    r = resolve(scenario=Scenario(design_id="ib-ndr", gpus=512), catalog=catalog)
    made = {
        type(price): bom._kept_line(r, r.switch, "fabric_switches", "a switch", 3, price)
        for price in (20_000, 20_000.0, 20_000)
    }
    assert type(made[int].unit_cost_usd) is int and type(made[float].unit_cost_usd) is float
    assert bom._kept_line(r, r.switch, "fabric_switches", "a switch", 3, 20_000) is made[int]


def test_a_plan_after_a_sweep_equals_the_plan_made_with_nothing_kept(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = Scenario(design_id="rail8-npo", gpus=512)
    sweep(scenario=Scenario(), catalog=catalog)  # fills every cache a sweep keeps
    after_sweep = plan(scenario=scenario, catalog=catalog, layout_cable_lengths=False)
    bom = importlib.import_module("planner.bom")
    engine = importlib.import_module("planner.engine")
    scale_up = importlib.import_module("planner.fabric.scale_up")
    for name in ("_KEPT_LINES", "_KEPT_AUXILIARY_LINES", "_KEPT_RACK_LINES", "_KEPT_AUX_LINES"):
        monkeypatch.setattr(bom, name, type(getattr(bom, name))(max_entries=8))
    engine._models.cache_clear()
    scale_up.in_server_domain.cache_clear()
    fresh = plan(scenario=scenario, catalog=catalog, layout_cable_lengths=False)
    assert fresh == after_sweep
    for kept, made in zip(after_sweep.bom, fresh.bom, strict=True):
        assert [type(getattr(kept, f.name)) for f in dataclasses.fields(kept)] == [
            type(getattr(made, f.name)) for f in dataclasses.fields(made)
        ]


@pytest.mark.parametrize("gpus", [8, 64, 1024])
def test_auto_time_us_is_collective_time_every_bit(catalog: Catalog, gpus: int) -> None:
    fabric = plan(scenario=Scenario(design_id="ib-ndr", gpus=gpus), catalog=catalog).bandwidth.fabric
    for collective, size in (("all_reduce", 8), ("all_to_all", 2**30), ("all_gather", 1e6)):
        made = collective_time(fabric=fabric, collective=collective, message_bytes=size)  # type: ignore[arg-type]
        assert auto_time_us(fabric=fabric, collective=collective, message_bytes=size) == made.time_us  # type: ignore[arg-type]


def test_auto_time_us_on_one_gpu_and_a_negative_size() -> None:
    one = two_level_fabric(gpus=1, domain_gpus=1, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    assert auto_time_us(fabric=one, collective="all_reduce", message_bytes=8) == 0.0
    with pytest.raises(InputError, match="message_bytes"):
        auto_time_us(fabric=one, collective="all_reduce", message_bytes=-1)
