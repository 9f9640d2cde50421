"""The floor is part of the scenario (issue 29, Deliver 5): ``Scenario.floor`` is the floor the
plan's cables are laid out on, so the BOM, the Layout page and the CLI order the same cables; an
old scenario (no floor) opens unchanged on the default floor."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from handoff_fixtures import CATALOG

from planner import i18n, plan
from planner.cli import run
from planner.engine import Plan
from planner.errors import InputError
from planner.handoff.cabling import build_handoff
from planner.handoff.pricing import layout_cable_pricing
from planner.inputs.layout import LayoutParams
from planner.inputs.scenario import scenario_from_data, scenario_to_json
from planner.outputs import plan_to_dict
from ui import inputs

WriteYaml = Callable[[str, Any], Path]
SIX_M = {"gpus": 256, "design_id": "ib-ndr", "floor": {"row_length_m": 6.0}}
"""A 6 m row floor: 10 racks a row at 0.6 m instead of 20, so the rows double and the runs change."""


def cable_bins(p: Plan) -> dict[tuple[str, str], dict[float, int]]:
    """The BOM's cables per (link class, part) and ordered length [m -> count]."""
    bins: dict[tuple[str, str], dict[float, int]] = {}
    for line in p.bom:
        if line.category == "cables":
            (link_class,) = line.link_classes
            assert line.length_m is not None
            bins.setdefault((link_class, line.id), {})[line.length_m] = line.quantity
    return bins


def test_the_bom_orders_the_cables_of_the_scenarios_floor() -> None:
    """The BOM of a 6 m floor equals the order list of the layout on that floor (the hand-off,
    built independently from the floor given to it), and differs from the default floor's."""
    six = plan(scenario=scenario_from_data(SIX_M), catalog=CATALOG)
    default = plan(scenario=scenario_from_data({**SIX_M, "floor": None}), catalog=CATALOG)
    handoff = build_handoff(plan=six, catalog=CATALOG, params=LayoutParams(row_length_m=6.0))
    order_list = {(p.link_class, p.cable_part): p.ordered_m for p in layout_cable_pricing(handoff, CATALOG)}
    assert cable_bins(six) == order_list
    assert cable_bins(six) != cable_bins(default)
    assert six.cost.capex_usd != default.cost.capex_usd


def test_an_old_scenario_opens_on_the_default_floor() -> None:
    """A scenario written before the floor existed has no ``floor`` key: it validates, keeps no
    floor, and plans exactly as the default floor does."""
    old = {"gpus": 256, "design_id": "ib-ndr", "facility": {"rack_power_limit_kw": 40.0}}
    scenario = scenario_from_data(old)
    assert scenario.floor is None
    explicit = scenario_from_data({**old, "floor": LayoutParams().model_dump()})
    assert cable_bins(plan(scenario=scenario, catalog=CATALOG)) == cable_bins(
        plan(scenario=explicit, catalog=CATALOG)
    )
    assert scenario_from_data(json.loads(scenario_to_json(scenario))) == scenario


def test_a_bad_floor_names_its_field() -> None:
    with pytest.raises(InputError, match=r"floor\.row_length_m"):
        scenario_from_data({**SIX_M, "floor": {"row_length_m": -1}})
    with pytest.raises(InputError, match=r"floor\.slak_m"):
        scenario_from_data({**SIX_M, "floor": {"slak_m": 2}})
    with pytest.raises(InputError, match=r"layout\.max_rows: 12 racks need"):
        plan(
            scenario=scenario_from_data({**SIX_M, "floor": {"row_length_m": 6.0, "max_rows": 1}}),
            catalog=CATALOG,
        )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_assumptions_name_the_floor(lang: str) -> None:
    six = plan(scenario=scenario_from_data(SIX_M), catalog=CATALOG)
    default = plan(scenario=scenario_from_data({**SIX_M, "floor": None}), catalog=CATALOG)
    [used] = [a.text for a in six.assumptions if a.topic == "model.floor"]
    [other] = [a.text for a in default.assumptions if a.topic == "model.floor"]
    text, default_text = i18n.translate(used, lang), i18n.translate(other, lang)
    assert "6 m" in text and "12 m" in default_text
    words = {"en": ("the scenario's floor", "the default floor"), "zh": ("场景设定的场地", "默认场地")}[lang]
    assert words[0] in text and words[1] in default_text


