"""One number everywhere: the BOM prices every cable at the length the plan's layout orders it at
(issue 29, Deliver 5), so the BOM, the TCO, the proposal and the Layout page agree."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from handoff_fixtures import CATALOG, preset_handoff, preset_plan

from planner import plan
from planner.cli import run
from planner.compare import sweep
from planner.fabric.media import cable_unit_cost_usd, length_field
from planner.handoff.pricing import layout_cable_pricing, pricing_rows
from planner.handoff.runs import MAX_LAID_OUT_CABLES, cable_runs
from planner.handoff.sized import Planned
from planner.inputs.scenario import scenario_from_data


def bom_bins(p: Planned) -> dict[tuple[str, str], dict[float, int]]:
    """The BOM's cables per (link class, part) and ordered length [m -> count]."""
    bins: dict[tuple[str, str], dict[float, int]] = {}
    for line in p.bom:
        if line.category == "cables":
            (link_class,) = line.link_classes
            assert line.length_m is not None
            bins.setdefault((link_class, line.id), {})[line.length_m] = line.quantity
    return bins


@pytest.mark.parametrize(
    ("design_id", "gpus"),
    [("rail8-npo", 1024), ("ib-ndr", 256), ("rail4-npo", 64), ("gb200-nvl72-ib-ndr", 144), ("ib-hdr", 64)],
)
def test_bom_cables_per_length_are_the_layout_pages_order_list(design_id: str, gpus: int) -> None:
    """Cable count and metres per length bin, class by class: the BOM's lines and the Layout
    page's order list (``pricing_rows``, the page's "Ordered lengths" column) on its default floor."""
    h = preset_handoff(design_id, gpus)
    pricing = layout_cable_pricing(h, CATALOG)
    bom = bom_bins(h.plan)
    assert {(p.link_class, p.cable_part): p.ordered_m for p in pricing} == bom
    for p in pricing:
        metres = sum(length * n for length, n in bom[(p.link_class, p.cable_part)].items())
        assert metres == sum(length * n for length, n in p.ordered_m.items())
    for row in pricing_rows(pricing):
        assert row["ordered_lengths"] == row["bom_lengths"] and row["difference_usd"] == 0
    assert sum(sum(b.values()) for b in bom.values()) == len(h.cables)


def test_the_1024_gpu_rail8_node_leaf_cables_are_ordered_as_the_layout_page_lists_them() -> None:
    """The lengths issue 29 read off the Layout page (3,336 x 15 m and 1,104 x 20 m), now BOM lines;
    MPO trunk fiber_mmf_mpo: 45 USD + 2 USD/m (data/cables.yaml), so a 15 m trunk is 75 USD and
    the 15 m line 3,336 x 75 = 250,200 USD."""
    p = preset_plan("rail8-npo", 1024)
    assert bom_bins(p)[("node_leaf", "fiber_mmf_mpo")] == {7.0: 440, 10.0: 3312, 15.0: 3336, 20.0: 1104}
    (line,) = [x for x in p.bom if x.link_classes == ("node_leaf",) and x.length_m == 15.0]
    assert line.unit_cost_usd == 75.0 and line.total_usd == 250_200.0
    assert "15 m" in line.description


def test_capex_moves_by_the_cable_difference_with_installation_and_spares() -> None:
    """Against every cable at the scenario's one length (node-leaf 10 m, leaf-spine 30 m ...), the
    layout's lengths change hardware by the cables' price difference only (optics, switches and the
    cooling do not depend on a cable's length), and CAPEX by that times 1 + installation 5 % +
    spares 3 % (data/cost_factors). The default 1,024-GPU rail8-npo plan: 47,766,920 USD against
    48,142,278 (tests/test_ports.py)."""
    scenario = scenario_from_data({"gpus": 1024, "design_id": "rail8-npo"})
    laid_out = plan(scenario=scenario, catalog=CATALOG)
    single = plan(scenario=scenario, catalog=CATALOG, layout_cable_lengths=False)
    cables = {False: 0.0, True: 0.0}
    for p, key in ((single, False), (laid_out, True)):
        cables[key] = sum(x.total_usd for x in p.bom if x.category == "cables")
    lengths = scenario.facility.link_lengths
    for (link_class, _), bins in bom_bins(single).items():
        assert list(bins) == [getattr(lengths, length_field(link_class))]
    fractions = sum(CATALOG.cost_factors[k].value for k in ("installation_fraction", "spares_fraction"))
    change = (cables[True] - cables[False]) * (1 + fractions)
    assert laid_out.cost.capex_usd - single.cost.capex_usd == pytest.approx(change)
    assert round(laid_out.cost.capex_usd) == 47_766_920 and round(single.cost.capex_usd) == 48_142_278
    assert laid_out.cost.tco_usd < single.cost.tco_usd