def test_the_inputs_carry_the_floor_both_ways() -> None:
    """The web app's inputs: the default floor makes no ``floor`` (an old scenario stays as it
    was), a 6 m row with 4 rows makes one, and a scenario's floor comes back as the same inputs."""
    values = {**inputs.defaults()}
    assert inputs.scenario_data(values, {})["floor"] is None
    values.update(row_m=6.0, max_rows=4)
    floor = scenario_from_data(inputs.scenario_data(values, {})).floor
    assert floor == LayoutParams(row_length_m=6.0, max_rows=4)
    query = inputs.to_query(values, {})
    assert (query["row_m"], query["max_rows"]) == ("6", "4")
    assert inputs.parse_query(query)[0]["row_m"] == 6.0
    assert inputs.input_of_error("layout.max_rows: 12 racks need 2 rows") == "max_rows"


def run_cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_cli_round_trip(write_yaml: WriteYaml, capsys: pytest.CaptureFixture[str]) -> None:
    """A scenario file's ``floor:`` reaches ``planner plan`` (the BOM) and ``planner layout`` (its
    order list agrees with the BOM); ``--row-length-m`` overrides the file's floor for the command."""
    path = write_yaml("floor.yaml", SIX_M)
    code, out, err = run_cli("plan", "--scenario", str(path), "--format", "json", capsys=capsys)
    assert code == 0, err
    expected = plan_to_dict(plan(scenario=scenario_from_data(SIX_M), catalog=CATALOG))
    assert json.loads(out)["bom"] == json.loads(json.dumps(expected["bom"]))
    default = plan_to_dict(plan(scenario=scenario_from_data({**SIX_M, "floor": None}), catalog=CATALOG))
    assert json.loads(out)["bom"] != json.loads(json.dumps(default["bom"]))

    code, out, err = run_cli(
        "compare", "--scenario", str(path), "--designs", "ib-ndr", "--format", "json", capsys=capsys
    )
    assert code == 0, err
    [compared] = json.loads(out)["plans"]
    assert compared["cost"]["capex_usd"] == pytest.approx(expected["cost"]["capex_usd"], rel=1e-12)

    code, out, err = run_cli("layout", "--scenario", str(path), "--format", "json", capsys=capsys)
    assert code == 0, err
    on_file = json.loads(out)
    assert on_file["racks_per_row"] == 10  # 6 m / 0.6 m racks
    assert all(row["ordered_lengths"] == row["bom_lengths"] for row in on_file["cable_prices"])

    code, out, err = run_cli(
        "layout", "--scenario", str(path), "--row-length-m", "9.6", "--format", "json", capsys=capsys
    )
    assert code == 0, err
    overridden = json.loads(out)
    assert overridden["racks_per_row"] == 16  # 9.6 m / 0.6 m racks: the option wins
    assert all(row["ordered_lengths"] == row["bom_lengths"] for row in overridden["cable_prices"])

    code, _, err = run_cli(
        "plan", "--scenario", str(write_yaml("bad.yaml", {**SIX_M, "floor": {"max_rows": 0}})), capsys=capsys
    )
    assert code == 2 and "floor.max_rows" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_customer_proposal_names_the_floor(lang: str) -> None:
    """The customer edition's assumptions table holds the floor sentence in the document's language."""
    from planner.report import proposal
    from planner.report.proposal.assumptions import assumption_rows

    options = proposal.ProposalOptions(lang=lang, compare_designs=False)
    built = proposal.build_proposal(scenario=scenario_from_data(SIX_M), catalog=CATALOG, options=options)
    texts = " ".join(assumption_rows(built)[i18n.tr("col.text", lang)])
    expected = {
        "en": "the rack layout's floor (the scenario's floor): rows up to 6 m long",
        "zh": "场景设定的场地",
    }
    assert expected[lang] in texts


def test_a_loaded_scenarios_floor_keeps_what_the_page_does_not_set() -> None:
    """A loaded scenario's floor (aisles, slack) stays under the page's two inputs; the inputs
    show its row length and rows; setting the default row length keeps the rest."""
    from ui import state

    loaded = scenario_from_data({**SIX_M, "floor": {"row_length_m": 6.0, "max_rows": 9, "slack_m": 3.0}})
    values, prices = state.inputs_of_scenario(loaded)
    assert (values["row_m"], values["max_rows"]) == (6.0, 9)
    shown = {**inputs.defaults(), **values}
    merged = scenario_from_data(state.over_base(loaded.model_dump(), inputs.scenario_data(shown, prices)))
    assert merged.floor == loaded.floor
    back = {**shown, "row_m": 12.0, "max_rows": None}
    merged = scenario_from_data(state.over_base(loaded.model_dump(), inputs.scenario_data(back, prices)))
    assert merged.floor == LayoutParams(slack_m=3.0)
    old = scenario_from_data({"gpus": 256, "design_id": "ib-ndr"})
    old_values, old_prices = state.inputs_of_scenario(old)
    shown = inputs.scenario_data({**inputs.defaults(), **old_values}, old_prices)
    assert scenario_from_data(state.over_base(old.model_dump(), shown)) == old