def test_a_sweep_prices_the_scenarios_one_length_and_says_so() -> None:
    """A sweep plans every size without a layout (a hundred times faster); its docstring says so."""
    scenario = scenario_from_data({"gpus": 1024, "design_id": "rail8-npo"})
    row = sweep(scenario=scenario, catalog=CATALOG, design_ids=["rail8-npo"], sizes=[1024]).frame.iloc[0]
    single = plan(scenario=scenario, catalog=CATALOG, layout_cable_lengths=False)
    assert row["capex_usd"] == pytest.approx(single.cost.capex_usd)
    assert "one length per link class" in (sweep.__doc__ or "")


def test_a_price_edit_reuses_the_layout() -> None:
    """The layout is kept per sized cluster: a price override (or finance) edit plans again
    without laying the cables out again."""
    base = scenario_from_data({"gpus": 256, "design_id": "ib-ndr"})
    priced = base.with_updates(price_overrides_usd={"fiber_mmf_mpo": 50.0})
    first, again = plan(scenario=base, catalog=CATALOG), plan(scenario=priced, catalog=CATALOG)
    assert cable_runs(plan=first, catalog=CATALOG) is cable_runs(plan=again, catalog=CATALOG)
    assert {x.unit_cost_usd for x in again.bom if x.id == "fiber_mmf_mpo"} == {50.0}


def test_a_run_beyond_the_mediums_reach_is_said_with_the_field_to_raise() -> None:
    """At a 2 m node-leaf length the plan picks DAC; the layout runs those cables up to 10 m. The
    plan still prices them where the layout puts them, and a note names the field to raise."""
    scenario = scenario_from_data(
        {"gpus": 64, "design_id": "ib-ndr", "facility": {"link_lengths": {"node_leaf_m": 2}}}
    )
    p = plan(scenario=scenario, catalog=CATALOG)
    notes = [n for n in p.notes if "beyond the" in n]
    assert notes and notes[0].startswith("node-leaf: the layout runs cables up to 10 m")
    assert "facility.link_lengths.node_leaf_m to at least 10" in notes[0]


def test_a_plan_too_large_to_lay_out_keeps_one_length_and_says_so() -> None:
    """4,096 GPUs on rail8-npo: 71,468 cables, above the layout's limit; one line per class at the
    scenario's length (node-leaf 10 m), and a note."""
    p = plan(scenario=scenario_from_data({"gpus": 4096, "design_id": "rail8-npo"}), catalog=CATALOG)
    assert sum(m.links for m in (*p.media, *p.aux_media)) > MAX_LAID_OUT_CABLES
    assert bom_bins(p)[("node_leaf", "fiber_mmf_mpo")] == {10.0: 32768}
    assert any("more than the 40,000 the layout is drawn for" in n for n in p.notes)


def test_planner_bom_and_layout_agree_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``planner layout --format json`` lists per class the ordered lengths and the BOM's: equal."""
    assert run(["layout", "--gpus", "256", "--design", "ib-ndr", "--format", "json"]) == 0
    prices = json.loads(capsys.readouterr().out)["cable_prices"]
    assert prices and all(r["ordered_lengths"] == r["bom_lengths"] for r in prices)
    record = CATALOG.cables["fiber_mmf_mpo"]
    p = preset_plan("ib-ndr", 256)
    for line in p.bom:
        if line.id == "fiber_mmf_mpo":
            assert line.length_m is not None
            assert line.unit_cost_usd == cable_unit_cost_usd(record, line.length_m)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_proposal_bom_lists_the_layouts_lengths(lang: str, tmp_path: Path) -> None:
    """``planner export --csv`` (the proposal's BOM file): the node-leaf cables on one line per
    ordered length, with the Layout page's counts and the unit cost at that length (2 USD/m);
    in Chinese too (the description translated, the length kept)."""
    out = tmp_path / "bom.csv"
    argv = ["export", "--gpus", "1024", "--design", "rail8-npo", "--lang", lang, "--edition", "internal"]
    assert run([*argv, "--csv", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    node_leaf = "node-leaf" if lang == "en" else "节点-Leaf"
    lines = {
        re.findall(r"(\d+) m", row["description"])[-1]: row
        for row in rows
        if row["id"] == "fiber_mmf_mpo" and node_leaf in row["description"]
    }
    assert {m: int(r["quantity"]) for m, r in lines.items()} == {"7": 440, "10": 3312, "15": 3336, "20": 1104}
    assert {m: float(r["unit_cost"]) for m, r in lines.items()} == {
        "7": 59.0,
        "10": 65.0,
        "15": 75.0,
        "20": 85.0,
    }
